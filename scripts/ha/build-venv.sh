#!/usr/bin/env bash
# Builds Home Assistant's venv INSIDE the forky root; forky-root.sh runs it there
# (never call it on the host).
#
#   build-venv.sh HA_VERSION PHCC_VERSION VENV REPO
#
# 1. python3 -m venv VENV; pip install homeassistant==HA_VERSION;
# 2. again under HA's own package_constraints.txt, together with the requirement
#    closure of the integrations the test configuration loads (requirements_closure.py)
#    and requirements-extra-2026.11.txt (imports that no manifest names), so that
#    `hass --skip-pip` starts offline;
# 3. pytest-homeassistant-custom-component PHCC_VERSION without its dependencies, then
#    those dependencies: its test tools at its pins, everything HA already has at the
#    version installed (no release of it pins HA_VERSION);
# 4. checks that the integrations import and that pip sees no conflict.
set -euo pipefail
HA_VERSION="$1"; PHCC_VERSION="$2"; VENV="$3"; REPO="$4"
HERE="$REPO/scripts/ha"
FIXTURE="$REPO/Tests/EndToEndTests/Fixtures/ha-config"
say() { printf 'forky-root: %s\n' "$*" >&2; }

python3 -m venv "$VENV"
PIP=("$VENV/bin/python" -m pip --quiet)
say "  pass 1/2: homeassistant==$HA_VERSION ($(python3 --version))"
"${PIP[@]}" install "homeassistant==$HA_VERSION"
CONSTRAINTS="$("$VENV/bin/python" -c 'import homeassistant, os; print(os.path.join(os.path.dirname(homeassistant.__file__), "package_constraints.txt"))')"
CLOSURE="$(mktemp)"
trap 'rm -f "$CLOSURE" "$CLOSURE.phcc"' EXIT
"$VENV/bin/python" "$HERE/requirements_closure.py" --config "$FIXTURE" >"$CLOSURE"
say "  pass 2/2: under $CONSTRAINTS, with $(grep -c . "$CLOSURE") requirements of the loaded integrations"
"${PIP[@]}" install -c "$CONSTRAINTS" "homeassistant==$HA_VERSION" -r "$CLOSURE" -r "$HERE/requirements-extra-2026.11.txt"

say "  pytest-homeassistant-custom-component==$PHCC_VERSION (without its homeassistant pin)"
"${PIP[@]}" install --no-deps "pytest-homeassistant-custom-component==$PHCC_VERSION"
"$VENV/bin/python" - "$CLOSURE.phcc" <<'PY'
import importlib.metadata as md, re, sys
installed = {re.sub(r"[-_.]+", "-", d.metadata["Name"]).lower() for d in md.distributions()}
lines = []
for requirement in md.requires("pytest-homeassistant-custom-component") or []:
    requirement = requirement.split(";")[0].strip()
    name = re.split(r"[<>=!~ \[]", requirement, maxsplit=1)[0]
    key = re.sub(r"[-_.]+", "-", name).lower()
    if key == "homeassistant":
        continue
    lines.append(name if key in installed else requirement)
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
PY
"${PIP[@]}" install -c "$CONSTRAINTS" -r "$CLOSURE.phcc"

say "  checking imports and pip's view of the venv"
"$VENV/bin/python" -c "import homeassistant.components.api, homeassistant.components.http, \
homeassistant.components.onboarding, homeassistant.components.frontend, \
homeassistant.components.websocket_api, homeassistant.components.mobile_app, \
homeassistant.components.cloud, homeassistant.components.template, \
homeassistant.components.automation, homeassistant.components.sensor, \
pytest_homeassistant_custom_component.common, hass_frontend"
"$VENV/bin/python" -m pip check >&2 || say "  (pip check lists the conflicts above; pytest-homeassistant-custom-component pins HA ${PHCC_VERSION})"
"$VENV/bin/hass" --version >/dev/null
