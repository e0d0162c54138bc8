"""Stand-in for Home Assistant's core ``home_connect`` integration, for cycletrack's
end-to-end tests. A folder of this name in ``custom_components`` overrides the core
integration.

It makes, per configured appliance, ONE device (identifiers ``(home_connect, <id>)``,
manufacturer "BSH") with entities shaped like the real integration's:

    role            entity (device "Dishwasher")                  shape
    operation_state sensor.dishwasher_operation_state             enum; options = the 9 operation states
    progress        sensor.dishwasher_program_progress            unit %
    finish_time     sensor.dishwasher_program_finish_time         device_class timestamp
    program         select.dishwasher_active_program              options = program keys
    selected_program select.dishwasher_selected_program           options = program keys
    door            sensor.dishwasher_door                        enum; options closed locked open
    temperature     sensor.oven_current_oven_cavity_temperature   ovens only; °C

as HA 2026.11's home_connect gives them: the same translation keys and enum options,
unique ids ``<id>-<Home Connect key>``, the door a sensor (the door binary sensor went
in 2025.5), progress and finish time available only while a program is delayed,
running, paused or finished. Also, fixed: the event sensors of the kind of appliance
(``sensor.dishwasher_program_finished``, ``..._salt_lack``, ...; enum ``confirmed off
present``, disabled by default, so they are in the entity registry and have no state)
and the binary sensors remote control, remote start and local control.

YAML (``home_connect: {appliances: [{id, name, kind}]}``, kind one of dishwasher,
washer, dryer, oven) makes the config entry through an import flow, so no browser
is needed; without YAML the user step of the config flow makes one dishwasher.

Tests drive the entities with the action ``home_connect.set_state``:

    {"operation_state": "run", "progress": 42, "finish_time": "2026-11-29T13:05:00+00:00",
     "program": "dishcare_dishwasher_program_eco_50", "door": "closed"}

Keys are roles (of the only appliance, or of the one named by ``"appliance": <id>``)
or entity ids. A value ``"unavailable"`` makes the entity unavailable, ``"unknown"``
or ``null`` unknown. A value the real entity could not show (an operation state
outside its options, a finish time without a zone) is refused with 400 and nothing
changes. Values are kept in ``<config dir>/home_connect_states.json``, so a restarted
HA shows the appliance as it was, as the real integration does after reconnecting.
To show something the real entity can't (an unknown operation state), POST it to
``/api/states/<entity_id>``: it stands until the next ``set_state`` of that role.
"""
from __future__ import annotations

from dataclasses import dataclass, field
import json
import logging
import os
import re
from typing import Any

import voluptuous as vol

from homeassistant.config_entries import SOURCE_IMPORT, ConfigEntry
from homeassistant.const import Platform
from homeassistant.core import HomeAssistant, ServiceCall
import homeassistant.helpers.config_validation as cv
from homeassistant.helpers.typing import ConfigType
from homeassistant.util import dt as dt_util

from .const import (
    ALL_ROLES,
    DOMAIN,
    DOOR_STATES,
    INITIAL_STATES,
    OPERATION_STATES,
    PROGRAMS,
    ROLE_DOOR,
    ROLE_FINISH_TIME,
    ROLE_OPERATION_STATE,
    ROLE_PROGRAM,
    ROLE_PROGRESS,
    ROLE_SELECTED_PROGRAM,
    ROLE_TEMPERATURE,
    STATES_FILE,
)

PLATFORMS = [Platform.SENSOR, Platform.SELECT, Platform.BINARY_SENSOR]
DEFAULT_APPLIANCE = {"id": "SIEMENS-SN65ZX49CE-68A40E000001", "name": "Dishwasher", "kind": "dishwasher"}

APPLIANCE_SCHEMA = vol.Schema(
    {
        vol.Required("id"): vol.All(cv.string, vol.Match(r"^[A-Za-z0-9_-]{1,64}$")),
        vol.Required("name"): cv.string,
        vol.Optional("kind", default="dishwasher"): vol.In(sorted(PROGRAMS)),
    }
)
CONFIG_SCHEMA = vol.Schema(
    {
        DOMAIN: vol.All(
            lambda value: value or {},
            vol.Schema({vol.Optional("appliances", default=[DEFAULT_APPLIANCE]): [APPLIANCE_SCHEMA]}),
        )
    },
    extra=vol.ALLOW_EXTRA,
)
SET_STATE_SCHEMA = vol.Schema({vol.Optional("appliance"): cv.string}, extra=vol.ALLOW_EXTRA)
NOT_THERE = ("unavailable", "unknown")
_LOGGER = logging.getLogger(__name__)


@dataclass
class Runtime:
    """What the stand-in keeps between its entities and its action."""

    states_path: str
    values: dict[str, dict[str, str]] = field(default_factory=dict)
    kinds: dict[str, str] = field(default_factory=dict)
    entities: dict[tuple[str, str], Any] = field(default_factory=dict)

    def ensure(self, appliance: dict[str, Any]) -> None:
        self.kinds[appliance["id"]] = appliance["kind"]
        current = self.values.setdefault(appliance["id"], {})
        for role, value in INITIAL_STATES.items():
            current.setdefault(role, value)

    def snapshot(self) -> str:
        return json.dumps(self.values, indent=2, sort_keys=True)


def _load(path: str) -> dict[str, dict[str, str]]:
    try:
        with open(path, encoding="utf-8") as file:
            data = json.load(file)
    except FileNotFoundError:
        return {}
    return {str(k): {str(r): str(v) for r, v in roles.items()} for k, roles in data.items()}


def _save(path: str, text: str) -> None:
    temporary = path + ".tmp"
    with open(temporary, "w", encoding="utf-8") as file:
        file.write(text)
    os.replace(temporary, path)


def _number(text: str) -> bool:
    return re.fullmatch(r"-?\d+(\.\d+)?", text) is not None


def validate(role: str, kind: str, text: str) -> None:
    """Refuses a value the real entity of this role could not show."""
    if text in NOT_THERE:
        return
    if role == ROLE_OPERATION_STATE and text not in OPERATION_STATES:
        raise vol.Invalid(f"operation_state must be one of {OPERATION_STATES}, not {text!r}")
    if role == ROLE_DOOR and text not in DOOR_STATES:
        raise vol.Invalid(f"door must be one of {DOOR_STATES}, not {text!r}")
    if role in (ROLE_PROGRESS, ROLE_TEMPERATURE) and not _number(text):
        raise vol.Invalid(f"{role} must be a number, not {text!r}")
    if role == ROLE_FINISH_TIME:
        parsed = dt_util.parse_datetime(text)
        if parsed is None or parsed.tzinfo is None:
            raise vol.Invalid(f"finish_time must be an ISO 8601 time with a zone, not {text!r}")
    if role in (ROLE_PROGRAM, ROLE_SELECTED_PROGRAM) and text not in PROGRAMS[kind]:
        raise vol.Invalid(f"program must be one of {PROGRAMS[kind]}, not {text!r}")


def _as_text(key: str, value: Any) -> str:
    if value is None:
        return "unknown"
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise vol.Invalid(f"{key}: expected a string, a number or null, not {value!r}")
    return str(value)


async def async_setup(hass: HomeAssistant, config: ConfigType) -> bool:
    runtime = Runtime(states_path=hass.config.path(STATES_FILE))
    runtime.values = await hass.async_add_executor_job(_load, runtime.states_path)
    hass.data[DOMAIN] = runtime

    async def set_state(call: ServiceCall) -> None:
        try:
            await _set_state(call)
        except vol.Invalid as error:
            # HA's REST API answers a bare 400; the reason goes to HA's log.
            _LOGGER.warning("home_connect.set_state refused %s: %s", dict(call.data), error)
            raise

    async def _set_state(call: ServiceCall) -> None:
        named = call.data.get("appliance")
        updates = {key: value for key, value in call.data.items() if key != "appliance"}
        if not updates:
            raise vol.Invalid("set_state needs at least one role or entity id to set")
        if named is not None and named not in runtime.kinds:
            raise vol.Invalid(f"no appliance {named!r}; there are {sorted(runtime.kinds)}")
        planned: list[tuple[Any, str, str, str]] = []
        for key, value in updates.items():
            text = _as_text(key, value)
            if "." in key:
                found = [
                    (app_id, role, entity)
                    for (app_id, role), entity in runtime.entities.items()
                    if entity.entity_id == key
                ]
                if not found:
                    raise vol.Invalid(f"{key} is not an entity of the home_connect stand-in")
                app_id, role, entity = found[0]
            else:
                if key not in ALL_ROLES:
                    raise vol.Invalid(f"unknown role {key!r}; roles are {ALL_ROLES}")
                if named is None and len(runtime.kinds) != 1:
                    raise vol.Invalid(f"several appliances: name one with 'appliance' ({sorted(runtime.kinds)})")
                app_id = named if named is not None else next(iter(runtime.kinds))
                role = key
                entity = runtime.entities.get((app_id, role))
                if entity is None:
                    raise vol.Invalid(f"appliance {app_id!r} has no {role} entity")
            validate(role, runtime.kinds[app_id], text)
            planned.append((entity, app_id, role, text))
        for _, app_id, role, text in planned:
            runtime.values[app_id][role] = text
        await hass.async_add_executor_job(_save, runtime.states_path, runtime.snapshot())
        # The program sensors follow the operation state (available only while a program is on).
        touched = {app_id for _, app_id, role, _ in planned if role == ROLE_OPERATION_STATE}
        followers = [runtime.entities[(app_id, role)] for app_id in touched for role in (ROLE_PROGRESS, ROLE_FINISH_TIME)
                     if (app_id, role) in runtime.entities]
        for entity in {id(entity): entity for entity in [*(p[0] for p in planned), *followers]}.values():
            entity.async_write_ha_state()

    hass.services.async_register(DOMAIN, "set_state", set_state, schema=SET_STATE_SCHEMA)

    if DOMAIN in config:
        data = {"appliances": config[DOMAIN]["appliances"]}
        entries = hass.config_entries.async_entries(DOMAIN)
        if entries:
            hass.config_entries.async_update_entry(entries[0], data=data)
        else:
            hass.async_create_task(
                hass.config_entries.flow.async_init(DOMAIN, context={"source": SOURCE_IMPORT}, data=data)
            )
    return True


async def async_setup_entry(hass: HomeAssistant, entry: ConfigEntry) -> bool:
    runtime: Runtime = hass.data[DOMAIN]
    for appliance in entry.data["appliances"]:
        runtime.ensure(appliance)
    await hass.config_entries.async_forward_entry_setups(entry, PLATFORMS)
    return True


async def async_unload_entry(hass: HomeAssistant, entry: ConfigEntry) -> bool:
    return await hass.config_entries.async_unload_platforms(entry, PLATFORMS)
