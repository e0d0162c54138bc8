"""Sensors of the Electrolux stand-in, shaped like custom_components/electrolux_status/sensor.py
(``ElectroluxSensor``: ``native_value`` formats strings, ``suggested_unit_of_measurement``
shows seconds as minutes)."""
from __future__ import annotations

from typing import Any

from homeassistant.components.sensor import SensorDeviceClass, SensorEntity
from homeassistant.config_entries import ConfigEntry
from homeassistant.const import UnitOfTime
from homeassistant.core import HomeAssistant
from homeassistant.helpers.entity_platform import AddEntitiesCallback

from .const import DOMAIN, ROLES
from .entity import StandInEntity


class ElectroluxSensor(StandInEntity, SensorEntity):
    def __init__(self, runtime: dict[str, Any], role: str) -> None:
        super().__init__(runtime, role, ROLES[role][0])
        if role == "time_to_end":
            self._attr_device_class = SensorDeviceClass.DURATION
            self._attr_native_unit_of_measurement = UnitOfTime.SECONDS
            self._attr_suggested_unit_of_measurement = UnitOfTime.MINUTES

    @property
    def native_value(self) -> Any:
        if self.raw.lower() == "unknown":
            return None
        if self._role == "time_to_end":
            return max(float(self.raw), 0)
        value = self.raw
        if "_" in value:
            value = value.replace("_", " ")
        return value.title()


async def async_setup_entry(hass: HomeAssistant, entry: ConfigEntry, async_add_entities: AddEntitiesCallback) -> None:
    runtime = hass.data[DOMAIN]
    async_add_entities([ElectroluxSensor(runtime, role) for role in ROLES if role != "door"])
