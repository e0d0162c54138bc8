"""Stand-in for Supernotify in cycletrack's end-to-end tests.

Registers the action ``supernotify.notify``, accepts any data (a permissive
schema: HA's REST and service-call path still run as for the real one), and
appends each call as one JSON line to ``<config dir>/supernotify_calls.jsonl``:

    {"received_at": "<ISO 8601 UTC>", "data": {<the call's data>}, "failure": null}

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
import json
import os

import voluptuous as vol

from homeassistant.core import HomeAssistant, ServiceCall, ServiceResponse, SupportsResponse
from homeassistant.exceptions import HomeAssistantError
import homeassistant.helpers.config_validation as cv
from homeassistant.helpers.typing import ConfigType

DOMAIN = "supernotify"
CALLS_FILE = "supernotify_calls.jsonl"
FAIL_FILE = "supernotify_fail"
DELIVERIES_FILE = "supernotify_deliveries"

CONFIG_SCHEMA = cv.empty_config_schema(DOMAIN)
NOTIFY_SCHEMA = vol.Schema({}, extra=vol.ALLOW_EXTRA)


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


def _append(path: str, line: str) -> None:
    with open(path, "a", encoding="utf-8") as calls:
        calls.write(line + "\n")
        calls.flush()
        os.fsync(calls.fileno())


async def async_setup(hass: HomeAssistant, config: ConfigType) -> bool:
    calls_path = hass.config.path(CALLS_FILE)
    fail_path = hass.config.path(FAIL_FILE)

    async def notify(call: ServiceCall) -> None:
        received_at = datetime.now(timezone.utc).isoformat(timespec="milliseconds")
        failure = await hass.async_add_executor_job(_read_failure, fail_path)
        record = {"received_at": received_at, "data": dict(call.data), "failure": failure}
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
