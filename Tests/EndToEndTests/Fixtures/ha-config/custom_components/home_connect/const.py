"""Constants of the Home Connect stand-in (see __init__.py)."""
from __future__ import annotations

DOMAIN = "home_connect"
STATES_FILE = "home_connect_states.json"

OPERATION_STATES = [
    "inactive", "ready", "delayedstart", "run", "pause",
    "actionrequired", "finished", "error", "aborting",
]
# The door is a sensor since HA 2025.5 (the binary sensor was removed); 2026.11's options order.
DOOR_STATES = ["closed", "locked", "open"]
# The program sensors (progress, finish time) are available only while a program runs,
# pauses, waits for its delayed start or has finished, as in HA 2026.11.
PROGRAM_SHOWN_IN = ["delayedstart", "run", "pause", "finished"]
# The event sensors: enum over these options, "off" until an event, disabled by default.
EVENT_OPTIONS = ["confirmed", "off", "present"]
EVENT_SENSORS = {
    "dishwasher": ["program_aborted", "program_finished", "salt_lack", "rinse_aid_lack"],
    "washer": ["program_finished"],
    "dryer": ["program_finished", "drying_process_finished"],
    "oven": ["program_finished", "preheat_finished"],
}
# Binary sensors every appliance has, with the value the stand-in shows.
BINARY_SENSORS = {"remote_control": True, "remote_start": False, "local_control": False}

# The Home Connect keys the real entities' unique ids end with ("<ha_id>-<key>"), per
# translation key (homeassistant/components/home_connect in 2026.11).
BSH_KEYS = {
    "operation_state": "BSH.Common.Status.OperationState",
    "door": "BSH.Common.Status.DoorState",
    "program_progress": "BSH.Common.Option.ProgramProgress",
    "program_finish_time": "BSH.Common.Option.RemainingProgramTime",
    "oven_current_cavity_temperature": "Cooking.Oven.Status.CurrentCavityTemperature",
    "active_program": "BSH.Common.Root.ActiveProgram",
    "selected_program": "BSH.Common.Root.SelectedProgram",
    "remote_control": "BSH.Common.Status.RemoteControlActive",
    "remote_start": "BSH.Common.Status.RemoteControlStartAllowed",
    "local_control": "BSH.Common.Status.LocalControlActive",
    "program_aborted": "BSH.Common.Event.ProgramAborted",
    "program_finished": "BSH.Common.Event.ProgramFinished",
    "salt_lack": "Dishcare.Dishwasher.Event.SaltLack",
    "rinse_aid_lack": "Dishcare.Dishwasher.Event.RinseAidLack",
    "drying_process_finished": "LaundryCare.Dryer.Event.DryingProcessFinished",
    "preheat_finished": "Cooking.Oven.Event.PreheatFinished",
}

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
ROLE_SELECTED_PROGRAM = "selected_program"
SENSOR_ROLES = [ROLE_OPERATION_STATE, ROLE_PROGRESS, ROLE_FINISH_TIME, ROLE_DOOR]
PROGRAM_ROLES = [ROLE_PROGRESS, ROLE_FINISH_TIME]
ALL_ROLES = [*SENSOR_ROLES, ROLE_PROGRAM, ROLE_SELECTED_PROGRAM, ROLE_TEMPERATURE]

# What an idle appliance shows after setup, until a test sets something.
INITIAL_STATES = {
    ROLE_OPERATION_STATE: "inactive",
    ROLE_PROGRESS: "unavailable",
    ROLE_FINISH_TIME: "unavailable",
    ROLE_PROGRAM: "unknown",
    ROLE_SELECTED_PROGRAM: "unknown",
    ROLE_DOOR: "closed",
    ROLE_TEMPERATURE: "21",
}

SIGNAL_UPDATE = "home_connect_stand_in_update"
