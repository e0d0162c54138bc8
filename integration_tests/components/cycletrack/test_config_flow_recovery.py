"""The config flow's errors, each recovered from (the quality scale's config-flow-test-coverage).

Every error a form can show, then the right input on the same flow: the user step ends in an
entry, reconfigure and reauth in their success aborts. Reauth against another service is
refused (wrong_service). The coordinator's setup failures carry translated messages
(exception-translations).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.cycletrack.const import DOMAIN
from homeassistant.config_entries import SOURCE_USER, ConfigEntryState
from homeassistant.const import CONF_API_KEY, CONF_URL
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType

from .contract_server import ContractServer, appliance_body
from .service_under_test import ServiceUnderTest
from .test_config_flow import WRONG_KEY, closed_port


def bad_input(kind: str, server: ContractServer) -> tuple[dict[str, str], dict[str, str]]:
    """Return the input that makes the form show `kind`, and the errors it shows."""
    if kind == "cannot_connect":
        return {CONF_URL: f"http://127.0.0.1:{closed_port()}", CONF_API_KEY: WRONG_KEY}, {"base": kind}
    if kind == "invalid_url":
        return {CONF_URL: "127.0.0.1:8099", CONF_API_KEY: WRONG_KEY}, {CONF_URL: kind}
    if kind == "invalid_auth":
        return {CONF_URL: server.url, CONF_API_KEY: WRONG_KEY}, {"base": kind}
    return {CONF_URL: server.url, CONF_API_KEY: server.api_key}, {"base": kind}


@pytest.fixture
async def not_the_api(socket_enabled: None) -> AsyncIterator[ContractServer]:
    """Return a server that answers with the right key, but not with the contract's body."""
    server = ContractServer([appliance_body("oven", "Oven")])
    server.service = {"hello": "world"}
    await server.start()
    yield server
    await server.stop()


KINDS = ["cannot_connect", "invalid_url", "invalid_auth", "unknown"]


@pytest.mark.parametrize("kind", KINDS)
async def test_user_step_recovers(
    hass: HomeAssistant, service: ServiceUnderTest, not_the_api: ContractServer, kind: str
) -> None:
    """Each error on the user step, then the right URL and key: an entry, loaded."""
    result = await hass.config_entries.flow.async_init(DOMAIN, context={"source": SOURCE_USER})
    wrong, errors = bad_input(kind, not_the_api)
    result = await hass.config_entries.flow.async_configure(result["flow_id"], wrong)
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == errors

    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_URL: service.url, CONF_API_KEY: service.api_key}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert result["result"].unique_id == service.instance_id
    await hass.async_block_till_done()
    assert result["result"].state is ConfigEntryState.LOADED


@pytest.mark.parametrize("kind", KINDS)
async def test_reconfigure_recovers(
    hass: HomeAssistant,
    service: ServiceUnderTest,
    not_the_api: ContractServer,
    mock_config_entry: MockConfigEntry,
    kind: str,
) -> None:
    """Each error on reconfigure, then the service's own URL and key: reconfigured."""
    result = await mock_config_entry.start_reconfigure_flow(hass)
    wrong, errors = bad_input(kind, not_the_api)
    result = await hass.config_entries.flow.async_configure(result["flow_id"], wrong)
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "reconfigure"
    assert result["errors"] == errors
    assert mock_config_entry.data == {CONF_URL: service.url, CONF_API_KEY: service.api_key}

    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_URL: service.url + "/", CONF_API_KEY: service.api_key}
    )
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "reconfigure_successful"
    await hass.async_block_till_done()


async def test_reauth_against_another_service(
    hass: HomeAssistant, service: ServiceUnderTest, socket_enabled: None
) -> None:
    """A key that another service (at the entry's URL now) accepts: wrong_service, the entry kept."""
    entry = MockConfigEntry(
        domain=DOMAIN, unique_id="another-instance", data={CONF_URL: service.url, CONF_API_KEY: WRONG_KEY}
    )
    entry.add_to_hass(hass)
    result = await entry.start_reauth_flow(hass)
    assert result["step_id"] == "reauth_confirm"
    result = await hass.config_entries.flow.async_configure(result["flow_id"], {CONF_API_KEY: service.api_key})
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "wrong_service"
    assert entry.data[CONF_API_KEY] == WRONG_KEY


async def test_reauth_unreachable_then_back(hass: HomeAssistant, socket_enabled: None) -> None:
    """The service is down during reauth: cannot_connect; once it is up, the key is taken."""
    server = ContractServer([appliance_body("oven", "Oven")])
    await server.start()
    entry = MockConfigEntry(
        domain=DOMAIN, unique_id=server.instance_id, data={CONF_URL: server.url, CONF_API_KEY: WRONG_KEY}
    )
    entry.add_to_hass(hass)
    await server.stop()
    try:
        result = await entry.start_reauth_flow(hass)
        result = await hass.config_entries.flow.async_configure(result["flow_id"], {CONF_API_KEY: server.api_key})
        assert result["type"] is FlowResultType.FORM
        assert result["errors"] == {"base": "cannot_connect"}

        await server.start()
        result = await hass.config_entries.flow.async_configure(result["flow_id"], {CONF_API_KEY: server.api_key})
        assert result["type"] is FlowResultType.ABORT
        assert result["reason"] == "reauth_successful"
        assert entry.data[CONF_API_KEY] == server.api_key
        await hass.async_block_till_done()
    finally:
        await hass.config_entries.async_unload(entry.entry_id)
        await server.stop()


async def test_setup_failures_are_translated(hass: HomeAssistant, socket_enabled: None) -> None:
    """Setup that can't read the service: not ready, with the integration's translated reason."""
    url = f"http://127.0.0.1:{closed_port()}"
    entry = MockConfigEntry(domain=DOMAIN, unique_id="x", data={CONF_URL: url, CONF_API_KEY: WRONG_KEY})
    entry.add_to_hass(hass)
    assert not await hass.config_entries.async_setup(entry.entry_id)
    assert entry.state is ConfigEntryState.SETUP_RETRY
    assert entry.error_reason_translation_key == "cannot_read"
    assert entry.error_reason_translation_placeholders is not None
    assert entry.error_reason_translation_placeholders["url"].rstrip("/") == url
    assert entry.reason is not None
    assert entry.reason.startswith(f"cycletrack at {url}/ can't be read")


async def test_refused_key_at_setup_is_translated(
    hass: HomeAssistant, service: ServiceUnderTest, mock_config_entry: MockConfigEntry
) -> None:
    """A refused key at setup: the auth failure's reason is the integration's translated one."""
    hass.config_entries.async_update_entry(mock_config_entry, data={**mock_config_entry.data, CONF_API_KEY: WRONG_KEY})
    assert not await hass.config_entries.async_setup(mock_config_entry.entry_id)
    assert mock_config_entry.state is ConfigEntryState.SETUP_ERROR
    assert mock_config_entry.error_reason_translation_key == "auth_failed"
    assert mock_config_entry.reason is not None
    assert "refused the API key" in mock_config_entry.reason
