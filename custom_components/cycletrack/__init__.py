"""cycletrack: appliance cycles as Live Activities; the service's face in Home Assistant."""

from __future__ import annotations

from homeassistant.const import CONF_API_KEY, CONF_URL, Platform
from homeassistant.core import HomeAssistant
from homeassistant.helpers import config_validation as cv, device_registry as dr
from homeassistant.helpers.aiohttp_client import async_get_clientsession
from homeassistant.helpers.typing import ConfigType

from .assist import async_setup_assist
from .client import CycletrackClient
from .const import CONF_PANEL, DOMAIN
from .coordinator import (
    CycletrackConfigEntry,
    CycletrackCoordinator,
    CycletrackRuntimeData,
)
from .devices import async_reload_on_device_change, async_remove_empty_devices
from .entity import service_device_info
from .issues import async_watch_issues
from .panel import async_register_panel, async_remove_panel

PLATFORMS: list[Platform] = [
    Platform.BINARY_SENSOR,
    Platform.BUTTON,
    Platform.EVENT,
    Platform.NUMBER,
    Platform.SENSOR,
    Platform.SWITCH,
]

# Set up from the UI only (config entries); nothing in configuration.yaml.
CONFIG_SCHEMA = cv.config_entry_only_config_schema(DOMAIN)


async def async_setup(hass: HomeAssistant, config: ConfigType) -> bool:
    """Register what Assist asks (assist.py): once, whatever the entries."""
    async_setup_assist(hass)
    return True


async def async_setup_entry(hass: HomeAssistant, entry: CycletrackConfigEntry) -> bool:
    """Read the service once (not ready / auth failed if that fails), then follow its stream."""
    client = CycletrackClient(async_get_clientsession(hass), entry.data[CONF_URL], entry.data[CONF_API_KEY])
    coordinator = CycletrackCoordinator(hass, entry, client)
    await coordinator.async_config_entry_first_refresh()
    entry.runtime_data = CycletrackRuntimeData(client=client, coordinator=coordinator)

    # The appliances' own devices name the service's device as via_device: it comes first.
    service_device = dr.async_get(hass).async_get_or_create_from_info(
        config_entry_id=entry.entry_id, device_info=service_device_info(coordinator)
    )
    coordinator.service_device_id = service_device.id
    await hass.config_entries.async_forward_entry_setups(entry, PLATFORMS)
    async_remove_empty_devices(hass, entry)
    entry.async_on_unload(async_reload_on_device_change(hass, entry))

    async_watch_issues(hass, entry)
    if entry.options.get(CONF_PANEL, False):
        await async_register_panel(hass, entry)
    entry.async_create_background_task(hass, coordinator.async_follow_stream(), "cycletrack event stream")
    return True


async def async_unload_entry(hass: HomeAssistant, entry: CycletrackConfigEntry) -> bool:
    """Stop the stream (the background task ends with the entry) and the platforms."""
    # Whatever the options say now: they may have changed since the panel was added.
    async_remove_panel(hass, entry)
    return await hass.config_entries.async_unload_platforms(entry, PLATFORMS)


async def async_remove_config_entry_device(
    hass: HomeAssistant, entry: CycletrackConfigEntry, device: dr.DeviceEntry
) -> bool:
    """Allow removing a device once no appliance of the service is on it."""
    coordinator = entry.runtime_data.coordinator
    if (coordinator.config_entry.domain, coordinator.instance_id) in device.identifiers:
        return False
    for appliance in coordinator.data.appliances.values():
        if appliance.device_id == device.id:
            return False
        if any(identifier[1] == f"{coordinator.instance_id}_{appliance.id}" for identifier in device.identifiers):
            return False
    return True
