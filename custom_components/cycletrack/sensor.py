"""Sensors: an appliance's cycle, its energy, and the service's pushes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from homeassistant.components.sensor import (
    SensorDeviceClass,
    SensorEntity,
    SensorEntityDescription,
    SensorStateClass,
)
from homeassistant.const import PERCENTAGE, UnitOfEnergy, UnitOfTime
from homeassistant.core import HomeAssistant
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from .const import CYCLE_STATES
from .coordinator import CycletrackConfigEntry, CycletrackCoordinator
from .entity import (
    CycletrackServiceEntity,
    DescribedApplianceEntity,
    async_add_appliance_entities,
)
from .models import Appliance, ServiceInfo

PARALLEL_UPDATES = 0

type SensorValue = str | float | datetime | None


@dataclass(frozen=True, kw_only=True)
class ApplianceSensorDescription(SensorEntityDescription):
    """An appliance sensor and how its value is read from the appliance."""

    value: Callable[[Appliance], SensorValue]


@dataclass(frozen=True, kw_only=True)
class ServiceSensorDescription(SensorEntityDescription):
    """A service sensor and how its value is read from the service."""

    value: Callable[[ServiceInfo], int]


def _state(appliance: Appliance) -> str | None:
    return appliance.state if appliance.state in CYCLE_STATES else None


APPLIANCE_SENSORS: tuple[ApplianceSensorDescription, ...] = (
    ApplianceSensorDescription(
        key="cycle_state",
        device_class=SensorDeviceClass.ENUM,
        options=CYCLE_STATES,
        value=_state,
    ),
    ApplianceSensorDescription(key="program", value=lambda a: a.program),
    ApplianceSensorDescription(
        key="progress",
        native_unit_of_measurement=PERCENTAGE,
        suggested_display_precision=0,
        state_class=SensorStateClass.MEASUREMENT,
        value=lambda a: a.progress,
    ),
    ApplianceSensorDescription(
        key="finish",
        device_class=SensorDeviceClass.TIMESTAMP,
        value=lambda a: a.finish,
    ),
    ApplianceSensorDescription(
        key="last_cycle_duration",
        device_class=SensorDeviceClass.DURATION,
        native_unit_of_measurement=UnitOfTime.SECONDS,
        suggested_unit_of_measurement=UnitOfTime.MINUTES,
        suggested_display_precision=0,
        value=lambda a: a.last_cycle.duration_seconds if a.last_cycle else None,
    ),
    ApplianceSensorDescription(
        key="last_cycle_energy",
        device_class=SensorDeviceClass.ENERGY,
        native_unit_of_measurement=UnitOfEnergy.KILO_WATT_HOUR,
        suggested_display_precision=2,
        value=lambda a: a.last_cycle.energy_kwh if a.last_cycle else None,
    ),
    ApplianceSensorDescription(
        key="energy",
        device_class=SensorDeviceClass.ENERGY,
        state_class=SensorStateClass.TOTAL_INCREASING,
        native_unit_of_measurement=UnitOfEnergy.KILO_WATT_HOUR,
        suggested_display_precision=2,
        value=lambda a: a.energy_total_kwh,
    ),
)

SERVICE_SENSORS: tuple[ServiceSensorDescription, ...] = (
    ServiceSensorDescription(
        key="pushes_today",
        state_class=SensorStateClass.TOTAL_INCREASING,
        value=lambda s: s.pushes_today,
    ),
    ServiceSensorDescription(
        key="pushes_left_today",
        state_class=SensorStateClass.MEASUREMENT,
        value=lambda s: s.pushes_left_today,
    ),
)


async def async_setup_entry(
    hass: HomeAssistant,
    entry: CycletrackConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
) -> None:
    """Add the service's sensors and every appliance's."""
    coordinator = entry.runtime_data.coordinator
    async_add_entities(ServiceSensor(coordinator, description) for description in SERVICE_SENSORS)
    async_add_appliance_entities(
        entry,
        async_add_entities,
        lambda c, appliance_id: [ApplianceSensor(c, appliance_id, d) for d in APPLIANCE_SENSORS],
    )


class ApplianceSensor(DescribedApplianceEntity, SensorEntity):
    """One value of an appliance."""

    entity_description: ApplianceSensorDescription


    @property
    def native_value(self) -> SensorValue:
        """The value from the last pushed appliance."""
        return self.entity_description.value(self.appliance)


class ServiceSensor(CycletrackServiceEntity, SensorEntity):
    """One count of the service."""

    entity_description: ServiceSensorDescription

    def __init__(self, coordinator: CycletrackCoordinator, description: ServiceSensorDescription) -> None:
        """Named after the description's key."""
        super().__init__(coordinator, description.key)
        self.entity_description = description

    @property
    def native_value(self) -> int:
        """The count from the last pushed service object."""
        return self.entity_description.value(self.coordinator.data.service)
