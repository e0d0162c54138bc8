"""Event entities: an appliance's cycle events (started, ended by outcome, reminder, anomaly)."""

from __future__ import annotations

from typing import Any

from homeassistant.components.event import EventEntity
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from .const import CYCLE_EVENT_TYPES
from .coordinator import CycletrackConfigEntry, CycletrackCoordinator
from .entity import CycletrackApplianceEntity, async_add_appliance_entities

PARALLEL_UPDATES = 0


async def async_setup_entry(
    hass: HomeAssistant,
    entry: CycletrackConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
) -> None:
    """Add each appliance's cycle event entity."""
    async_add_appliance_entities(
        entry, async_add_entities, lambda c, appliance_id: [CycleEvent(c, appliance_id)]
    )


def event_type(stream_type: str, data: dict[str, Any]) -> str | None:
    """Return the event entity's type for a stream event, or None for one it doesn't show."""
    if stream_type == "cycle_started":
        return "started"
    if stream_type in ("reminder", "anomaly"):
        return stream_type
    if stream_type == "cycle_ended" and data.get("outcome") in CYCLE_EVENT_TYPES:
        return str(data["outcome"])
    return None


class CycleEvent(CycletrackApplianceEntity, EventEntity):
    """Fires when a cycle starts or ends, on the unload reminder and on an anomaly note."""

    _attr_event_types = CYCLE_EVENT_TYPES

    def __init__(self, coordinator: CycletrackCoordinator, appliance_id: str) -> None:
        """Return the `cycle` event entity of an appliance."""
        super().__init__(coordinator, appliance_id, "cycle")

    async def async_added_to_hass(self) -> None:
        """Listen to this appliance's cycle events."""
        await super().async_added_to_hass()
        self.async_on_remove(
            self.coordinator.async_add_cycle_listener(self.appliance_id, self._async_cycle_event)
        )

    @callback
    def _async_cycle_event(self, stream_type: str, data: dict[str, Any]) -> None:
        if (kind := event_type(stream_type, data)) is None:
            return
        attributes = {key: value for key, value in data.items() if key != "appliance"}
        self._trigger_event(kind, attributes)
        self.async_write_ha_state()
