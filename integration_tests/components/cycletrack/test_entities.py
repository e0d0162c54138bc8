"""Entities: states from the stream, registry ids, device linking, settings and the button."""

from __future__ import annotations

import logging

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.cycletrack.const import DOMAIN
from custom_components.cycletrack.settings import async_end_activity
from homeassistant.components.button import SERVICE_PRESS
from homeassistant.components.number import ATTR_VALUE, SERVICE_SET_VALUE
from homeassistant.const import (
    ATTR_ENTITY_ID,
    SERVICE_TURN_OFF,
    STATE_OFF,
    STATE_ON,
    STATE_UNAVAILABLE,
)
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers import device_registry as dr, entity_registry as er

from .conftest import wait_until
from .real_service import RealService
from .service_under_test import ServiceUnderTest, StandInService, read_appliance

APPLIANCE_KEYS = {
    ("sensor", "cycle_state"),
    ("sensor", "program"),
    ("sensor", "progress"),
    ("sensor", "finish"),
    ("sensor", "last_cycle_duration"),
    ("sensor", "last_cycle_energy"),
    ("sensor", "energy"),
    ("binary_sensor", "running"),
    ("binary_sensor", "awaits_unloading"),
    ("event", "cycle"),
    ("number", "progress_step"),
    ("number", "fine_from"),
    ("number", "fine_step"),
    ("number", "unload_reminder"),
    ("switch", "notify_start"),
    ("switch", "notify_progress"),
    ("switch", "notify_end"),
    ("switch", "live_activity"),
    ("button", "end_activity"),
    ("button", "unloaded"),
}


def entity_id(hass: HomeAssistant, service: ServiceUnderTest, platform: str, appliance: str, key: str) -> str:
    """Return the entity id registered for `<instance_id>_<appliance_id>_<key>`."""
    unique_id = f"{service.instance_id}_{appliance}_{key}"
    found = er.async_get(hass).async_get_entity_id(platform, DOMAIN, unique_id)
    assert found is not None, f"no {platform} entity with unique id {unique_id}"
    return found


async def test_registry_ids_and_devices(
    hass: HomeAssistant,
    service: ServiceUnderTest,
    loaded_entry: MockConfigEntry,
    home_connect_device: dr.DeviceEntry,
) -> None:
    """Every entity has its unique id; the dishwasher's join Home Connect's device, the dryer has its own."""
    entities = er.async_get(hass)
    devices = dr.async_get(hass)
    registered = {item.unique_id: item for item in er.async_entries_for_config_entry(entities, loaded_entry.entry_id)}
    for appliance in (service.linked_appliance, service.own_appliance):
        for platform, key in APPLIANCE_KEYS:
            item = registered[f"{service.instance_id}_{appliance}_{key}"]
            assert item.platform == DOMAIN
            assert item.domain == platform
            assert item.translation_key == key
            assert item.has_entity_name
    assert {f"{service.instance_id}_pushes_today", f"{service.instance_id}_pushes_left_today"} <= set(registered)

    linked = {registered[f"{service.instance_id}_{service.linked_appliance}_{key}"].device_id for _, key in APPLIANCE_KEYS}
    assert linked == {home_connect_device.id}
    # Attached, not taken over: the device stays Home Connect's, as it was.
    device = devices.async_get(home_connect_device.id)
    assert device is not None
    assert device.config_entry_id == home_connect_device.config_entry_id != loaded_entry.entry_id
    assert device.identifiers == {("home_connect", "SIEMENS-SN65ZX49CE-68A40E0E2A31")}
    assert device.name == "Dishwasher"
    assert hass.states.get("sensor.dishwasher_cycle_state") is not None

    service_device = devices.async_get_device_by_identifier((DOMAIN, service.instance_id), loaded_entry.entry_id)
    assert service_device is not None
    assert service_device.entry_type is dr.DeviceEntryType.SERVICE
    assert registered[f"{service.instance_id}_pushes_today"].device_id == service_device.id
    own = devices.async_get(registered[f"{service.instance_id}_{service.own_appliance}_cycle_state"].device_id)
    assert own is not None
    assert own.identifiers == {(DOMAIN, f"{service.instance_id}_{service.own_appliance}")}
    assert own.via_device_id == service_device.id
    assert own.config_entry_id == loaded_entry.entry_id
    assert own.name == "Dryer"
    assert hass.states.get("sensor.dryer_cycle_state") is not None
    # No device of cycletrack's own for the dishwasher.
    ours = {d.id for d in dr.async_entries_for_config_entry(devices, loaded_entry.entry_id)}
    assert ours == {service_device.id, own.id}


async def test_states_follow_the_cycle(
    hass: HomeAssistant, service: ServiceUnderTest, loaded_entry: MockConfigEntry
) -> None:
    """Idle, then a running cycle, then finished with its duration and energy, pushed."""
    appliance = service.linked_appliance
    state_id = entity_id(hass, service, "sensor", appliance, "cycle_state")
    assert hass.states.get(state_id).state == "idle"
    assert hass.states.get(state_id).attributes["options"][:2] == ["idle", "running"]
    assert hass.states.get(entity_id(hass, service, "binary_sensor", appliance, "running")).state == STATE_OFF

    await service.start_cycle(appliance, "Eco 50°C", 10)
    progress_id = entity_id(hass, service, "sensor", appliance, "progress")
    await wait_until(hass, lambda: hass.states.get(progress_id).state == "10.0", "progress 10")
    assert hass.states.get(state_id).state == "running"
    assert hass.states.get(entity_id(hass, service, "binary_sensor", appliance, "running")).state == STATE_ON
    finish = hass.states.get(entity_id(hass, service, "sensor", appliance, "finish"))
    assert finish.attributes["device_class"] == "timestamp"
    assert finish.state.endswith("+00:00")

    await service.set_progress(appliance, 42)
    await wait_until(hass, lambda: hass.states.get(progress_id).state == "42.0", "progress 42")

    await service.finish_cycle(appliance)
    await wait_until(hass, lambda: hass.states.get(state_id).state == "finished", "finished")
    # The entities show what the service says of the cycle.
    told = await read_appliance(service, appliance)
    duration = hass.states.get(entity_id(hass, service, "sensor", appliance, "last_cycle_duration"))
    assert float(duration.state) == pytest.approx(told["last_cycle"]["duration_seconds"] / 60, abs=0.01)
    assert duration.attributes["unit_of_measurement"] == "min"
    energy = hass.states.get(entity_id(hass, service, "sensor", appliance, "energy"))
    assert energy.attributes["state_class"] == "total_increasing"
    assert energy.attributes["device_class"] == "energy"
    assert energy.attributes["unit_of_measurement"] == "kWh"
    assert float(energy.state) == pytest.approx(told["energy_total_kwh"])
    last_energy = hass.states.get(entity_id(hass, service, "sensor", appliance, "last_cycle_energy"))
    if told["last_cycle"]["energy_kwh"] is None:
        assert last_energy.state == "unknown"
    else:
        assert float(last_energy.state) == pytest.approx(told["last_cycle"]["energy_kwh"])


async def test_event_entity(hass: HomeAssistant, service: ServiceUnderTest, loaded_entry: MockConfigEntry) -> None:
    """The cycle's start and its outcome fire the event entity."""
    appliance = service.own_appliance
    event_id = entity_id(hass, service, "event", appliance, "cycle")
    assert hass.states.get(event_id).attributes["event_types"] == [
        "started", "finished", "aborted", "failed", "lost", "reminder", "anomaly",
    ]
    await service.start_cycle(appliance, "Cotton", 5)
    await wait_until(hass, lambda: hass.states.get(event_id).attributes.get("event_type") == "started", "started")
    assert "program" in hass.states.get(event_id).attributes
    await service.finish_cycle(appliance)
    await wait_until(hass, lambda: hass.states.get(event_id).attributes.get("event_type") == "finished", "finished")
    told = await read_appliance(service, appliance)
    assert hass.states.get(event_id).attributes["duration_seconds"] == told["last_cycle"]["duration_seconds"]


async def test_number_sets_the_running_cycles_steps(
    hass: HomeAssistant, service: ServiceUnderTest, loaded_entry: MockConfigEntry
) -> None:
    """number.set_value PATCHes the service; the service's effective settings change."""
    appliance = service.linked_appliance
    step_id = entity_id(hass, service, "number", appliance, "progress_step")
    assert float(hass.states.get(step_id).state) == 10
    await service.start_cycle(appliance, "Eco 50°C", 10)

    await hass.services.async_call(
        "number", SERVICE_SET_VALUE, {ATTR_ENTITY_ID: step_id, ATTR_VALUE: 25}, blocking=True
    )
    assert float(hass.states.get(step_id).state) == 25
    settings = (await read_appliance(service, appliance))["settings"]
    assert settings["progress_steps"] == {"step": 25, "fine_from": 90, "fine_step": 2}

    reminder_id = entity_id(hass, service, "number", appliance, "unload_reminder")
    await hass.services.async_call(
        "number", SERVICE_SET_VALUE, {ATTR_ENTITY_ID: reminder_id, ATTR_VALUE: 0}, blocking=True
    )
    assert (await read_appliance(service, appliance))["settings"]["unload_reminder_minutes"] in (0, None)
    assert float(hass.states.get(reminder_id).state) == 0


async def test_switch_patches(hass: HomeAssistant, service: ServiceUnderTest, loaded_entry: MockConfigEntry) -> None:
    """Switching Live Activity off PATCHes live_activity=false."""
    switch_id = entity_id(hass, service, "switch", service.own_appliance, "live_activity")
    assert hass.states.get(switch_id).state == STATE_ON
    await hass.services.async_call("switch", SERVICE_TURN_OFF, {ATTR_ENTITY_ID: switch_id}, blocking=True)
    assert hass.states.get(switch_id).state == STATE_OFF
    assert (await read_appliance(service, service.own_appliance))["settings"]["live_activity"] is False


async def test_button_ends_the_activity(
    hass: HomeAssistant, service: ServiceUnderTest, loaded_entry: MockConfigEntry
) -> None:
    """The button is there only while a Live Activity shows: it ends it once, then goes."""
    appliance = service.linked_appliance
    button_id = entity_id(hass, service, "button", appliance, "end_activity")
    assert hass.states.get(button_id).state == STATE_UNAVAILABLE, "no cycle: nothing to end"

    await service.start_cycle(appliance, "Eco 50°C", 10)
    await wait_until(hass, lambda: hass.states.get(button_id).state != STATE_UNAVAILABLE, "the activity shows")
    await hass.services.async_call("button", SERVICE_PRESS, {ATTR_ENTITY_ID: button_id}, blocking=True)
    assert await service.ended_activities(appliance) == 1
    # Ended: the button goes, and a second press (a double tap) asks the service nothing.
    await wait_until(hass, lambda: hass.states.get(button_id).state == STATE_UNAVAILABLE, "the activity ended")
    await hass.services.async_call("button", SERVICE_PRESS, {ATTR_ENTITY_ID: button_id}, blocking=True)
    assert await service.ended_activities(appliance) == 1


async def test_unloaded_button_tells_the_service(
    hass: HomeAssistant, service: ServiceUnderTest, loaded_entry: MockConfigEntry
) -> None:
    """A finished cycle needs unloading until the button says so; each press tells the service."""
    appliance = service.own_appliance
    button_id = entity_id(hass, service, "button", appliance, "unloaded")
    waits_id = entity_id(hass, service, "binary_sensor", appliance, "awaits_unloading")
    assert hass.states.get(button_id).state != STATE_UNAVAILABLE
    assert hass.states.get(waits_id).state == STATE_OFF
    running_id = entity_id(hass, service, "binary_sensor", appliance, "running")
    await service.start_cycle(appliance, "Cotton", 10)
    await wait_until(hass, lambda: hass.states.get(running_id).state == STATE_ON, "the cycle runs")
    await service.finish_cycle(appliance)
    await wait_until(hass, lambda: hass.states.get(waits_id).state == STATE_ON, "the finished cycle needs unloading")
    # The press returns once the service answered, which it does once its loop took it.
    await hass.services.async_call("button", SERVICE_PRESS, {ATTR_ENTITY_ID: button_id}, blocking=True)
    assert await service.unloaded(appliance) == 1
    await wait_until(hass, lambda: hass.states.get(waits_id).state == STATE_OFF, "unloaded")
    await hass.services.async_call("button", SERVICE_PRESS, {ATTR_ENTITY_ID: button_id}, blocking=True)
    assert await service.unloaded(appliance) == 2, "a second press is taken too"


async def test_end_activity_refused_names_the_appliance(
    hass: HomeAssistant, service: ServiceUnderTest, loaded_entry: MockConfigEntry
) -> None:
    """Asked with no activity showing (another client ended it), the error names the appliance."""
    coordinator = loaded_entry.runtime_data.coordinator
    appliance = service.linked_appliance
    with pytest.raises(ServiceValidationError) as refused:
        await async_end_activity(coordinator, appliance)
    assert refused.value.translation_key == "no_activity"
    assert refused.value.translation_placeholders == {"appliance": coordinator.data.appliances[appliance].name}
    assert await service.ended_activities(appliance) == 0


async def test_unavailable_while_the_service_is_down(
    hass: HomeAssistant, service: ServiceUnderTest, loaded_entry: MockConfigEntry, caplog: pytest.LogCaptureFixture
) -> None:
    """Service stopped: one warning, no error, every entity unavailable; back: one full read, all back."""
    state_id = entity_id(hass, service, "sensor", service.linked_appliance, "cycle_state")
    pushes_id = er.async_get(hass).async_get_entity_id("sensor", DOMAIN, f"{service.instance_id}_pushes_today")
    assert hass.states.get(state_id).state == "idle"

    await service.stop()
    await wait_until(hass, lambda: hass.states.get(state_id).state == STATE_UNAVAILABLE, "unavailable")
    assert hass.states.get(pushes_id).state == STATE_UNAVAILABLE
    said = [r for r in caplog.records if r.name.startswith("custom_components.cycletrack")]
    assert [r.getMessage() for r in said if r.levelno >= logging.WARNING] == [
        (
            f"cycletrack at {loaded_entry.runtime_data.coordinator.client.base_url} stopped; "
            "its entities are unavailable until it is back"
        )
    ]

    await service.start()
    await wait_until(hass, lambda: hass.states.get(state_id).state == "idle", "back")
    assert hass.states.get(pushes_id).state != STATE_UNAVAILABLE


async def test_a_stream_cut_as_the_service_stops_is_a_stop_not_an_error(
    hass: HomeAssistant, stand_in: StandInService, loaded_entry: MockConfigEntry, caplog: pytest.LogCaptureFixture
) -> None:
    """The stream's connection reset as the service exits, then nothing listens: the same one warning, no error."""
    state_id = entity_id(hass, stand_in, "sensor", stand_in.linked_appliance, "cycle_state")
    assert hass.states.get(state_id).state == "idle"

    await stand_in.server.crash()
    await wait_until(hass, lambda: hass.states.get(state_id).state == STATE_UNAVAILABLE, "unavailable")
    said = [r for r in caplog.records if r.name.startswith("custom_components.cycletrack")]
    assert [r.getMessage() for r in said if r.levelno >= logging.WARNING] == [
        (
            f"cycletrack at {loaded_entry.runtime_data.coordinator.client.base_url} stopped; "
            "its entities are unavailable until it is back"
        )
    ]


async def test_unload(hass: HomeAssistant, loaded_entry: MockConfigEntry) -> None:
    """Unloading stops the stream and leaves no task behind."""
    assert await hass.config_entries.async_unload(loaded_entry.entry_id)
    await hass.async_block_till_done()
    assert loaded_entry.state.value == "not_loaded"


async def test_progress_step_changes_the_next_calls(
    hass: HomeAssistant, real_service: RealService, loaded_entry: MockConfigEntry
) -> None:
    """The real service: a progress step set through HA decides the running cycle's very next calls."""
    service = real_service
    appliance = service.linked_appliance
    progress_id = entity_id(hass, service, "sensor", appliance, "progress")
    await service.start_cycle(appliance, "Eco 50°C", 10)
    await service.wait_for_calls(appliance, 1)  # the start
    await hass.services.async_call(
        "number", SERVICE_SET_VALUE,
        {ATTR_ENTITY_ID: entity_id(hass, service, "number", appliance, "progress_step"), ATTR_VALUE: 25},
        blocking=True,
    )
    before = len(service.live_calls(appliance))

    # 20% was a step of 10, not of 25: no call. 25% is: exactly one.
    await service.set_progress(appliance, 20)
    await wait_until(hass, lambda: hass.states.get(progress_id).state == "20.0", "progress 20")
    await service.set_progress(appliance, 25)
    await wait_until(hass, lambda: hass.states.get(progress_id).state == "25.0", "progress 25")
    await service.wait_for_calls(appliance, before + 1)
    assert len(service.live_calls(appliance)) == before + 1
    assert "'progress': 25" in str(service.live_calls(appliance)[-1])


async def test_restart_sends_nothing_twice(
    hass: HomeAssistant, real_service: RealService, loaded_entry: MockConfigEntry
) -> None:
    """The real service restarts mid-cycle: unavailable, back, and the start is not sent again."""
    service = real_service
    appliance = service.linked_appliance
    state_id = entity_id(hass, service, "sensor", appliance, "cycle_state")
    progress_id = entity_id(hass, service, "sensor", appliance, "progress")
    await service.start_cycle(appliance, "Eco 50°C", 10)
    await service.wait_for_calls(appliance, 1)
    calls = service.live_calls(appliance)

    await service.stop()
    await wait_until(hass, lambda: hass.states.get(state_id).state == STATE_UNAVAILABLE, "unavailable")
    await service.start()
    await wait_until(hass, lambda: hass.states.get(state_id).state == "running", "back, running")
    # A change after the restart, read and shown: the restarted service is past its first poll.
    await service.set_progress(appliance, 12)
    await wait_until(hass, lambda: hass.states.get(progress_id).state == "12.0", "progress 12")
    assert service.live_calls(appliance) == calls
