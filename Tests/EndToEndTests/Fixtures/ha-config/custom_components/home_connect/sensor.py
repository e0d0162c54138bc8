"""Sensors of the Home Connect stand-in: operation state, program progress,
program finish time, door, for ovens the cavity temperature, and the event sensors
(disabled by default, as in HA 2026.11)."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from homeassistant.components.sensor import SensorDeviceClass, SensorEntity, SensorStateClass
from homeassistant.config_entries import ConfigEntry
from homeassistant.const import PERCENTAGE, UnitOfTemperature
from homeassistant.core import HomeAssistant
from homeassistant.helpers.entity_platform import AddEntitiesCallback
from homeassistant.util import dt as dt_util

from .const import (
    DOMAIN,
    DOOR_STATES,
    EVENT_OPTIONS,
    EVENT_SENSORS,
    OPERATION_STATES,
    ROLE_DOOR,
    ROLE_FINISH_TIME,
    ROLE_OPERATION_STATE,
    ROLE_PROGRESS,
    ROLE_TEMPERATURE,
)
from .entity import FixedEntity, StandInEntity


def _number(text: str) -> int | float:
    value = float(text)
    return int(value) if value.is_integer() and "." not in text else value


class EnumSensor(StandInEntity, SensorEntity):
    _attr_device_class = SensorDeviceClass.ENUM

    def __init__(self, runtime: Any, appliance: dict[str, Any], role: str, key: str, options: list[str]) -> None:
        super().__init__(runtime, appliance, role, key)
        self._attr_options = list(options)

    @property
    def native_value(self) -> str | None:
        return None if self.raw in ("unknown", "unavailable") else self.raw


class NumberSensor(StandInEntity, SensorEntity):
    @property
    def native_value(self) -> int | float | None:
        return None if self.raw in ("unknown", "unavailable") else _number(self.raw)


class ProgressSensor(NumberSensor):
    _attr_native_unit_of_measurement = PERCENTAGE


class TemperatureSensor(NumberSensor):
    _attr_device_class = SensorDeviceClass.TEMPERATURE
    _attr_state_class = SensorStateClass.MEASUREMENT
    _attr_native_unit_of_measurement = UnitOfTemperature.CELSIUS


class EventSensor(FixedEntity, SensorEntity):
    """An event of the appliance (program finished, salt lack, ...): "off" until the
    event, and disabled in the entity registry until a user enables it."""

    _attr_device_class = SensorDeviceClass.ENUM
    _attr_entity_registry_enabled_default = False
    _attr_options = list(EVENT_OPTIONS)
    _attr_native_value = "off"


class FinishTimeSensor(StandInEntity, SensorEntity):
    _attr_device_class = SensorDeviceClass.TIMESTAMP

    @property
    def native_value(self) -> datetime | None:
        return None if self.raw in ("unknown", "unavailable") else dt_util.parse_datetime(self.raw)


async def async_setup_entry(hass: HomeAssistant, entry: ConfigEntry, async_add_entities: AddEntitiesCallback) -> None:
    runtime = hass.data[DOMAIN]
    entities: list[SensorEntity] = []
    for appliance in entry.data["appliances"]:
        entities += [
            EnumSensor(runtime, appliance, ROLE_OPERATION_STATE, "operation_state", OPERATION_STATES),
            ProgressSensor(runtime, appliance, ROLE_PROGRESS, "program_progress"),
            FinishTimeSensor(runtime, appliance, ROLE_FINISH_TIME, "program_finish_time"),
            EnumSensor(runtime, appliance, ROLE_DOOR, "door", DOOR_STATES),
        ]
        if appliance["kind"] == "oven":
            entities.append(TemperatureSensor(runtime, appliance, ROLE_TEMPERATURE, "oven_current_cavity_temperature"))
        entities += [EventSensor(appliance, key) for key in EVENT_SENSORS[appliance["kind"]]]
    async_add_entities(entities)
