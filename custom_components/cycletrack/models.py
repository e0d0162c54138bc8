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
class SettingDeclaration:
    """A tunable appliance setting as the service declares it: the entity it makes.

    GET /api/v1/service's `appliance_settings` (docs/API.md): a `flag` is a switch, a
    `number` a number entity. Named by `entity_key` in strings.json and icons.json.
    """

    key: str
    entity_key: str
    type: str
    min: float | None
    max: float | None
    step: float | None
    unit: str | None
    # The value a null stands for (0 minutes: off); None when the setting is never null.
    off: float | None

    @classmethod
    def from_dict(cls, body: Any, where: str) -> SettingDeclaration:
        """Read one declaration."""
        if not isinstance(body, dict):
            raise ModelError(f"{where}: expected an object, got {body!r}")
        key = str(_field(body, "key", where))
        kind = _field(body, "type", f"{where} '{key}'")
        if kind not in ("flag", "number"):
            raise ModelError(f"{where} '{key}'.type: expected flag or number, got {kind!r}")
        return cls(
            key=key,
            entity_key=str(body.get("entity_key") or key),
            type=kind,
            min=_number(body.get("min"), f"{where} '{key}'.min"),
            max=_number(body.get("max"), f"{where} '{key}'.max"),
            step=_number(body.get("step"), f"{where} '{key}'.step"),
            unit=body.get("unit"),
            off=_number(body.get("off"), f"{where} '{key}'.off"),
        )


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
    # The tunable settings each appliance's switches and numbers are made from (a service
    # before 0.3 declares none: its appliances then have no setting entities).
    appliance_settings: tuple[SettingDeclaration, ...] = ()

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
            appliance_settings=tuple(
                SettingDeclaration.from_dict(item, f"{where}.appliance_settings")
                for item in body.get("appliance_settings") or []
            ),
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
    """An appliance's effective settings: its progress steps, and the declared ones by key."""

    progress_steps: dict[str, Any]
    values: dict[str, Any]

    @classmethod
    def from_dict(cls, body: Any, where: str) -> Settings:
        """Read a settings object."""
        if not isinstance(body, dict):
            raise ModelError(f"{where}: expected an object, got {body!r}")
        steps = _field(body, "progress_steps", where)
        if not isinstance(steps, dict):
            raise ModelError(f"{where}.progress_steps: expected an object, got {steps!r}")
        return cls(progress_steps=steps, values={k: v for k, v in body.items() if k != "progress_steps"})


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
    # A finished cycle waits to be unloaded (a service before 0.3 doesn't say: taken as not).
    awaits_unloading: bool
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
            awaits_unloading=bool(body.get("awaits_unloading", False)),
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
