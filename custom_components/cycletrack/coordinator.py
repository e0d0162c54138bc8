"""The push listener: follows the service's event stream and keeps its state for the entities."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from homeassistant.config_entries import ConfigEntry
from homeassistant.core import CALLBACK_TYPE, HomeAssistant, callback
from homeassistant.exceptions import ConfigEntryAuthFailed
from homeassistant.helpers.update_coordinator import DataUpdateCoordinator, UpdateFailed

from .client import (
    CannotConnect,
    CycletrackClient,
    CycletrackError,
    InvalidAuth,
    ServiceStopped,
    ServiceUnreachable,
    StreamEvent,
)
from .const import DOMAIN, LOGGER, RECONNECT_FIRST_SECONDS, RECONNECT_MAX_SECONDS
from .models import Appliance, ModelError, ServiceInfo, ServiceState

type CycletrackConfigEntry = ConfigEntry[CycletrackRuntimeData]
type CycleEventListener = Callable[[str, dict[str, Any]], None]

# Stream events that are an appliance's cycle events (the event entity's types).
_CYCLE_EVENTS = {"cycle_started", "cycle_ended", "reminder", "anomaly"}


@dataclass(slots=True)
class CycletrackRuntimeData:
    """What a loaded entry keeps: the client and the listener."""

    client: CycletrackClient
    coordinator: CycletrackCoordinator


class CycletrackCoordinator(DataUpdateCoordinator[ServiceState]):
    """Holds the service's state; the stream pushes it, nothing polls.

    `_async_update_data` is the full read (setup, and the first thing after a
    reconnect: the stream's `snapshot`). While the stream is down the coordinator is
    failed, so every entity is unavailable.
    """

    config_entry: CycletrackConfigEntry

    def __init__(self, hass: HomeAssistant, entry: CycletrackConfigEntry, client: CycletrackClient) -> None:
        """Nothing is polled: update_interval is None."""
        super().__init__(hass, LOGGER, config_entry=entry, name=DOMAIN, update_interval=None)
        self.client = client
        self._cycle_listeners: dict[str, list[CycleEventListener]] = {}
        # The service's device in the registry (made at setup): its appliances' devices hang under it.
        self.service_device_id: str | None = None

    @property
    def instance_id(self) -> str:
        """The service's instance id (the entry's unique id)."""
        return self.data.service.instance_id

    async def _async_update_data(self) -> ServiceState:
        try:
            service = await self.client.async_get_service()
            appliances = await self.client.async_get_appliances()
        except InvalidAuth as err:
            raise ConfigEntryAuthFailed(
                translation_domain=DOMAIN,
                translation_key="auth_failed",
                translation_placeholders={"url": self.client.base_url},
            ) from err
        except CycletrackError as err:
            raise UpdateFailed(
                translation_domain=DOMAIN,
                translation_key="cannot_read",
                translation_placeholders={"url": self.client.base_url, "error": str(err)},
            ) from err
        return ServiceState(service, {appliance.id: appliance for appliance in appliances})

    @callback
    def async_add_cycle_listener(self, appliance_id: str, listener: CycleEventListener) -> CALLBACK_TYPE:
        """Call `listener(type, data)` on this appliance's cycle events; returns the remover."""
        listeners = self._cycle_listeners.setdefault(appliance_id, [])
        listeners.append(listener)
        return lambda: listeners.remove(listener)

    async def async_follow_stream(self) -> None:
        """Run until cancelled: follow the stream, reconnect with backoff while it's down."""
        delay = RECONNECT_FIRST_SECONDS
        while True:
            try:
                async for event in self.client.async_events():
                    if event.type == "snapshot":
                        delay = RECONNECT_FIRST_SECONDS
                    self._async_handle(event)
            except ServiceStopped as err:
                self._async_stopped(err)
            except InvalidAuth as err:
                self.async_set_update_error(err)
                LOGGER.warning("cycletrack refused the API key; asking to authenticate again")
                self.config_entry.async_start_reauth(self.hass)
                return
            except CannotConnect as err:
                # Cut rather than ended (a reset as the process exits): a stop all the same
                # when nothing answers any more.
                if await self._async_service_gone():
                    self._async_stopped(ServiceStopped(f"{err}; nothing answers at {self.client.base_url}"))
                else:
                    self._async_lost(err)
            except (CycletrackError, ModelError, KeyError, TypeError, ValueError) as err:
                self._async_lost(err)
            await asyncio.sleep(delay)
            delay = min(delay * 2, RECONNECT_MAX_SECONDS)

    async def _async_service_gone(self) -> bool:
        """Whether nothing answers at the service's address now (connection refused)."""
        try:
            await self.client.async_get_service()
        except ServiceUnreachable:
            return True
        except CycletrackError:
            return False
        return False

    @callback
    def _async_stopped(self, err: ServiceStopped) -> None:
        """Mark the entities unavailable: the service ended its stream, its normal stop.

        As `async_set_update_error` does, but said once as a warning: a service that
        stops (a restart, an update) is no error of Home Assistant's.
        """
        self.last_exception = err
        if self.last_update_success:
            LOGGER.warning("cycletrack at %s stopped; its entities are unavailable until it is back", self.client.base_url)
            self.last_update_success = False
            self.async_update_listeners()

    @callback
    def _async_lost(self, err: Exception) -> None:
        # The coordinator logs the first failure (and marks every entity unavailable).
        LOGGER.debug("cycletrack's event stream at %s is down: %s", self.client.base_url, err)
        self.async_set_update_error(CannotConnect(str(err)))

    @callback
    def _async_handle(self, event: StreamEvent) -> None:
        data = event.data
        if event.type == "snapshot":
            if not self.last_update_success:
                LOGGER.info("cycletrack's event stream at %s is back", self.client.base_url)
            self.async_set_updated_data(ServiceState.from_snapshot(data))
        elif event.type == "appliance":
            appliance = Appliance.from_dict(data)
            self.async_set_updated_data(
                ServiceState(self.data.service, {**self.data.appliances, appliance.id: appliance})
            )
        elif event.type == "service":
            self.async_set_updated_data(ServiceState(ServiceInfo.from_dict(data), self.data.appliances))
        elif event.type in _CYCLE_EVENTS:
            appliance_id = str(data["appliance"])
            for listener in list(self._cycle_listeners.get(appliance_id, [])):
                listener(event.type, data)
        else:
            LOGGER.debug("cycletrack event %s not used", event.type)

    @callback
    def async_set_appliance(self, appliance: Appliance) -> None:
        """Take an appliance a request answered with (PATCH), before the stream repeats it."""
        self.async_set_updated_data(
            ServiceState(self.data.service, {**self.data.appliances, appliance.id: appliance})
        )
