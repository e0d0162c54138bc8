"""What Home Assistant's hassfest checks of a custom integration's files, without HA's repository.

Run by scripts/ha/integration-checks.sh with the integration test venv's Python (it reads
Home Assistant's own `homeassistant/strings.json` for the `[%key:common::...%]` references).
Checks, in our words, of hassfest's manifest, translations and HACS rules:

- manifest.json: `domain` first and `name` second, the rest sorted; only keys HA knows; the
  required keys of a custom integration (`version` a valid version, `codeowners`,
  `documentation`, `issue_tracker`); `iot_class`, `integration_type` from HA's lists; the
  domain is the folder's name; lists of strings where HA wants lists.
- hacs.json: only the keys HACS knows, `name` present, `homeassistant` a version.
- strings.json: only the sections HA knows; translations/en.json is strings.json with every
  `[%key:...%]` reference resolved (to our own strings or HA's common ones); every
  `translation_key`, error and abort reason the code uses is in strings.json.

Prints each problem and exits 1 when there is one.
"""

from __future__ import annotations

import json
from pathlib import Path
import re
import sys
from typing import Any

REPO = Path(__file__).resolve().parents[2]
COMPONENT = REPO / "custom_components/cycletrack"

MANIFEST_KEYS = {
    "domain", "name", "after_dependencies", "bluetooth", "codeowners", "config_flow", "dependencies",
    "dhcp", "disabled", "documentation", "homekit", "import_executor", "integration_type", "iot_class",
    "issue_tracker", "loggers", "mqtt", "quality_scale", "requirements", "single_config_entry", "ssdp",
    "usb", "version", "zeroconf",
}
IOT_CLASSES = {"assumed_state", "calculated", "cloud_polling", "cloud_push", "local_polling", "local_push"}
INTEGRATION_TYPES = {"device", "entity", "hardware", "helper", "hub", "service", "system", "virtual"}
HACS_KEYS = {
    "name", "content_in_root", "zip_release", "filename", "hide_default_branch", "country",
    "homeassistant", "hacs", "render_readme", "persistent_directory",
}
STRINGS_SECTIONS = {
    "title", "config", "options", "config_subentries", "selector", "entity", "entity_component",
    "device", "device_automation", "exceptions", "issues", "services", "system_health",
    "conversation", "common", "state",
}
VERSION = re.compile(r"^\d+(\.\d+){1,2}([ab.-]?\w+)?$")
REFERENCE = re.compile(r"\[%key:([a-z0-9_:]+)%\]")

problems: list[str] = []


def problem(where: str, text: str) -> None:
    """Record one problem, naming the file."""
    problems.append(f"{where}: {text}")


def check_manifest() -> dict[str, Any]:
    """The manifest's keys, order and values."""
    where = "custom_components/cycletrack/manifest.json"
    manifest: dict[str, Any] = json.loads((COMPONENT / "manifest.json").read_text())
    keys = list(manifest)
    if keys[:2] != ["domain", "name"] or keys[2:] != sorted(keys[2:]):
        problem(where, f"keys must be domain, name, then sorted: {keys}")
    for key in sorted(set(keys) - MANIFEST_KEYS):
        problem(where, f"unknown key {key!r}")
    for key in ("domain", "name", "codeowners", "documentation", "issue_tracker", "version", "iot_class"):
        if key not in manifest:
            problem(where, f"a custom integration needs {key!r}")
    if manifest.get("domain") != COMPONENT.name:
        problem(where, f"domain {manifest.get('domain')!r} is not the folder's name {COMPONENT.name!r}")
    if not VERSION.match(str(manifest.get("version", ""))):
        problem(where, f"version {manifest.get('version')!r} is not a valid version")
    if manifest.get("iot_class") not in IOT_CLASSES:
        problem(where, f"iot_class {manifest.get('iot_class')!r} is not one of {sorted(IOT_CLASSES)}")
    if manifest.get("integration_type", "hub") not in INTEGRATION_TYPES:
        problem(where, f"integration_type {manifest.get('integration_type')!r} is not one of {sorted(INTEGRATION_TYPES)}")
    for key in ("codeowners", "dependencies", "after_dependencies", "requirements", "loggers"):
        value = manifest.get(key, [])
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            problem(where, f"{key} must be a list of strings")
    if not all(owner.startswith("@") for owner in manifest.get("codeowners", [])):
        problem(where, "codeowners must be GitHub handles (@name)")
    for key in ("documentation", "issue_tracker"):
        if not str(manifest.get(key, "")).startswith("https://"):
            problem(where, f"{key} must be an https URL")
    if not isinstance(manifest.get("config_flow", False), bool):
        problem(where, "config_flow must be true or false")
    return manifest


def check_hacs() -> None:
    """hacs.json's keys and values."""
    where = "hacs.json"
    hacs: dict[str, Any] = json.loads((REPO / "hacs.json").read_text())
    for key in sorted(set(hacs) - HACS_KEYS):
        problem(where, f"unknown key {key!r}")
    if not isinstance(hacs.get("name"), str) or not hacs["name"]:
        problem(where, "needs a name")
    if "homeassistant" in hacs and not VERSION.match(str(hacs["homeassistant"])):
        problem(where, f"homeassistant {hacs['homeassistant']!r} is not a version")
    for key in ("content_in_root", "zip_release", "render_readme", "hide_default_branch", "persistent_directory"):
        if key in hacs and not isinstance(hacs[key], bool):
            problem(where, f"{key} must be true or false")


def lookup(tree: dict[str, Any], path: list[str]) -> Any:
    """The value at `path` in `tree`, or None."""
    node: Any = tree
    for part in path:
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def resolve(value: Any, own: dict[str, Any], common: dict[str, Any]) -> Any:
    """`value` with every [%key:...%] reference replaced by the string it names."""
    if isinstance(value, dict):
        return {key: resolve(item, own, common) for key, item in value.items()}
    if not isinstance(value, str):
        return value

    def replace(match: re.Match[str]) -> str:
        parts = match.group(1).split("::")
        if parts[0] == "common":
            found = lookup(common, parts)
        elif parts[:2] == ["component", COMPONENT.name]:
            found = lookup(own, parts[2:])
        else:
            found = None
        if not isinstance(found, str):
            problem("custom_components/cycletrack/strings.json", f"reference {match.group(0)} names no string")
            return match.group(0)
        return str(resolve(found, own, common))

    return REFERENCE.sub(replace, value)


def used_keys() -> dict[str, set[str]]:
    """The translation keys, errors and abort reasons the code names."""
    text = "\n".join(path.read_text() for path in sorted(COMPONENT.glob("*.py")))
    return {
        "translation_key": set(re.findall(r'translation_key\s*=\s*"([a-z0-9_]+)"', text)),
        "error": set(re.findall(r'errors\[[^\]]+\]\s*=\s*"([a-z0-9_]+)"', text)),
        "abort": set(re.findall(r'async_abort\(\s*reason\s*=\s*"([a-z0-9_]+)"', text)),
    }


def check_strings() -> None:
    """strings.json's sections, en.json against it, and the keys the code uses."""
    import homeassistant  # noqa: PLC0415 (only for its common strings)

    where = "custom_components/cycletrack/strings.json"
    strings: dict[str, Any] = json.loads((COMPONENT / "strings.json").read_text())
    english: dict[str, Any] = json.loads((COMPONENT / "translations/en.json").read_text())
    common = json.loads((Path(homeassistant.__file__).parent / "strings.json").read_text())
    for key in sorted(set(strings) - STRINGS_SECTIONS):
        problem(where, f"unknown section {key!r}")
    resolved = resolve(strings, strings, common)
    if resolved != english:
        for line in diff(resolved, english):
            problem("custom_components/cycletrack/translations/en.json", line)
    sections = {
        "error": [strings.get(flow, {}).get("error", {}) for flow in ("config", "options")],
        "abort": [strings.get(flow, {}).get("abort", {}) for flow in ("config", "options")],
    }
    entity_keys = {key for platform in strings.get("entity", {}).values() for key in platform}
    issue_keys = set(strings.get("issues", {}))
    exception_keys = set(strings.get("exceptions", {}))
    used = used_keys()
    for key in sorted(used["translation_key"] - entity_keys - issue_keys - exception_keys):
        problem(where, f"translation_key {key!r} is used in the code but has no string")
    for kind in ("error", "abort"):
        known = set().union(*(set(section) for section in sections[kind]))
        for key in sorted(used[kind] - known):
            problem(where, f"{kind} {key!r} is used in the code but has no string")


def diff(expected: Any, actual: Any, prefix: str = "") -> list[str]:
    """Where `actual` differs from `expected`, one line per key."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        lines: list[str] = []
        for key in sorted(set(expected) | set(actual)):
            if key not in actual:
                lines.append(f"{prefix}.{key} is missing (strings.json has it)")
            elif key not in expected:
                lines.append(f"{prefix}.{key} is not in strings.json")
            else:
                lines += diff(expected[key], actual[key], f"{prefix}.{key}")
        return lines
    if expected != actual:
        return [f"{prefix} is {actual!r}, strings.json says {expected!r}"]
    return []


def check_quality_scale() -> None:
    """Every rule of quality_scale.yaml has a status; every done or exempt one says why."""
    import yaml  # noqa: PLC0415 (Home Assistant's venv has PyYAML)

    where = "custom_components/cycletrack/quality_scale.yaml"
    rules = yaml.safe_load((COMPONENT / "quality_scale.yaml").read_text())["rules"]
    for name, rule in rules.items():
        status = rule.get("status") if isinstance(rule, dict) else rule
        if status not in {"done", "exempt", "todo"}:
            problem(where, f"{name}: status {status!r} is not done, exempt or todo")
        elif status != "todo" and not (isinstance(rule, dict) and rule.get("comment")):
            problem(where, f"{name}: a {status} rule names what meets it (comment)")


def main() -> int:
    """Run every check; print the problems."""
    check_manifest()
    check_quality_scale()
    check_hacs()
    check_strings()
    for line in problems:
        print(f"check_integration_files: {line}")
    if problems:
        print(f"check_integration_files: FAILED: {len(problems)} problem(s)")
        return 1
    print("check_integration_files: manifest.json, hacs.json, strings.json and translations/en.json pass")
    return 0


if __name__ == "__main__":
    sys.exit(main())
