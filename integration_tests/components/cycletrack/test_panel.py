"""The history page through Home Assistant, for the sidebar panel: signed session paths, sessions, the page only."""

from __future__ import annotations

from datetime import timedelta

from aiohttp.test_utils import TestClient
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.typing import (
    ClientSessionGenerator,
    WebSocketGenerator,
)

from custom_components.cycletrack import panel
from custom_components.cycletrack.const import (
    CONF_PANEL,
    HISTORY_VIEW_PREFIX,
    SESSION_IDLE,
    SESSION_SIGNATURE_SECONDS,
)
from custom_components.cycletrack.panel import (
    PANEL_ELEMENT,
    PANEL_MODULE_URL,
    SESSION_COOKIE,
    HistorySessions,
    session_path,
)
from homeassistant.components.frontend import DATA_PANELS
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component
from homeassistant.util import dt as dt_util

from .service_under_test import ServiceUnderTest


async def _signed(
    hass: HomeAssistant, hass_ws_client: WebSocketGenerator, path: str, expires: int = SESSION_SIGNATURE_SECONDS
) -> str:
    """Sign `path` as the panel does, for the test's logged-in user (`auth`, which the frontend loads, answers)."""
    assert await async_setup_component(hass, "auth", {})
    websocket = await hass_ws_client()
    await websocket.send_json_auto_id({"type": "auth/sign_path", "path": path, "expires": expires})
    answer = await websocket.receive_json()
    await websocket.close()
    assert answer["success"], answer
    signed: str = answer["result"]["path"]
    return signed


async def _open_session(client: TestClient, signed: str, page: str) -> None:
    """Follow a signed session path as the frame does: a cookie, and the page."""
    response = await client.get(signed, allow_redirects=False)
    assert response.status == 302
    assert response.headers["Location"] == page
    cookie = response.cookies[SESSION_COOKIE]
    assert cookie["httponly"] is True
    assert cookie["samesite"] == "Strict"
    assert cookie["path"] == page


def _page(entry: MockConfigEntry) -> str:
    return f"{HISTORY_VIEW_PREFIX}/{entry.entry_id}/"


async def test_a_signed_path_opens_a_session_of_the_page(
    hass: HomeAssistant,
    hass_client_no_auth: ClientSessionGenerator,
    hass_ws_client: WebSocketGenerator,
    loaded_entry: MockConfigEntry,
) -> None:
    """The signed session path sets the session's cookie; with it the page is served, links under the entry's prefix."""
    client = await hass_client_no_auth()
    page = _page(loaded_entry)
    response = await client.get(page)
    assert response.status == 401
    assert "open <b>Cycles</b> again" in await response.text()

    await _open_session(client, await _signed(hass, hass_ws_client, session_path(loaded_entry)), page)
    response = await client.get(page)
    assert response.status == 200
    assert response.headers["Content-Type"].startswith("text/html")
    assert f'<base href="{page}">' in await response.text()


async def test_unsigned_forged_and_expired_paths_open_nothing(
    hass: HomeAssistant,
    hass_client_no_auth: ClientSessionGenerator,
    hass_ws_client: WebSocketGenerator,
    loaded_entry: MockConfigEntry,
) -> None:
    """Without Home Assistant's signature, with another path's, or once it expired: 401, and no session."""
    client = await hass_client_no_auth()
    path = session_path(loaded_entry)
    assert (await client.get(path, allow_redirects=False)).status == 401
    other = await _signed(hass, hass_ws_client, "/api/states")
    forged = path + "?" + other.split("?", 1)[1]
    assert (await client.get(forged, allow_redirects=False)).status == 401

    signed = await _signed(hass, hass_ws_client, path, expires=-1)
    response = await client.get(signed, allow_redirects=False)
    assert response.status == 401
    assert SESSION_COOKIE not in response.cookies
    assert (await client.get(_page(loaded_entry))).status == 401


async def test_a_session_lapses_unused_and_ends_with_the_entry(
    hass: HomeAssistant,
    hass_client_no_auth: ClientSessionGenerator,
    hass_ws_client: WebSocketGenerator,
    monkeypatch: pytest.MonkeyPatch,
    loaded_entry: MockConfigEntry,
) -> None:
    """Each use keeps a session for another idle period; past that, or once the entry unloads, it is gone."""
    client = await hass_client_no_auth()
    page = _page(loaded_entry)
    now = dt_util.utcnow()
    monkeypatch.setattr(panel, "utcnow", lambda: now)
    await _open_session(client, await _signed(hass, hass_ws_client, session_path(loaded_entry)), page)
    for _ in range(2):
        now += SESSION_IDLE - timedelta(minutes=1)
        assert (await client.get(page)).status == 200
    now += SESSION_IDLE + timedelta(seconds=1)
    assert (await client.get(page)).status == 401

    await _open_session(client, await _signed(hass, hass_ws_client, session_path(loaded_entry)), page)
    assert (await client.get(page)).status == 200
    assert await hass.config_entries.async_unload(loaded_entry.entry_id)
    assert (await client.get(page)).status == 404


@pytest.mark.parametrize(
    "path",
    ["api/v1/household", "api/v1/events", "api", "API/v1/service", "./api/v1/service", "cycles/../api/v1/service",
     "%61pi/v1/service", "%2e%2e/api/v1/service", ".//api/v1/people"],
)
async def test_the_proxy_forwards_the_page_only(
    hass: HomeAssistant,
    hass_client_no_auth: ClientSessionGenerator,
    hass_ws_client: WebSocketGenerator,
    loaded_entry: MockConfigEntry,
    path: str,
) -> None:
    """The proxy adds the API key: the local API's paths, however spelled, are 404 and not asked, session or not."""
    client = await hass_client_no_auth()
    page = _page(loaded_entry)
    await _open_session(client, await _signed(hass, hass_ws_client, session_path(loaded_entry)), page)
    response = await client.get(page + path)
    assert response.status == 404
    assert "settings" not in await response.text()
    assert (await client.get(f"{HISTORY_VIEW_PREFIX}/not-an-entry/")).status == 404


async def test_sidebar_panel_follows_the_option(
    hass: HomeAssistant,
    hass_client: ClientSessionGenerator,
    service: ServiceUnderTest,
    mock_config_entry: MockConfigEntry,
) -> None:
    """With the option on, a Cycles panel of our own element, told only the path to sign; off, no panel."""
    assert await async_setup_component(hass, "frontend", {})
    assert await hass.config_entries.async_setup(mock_config_entry.entry_id)
    await hass.async_block_till_done()
    panel = hass.data[DATA_PANELS]["cycletrack"]
    assert panel.component_name == "custom"
    assert panel.sidebar_title == "Cycles"
    assert panel.require_admin is False
    assert panel.config["session_path"] == session_path(mock_config_entry)
    assert panel.config["signature_seconds"] == SESSION_SIGNATURE_SECONDS
    assert panel.config["_panel_custom"]["name"] == PANEL_ELEMENT
    assert panel.config["_panel_custom"]["module_url"] == PANEL_MODULE_URL
    module = await (await hass_client()).get(PANEL_MODULE_URL)
    assert module.status == 200
    script = await module.text()
    assert f'customElements.define("{PANEL_ELEMENT}"' in script
    assert '"auth/sign_path"' in script

    hass.config_entries.async_update_entry(mock_config_entry, options={CONF_PANEL: False})
    assert await hass.config_entries.async_reload(mock_config_entry.entry_id)
    await hass.async_block_till_done()
    assert "cycletrack" not in hass.data[DATA_PANELS]


def test_sessions_are_bounded_dropping_the_one_lapsing_soonest() -> None:
    """A full table makes room by dropping the session that would lapse first; lapsed ones go first of all."""
    now = dt_util.utcnow()
    sessions = HistorySessions(limit=3)
    first, second, third = (sessions.open(now + timedelta(seconds=i)) for i in range(3))
    assert sessions.use(first, now + timedelta(seconds=10))
    fourth = sessions.open(now + timedelta(seconds=11))
    assert len(sessions) == 3
    assert not sessions.use(second, now + timedelta(seconds=12))
    assert all(sessions.use(s, now + timedelta(seconds=12)) for s in (first, third, fourth))
    assert not sessions.use(None, now)
    assert not sessions.use("", now)
    sessions.open(now + SESSION_IDLE + timedelta(minutes=1))
    assert len(sessions) == 1
