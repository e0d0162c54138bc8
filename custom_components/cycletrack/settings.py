"""Changing an appliance through the API, with errors Home Assistant can show."""

from __future__ import annotations

from typing import Any

from homeassistant.exceptions import HomeAssistantError, ServiceValidationError

from .client import ApiError, CycletrackError
from .const import DOMAIN
from .coordinator import CycletrackCoordinator


async def async_update_settings(
    coordinator: CycletrackCoordinator, appliance_id: str, changes: dict[str, Any]
) -> None:
    """PATCH an appliance's settings and show the answer at once."""
    try:
        appliance = await coordinator.client.async_update_settings(appliance_id, changes)
    except ApiError as err:
        if err.status == 400:
            raise ServiceValidationError(
                translation_domain=DOMAIN,
                translation_key="setting_refused",
                translation_placeholders={"appliance": _name(coordinator, appliance_id), "message": err.message},
            ) from err
        raise _request_failed(_name(coordinator, appliance_id), err) from err
    except CycletrackError as err:
        raise _request_failed(_name(coordinator, appliance_id), err) from err
    coordinator.async_set_appliance(appliance)


async def async_end_activity(coordinator: CycletrackCoordinator, appliance_id: str) -> None:
    """POST end_activity; no running cycle is the user's mistake, not a failure."""
    try:
        await coordinator.client.async_end_activity(appliance_id)
    except ApiError as err:
        if err.status == 409:
            raise ServiceValidationError(
                translation_domain=DOMAIN,
                translation_key="no_activity",
                translation_placeholders={"appliance": _name(coordinator, appliance_id)},
            ) from err
        raise _request_failed(_name(coordinator, appliance_id), err) from err
    except CycletrackError as err:
        raise _request_failed(_name(coordinator, appliance_id), err) from err


async def async_unloaded(coordinator: CycletrackCoordinator, appliance_id: str) -> None:
    """POST unloaded: the appliance's unload reminders stop (nothing waiting is fine too)."""
    try:
        await coordinator.client.async_unloaded(appliance_id)
    except CycletrackError as err:
        raise _request_failed(_name(coordinator, appliance_id), err) from err


def _name(coordinator: CycletrackCoordinator, appliance_id: str) -> str:
    """Return the appliance's name as the service gives it (its id when it is unknown)."""
    appliance = coordinator.data.appliances.get(appliance_id) if coordinator.data else None
    return appliance.name if appliance is not None else appliance_id


def _request_failed(appliance: str, err: Exception) -> HomeAssistantError:
    return HomeAssistantError(
        translation_domain=DOMAIN,
        translation_key="request_failed",
        translation_placeholders={"appliance": appliance, "error": str(err)},
    )
