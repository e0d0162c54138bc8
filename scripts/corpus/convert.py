#!/usr/bin/env python3
"""Convert Home Assistant's own test data for real appliances into cycletrack's corpus fixtures.

What it reads
-------------
A directory laid out as ``<owner>+<repo>/<commit>/<path in the repository>``, holding files read
from public repositories at a known commit:

syrupy snapshots (``.ambr``) of home-assistant/core, e.g.
``home-assistant+core/<commit>/tests/components/miele/snapshots/test_sensor.ambr``: every
``EntityRegistryEntrySnapshot`` (entity id, platform, translation key, unique id, device
class, unit, options) with its ``StateSnapshot`` (state, and the effective device class).

The parser reads only the lines it needs (``'key': value`` lines of a block, an ``options``
list, the ``# name:`` line), so a whole snapshot file and an excerpt of its lines give the
same fixtures.

What it writes
--------------
One JSON file per device: ``<out>/<integration>/<device-slug>.json``::

    {"source": {"repository": "home-assistant/core", "commit": "<40 hex>", "paths": [...]},
     "integration": "miele",
     "device": {"name": "Washing machine", "manufacturer": "Miele", "model": null},
     "entities": [{"entity_id": ..., "platform": ..., "translation_key": ..., "unique_id": ...,
                   "original_device_class": ..., "device_class": ..., "unit": ...,
                   "options": [...] | null, "state": ...}]}

Entities are in the order the source lists them (the files in the order sensor, binary_sensor,
select, then the rest). A device is the set of entities whose unique ids share the device part
(``DEVICE_ID`` below, per integration). When a device's entities come from files at more than
one commit, ``source`` names the first and ``other_sources`` (same shape) the rest.

Fetching the sources again, and adding a later version
------------------------------------------------------
Read each file at its commit (the commits used are in every fixture's ``source``), e.g.::

    mkdir -p src/home-assistant+core/<commit>/tests/components/miele/snapshots
    curl -L https://raw.githubusercontent.com/home-assistant/core/<commit>/tests/components/miele/snapshots/test_sensor.ambr \\
         -o src/home-assistant+core/<commit>/tests/components/miele/snapshots/test_sensor.ambr
    python3 scripts/corpus/convert.py src Tests/HomeAssistantAPITests/Fixtures/RealDevices

Files used for the committed corpus (repository, path, commit):

    home-assistant/core tests/components/miele/snapshots/test_sensor.ambr           01b2d0a28a9e7f259926ad20367791f8d009be53
    home-assistant/core tests/components/miele/snapshots/test_binary_sensor.ambr    12c7568b51a3520add64df76c74cb6cb15297728
    home-assistant/core tests/components/lg_thinq/snapshots/test_oven_sensor.ambr   d0ff976c65b555fccc75bf3f52a4746e985674b0
    home-assistant/core tests/components/lg_thinq/snapshots/test_select.ambr        7c5da48e5c3b25e0f44038b8e31ec972ffc703e3
    home-assistant/core tests/components/lg_thinq/snapshots/test_sensor.ambr        048e64290edff4f824bd5c797d08fb98515d43dd
    home-assistant/core tests/components/smartthings/snapshots/test_sensor.ambr     0113741e9516180a300e3f104e4b7b0e0d1271d3
    home-assistant/core tests/components/whirlpool/snapshots/test_sensor.ambr       0d2fdc3e0969a4aefcf5f3c624ea342729189d8a
    home-assistant/core tests/components/whirlpool/snapshots/test_binary_sensor.ambr 1967971f91502df372afbdce4dddcbc8275b7510
    home-assistant/core tests/components/home_connect/snapshots/test_sensor.ambr    1c7dd99eb40fd21599d881731ded198776e14dfa
    (the README beside the fixtures lists them with the devices each gave)

To add a later version: put its files under their new commit directory and run the script again
(with ``--only <integration>`` to leave other brands untouched). A device found again overwrites
its fixture; review the diff, then the truth file ``expected.json`` for new or changed devices.
Python 3 standard library only.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections import OrderedDict

MANUFACTURER = {"miele": "Miele", "lg_thinq": "LG"}

# The device part of a unique id, per integration (how each integration builds its unique ids).
_LG_DEVICE = re.compile(r"^([A-Z0-9]+-[0-9A-Fa-f]{8}(?:-[0-9A-Fa-f]{4}){3}-[0-9A-Fa-f]{12})_")
_UUID = re.compile(r"^([0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12})")


def _device_id(integration: str, unique_id: str) -> str:
    if integration == "lg_thinq":
        m = _LG_DEVICE.match(unique_id)
        return m.group(1) if m else unique_id.split("_", 1)[0]
    if integration == "smartthings":
        m = _UUID.match(unique_id)
        return m.group(1) if m else unique_id.split("_", 1)[0]
    if integration == "home_connect":
        return unique_id.rsplit("-", 1)[0]
    return unique_id.split("-", 1)[0]  # miele "<serial>-<key>", whirlpool "<said>-<key>"


class SnapshotError(ValueError):
    pass


_NAME = re.compile(r"^# name: (?P<test>[^\[]+)(?P<params>(?:\[[^\]]*\])*?)\[(?P<eid>[a-z_]+\.[^\]\[]+)-(?P<kind>entry|state)\]\s*$")
_KEY = re.compile(r"^\s*(?:'(?P<k1>[a-z_]+)'|<[A-Za-z]+\.[A-Z_]+: '(?P<k2>[a-z_]+)'>): (?P<v>.*?),?\s*$")


def _value(raw: str, where: str):
    raw = raw.strip().rstrip(",")
    if raw == "None":
        return None
    if raw in ("True", "False"):
        return raw == "True"
    m = re.fullmatch(r"<[A-Za-z0-9_]+\.[A-Za-z0-9_]+: (.+)>", raw)
    if m:
        raw = m.group(1)
    if raw.startswith(("'", '"')):
        return _string(raw, where)
    if re.fullmatch(r"-?\d+(\.\d+)?", raw):
        return raw
    return raw  # dict(...), list(...), <ANY>: not a scalar the corpus uses


def _string(raw: str, where: str) -> str:
    q = raw[0]
    if len(raw) < 2 or raw[-1] != q:
        raise SnapshotError(f"{where}: unterminated string {raw!r}")
    body = raw[1:-1]
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


def parse_ambr(text: str, path: str) -> list[dict]:
    """Entities of one snapshot file, in file order: entry fields merged with their state."""
    blocks: list[tuple[dict, list[str], int]] = []
    current = None
    for number, line in enumerate(text.splitlines(), 1):
        m = _NAME.match(line)
        if m:
            current = (m.groupdict(), [], number)
            blocks.append(current)
        elif line.startswith("# ---"):
            current = None
        elif current is not None:
            current[1].append(line)
    entities: "OrderedDict[str, dict]" = OrderedDict()
    for head, lines, number in blocks:
        where = f"{path}:{number}"
        fields, options = _fields(lines, where)
        params = re.findall(r"\[([^\]]*)\]", head["params"] or "")
        e = entities.setdefault(head["eid"], {"entity_id": head["eid"], "params": params})
        if head["kind"] == "entry":
            e.update(entry=fields, entry_options=options, where=where)
        else:
            e.update(state_fields=fields, state_options=options)
    out = []
    for eid, e in entities.items():
        if "entry" not in e:
            continue  # a state without its registry entry is not an entity the corpus can use
        entry, state = e["entry"], e.get("state_fields", {})
        if entry.get("entity_id") not in (None, eid):
            raise SnapshotError(f"{e['where']}: block named {eid} holds entity_id {entry.get('entity_id')}")
        for key in ("platform", "unique_id"):
            if not isinstance(entry.get(key), str):
                raise SnapshotError(f"{e['where']}: entity {eid} has no {key}")
        out.append({
            "entity_id": eid,
            "platform": entry["platform"],
            "translation_key": entry.get("translation_key"),
            "unique_id": entry["unique_id"],
            "original_device_class": entry.get("original_device_class"),
            "device_class": state.get("device_class", entry.get("device_class") or entry.get("original_device_class")),
            "unit": entry.get("unit_of_measurement"),
            "options": e["entry_options"] if e["entry_options"] is not None else e.get("state_options"),
            "state": state.get("state"),
            "_original_name": entry.get("original_name"),
            "_friendly_name": state.get("friendly_name"),
            "_params": e["params"],
        })
    return out


def _fields(lines: list[str], where: str) -> tuple[dict, list | None]:
    """The scalar 'key': value lines of a block (any depth), and its options list if any."""
    fields: dict = {}
    options = None
    i = 0
    while i < len(lines):
        line = lines[i]
        m = _KEY.match(line)
        if m:
            key = m.group("k1") or m.group("k2")
            raw = m.group("v")
            if key == "options" and raw.startswith("list(["):
                options, i = _list(lines, i + 1, where)
                continue
            if not raw.endswith("({") and key not in fields:
                fields[key] = _value(raw, where)
        i += 1
    return fields, options


def _list(lines: list[str], i: int, where: str) -> tuple[list, int]:
    items = []
    while i < len(lines):
        s = lines[i].strip()
        if s.startswith("])"):
            return items, i + 1
        items.append(_value(s, where))
        i += 1
    raise SnapshotError(f"{where}: options list not closed")


FILE_ORDER = ("test_sensor", "test_binary_sensor", "test_select")


def _file_rank(path: str) -> tuple:
    base = os.path.basename(path).rsplit(".", 1)[0]
    return (FILE_ORDER.index(base) if base in FILE_ORDER else len(FILE_ORDER), base, path)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _device_name(entities: list[dict]) -> str:
    for e in entities:
        if e["_original_name"] is None and e["_friendly_name"]:
            return e["_friendly_name"]
    for e in entities:
        f, o = e["_friendly_name"], e["_original_name"]
        if f and o and f.endswith(" " + o):
            return f[: -len(o) - 1]
    prefix = os.path.commonprefix([e["entity_id"].split(".", 1)[1] for e in entities]).rstrip("_")
    return prefix.replace("_", " ").capitalize()


def collect_ambr(root: str, only: set[str] | None) -> dict:
    """(integration, device id) -> {"entities": [...], "sources": [(repo, commit, path)], "params": [...]}"""
    found = []
    for dirpath, _, files in os.walk(root):
        for name in files:
            if name.endswith(".ambr"):
                full = os.path.join(dirpath, name)
                rel = os.path.relpath(full, root).split(os.sep)
                if len(rel) < 3 or "+" not in rel[0] or not re.fullmatch(r"[0-9a-f]{40}", rel[1]):
                    raise SnapshotError(f"{full}: not under <owner>+<repo>/<40-hex commit>/")
                found.append((rel[0].replace("+", "/", 1), rel[1], "/".join(rel[2:]), full))
    if not found:
        raise SnapshotError(f"{root}: no .ambr snapshot under <owner>+<repo>/<commit>/")
    found.sort(key=lambda f: _file_rank(f[2]))
    devices: "OrderedDict[tuple, dict]" = OrderedDict()
    for repo, commit, path, full in found:
        with open(full, encoding="utf-8") as fh:
            for e in parse_ambr(fh.read(), full):
                integration = e["platform"]
                if only and integration not in only:
                    continue
                d = devices.setdefault((integration, _device_id(integration, e["unique_id"])),
                                       {"entities": [], "sources": [], "params": []})
                d["entities"].append(e)
                if (repo, commit, path) not in d["sources"]:
                    d["sources"].append((repo, commit, path))
                d["params"] += [p for p in e["_params"] if p not in d["params"] and not p.startswith("platforms")]
    return devices


def _source_groups(sources: list[tuple]) -> list[dict]:
    groups: "OrderedDict[tuple, list]" = OrderedDict()
    for repo, commit, path in sources:
        groups.setdefault((repo, commit), []).append(path)
    return [{"repository": r, "commit": c, "paths": p} for (r, c), p in groups.items()]


def fixture(integration: str, d: dict, model: str | None = None, manufacturer: str | None = None) -> tuple[str, dict]:
    name = _device_name(d["entities"])
    slug = _slug(d["params"][0]) if d["params"] else _slug(name)
    groups = _source_groups(d["sources"])
    doc = {"source": groups[0]}
    if len(groups) > 1:
        doc["other_sources"] = groups[1:]
    doc["integration"] = integration
    doc["device"] = {"name": name, "manufacturer": manufacturer or MANUFACTURER.get(integration), "model": model}
    doc["entities"] = [{k: v for k, v in e.items() if not k.startswith("_")} for e in d["entities"]]
    return slug, doc


def write(out: str, integration: str, slug: str, doc: dict, written: set) -> str:
    path = os.path.join(out, integration, slug + ".json")
    if path in written:
        raise SnapshotError(f"two devices of {integration} would both be written to {path}")
    written.add(path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(doc, fh, indent=1, ensure_ascii=False)
        fh.write("\n")
    return path


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("source_dir")
    ap.add_argument("out_dir")
    ap.add_argument("--only", action="append", help="integration to convert (repeatable)")
    args = ap.parse_args(argv)
    only = set(args.only) if args.only else None
    written: set = set()
    try:
        for (integration, _), d in collect_ambr(args.source_dir, only).items():
            slug, doc = fixture(integration, d)
            print(write(args.out_dir, integration, slug, doc, written))
    except (SnapshotError, OSError, json.JSONDecodeError) as error:
        print(f"convert.py: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
