"""Assist: "When will the dishwasher be done?" answered from the running cycle, in English and German.

An intent handler (`CycletrackCycleStatus`, helpers/intent.py: LLM agents get it as a tool
through the Assist API) and the sentences Home Assistant's own agent matches: registered as
sentence triggers with the conversation integration's agent manager, the way its
`conversation` trigger does, since 2026.11 has no other way for an integration to add
sentences without files in the user's config (docs/INTEGRATION.md, "Assist").
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from hassil.recognize import RecognizeResult

from homeassistant.components.conversation import ConversationInput
from homeassistant.components.conversation.agent_manager import get_agent_manager
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import area_registry as ar, device_registry as dr, intent
from homeassistant.util import dt as dt_util

from .answers import answer, matches, unknown, wording
from .const import DOMAIN
from .coordinator import CycletrackConfigEntry
from .entity import appliance_device_key, linked_device
from .models import Appliance

INTENT_CYCLE = "CycletrackCycleStatus"
SLOT = "appliance"

# Home Assistant's sentence template syntax (hassil): [optional], (alternatives), {appliance}
# a wildcard: the appliance's or its area's name.
SENTENCES: dict[str, list[str]] = {
    "en": [
        "when will [the] {appliance} be (done|finished|ready)",
        "when (is|does|will) [the] {appliance} (done|finished|ready|finish)",
        "is [the] {appliance} (done|finished|ready) [yet]",
        "how long until [the] {appliance} is (done|finished|ready)",
        "how long (is|does|will) [the] {appliance} [still] (run|running|take)",
        "what is [the] {appliance} doing",
    ],
    "de": [
        "wann ist [der|die|das] {appliance} fertig",
        "wann wird [der|die|das] {appliance} fertig [sein]",
        "ist [der|die|das] {appliance} [schon] fertig",
        "wie lange (läuft|braucht|dauert) [der|die|das] {appliance} noch",
        "wie lange dauert es [noch] bis [der|die|das] {appliance} fertig ist",
        "was macht [der|die|das] {appliance}",
    ],
}


@dataclass(frozen=True, slots=True)
class Known:
    """An appliance as Assist may name it: its names in Home Assistant and its area's."""

    appliance: Appliance
    name: str
    names: list[str]
    areas: list[str]


def _known(hass: HomeAssistant, entry: CycletrackConfigEntry) -> list[Known]:
    coordinator = entry.runtime_data.coordinator
    devices, areas = dr.async_get(hass), ar.async_get(hass)
    found = []
    for appliance in coordinator.data.appliances.values():
        device = linked_device(coordinator, appliance) or devices.async_get_device_by_identifier(
            (DOMAIN, appliance_device_key(coordinator.instance_id, appliance.id)), entry.entry_id
        )
        names = [appliance.name]
        area_names: list[str] = []
        if device is not None:
            names = [name for name in (device.name_by_user, device.name, appliance.name) if name]
            if device.area_id and (area := areas.async_get_area(device.area_id)) is not None:
                area_names = [area.name, *area.aliases]
        found.append(Known(appliance, names[0], names, area_names))
    return found


@callback
def async_answer(hass: HomeAssistant, spoken: str, language: str) -> str:
    """Answer for the appliances called `spoken`, else those in the area called so."""
    words = wording(language)
    known = [item for entry in hass.config_entries.async_loaded_entries(DOMAIN) for item in _known(hass, entry)]
    named = [item for item in known if matches(spoken, item.names, words)] or [
        item for item in known if matches(spoken, item.areas, words)
    ]
    if not named:
        return unknown(spoken, words)
    now, zone = dt_util.utcnow(), dt_util.get_default_time_zone()
    return " ".join(answer(item.appliance, item.name, now, zone, words) for item in named)


class CycleStatusIntentHandler(intent.IntentHandler):
    """Tell how an appliance's cycle goes: program, progress, the finish time, or the last cycle's end."""

    intent_type = INTENT_CYCLE
    description = (
        "Tells when a household appliance tracked by cycletrack (dishwasher, washer, dryer, oven) will be "
        "done: its program, progress and finish time, or when its last cycle ended. "
        "Give the appliance's name or its area."
    )

    @property
    def slot_schema(self) -> dict[str, Any]:
        """The appliance's (or its area's) name."""
        return {SLOT: intent.non_empty_string}

    async def async_handle(self, intent_obj: intent.Intent) -> intent.IntentResponse:
        """Answer in the intent's language."""
        slots = self.async_validate_slots(intent_obj.slots)
        response = intent_obj.create_response()
        response.async_set_speech(async_answer(intent_obj.hass, slots[SLOT]["value"], intent_obj.language))
        return response


def _trigger(hass: HomeAssistant, language: str) -> Callable[[ConversationInput, RecognizeResult], Awaitable[str | None]]:
    async def respond(user_input: ConversationInput, result: RecognizeResult) -> str | None:
        response = await intent.async_handle(
            hass,
            DOMAIN,
            INTENT_CYCLE,
            {SLOT: {"value": str(result.entities[SLOT].value)}},
            text_input=user_input.text,
            context=user_input.context,
            language=language,
        )
        return str(response.speech["plain"]["speech"])

    return respond


@callback
def async_setup_assist(hass: HomeAssistant) -> None:
    """Register the intent and each language's sentences with the default agent (once, at setup)."""
    intent.async_register(hass, CycleStatusIntentHandler())
    manager = get_agent_manager(hass)
    for language, sentences in SENTENCES.items():
        # Answered in the language the sentence is in, whatever the pipeline's.
        manager.register_trigger(sentences, _trigger(hass, language))
