"""Diagnostics: what the service last pushed, with the key redacted."""

from __future__ import annotations

from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.components.diagnostics import (
    get_diagnostics_for_config_entry,
)
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component

from .service_under_test import ServiceUnderTest


async def test_diagnostics_redact_the_key(
    hass: HomeAssistant,
    hass_client: ClientSessionGenerator,
    service: ServiceUnderTest,
    loaded_entry: MockConfigEntry,
) -> None:
    """The key is redacted everywhere; the service and appliances are there."""
    assert await async_setup_component(hass, "diagnostics", {})
    diagnostics = await get_diagnostics_for_config_entry(hass, hass_client, loaded_entry)
    assert diagnostics["entry"]["data"] == {"url": service.url, "api_key": "**REDACTED**"}
    assert service.api_key not in str(diagnostics)
    assert diagnostics["service"]["instance_id"] == service.instance_id
    assert diagnostics["stream_connected"] is True
    assert {a["id"] for a in diagnostics["appliances"]} == {service.linked_appliance, service.own_appliance}
