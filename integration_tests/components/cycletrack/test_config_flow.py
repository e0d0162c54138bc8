"""The config flow: manual, Supervisor discovery, wrong key, unreachable, reauth, reconfigure, options."""

from __future__ import annotations

import asyncio
import socket

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.cycletrack.const import CONF_PANEL, DOMAIN
from homeassistant.config_entries import SOURCE_HASSIO, SOURCE_USER, ConfigEntryState
from homeassistant.const import CONF_API_KEY, CONF_URL
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.helpers.service_info.hassio import HassioServiceInfo

from .conftest import wait_until
from .contract_server import ContractServer, appliance_body
from .service_under_test import ServiceUnderTest, StandInService

WRONG_KEY = "0" * 64


def closed_port() -> int:
    """Return a loopback port nothing listens on (bound, then closed)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def discovery(service: ServiceUnderTest, api_key: str | None = None) -> HassioServiceInfo:
    """Return what the Supervisor hands over when the add-on announces itself."""
    host, port = service.url.removeprefix("http://").split(":")
    return HassioServiceInfo(
        config={"host": host, "port": int(port), "api_key": api_key or service.api_key},
        name="cycletrack",
        slug="a0d7b954_cycletrack",
        uuid="0123456789abcdef0123456789abcdef",
    )


async def test_manual_setup(hass: HomeAssistant, service: ServiceUnderTest) -> None:
    """The user enters the URL and key; the entry is the service's instance."""
    result = await hass.config_entries.flow.async_init(DOMAIN, context={"source": SOURCE_USER})
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "user"

    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_URL: service.url + "/", CONF_API_KEY: service.api_key}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert result["title"] == "cycletrack"
    assert result["data"] == {CONF_URL: service.url, CONF_API_KEY: service.api_key}
    assert result["options"] == {CONF_PANEL: True}
    assert result["result"].unique_id == service.instance_id
    await hass.async_block_till_done()
    assert result["result"].state is ConfigEntryState.LOADED


async def test_manual_wrong_key_then_right(hass: HomeAssistant, service: ServiceUnderTest) -> None:
    """A refused key is invalid_auth; the form stays and the right key then works."""
    result = await hass.config_entries.flow.async_init(DOMAIN, context={"source": SOURCE_USER})
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_URL: service.url, CONF_API_KEY: WRONG_KEY}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {"base": "invalid_auth"}

    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_URL: service.url, CONF_API_KEY: service.api_key}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY


@pytest.mark.parametrize(
    ("url", "error"),
    [
        (f"http://127.0.0.1:{closed_port()}", {"base": "cannot_connect"}),
        ("127.0.0.1:8099", {CONF_URL: "invalid_url"}),
    ],
)
async def test_manual_unreachable(
    hass: HomeAssistant, socket_enabled: None, url: str, error: dict[str, str]
) -> None:
    """Nothing listening, or no scheme: the form says so."""
    result = await hass.config_entries.flow.async_init(DOMAIN, context={"source": SOURCE_USER})
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_URL: url, CONF_API_KEY: WRONG_KEY}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == error


async def test_manual_not_the_api(hass: HomeAssistant, socket_enabled: None) -> None:
    """A server that answers, but not with the contract's body: unknown."""
    server = ContractServer([appliance_body("dishwasher", "Dishwasher")])
    server.service = {"hello": "world"}
    await server.start()
    try:
        result = await hass.config_entries.flow.async_init(DOMAIN, context={"source": SOURCE_USER})
        result = await hass.config_entries.flow.async_configure(
            result["flow_id"], {CONF_URL: server.url, CONF_API_KEY: server.api_key}
        )
    finally:
        await server.stop()
    assert result["errors"] == {"base": "unknown"}


async def test_manual_already_configured(
    hass: HomeAssistant, service: ServiceUnderTest, mock_config_entry: MockConfigEntry
) -> None:
    """The same instance a second time aborts."""
    result = await hass.config_entries.flow.async_init(DOMAIN, context={"source": SOURCE_USER})
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_URL: service.url, CONF_API_KEY: service.api_key}
    )
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "already_configured"


async def test_discovery_one_click(hass: HomeAssistant, service: ServiceUnderTest) -> None:
    """The add-on's Supervisor discovery: confirm once; no second sidebar panel."""
    result = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": SOURCE_HASSIO}, data=discovery(service)
    )
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "hassio_confirm"
    assert result["description_placeholders"] == {"addon": "cycletrack"}

    result = await hass.config_entries.flow.async_configure(result["flow_id"], {})
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert result["result"].unique_id == service.instance_id
    assert result["data"] == {CONF_URL: service.url, CONF_API_KEY: service.api_key}
    assert result["options"] == {CONF_PANEL: False}


async def test_rediscovery_updates_host(
    hass: HomeAssistant, service: ServiceUnderTest, mock_config_entry: MockConfigEntry
) -> None:
    """The same instance at a new address: the entry follows it, no new entry."""
    hass.config_entries.async_update_entry(
        mock_config_entry, data={CONF_URL: "http://127.0.0.1:1", CONF_API_KEY: WRONG_KEY}
    )
    result = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": SOURCE_HASSIO}, data=discovery(service)
    )
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "already_configured"
    assert mock_config_entry.data == {CONF_URL: service.url, CONF_API_KEY: service.api_key}
    assert len(hass.config_entries.async_entries(DOMAIN)) == 1


@pytest.mark.parametrize(
    ("info", "reason"),
    [
        ({"slug": "core_mosquitto"}, "not_cycletrack_addon"),
        ({"api_key": WRONG_KEY}, "invalid_auth"),
        ({"port": closed_port()}, "cannot_connect"),
    ],
)
async def test_discovery_refused(
    hass: HomeAssistant, service: ServiceUnderTest, info: dict[str, object], reason: str
) -> None:
    """Another add-on, a key the service refuses, or nothing at the address: abort."""
    found = discovery(service)
    config = {**found.config, **{k: v for k, v in info.items() if k != "slug"}}
    found = HassioServiceInfo(config=config, name=found.name, slug=str(info.get("slug", found.slug)), uuid=found.uuid)
    result = await hass.config_entries.flow.async_init(DOMAIN, context={"source": SOURCE_HASSIO}, data=found)
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == reason


async def test_refused_key_at_setup_asks_to_reauth(
    hass: HomeAssistant, service: ServiceUnderTest, mock_config_entry: MockConfigEntry
) -> None:
    """A key the service refuses at setup: setup error, and a reauth flow; the new key loads it."""
    hass.config_entries.async_update_entry(mock_config_entry, data={**mock_config_entry.data, CONF_API_KEY: WRONG_KEY})
    assert not await hass.config_entries.async_setup(mock_config_entry.entry_id)
    assert mock_config_entry.state is ConfigEntryState.SETUP_ERROR

    flows = hass.config_entries.flow.async_progress_by_handler(DOMAIN)
    assert [flow["context"]["source"] for flow in flows] == ["reauth"]
    flow_id = flows[0]["flow_id"]

    result = await hass.config_entries.flow.async_configure(flow_id, {CONF_API_KEY: WRONG_KEY})
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {"base": "invalid_auth"}

    result = await hass.config_entries.flow.async_configure(flow_id, {CONF_API_KEY: service.api_key})
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "reauth_successful"
    await hass.async_block_till_done()
    assert mock_config_entry.data[CONF_API_KEY] == service.api_key
    assert mock_config_entry.state is ConfigEntryState.LOADED


async def test_unreachable_at_setup_retries(hass: HomeAssistant, socket_enabled: None) -> None:
    """A service that isn't up: not ready, retried later (test-before-setup)."""
    entry = MockConfigEntry(
        domain=DOMAIN, unique_id="x", data={CONF_URL: f"http://127.0.0.1:{closed_port()}", CONF_API_KEY: WRONG_KEY}
    )
    entry.add_to_hass(hass)
    assert not await hass.config_entries.async_setup(entry.entry_id)
    assert entry.state is ConfigEntryState.SETUP_RETRY


async def test_reconfigure(
    hass: HomeAssistant, service: ServiceUnderTest, mock_config_entry: MockConfigEntry
) -> None:
    """A new address for the same instance is taken; another instance is refused."""
    other = ContractServer([appliance_body("oven", "Oven")])
    await other.start()
    try:
        result = await mock_config_entry.start_reconfigure_flow(hass)
        assert result["step_id"] == "reconfigure"
        result = await hass.config_entries.flow.async_configure(
            result["flow_id"], {CONF_URL: other.url, CONF_API_KEY: other.api_key}
        )
        assert result["type"] is FlowResultType.ABORT
        assert result["reason"] == "wrong_service"

        hass.config_entries.async_update_entry(
            mock_config_entry, data={CONF_URL: "http://127.0.0.1:1", CONF_API_KEY: WRONG_KEY}
        )
        result = await mock_config_entry.start_reconfigure_flow(hass)
        result = await hass.config_entries.flow.async_configure(
            result["flow_id"], {CONF_URL: service.url, CONF_API_KEY: service.api_key}
        )
    finally:
        await other.stop()
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "reconfigure_successful"
    assert mock_config_entry.data == {CONF_URL: service.url, CONF_API_KEY: service.api_key}
    # The entry reloads in the background: let it finish before the test's teardown.
    await hass.async_block_till_done()


async def test_options_panel(hass: HomeAssistant, loaded_entry: MockConfigEntry) -> None:
    """The history page as a sidebar panel: the menu's first entry.

    The form comes at once for a service without the household API, as the contract stand-in is.
    """
    result = await hass.config_entries.options.async_init(loaded_entry.entry_id)
    if result["type"] is FlowResultType.MENU:
        result = await hass.config_entries.options.async_configure(result["flow_id"], {"next_step_id": "sidebar"})
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "sidebar"
    result = await hass.config_entries.options.async_configure(result["flow_id"], {CONF_PANEL: False})
    assert result["type"] is FlowResultType.CREATE_ENTRY
    await hass.async_block_till_done()
    assert loaded_entry.options == {CONF_PANEL: False}
    assert loaded_entry.state is ConfigEntryState.LOADED


async def test_key_refused_while_running_asks_to_reauth(
    hass: HomeAssistant, stand_in: StandInService, loaded_entry: MockConfigEntry
) -> None:
    """The service comes back with another key: the stream's 401 starts a reauth flow."""
    state_id = "sensor.dishwasher_cycle_state"
    await stand_in.stop()
    await wait_until(hass, lambda: hass.states.get(state_id).state == "unavailable", "stream lost")
    stand_in.server.api_key = WRONG_KEY
    flow_added = asyncio.Event()
    remove = hass.config_entries.flow.async_subscribe_flow(lambda change, _: change == "added" and flow_added.set())
    await stand_in.start()
    try:
        await asyncio.wait_for(flow_added.wait(), 15)
    finally:
        remove()
    assert stand_in.server.refused >= 1
    flows = hass.config_entries.flow.async_progress_by_handler(DOMAIN)
    assert [flow["context"]["source"] for flow in flows] == ["reauth"]
    assert hass.states.get(state_id).state == "unavailable"
