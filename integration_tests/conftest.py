"""Loads pytest-homeassistant-custom-component on Home Assistant 2026.11.0.

No release of the plugin pins homeassistant==2026.11.0: the newest, 0.13.375, is made
from 2026.10.4's test helpers, which import one name 2026.11 moved
(`_clear_logger_overwrites`, now in `homeassistant.components.logger.helpers`). The
name is put back where the plugin looks for it, then the plugin is loaded
(scripts/test-integration.sh runs pytest with `-p no:homeassistant`, so it isn't
loaded before this). Nothing else of the plugin is changed.

Home Assistant's deprecation reports for custom integrations are made failures
(scripts/ha/fatal_deprecations.py), and a test fails on any such report HA logged.
"""

from __future__ import annotations

from collections.abc import Iterator
import importlib.util
import logging
from pathlib import Path

import pytest

from homeassistant.components import logger
from homeassistant.components.logger import helpers as logger_helpers

if not hasattr(logger, "_clear_logger_overwrites"):
    logger._clear_logger_overwrites = logger_helpers._clear_logger_overwrites  # noqa: SLF001

pytest_plugins = ["pytest_homeassistant_custom_component.plugins"]

_FATAL = Path(__file__).resolve().parents[1] / "scripts/ha/fatal_deprecations.py"
_spec = importlib.util.spec_from_file_location("fatal_deprecations", _FATAL)
assert _spec is not None
assert _spec.loader is not None
fatal_deprecations = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fatal_deprecations)
assert fatal_deprecations.install(), "Home Assistant's frame helper changed: deprecations can't be made fatal"


@pytest.fixture(autouse=True)
def no_deprecation_reports(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Fail a test in which Home Assistant reported a deprecated use by a custom integration."""
    yield
    reports = [
        record.getMessage()
        for record in caplog.get_records("call") + caplog.get_records("setup")
        if record.levelno >= logging.WARNING
        and ("Detected that custom integration" in record.getMessage() or "deprecated" in record.getMessage().lower())
        and "custom_components" in (record.pathname + record.getMessage())
    ]
    assert not reports, f"Home Assistant reported deprecated use: {reports}"
