"""The history page as a sidebar panel, for installs without the add-on's ingress.

The service binds 127.0.0.1 by default, so a browser elsewhere can't reach it, and an
iframe can't send Home Assistant's bearer token. So Home Assistant proxies the page, the
way the Supervisor's ingress does:

1. The panel (frontend/cycletrack-panel.js) asks Home Assistant to sign the session path
   `/api/cycletrack/session/<entry>` for the logged-in user (`auth/sign_path`, valid
   SESSION_SIGNATURE_SECONDS), and opens it in its frame.
2. That view, behind Home Assistant's own authentication (the signature), opens a session:
   a random id in an HttpOnly, SameSite=Strict cookie scoped to the entry's page path,
   lapsing after SESSION_IDLE of disuse; then it redirects to the page.
3. `/api/cycletrack/history/<entry>/...` forwards the page's GETs to the service for a
   request carrying a live session, with the service's API key.

Nothing long-lived is in a URL: a signed path expires in seconds, a session lapses, and
both end with the entry. The proxy adds the service's key, so it forwards the history
page's paths only: a path that is, or resolves to, the local API (`api/...`) is 404 and
never leaves Home Assistant.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
import posixpath
import secrets
from typing import Final

from aiohttp import ClientError, ClientTimeout, web
from yarl import URL

from homeassistant.components import frontend, panel_custom
from homeassistant.components.http import HomeAssistantView, StaticPathConfig
from homeassistant.const import CONF_API_KEY, CONF_URL
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers.aiohttp_client import async_get_clientsession
from homeassistant.util.dt import utcnow

from .const import (
    DOMAIN,
    HISTORY_SESSION_PREFIX,
    HISTORY_VIEW_PREFIX,
    PANEL_URL_PATH,
    REQUEST_TIMEOUT_SECONDS,
    SESSION_IDLE,
    SESSION_SIGNATURE_SECONDS,
    SESSIONS_PER_ENTRY,
)
from .coordinator import CycletrackConfigEntry

DATA_SESSIONS: Final = f"{DOMAIN}_history_sessions"
DATA_VIEWS: Final = f"{DOMAIN}_history_views"
DATA_PANEL_OWNER: Final = f"{DOMAIN}_panel_owner"
SESSION_COOKIE: Final = "cycletrack_history"
PANEL_ELEMENT: Final = "cycletrack-panel"
PANEL_MODULE_URL: Final = f"/{DOMAIN}_static/cycletrack-panel.js"
PANEL_MODULE_FILE: Final = Path(__file__).parent / "frontend" / "cycletrack-panel.js"
# What the proxy passes back; anything else of the service's answer stays behind.
_PASSED_HEADERS: Final = ("Content-Type", "Cache-Control")
_EXPIRED_PAGE: Final = (
    "<!doctype html><title>cycletrack</title><p>This view of the cycles has expired: "
    "open <b>Cycles</b> again from the sidebar.</p>"
)


@dataclass
class HistorySessions:
    """The open sessions of one entry's panel: each id and when it lapses unused."""

    idle: timedelta = SESSION_IDLE
    limit: int = SESSIONS_PER_ENTRY
    _lapses: dict[str, datetime] = field(default_factory=dict)

    def open(self, now: datetime) -> str:
        """Return a new session's id; the one lapsing soonest goes when the limit is reached."""
        self._drop_lapsed(now)
        while len(self._lapses) >= self.limit:
            del self._lapses[min(self._lapses, key=self._lapses.__getitem__)]
        session = secrets.token_urlsafe(32)
        self._lapses[session] = now + self.idle
        return session

    def use(self, session: str | None, now: datetime) -> bool:
        """Return whether `session` is live, and keep it so for another idle period."""
        self._drop_lapsed(now)
        match = next((s for s in self._lapses if session and secrets.compare_digest(s, session)), None)
        if match is None:
            return False
        self._lapses[match] = now + self.idle
        return True

    def __len__(self) -> int:
        """Return how many sessions are held, lapsed ones included until the next open or use."""
        return len(self._lapses)

    def _drop_lapsed(self, now: datetime) -> None:
        for session in [s for s, lapse in self._lapses.items() if lapse <= now]:
            del self._lapses[session]


def _sessions(hass: HomeAssistant) -> dict[str, HistorySessions]:
    sessions: dict[str, HistorySessions] = hass.data.setdefault(DATA_SESSIONS, {})
    return sessions


class HistorySessionView(HomeAssistantView):
    """Opens a session for a signed request of a logged-in user, then shows the page."""

    url = HISTORY_SESSION_PREFIX + "/{entry_id}"
    name = "api:cycletrack:history-session"
    # Home Assistant checks the path's signature (or a bearer token) before `get` runs.
    requires_auth = True

    def __init__(self, hass: HomeAssistant) -> None:
        """One view for every entry."""
        self._hass = hass

    async def get(self, request: web.Request, entry_id: str) -> web.StreamResponse:
        """Set the session's cookie and redirect to the entry's page."""
        sessions = _sessions(self._hass).get(entry_id)
        if sessions is None:
            return web.Response(status=404, text="404: no cycletrack history here")
        page = f"{HISTORY_VIEW_PREFIX}/{entry_id}/"
        response = web.Response(status=302, headers={"Location": page})
        response.set_cookie(
            SESSION_COOKIE,
            sessions.open(utcnow()),
            path=page,
            httponly=True,
            samesite="Strict",
            secure=request.secure,
        )
        return response


class HistoryProxyView(HomeAssistantView):
    """Forwards the page's GETs of a live session to that entry's service."""

    url = HISTORY_VIEW_PREFIX + "/{entry_id}/{path:.*}"
    name = "api:cycletrack:history"
    # The frame sends no bearer token: the session cookie authorizes instead.
    requires_auth = False

    def __init__(self, hass: HomeAssistant) -> None:
        """One view for every entry."""
        self._hass = hass

    async def get(self, request: web.Request, entry_id: str, path: str) -> web.StreamResponse:
        """Return the service's page at `path`."""
        sessions = _sessions(self._hass).get(entry_id)
        entry = self._hass.config_entries.async_get_entry(entry_id) if sessions is not None else None
        if sessions is None or entry is None or not _is_page_path(path):
            return web.Response(status=404, text="404: no cycletrack history here")
        if not sessions.use(request.cookies.get(SESSION_COOKIE), utcnow()):
            return web.Response(status=401, text=_EXPIRED_PAGE, content_type="text/html")
        target = URL(entry.data[CONF_URL].rstrip("/") + "/" + path).with_query(request.query)
        headers = {
            "Authorization": f"Bearer {entry.data[CONF_API_KEY]}",
            "X-Ingress-Path": f"{HISTORY_VIEW_PREFIX}/{entry_id}",
        }
        try:
            async with async_get_clientsession(self._hass).get(
                target, headers=headers, timeout=ClientTimeout(total=REQUEST_TIMEOUT_SECONDS)
            ) as response:
                body = await response.read()
                passed = {k: v for k, v in response.headers.items() if k in _PASSED_HEADERS}
                return web.Response(status=response.status, body=body, headers=passed)
        except (ClientError, TimeoutError):
            return web.Response(status=502, text="502: cycletrack's history page can't be reached")


def _is_page_path(path: str) -> bool:
    """Return whether `path` (decoded, under the entry) is the history page's, not the API's."""
    if "\\" in path or any(part == ".." for part in path.split("/")):
        return False
    first = posixpath.normpath("/" + path).lstrip("/").split("/", 1)[0]
    return first.lower() != "api"


def session_path(entry: CycletrackConfigEntry) -> str:
    """Return the path the panel has signed to open a session of `entry`'s page."""
    return f"{HISTORY_SESSION_PREFIX}/{entry.entry_id}"


async def async_register_panel(hass: HomeAssistant, entry: CycletrackConfigEntry) -> None:
    """Serve the views and the panel's module, and add the sidebar panel (for the first entry that asks)."""
    if not hass.data.get(DATA_VIEWS):
        hass.data[DATA_VIEWS] = True
        hass.http.register_view(HistorySessionView(hass))
        hass.http.register_view(HistoryProxyView(hass))
        await hass.http.async_register_static_paths(
            [StaticPathConfig(PANEL_MODULE_URL, str(PANEL_MODULE_FILE), cache_headers=False)]
        )
    _sessions(hass)[entry.entry_id] = HistorySessions()
    if hass.data.get(DATA_PANEL_OWNER) is None and "frontend" in hass.config.components:
        hass.data[DATA_PANEL_OWNER] = entry.entry_id
        await panel_custom.async_register_panel(
            hass,
            frontend_url_path=PANEL_URL_PATH,
            webcomponent_name=PANEL_ELEMENT,
            sidebar_title="Cycles",
            sidebar_icon="mdi:washing-machine",
            module_url=PANEL_MODULE_URL,
            config={"session_path": session_path(entry), "signature_seconds": SESSION_SIGNATURE_SECONDS},
            require_admin=False,
        )


@callback
def async_remove_panel(hass: HomeAssistant, entry: CycletrackConfigEntry) -> None:
    """End the entry's sessions, and drop the panel with them."""
    _sessions(hass).pop(entry.entry_id, None)
    if hass.data.get(DATA_PANEL_OWNER) == entry.entry_id:
        hass.data[DATA_PANEL_OWNER] = None
        frontend.async_remove_panel(hass, PANEL_URL_PATH)
