"""Repair issues: daily limit nearly used, Supernotify missing, an appliance gone."""

from __future__ import annotations

from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.cycletrack.const import DOMAIN
from homeassistant.core import HomeAssistant, ServiceCall
from homeassistant.helpers import entity_registry as er, issue_registry as ir
from homeassistant.setup import async_setup_component

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


async def test_appliance_gone_and_removed(
    hass: HomeAssistant,
    hass_client: ClientSessionGenerator,
    stand_in: StandInService,
    loaded_entry: MockConfigEntry,
) -> None:
    """An appliance the service no longer has: unavailable, an issue; its fix removes the entities."""
    entities = er.async_get(hass)
    gone = stand_in.own_appliance
    unique_id = f"{stand_in.instance_id}_{gone}_cycle_state"
    state_id = entities.async_get_entity_id("sensor", DOMAIN, unique_id)
    assert state_id is not None

    # The service restarts without it: the snapshot after reconnecting lacks it.
    await stand_in.stop()
    del stand_in.server.appliances[gone]
    await stand_in.start()
    await wait_until(
        hass, lambda: hass.states.get("sensor.dishwasher_cycle_state").state == "idle" and
        hass.states.get(state_id).state == "unavailable", "dryer unavailable, dishwasher back",
    )
    issue_id = f"appliance_missing_{loaded_entry.entry_id}_{gone}"
    issue = ir.async_get(hass).async_get_issue(DOMAIN, issue_id)
    assert issue is not None
    assert issue.is_fixable

    assert await async_setup_component(hass, "repairs", {})
    client = await hass_client()
    response = await client.post("/api/repairs/issues/fix", json={"handler": DOMAIN, "issue_id": issue_id})
    assert response.status == 200
    flow = await response.json()
    assert flow["step_id"] == "confirm"
    response = await client.post(f"/api/repairs/issues/fix/{flow['flow_id']}", json={})
    assert response.status == 200
    assert (await response.json())["type"] == "create_entry"

    assert entities.async_get_entity_id("sensor", DOMAIN, unique_id) is None
    assert ir.async_get(hass).async_get_issue(DOMAIN, issue_id) is None
