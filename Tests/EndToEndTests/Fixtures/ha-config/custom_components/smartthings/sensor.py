"""The sensor entities of the corpus devices (custom_components/cycletrack_corpus)."""
from custom_components.cycletrack_corpus import platform_setup

from . import DOMAIN

async_setup_entry = platform_setup(DOMAIN, "sensor")
