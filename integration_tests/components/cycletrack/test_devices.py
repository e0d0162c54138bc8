"""Devices that come and go: an appliance the service adds, a device registered late."""

from __future__ import annotations

from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.cycletrack.const import DOMAIN
from homeassistant.core import HomeAssistant
from homeassistant.helpers import device_registry as dr, entity_registry as er

from .conftest import wait_until
from .contract_server import appliance_body
from .service_under_test import StandInService


async def test_new_appliance_gets_entities(
    hass: HomeAssistant, stand_in: StandInService, loaded_entry: MockConfigEntry
) -> None:
    """An appliance the service starts tracking gets its device and entities without a reload."""
    oven = appliance_body("oven", "Oven")
    stand_in.server.appliances["oven"] = oven
    stand_in.server.publish("appliance", oven)
    await wait_until(hass, lambda: hass.states.get("sensor.oven_cycle_state") is not None, "oven entities")
    entry = er.async_get(hass).async_get("sensor.oven_cycle_state")
    assert entry is not None
    assert entry.unique_id == f"{stand_in.instance_id}_oven_cycle_state"
    device = dr.async_get(hass).async_get(entry.device_id)
    assert device is not None
    assert device.name == "Oven"


async def test_appliance_found_on_a_device_leaves_its_own(
    hass: HomeAssistant,
    stand_in: StandInService,
    loaded_entry: MockConfigEntry,
    home_connect_device: dr.DeviceEntry,
) -> None:
    """The dryer turns out to be a Home Connect device (discovery found it).

    After the reload its entities are on that device and its own device is gone.
    """
    devices = dr.async_get(hass)
    entities = er.async_get(hass)
    unique_id = f"{stand_in.instance_id}_{stand_in.own_appliance}_cycle_state"
    own_device = entities.async_get(entities.async_get_entity_id("sensor", DOMAIN, unique_id)).device_id
    other = MockConfigEntry(domain="home_connect")
    other.add_to_hass(hass)
    dryer = devices.async_get_or_create(
        config_entry_id=other.entry_id, identifiers={("home_connect", "BOSCH-WTX87-1")}, name="Dryer"
    )
    stand_in.server.appliances[stand_in.own_appliance]["device_id"] = dryer.id

    assert await hass.config_entries.async_reload(loaded_entry.entry_id)
    await hass.async_block_till_done()
    assert entities.async_get(entities.async_get_entity_id("sensor", DOMAIN, unique_id)).device_id == dryer.id
    assert devices.async_get(own_device) is None
    assert devices.async_get(dryer.id).config_entry_id == other.entry_id


async def test_device_found_while_loaded_moves_the_entities(
    hass: HomeAssistant,
    stand_in: StandInService,
    loaded_entry: MockConfigEntry,
    home_connect_device: dr.DeviceEntry,
) -> None:
    """Discovery finds the dryer's device while the entry runs.

    The service started before Home Assistant and discovered again later: the entry reloads
    by itself and the dryer's entities move onto that device; its own device is gone.
    """
    devices = dr.async_get(hass)
    entities = er.async_get(hass)
    unique_id = f"{stand_in.instance_id}_{stand_in.own_appliance}_cycle_state"
    entity_id = entities.async_get_entity_id("sensor", DOMAIN, unique_id)
    own_device = entities.async_get(entity_id).device_id
    other = MockConfigEntry(domain="home_connect")
    other.add_to_hass(hass)
    dryer = devices.async_get_or_create(
        config_entry_id=other.entry_id, identifiers={("home_connect", "BOSCH-WTX87-2")}, name="Dryer"
    )

    stand_in.server.update_appliance(stand_in.own_appliance, device_id=dryer.id)
    await wait_until(hass, lambda: entities.async_get(entity_id).device_id == dryer.id, "the dryer's entities moved")
    await hass.async_block_till_done()
    assert devices.async_get(own_device) is None
    assert hass.states.get(entity_id).state != "unavailable"


async def test_anomaly_fires_the_cycle_event_entity(
    hass: HomeAssistant, stand_in: StandInService, loaded_entry: MockConfigEntry
) -> None:
    """An anomaly note the service tells fires the appliance's cycle event with what is wrong."""
    appliance = stand_in.own_appliance
    unique_id = f"{stand_in.instance_id}_{appliance}_cycle"
    event_id = er.async_get(hass).async_get_entity_id("event", DOMAIN, unique_id)
    assert event_id is not None
    stand_in.server.publish("anomaly", {
        "appliance": appliance, "anomaly": "action required (door open)",
        "reason": "anomaly: action required (door open)", "at": "2026-11-02T08:10:00Z",
    })
    await wait_until(hass, lambda: hass.states.get(event_id).attributes.get("event_type") == "anomaly", "anomaly")
    attributes = hass.states.get(event_id).attributes
    assert attributes["anomaly"] == "action required (door open)"
    assert attributes["reason"] == "anomaly: action required (door open)"
