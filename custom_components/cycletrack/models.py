"""The service's model, as the local API v1 sends it (docs/API.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from homeassistant.util import dt as dt_util


class ModelError(ValueError):
    """A body from the service that doesn't have the contract's shape."""


def _time(value: Any, where: str) -> datetime | None:
    if value is None:
        return None
    if not isinstance(value, str) or (parsed := dt_util.parse_datetime(value)) is None:
        raise ModelError(f"{where}: expected an ISO 8601 time, got {value!r}")
    return parsed


def _number(value: Any, where: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ModelError(f"{where}: expected a number, got {value!r}")
    return float(value)


def _field(body: dict[str, Any], key: str, where: str) -> Any:
    try:
        return body[key]
    except KeyError:
        raise ModelError(f"{where}: missing key '{key}'") from None


@dataclass(frozen=True, slots=True)
class ServiceInfo:
    """GET /api/v1/service."""

    version: str
    instance_id: str
    ha_connected: bool
    ha_updates: str
    pushes_today: int
    daily_push_limit: int
    pushes_left_today: int
    integration_connected: bool

    @classmethod
    def from_dict(cls, body: dict[str, Any]) -> ServiceInfo:
        """Read the service object."""
        where = "service"
        home_assistant = body.get("home_assistant") or {}
        return cls(
            version=str(_field(body, "version", where)),
            instance_id=str(_field(body, "instance_id", where)),
            ha_connected=bool(home_assistant.get("connected", False)),
            ha_updates=str(home_assistant.get("updates", "")),
            pushes_today=int(_field(body, "pushes_today", where)),
            daily_push_limit=int(_field(body, "daily_push_limit", where)),
            pushes_left_today=int(_field(body, "pushes_left_today", where)),
            integration_connected=bool(body.get("integration_connected", False)),
        )


@dataclass(frozen=True, slots=True)
class LastCycle:
    """The last ended cycle of an appliance."""

    outcome: str
    ended_at: datetime | None
    duration_seconds: float | None
    energy_kwh: float | None
    program: str | None

    @classmethod
    def from_dict(cls, body: dict[str, Any], where: str) -> LastCycle:
        """Read a last_cycle object."""
        return cls(
            outcome=str(_field(body, "outcome", where)),
            ended_at=_time(body.get("ended_at"), f"{where}.ended_at"),
            duration_seconds=_number(body.get("duration_seconds"), f"{where}.duration_seconds"),
            energy_kwh=_number(body.get("energy_kwh"), f"{where}.energy_kwh"),
            program=body.get("program"),
        )


@dataclass(frozen=True, slots=True)
class Settings:
    """An appliance's effective settings; the raw object is kept for PATCH round trips."""

    progress_steps: dict[str, Any]
    notify_start: bool
    notify_progress: bool
    notify_end: bool
    live_activity: bool
    unload_reminder_minutes: int | None

    @classmethod
    def from_dict(cls, body: dict[str, Any], where: str) -> Settings:
        """Read a settings object."""
        steps = _field(body, "progress_steps", where)
        if not isinstance(steps, dict):
            raise ModelError(f"{where}.progress_steps: expected an object, got {steps!r}")
        reminder = body.get("unload_reminder_minutes")
        return cls(
            progress_steps=steps,
            notify_start=bool(_field(body, "notify_start", where)),
            notify_progress=bool(_field(body, "notify_progress", where)),
            notify_end=bool(_field(body, "notify_end", where)),
            live_activity=bool(_field(body, "live_activity", where)),
            unload_reminder_minutes=None if reminder is None else int(reminder),
        )


@dataclass(frozen=True, slots=True)
class Appliance:
    """One appliance, as GET /api/v1/appliances/{id} sends it."""

    id: str
    name: str
    profile: str | None
    device_id: str | None
    state: str
    running: bool
    program: str | None
    progress: float | None
    finish: datetime | None
    started_at: datetime | None
    pushes_this_cycle: int
    # The open cycle shows a Live Activity that can be ended (a service before 0.3
    # doesn't say: taken as shown, so the button stays as it was).
    live_activity_shown: bool
    last_cycle: LastCycle | None
    energy_total_kwh: float | None
    settings: Settings
    raw: dict[str, Any] = field(repr=False, compare=False, default_factory=dict)

    @classmethod
    def from_dict(cls, body: dict[str, Any]) -> Appliance:
        """Read an appliance object."""
        if not isinstance(body, dict):
            raise ModelError(f"appliance: expected an object, got {body!r}")
        appliance_id = str(_field(body, "id", "appliance"))
        where = f"appliance '{appliance_id}'"
        last = body.get("last_cycle")
        return cls(
            id=appliance_id,
            name=str(body.get("name") or appliance_id),
            profile=body.get("profile"),
            device_id=body.get("device_id"),
            state=str(_field(body, "state", where)),
            running=bool(body.get("running", False)),
            program=body.get("program"),
            progress=_number(body.get("progress"), f"{where}.progress"),
            finish=_time(body.get("finish"), f"{where}.finish"),
            started_at=_time(body.get("started_at"), f"{where}.started_at"),
            pushes_this_cycle=int(body.get("pushes_this_cycle") or 0),
            live_activity_shown=bool(body.get("live_activity_shown", True)),
            last_cycle=None if last is None else LastCycle.from_dict(last, f"{where}.last_cycle"),
            energy_total_kwh=_number(body.get("energy_total_kwh"), f"{where}.energy_total_kwh"),
            settings=Settings.from_dict(_field(body, "settings", where), f"{where}.settings"),
            raw=body,
        )


@dataclass(slots=True)
class ServiceState:
    """Everything the integration knows of one service: what the stream's snapshot starts."""

    service: ServiceInfo
    appliances: dict[str, Appliance]

    @classmethod
    def from_snapshot(cls, body: dict[str, Any]) -> ServiceState:
        """Read the `snapshot` event's data."""
        appliances = [Appliance.from_dict(item) for item in _field(body, "appliances", "snapshot")]
        return cls(
            service=ServiceInfo.from_dict(_field(body, "service", "snapshot")),
            appliances={appliance.id: appliance for appliance in appliances},
        )
