#!/usr/bin/env python3
"""Prints the requirements of every integration Home Assistant loads for a config dir,
one per line, so they can be installed before `hass --skip-pip` starts offline.

    <venv>/bin/python scripts/ha/requirements_closure.py --config CONFIG_DIR

Starts from the config's top-level keys, the integrations HA always loads (every set
of domains named *INTEGRATIONS in homeassistant.bootstrap), mobile_app (tests that go
as far as a phone) and the custom integrations in CONFIG_DIR/custom_components; follows
each manifest's `dependencies` and `after_dependencies`. Custom integrations shadow core
ones of the same name. Works for any HA version (run with that version's python).
"""
from __future__ import annotations

import argparse
import json
import os
import sys

import yaml
from homeassistant import bootstrap
import homeassistant.components

EXTRA_DOMAINS = {"mobile_app"}


def always_loaded() -> set[str]:
    domains: set[str] = set()
    for name in dir(bootstrap):
        value = getattr(bootstrap, name)
        if name.endswith("INTEGRATIONS") and isinstance(value, (set, frozenset, list, tuple)):
            domains.update(item for item in value if isinstance(item, str))
    return domains


def configured(config_dir: str) -> set[str]:
    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("!", lambda loader, suffix, node: None)
    with open(os.path.join(config_dir, "configuration.yaml"), encoding="utf-8") as file:
        config = yaml.load(file, Loader=Loader) or {}
    return {key.split(" ")[0] for key in config}


def manifests(config_dir: str) -> dict[str, dict]:
    found: dict[str, dict] = {}
    for base in (os.path.dirname(homeassistant.components.__file__), os.path.join(config_dir, "custom_components")):
        if not os.path.isdir(base):
            continue
        for domain in os.listdir(base):
            path = os.path.join(base, domain, "manifest.json")
            if os.path.isfile(path):
                with open(path, encoding="utf-8") as file:
                    found[domain] = json.load(file)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", required=True, help="the HA config dir")
    args = parser.parse_args()
    known = manifests(args.config)
    custom_dir = os.path.join(args.config, "custom_components")
    start = always_loaded() | configured(args.config) | EXTRA_DOMAINS
    if os.path.isdir(custom_dir):
        start |= set(os.listdir(custom_dir))
    todo, seen, requirements = sorted(start), set(), set()
    while todo:
        domain = todo.pop()
        if domain in seen or domain not in known:
            continue
        seen.add(domain)
        manifest = known[domain]
        requirements.update(manifest.get("requirements", []))
        todo.extend(manifest.get("dependencies", []) + manifest.get("after_dependencies", []))
    print("\n".join(sorted(requirements)))
    print(f"requirements_closure: {len(requirements)} requirements from {len(seen)} integrations", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
