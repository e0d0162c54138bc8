"""What Assist answers about an appliance's cycle, in English and German (a value: no Home Assistant state).

assist.py finds the appliances a question names and says what `answer` returns. Times are
the service's `finish` (the finish time the phone shows) and the last cycle's end, in Home
Assistant's time zone, HH:MM.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo

from .models import Appliance


@dataclass(frozen=True, slots=True)
class Wording:
    """One language's phrases: `{name}`, `{program}`, `{time}`, `{left}`, `{when}`, `{spoken}` filled in."""

    states: dict[str, str]
    state_default: str
    progress: str
    finish_ahead: str
    finish_due: str
    no_finish: str
    idle_no_last: str
    idle_last: str
    outcomes: dict[str, str]
    outcome_other: str
    today: str
    yesterday: str
    on_day: str
    day_format: str
    unknown_time: str
    unknown: str
    # Words dropped before a spoken name ("the dishwasher", "die Spülmaschine").
    articles: tuple[str, ...]


ENGLISH = Wording(
    states={"paused": "is paused", "action_required": "needs attention", "unavailable": "is unavailable"},
    state_default="is running",
    progress=", {progress} % done",
    finish_ahead="It will be done at {time}, in {left}.",
    finish_due="It was due at {time}.",
    no_finish="It hasn't said when it will be done.",
    idle_no_last="{name} is not running and has no finished cycle yet.",
    idle_last="{name} is not running. Its last cycle{program} {outcome}.",
    outcomes={
        "finished": "finished {when}",
        "aborted": "was aborted {when}",
        "failed": "failed {when}",
        "lost": "was lost {when}",
    },
    outcome_other="ended {when} ({outcome})",
    today="today at {time}",
    yesterday="yesterday at {time}",
    on_day="on {day} at {time}",
    day_format="%Y-%m-%d",
    unknown_time="at an unknown time",
    unknown="cycletrack knows no appliance or area called {spoken}.",
    articles=("the", "my", "our"),
)

GERMAN = Wording(
    states={"paused": "ist pausiert", "action_required": "braucht Aufmerksamkeit", "unavailable": "ist nicht erreichbar"},
    state_default="läuft",
    progress=", {progress} % geschafft",
    finish_ahead="Fertig um {time} Uhr, in {left}.",
    finish_due="Es sollte um {time} Uhr fertig sein.",
    no_finish="Wann es fertig ist, meldet es nicht.",
    idle_no_last="{name} läuft nicht und hat noch keinen Durchgang beendet.",
    idle_last="{name} läuft nicht. Der letzte Durchgang{program} {outcome}.",
    outcomes={
        "finished": "war {when} fertig",
        "aborted": "wurde {when} abgebrochen",
        "failed": "ist {when} fehlgeschlagen",
        "lost": "ging {when} verloren",
    },
    outcome_other="endete {when} ({outcome})",
    today="heute um {time} Uhr",
    yesterday="gestern um {time} Uhr",
    on_day="am {day} um {time} Uhr",
    day_format="%d.%m.%Y",
    unknown_time="zu unbekannter Zeit",
    unknown="cycletrack kennt kein Gerät und keinen Bereich namens {spoken}.",
    articles=("der", "die", "das", "den", "dem", "mein", "meine", "meinen", "unser", "unsere", "unseren"),
)


def wording(language: str) -> Wording:
    """German for `de` and its variants (de-CH), English for every other language."""
    return GERMAN if language.lower().split("-")[0].split("_")[0] == "de" else ENGLISH


def bare(spoken: str, words: Wording) -> str:
    """Return the spoken name as said, without spaces and punctuation at its ends nor a leading article."""
    text = " ".join(spoken.strip(" \t.,!?¿¡\"'").split())
    for article in (*words.articles, *ENGLISH.articles):
        if text.casefold().startswith(f"{article} "):
            return text[len(article) + 1 :]
    return text


def matches(spoken: str, names: list[str], words: Wording) -> bool:
    """Whether the spoken name is one of `names` (case, spaces and a leading article aside)."""
    wanted = bare(spoken, words).casefold()
    return any(bare(name, words).casefold() == wanted for name in names if name)


def _duration(left: timedelta) -> str:
    minutes = max(1, round(left.total_seconds() / 60))
    hours, minutes = divmod(minutes, 60)
    if hours == 0:
        return f"{minutes} min"
    return f"{hours} h" if minutes == 0 else f"{hours} h {minutes} min"


def _when(at: datetime | None, now: datetime, zone: tzinfo, words: Wording) -> str:
    if at is None:
        return words.unknown_time
    local, today = at.astimezone(zone), now.astimezone(zone).date()
    time = local.strftime("%H:%M")
    if local.date() == today:
        return words.today.format(time=time)
    if local.date() == today - timedelta(days=1):
        return words.yesterday.format(time=time)
    return words.on_day.format(day=local.strftime(words.day_format), time=time)


def _running(appliance: Appliance, name: str, now: datetime, zone: tzinfo, words: Wording) -> str:
    head = f"{name} {words.states.get(appliance.state, words.state_default)}"
    if appliance.program:
        head += f": {appliance.program}"
    if appliance.progress is not None:
        head += words.progress.format(progress=round(appliance.progress))
    if appliance.finish is None:
        tail = words.no_finish
    elif appliance.finish > now:
        time = appliance.finish.astimezone(zone).strftime("%H:%M")
        tail = words.finish_ahead.format(time=time, left=_duration(appliance.finish - now))
    else:
        tail = words.finish_due.format(time=appliance.finish.astimezone(zone).strftime("%H:%M"))
    return f"{head}. {tail}"


def answer(appliance: Appliance, name: str, now: datetime, zone: tzinfo, words: Wording) -> str:
    """Say where `appliance` (called `name`) is: its running cycle, else how its last one ended."""
    if appliance.running:
        return _running(appliance, name, now, zone, words)
    last = appliance.last_cycle
    if last is None:
        return words.idle_no_last.format(name=name)
    when = _when(last.ended_at, now, zone, words)
    template = words.outcomes.get(last.outcome, words.outcome_other)
    return words.idle_last.format(
        name=name,
        program=f" ({last.program})" if last.program else "",
        outcome=template.format(when=when, outcome=last.outcome),
    )


def unknown(spoken: str, words: Wording) -> str:
    """Say that nothing is called `spoken` (as spoken, without its article)."""
    return words.unknown.format(spoken=bare(spoken, words))
