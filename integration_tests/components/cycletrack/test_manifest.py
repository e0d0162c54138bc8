"""The integration ships as the service's twin: the same version, HACS-installable."""

from __future__ import annotations

import json
from pathlib import Path
import re

import pytest

from homeassistant.core import HomeAssistant
from homeassistant.helpers import frame
from homeassistant.setup import async_setup_component

REPO = Path(__file__).resolve().parents[3]


def test_version_is_the_services() -> None:
    """manifest.json's version is cycletrack's (the add-on's config.yaml and CycletrackVersion.swift)."""
    manifest = json.loads((REPO / "custom_components/cycletrack/manifest.json").read_text())
    addon = re.search(r'^version:\s*"([^"]+)"', (REPO / "cycletrack/config.yaml").read_text(), re.MULTILINE)
    swift = re.search(r'current = "([^"]+)"', (REPO / "Sources/CycleCommands/CycletrackVersion.swift").read_text())
    assert addon is not None and swift is not None
    assert manifest["version"] == addon.group(1) == swift.group(1)


def test_manifest_and_hacs() -> None:
    """A config-flow, local-push integration with no requirements; HACS finds it."""
    manifest = json.loads((REPO / "custom_components/cycletrack/manifest.json").read_text())
    assert manifest["domain"] == "cycletrack"
    assert manifest["config_flow"] is True
    assert manifest["iot_class"] == "local_push"
    assert manifest["requirements"] == []
    hacs = json.loads((REPO / "hacs.json").read_text())
    assert hacs["name"] == "cycletrack"


def test_translations_are_strings() -> None:
    """translations/en.json carries every key of strings.json."""
    base = REPO / "custom_components/cycletrack"

    def keys(node: object, prefix: str = "") -> set[str]:
        if isinstance(node, dict):
            return {k for key, value in node.items() for k in keys(value, f"{prefix}.{key}")}
        return {prefix}

    strings = json.loads((base / "strings.json").read_text())
    english = json.loads((base / "translations/en.json").read_text())
    assert keys(strings) == keys(english)



async def test_deprecation_reports_are_failures(hass: HomeAssistant) -> None:
    """A deprecated use Home Assistant reports for cycletrack raises (conftest.py made it fatal)."""
    assert await async_setup_component(hass, "http", {})
    with pytest.raises(RuntimeError, match="cycletrack"):
        frame.report_usage(
            "uses a deprecated thing", integration_domain="cycletrack", breaks_in_ha_version="2026.12.0"
        )
