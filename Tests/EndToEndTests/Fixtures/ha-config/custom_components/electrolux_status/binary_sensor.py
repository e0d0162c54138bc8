"""The door of the Electrolux stand-in: ``doorState``, a binary sensor of device class door
(on when the API says OPEN), as custom_components/electrolux_status/catalog_core.py has it."""
from __future__ import annotations

from typing import Any

from homeassistant.components.binary_sensor import BinarySensorDeviceClass, BinarySensorEntity
from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant
from homeassistant.helpers.entity_platform import AddEntitiesCallback

from .const import DOMAIN
from .entity import StandInEntity


class ElectroluxDoor(StandInEntity, BinarySensorEntity):
    _attr_device_class = BinarySensorDeviceClass.DOOR

    def __init__(self, runtime: dict[str, Any]) -> None:
        super().__init__(runtime, "door", "Door")

    @property
    def is_on(self) -> bool | None:
        return self.raw.upper() == "OPEN"


async def async_setup_entry(hass: HomeAssistant, entry: ConfigEntry, async_add_entities: AddEntitiesCallback) -> None:
    async_add_entities([ElectroluxDoor(hass.data[DOMAIN])])
