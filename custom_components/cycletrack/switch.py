"""Switches: an appliance's on/off settings, as the service declares them, set through the API."""

from __future__ import annotations

from typing import Any

from homeassistant.components.switch import SwitchEntity, SwitchEntityDescription
from homeassistant.const import EntityCategory
from homeassistant.core import HomeAssistant
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from .coordinator import CycletrackConfigEntry, CycletrackCoordinator
from .entity import DescribedApplianceEntity, async_add_appliance_entities
from .models import SettingDeclaration
from .settings import async_update_settings

PARALLEL_UPDATES = 1


async def async_setup_entry(
    hass: HomeAssistant,
    entry: CycletrackConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
) -> None:
    """Add a switch per declared flag setting (`appliance_settings`) to each appliance."""
    async_add_appliance_entities(
        entry,
        async_add_entities,
        lambda c, appliance_id: [
            SettingSwitch(c, appliance_id, setting)
            for setting in c.data.service.appliance_settings
            if setting.type == "flag"
        ],
    )


class SettingSwitch(DescribedApplianceEntity, SwitchEntity):
    """An on/off setting of an appliance; switching it PATCHes the service."""

    _attr_entity_category = EntityCategory.CONFIG

    def __init__(self, coordinator: CycletrackCoordinator, appliance_id: str, setting: SettingDeclaration) -> None:
        """Named by the setting's entity key; PATCHes its key."""
        super().__init__(coordinator, appliance_id, SwitchEntityDescription(key=setting.entity_key))
        self.setting = setting.key

    @property
    def is_on(self) -> bool:
        """The effective setting."""
        return bool(self.appliance.settings.values.get(self.setting))

    async def async_turn_on(self, **kwargs: Any) -> None:
        """Set the setting on."""
        await async_update_settings(self.coordinator, self.appliance_id, {self.setting: True})

    async def async_turn_off(self, **kwargs: Any) -> None:
        """Set the setting off."""
        await async_update_settings(self.coordinator, self.appliance_id, {self.setting: False})
