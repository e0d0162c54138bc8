"""The cycletrack service a test talks to: the contract stand-in, or the real binary.

Both are real HTTP servers on 127.0.0.1 and are driven the same way: a test plays a
cycle, stops and starts the service, and reads what the service did, through these
methods only, so every test runs against either.
"""

from __future__ import annotations

from typing import Any, Protocol

import aiohttp

from .contract_server import ContractServer, appliance_body

LINKED = "dishwasher"
OWN = "dryer"


class ServiceUnderTest(Protocol):
    """What a test may do with the service."""

    url: str
    api_key: str
    instance_id: str
    # The appliance that belongs to another integration's device, and one that doesn't.
    linked_appliance: str
    own_appliance: str

    async def start(self) -> None:
        """Start (again, on the same address and data)."""

    async def stop(self) -> None:
        """Stop: the event streams break off."""

    async def close(self) -> None:
        """Stop for good, with whatever stands in for Home Assistant."""

    async def start_cycle(self, appliance_id: str, program: str, progress: int) -> None:
        """Start a program on an appliance."""

    async def set_progress(self, appliance_id: str, progress: int) -> None:
        """Advance a running cycle."""

    async def finish_cycle(self, appliance_id: str) -> None:
        """Finish a running cycle."""

    async def ended_activities(self, appliance_id: str) -> int:
        """How many times the Live Activity was ended on request."""

    async def unloaded(self, appliance_id: str) -> int:
        """How many times the service was told the appliance was unloaded."""


async def read_appliance(service: ServiceUnderTest, appliance_id: str) -> dict[str, Any]:
    """GET the appliance straight from the service (not through Home Assistant)."""
    async with aiohttp.ClientSession() as session, session.get(
        f"{service.url}/api/v1/appliances/{appliance_id}",
        headers={"Authorization": f"Bearer {service.api_key}"},
    ) as response:
        response.raise_for_status()
        return await response.json()


class StandInService:
    """The contract stand-in (contract_server.py), driven directly."""

    linked_appliance = LINKED
    own_appliance = OWN

    def __init__(self, linked_device_id: str | None) -> None:
        """Return a dishwasher on the given HA device and a dryer of its own."""
        self.server = ContractServer(
            [
                appliance_body(LINKED, "Dishwasher", device_id=linked_device_id),
                appliance_body(OWN, "Dryer"),
            ]
        )
        self.api_key = self.server.api_key
        self.instance_id = self.server.instance_id

    @property
    def url(self) -> str:
        """The stand-in's address."""
        return self.server.url

    async def start(self) -> None:
        """Serve."""
        await self.server.start()

    async def stop(self) -> None:
        """Stop serving."""
        await self.server.stop()

    async def close(self) -> None:
        """Stop serving."""
        await self.server.stop()

    async def start_cycle(self, appliance_id: str, program: str, progress: int) -> None:
        """As the service reports a start: the appliance, then cycle_started."""
        at = "2026-12-01T18:00:00Z"
        self.server.update_appliance(
            appliance_id,
            state="running",
            running=True,
            live_activity_shown=True,
            awaits_unloading=False,
            program=program,
            progress=progress,
            started_at=at,
            finish="2026-12-01T20:15:00Z",
        )
        self.server.publish("cycle_started", {"appliance": appliance_id, "program": program, "at": at})

    async def set_progress(self, appliance_id: str, progress: int) -> None:
        """Return the appliance with its new progress."""
        self.server.update_appliance(appliance_id, progress=progress)

    async def finish_cycle(self, appliance_id: str) -> None:
        """Return the appliance finished, with its last cycle, then cycle_ended."""
        appliance = self.server.appliances[appliance_id]
        last = {
            "outcome": "finished",
            "ended_at": "2026-12-01T20:14:00Z",
            "duration_seconds": 8040,
            "energy_kwh": 0.9,
            "program": appliance["program"],
        }
        self.server.update_appliance(
            appliance_id,
            state="finished",
            running=False,
            live_activity_shown=False,
            awaits_unloading=True,
            progress=None,
            finish=None,
            started_at=None,
            last_cycle=last,
            energy_total_kwh=round(appliance["energy_total_kwh"] + 0.9, 3),
        )
        self.server.publish(
            "cycle_ended",
            {"appliance": appliance_id, "outcome": "finished", "duration_seconds": 8040, "energy_kwh": 0.9,
             "at": last["ended_at"]},
        )

    async def ended_activities(self, appliance_id: str) -> int:
        """Return the end_activity calls the stand-in accepted."""
        return self.server.ended_activities.count(appliance_id)

    async def unloaded(self, appliance_id: str) -> int:
        """Return the unloaded calls the stand-in accepted."""
        return self.server.unloaded.count(appliance_id)
