"""The history page through Home Assistant, for the sidebar panel."""

from __future__ import annotations

from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from homeassistant.core import HomeAssistant

from custom_components.cycletrack.panel import panel_url

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
