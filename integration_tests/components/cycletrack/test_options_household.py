"""The options flow's quiet hours and people, against the real cycletrack (CYCLETRACK_BIN).

The service has quiet hours 22:00-07:00 and two people in its configuration; the flow
reads them from GET /api/v1/household, changes them with PATCH, and the service answers
with the settings in effect and where each came from.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
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

PEOPLE = {
    "quiet_hours": "22:00-07:00",
    "people": [{"entity": "person.alice"}, {"entity": "person.bob", "kinds": ["end", "reminder"], "language": "de"}],
}


@pytest.fixture
async def people_service(
    socket_enabled: None, tmp_path: Path, home_connect_device: dr.DeviceEntry
) -> AsyncIterator[Any]:
    """Return the real service with quiet hours and Alice and Bob configured."""
    async with real_service_running(tmp_path, home_connect_device, extra_config=PEOPLE) as service:
        yield service


@pytest.fixture
async def people_entry(hass: HomeAssistant, people_service: Any) -> MockConfigEntry:
    """Return the entry for that service, set up."""
    return await set_up_entry_for(hass, people_service)


async def household(service: Any) -> dict[str, Any]:
    """GET /api/v1/household straight from the service."""
    async with aiohttp.ClientSession() as session, session.get(
        f"{service.url}/api/v1/household", headers={"Authorization": f"Bearer {service.api_key}"}
    ) as response:
        response.raise_for_status()
        return await response.json()


async def open_menu(hass: HomeAssistant, entry: MockConfigEntry, step: str) -> dict[str, Any]:
    """Return the options menu, then `step`."""
    result = await hass.config_entries.options.async_init(entry.entry_id)
    assert result["type"] is FlowResultType.MENU
    # The real service follows a dishwasher and a dryer: the washer-and-dryer step too.
    assert result["menu_options"] == ["sidebar", "quiet_hours", "people", "laundry"]
    return await hass.config_entries.options.async_configure(result["flow_id"], {"next_step_id": step})


async def test_quiet_hours_are_shown_and_changed(
    hass: HomeAssistant, people_service: Any, people_entry: MockConfigEntry
) -> None:
    """The form shows the configured window; a new one takes effect in the service at once."""
    result = await open_menu(hass, people_entry, "quiet_hours")
    assert result["type"] is FlowResultType.FORM
    assert result["description_placeholders"]["source"] == "config"
    defaults = {str(key): key.default() for key in result["data_schema"].schema}
    assert defaults == {"enabled": True, "start": "22:00:00", "end": "07:00:00"}
    result = await hass.config_entries.options.async_configure(
        result["flow_id"], {"enabled": True, "start": "23:30:00", "end": "06:15:00"}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert people_entry.options == {CONF_PANEL: True}
    now = await household(people_service)
    assert now["settings"] == {"quiet_hours": "23:30-06:15"}
    assert now["sources"] == {"quiet_hours": "api"}

    # Off, through the same form.
    result = await open_menu(hass, people_entry, "quiet_hours")
    assert result["description_placeholders"]["source"] == "api"
    result = await hass.config_entries.options.async_configure(
        result["flow_id"], {"enabled": False, "start": "23:30:00", "end": "06:15:00"}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert (await household(people_service))["settings"] == {"quiet_hours": "off"}


async def test_an_empty_window_is_refused_with_the_services_message(
    hass: HomeAssistant, people_service: Any, people_entry: MockConfigEntry
) -> None:
    """Start and end the same: the service's 400 shows on the form, naming the field."""
    result = await open_menu(hass, people_entry, "quiet_hours")
    result = await hass.config_entries.options.async_configure(
        result["flow_id"], {"enabled": True, "start": "22:00:00", "end": "22:00:00"}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {"base": "refused"}
    assert "quiet_hours" in result["description_placeholders"]["message"]
    assert (await household(people_service))["sources"] == {"quiet_hours": "config"}


async def test_a_person_is_shown_and_changed(
    hass: HomeAssistant, people_service: Any, people_entry: MockConfigEntry
) -> None:
    """Bob's kinds and language from the configuration; his own quiet hours and English through the flow."""
    result = await open_menu(hass, people_entry, "people")
    assert result["step_id"] == "people"
    result = await hass.config_entries.options.async_configure(result["flow_id"], {"person": "person.bob"})
    assert result["step_id"] == "person"
    defaults = {str(key): key.default() for key in result["data_schema"].schema}
    assert defaults == {
        "kinds": ["end", "reminder"], "quiet_hours": "household", "start": "22:00:00", "end": "07:00:00",
        "language": "de",
    }
    result = await hass.config_entries.options.async_configure(
        result["flow_id"],
        {"kinds": ["reminder", "end", "start"], "quiet_hours": "own", "start": "21:00:00", "end": "08:00:00",
         "language": "en"},
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    bob = next(p for p in (await household(people_service))["people"] if p["entity"] == "person.bob")
    assert bob["settings"] == {"kinds": ["start", "end", "reminder"], "quiet_hours": "21:00-08:00", "language": "en"}
    assert bob["sources"] == {"kinds": "api", "quiet_hours": "api", "language": "api"}
    alice = next(p for p in (await household(people_service))["people"] if p["entity"] == "person.alice")
    assert alice["sources"] == {"kinds": "default", "quiet_hours": "default", "language": "default"}

    # Kept across a restart of the service (its history database).
    await people_service.stop()
    await people_service.start()
    bob = next(p for p in (await household(people_service))["people"] if p["entity"] == "person.bob")
    assert bob["settings"]["quiet_hours"] == "21:00-08:00"


async def test_no_alert_at_all_is_refused(
    hass: HomeAssistant, people_service: Any, people_entry: MockConfigEntry
) -> None:
    """No kind chosen: the service refuses it, naming `kinds`, and nothing changes."""
    result = await open_menu(hass, people_entry, "people")
    result = await hass.config_entries.options.async_configure(result["flow_id"], {"person": "person.alice"})
    result = await hass.config_entries.options.async_configure(
        result["flow_id"],
        {"kinds": [], "quiet_hours": "household", "start": "22:00:00", "end": "07:00:00", "language": "household"},
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {"base": "refused"}
    assert "kinds" in result["description_placeholders"]["message"]
    alice = next(p for p in (await household(people_service))["people"] if p["entity"] == "person.alice")
    assert alice["sources"]["kinds"] == "default"
