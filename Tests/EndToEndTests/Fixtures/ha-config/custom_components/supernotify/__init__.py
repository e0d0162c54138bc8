"""Stand-in for Supernotify in cycletrack's end-to-end tests.

Registers the action ``supernotify.notify`` with the fields of Supernotify 2.x's
action (``message``, ``title``, ``target``, ``extra_data`` beside the options of
Supernotify's action data: ``delivery``, ``delivery_selection``, ``priority``,
``force_resend``, ``scenarios_*``, ``recipients``, ``media``, ``actions``, ...; their
types as in rhizomatics/supernotify ``schema.py``, ``ACTION_DATA_SCHEMA``). A call with
a field of the wrong type, or a field the action doesn't have, is refused as the real
action refuses it: HA answers 400 and logs why. Validation never changes the data, so
what is recorded is what was sent: each accepted call is appended as one JSON line to
``<config dir>/supernotify_calls.jsonl``:

    {"received_at": "<ISO 8601 UTC>", "call_fired_at": "<ISO 8601 UTC>",
     "data": {<the call's data>}, "failure": null, "delivered": true, "suppressed": null}

``received_at`` is when the handler ran (milliseconds); ``call_fired_at`` is the
``time_fired`` of the ``call_service`` event HA fired as it started the call
(microseconds; null if HA fired none), which cycletrack's benchmark measures to.

Duplicate detection as Supernotify documents it (docs/configuration/dupe_detection.md, the
default policy ``dupe_policy_message_title_same_or_lower_priority``; messages fingerprinted
against double delivery since 2.13): a call whose title and message, stripped of digits and
punctuation, equal those of one delivered within the time to live is a duplicate and
does not reach the phone, unless it has a higher priority or ``force_resend: true``
(top-level since Supernotify 2.6; also taken in ``data`` as before). A call that failed
(the failure switch) delivered nothing and leaves no fingerprint. Each recorded line says
whether the call reached the phone: ``"delivered": true`` or ``false`` with
``"suppressed": "duplicate"``. The time to live is the seconds in
``<config dir>/supernotify_dupe_ttl``, else 3600 (longer than any test, so every repeat
inside one is a duplicate).

Not modelled: 2.14's repairs for a phone whose Companion app was removed (a stand-in has
no phones to lose).

Also registers ``supernotify.enquire_configuration`` (response only), answering as
the real Supernotify does, an object whose ``delivery`` maps each configured delivery's
name to its settings (rhizomatics/supernotify, custom_components/supernotify/notify.py,
``supplemental_action_enquire_configuration``). The deliveries are the names listed in
``<config dir>/supernotify_deliveries`` (one a line), else ``mobile_push`` and
``plain_email``.

Failure switch, for error tests: while ``<config dir>/supernotify_fail`` exists the
call is still recorded (with ``failure`` set) and then raises: if the file says
``invalid`` it raises ``vol.Invalid`` (HA's REST API answers 400), anything else
raises ``HomeAssistantError`` (HA's REST API answers 500).
"""
from __future__ import annotations

from datetime import datetime, timezone
import inspect
import json
import os
import re
import time

import voluptuous as vol  # on HA 2026.x this is probatio, which HA installs under this name

from homeassistant.const import EVENT_CALL_SERVICE
from homeassistant.core import Event, HomeAssistant, ServiceCall, ServiceResponse, SupportsResponse, callback
from homeassistant.exceptions import HomeAssistantError
import homeassistant.helpers.config_validation as cv
from homeassistant.helpers.typing import ConfigType

DOMAIN = "supernotify"
CALLS_FILE = "supernotify_calls.jsonl"
FAIL_FILE = "supernotify_fail"
DELIVERIES_FILE = "supernotify_deliveries"
DUPE_TTL_FILE = "supernotify_dupe_ttl"
DEFAULT_DUPE_TTL = 3600.0
PRIORITIES = {"minimum": 0, "low": 1, "medium": 2, "high": 3, "critical": 4}

CONFIG_SCHEMA = cv.empty_config_schema(DOMAIN)
TEXT = vol.Any(None, str)
NAMES = vol.Any(str, [str])
# The action's fields; validators that only check (never convert), so the recorded
# data is exactly what HA received.
NOTIFY_SCHEMA = vol.Schema(
    {
        vol.Optional("message"): TEXT,
        vol.Optional("title"): TEXT,
        vol.Optional("target"): vol.Any(str, [str], dict),
        vol.Optional("extra_data"): dict,
        vol.Optional("data"): vol.Any(None, dict),
        vol.Optional("delivery"): vol.Any(str, [str], {str: vol.Any(None, dict)}),
        vol.Optional("delivery_selection"): vol.In(["explicit", "fixed", "implicit"]),
        vol.Optional("priority"): vol.Any(int, vol.In(["minimum", "low", "medium", "high", "critical"])),
        vol.Optional("force_resend"): bool,
        vol.Optional("debug"): bool,
        vol.Optional("scenarios_require"): NAMES,
        vol.Optional("scenarios_apply"): NAMES,
        vol.Optional("scenarios_constrain"): NAMES,
        vol.Optional("recipients"): NAMES,
        vol.Optional("media"): dict,
        vol.Optional("message_html"): str,
        vol.Optional("action_groups"): NAMES,
        vol.Optional("actions"): list,
        vol.Optional("timestamp"): str,
    }
)


def _read_failure(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8") as fail:
            return "invalid" if fail.read().strip() == "invalid" else "error"
    except FileNotFoundError:
        return None


def _read_deliveries(path: str) -> list[str]:
    try:
        with open(path, encoding="utf-8") as names:
            return [line.strip() for line in names if line.strip()]
    except FileNotFoundError:
        return ["mobile_push", "plain_email"]


def _read_ttl(path: str) -> float:
    try:
        with open(path, encoding="utf-8") as ttl:
            return float(ttl.read().strip())
    except FileNotFoundError:
        return DEFAULT_DUPE_TTL


def _fingerprint(data: dict) -> tuple[str, str]:
    """Title and message without digits and punctuation, as Supernotify compares them."""
    def strip(text: object) -> str:
        return re.sub(r"[\d\W_]+", "", str(text or ""))
    return strip(data.get("title")), strip(data.get("message"))


def _priority(data: dict) -> int:
    value = data.get("priority", "medium")
    return value if isinstance(value, int) else PRIORITIES.get(value, 2)


def _forced(data: dict) -> bool:
    inner = data.get("data") or {}
    return data.get("force_resend") is True or (isinstance(inner, dict) and inner.get("force_resend") is True)


def _append(path: str, line: str) -> None:
    with open(path, "a", encoding="utf-8") as calls:
        calls.write(line + "\n")
        calls.flush()
        os.fsync(calls.fileno())


async def async_setup(hass: HomeAssistant, config: ConfigType) -> bool:
    calls_path = hass.config.path(CALLS_FILE)
    fail_path = hass.config.path(FAIL_FILE)

    ttl_path = hass.config.path(DUPE_TTL_FILE)
    # fingerprint -> (when delivered, its priority)
    delivered: dict[tuple[str, str], tuple[float, int]] = {}

    # context id -> time_fired of the call_service event HA fired for a notify call.
    fired: dict[str, float] = {}

    @callback
    def call_fired(event: Event) -> None:
        # A callback listener runs as HA fires the event, before the action's handler.
        if event.data.get("domain") == DOMAIN and event.data.get("service") == "notify":
            stamp = getattr(event, "time_fired_timestamp", None)
            fired[event.context.id] = stamp if stamp is not None else event.time_fired.timestamp()

    # HA 2024.3 schedules a callback listener after the handler unless asked to run it
    # at once (run_immediately defaults to False); later releases always run it at once
    # and report the flag as deprecated.
    flag = inspect.signature(hass.bus.async_listen).parameters.get("run_immediately")
    if flag is not None and flag.default is False:
        hass.bus.async_listen(EVENT_CALL_SERVICE, call_fired, run_immediately=True)
    else:
        hass.bus.async_listen(EVENT_CALL_SERVICE, call_fired)

    async def notify(call: ServiceCall) -> None:
        received_at = datetime.now(timezone.utc).isoformat(timespec="milliseconds")
        fired_at = fired.pop(call.context.id, None)
        call_fired_at = (None if fired_at is None
                         else datetime.fromtimestamp(fired_at, timezone.utc).isoformat(timespec="microseconds"))
        failure = await hass.async_add_executor_job(_read_failure, fail_path)
        data = dict(call.data)
        suppressed = None
        if failure is None:
            ttl = await hass.async_add_executor_job(_read_ttl, ttl_path)
            now, key, priority = time.monotonic(), _fingerprint(data), _priority(data)
            seen = delivered.get(key)
            if seen is not None and now - seen[0] < ttl and priority <= seen[1] and not _forced(data):
                suppressed = "duplicate"
            else:
                delivered[key] = (now, priority)
        record = {"received_at": received_at, "call_fired_at": call_fired_at, "data": data, "failure": failure,
                  "delivered": failure is None and suppressed is None, "suppressed": suppressed}
        line = json.dumps(record, ensure_ascii=False, default=str)
        await hass.async_add_executor_job(_append, calls_path, line)
        if failure == "invalid":
            raise vol.Invalid("supernotify stand-in: failing on purpose (supernotify_fail says invalid)")
        if failure == "error":
            raise HomeAssistantError("supernotify stand-in: failing on purpose (supernotify_fail exists)")

    deliveries_path = hass.config.path(DELIVERIES_FILE)

    async def enquire_configuration(call: ServiceCall) -> ServiceResponse:
        names = await hass.async_add_executor_job(_read_deliveries, deliveries_path)
        return {"delivery": {name: {"transport": "mobile_push" if "mobile" in name else "email"} for name in names},
                "scenarios": []}

    hass.services.async_register(DOMAIN, "notify", notify, schema=NOTIFY_SCHEMA)
    hass.services.async_register(DOMAIN, "enquire_configuration", enquire_configuration,
                                 supports_response=SupportsResponse.ONLY)
    return True
