"""The entity base of the Home Connect stand-in: one device per appliance, state
read from the shared Runtime that ``home_connect.set_state`` writes."""
from __future__ import annotations

from typing import Any

from homeassistant.helpers.device_registry import DeviceInfo
from homeassistant.helpers.entity import Entity

from .const import BSH_KEYS, DOMAIN, PROGRAM_ROLES, PROGRAM_SHOWN_IN, ROLE_OPERATION_STATE

MODELS = {"dishwasher": "SN65ZX49CE", "washer": "WAV28G43", "dryer": "WTX87M40", "oven": "HBG7741B1"}


def device_info(appliance: dict[str, Any]) -> DeviceInfo:
    """The appliance's one device."""
    return DeviceInfo(
        identifiers={(DOMAIN, appliance["id"])},
        name=appliance["name"],
        manufacturer="BSH",
        model=MODELS[appliance["kind"]],
    )


class FixedEntity(Entity):
    """An entity of one stand-in appliance that shows a fixed value (no role)."""

    _attr_has_entity_name = True
    _attr_should_poll = False

    def __init__(self, appliance: dict[str, Any], translation_key: str) -> None:
        self._attr_translation_key = translation_key
        self._attr_unique_id = f"{appliance['id']}-{BSH_KEYS[translation_key]}"
        self._attr_device_info = device_info(appliance)


class StandInEntity(Entity):
    """An entity of one stand-in appliance, for one role."""

    _attr_has_entity_name = True
    _attr_should_poll = False

    def __init__(self, runtime: Any, appliance: dict[str, Any], role: str, translation_key: str) -> None:
        self._runtime = runtime
        self._appliance_id: str = appliance["id"]
        self._role = role
        self._attr_translation_key = translation_key
        self._attr_unique_id = f"{appliance['id']}-{BSH_KEYS[translation_key]}"
        self._attr_device_info = device_info(appliance)

    @property
    def raw(self) -> str:
        """The value as set: a state string, "unknown" or "unavailable"."""
        return self._runtime.values[self._appliance_id][self._role]

    @property
    def available(self) -> bool:
        if self.raw == "unavailable":
            return False
        if self._role in PROGRAM_ROLES:
            return self._runtime.values[self._appliance_id][ROLE_OPERATION_STATE] in PROGRAM_SHOWN_IN
        return True

    async def async_added_to_hass(self) -> None:
        self._runtime.entities[(self._appliance_id, self._role)] = self

    async def async_will_remove_from_hass(self) -> None:
        self._runtime.entities.pop((self._appliance_id, self._role), None)
