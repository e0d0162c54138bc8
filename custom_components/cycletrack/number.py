"""Number entities: an appliance's progress steps and its declared number settings, set through the API."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from homeassistant.components.number import (
    DEFAULT_MAX_VALUE,
    DEFAULT_MIN_VALUE,
    NumberEntity,
    NumberEntityDescription,
    NumberMode,
)
from homeassistant.const import PERCENTAGE, EntityCategory
from homeassistant.core import HomeAssistant
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from .coordinator import CycletrackConfigEntry
from .entity import DescribedApplianceEntity, async_add_appliance_entities
from .models import SettingDeclaration, Settings
from .settings import async_update_settings

PARALLEL_UPDATES = 1

# The service's defaults (docs/REFERENCE.md, `progress_steps`): used for the parts an
# explicit list (`{"at": [...]}`) doesn't have when one number of the step form is set.
DEFAULT_STEPS = {"step": 10, "fine_from": 90, "fine_step": 2}


def _steps_value(key: str) -> Callable[[Settings], float | None]:
    def value(settings: Settings) -> float | None:
        steps = settings.progress_steps
        return float(steps[key]) if "at" not in steps and key in steps else None

    return value


def _steps_change(key: str) -> Callable[[Settings, float], dict[str, Any]]:
    def change(settings: Settings, value: float) -> dict[str, Any]:
        current = {} if "at" in settings.progress_steps else settings.progress_steps
        steps = {name: current.get(name, default) for name, default in DEFAULT_STEPS.items()}
        return {"progress_steps": {**steps, key: int(value)}}

    return change


@dataclass(frozen=True, kw_only=True)
class SettingNumberDescription(NumberEntityDescription):
    """A number setting: how it is read from the settings and what PATCH body sets it."""

    value: Callable[[Settings], float | None]
    change: Callable[[Settings, float], dict[str, Any]]


# The parts of `progress_steps` (an object, not a declared setting), one number each.
STEP_NUMBERS: tuple[SettingNumberDescription, ...] = (
    SettingNumberDescription(
        key="progress_step",
        native_min_value=1,
        native_max_value=50,
        native_step=1,
        native_unit_of_measurement=PERCENTAGE,
        value=_steps_value("step"),
        change=_steps_change("step"),
    ),
    SettingNumberDescription(
        key="fine_from",
        native_min_value=1,
        native_max_value=100,
        native_step=1,
        native_unit_of_measurement=PERCENTAGE,
        value=_steps_value("fine_from"),
        change=_steps_change("fine_from"),
    ),
    SettingNumberDescription(
        key="fine_step",
        native_min_value=1,
        native_max_value=50,
        native_step=1,
        native_unit_of_measurement=PERCENTAGE,
        value=_steps_value("fine_step"),
        change=_steps_change("fine_step"),
    ),
)


def declared_number(setting: SettingDeclaration) -> SettingNumberDescription:
    """Return the number a declared setting makes: its range, step and unit, its value in effect."""
    whole = setting.step == 1

    def value(settings: Settings) -> float | None:
        current = settings.values.get(setting.key)
        return setting.off if current is None else float(current)

    def change(_: Settings, number: float) -> dict[str, Any]:
        return {setting.key: int(number) if whole else number}

    return SettingNumberDescription(
        key=setting.entity_key,
        native_min_value=setting.min or DEFAULT_MIN_VALUE,
        native_max_value=setting.max or DEFAULT_MAX_VALUE,
        native_step=setting.step,
        native_unit_of_measurement=setting.unit,
        value=value,
        change=change,
    )


async def async_setup_entry(
    hass: HomeAssistant,
    entry: CycletrackConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
) -> None:
    """Add the step numbers and one per declared number setting (`appliance_settings`) to each appliance."""
    async_add_appliance_entities(
        entry,
        async_add_entities,
        lambda c, appliance_id: [
            SettingNumber(c, appliance_id, d)
            for d in (
                *STEP_NUMBERS,
                *(declared_number(s) for s in c.data.service.appliance_settings if s.type == "number"),
            )
        ],
    )


class SettingNumber(DescribedApplianceEntity, NumberEntity):
    """A number setting of an appliance; setting it PATCHes the service."""

    entity_description: SettingNumberDescription
    _attr_entity_category = EntityCategory.CONFIG
    _attr_mode = NumberMode.BOX


    @property
    def native_value(self) -> float | None:
        """The effective setting (None while an explicit list of steps is set)."""
        return self.entity_description.value(self.appliance.settings)

    async def async_set_native_value(self, value: float) -> None:
        """PATCH the setting; the service applies it to the running cycle's next calls."""
        changes = self.entity_description.change(self.appliance.settings, value)
        await async_update_settings(self.coordinator, self.appliance_id, changes)
