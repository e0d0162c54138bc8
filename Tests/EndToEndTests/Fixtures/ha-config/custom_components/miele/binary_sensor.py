"""The binary_sensor entities of the corpus devices, when a test copied some
(custom_components/cycletrack_corpus); none otherwise."""
from __future__ import annotations

from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant
from homeassistant.helpers.entity_platform import AddEntitiesCallback

from custom_components.cycletrack_corpus import platform_entities

from .const import CORPUS, DOMAIN


async def async_setup_entry(hass: HomeAssistant, entry: ConfigEntry, async_add_entities: AddEntitiesCallback) -> None:
    async_add_entities(platform_entities(hass.data[CORPUS], DOMAIN, "binary_sensor"))
