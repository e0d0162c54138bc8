"""cycletrack: appliance cycles as Live Activities; the service's face in Home Assistant."""

from __future__ import annotations

from homeassistant.const import CONF_API_KEY, CONF_URL, Platform
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ConfigEntryNotReady
from homeassistant.helpers import config_validation as cv, device_registry as dr
from homeassistant.helpers.aiohttp_client import async_get_clientsession
from homeassistant.helpers.typing import ConfigType

from .assist import async_setup_assist
from .client import ApiError, CycletrackClient, CycletrackError
from .const import CONF_PANEL, DOMAIN, LOGGER
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
    await _async_announce(client)
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


async def _async_announce(client: CycletrackClient) -> None:
    """Tell the service an integration is configured, before any entity is made.

    The service then removes the `sensor.cycletrack_*` states it had posted over HA's REST
    API and posts none again, so this integration's entity ids are free (no `_2`). A
    service older than that call (404, 405) keeps them out while the event stream is open.
    """
    try:
        await client.async_announce()
    except CycletrackError as err:
        if isinstance(err, ApiError) and err.status in (404, 405):
            LOGGER.debug("cycletrack at %s does not take the announcement (an older service): %s", client.base_url, err)
            return
        raise ConfigEntryNotReady(
            translation_domain=DOMAIN,
            translation_key="announce_failed",
            translation_placeholders={"url": client.base_url, "error": str(err)},
        ) from err


async def async_remove_entry(hass: HomeAssistant, entry: CycletrackConfigEntry) -> None:
    """Tell the service the integration is gone, so it posts its REST states again (logged if it can't be told)."""
    client = CycletrackClient(async_get_clientsession(hass), entry.data[CONF_URL], entry.data[CONF_API_KEY])
    try:
        await client.async_withdraw()
    except CycletrackError as err:
        LOGGER.warning(
            "cycletrack at %s was not told that the integration is removed (%s); it keeps its own "
            "sensor.cycletrack_* out of Home Assistant until the integration is added and removed again",
            client.base_url,
            err,
        )


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
