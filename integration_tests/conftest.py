"""Loads pytest-homeassistant-custom-component on Home Assistant 2026.11.0.

No release of the plugin pins homeassistant==2026.11.0: the newest, 0.13.375, is made
from 2026.10.4's test helpers, which import one name 2026.11 moved
(`_clear_logger_overwrites`, now in `homeassistant.components.logger.helpers`). The
name is put back where the plugin looks for it, then the plugin is loaded
(scripts/test-integration.sh runs pytest with `-p no:homeassistant`, so it isn't
loaded before this). Nothing else of the plugin is changed.
"""

from __future__ import annotations

from homeassistant.components import logger
from homeassistant.components.logger import helpers as logger_helpers

if not hasattr(logger, "_clear_logger_overwrites"):
    logger._clear_logger_overwrites = logger_helpers._clear_logger_overwrites  # noqa: SLF001

pytest_plugins = ["pytest_homeassistant_custom_component.plugins"]
