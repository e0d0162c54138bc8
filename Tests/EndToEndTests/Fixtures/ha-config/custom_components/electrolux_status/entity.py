"""The device every entity of the Electrolux stand-in belongs to."""
from __future__ import annotations

from typing import Any

from homeassistant.helpers.device_registry import DeviceInfo

from .const import DOMAIN

DEVICE = DeviceInfo(
    identifiers={(DOMAIN, "914501128")}, name="AEG Waschmaschine", manufacturer="AEG", model="L8FEC68SA",
)


class StandInEntity:
    """Reads its value from the stand-in's runtime and registers itself for updates."""

    _attr_has_entity_name = True
    _attr_should_poll = False

    def __init__(self, runtime: dict[str, Any], role: str, name: str) -> None:
        self._runtime = runtime
        self._role = role
        self._attr_name = name
        self._attr_unique_id = f"914501128-{role}"
        self._attr_device_info = DEVICE

    @property
    def raw(self) -> str:
        return self._runtime["values"][self._role]

    @property
    def available(self) -> bool:
        return self.raw.lower() != "unavailable"

    async def async_added_to_hass(self) -> None:
        self._runtime["entities"][self._role] = self
