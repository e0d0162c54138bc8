"""Constants of the Electrolux stand-in (see __init__.py). The names are the Electrolux
API's, as albaintor/homeassistant_electrolux_status's catalog_core.py has them."""
from __future__ import annotations

DOMAIN = "electrolux_status"

# role -> (name, initial value): values as the API gives them (upper case, seconds, OPEN/CLOSED).
ROLES = {
    "appliance_state": ("Appliance state", "OFF"),
    "program": ("Program", "COTTON"),
    "cycle_phase": ("Cycle phase", "UNAVAILABLE"),
    "time_to_end": ("Time to end", "0"),
    "door": ("Door", "CLOSED"),
}
