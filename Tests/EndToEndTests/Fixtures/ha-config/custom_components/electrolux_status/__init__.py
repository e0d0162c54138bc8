"""Stand-in for the HACS ``electrolux_status`` integration
(albaintor/homeassistant_electrolux_status), for cycletrack's end-to-end tests: ONE AEG
washing machine whose entities are shaped as the real integration makes them:

- ``applianceState``, ``programUID`` and ``cyclePhase``: plain string sensors (no options)
  whose value is shown as sensor.py's ``native_value`` does: underscores to spaces,
  title-cased ("END_OF_CYCLE" is "End Of Cycle");
- ``timeToEnd``: a duration sensor, native unit seconds, suggested unit minutes (what HA
  then shows);
- ``doorState``: a binary sensor of device class door, on when open.

Tests drive it with ``electrolux_status.set_state``: ``{"appliance_state": "RUNNING",
"time_to_end": 9000, "door": "CLOSED"}``, the API's own values; keys are const.ROLES.
"""
from __future__ import annotations

from typing import Any

import voluptuous as vol

from homeassistant.config_entries import SOURCE_IMPORT, ConfigEntry
from homeassistant.const import Platform
from homeassistant.core import HomeAssistant, ServiceCall
from homeassistant.helpers.typing import ConfigType

from .const import DOMAIN, ROLES

PLATFORMS = [Platform.SENSOR, Platform.BINARY_SENSOR]
CONFIG_SCHEMA = vol.Schema({DOMAIN: vol.Any(None, {})}, extra=vol.ALLOW_EXTRA)


async def async_setup(hass: HomeAssistant, config: ConfigType) -> bool:
    runtime: dict[str, Any] = {"values": {role: initial for role, (_, initial) in ROLES.items()}, "entities": {}}
    hass.data[DOMAIN] = runtime

    async def set_state(call: ServiceCall) -> None:
        updates = {key: str(value) for key, value in call.data.items()}
        for key in updates:
            if key not in ROLES:
                raise vol.Invalid(f"unknown role {key!r}; roles are {sorted(ROLES)}")
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
