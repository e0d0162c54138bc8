#!/usr/bin/env python3
"""Starts Home Assistant once on a copy of the end-to-end fixture config, checks
that it answers as the tests need, and stops it. Run by setup.sh with the venv's
python; also handy by hand:

    <venv>/bin/python scripts/ha/smoke.py --venv VENV --fixture Tests/EndToEndTests/Fixtures/ha-config

Checks: HA answers /api/onboarding; onboarding gives a token that /api/ accepts;
/api/config reaches state RUNNING and names the version; hass listens on 127.0.0.1
only (listening.py); supernotify.notify and home_connect.set_state exist; the
template API lists the stand-in appliance's entities under one device; the log
shows no recovery mode and no failed setup. Prints how long start-up took.
hass runs under run_hass.py, as in the tests (it writes HA 2026's .storage/http).
Exit 0 when all hold; 1 with the reason and the end of HA's log otherwise.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

import aiohttp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import listening  # noqa: E402
import onboard  # noqa: E402

TEMPLATE = (
    "{% set ns = namespace(rows=[]) %}"
    "{% for e in integration_entities('home_connect') %}"
    "{% set ns.rows = ns.rows + [[e, device_id(e)]] %}"
    "{% endfor %}{{ ns.rows | tojson }}"
)
BAD_LOG_LINES = ("recovery mode", "Setup failed for", "Unable to install package", "Error during setup of component")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def log_tail(path: str, lines: int = 40) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as file:
            return "".join(file.readlines()[-lines:])
    except FileNotFoundError:
        return "(no log)"


async def wait_running(session: aiohttp.ClientSession, url: str, timeout: float) -> str:
    """Waits for /api/config to say RUNNING (2026.x answers /api/ before its
    integrations are loaded); returns HA's version."""
    deadline = time.monotonic() + timeout
    state = None
    while time.monotonic() < deadline:
        async with session.get(f"{url}/api/config") as response:
            if response.status == 200:
                config = await response.json()
                state = config.get("state")
                if state == "RUNNING":
                    return str(config.get("version"))
        await asyncio.sleep(0.25)
    raise onboard.OnboardError(f"/api/config did not reach state RUNNING within {timeout:.0f} s (last: {state})")


def check_listening(pid: int, port: int) -> None:
    found = listening.listeners(listening.socket_inodes(listening.descendants(pid)))
    wrong = [f"{name} {host}:{p}" for name, host, p in found if host != "127.0.0.1"]
    if wrong or all(p != port for _, _, p in found):
        raise onboard.OnboardError(f"hass should listen on 127.0.0.1:{port} only; it listens on {found}")
    print(f"smoke: hass listens on {', '.join(f'{h}:{p}' for _, h, p in found)} only")


async def check(url: str, token_file: str, timeout: float, pid: int, port: int) -> float:
    started = time.monotonic()
    async with aiohttp.ClientSession() as session:
        await onboard.wait_ready(session, url, timeout)
        ready_after = time.monotonic() - started
        print(f"smoke: Home Assistant answered after {ready_after:.1f} s")
    print("smoke:", await onboard.run(url, token_file, timeout))
    token = onboard.read_secret(token_file)
    headers = {"Authorization": f"Bearer {token}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        version = await wait_running(session, url, timeout)
        print(f"smoke: Home Assistant {version} is RUNNING after {time.monotonic() - started:.1f} s")
        check_listening(pid, port)
        async with session.get(f"{url}/api/services") as response:
            if response.status != 200:
                raise onboard.OnboardError(f"GET /api/services: HTTP {response.status}")
            services = {entry["domain"]: set(entry["services"]) for entry in await response.json()}
        for domain, service in (("supernotify", "notify"), ("home_connect", "set_state")):
            if service not in services.get(domain, set()):
                raise onboard.OnboardError(f"the service {domain}.{service} is missing")
        rows: list = []
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and len(rows) < 5:
            async with session.post(f"{url}/api/template", json={"template": TEMPLATE}) as response:
                if response.status != 200:
                    raise onboard.OnboardError(f"POST /api/template: HTTP {response.status}: {await response.text()}")
                rows = json.loads(await response.text())
            await asyncio.sleep(0.2)
        devices = {device for _, device in rows}
        if len(rows) < 5 or len(devices) != 1 or None in devices:
            raise onboard.OnboardError(f"the home_connect stand-in's entities are not one device's: {rows}")
        print(f"smoke: {len(rows)} home_connect entities on one device: {', '.join(sorted(e for e, _ in rows))}")
    return ready_after


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--venv", required=True)
    parser.add_argument("--fixture", required=True)
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("--keep", action="store_true", help="keep the temporary config directory")
    arguments = parser.parse_args()

    workdir = tempfile.mkdtemp(prefix="cycletrack-ha-smoke-")
    config = os.path.join(workdir, "config")
    shutil.copytree(arguments.fixture, config)
    port = free_port()
    path = os.path.join(config, "configuration.yaml")
    with open(path, encoding="utf-8") as file:
        text = file.read().replace("__PORT__", str(port))
    with open(path, "w", encoding="utf-8") as file:
        file.write(text)
    log_path = os.path.join(workdir, "hass.log")
    url = f"http://127.0.0.1:{port}"
    print(f"smoke: starting hass -c {config} --skip-pip on {url}")
    with open(log_path, "w", encoding="utf-8") as log:
        process = subprocess.Popen(
            [os.path.join(arguments.venv, "bin", "python"), os.path.join(os.path.dirname(os.path.abspath(__file__)), "run_hass.py"),
             os.path.join(arguments.venv, "bin", "hass"), "-c", config, "--skip-pip"],
            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
        )
    failure = None
    try:
        asyncio.run(check(url, os.path.join(workdir, "token"), arguments.timeout, process.pid, port))
    except (onboard.OnboardError, aiohttp.ClientError, asyncio.TimeoutError, KeyError, ValueError) as error:
        failure = f"{type(error).__name__}: {error}"
    finally:
        stop_started = time.monotonic()
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            failure = failure or "hass did not stop within 30 s of SIGTERM"
        print(f"smoke: hass stopped {time.monotonic() - stop_started:.1f} s after SIGTERM")
    bad = [line for line in log_tail(log_path, 100000).splitlines() if any(b in line for b in BAD_LOG_LINES)]
    if failure is None and bad:
        failure = "HA's log shows failures:\n  " + "\n  ".join(bad[:10])
    if failure:
        print(f"smoke: FAILED: {failure}\n--- end of {log_path} ---\n{log_tail(log_path)}", file=sys.stderr)
        return 1
    if not arguments.keep:
        shutil.rmtree(workdir, ignore_errors=True)
    print("smoke: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
