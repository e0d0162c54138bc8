"""Constants of the Miele stand-in (see __init__.py). The options are the real
integration's (homeassistant/components/miele/const.py, STATE_STATUS_TAGS and the
washing machine's program phases and program ids)."""
from __future__ import annotations

DOMAIN = "miele"
# hass.data key of the corpus devices (custom_components/cycletrack_corpus), when a test copied some.
CORPUS = "miele_corpus"

STATUS = sorted([
    "off", "on", "programmed", "waiting_to_start", "in_use", "pause", "program_ended", "failure",
    "program_interrupted", "idle", "rinse_hold", "service", "superfreezing", "supercooling",
    "superheating", "supercooling_superfreezing", "autocleaning", "not_connected",
])
PHASES = [
    "not_running", "pre_wash", "soak", "main_wash", "rinse", "rinse_hold", "cleaning", "cooling_down",
    "drain", "spin", "anti_crease", "finished",
]
PROGRAMS = ["no_program", "cottons", "minimum_iron", "delicates", "woollens", "eco_40_60"]

# role -> (name, initial value)
ROLES = {
    "status": ("Status", "off"),
    "program": ("Program", "no_program"),
    "phase": ("Program phase", "not_running"),
    "remaining_time": ("Remaining time", "0"),
    "elapsed_time": ("Elapsed time", "0"),
    "start_time": ("Start in", "0"),
    "energy": ("Energy consumption", "0.0"),
}
ENUMS = {"status": STATUS, "phase": PHASES, "program": PROGRAMS}
