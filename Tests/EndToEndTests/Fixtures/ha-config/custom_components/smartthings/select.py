"""The select entities of the corpus devices (custom_components/cycletrack_corpus)."""
from __future__ import annotations

from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant
from homeassistant.helpers.entity_platform import AddEntitiesCallback

from custom_components.cycletrack_corpus import platform_entities

from . import DOMAIN


async def async_setup_entry(hass: HomeAssistant, entry: ConfigEntry, async_add_entities: AddEntitiesCallback) -> None:
    async_add_entities(platform_entities(hass.data[DOMAIN], DOMAIN, "select"))
