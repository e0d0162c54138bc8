"""The options flow's washer and dryer, against the real cycletrack (CYCLETRACK_BIN).

The service follows a discovered dishwasher and a configured dryer. The flow shows each
appliance's `dryer` (docs/PUSHES.md, "Washer and dryer"), changes it with a PATCH, and
the service's next end notification says where the laundry goes.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
import json
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.cycletrack.const import CONF_PANEL
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.helpers import device_registry as dr

from .conftest import real_service_running, set_up_entry_for

WAIT_SECONDS = 30


@pytest.fixture
async def laundry_service(
    socket_enabled: None, tmp_path: Path, home_connect_device: dr.DeviceEntry
) -> AsyncIterator[Any]:
    """Return the real service with its two appliances."""
    async with real_service_running(tmp_path, home_connect_device) as service:
        yield service


@pytest.fixture
async def laundry_entry(hass: HomeAssistant, laundry_service: Any) -> MockConfigEntry:
    """Return the entry for that service, set up."""
    return await set_up_entry_for(hass, laundry_service)


async def dryer_of(service: Any, appliance_id: str) -> str:
    """Return the appliance's `dryer`, straight from the service."""
    async with aiohttp.ClientSession() as session, session.get(
        f"{service.url}/api/v1/appliances/{appliance_id}", headers={"Authorization": f"Bearer {service.api_key}"}
    ) as response:
        response.raise_for_status()
        return str((await response.json())["settings"]["dryer"])


async def set_dryer(hass: HomeAssistant, entry: MockConfigEntry, appliance_id: str, dryer: str) -> dict[str, Any]:
    """Go through the menu to the appliance's form and submit `dryer`; return the form as it was shown."""
    result = await hass.config_entries.options.async_init(entry.entry_id)
    assert result["type"] is FlowResultType.MENU
    assert result["menu_options"] == ["sidebar", "quiet_hours", "laundry"]
    result = await hass.config_entries.options.async_configure(result["flow_id"], {"next_step_id": "laundry"})
    assert result["step_id"] == "laundry"
    result = await hass.config_entries.options.async_configure(result["flow_id"], {"appliance": appliance_id})
    assert result["step_id"] == "appliance"
    shown = dict(result)
    result = await hass.config_entries.options.async_configure(result["flow_id"], {"dryer": dryer})
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert entry.options == {CONF_PANEL: True}
    return shown


def end_titles(service: Any, appliance_id: str) -> list[str]:
    """Return the titles of the appliance's end notifications the service sent."""
    tag = f'"appliance_{appliance_id}_end"'
    return [
        call["data"]["title"] for call in service.ha.calls
        if call["service"] == "supernotify/notify" and tag in json.dumps(call["data"])
    ]


async def test_a_dryer_is_chosen_and_the_end_says_so(
    hass: HomeAssistant, laundry_service: Any, laundry_entry: MockConfigEntry
) -> None:
    """Automatic at first; the dryer chosen, the dishwasher's end tells to move the laundry; off again."""
    washer = laundry_service.linked_appliance
    shown = await set_dryer(hass, laundry_entry, washer, "dryer")
    schema = {str(key): key for key in shown["data_schema"].schema}
    assert schema["dryer"].default() == "auto"
    options = shown["data_schema"].schema[schema["dryer"]].config["options"]
    assert [option["value"] for option in options] == ["auto", "off", "dryer"]
    assert shown["description_placeholders"]["dryer"] == "auto"
    assert await dryer_of(laundry_service, washer) == "dryer"
    assert await dryer_of(laundry_service, "dryer") == "auto", "the dryer's own is untouched"

    await laundry_service.start_cycle(washer, "Eco 50°C", 10)
    await laundry_service.wait_for_call(lambda: any(c["service"] == "supernotify/notify" for c in laundry_service.ha.calls), "start", WAIT_SECONDS)
    await laundry_service.finish_cycle(washer)
    await laundry_service.wait_for_call(lambda: bool(end_titles(laundry_service, washer)), "end notification", WAIT_SECONDS)
    assert end_titles(laundry_service, washer)[0].endswith(" finished: move the laundry to the dryer")

    shown = await set_dryer(hass, laundry_entry, washer, "off")
    assert shown["description_placeholders"]["dryer"] == "Dryer"
    assert await dryer_of(laundry_service, washer) == "off"


async def test_a_service_gone_meanwhile_is_said_on_the_form(
    hass: HomeAssistant, laundry_service: Any, laundry_entry: MockConfigEntry
) -> None:
    """The service stopped between the form and its answer: the form says the change wasn't taken."""
    result = await hass.config_entries.options.async_init(laundry_entry.entry_id)
    result = await hass.config_entries.options.async_configure(result["flow_id"], {"next_step_id": "laundry"})
    result = await hass.config_entries.options.async_configure(result["flow_id"], {"appliance": "dryer"})
    await laundry_service.stop()
    result = await hass.config_entries.options.async_configure(result["flow_id"], {"dryer": "off"})
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {"base": "cannot_change"}
    assert result["description_placeholders"]["message"]
    await laundry_service.start()
    assert await dryer_of(laundry_service, "dryer") == "auto"
