"""Constants for the cycletrack integration."""

from __future__ import annotations

from datetime import timedelta
import logging
from typing import Final

DOMAIN: Final = "cycletrack"
LOGGER = logging.getLogger(__package__)

# The add-on's slug: Supervisor discovery from any other add-on is refused.
ADDON_SLUG: Final = "cycletrack"
DEFAULT_TITLE: Final = "cycletrack"

# Options kept by the integration itself (the household's and people's settings live in the
# service, through the API's household endpoints).
CONF_PANEL: Final = "panel"

# How the event stream reconnects: first wait, doubled per failure, capped.
RECONNECT_FIRST_SECONDS: Final = 1.0
RECONNECT_MAX_SECONDS: Final = 60.0
# The service sends ": keepalive" every 15 s; no byte for this long means the stream is dead.
STREAM_IDLE_TIMEOUT_SECONDS: Final = 45.0
REQUEST_TIMEOUT_SECONDS: Final = 10.0

# A repair issue is raised when fewer than this share of the daily pushes is left.
DAILY_LIMIT_WARNING_SHARE: Final = 0.1

# The history page behind Home Assistant (see panel.py).
PANEL_URL_PATH: Final = "cycletrack"
HISTORY_VIEW_PREFIX: Final = "/api/cycletrack/history"
HISTORY_SESSION_PREFIX: Final = "/api/cycletrack/session"
# The panel's signed session path is valid this long; a session lapses after this much disuse.
SESSION_SIGNATURE_SECONDS: Final = 30
SESSION_IDLE: Final = timedelta(minutes=30)
SESSIONS_PER_ENTRY: Final = 32

CYCLE_STATES: Final = [
    "idle",
    "running",
    "paused",
    "action_required",
    "unavailable",
    "finished",
    "aborted",
    "failed",
    "lost",
]
CYCLE_EVENT_TYPES: Final = ["started", "finished", "aborted", "failed", "lost", "reminder", "anomaly"]
