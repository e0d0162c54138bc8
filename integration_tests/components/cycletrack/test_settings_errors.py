"""What the entities' actions raise when the service refuses or can't be reached, and device removal.

A refused setting is the user's mistake (ServiceValidationError, setting_refused); an appliance
the service doesn't know, or a service that is down, is a failure (HomeAssistantError,
request_failed); each with the integration's translated message (action-exceptions,
exception-translations). A device goes by hand only when no appliance of the service is on it.
"""

from __future__ import annotations

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.typing import WebSocketGenerator

from custom_components.cycletrack.const import DOMAIN
from custom_components.cycletrack.settings import (
    async_end_activity,
    async_update_settings,
)
from homeassistant.const import EntityCategory
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError, ServiceValidationError
from homeassistant.helpers import device_registry as dr, entity_registry as er
from homeassistant.setup import async_setup_component

from .service_under_test import ServiceUnderTest, StandInService
from .test_entities import entity_id


async def test_a_refused_setting_is_the_users_mistake(
    hass: HomeAssistant, service: ServiceUnderTest, loaded_entry: MockConfigEntry
) -> None:
    """The service answers 400 to a bad value: setting_refused, with its message."""
    coordinator = loaded_entry.runtime_data.coordinator
    with pytest.raises(ServiceValidationError) as refused:
        await async_update_settings(coordinator, service.own_appliance, {"unload_reminder_minutes": -5})
    assert refused.value.translation_key == "setting_refused"
    assert refused.value.translation_placeholders is not None
    # The appliance by its name, as the user knows it (not its id).
    own = coordinator.data.appliances[service.own_appliance]
    assert own.name != own.id
    assert refused.value.translation_placeholders["appliance"] == own.name
    assert refused.value.translation_placeholders["message"]


@pytest.mark.parametrize("call", ["settings", "end_activity"])
async def test_an_unknown_appliance_is_a_failure(
    hass: HomeAssistant, service: ServiceUnderTest, loaded_entry: MockConfigEntry, call: str
) -> None:
    """The service doesn't know the appliance (404): request_failed."""
    coordinator = loaded_entry.runtime_data.coordinator
    request = (
        async_update_settings(coordinator, "no_such_appliance", {"live_activity": False})
        if call == "settings"
        else async_end_activity(coordinator, "no_such_appliance")
    )
    with pytest.raises(HomeAssistantError) as failed:
        await request
    assert not isinstance(failed.value, ServiceValidationError)
    assert failed.value.translation_key == "request_failed"


async def test_a_service_that_is_down_is_a_failure(
    hass: HomeAssistant, stand_in: StandInService, loaded_entry: MockConfigEntry
) -> None:
    """A setting, or the button's call, while the service is down: request_failed."""
    coordinator = loaded_entry.runtime_data.coordinator
    await stand_in.stop()
    try:
        with pytest.raises(HomeAssistantError) as failed:
            await async_update_settings(coordinator, stand_in.own_appliance, {"live_activity": False})
        assert failed.value.translation_key == "request_failed"
        with pytest.raises(HomeAssistantError) as ended:
            await async_end_activity(coordinator, stand_in.own_appliance)
        assert ended.value.translation_key == "request_failed"
    finally:
        await stand_in.start()


async def test_only_a_device_without_an_appliance_goes_by_hand(
    hass: HomeAssistant,
    hass_ws_client: WebSocketGenerator,
    service: ServiceUnderTest,
    loaded_entry: MockConfigEntry,
) -> None:
    """The service's device and an appliance's stay; a device no appliance is on may go."""
    assert await async_setup_component(hass, "config", {})
    devices = dr.async_get(hass)
    instance_id = loaded_entry.runtime_data.coordinator.instance_id
    service_device = next(iter(devices.async_get_devices(identifiers={(DOMAIN, instance_id)})), None)
    own_device = next(
        iter(devices.async_get_devices(identifiers={(DOMAIN, f"{instance_id}_{service.own_appliance}")})), None
    )
    orphan = devices.async_get_or_create(
        config_entry_id=loaded_entry.entry_id, identifiers={(DOMAIN, f"{instance_id}_gone_appliance")}
    )
    assert service_device is not None
    assert own_device is not None
    client = await hass_ws_client(hass)

    async def remove(device: dr.DeviceEntry) -> bool:
        await client.send_json_auto_id(
            {
                "type": "config/device_registry/remove_config_entry",
                "config_entry_id": loaded_entry.entry_id,
                "device_id": device.id,
            }
        )
        return bool((await client.receive_json())["success"])

    assert not await remove(service_device)
    assert not await remove(own_device)
    assert await remove(orphan)
    assert devices.async_get(orphan.id) is None


async def test_settings_are_configuration_entities(
    hass: HomeAssistant, service: ServiceUnderTest, loaded_entry: MockConfigEntry
) -> None:
    """The settings (number, switch) are in the device page's configuration section (entity-category)."""
    registry = er.async_get(hass)
    for platform, key in (("number", "progress_step"), ("number", "unload_reminder"), ("switch", "live_activity")):
        item = registry.async_get(entity_id(hass, service, platform, service.own_appliance, key))
        assert item is not None
        assert item.entity_category is EntityCategory.CONFIG, f"{platform}.{key}"
    state = registry.async_get(entity_id(hass, service, "sensor", service.own_appliance, "cycle_state"))
    assert state is not None
    assert state.entity_category is None
