"""The setting entities made from the service's declaration (`appliance_settings`, docs/API.md).

Each tunable setting the service declares is a switch (a flag) or a number on every
appliance, with the declared range, step and unit, a name and an icon; a service that
declares none (before 0.3) leaves the appliances without them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.cycletrack.models import (
    ModelError,
    ServiceInfo,
    SettingDeclaration,
    Settings,
)
from homeassistant.components.number import ATTR_VALUE, SERVICE_SET_VALUE
from homeassistant.const import (
    ATTR_ENTITY_ID,
    SERVICE_TURN_OFF,
    SERVICE_TURN_ON,
    STATE_OFF,
    STATE_ON,
)
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er

from .service_under_test import ServiceUnderTest, StandInService, read_appliance

INTEGRATION = Path(__file__).resolve().parents[3] / "custom_components/cycletrack"


def _platform(setting: dict[str, Any]) -> str:
    return "switch" if setting["type"] == "flag" else "number"


async def _declared(service: ServiceUnderTest) -> list[dict[str, Any]]:
    """GET what the service under test declares (the stand-in's fixture, or the real binary's own)."""
    async with aiohttp.ClientSession() as session, session.get(
        f"{service.url}/api/v1/service", headers={"Authorization": f"Bearer {service.api_key}"}
    ) as response:
        response.raise_for_status()
        return list((await response.json())["appliance_settings"])


def _entity(hass: HomeAssistant, service: ServiceUnderTest, platform: str, appliance: str, key: str) -> str:
    found = er.async_get(hass).async_get_entity_id(platform, "cycletrack", f"{service.instance_id}_{appliance}_{key}")
    assert found is not None, f"no {platform} entity for {appliance}'s {key}"
    return found


async def test_every_declared_setting_is_an_entity_of_every_appliance(
    hass: HomeAssistant, service: ServiceUnderTest, loaded_entry: MockConfigEntry
) -> None:
    """A switch per flag, a number per number (its range, step and unit), named and with an icon."""
    declared = await _declared(service)
    assert {setting["key"] for setting in declared} >= {"notify_start", "notify_end", "unload_reminder_minutes"}
    strings = json.loads((INTEGRATION / "strings.json").read_text())["entity"]
    english = json.loads((INTEGRATION / "translations/en.json").read_text())["entity"]
    icons = json.loads((INTEGRATION / "icons.json").read_text())["entity"]
    for setting in declared:
        platform, key = _platform(setting), setting["entity_key"]
        assert strings[platform][key]["name"] == english[platform][key]["name"], f"{platform}.{key}"
        assert icons[platform][key]["default"].startswith("mdi:"), f"{platform}.{key}"
        for appliance in (service.linked_appliance, service.own_appliance):
            state = hass.states.get(_entity(hass, service, platform, appliance, key))
            assert state is not None
            if platform == "number":
                assert state.attributes["min"] == setting["min"]
                assert state.attributes["max"] == setting["max"]
                assert state.attributes["step"] == setting["step"]
                assert state.attributes["unit_of_measurement"] == setting["unit"]


async def test_every_declared_switch_patches_its_key(
    hass: HomeAssistant, service: ServiceUnderTest, loaded_entry: MockConfigEntry
) -> None:
    """Each switch turned off and on again PATCHes its own key, and shows what the service answers."""
    appliance = service.own_appliance
    for setting in await _declared(service):
        if setting["type"] != "flag":
            continue
        switch_id = _entity(hass, service, "switch", appliance, setting["entity_key"])
        for service_name, state, value in ((SERVICE_TURN_OFF, STATE_OFF, False), (SERVICE_TURN_ON, STATE_ON, True)):
            await hass.services.async_call("switch", service_name, {ATTR_ENTITY_ID: switch_id}, blocking=True)
            assert hass.states.get(switch_id).state == state, setting["key"]
            assert (await read_appliance(service, appliance))["settings"][setting["key"]] is value


async def test_a_declared_number_patches_a_whole_number(
    hass: HomeAssistant, service: ServiceUnderTest, loaded_entry: MockConfigEntry
) -> None:
    """The unload reminder's number sends whole minutes; off (null) shows as 0."""
    appliance = service.own_appliance
    reminder_id = _entity(hass, service, "number", appliance, "unload_reminder")
    await hass.services.async_call(
        "number", SERVICE_SET_VALUE, {ATTR_ENTITY_ID: reminder_id, ATTR_VALUE: 45}, blocking=True
    )
    assert (await read_appliance(service, appliance))["settings"]["unload_reminder_minutes"] == 45
    assert float(hass.states.get(reminder_id).state) == 45


async def test_a_service_that_declares_nothing_has_no_setting_entities(
    hass: HomeAssistant, stand_in: StandInService, mock_config_entry: MockConfigEntry
) -> None:
    """A service before 0.3 serves no `appliance_settings`: the step numbers only, no switch."""
    del stand_in.server.service["appliance_settings"]
    assert await hass.config_entries.async_setup(mock_config_entry.entry_id)
    await hass.async_block_till_done()
    registered = er.async_entries_for_config_entry(er.async_get(hass), mock_config_entry.entry_id)
    assert not [item for item in registered if item.domain == "switch"]
    numbers = {item.translation_key for item in registered if item.domain == "number"}
    assert numbers == {"progress_step", "fine_from", "fine_step"}


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("notify_start", "expected an object"),
        ({"type": "flag"}, "missing key 'key'"),
        ({"key": "x"}, "missing key 'type'"),
        ({"key": "x", "type": "text"}, "expected flag or number"),
        ({"key": "x", "type": "number", "min": "0"}, "expected a number"),
    ],
)
def test_a_declaration_not_of_the_contracts_shape_is_refused(body: Any, message: str) -> None:
    """A declaration the integration can't make an entity of is a ModelError naming where."""
    with pytest.raises(ModelError, match=message):
        ServiceInfo.from_dict(
            {"version": "0.3.0", "instance_id": "i", "pushes_today": 0, "daily_push_limit": 400,
             "pushes_left_today": 400, "appliance_settings": [body]}
        )
    assert SettingDeclaration.from_dict({"key": "k", "type": "flag"}, "here").entity_key == "k"


@pytest.mark.parametrize(
    ("body", "message"),
    [("on", "here: expected an object"), ({"progress_steps": 10}, "here.progress_steps: expected an object")],
)
def test_a_settings_object_not_of_the_contracts_shape_is_refused(body: Any, message: str) -> None:
    """The settings object is progress_steps (an object) and the declared settings by key."""
    with pytest.raises(ModelError, match=message):
        Settings.from_dict(body, "here")
    assert Settings.from_dict({"progress_steps": {}, "notify_end": False}, "here").values == {"notify_end": False}
