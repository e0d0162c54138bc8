"""Devices left without entities: an appliance's own device once its entities are on the device it belongs to."""

from __future__ import annotations

from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import device_registry as dr, entity_registry as er

from .coordinator import CycletrackConfigEntry


@callback
def async_remove_empty_devices(hass: HomeAssistant, entry: CycletrackConfigEntry) -> None:
    """Let go of devices this entry has no entity on any more (an appliance's own device
    after its entities moved to the device it belongs to)."""
    devices = dr.async_get(hass)
    entities = er.async_get(hass)
    for device in dr.async_entries_for_config_entry(devices, entry.entry_id):
        if not any(
            item.config_entry_id == entry.entry_id
            for item in er.async_entries_for_device(entities, device.id, include_disabled_entities=True)
        ):
            devices.async_remove_device(device.id)
