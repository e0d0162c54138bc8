#!/usr/bin/env bash
# Builds the two venvs INSIDE the forky root; forky-root.sh runs it there (never call
# it on the host).
#
#   build-venv.sh HA_VERSION PHCC_VERSION VENV PYTEST_VENV REPO
#
# VENV, Home Assistant HA_VERSION for the end-to-end tests:
# 1. python3 -m venv VENV; pip install homeassistant==HA_VERSION;
# 2. again under HA's own package_constraints.txt, together with the requirement
#    closure of the integrations the test configuration loads (requirements_closure.py)
#    and requirements-extra-2026.11.txt (imports that no manifest names), so that
#    `hass --skip-pip` starts offline;
# 3. checks that the integrations import.
# PYTEST_VENV, for the integration's tests, built at the same time: pytest-homeassistant-
# custom-component PHCC_VERSION with the Home Assistant it pins (no release of it pins
# HA_VERSION yet, and it does not import under another: docs/TESTING.md), twice like
# VENV, the second time under that HA's constraints; checks that its plugin imports and
# that pip sees no conflict.
set -euo pipefail
HA_VERSION="$1"; PHCC_VERSION="$2"; VENV="$3"; PYTEST_VENV="$4"; REPO="$5"
HERE="$REPO/scripts/ha"
FIXTURE="$REPO/Tests/EndToEndTests/Fixtures/ha-config"
say() { printf 'forky-root: %s\n' "$*" >&2; }
# --no-compile: byte-compiling all of HA's ~1,000 integrations takes minutes of CPU; hass
# compiles what it imports on its first start (the smoke start), and that stays in the root.
PIP_INSTALL=(-m pip --quiet install --no-compile)
constraints_of() {
  "$1/bin/python" -c 'import homeassistant, os; print(os.path.join(os.path.dirname(homeassistant.__file__), "package_constraints.txt"))'
}

build_pytest_venv() {
  python3 -m venv "$PYTEST_VENV"
  "$PYTEST_VENV/bin/python" "${PIP_INSTALL[@]}" "pytest-homeassistant-custom-component==$PHCC_VERSION"
  "$PYTEST_VENV/bin/python" "${PIP_INSTALL[@]}" -c "$(constraints_of "$PYTEST_VENV")" \
    "pytest-homeassistant-custom-component==$PHCC_VERSION"
  "$PYTEST_VENV/bin/python" -c "import pytest_homeassistant_custom_component.plugins"
  "$PYTEST_VENV/bin/python" -m pip check
}
PYTEST_LOG="$(mktemp)"
trap 'rm -f "$PYTEST_LOG" "${CLOSURE:-}"' EXIT
say "  $PYTEST_VENV: pytest-homeassistant-custom-component==$PHCC_VERSION and the Home Assistant it pins (meanwhile)"
build_pytest_venv >"$PYTEST_LOG" 2>&1 &
PYTEST_PID=$!

python3 -m venv "$VENV"
say "  $VENV: pass 1/2: homeassistant==$HA_VERSION ($(python3 --version))"
"$VENV/bin/python" "${PIP_INSTALL[@]}" "homeassistant==$HA_VERSION"
CONSTRAINTS="$(constraints_of "$VENV")"
CLOSURE="$(mktemp)"
"$VENV/bin/python" "$HERE/requirements_closure.py" --config "$FIXTURE" >"$CLOSURE"
say "  $VENV: pass 2/2: under $CONSTRAINTS, with $(grep -c . "$CLOSURE") requirements of the loaded integrations"
"$VENV/bin/python" "${PIP_INSTALL[@]}" -c "$CONSTRAINTS" "homeassistant==$HA_VERSION" -r "$CLOSURE" \
  -r "$HERE/requirements-extra-2026.11.txt"
say "  $VENV: checking that the integrations import"
"$VENV/bin/python" -c "import homeassistant.components.api, homeassistant.components.http, \
homeassistant.components.onboarding, homeassistant.components.frontend, \
homeassistant.components.websocket_api, homeassistant.components.mobile_app, \
homeassistant.components.cloud, homeassistant.components.template, \
homeassistant.components.automation, homeassistant.components.sensor, hass_frontend"
"$VENV/bin/hass" --version >/dev/null

if ! wait "$PYTEST_PID"; then
  cat "$PYTEST_LOG" >&2
  say "  $PYTEST_VENV: FAILED (above)"
  exit 1
fi
say "  $PYTEST_VENV: pytest-homeassistant-custom-component $PHCC_VERSION on Home Assistant $("$PYTEST_VENV/bin/python" -c 'from homeassistant.const import __version__; print(__version__)')"
