"""Late devices: an appliance whose HA device isn't registered yet gets its own device until it is."""

from __future__ import annotations

from homeassistant.core import Event, HomeAssistant, callback
from homeassistant.helpers import device_registry as dr, entity_registry as er

from .const import LOGGER
from .coordinator import CycletrackConfigEntry


@callback
def async_reload_when_devices_appear(hass: HomeAssistant, entry: CycletrackConfigEntry) -> None:
    """Reload the entry once a device the service names (device_id) is registered.

    Another integration (Home Connect) may set up after cycletrack; its device then
    appears in the registry later, and the appliance's entities move onto it.
    """
    registry = dr.async_get(hass)
    coordinator = entry.runtime_data.coordinator

    # Only devices missing when the entities were made: the entry's own device_id set.
    waiting: set[str] = set()

    @callback
    def note_missing() -> None:
        waiting.update(
            appliance.device_id
            for appliance in coordinator.data.appliances.values()
            if appliance.device_id and registry.async_get(appliance.device_id) is None
        )

    @callback
    def created(event: Event[dr.EventDeviceRegistryUpdatedData]) -> None:
        if event.data["action"] == "create" and event.data["device_id"] in waiting:
            LOGGER.debug("Device %s appeared: moving its appliance's entities onto it", event.data["device_id"])
            hass.config_entries.async_schedule_reload(entry.entry_id)

    note_missing()
    entry.async_on_unload(coordinator.async_add_listener(note_missing))
    entry.async_on_unload(hass.bus.async_listen(dr.EVENT_DEVICE_REGISTRY_UPDATED, created))


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
