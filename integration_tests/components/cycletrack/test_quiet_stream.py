"""The service's event stream through quiet spells, on the libmicrohttpd Home Assistant's root has."""

from __future__ import annotations

import asyncio

import aiohttp

from .real_service import RealService

KEEPALIVES = 2
DEADLINE_SECONDS = 60


async def test_a_quiet_event_stream_stays_open(real_service: RealService) -> None:
    """Nothing happens: a keepalive every 15 s, and the stream stays open past each.

    The binary runs in the Debian forky root, on libmicrohttpd 1.0, which cut a stream at
    its first keepalive while the server's idle timeout was shorter than the quiet spell.
    """
    seen: list[str] = []

    async def read() -> None:
        async with aiohttp.ClientSession() as session, session.get(
            f"{real_service.url}/api/v1/events",
            headers={"Authorization": f"Bearer {real_service.api_key}", "Accept": "text/event-stream"},
        ) as response:
            assert response.status == 200
            async for raw in response.content:
                line = raw.decode().strip()
                if line:
                    seen.append(line)
                if seen.count(": keepalive") == KEEPALIVES:
                    return
            raise AssertionError(f"the stream ended after {seen}")

    await asyncio.wait_for(read(), DEADLINE_SECONDS)
    assert seen[0] == "event: snapshot"
