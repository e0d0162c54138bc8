"""Devices left without entities, and devices found late: an appliance's own device once its entities are on the device it belongs to."""

from __future__ import annotations

from homeassistant.core import CALLBACK_TYPE, HomeAssistant, callback
from homeassistant.helpers import device_registry as dr, entity_registry as er

from .coordinator import CycletrackConfigEntry


@callback
def async_remove_empty_devices(hass: HomeAssistant, entry: CycletrackConfigEntry) -> None:
    """Let go of devices this entry has no entity on any more.

    An appliance's own device, say, after its entities moved to the device it belongs to.
    """
    devices = dr.async_get(hass)
    entities = er.async_get(hass)
    for device in dr.async_entries_for_config_entry(devices, entry.entry_id):
        if not any(
            item.config_entry_id == entry.entry_id
            for item in er.async_entries_for_device(entities, device.id, include_disabled_entities=True)
        ):
            devices.async_remove_device(device.id)


@callback
def async_reload_on_device_change(hass: HomeAssistant, entry: CycletrackConfigEntry) -> CALLBACK_TYPE:
    """Reload the entry once the service names another device for an appliance it showed.

    Discovery found it after the entities were made (e.g. the service started before Home
    Assistant): an entity's device is fixed when it is added, so only a reload moves the
    appliance's entities onto the device it belongs to.
    """
    coordinator = entry.runtime_data.coordinator
    shown = {appliance.id: appliance.device_id for appliance in coordinator.data.appliances.values()}

    @callback
    def check() -> None:
        appliances = coordinator.data.appliances.values()
        if any(a.id in shown and a.device_id != shown[a.id] for a in appliances):
            shown.clear()
            hass.config_entries.async_schedule_reload(entry.entry_id)

    return coordinator.async_add_listener(check)
