"""The history page as a sidebar panel, for installs without the add-on's ingress.

The service binds 127.0.0.1 by default, so a browser elsewhere can't reach it, and an
iframe can't send Home Assistant's bearer token. So Home Assistant proxies the page:
`/api/cycletrack/history/<token>/...` forwards GETs to the service, and an iframe
panel shows it. The token is random per setup and reaches only logged-in users
through the panel list (it stands where the Supervisor's ingress session stands); the
service's pages resolve their links under the prefix it is told in `X-Ingress-Path`.

The proxy adds the service's API key, so it forwards the history page's paths only:
a path that is, or resolves to, the local API (`api/...`) is 404 and never leaves Home
Assistant, so the panel's address reads no settings and no event stream.
"""

from __future__ import annotations

import posixpath
import secrets
from typing import Final

from aiohttp import ClientError, ClientTimeout, web
from yarl import URL

from homeassistant.components import frontend
from homeassistant.components.http import HomeAssistantView
from homeassistant.const import CONF_API_KEY, CONF_URL
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers.aiohttp_client import async_get_clientsession

from .const import DOMAIN, HISTORY_VIEW_PREFIX, PANEL_URL_PATH, REQUEST_TIMEOUT_SECONDS
from .coordinator import CycletrackConfigEntry

DATA_TOKENS: Final = f"{DOMAIN}_history_tokens"
DATA_PANEL_OWNER: Final = f"{DOMAIN}_panel_owner"
# What the proxy passes back; anything else of the service's answer stays behind.
_PASSED_HEADERS: Final = ("Content-Type", "Cache-Control")


class HistoryProxyView(HomeAssistantView):
    """Forwards GETs under a panel token to that entry's service."""

    url = HISTORY_VIEW_PREFIX + "/{token}/{path:.*}"
    name = "api:cycletrack:history"
    # The iframe has no bearer token: the unguessable path token authorizes instead.
    requires_auth = False

    def __init__(self, hass: HomeAssistant) -> None:
        """One view for every entry; tokens map to entries."""
        self._hass = hass

    async def get(self, request: web.Request, token: str, path: str) -> web.StreamResponse:
        """Return the service's page at `path`."""
        tokens: dict[str, str] = self._hass.data.get(DATA_TOKENS, {})
        entry_id = next((e for e, t in tokens.items() if secrets.compare_digest(t, token)), None)
        entry = self._hass.config_entries.async_get_entry(entry_id) if entry_id else None
        if entry is None or not _is_page_path(path):
            return web.Response(status=404, text="404: no cycletrack history here")
        target = URL(entry.data[CONF_URL].rstrip("/") + "/" + path).with_query(request.query)
        headers = {
            "Authorization": f"Bearer {entry.data[CONF_API_KEY]}",
            "X-Ingress-Path": f"{HISTORY_VIEW_PREFIX}/{token}",
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
    """Return whether `path` (decoded, under the token) is the history page's, not the API's."""
    if "\\" in path or any(part == ".." for part in path.split("/")):
        return False
    first = posixpath.normpath("/" + path).lstrip("/").split("/", 1)[0]
    return first.lower() != "api"


def panel_url(hass: HomeAssistant, entry: CycletrackConfigEntry) -> str | None:
    """Return the panel's iframe URL, while the entry shows one."""
    token = hass.data.get(DATA_TOKENS, {}).get(entry.entry_id)
    return f"{HISTORY_VIEW_PREFIX}/{token}/" if token else None


@callback
def async_register_panel(hass: HomeAssistant, entry: CycletrackConfigEntry) -> None:
    """Serve the proxy and add the sidebar panel (one panel: the first entry that asks)."""
    if DATA_TOKENS not in hass.data:
        hass.data[DATA_TOKENS] = {}
        hass.http.register_view(HistoryProxyView(hass))
    hass.data[DATA_TOKENS][entry.entry_id] = secrets.token_urlsafe(32)
    if hass.data.get(DATA_PANEL_OWNER) is None and "frontend" in hass.config.components:
        hass.data[DATA_PANEL_OWNER] = entry.entry_id
        frontend.async_register_built_in_panel(
            hass,
            "iframe",
            sidebar_title="Cycles",
            sidebar_icon="mdi:washing-machine",
            frontend_url_path=PANEL_URL_PATH,
            config={"url": panel_url(hass, entry)},
            require_admin=False,
        )


@callback
def async_remove_panel(hass: HomeAssistant, entry: CycletrackConfigEntry) -> None:
    """Drop the entry's token, and the panel with it."""
    hass.data.get(DATA_TOKENS, {}).pop(entry.entry_id, None)
    if hass.data.get(DATA_PANEL_OWNER) == entry.entry_id:
        hass.data[DATA_PANEL_OWNER] = None
        frontend.async_remove_panel(hass, PANEL_URL_PATH)
