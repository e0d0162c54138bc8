"""Binary sensors of the Home Connect stand-in: remote control, remote start, local
control, with fixed values. No door: HA 2025.5 removed the door binary sensor (the door
is the enum sensor)."""
from __future__ import annotations

from typing import Any

from homeassistant.components.binary_sensor import BinarySensorEntity
from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant
from homeassistant.helpers.entity_platform import AddEntitiesCallback

from .const import BINARY_SENSORS
from .entity import FixedEntity


class FixedBinarySensor(FixedEntity, BinarySensorEntity):
    def __init__(self, appliance: dict[str, Any], translation_key: str, value: bool) -> None:
        super().__init__(appliance, translation_key)
        self._attr_is_on = value


async def async_setup_entry(hass: HomeAssistant, entry: ConfigEntry, async_add_entities: AddEntitiesCallback) -> None:
    async_add_entities(
        FixedBinarySensor(appliance, key, value)
        for appliance in entry.data["appliances"]
        for key, value in BINARY_SENSORS.items()
    )
