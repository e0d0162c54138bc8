"""The history page through Home Assistant, for the sidebar panel."""

from __future__ import annotations

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.cycletrack.const import CONF_PANEL
from custom_components.cycletrack.panel import panel_url
from homeassistant.components.frontend import DATA_PANELS
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component

from .service_under_test import ServiceUnderTest


async def test_history_page_through_the_proxy(
    hass: HomeAssistant,
    hass_client_no_auth: ClientSessionGenerator,
    service: ServiceUnderTest,
    loaded_entry: MockConfigEntry,
) -> None:
    """The token path serves the service's page, its links under the proxy's prefix; a wrong token is 404."""
    url = panel_url(hass, loaded_entry)
    assert url is not None
    client = await hass_client_no_auth()
    response = await client.get(url)
    assert response.status == 200
    assert response.headers["Content-Type"].startswith("text/html")
    page = await response.text()
    assert f'<base href="{url}">' in page

    response = await client.get("/api/cycletrack/history/not-the-token/")
    assert response.status == 404


@pytest.mark.parametrize(
    "path",
    ["api/v1/household", "api/v1/events", "api", "API/v1/service", "./api/v1/service", "cycles/../api/v1/service",
     "%61pi/v1/service", "%2e%2e/api/v1/service", ".//api/v1/people"],
)
async def test_the_proxy_forwards_the_page_only(
    hass: HomeAssistant,
    hass_client_no_auth: ClientSessionGenerator,
    service: ServiceUnderTest,
    loaded_entry: MockConfigEntry,
    path: str,
) -> None:
    """The proxy adds the API key: the local API's paths, however spelled, are 404 and not asked."""
    url = panel_url(hass, loaded_entry)
    assert url is not None
    client = await hass_client_no_auth()
    response = await client.get(url + path)
    assert response.status == 404
    assert "settings" not in await response.text()


async def test_sidebar_panel_follows_the_option(
    hass: HomeAssistant, service: ServiceUnderTest, mock_config_entry: MockConfigEntry
) -> None:
    """With the option on, a Cycles panel shows the proxied page; off, no panel."""
    assert await async_setup_component(hass, "frontend", {})
    assert await hass.config_entries.async_setup(mock_config_entry.entry_id)
    await hass.async_block_till_done()
    panel = hass.data[DATA_PANELS]["cycletrack"]
    assert panel.component_name == "iframe"
    assert panel.sidebar_title == "Cycles"
    assert panel.config == {"url": panel_url(hass, mock_config_entry)}

    hass.config_entries.async_update_entry(mock_config_entry, options={CONF_PANEL: False})
    assert await hass.config_entries.async_reload(mock_config_entry.entry_id)
    await hass.async_block_till_done()
    assert "cycletrack" not in hass.data[DATA_PANELS]
    assert panel_url(hass, mock_config_entry) is None
