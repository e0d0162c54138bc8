"""Repair issues (daily limit nearly used, Supernotify missing), and an appliance gone removed."""

from __future__ import annotations

from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.cycletrack.const import DOMAIN
from homeassistant.core import HomeAssistant, ServiceCall
from homeassistant.helpers import (
    device_registry as dr,
    entity_registry as er,
    issue_registry as ir,
)

from .conftest import wait_until
from .service_under_test import StandInService


async def test_daily_limit_nearly_used(
    hass: HomeAssistant, stand_in: StandInService, loaded_entry: MockConfigEntry
) -> None:
    """Under a tenth of the day's pushes left raises the issue; more left clears it."""
    issues = ir.async_get(hass)
    issue_id = f"daily_limit_nearly_used_{loaded_entry.entry_id}"
    pushes = "sensor.cycletrack_pushes_left_today"
    assert issues.async_get_issue(DOMAIN, issue_id) is None

    stand_in.server.update_service(pushes_today=370, pushes_left_today=30)
    await wait_until(hass, lambda: hass.states.get(pushes).state == "30", "30 left")
    issue = issues.async_get_issue(DOMAIN, issue_id)
    assert issue is not None
    assert issue.translation_placeholders == {"left": "30", "limit": "400"}
    assert hass.states.get("sensor.cycletrack_pushes_today").state == "370"

    stand_in.server.update_service(pushes_today=0, pushes_left_today=400)
    await wait_until(hass, lambda: hass.states.get(pushes).state == "400", "400 left")
    assert issues.async_get_issue(DOMAIN, issue_id) is None


async def test_supernotify_missing(hass: HomeAssistant, stand_in: StandInService, loaded_entry: MockConfigEntry) -> None:
    """No supernotify.notify in HA: an issue, gone once the action appears."""
    issues = ir.async_get(hass)
    assert issues.async_get_issue(DOMAIN, "supernotify_missing") is not None

    async def notify(call: ServiceCall) -> None:
        """Supernotify's action, standing in."""

    hass.services.async_register("supernotify", "notify", notify)
    await hass.async_block_till_done()
    assert issues.async_get_issue(DOMAIN, "supernotify_missing") is None


async def test_appliance_gone_is_removed(
    hass: HomeAssistant,
    stand_in: StandInService,
    loaded_entry: MockConfigEntry,
) -> None:
    """An appliance the service no longer has goes: its entities and its own device (stale-devices)."""
    entities = er.async_get(hass)
    devices = dr.async_get(hass)
    gone = stand_in.own_appliance
    unique_id = f"{stand_in.instance_id}_{gone}_cycle_state"
    state_id = entities.async_get_entity_id("sensor", DOMAIN, unique_id)
    assert state_id is not None
    own_device = entities.async_get(state_id).device_id
    assert own_device is not None
    kept_id = entities.async_get_entity_id("sensor", DOMAIN, f"{stand_in.instance_id}_{stand_in.linked_appliance}_cycle_state")
    assert kept_id is not None

    # The service restarts without it: the snapshot after reconnecting lacks it.
    await stand_in.stop()
    del stand_in.server.appliances[gone]
    await stand_in.start()
    await wait_until(
        hass, lambda: hass.states.get(kept_id).state == "idle" and entities.async_get(state_id) is None,
        "the dishwasher back, the dryer's entities gone",
    )
    assert devices.async_get(own_device) is None
    assert not [
        entry for entry in er.async_entries_for_config_entry(entities, loaded_entry.entry_id)
        if entry.unique_id.startswith(f"{stand_in.instance_id}_{gone}_")
    ]
    assert not [issue for (domain, issue) in ir.async_get(hass).issues if domain == DOMAIN and gone in issue]
    # The appliance on Home Connect's device keeps its entities, and the device stays.
    assert entities.async_get(kept_id) is not None

