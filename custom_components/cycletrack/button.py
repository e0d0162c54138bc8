"""Buttons: end an appliance's Live Activity now; say it was unloaded."""

from __future__ import annotations

from homeassistant.components.button import ButtonEntity
from homeassistant.core import HomeAssistant
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from .coordinator import CycletrackConfigEntry, CycletrackCoordinator
from .entity import CycletrackApplianceEntity, async_add_appliance_entities
from .settings import async_end_activity, async_unloaded

PARALLEL_UPDATES = 1


async def async_setup_entry(
    hass: HomeAssistant,
    entry: CycletrackConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
) -> None:
    """Add each appliance's end-activity and unloaded buttons."""
    async_add_appliance_entities(
        entry,
        async_add_entities,
        lambda c, appliance_id: [EndActivityButton(c, appliance_id), UnloadedButton(c, appliance_id)],
    )


class EndActivityButton(CycletrackApplianceEntity, ButtonEntity):
    """Ends the Live Activity now: the service sends one clear and records it."""

    def __init__(self, coordinator: CycletrackCoordinator, appliance_id: str) -> None:
        """Return the `end_activity` button of an appliance."""
        super().__init__(coordinator, appliance_id, "end_activity")

    @property
    def available(self) -> bool:
        """Available only while the appliance shows a Live Activity there is to end."""
        if not super().available:
            return False
        return self.coordinator.data.appliances[self.appliance_id].live_activity_shown

    async def async_press(self) -> None:
        """POST end_activity."""
        await async_end_activity(self.coordinator, self.appliance_id)


class UnloadedButton(CycletrackApplianceEntity, ButtonEntity):
    """Says the appliance was unloaded: its unload reminders stop, as with the notification's button."""

    def __init__(self, coordinator: CycletrackCoordinator, appliance_id: str) -> None:
        """Return the `unloaded` button of an appliance."""
        super().__init__(coordinator, appliance_id, "unloaded")

    async def async_press(self) -> None:
        """POST unloaded."""
        await async_unloaded(self.coordinator, self.appliance_id)
