"""Binary sensors: whether an appliance runs a cycle, and whether it waits to be unloaded."""

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
    """Add each appliance's running and awaiting-unloading sensors."""
    async_add_appliance_entities(
        entry,
        async_add_entities,
        lambda c, appliance_id: [RunningSensor(c, appliance_id), AwaitsUnloadingSensor(c, appliance_id)],
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


class AwaitsUnloadingSensor(CycletrackApplianceEntity, BinarySensorEntity):
    """On from a finished cycle's end until the appliance is unloaded (door, button, dryer, next cycle)."""

    def __init__(self, coordinator: CycletrackCoordinator, appliance_id: str) -> None:
        """Return the `awaits_unloading` entity of an appliance."""
        super().__init__(coordinator, appliance_id, "awaits_unloading")

    @property
    def is_on(self) -> bool:
        """The appliance's `awaits_unloading`."""
        return self.appliance.awaits_unloading
