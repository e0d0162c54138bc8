"""The active-program and selected-program selects of the Home Connect stand-in
(registered in this order, as the real integration does)."""
from __future__ import annotations

from typing import Any

from homeassistant.components.select import SelectEntity
from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant
from homeassistant.helpers.entity_platform import AddEntitiesCallback

from .const import DOMAIN, PROGRAMS, ROLE_PROGRAM, ROLE_SELECTED_PROGRAM
from .entity import StandInEntity


class ProgramSelect(StandInEntity, SelectEntity):
    def __init__(self, runtime: Any, appliance: dict[str, Any], role: str, translation_key: str) -> None:
        super().__init__(runtime, appliance, role, translation_key)
        self._attr_options = list(PROGRAMS[appliance["kind"]])

    @property
    def current_option(self) -> str | None:
        return self.raw if self.raw in self._attr_options else None

    async def async_select_option(self, option: str) -> None:
        await self.hass.services.async_call(
            DOMAIN, "set_state", {"appliance": self._appliance_id, self._role: option}, blocking=True
        )


async def async_setup_entry(hass: HomeAssistant, entry: ConfigEntry, async_add_entities: AddEntitiesCallback) -> None:
    runtime = hass.data[DOMAIN]
    async_add_entities(
        select
        for appliance in entry.data["appliances"]
        for select in (
            ProgramSelect(runtime, appliance, ROLE_PROGRAM, "active_program"),
            ProgramSelect(runtime, appliance, ROLE_SELECTED_PROGRAM, "selected_program"),
        )
    )
