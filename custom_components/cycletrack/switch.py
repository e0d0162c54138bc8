"""Switches: which calls an appliance's cycle makes, set through the API."""

from __future__ import annotations

from typing import Any

from homeassistant.components.switch import SwitchEntity, SwitchEntityDescription
from homeassistant.const import EntityCategory
from homeassistant.core import HomeAssistant
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from .coordinator import CycletrackConfigEntry
from .entity import DescribedApplianceEntity, async_add_appliance_entities
from .settings import async_update_settings

PARALLEL_UPDATES = 1

# Each switch's key is its setting's name in the API's Settings object.
SETTING_SWITCHES: tuple[SwitchEntityDescription, ...] = (
    SwitchEntityDescription(key="notify_start"),
    SwitchEntityDescription(key="notify_progress"),
    SwitchEntityDescription(key="notify_end"),
    SwitchEntityDescription(key="live_activity"),
)


async def async_setup_entry(
    hass: HomeAssistant,
    entry: CycletrackConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
) -> None:
    """Add each appliance's setting switches."""
    async_add_appliance_entities(
        entry,
        async_add_entities,
        lambda c, appliance_id: [SettingSwitch(c, appliance_id, d) for d in SETTING_SWITCHES],
    )


class SettingSwitch(DescribedApplianceEntity, SwitchEntity):
    """An on/off setting of an appliance; switching it PATCHes the service."""

    _attr_entity_category = EntityCategory.CONFIG


    @property
    def is_on(self) -> bool:
        """The effective setting."""
        return bool(getattr(self.appliance.settings, self.entity_description.key))

    async def async_turn_on(self, **kwargs: Any) -> None:
        """Set the setting on."""
        await async_update_settings(self.coordinator, self.appliance_id, {self.entity_description.key: True})

    async def async_turn_off(self, **kwargs: Any) -> None:
        """Set the setting off."""
        await async_update_settings(self.coordinator, self.appliance_id, {self.entity_description.key: False})
