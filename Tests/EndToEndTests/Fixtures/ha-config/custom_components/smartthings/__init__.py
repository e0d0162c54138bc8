"""Stand-in for Home Assistant's ``smartthings`` integration, for cycletrack's end-to-end tests: the
real devices of cycletrack's corpus that a test copied into ``<config>/cycletrack_corpus/smartthings/``,
with the entity ids, unique ids, translation keys, device classes, units and options Home
Assistant's own SmartThings tests record (see custom_components/cycletrack_corpus). No device
when none was copied. Tests drive the states with ``smartthings.set_entity_state``."""
from __future__ import annotations

from typing import Any

import voluptuous as vol

from homeassistant.config_entries import SOURCE_IMPORT, ConfigEntry
from homeassistant.const import Platform
from homeassistant.core import HomeAssistant
from homeassistant.helpers.typing import ConfigType

from custom_components.cycletrack_corpus import async_devices, register_service

DOMAIN = "smartthings"
PLATFORMS = [Platform.SENSOR, Platform.BINARY_SENSOR, Platform.SELECT]
CONFIG_SCHEMA = vol.Schema({DOMAIN: vol.Any(None, {})}, extra=vol.ALLOW_EXTRA)


async def async_setup(hass: HomeAssistant, config: ConfigType) -> bool:
    runtime: dict[str, Any] = {"values": {}, "entities": {}, "devices": await async_devices(hass, DOMAIN)}
    hass.data[DOMAIN] = runtime
    register_service(hass, DOMAIN, runtime)
    if DOMAIN in config and not hass.config_entries.async_entries(DOMAIN):
        hass.async_create_task(
            hass.config_entries.flow.async_init(DOMAIN, context={"source": SOURCE_IMPORT}, data={})
        )
    return True


async def async_setup_entry(hass: HomeAssistant, entry: ConfigEntry) -> bool:
    await hass.config_entries.async_forward_entry_setups(entry, PLATFORMS)
    return True


async def async_unload_entry(hass: HomeAssistant, entry: ConfigEntry) -> bool:
    return await hass.config_entries.async_unload_platforms(entry, PLATFORMS)
