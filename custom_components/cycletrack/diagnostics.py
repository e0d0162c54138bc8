"""Diagnostics: the entry (key redacted) and what the service last pushed."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from homeassistant.components.diagnostics import async_redact_data
from homeassistant.const import CONF_API_KEY
from homeassistant.core import HomeAssistant

from .coordinator import CycletrackConfigEntry

TO_REDACT = {CONF_API_KEY}


async def async_get_config_entry_diagnostics(
    hass: HomeAssistant, entry: CycletrackConfigEntry
) -> dict[str, Any]:
    """Return the entry's data and options, the service and its appliances as last received."""
    coordinator = entry.runtime_data.coordinator
    return {
        "entry": {
            "data": async_redact_data(dict(entry.data), TO_REDACT),
            "options": dict(entry.options),
        },
        "stream_connected": coordinator.last_update_success,
        "service": asdict(coordinator.data.service),
        "appliances": [appliance.raw for appliance in coordinator.data.appliances.values()],
    }
