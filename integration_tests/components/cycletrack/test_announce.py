"""The announcement (issue 31, item 9): the service's own REST states go for good.

At setup, before any entity is made, the integration tells the service it is configured,
and the service takes its own REST states (`sensor.cycletrack_*`) out of Home Assistant;
removing the entry tells it so.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
import logging

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from homeassistant.config_entries import ConfigEntryState
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er

from .real_service import RealService
from .service_under_test import StandInService

WAIT_SECONDS = 15


async def _until(condition: Callable[[], bool], what: str) -> None:
    """Wait (bounded) for something the service does outside Home Assistant's state machine."""
    async with asyncio.timeout(WAIT_SECONDS):
        while not condition():
            await asyncio.sleep(0.05)
    assert condition(), what


def _own_rest_states(service: RealService) -> list[str]:
    return sorted(e for e in service.ha.posted_states if e.startswith("sensor.cycletrack_"))


async def test_setup_announces_before_any_entity(
    hass: HomeAssistant, stand_in: StandInService, mock_config_entry: MockConfigEntry
) -> None:
    """The announcement comes before the platforms: no entity of the entry exists yet."""
    registry = er.async_get(hass)
    seen: list[int] = []
    stand_in.server.on_announce = lambda: seen.append(
        len(er.async_entries_for_config_entry(registry, mock_config_entry.entry_id))
    )
    assert await hass.config_entries.async_setup(mock_config_entry.entry_id)
    await hass.async_block_till_done()
    assert seen == [0]
    assert stand_in.server.integration_configured is True
    assert er.async_entries_for_config_entry(registry, mock_config_entry.entry_id)
    await hass.config_entries.async_unload(mock_config_entry.entry_id)


async def test_a_refused_announcement_makes_no_entity_and_is_retried(
    hass: HomeAssistant, stand_in: StandInService, mock_config_entry: MockConfigEntry
) -> None:
    """The service's states are not all gone yet (503): not ready, no entity takes an id."""
    stand_in.server.announce_error = (503, "unavailable", "Home Assistant did not remove sensor.cycletrack_x yet; try again")
    assert not await hass.config_entries.async_setup(mock_config_entry.entry_id)
    assert mock_config_entry.state is ConfigEntryState.SETUP_RETRY
    assert mock_config_entry.error_reason_translation_key == "announce_failed"
    assert mock_config_entry.reason is not None
    assert "sensor.cycletrack_x" in mock_config_entry.reason
    assert not er.async_entries_for_config_entry(er.async_get(hass), mock_config_entry.entry_id)
    assert stand_in.api_key not in mock_config_entry.reason


async def test_a_failed_announcement_is_not_ready(
    hass: HomeAssistant, stand_in: StandInService, mock_config_entry: MockConfigEntry
) -> None:
    """Any other failure of the call: not ready, tried again later."""
    stand_in.server.announce_error = (500, "internal", "the service broke")
    assert not await hass.config_entries.async_setup(mock_config_entry.entry_id)
    assert mock_config_entry.state is ConfigEntryState.SETUP_RETRY
    assert mock_config_entry.error_reason_translation_key == "announce_failed"


async def test_an_older_service_without_the_call_is_set_up(
    hass: HomeAssistant, stand_in: StandInService, mock_config_entry: MockConfigEntry
) -> None:
    """A service before the announcement answers 404: set up all the same."""
    stand_in.server.announce_error = (404, "not_found", "no such API path: /api/v1/integration")
    assert await hass.config_entries.async_setup(mock_config_entry.entry_id)
    assert mock_config_entry.state is ConfigEntryState.LOADED
    await hass.config_entries.async_unload(mock_config_entry.entry_id)


async def test_removing_the_entry_tells_the_service(
    hass: HomeAssistant, stand_in: StandInService, loaded_entry: MockConfigEntry
) -> None:
    """Deleting the entry: the service is told, so it posts its own states again."""
    assert stand_in.server.integration_configured is True
    await hass.config_entries.async_remove(loaded_entry.entry_id)
    assert stand_in.server.integration_configured is False
    assert ("DELETE", "/api/v1/integration", None) in stand_in.server.requests


async def test_removing_the_entry_while_the_service_is_down_is_logged(
    hass: HomeAssistant, stand_in: StandInService, loaded_entry: MockConfigEntry, caplog: pytest.LogCaptureFixture
) -> None:
    """The service can't be told: one warning naming it, without the key."""
    await stand_in.stop()
    with caplog.at_level(logging.WARNING, logger="custom_components.cycletrack"):
        await hass.config_entries.async_remove(loaded_entry.entry_id)
    said = [r.getMessage() for r in caplog.records if "was not told" in r.getMessage()]
    assert len(said) == 1, said
    assert stand_in.url in said[0]
    assert stand_in.api_key not in said[0]


async def test_the_real_service_takes_its_states_out_for_good(
    hass: HomeAssistant, real_service: RealService, mock_config_entry: MockConfigEntry
) -> None:
    """The real service's states posted before the setup go, and stay gone across a restart.

    Removing the entry brings them back.
    """
    await _until(lambda: "sensor.cycletrack_pushes_today" in real_service.ha.posted_states, "the service posted its states")
    assert await hass.config_entries.async_setup(mock_config_entry.entry_id)
    await hass.async_block_till_done()
    assert _own_rest_states(real_service) == []
    assert "sensor.cycletrack_pushes_today" in real_service.ha.removals

    await real_service.stop()
    await real_service.start()
    await real_service.start_cycle(real_service.own_appliance, "dryer_program_cotton", 5)
    await real_service.wait_for_calls(real_service.own_appliance, 1)
    assert _own_rest_states(real_service) == [], "nothing posted again after a restart"

    await hass.config_entries.async_remove(mock_config_entry.entry_id)
    await _until(lambda: "sensor.cycletrack_pushes_today" in real_service.ha.posted_states, "the states are posted again")
