"""What Assist says about a cycle (answers.py), as a table: each state and language, at a fixed now."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from custom_components.cycletrack.answers import (
    ENGLISH,
    GERMAN,
    answer,
    bare,
    matches,
    unknown,
    wording,
)
from custom_components.cycletrack.models import Appliance

BERLIN = ZoneInfo("Europe/Berlin")
# 19:30 in Berlin.
NOW = datetime.fromisoformat("2026-12-01T18:30:00+00:00")


def appliance(**changes: Any) -> Appliance:
    """Return a dishwasher as the API sends it, with `changes`."""
    body: dict[str, Any] = {
        "id": "dishwasher",
        "name": "Dishwasher",
        "state": "idle",
        "running": False,
        "settings": {"progress_steps": {}},
    }
    return Appliance.from_dict(body | changes)


RUNNING = {"state": "running", "running": True, "program": "Eco 50°C", "progress": 42.4}


def last(outcome: str, ended_at: str | None, program: str | None = "Eco 50°C") -> dict[str, Any]:
    """Return a last_cycle object."""
    return {"outcome": outcome, "ended_at": ended_at, "program": program}


CASES = [
    (
        RUNNING | {"finish": "2026-12-01T20:15:00Z"},
        "Dishwasher is running: Eco 50°C, 42 % done. It will be done at 21:15, in 1 h 45 min.",
        "Dishwasher läuft: Eco 50°C, 42 % geschafft. Fertig um 21:15 Uhr, in 1 h 45 min.",
    ),
    (
        RUNNING | {"finish": "2026-12-01T18:50:00Z", "state": "paused"},
        "Dishwasher is paused: Eco 50°C, 42 % done. It will be done at 19:50, in 20 min.",
        "Dishwasher ist pausiert: Eco 50°C, 42 % geschafft. Fertig um 19:50 Uhr, in 20 min.",
    ),
    (
        RUNNING | {"finish": "2026-12-01T20:30:00Z", "program": None, "progress": None, "state": "action_required"},
        "Dishwasher needs attention. It will be done at 21:30, in 2 h.",
        "Dishwasher braucht Aufmerksamkeit. Fertig um 21:30 Uhr, in 2 h.",
    ),
    (
        RUNNING | {"finish": "2026-12-01T18:00:00Z"},
        "Dishwasher is running: Eco 50°C, 42 % done. It was due at 19:00.",
        "Dishwasher läuft: Eco 50°C, 42 % geschafft. Es sollte um 19:00 Uhr fertig sein.",
    ),
    (
        RUNNING | {"finish": None, "state": "starting"},
        "Dishwasher is running: Eco 50°C, 42 % done. It hasn't said when it will be done.",
        "Dishwasher läuft: Eco 50°C, 42 % geschafft. Wann es fertig ist, meldet es nicht.",
    ),
    (
        {},
        "Dishwasher is not running and has no finished cycle yet.",
        "Dishwasher läuft nicht und hat noch keinen Durchgang beendet.",
    ),
    (
        {"state": "finished", "last_cycle": last("finished", "2026-12-01T17:14:00Z")},
        "Dishwasher is not running. Its last cycle (Eco 50°C) finished today at 18:14.",
        "Dishwasher läuft nicht. Der letzte Durchgang (Eco 50°C) war heute um 18:14 Uhr fertig.",
    ),
    (
        {"last_cycle": last("aborted", "2026-11-30T22:05:00Z", program=None)},
        "Dishwasher is not running. Its last cycle was aborted yesterday at 23:05.",
        "Dishwasher läuft nicht. Der letzte Durchgang wurde gestern um 23:05 Uhr abgebrochen.",
    ),
    (
        {"last_cycle": last("failed", "2026-11-20T08:00:00Z")},
        "Dishwasher is not running. Its last cycle (Eco 50°C) failed on 2026-11-20 at 09:00.",
        "Dishwasher läuft nicht. Der letzte Durchgang (Eco 50°C) ist am 20.11.2026 um 09:00 Uhr fehlgeschlagen.",
    ),
    (
        {"last_cycle": last("lost", None)},
        "Dishwasher is not running. Its last cycle (Eco 50°C) was lost at an unknown time.",
        "Dishwasher läuft nicht. Der letzte Durchgang (Eco 50°C) ging zu unbekannter Zeit verloren.",
    ),
    (
        {"last_cycle": last("interrupted", "2026-12-01T18:29:00Z")},
        "Dishwasher is not running. Its last cycle (Eco 50°C) ended today at 19:29 (interrupted).",
        "Dishwasher läuft nicht. Der letzte Durchgang (Eco 50°C) endete heute um 19:29 Uhr (interrupted).",
    ),
]


@pytest.mark.parametrize(("changes", "english", "german"), CASES)
def test_answer(changes: dict[str, Any], english: str, german: str) -> None:
    """Running (with and without a finish time, past due), paused, and each way a last cycle ended."""
    assert answer(appliance(**changes), "Dishwasher", NOW, BERLIN, ENGLISH) == english
    assert answer(appliance(**changes), "Dishwasher", NOW, BERLIN, GERMAN) == german


@pytest.mark.parametrize(
    ("language", "expected"),
    [("de", GERMAN), ("de-CH", GERMAN), ("de_AT", GERMAN), ("DE", GERMAN), ("en", ENGLISH), ("fr", ENGLISH), ("", ENGLISH)],
)
def test_wording(language: str, expected: object) -> None:
    """German for German and its variants; English for the rest."""
    assert wording(language) is expected


@pytest.mark.parametrize(
    ("spoken", "words", "names", "expected"),
    [
        ("the dishwasher", ENGLISH, ["Dishwasher"], True),
        ("  Dish   washer? ", ENGLISH, ["dish washer"], True),
        ("die Spülmaschine", GERMAN, ["Kitchen", "Spülmaschine"], True),
        ("the Spülmaschine", GERMAN, ["Spülmaschine"], True),
        ("theater", ENGLISH, ["ater"], False),
        ("dryer", ENGLISH, ["Dishwasher", ""], False),
        ("dryer", ENGLISH, [], False),
    ],
)
def test_matches(spoken: str, words: Any, names: list[str], expected: bool) -> None:
    """A name matches whatever its case, spaces, end punctuation and leading article (English's too)."""
    assert matches(spoken, names, words) is expected


def test_unknown_says_what_was_asked() -> None:
    """As spoken, without the article."""
    assert bare("The  Oven!", ENGLISH) == "Oven"
    assert unknown("the Oven", ENGLISH) == "cycletrack knows no appliance or area called Oven."
    assert unknown("den Ofen", GERMAN) == "cycletrack kennt kein Gerät und keinen Bereich namens Ofen."


def test_the_docs_show_what_assist_says() -> None:
    """docs/INTEGRATION.md's "Assist" table: each answer is what answers.py says for its case."""
    docs = (Path(__file__).resolve().parents[3] / "docs/INTEGRATION.md").read_text()
    running = appliance(**CASES[0][0])
    dryer = appliance(name="Dryer", last_cycle=last("finished", "2026-12-01T17:14:00Z", program="Cotton"))
    for said in (
        answer(running, "Dishwasher", NOW, BERLIN, ENGLISH),
        answer(running, "Spülmaschine", NOW, BERLIN, GERMAN),
        answer(dryer, "Dryer", NOW, BERLIN, ENGLISH),
        unknown("der Ofen", GERMAN),
    ):
        assert f"| {said} |" in docs
