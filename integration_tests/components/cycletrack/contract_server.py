"""A stand-in of cycletrack's local API v1 (docs/API.md), served over loopback.

It answers exactly what the contract says and nothing else, so the integration's
tests can run before (and beside) the real service. Tests drive it through its
methods; the real service is driven through a Home Assistant stand-in instead
(see service_under_test.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
import copy
import json
from pathlib import Path
import secrets
import socket
import struct
from typing import Any
import uuid

from aiohttp import web

# The tunable settings as the service declares them (GET /api/v1/service, `appliance_settings`):
# the fixture is the service's own output, a Swift test (DeclaredSettingsFilesTests) keeps it so.
DECLARED: list[dict[str, Any]] = json.loads((Path(__file__).parent / "appliance_settings.json").read_text())
DECLARED_BY_KEY = {setting["key"]: setting for setting in DECLARED}


def appliance_body(appliance_id: str, name: str, device_id: str | None = None) -> dict[str, Any]:
    """Return an idle appliance with the service's default settings."""
    return {
        "id": appliance_id,
        "name": name,
        "profile": "home_connect",
        "device_id": device_id,
        "state": "idle",
        "running": False,
        "program": None,
        "progress": None,
        "finish": None,
        "started_at": None,
        "pushes_this_cycle": 0,
        "live_activity_shown": False,
        "awaits_unloading": False,
        "last_cycle": None,
        "energy_total_kwh": 0.0,
        "settings": {
            "progress_steps": {"step": 10, "fine_from": 90, "fine_step": 2},
            **{setting["key"]: setting["default"] for setting in DECLARED},
        },
    }


def error(status: int, code: str, message: str) -> web.Response:
    """Return the contract's error body."""
    return web.json_response({"error": code, "message": message}, status=status)


def settings_error(body: Any) -> str | None:
    """Return what is wrong with a PATCH body, naming the key; None when it is good."""
    if not isinstance(body, dict):
        return "body: expected a JSON object"
    for key, value in body.items():
        if key == "reset":
            continue
        if key == "progress_steps":
            if not _steps_ok(value):
                return f"progress_steps: expected {{step, fine_from, fine_step}} or {{at: [...]}}, got {json.dumps(value)}"
        elif (setting := DECLARED_BY_KEY.get(key)) is None:
            return f"{key}: not a setting"
        elif (problem := _value_error(setting, value)) is not None:
            return f"{key}: {problem}, got {json.dumps(value)}"
    return None


def _value_error(setting: dict[str, Any], value: Any) -> str | None:
    if value is None:
        return None if setting["off"] is not None else "expected a value"
    if setting["type"] == "flag":
        return None if isinstance(value, bool) else "expected true or false"
    whole = setting["step"] == 1
    number = isinstance(value, int | float) and not isinstance(value, bool) and (not whole or value == int(value))
    if number and setting["min"] <= value <= setting["max"]:
        return None
    return f"expected {'a whole number' if whole else 'a number'} from {setting['min']} to {setting['max']}"


def _steps_ok(value: Any) -> bool:
    def percent(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 100

    if not isinstance(value, dict):
        return False
    if set(value) == {"at"}:
        return isinstance(value["at"], list) and all(percent(v) for v in value["at"])
    return set(value) == {"step", "fine_from", "fine_step"} and all(percent(v) for v in value.values())


class ContractServer:
    """The API's state, its HTTP server and its open event streams."""

    def __init__(self, appliances: list[dict[str, Any]], daily_push_limit: int = 400) -> None:
        """Return a service with these appliances, a fresh key and instance id."""
        self.api_key = secrets.token_hex(32)
        self.instance_id = str(uuid.uuid4())
        self.service: dict[str, Any] = {
            "version": "0.0.0",
            "instance_id": self.instance_id,
            "home_assistant": {"connected": True, "updates": "events"},
            "pushes_today": 0,
            "daily_push_limit": daily_push_limit,
            "pushes_left_today": daily_push_limit,
            "integration_connected": False,
            "appliance_settings": DECLARED,
        }
        self.appliances = {a["id"]: a for a in appliances}
        self.defaults = {a["id"]: copy.deepcopy(a["settings"]) for a in appliances}
        self.requests: list[tuple[str, str, Any]] = []
        self.ended_activities: list[str] = []
        self.unloaded: list[str] = []
        self.refused = 0
        # PUT /api/v1/integration: True; DELETE: False; None before either.
        self.integration_configured: bool | None = None
        # Called as the announcement arrives; an error body answered instead when set.
        self.on_announce: Callable[[], None] | None = None
        self.announce_error: tuple[int, str, str] | None = None
        self._streams: set[asyncio.Queue[tuple[str, Any] | None]] = set()
        self._stream_transports: set[asyncio.BaseTransport] = set()
        self._runner: web.AppRunner | None = None
        self.port = 0

    @property
    def url(self) -> str:
        """The base URL on loopback."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def open_streams(self) -> int:
        """How many event streams are open."""
        return len(self._streams)

    async def start(self) -> None:
        """Serve on 127.0.0.1 (the same port again after a stop)."""
        app = web.Application(middlewares=[self._auth])
        app.router.add_get("/api/v1/service", self._service)
        app.router.add_get("/api/v1/appliances", self._appliances)
        app.router.add_get("/api/v1/appliances/{id}", self._appliance)
        app.router.add_patch("/api/v1/appliances/{id}/settings", self._settings)
        app.router.add_post("/api/v1/appliances/{id}/end_activity", self._end_activity)
        app.router.add_post("/api/v1/appliances/{id}/unloaded", self._unloaded)
        app.router.add_get("/api/v1/events", self._events)
        app.router.add_put("/api/v1/integration", self._announce)
        app.router.add_delete("/api/v1/integration", self._withdraw)
        app.router.add_get("/{path:.*}", self._page)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", self.port, reuse_address=True)
        await site.start()
        self.port = self._runner.addresses[0][1]

    async def stop(self) -> None:
        """Stop serving: every stream breaks off, as when the service stops."""
        for queue in list(self._streams):
            queue.put_nowait(None)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def crash(self) -> None:
        """Stop as a process cut off mid-stream does: each stream's connection reset, then nothing listens."""
        for transport in list(self._stream_transports):
            sock = transport.get_extra_info("socket")
            if sock is not None:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            transport.abort()
        await self.stop()

    # Driving it, as the service's own events would.

    def publish(self, event_type: str, data: Any) -> None:
        """Send one event to every open stream."""
        for queue in self._streams:
            queue.put_nowait((event_type, data))

    def update_appliance(self, appliance_id: str, **changes: Any) -> None:
        """Change an appliance and push it."""
        self.appliances[appliance_id].update(changes)
        self.publish("appliance", self.appliances[appliance_id])

    def update_service(self, **changes: Any) -> None:
        """Change the service and push it."""
        self.service.update(changes)
        self.publish("service", self.service)

    # The routes.

    @web.middleware
    async def _auth(self, request: web.Request, handler: Any) -> web.StreamResponse:
        if request.path.startswith("/api/"):
            given = request.headers.get("Authorization", "")
            if not secrets.compare_digest(given.encode(), f"Bearer {self.api_key}".encode()):
                self.refused += 1
                return error(401, "unauthorized", f"{request.path}: missing or wrong API key")
        body = await request.json() if request.can_read_body else None
        self.requests.append((request.method, request.path, body))
        return await handler(request)

    async def _service(self, request: web.Request) -> web.Response:
        return web.json_response(self.service)

    async def _appliances(self, request: web.Request) -> web.Response:
        return web.json_response({"appliances": list(self.appliances.values())})

    def _find(self, request: web.Request) -> dict[str, Any] | None:
        return self.appliances.get(request.match_info["id"])

    async def _appliance(self, request: web.Request) -> web.Response:
        if (appliance := self._find(request)) is None:
            return error(404, "not_found", f"no appliance '{request.match_info['id']}'")
        return web.json_response(appliance)

    async def _settings(self, request: web.Request) -> web.Response:
        if (appliance := self._find(request)) is None:
            return error(404, "not_found", f"no appliance '{request.match_info['id']}'")
        body = self.requests[-1][2]
        if (problem := settings_error(body)) is not None:
            return error(400, "bad_request", problem)
        if body.get("reset"):
            appliance["settings"] = copy.deepcopy(self.defaults[appliance["id"]])
        appliance["settings"].update({k: v for k, v in body.items() if k != "reset"})
        self.publish("appliance", appliance)
        return web.json_response(appliance)

    async def _end_activity(self, request: web.Request) -> web.Response:
        if (appliance := self._find(request)) is None:
            return error(404, "not_found", f"no appliance '{request.match_info['id']}'")
        if not appliance["live_activity_shown"]:
            return error(409, "no_activity", f"{appliance['name']} shows no Live Activity now")
        self.ended_activities.append(appliance["id"])
        self.update_appliance(appliance["id"], live_activity_shown=False)
        return web.json_response({"accepted": True}, status=202)

    async def _unloaded(self, request: web.Request) -> web.Response:
        if (appliance := self._find(request)) is None:
            return error(404, "not_found", f"no appliance '{request.match_info['id']}'")
        self.unloaded.append(appliance["id"])
        self.update_appliance(appliance["id"], awaits_unloading=False)
        return web.json_response({"accepted": True}, status=202)

    async def _announce(self, request: web.Request) -> web.Response:
        if self.on_announce is not None:
            self.on_announce()
        if self.announce_error is not None:
            return error(*self.announce_error)
        self.integration_configured = True
        return web.json_response({"configured": True})

    async def _withdraw(self, request: web.Request) -> web.Response:
        self.integration_configured = False
        return web.json_response({"configured": False})

    async def _events(self, request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"})
        await response.prepare(request)
        queue: asyncio.Queue[tuple[str, Any] | None] = asyncio.Queue()
        queue.put_nowait(("snapshot", {"service": self.service, "appliances": list(self.appliances.values())}))
        self._streams.add(queue)
        if request.transport is not None:
            self._stream_transports.add(request.transport)
        self.service["integration_connected"] = True
        try:
            while (item := await queue.get()) is not None:
                event_type, data = item
                await response.write(f"event: {event_type}\ndata: {json.dumps(data)}\n\n".encode())
        except ConnectionResetError:
            pass
        finally:
            self._streams.discard(queue)
            if request.transport is not None:
                self._stream_transports.discard(request.transport)
        return response

    async def _page(self, request: web.Request) -> web.Response:
        # The history page: links relative, under the prefix named in X-Ingress-Path.
        prefix = request.headers.get("X-Ingress-Path")
        base = f'<base href="{prefix}/">' if prefix else ""
        return web.Response(
            text=f"<!doctype html><html><head>{base}</head><body><h1>Cycles</h1>"
            f"<p>path=/{request.match_info['path']}</p></body></html>",
            content_type="text/html",
        )
