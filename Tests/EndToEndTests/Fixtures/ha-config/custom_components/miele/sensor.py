"""Sensors of the Miele stand-in, shaped like homeassistant/components/miele/sensor.py."""
from __future__ import annotations

from typing import Any

from homeassistant.components.sensor import SensorDeviceClass, SensorEntity, SensorStateClass
from homeassistant.config_entries import ConfigEntry
from homeassistant.const import UnitOfEnergy, UnitOfTime
from homeassistant.core import HomeAssistant
from homeassistant.helpers.device_registry import DeviceInfo
from homeassistant.helpers.entity_platform import AddEntitiesCallback

from custom_components.cycletrack_corpus import platform_entities

from .const import CORPUS, DOMAIN, ENUMS, ROLES

GERMAN = {
    "status": "Status", "program": "Programm", "phase": "Programmphase", "remaining_time": "Restzeit",
    "elapsed_time": "Verstrichene Zeit", "start_time": "Startzeit", "energy": "Energieverbrauch",
}


TRANSLATION_KEYS = {
    "status": "status", "program": "program_id", "phase": "program_phase", "remaining_time": "remaining_time",
    "elapsed_time": "elapsed_time", "start_time": "start_time", "energy": "energy_consumption",
}
UNIQUE_KEYS = {
    "status": "state_status", "program": "state_program_id", "phase": "state_program_phase",
    "remaining_time": "state_remaining_time", "elapsed_time": "state_elapsed_time", "start_time": "state_start_time",
    "energy": "current_energy_consumption",
}


class MieleSensor(SensorEntity):
    _attr_has_entity_name = True
    _attr_should_poll = False

    def __init__(self, runtime: dict[str, Any], role: str) -> None:
        self._runtime = runtime
        self._role = role
        self._attr_name = GERMAN[role]
        # As miele/sensor.py declares them: the registry's translation key and `<device>-<key>` unique id.
        self._attr_translation_key = TRANSLATION_KEYS[role]
        self._attr_unique_id = f"000123456789-{UNIQUE_KEYS[role]}"
        self._attr_device_info = DeviceInfo(
            identifiers={(DOMAIN, "000123456789")}, name="Waschmaschine", manufacturer="Miele", model="WWR860",
        )
        if role in ENUMS:
            self._attr_device_class = SensorDeviceClass.ENUM
            self._attr_options = list(ENUMS[role])
        elif role == "energy":
            self._attr_device_class = SensorDeviceClass.ENERGY
            self._attr_state_class = SensorStateClass.TOTAL_INCREASING
            self._attr_native_unit_of_measurement = UnitOfEnergy.KILO_WATT_HOUR
        else:
            self._attr_device_class = SensorDeviceClass.DURATION
            self._attr_native_unit_of_measurement = UnitOfTime.MINUTES

    @property
    def raw(self) -> str:
        return self._runtime["values"][self._role]

    @property
    def available(self) -> bool:
        return self.raw != "unavailable"

    @property
    def native_value(self) -> Any:
        if self.raw in ("unknown", "unavailable"):
            return None
        if self._role in ENUMS:
            return self.raw
        return float(self.raw)

    async def async_added_to_hass(self) -> None:
        self._runtime["entities"][self._role] = self


async def async_setup_entry(hass: HomeAssistant, entry: ConfigEntry, async_add_entities: AddEntitiesCallback) -> None:
    corpus = hass.data[CORPUS]
    if corpus["devices"]:
        async_add_entities(platform_entities(corpus, DOMAIN, "sensor"))
        return
    runtime = hass.data[DOMAIN]
    async_add_entities([MieleSensor(runtime, role) for role in ROLES])
