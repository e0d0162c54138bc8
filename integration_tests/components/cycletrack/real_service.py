"""The real `cycletrack` binary ($CYCLETRACK_BIN), run against a Home Assistant stand-in.

The service polls the stand-in's REST API (`updates: poll`, every second), discovers
the Home Connect dishwasher there (its HA device id is the test's device), and sends
its Supernotify calls to it; the test plays a cycle by setting the stand-in's states.
Everything runs on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
import json
import os
from pathlib import Path
import re
import secrets
import signal
import socket
from typing import Any

import aiohttp
from aiohttp import web

from homeassistant.helpers import device_registry as dr
from homeassistant.util import dt as dt_util

OPERATION_STATES = ["inactive", "ready", "delayedstart", "run", "pause", "actionrequired", "finished", "error", "aborting"]
READY_SECONDS = 30
_QUOTED_ID = re.compile(r'"([a-z_]+\.[a-z0-9_]+)"')


def free_port() -> int:
    """Return a loopback port free now (the service keeps it across restarts)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class HomeAssistantStandIn:
    """The REST endpoints cycletrack uses, answering its own templates only."""

    def __init__(self) -> None:
        """No entities yet; `supernotify.notify` exists."""
        self.token = secrets.token_hex(16)
        self.entities: dict[str, dict[str, Any]] = {}
        self.devices: list[dict[str, Any]] = []
        self.calls: list[dict[str, Any]] = []
        # States set over the REST API (the service's own sensor.cycletrack_*), as HA keeps them.
        self.posted_states: dict[str, Any] = {}
        self.removals: list[str] = []
        self.call_received = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self.url = ""

    def set_state(self, entity_id: str, state: str, **attributes: Any) -> None:
        """Set an entity as an integration would."""
        self.entities[entity_id] = {"state": state, **attributes}

    async def start(self) -> None:
        """Serve on 127.0.0.1."""
        app = web.Application()
        app.router.add_route("*", "/{path:.*}", self._answer)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.url = f"http://127.0.0.1:{self._runner.addresses[0][1]}"

    async def stop(self) -> None:
        """Stop serving."""
        if self._runner is not None:
            await self._runner.cleanup()

    async def _answer(self, request: web.Request) -> web.Response:
        if request.headers.get("Authorization") != f"Bearer {self.token}":
            return web.Response(status=401, text="401: Unauthorized")
        path, method = request.path, request.method
        if method == "GET" and path == "/api/":
            return web.json_response({"message": "API running."})
        if method == "GET" and path == "/api/config":
            return web.json_response({
                "location_name": "Home", "time_zone": "UTC", "version": "2026.11.0", "state": "RUNNING",
                "components": ["api", "home_connect", "supernotify", "template"],
                "unit_system": {"temperature": "°C"}, "safe_mode": False, "recovery_mode": False,
            })
        if method == "GET" and path == "/api/services":
            return web.json_response([{"domain": "supernotify", "services": {"notify": {}}}])
        if method == "POST" and path == "/api/template":
            return self._template((await request.json())["template"])
        if method == "POST" and path.startswith("/api/services/"):
            body = await request.json()
            async with self.call_received:
                self.calls.append({"service": path.removeprefix("/api/services/"), "data": body})
                self.call_received.notify_all()
            return web.json_response([])
        if method == "POST" and path.startswith("/api/states/"):
            self.posted_states[path.removeprefix("/api/states/")] = body = await request.json()
            return web.json_response(body)
        if method == "DELETE" and path.startswith("/api/states/"):
            # As HA: 200 when it had the state, 404 when not.
            entity_id = path.removeprefix("/api/states/")
            self.removals.append(entity_id)
            if self.posted_states.pop(entity_id, None) is None:
                return web.json_response({"message": "Entity not found."}, status=404)
            return web.json_response({"message": "Entity removed."})
        if method == "POST" and path.startswith("/api/events/"):
            return web.json_response(await request.json())
        return web.Response(status=404, text="404: Not Found")

    def _template(self, template: str) -> web.Response:
        if "integration_entities(" in template:
            return web.Response(text=json.dumps(self.devices))
        if "states[" in template:
            ids = _QUOTED_ID.findall(template)
            body = {
                entity_id: None if (e := self.entities.get(entity_id)) is None
                else {"s": e["state"], "u": e.get("unit"), "dc": e.get("dc")}
                for entity_id in ids
            }
            return web.Response(text=json.dumps(body))
        return web.json_response({"message": "Error rendering template: the stand-in renders only cycletrack's"}, status=400)


class RealService:
    """cycletrack `run` as a child process: a discovered dishwasher and a configured dryer."""

    own_appliance = "dryer"

    def __init__(
        self, binary: str, directory: Path, device: dr.DeviceEntry, extra_config: dict[str, Any] | None = None
    ) -> None:
        """Files under `directory`; the dishwasher is `device`; `extra_config` keys go over the configuration."""
        self.binary = binary
        self.directory = directory
        self.device = device
        self.linked_appliance = re.sub(r"[^A-Za-z0-9_-]", "_", device.id)[:50]
        self.ha = HomeAssistantStandIn()
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.api_key = ""
        self.instance_id = ""
        self._process: asyncio.subprocess.Process | None = None
        self._entity = {self.linked_appliance: "dishwasher", self.own_appliance: "dryer"}
        self._extra_config = extra_config or {}

    async def start(self) -> None:
        """Start the stand-in (once) and the service; wait until its API answers."""
        if not self.ha.url:
            await self.ha.start()
            self._make_appliances()
            self._write_config()
        log = await asyncio.to_thread(open, self.directory / "cycletrack.log", "ab")  # the child keeps it
        self._process = await asyncio.create_subprocess_exec(
            self.binary, "run", "--config", str(self.directory / "cycletrack.json"),
            stdout=log, stderr=log, env={**os.environ, "CYCLETRACK_LOG": "info"},
        )
        log.close()
        await self._wait_ready()

    async def stop(self) -> None:
        """SIGTERM, as a service manager stops it."""
        if self._process is not None and self._process.returncode is None:
            self._process.send_signal(signal.SIGTERM)
            await asyncio.wait_for(self._process.wait(), 20)
        self._process = None

    async def close(self) -> None:
        """Stop the service and the stand-in."""
        await self.stop()
        await self.ha.stop()

    async def start_cycle(self, appliance_id: str, program: str, progress: int) -> None:
        """Make the appliance run."""
        name = self._entity[appliance_id]
        finish = dt_util.utcnow().replace(microsecond=0) + dt_util.dt.timedelta(hours=2)
        self.ha.set_state(f"sensor.{name}_program_finish_time", finish.isoformat(), dc="timestamp")
        self.ha.set_state(f"sensor.{name}_program_progress", str(progress), unit="%")
        self.ha.set_state(f"sensor.{name}_operation_state", "run", dc="enum")

    async def set_progress(self, appliance_id: str, progress: int) -> None:
        """Move the appliance's progress entity."""
        self.ha.set_state(f"sensor.{self._entity[appliance_id]}_program_progress", str(progress), unit="%")

    async def finish_cycle(self, appliance_id: str) -> None:
        """Make the appliance's operation state say finished."""
        self.ha.set_state(f"sensor.{self._entity[appliance_id]}_operation_state", "finished", dc="enum")

    async def ended_activities(self, appliance_id: str) -> int:
        """Return the clears the service sent for the appliance (its Live Activity ended)."""
        tag = f"appliance_{appliance_id}"
        text = [json.dumps(call["data"]) for call in self.ha.calls if call["service"] == "supernotify/notify"]
        return sum(1 for body in text if tag in body and '"mobile_push_clear_notification": true' in body)

    async def unloaded(self, appliance_id: str) -> int:
        """Return how often the service logged the appliance unloaded through its API."""
        text = await asyncio.to_thread((self.directory / "cycletrack.log").read_text, errors="replace")
        return text.count(f"event=unloaded appliance={appliance_id} by=api")

    def live_calls(self, appliance_id: str) -> list[dict[str, Any]]:
        """Return the Supernotify calls for the appliance's Live Activity so far."""
        tag = f"appliance_{appliance_id}"
        return [
            call["data"] for call in self.ha.calls
            if call["service"] == "supernotify/notify" and tag in json.dumps(call["data"])
        ]

    async def wait_for_calls(self, appliance_id: str, count: int) -> None:
        """Until the appliance has had `count` calls (bounded)."""
        await self.wait_for_call(lambda: len(self.live_calls(appliance_id)) >= count, f"{count} calls of {appliance_id}")

    async def wait_for_call(self, condition: Callable[[], bool], what: str, seconds: float = 15) -> None:
        """Until a call the service made makes `condition` true: woken by each call, bounded."""
        async with self.ha.call_received:
            try:
                await asyncio.wait_for(self.ha.call_received.wait_for(condition), seconds)
            except TimeoutError:
                raise AssertionError(f"no {what} within {seconds} s") from None

    def _make_appliances(self) -> None:
        for name in ("dishwasher", "dryer"):
            self.ha.set_state(f"sensor.{name}_operation_state", "ready", dc="enum", options=OPERATION_STATES)
            self.ha.set_state(f"sensor.{name}_program_progress", "unavailable", unit="%")
            self.ha.set_state(f"sensor.{name}_program_finish_time", "unavailable", dc="timestamp")
        self.ha.devices = [{
            "id": self.device.id, "domain": "home_connect", "name": self.device.name,
            "manufacturer": self.device.manufacturer, "model": self.device.model,
            "entities": [
                {"id": entity_id, "state": e["state"], "options": e.get("options"), "unit": e.get("unit"),
                 "dc": e.get("dc")}
                for entity_id, e in self.ha.entities.items() if entity_id.startswith("sensor.dishwasher_")
            ],
        }]

    def _write_config(self) -> None:
        token_file = self.directory / "ha-token"
        token_file.write_text(self.ha.token)
        quick = {"settle_seconds": 0, "min_update_seconds": 0}
        config = {
            "home_assistant": {"url": self.ha.url, "token_file": str(token_file)},
            "database": str(self.directory / "cycletrack.sqlite"),
            "updates": "poll",
            "poll": {"active_seconds": 1, "idle_seconds": 1},
            "discover": True,
            "http": {"listen": "127.0.0.1", "port": self.port},
            "appliances": [
                {"id": self.linked_appliance, **quick},
                {
                    "id": "dryer", "name": "Dryer", "profile": "home_connect",
                    "operation_state_entity": "sensor.dryer_operation_state",
                    "progress_entity": "sensor.dryer_program_progress",
                    "finish_time_entity": "sensor.dryer_program_finish_time",
                    **quick,
                },
            ],
        }
        config.update(self._extra_config)
        (self.directory / "cycletrack.json").write_text(json.dumps(config, indent=2))

    async def _wait_ready(self) -> None:
        """Bounded: the API answers with the key the service made, or the start failed."""
        key_file = self.directory / "cycletrack.api-key"
        async with aiohttp.ClientSession() as session:
            for _ in range(READY_SECONDS * 10):
                if self._process is None or self._process.returncode is not None:
                    break
                if key_file.exists() and (key := key_file.read_text().strip()):
                    try:
                        async with session.get(
                            f"{self.url}/api/v1/service", headers={"Authorization": f"Bearer {key}"}
                        ) as response:
                            if response.status == 200:
                                self.api_key, self.instance_id = key, (await response.json())["instance_id"]
                                return
                    except aiohttp.ClientError:
                        pass
                await asyncio.sleep(0.1)
        log = (self.directory / "cycletrack.log").read_text(errors="replace")[-3000:]
        raise AssertionError(f"cycletrack at {self.url} did not answer /api/v1/service; its log:\n{log}")
