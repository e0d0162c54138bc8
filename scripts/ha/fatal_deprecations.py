"""Home Assistant's deprecation reports for custom integrations, made failures.

Home Assistant reports a custom integration's use of a deprecated API (an update listener
beside a reloading config-flow helper, non-string device-registry values, async_reload
from an update listener, via_device, statistics metadata without mean_type/unit_class, ...)
through `homeassistant.helpers.frame.report_usage`, which only logs for custom integrations
until the release that breaks it. `install()` turns every such report into the error HA
raises for its own integrations, so the integration's tests (integration_tests/conftest.py)
and the end-to-end Home Assistant (scripts/ha/run_hass.py) fail on it now. Python's own
DeprecationWarnings raised from custom_components are made errors too.
"""

from __future__ import annotations

import functools
from typing import Any
import warnings


def install() -> bool:
    """Make custom integrations' deprecation reports errors; False on a release without them."""
    try:
        from homeassistant.helpers import frame  # noqa: PLC0415
    except ImportError:
        return False
    behavior = getattr(frame, "ReportBehavior", None)
    original = getattr(frame, "_report_usage", None)
    if behavior is None or original is None or getattr(original, "fatal_for_custom", False):
        return False

    @functools.wraps(original)
    def fatal(*args: Any, **kwargs: Any) -> None:
        if kwargs.get("custom_integration_behavior") is not behavior.IGNORE:
            kwargs["custom_integration_behavior"] = behavior.ERROR
        original(*args, **kwargs)

    fatal.fatal_for_custom = True  # type: ignore[attr-defined]
    frame._report_usage = fatal  # noqa: SLF001
    warnings.filterwarnings("error", category=DeprecationWarning, module=r"custom_components\..*")
    return True
