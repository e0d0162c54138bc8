"""Binary sensors: whether an appliance runs a cycle."""

from __future__ import annotations

from homeassistant.components.binary_sensor import (
    BinarySensorDeviceClass,
    BinarySensorEntity,
)
from homeassistant.core import HomeAssistant
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from .coordinator import CycletrackConfigEntry, CycletrackCoordinator
from .entity import CycletrackApplianceEntity, async_add_appliance_entities

PARALLEL_UPDATES = 0


async def async_setup_entry(
    hass: HomeAssistant,
    entry: CycletrackConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
) -> None:
    """Add each appliance's running sensor."""
    async_add_appliance_entities(
        entry, async_add_entities, lambda c, appliance_id: [RunningSensor(c, appliance_id)]
    )


class RunningSensor(CycletrackApplianceEntity, BinarySensorEntity):
    """On while a cycle is open."""

    _attr_device_class = BinarySensorDeviceClass.RUNNING

    def __init__(self, coordinator: CycletrackCoordinator, appliance_id: str) -> None:
        """Return the `running` entity of an appliance."""
        super().__init__(coordinator, appliance_id, "running")

    @property
    def is_on(self) -> bool:
        """The appliance's `running`."""
        return self.appliance.running
