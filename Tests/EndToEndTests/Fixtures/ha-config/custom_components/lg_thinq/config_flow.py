"""Config flow of the LG ThinQ stand-in: one entry, made from YAML (import) or by the
user step."""
from __future__ import annotations

from typing import Any

from homeassistant.config_entries import ConfigFlow

from . import DOMAIN

TITLE = "LG ThinQ (test stand-in)"


class StandInFlow(ConfigFlow, domain=DOMAIN):
    """Creates the single config entry of the stand-in."""

    VERSION = 1

    async def async_step_import(self, import_data: dict[str, Any]):
        if self._async_current_entries():
            return self.async_abort(reason="single_instance_allowed")
        return self.async_create_entry(title=TITLE, data=import_data)

    async def async_step_user(self, user_input: dict[str, Any] | None = None):
        if self._async_current_entries():
            return self.async_abort(reason="single_instance_allowed")
        return self.async_create_entry(title=TITLE, data={})
