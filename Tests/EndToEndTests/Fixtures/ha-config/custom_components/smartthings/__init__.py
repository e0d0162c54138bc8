"""Stand-in for Home Assistant's ``smartthings`` integration, for cycletrack's end-to-end tests: the
real devices of cycletrack's corpus that a test copied into ``<config>/cycletrack_corpus/smartthings/``,
with the entity ids, unique ids, translation keys, device classes, units and options Home
Assistant's own SmartThings tests record (see custom_components/cycletrack_corpus, which holds
everything but the domain). No device when none was copied. Tests drive the states with
``smartthings.set_entity_state``."""
from __future__ import annotations

from homeassistant.core import HomeAssistant
from homeassistant.helpers.typing import ConfigType

from custom_components.cycletrack_corpus import (
    async_setup_brand,
    async_setup_brand_entry,
    async_unload_brand_entry,
    config_schema,
)

DOMAIN = "smartthings"
CONFIG_SCHEMA = config_schema(DOMAIN)
async_setup_entry = async_setup_brand_entry
async_unload_entry = async_unload_brand_entry


async def async_setup(hass: HomeAssistant, config: ConfigType) -> bool:
    return await async_setup_brand(hass, config, DOMAIN)
