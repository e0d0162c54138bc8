#!/usr/bin/env python3
"""Onboards a fresh Home Assistant without a browser and writes a long-lived
access token to a file (mode 0600). The token is never printed.

    <venv>/bin/python scripts/ha/onboard.py --url http://127.0.0.1:PORT --token-file FILE [--timeout 90]

Steps (HA 2024.3.3): wait until GET /api/onboarding answers 200; POST
/api/onboarding/users -> auth code; POST /auth/token (form-encoded) -> access token;
POST /api/onboarding/analytics and /api/onboarding/integration; then over the
websocket, auth/long_lived_access_token. The core_config step is skipped on
purpose: it starts integrations that want the network.

If HA is already onboarded and the token file holds a token HA accepts, it
does nothing and exits 0. Needs aiohttp (it is in HA's venv).
"""
from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import sys
import tempfile
import time

import aiohttp

CLIENT_NAME = "cycletrack-e2e"


class OnboardError(Exception):
    """Onboarding could not go on; the message says why (never with the token)."""


async def _check(response: aiohttp.ClientResponse, what: str) -> None:
    if response.status >= 300:
        body = (await response.text())[:500]
        raise OnboardError(f"{what}: HTTP {response.status}: {body}")


async def wait_ready(session: aiohttp.ClientSession, url: str, timeout: float) -> list[dict]:
    """Waits (bounded) until GET /api/onboarding answers 200; returns its steps."""
    deadline = time.monotonic() + timeout
    last = "no answer yet"
    while time.monotonic() < deadline:
        try:
            async with session.get(f"{url}/api/onboarding", timeout=aiohttp.ClientTimeout(total=5)) as response:
                if response.status == 200:
                    return await response.json()
                last = f"HTTP {response.status}"
        except (aiohttp.ClientError, asyncio.TimeoutError) as error:
            last = type(error).__name__
        await asyncio.sleep(0.25)
    raise OnboardError(f"Home Assistant at {url} did not answer /api/onboarding within {timeout:.0f} s (last: {last})")


async def token_works(session: aiohttp.ClientSession, url: str, token: str) -> bool:
    async with session.get(f"{url}/api/", headers={"Authorization": f"Bearer {token}"}) as response:
        return response.status == 200


async def onboard(session: aiohttp.ClientSession, url: str) -> str:
    """Onboards and returns a long-lived access token."""
    client_id = f"{url}/"
    async with session.post(
        f"{url}/api/onboarding/users",
        json={
            "client_id": client_id,
            "name": "cycletrack tests",
            "username": "cycletrack",
            "password": secrets.token_urlsafe(24),
            "language": "en",
        },
    ) as response:
        await _check(response, "POST /api/onboarding/users")
        auth_code = (await response.json())["auth_code"]
    async with session.post(
        f"{url}/auth/token",
        data={"grant_type": "authorization_code", "code": auth_code, "client_id": client_id},
    ) as response:
        await _check(response, "POST /auth/token")
        access_token = (await response.json())["access_token"]
    bearer = {"Authorization": f"Bearer {access_token}"}
    async with session.post(f"{url}/api/onboarding/analytics", headers=bearer) as response:
        await _check(response, "POST /api/onboarding/analytics")
    async with session.post(
        f"{url}/api/onboarding/integration",
        headers=bearer,
        json={"client_id": client_id, "redirect_uri": f"{url}/?auth_callback=1"},
    ) as response:
        await _check(response, "POST /api/onboarding/integration")
    async with session.ws_connect(f"{url}/api/websocket") as socket:
        hello = await socket.receive_json(timeout=10)
        if hello.get("type") != "auth_required":
            raise OnboardError(f"websocket: expected auth_required, got {hello.get('type')!r}")
        await socket.send_json({"type": "auth", "access_token": access_token})
        answer = await socket.receive_json(timeout=10)
        if answer.get("type") != "auth_ok":
            raise OnboardError(f"websocket: authentication refused ({answer.get('type')!r})")
        await socket.send_json(
            {"id": 1, "type": "auth/long_lived_access_token", "client_name": CLIENT_NAME, "lifespan": 3650}
        )
        result = await socket.receive_json(timeout=10)
        if not result.get("success"):
            raise OnboardError(f"websocket: no long-lived token: {result.get('error')}")
        return result["result"]


def write_secret(path: str, token: str) -> None:
    """Writes the token to path with mode 0600, atomically."""
    directory = os.path.dirname(os.path.abspath(path))
    descriptor, temporary = tempfile.mkstemp(dir=directory, prefix=".token-")
    try:
        os.fchmod(descriptor, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(token)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def read_secret(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8") as file:
            return file.read().strip() or None
    except FileNotFoundError:
        return None


async def run(url: str, token_file: str, timeout: float) -> str:
    async with aiohttp.ClientSession() as session:
        steps = await wait_ready(session, url, timeout)
        user_done = any(step.get("step") == "user" and step.get("done") for step in steps)
        if user_done:
            existing = read_secret(token_file)
            if existing and await token_works(session, url, existing):
                return f"already onboarded; the token in {token_file} works"
            raise OnboardError(
                f"{url} is already onboarded and {token_file} holds no token it accepts; "
                "start from a fresh config directory"
            )
        token = await onboard(session, url)
        if not await token_works(session, url, token):
            raise OnboardError("the new long-lived token is refused by /api/")
        write_secret(token_file, token)
        return f"onboarded; long-lived token written to {token_file} (mode 0600)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", required=True, help="http://127.0.0.1:PORT")
    parser.add_argument("--token-file", required=True, help="where to write the long-lived token (0600)")
    parser.add_argument("--timeout", type=float, default=90, help="seconds to wait for HA to answer")
    arguments = parser.parse_args()
    try:
        print("onboard:", asyncio.run(run(arguments.url.rstrip("/"), arguments.token_file, arguments.timeout)))
    except (OnboardError, aiohttp.ClientError, asyncio.TimeoutError, KeyError) as error:
        print(f"onboard: FAILED: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
