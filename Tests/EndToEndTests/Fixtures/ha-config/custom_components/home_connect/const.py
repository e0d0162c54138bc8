"""Constants of the Home Connect stand-in (see __init__.py)."""
from __future__ import annotations

DOMAIN = "home_connect"
STATES_FILE = "home_connect_states.json"

OPERATION_STATES = [
    "inactive", "ready", "delayedstart", "run", "pause",
    "actionrequired", "finished", "error", "aborting",
]
DOOR_STATES = ["open", "closed", "locked"]

# Program keys per kind of appliance, as the real integration's select offers them.
PROGRAMS = {
    "dishwasher": [
        "dishcare_dishwasher_program_auto_1", "dishcare_dishwasher_program_auto_2",
        "dishcare_dishwasher_program_eco_50", "dishcare_dishwasher_program_intensiv_70",
        "dishcare_dishwasher_program_quick_45", "dishcare_dishwasher_program_pre_rinse",
    ],
    "washer": [
        "laundry_care_washer_program_cotton", "laundry_care_washer_program_easy_care",
        "laundry_care_washer_program_mix", "laundry_care_washer_program_wool",
        "laundry_care_washer_program_quick_15",
    ],
    "dryer": [
        "laundry_care_dryer_program_cotton", "laundry_care_dryer_program_synthetic",
        "laundry_care_dryer_program_mix", "laundry_care_dryer_program_time_cold",
    ],
    "oven": [
        "cooking_oven_program_heating_mode_hot_air", "cooking_oven_program_heating_mode_top_bottom_heating",
        "cooking_oven_program_heating_mode_pizza_setting", "cooking_oven_program_heating_mode_pre_heating",
    ],
}

# Roles (cycletrack's names) -> entity description. Every kind has these; ovens also
# get a cavity temperature.
ROLE_OPERATION_STATE = "operation_state"
ROLE_PROGRESS = "progress"
ROLE_FINISH_TIME = "finish_time"
ROLE_PROGRAM = "program"
ROLE_DOOR = "door"
ROLE_TEMPERATURE = "temperature"
SENSOR_ROLES = [ROLE_OPERATION_STATE, ROLE_PROGRESS, ROLE_FINISH_TIME, ROLE_DOOR]
ALL_ROLES = [*SENSOR_ROLES, ROLE_PROGRAM, ROLE_TEMPERATURE]

# What an idle appliance shows after setup, until a test sets something.
INITIAL_STATES = {
    ROLE_OPERATION_STATE: "inactive",
    ROLE_PROGRESS: "unavailable",
    ROLE_FINISH_TIME: "unavailable",
    ROLE_PROGRAM: "unknown",
    ROLE_DOOR: "closed",
    ROLE_TEMPERATURE: "21",
}

SIGNAL_UPDATE = "home_connect_stand_in_update"
