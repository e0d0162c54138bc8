"""Config flow of the SmartThings stand-in: one entry (custom_components/cycletrack_corpus)."""
from __future__ import annotations

from custom_components.cycletrack_corpus import SingleEntryFlow

from . import DOMAIN


class StandInFlow(SingleEntryFlow, domain=DOMAIN):
    """Creates the single config entry of the stand-in."""

    TITLE = "SmartThings (test stand-in)"
