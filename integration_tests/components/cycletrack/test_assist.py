"""Assist: Home Assistant's own agent answers "when will the dishwasher be done" from the running cycle."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.cycletrack.assist import INTENT_CYCLE
from custom_components.cycletrack.const import DOMAIN
from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import area_registry as ar, device_registry as dr, intent
from homeassistant.util import dt as dt_util

from .conftest import wait_until
from .service_under_test import ServiceUnderTest, read_appliance
from .test_entities import entity_id


async def ask(hass: HomeAssistant, text: str, language: str) -> str:
    """Ask Home Assistant's default agent, as a voice satellite or the Assist dialog does."""
    result = await conversation.async_converse(hass, text, None, Context(), language=language)
    return str(result.response.speech["plain"]["speech"])


def hh_mm(value: str) -> str:
    """Return an API time as HH:MM in Home Assistant's time zone."""
    parsed = dt_util.parse_datetime(value)
    assert parsed is not None
    return dt_util.as_local(parsed).strftime("%H:%M")


async def running(hass: HomeAssistant, service: ServiceUnderTest, appliance: str) -> dict[str, Any]:
    """Start a cycle and wait until Home Assistant has it; return the service's appliance."""
    finish = entity_id(hass, service, "sensor", appliance, "finish")
    await service.start_cycle(appliance, "Eco 50°C", 40)
    await wait_until(hass, lambda: hass.states.get(finish).state not in ("unknown", "unavailable"), "a finish time")
    body = await read_appliance(service, appliance)
    assert body["running"]
    assert body["finish"] is not None
    return body


async def test_when_will_the_dishwasher_be_done_over_http(
    hass: HomeAssistant,
    service: ServiceUnderTest,
    loaded_entry: MockConfigEntry,
    hass_client: ClientSessionGenerator,
) -> None:
    """POST /api/conversation/process: the answer names the finish time the phone shows, and the progress."""
    body = await running(hass, service, service.linked_appliance)
    client = await hass_client()
    response = await client.post(
        "/api/conversation/process", json={"text": "When will the dishwasher be done?", "language": "en"}
    )
    assert response.status == HTTPStatus.OK
    speech = (await response.json())["response"]["speech"]["plain"]["speech"]
    assert speech.startswith("Dishwasher is running")
    assert f"{round(body['progress'])} % done" in speech
    assert hh_mm(body["finish"]) in speech
    if body["program"]:
        assert body["program"] in speech


async def test_wann_ist_die_spuelmaschine_fertig(
    hass: HomeAssistant,
    service: ServiceUnderTest,
    loaded_entry: MockConfigEntry,
    home_connect_device: dr.DeviceEntry,
) -> None:
    """German, by the name the user gave the device in Home Assistant: answered in German."""
    dr.async_get(hass).async_update_device(home_connect_device.id, name_by_user="Spülmaschine")
    body = await running(hass, service, service.linked_appliance)
    speech = await ask(hass, "Wann ist die Spülmaschine fertig?", "de")
    assert speech.startswith("Spülmaschine läuft")
    assert f"{round(body['progress'])} % geschafft" in speech
    assert f"{hh_mm(body['finish'])} Uhr" in speech
    # Every language's sentences are known; the answer is in the question's language.
    assert (await ask(hass, "how long until the Spülmaschine is done", "de")).startswith("Spülmaschine is running")


async def test_is_the_dryer_finished(hass: HomeAssistant, service: ServiceUnderTest, loaded_entry: MockConfigEntry) -> None:
    """A finished cycle: not running, and when the last one ended, in both languages."""
    appliance = service.own_appliance
    await running(hass, service, appliance)
    await service.finish_cycle(appliance)
    state = entity_id(hass, service, "sensor", appliance, "cycle_state")
    await wait_until(hass, lambda: hass.states.get(state).state == "finished", "finished")
    last = (await read_appliance(service, appliance))["last_cycle"]
    english = await ask(hass, "Is the dryer finished?", "en")
    assert english.startswith("Dryer is not running. Its last cycle")
    assert "finished" in english
    assert hh_mm(last["ended_at"]) in english
    german = await ask(hass, "Ist der Trockner fertig?", "de")
    assert german == "cycletrack kennt kein Gerät und keinen Bereich namens Trockner."
    german = await ask(hass, "Ist der Dryer schon fertig?", "de")
    assert german.startswith("Dryer läuft nicht. Der letzte Durchgang")
    assert f"{hh_mm(last['ended_at'])} Uhr fertig" in german


async def test_by_area(
    hass: HomeAssistant,
    service: ServiceUnderTest,
    loaded_entry: MockConfigEntry,
    home_connect_device: dr.DeviceEntry,
) -> None:
    """A name that is no appliance's but an area's (or its alias's): that area's appliances answer."""
    kitchen = ar.async_get(hass).async_create("Kitchen", aliases={"Küche"})
    dr.async_get(hass).async_update_device(home_connect_device.id, area_id=kitchen.id)
    assert (await ask(hass, "is the kitchen done", "en")).startswith("Dishwasher is not running and has no finished")
    assert (await ask(hass, "ist die Küche fertig", "de")).startswith("Dishwasher läuft nicht und hat noch keinen")


async def test_unknown_appliance(hass: HomeAssistant, service: ServiceUnderTest, loaded_entry: MockConfigEntry) -> None:
    """Nothing by that name: said so, naming what was asked, in the question's language."""
    assert await ask(hass, "When will the oven be done?", "en") == "cycletrack knows no appliance or area called oven."
    assert await ask(hass, "Wie lange braucht der Ofen noch?", "de") == (
        "cycletrack kennt kein Gerät und keinen Bereich namens Ofen."
    )


async def test_the_intent_as_llm_agents_call_it(
    hass: HomeAssistant, service: ServiceUnderTest, loaded_entry: MockConfigEntry
) -> None:
    """The intent handler answers by slot, in the intent's language; no entry loaded, nothing is known."""
    response = await intent.async_handle(hass, "test", INTENT_CYCLE, {"appliance": {"value": "the Dryer"}}, language="en")
    assert response.speech["plain"]["speech"] == "Dryer is not running and has no finished cycle yet."
    assert INTENT_CYCLE in {handler.intent_type for handler in intent.async_get(hass)}
    assert await hass.config_entries.async_unload(loaded_entry.entry_id)
    response = await intent.async_handle(hass, DOMAIN, INTENT_CYCLE, {"appliance": {"value": "Dryer"}}, language="de-CH")
    assert response.speech["plain"]["speech"] == "cycletrack kennt kein Gerät und keinen Bereich namens Dryer."
