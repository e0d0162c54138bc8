"""Stand-in for Home Assistant's ``miele`` integration, for cycletrack's end-to-end
tests: ONE washing machine device (identifiers ``(miele, 000123456789)``, manufacturer
"Miele") whose sensors are shaped like the real integration's (enum status, program and
program phase with the real options; remaining, elapsed and start time as durations in
minutes; energy in kWh). Entity names are German on purpose: discovery must not need
English entity ids.

Tests drive it with ``miele.set_state``: ``{"status": "in_use", "remaining_time": 84, ...}``;
keys are the roles of const.ROLES. An enum value outside its options is refused.

When a test copied real devices of cycletrack's corpus into ``<config>/cycletrack_corpus/miele/``,
the stand-in creates those instead (their real entity ids, unique ids, translation keys, device
classes, options; custom_components/cycletrack_corpus), driven with ``miele.set_entity_state``.
"""
from __future__ import annotations

from typing import Any

import voluptuous as vol

from homeassistant.config_entries import SOURCE_IMPORT, ConfigEntry
from homeassistant.const import Platform
from homeassistant.core import HomeAssistant, ServiceCall
from homeassistant.helpers.typing import ConfigType

from custom_components.cycletrack_corpus import async_devices, register_service

from .const import CORPUS, DOMAIN, ENUMS, ROLES

PLATFORMS = [Platform.SENSOR, Platform.BINARY_SENSOR, Platform.SELECT]
CONFIG_SCHEMA = vol.Schema({DOMAIN: vol.Any(None, {})}, extra=vol.ALLOW_EXTRA)


async def async_setup(hass: HomeAssistant, config: ConfigType) -> bool:
    runtime: dict[str, Any] = {"values": {role: initial for role, (_, initial) in ROLES.items()}, "entities": {}}
    hass.data[DOMAIN] = runtime
    corpus: dict[str, Any] = {"values": {}, "entities": {}, "devices": await async_devices(hass, DOMAIN)}
    hass.data[CORPUS] = corpus
    register_service(hass, DOMAIN, corpus)

    async def set_state(call: ServiceCall) -> None:
        updates = {key: str(value) for key, value in call.data.items()}
        for key, value in updates.items():
            if key not in ROLES:
                raise vol.Invalid(f"unknown role {key!r}; roles are {sorted(ROLES)}")
            if key in ENUMS and value not in ENUMS[key] and value not in ("unknown", "unavailable"):
                raise vol.Invalid(f"{key} must be one of {ENUMS[key]}, not {value!r}")
        runtime["values"].update(updates)
        for key in updates:
            entity = runtime["entities"].get(key)
            if entity is not None:
                entity.async_write_ha_state()

    hass.services.async_register(DOMAIN, "set_state", set_state, schema=vol.Schema({}, extra=vol.ALLOW_EXTRA))
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
