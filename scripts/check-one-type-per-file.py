#!/usr/bin/env python3
"""Fails when a Swift file of the service's layers declares more than one public top-level
type (class, struct, enum, protocol, actor, typealias), or one not named after the file
(`Name.swift`, or `Name+Aspect.swift` beside it), so that a reader finds any type by its
name in one step. Types nested inside their owner don't count; `extension` files declare
none. The layers checked are those around the pure core: the service, the local API,
the history page and the commands."""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ["CycleService", "ServiceAPI", "HistoryWeb", "CycleCommands"]
# Files being reworked elsewhere when this check came in (issue 31: the publisher's split,
# item 3; the settings declared once, item 6); each comes off this list with its rework.
KNOWN: set[str] = set()
TOP = re.compile(
    r"^(?:@\w+(?:\([^)]*\))?\s+)*(?:public|open)\s+(?:(?:final|indirect|nonisolated)\s+)*"
    r"(?:class|struct|enum|protocol|actor|typealias)\s+(\w+)"
)


def public_types(path):
    """The public types declared at the top level of `path` (no indentation)."""
    names = []
    in_block = False
    for line in path.read_text().splitlines():
        if line.count('"""') % 2 == 1:
            in_block = not in_block
            continue
        if not in_block and (match := TOP.match(line)):
            names.append(match.group(1))
    return names


def problem(path):
    """What is wrong with `path`'s public types, or None."""
    names = public_types(path)
    if len(names) > 1:
        return f"{len(names)} public types: {', '.join(names)}"
    if names and names[0] != path.stem.split("+")[0]:
        return f"public type {names[0]} in a file not named after it"
    return None


def main():
    bad = []
    for layer in LAYERS:
        for path in sorted((ROOT / "Sources" / layer).rglob("*.swift")):
            relative = str(path.relative_to(ROOT))
            if relative not in KNOWN and (what := problem(path)):
                bad.append(f"{relative}: {what}")
    for entry in bad:
        print(entry)
    stale = [name for name in sorted(KNOWN) if not (ROOT / name).exists() or problem(ROOT / name) is None]
    for name in stale:
        print(f"{name}: listed as a known exception but passes: take it off the list")
    if bad or stale:
        print(f"{len(bad)} file(s) breaking one public type per file, {len(stale)} stale exception(s)", file=sys.stderr)
        return 1
    print(f"one public type per file in Sources/{{{','.join(LAYERS)}}} ({len(KNOWN)} known exceptions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
