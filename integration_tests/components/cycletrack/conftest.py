"""Fixtures: Home Assistant (pytest-homeassistant-custom-component) and a cycletrack service on loopback."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any
from unittest.mock import patch

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.cycletrack.const import CONF_PANEL, DOMAIN
from homeassistant.const import CONF_API_KEY, CONF_URL, EVENT_STATE_CHANGED
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import device_registry as dr
from homeassistant.setup import async_setup_component

from .service_under_test import ServiceUnderTest, StandInService

if TYPE_CHECKING:
    from .real_service import RealService

WAIT_SECONDS = 15


@pytest.fixture(autouse=True)
def auto_enable_custom_integrations(enable_custom_integrations: None) -> None:
    """Load custom_components/cycletrack from this repository."""


@pytest.fixture(autouse=True)
async def core_integration(hass: HomeAssistant) -> None:
    """Set up `homeassistant` as every real Home Assistant has it (conversation, a dependency, needs it)."""
    assert await async_setup_component(hass, "homeassistant", {})


@pytest.fixture(autouse=True)
def fast_reconnect() -> None:
    """Reconnect within a fraction of a second (the backoff's shape stays)."""
    with (
        patch("custom_components.cycletrack.coordinator.RECONNECT_FIRST_SECONDS", 0.05),
        patch("custom_components.cycletrack.coordinator.RECONNECT_MAX_SECONDS", 0.2),
    ):
        yield


@pytest.fixture
def home_connect_device(hass: HomeAssistant) -> dr.DeviceEntry:
    """Return a dishwasher that Home Connect (another integration) registered."""
    entry = MockConfigEntry(domain="home_connect", title="Home Connect")
    entry.add_to_hass(hass)
    return dr.async_get(hass).async_get_or_create(
        config_entry_id=entry.entry_id,
        identifiers={("home_connect", "SIEMENS-SN65ZX49CE-68A40E0E2A31")},
        manufacturer="Siemens",
        model="SN65ZX49CE",
        name="Dishwasher",
    )


def _real_binary() -> str | None:
    return os.environ.get("CYCLETRACK_BIN") or None


NO_REAL_SERVICE = "the real service: set CYCLETRACK_BIN to a built cycletrack binary (swift build --product cycletrack)"


@asynccontextmanager
async def real_service_running(
    directory: Path, device: dr.DeviceEntry, extra_config: dict[str, Any] | None = None
) -> AsyncIterator[RealService]:
    """Run the real service (skip the test without $CYCLETRACK_BIN) for a fixture of a test's own."""
    if (binary := _real_binary()) is None:
        pytest.skip(NO_REAL_SERVICE)
    from .real_service import RealService  # noqa: PLC0415

    service = RealService(binary, directory, device, extra_config=extra_config)
    await service.start()
    try:
        yield service
    finally:
        await service.close()


def config_entry_for(service: ServiceUnderTest) -> MockConfigEntry:
    """Return an entry for `service`, as the config flow makes it (not added to HA)."""
    return MockConfigEntry(
        domain=DOMAIN,
        title="cycletrack",
        unique_id=service.instance_id,
        data={CONF_URL: service.url, CONF_API_KEY: service.api_key},
        options={CONF_PANEL: True},
    )


async def set_up_entry_for(hass: HomeAssistant, service: ServiceUnderTest) -> MockConfigEntry:
    """Return an entry for `service`, added to HA and set up."""
    entry = config_entry_for(service)
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    return entry


@pytest.fixture(params=["stand-in", "cycletrack"])
async def service(
    request: pytest.FixtureRequest, socket_enabled: None, home_connect_device: dr.DeviceEntry
) -> AsyncIterator[ServiceUnderTest]:
    """Return the service under test, on 127.0.0.1.

    The contract stand-in, and the real `cycletrack` binary when $CYCLETRACK_BIN names it.
    """
    if request.param == "stand-in":
        under_test: ServiceUnderTest = StandInService(home_connect_device.id)
    else:
        if (binary := _real_binary()) is None:
            pytest.skip(NO_REAL_SERVICE)
        from .real_service import RealService  # noqa: PLC0415

        under_test = RealService(binary, request.getfixturevalue("tmp_path"), home_connect_device)
    await under_test.start()
    yield under_test
    await under_test.close()


@pytest.fixture
def stand_in(service: ServiceUnderTest) -> StandInService:
    """Return the contract stand-in; skip on the real service (for what only the stand-in drives)."""
    if not isinstance(service, StandInService):
        pytest.skip("drives the contract stand-in directly (the real service gets there only through real cycles)")
    return service


@pytest.fixture
def real_service(service: ServiceUnderTest) -> RealService:
    """Return the real service; skip on the stand-in (for the calls only the real service makes)."""
    from .real_service import RealService  # noqa: PLC0415

    if not isinstance(service, RealService):
        pytest.skip("the stand-in makes no calls; this needs the real service (CYCLETRACK_BIN)")
    return service


@pytest.fixture
def mock_config_entry(hass: HomeAssistant, service: ServiceUnderTest) -> MockConfigEntry:
    """Return an entry for the service, added to HA, not set up."""
    entry = config_entry_for(service)
    entry.add_to_hass(hass)
    return entry


@pytest.fixture
async def loaded_entry(hass: HomeAssistant, mock_config_entry: MockConfigEntry) -> MockConfigEntry:
    """Return the entry, set up, its stream followed."""
    assert await hass.config_entries.async_setup(mock_config_entry.entry_id)
    await hass.async_block_till_done()
    return mock_config_entry


async def wait_until(hass: HomeAssistant, condition: Callable[[], bool], what: str) -> None:
    """Wait for a state change that makes `condition` true (no polling)."""
    if condition():
        return
    reached = asyncio.Event()

    @callback
    def check(_: object) -> None:
        if condition():
            reached.set()

    remove = hass.bus.async_listen(EVENT_STATE_CHANGED, check)
    try:
        await asyncio.wait_for(reached.wait(), WAIT_SECONDS)
    except TimeoutError:
        raise AssertionError(f"not within {WAIT_SECONDS} s: {what}") from None
    finally:
        remove()
