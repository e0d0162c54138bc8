"""The client of cycletrack's local API v1 (docs/API.md): requests and the event stream."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
import json
from typing import Any

import aiohttp
from yarl import URL

from .const import REQUEST_TIMEOUT_SECONDS, STREAM_IDLE_TIMEOUT_SECONDS
from .models import Appliance, ModelError, ServiceInfo


class CycletrackError(Exception):
    """Any failure talking to the service."""


class CannotConnect(CycletrackError):
    """The service can't be reached, or broke off."""


class ServiceStopped(CannotConnect):
    """The service ended its event stream: it is stopping (a restart, an update)."""


class ServiceUnreachable(CannotConnect):
    """Nothing answers at the service's address: it is not running (or can't be reached)."""


class InvalidAuth(CycletrackError):
    """The service refused the API key (401)."""


class ApiError(CycletrackError):
    """The service answered with an error body (`{"error", "message"}`)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        """Keep the status and the service's own code and message."""
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class StreamEvent:
    """One Server-Sent Event: its `event:` type and its decoded `data:`."""

    type: str
    data: Any


class CycletrackClient:
    """Talks to one cycletrack service over HTTP with its bearer key."""

    def __init__(self, session: aiohttp.ClientSession, url: str, api_key: str) -> None:
        """Use Home Assistant's shared session; `url` is the service's base URL."""
        self._session = session
        self._base = URL(url.rstrip("/") + "/")
        self._headers = {"Authorization": f"Bearer {api_key}"}
        self._timeout = aiohttp.ClientTimeout(total=REQUEST_TIMEOUT_SECONDS)

    @property
    def base_url(self) -> str:
        """The service's base URL (no key in it)."""
        return str(self._base)

    async def async_get_service(self) -> ServiceInfo:
        """GET /api/v1/service."""
        body = await self._request("GET", "api/v1/service")
        return self._read(lambda: ServiceInfo.from_dict(body), "api/v1/service")

    async def async_get_appliances(self) -> list[Appliance]:
        """GET /api/v1/appliances."""
        body = await self._request("GET", "api/v1/appliances")
        return self._read(lambda: [Appliance.from_dict(item) for item in body["appliances"]], "api/v1/appliances")

    async def async_update_settings(self, appliance_id: str, changes: dict[str, Any]) -> Appliance:
        """PATCH /api/v1/appliances/{id}/settings; the appliance with its new settings."""
        path = f"api/v1/appliances/{appliance_id}/settings"
        body = await self._request("PATCH", path, changes)
        return self._read(lambda: Appliance.from_dict(body), path)

    async def async_get_household(self) -> dict[str, Any]:
        """GET /api/v1/household: quiet hours and the people, in effect with their sources."""
        body = await self._request("GET", "api/v1/household")
        return self._read(lambda: _household(body), "api/v1/household")

    async def async_update_household(self, changes: dict[str, Any]) -> dict[str, Any]:
        """PATCH /api/v1/household/settings; the household with its new settings."""
        path = "api/v1/household/settings"
        body = await self._request("PATCH", path, changes)
        return self._read(lambda: _household(body), path)

    async def async_update_person(self, entity_id: str, changes: dict[str, Any]) -> dict[str, Any]:
        """PATCH /api/v1/people/{entity}/settings; the person with their new settings."""
        path = f"api/v1/people/{entity_id}/settings"
        body = await self._request("PATCH", path, changes)
        return self._read(lambda: _person(body), path)

    def _read[T](self, parse: Callable[[], T], path: str) -> T:
        """Return a body in the contract's shape, else a CycletrackError naming the URL and what is wrong."""
        try:
            return parse()
        except (ModelError, KeyError, TypeError, ValueError, AttributeError) as err:
            raise CycletrackError(f"{self.base_url}{path}: not the API's answer: {err}") from err

    async def async_announce(self) -> None:
        """PUT /api/v1/integration: the service takes its own REST states out of HA for good.

        It answers once none of them is left (503 `unavailable` while HA keeps one), so the
        entities made after it find their ids free (docs/API.md, "The integration").
        """
        await self._request("PUT", "api/v1/integration", {})

    async def async_withdraw(self) -> None:
        """DELETE /api/v1/integration: the integration is gone; the service posts its REST states again."""
        await self._request("DELETE", "api/v1/integration")

    async def async_end_activity(self, appliance_id: str) -> None:
        """POST /api/v1/appliances/{id}/end_activity (409 `no_activity`: nothing running)."""
        await self._request("POST", f"api/v1/appliances/{appliance_id}/end_activity", {})

    async def async_unloaded(self, appliance_id: str) -> None:
        """POST /api/v1/appliances/{id}/unloaded: its unload reminders stop."""
        await self._request("POST", f"api/v1/appliances/{appliance_id}/unloaded", {})

    async def async_events(self) -> AsyncIterator[StreamEvent]:
        """Follow GET /api/v1/events; ends (CannotConnect) when the stream breaks off."""
        timeout = aiohttp.ClientTimeout(
            total=None, connect=REQUEST_TIMEOUT_SECONDS, sock_read=STREAM_IDLE_TIMEOUT_SECONDS
        )
        headers = {**self._headers, "Accept": "text/event-stream"}
        try:
            async with self._session.get(
                self._base.join(URL("api/v1/events")), headers=headers, timeout=timeout
            ) as response:
                await _raise_for_status(response)
                async for event in _read_events(response.content):
                    yield event
        except (aiohttp.ClientError, TimeoutError) as err:
            raise CannotConnect(f"event stream from {self.base_url}: {err!r}") from err
        raise ServiceStopped(f"event stream from {self.base_url} ended: the service stopped")

    async def _request(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        try:
            async with self._session.request(
                method, self._base.join(URL(path)), headers=self._headers, json=body, timeout=self._timeout
            ) as response:
                await _raise_for_status(response)
                return await response.json(content_type=None)
        except aiohttp.ClientConnectorError as err:
            raise ServiceUnreachable(f"{method} {self.base_url}{path}: {err!r}") from err
        except (aiohttp.ClientError, TimeoutError) as err:
            raise CannotConnect(f"{method} {self.base_url}{path}: {err!r}") from err
        except ValueError as err:
            raise CycletrackError(f"{method} {self.base_url}{path}: {err}") from err


def _household(body: Any) -> dict[str, Any]:
    """Return the household in the contract's shape (KeyError, TypeError otherwise)."""
    if not isinstance(body, dict):
        raise TypeError("the household is not an object")
    if not isinstance(body["settings"]["quiet_hours"], str) or not isinstance(body["languages"], list):
        raise TypeError("quiet_hours or languages of the wrong type")
    for person in body["people"]:
        _person(person)
    return body


def _person(body: Any) -> dict[str, Any]:
    """Return a person in the contract's shape (KeyError, TypeError otherwise)."""
    if not isinstance(body, dict):
        raise TypeError("a person is not an object")
    if not isinstance(body["entity"], str) or not isinstance(body["settings"]["kinds"], list):
        raise TypeError("entity or kinds of the wrong type")
    return body


async def _raise_for_status(response: aiohttp.ClientResponse) -> None:
    if response.status < 400:
        return
    try:
        body = await response.json(content_type=None)
        code, message = str(body.get("error", "")), str(body.get("message", ""))
    except (ValueError, AttributeError, aiohttp.ClientError):
        code, message = "", ""
    if response.status == 401:
        raise InvalidAuth(f"{response.url.with_query(None)}: the service refused the API key")
    raise ApiError(response.status, code or response.reason or "error", message)


async def _read_events(content: aiohttp.StreamReader) -> AsyncIterator[StreamEvent]:
    """Parse text/event-stream: `event:` and `data:` lines, a blank line ends an event."""
    event_type, data_lines = "message", list[str]()
    async for raw in content:
        line = raw.decode("utf-8").rstrip("\r\n")
        if not line:
            if data_lines:
                data = "\n".join(data_lines)
                try:
                    yield StreamEvent(event_type, json.loads(data))
                except ValueError as err:
                    raise CycletrackError(f"event '{event_type}': data is not JSON: {data[:80]!r}") from err
            event_type, data_lines = "message", []
        elif line.startswith(":"):
            continue
        else:
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "event":
                event_type = value
            elif name == "data":
                data_lines.append(value)
