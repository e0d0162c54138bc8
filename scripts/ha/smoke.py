#!/usr/bin/env python3
"""Starts Home Assistant once on a copy of the end-to-end fixture config, checks
that it answers as the tests need, and stops it. Run by setup.sh with the venv's
python; also handy by hand:

    <venv>/bin/python scripts/ha/smoke.py --venv VENV --fixture Tests/EndToEndTests/Fixtures/ha-config

Checks: HA binds 127.0.0.1 and answers /api/onboarding; onboarding gives a token
that /api/ accepts; supernotify.notify and home_connect.set_state exist; the
template API lists the stand-in appliance's entities under one device; the log
shows no recovery mode and no failed setup. Prints how long start-up took.
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


async def check(url: str, token_file: str, timeout: float) -> float:
    started = time.monotonic()
    async with aiohttp.ClientSession() as session:
        await onboard.wait_ready(session, url, timeout)
        ready_after = time.monotonic() - started
        print(f"smoke: Home Assistant answered after {ready_after:.1f} s")
    print("smoke:", await onboard.run(url, token_file, timeout))
    token = onboard.read_secret(token_file)
    headers = {"Authorization": f"Bearer {token}"}
    async with aiohttp.ClientSession(headers=headers) as session:
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
            [os.path.join(arguments.venv, "bin", "hass"), "-c", config, "--skip-pip"],
            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
        )
    failure = None
    try:
        asyncio.run(check(url, os.path.join(workdir, "token"), arguments.timeout))
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
