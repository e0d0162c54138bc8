"""Repair issues: the daily push limit nearly used, Supernotify missing, an appliance gone."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from homeassistant.const import EVENT_SERVICE_REGISTERED
from homeassistant.core import Event, HomeAssistant, callback
from homeassistant.helpers import (
    device_registry as dr,
    entity_registry as er,
    issue_registry as ir,
)
from homeassistant.helpers.start import async_at_started

from .const import DAILY_LIMIT_WARNING_SHARE, DOMAIN, LOGGER
from .coordinator import CycletrackConfigEntry

SUPERNOTIFY = "supernotify"
# The entity every appliance has; its unique id names the appliance (`<instance>_<id>_cycle_state`).
_MARKER_KEY = "cycle_state"


def daily_limit_issue(entry: CycletrackConfigEntry) -> str:
    """Return the issue id of the daily limit nearly used."""
    return f"daily_limit_nearly_used_{entry.entry_id}"


@callback
def async_known_appliances(hass: HomeAssistant, entry: CycletrackConfigEntry, instance_id: str) -> set[str]:
    """Return the appliances this entry has entities for, from the entity registry."""
    prefix, suffix = f"{instance_id}_", f"_{_MARKER_KEY}"
    return {
        item.unique_id.removeprefix(prefix).removesuffix(suffix)
        for item in er.async_entries_for_config_entry(er.async_get(hass), entry.entry_id)
        if item.unique_id.startswith(prefix) and item.unique_id.endswith(suffix)
    }


@callback
def async_watch_issues(hass: HomeAssistant, entry: CycletrackConfigEntry) -> None:
    """Raise and clear the entry's issues as the service's data and HA's services change."""
    coordinator = entry.runtime_data.coordinator

    @callback
    def check_service() -> None:
        if not coordinator.last_update_success:
            return
        _check_daily_limit(hass, entry)
        _check_appliances(hass, entry)

    @callback
    def check_supernotify(_: HomeAssistant | None = None) -> None:
        if hass.services.has_service(SUPERNOTIFY, "notify"):
            ir.async_delete_issue(hass, DOMAIN, "supernotify_missing")
        else:
            ir.async_create_issue(
                hass,
                DOMAIN,
                "supernotify_missing",
                is_fixable=False,
                severity=ir.IssueSeverity.ERROR,
                translation_key="supernotify_missing",
                learn_more_url="https://github.com/rhizomatics/supernotify",
            )

    @callback
    def service_registered(event: Event[Mapping[str, Any]]) -> None:
        if event.data["domain"] == SUPERNOTIFY:
            check_supernotify()

    check_service()
    entry.async_on_unload(coordinator.async_add_listener(check_service))
    entry.async_on_unload(async_at_started(hass, check_supernotify))
    entry.async_on_unload(hass.bus.async_listen(EVENT_SERVICE_REGISTERED, service_registered))
    entry.async_on_unload(lambda: _clear_issues(hass, entry))


@callback
def _check_daily_limit(hass: HomeAssistant, entry: CycletrackConfigEntry) -> None:
    service = entry.runtime_data.coordinator.data.service
    issue_id = daily_limit_issue(entry)
    if service.daily_push_limit > 0 and service.pushes_left_today < service.daily_push_limit * DAILY_LIMIT_WARNING_SHARE:
        ir.async_create_issue(
            hass,
            DOMAIN,
            issue_id,
            is_fixable=False,
            severity=ir.IssueSeverity.WARNING,
            translation_key="daily_limit_nearly_used",
            translation_placeholders={
                "left": str(service.pushes_left_today),
                "limit": str(service.daily_push_limit),
            },
        )
    else:
        ir.async_delete_issue(hass, DOMAIN, issue_id)


@callback
def _check_appliances(hass: HomeAssistant, entry: CycletrackConfigEntry) -> None:
    """Remove an appliance the service no longer has: its entities, and its device when ours.

    The service's full state (the snapshot after every reconnect, then each appliance as it
    changes) lists every appliance it tracks; one this entry has entities for that it lacks
    is gone (it left the configuration or discovery). If it comes back, it is added again.
    """
    coordinator = entry.runtime_data.coordinator
    present = coordinator.data.appliances
    for appliance_id in async_known_appliances(hass, entry, coordinator.instance_id) - set(present):
        LOGGER.info("cycletrack no longer has the appliance %s: removing its entities and device", appliance_id)
        async_remove_appliance(hass, entry, appliance_id)


@callback
def _clear_issues(hass: HomeAssistant, entry: CycletrackConfigEntry) -> None:
    """Raise nothing for an unloaded entry (Supernotify's issue is HA-wide and stays correct)."""
    registry = ir.async_get(hass)
    for domain, issue_id in list(registry.issues):
        if domain == DOMAIN and entry.entry_id in issue_id:
            ir.async_delete_issue(hass, DOMAIN, issue_id)


@callback
def async_remove_appliance(hass: HomeAssistant, entry: CycletrackConfigEntry, appliance_id: str) -> None:
    """Remove a gone appliance's entities, and its own device (never another integration's)."""
    entities = er.async_get(hass)
    devices = dr.async_get(hass)
    instance_id = entry.unique_id
    device_ids = set()
    for item in er.async_entries_for_config_entry(entities, entry.entry_id):
        if item.unique_id.startswith(f"{instance_id}_{appliance_id}_"):
            if item.device_id:
                device_ids.add(item.device_id)
            entities.async_remove(item.entity_id)
    for device_id in device_ids:
        device = devices.async_get(device_id)
        if device is not None and device.config_entry_id == entry.entry_id:
            devices.async_remove_device(device_id)
