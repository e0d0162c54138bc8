"""The device every entity of the Electrolux stand-in belongs to."""
from __future__ import annotations

from typing import Any

from homeassistant.helpers.device_registry import DeviceInfo

from .const import DOMAIN

DEVICE = DeviceInfo(
    identifiers={(DOMAIN, "914501128")}, name="AEG Waschmaschine", manufacturer="AEG", model="L8FEC68SA",
)


# role -> (catalog attribute, source), as catalog_core.py names them.
CATALOG_KEYS = {
    "appliance_state": ("applianceState", "root"), "program": ("programUID", "userSelections"),
    "cycle_phase": ("cyclePhase", "root"), "time_to_end": ("timeToEnd", "root"), "door": ("doorState", "root"),
}


class StandInEntity:
    """Reads its value from the stand-in's runtime and registers itself for updates."""

    _attr_has_entity_name = True
    _attr_should_poll = False

    def __init__(self, runtime: dict[str, Any], role: str, name: str) -> None:
        self._runtime = runtime
        self._role = role
        self._attr_name = name
        # As electrolux_status/entity.py makes it: `{entry_id}-{entity_attr}-{entity_source or 'root'}-{pnc_id}`.
        attr, source = CATALOG_KEYS[role]
        self._attr_unique_id = f"01STANDINENTRY-{attr}-{source}-914501128"
        self._attr_device_info = DEVICE

    @property
    def raw(self) -> str:
        return self._runtime["values"][self._role]

    @property
    def available(self) -> bool:
        return self.raw.lower() != "unavailable"

    async def async_added_to_hass(self) -> None:
        self._runtime["entities"][self._role] = self
