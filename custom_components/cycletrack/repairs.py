"""Repair flows: removing an appliance the service no longer has."""

from __future__ import annotations

from typing import Any

from homeassistant.components.repairs import (
    ConfirmRepairFlow,
    RepairsFlow,
    RepairsFlowResult,
)
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir

from .const import DOMAIN
from .issues import async_remove_appliance


class RemoveApplianceFlow(ConfirmRepairFlow):
    """Confirm, then remove the appliance's entities (and its device, when it was cycletrack's)."""

    def __init__(self, entry_id: str, appliance_id: str) -> None:
        """Return the appliance named in the issue's data."""
        super().__init__()
        self._entry_id = entry_id
        self._appliance_id = appliance_id

    async def async_step_confirm(self, user_input: dict[str, Any] | None = None) -> RepairsFlowResult:
        """Remove on confirm."""
        if user_input is not None and (entry := self.hass.config_entries.async_get_entry(self._entry_id)):
            async_remove_appliance(self.hass, entry, self._appliance_id)
            ir.async_delete_issue(self.hass, DOMAIN, self.issue_id)
        return await super().async_step_confirm(user_input)


async def async_create_fix_flow(
    hass: HomeAssistant, issue_id: str, data: dict[str, str | int | float | None] | None
) -> RepairsFlow:
    """Return the flow of a fixable issue (only the missing appliance is)."""
    if data is None:
        raise ValueError(f"cycletrack issue {issue_id} has no data to fix it with")
    return RemoveApplianceFlow(str(data["entry_id"]), str(data["appliance_id"]))
