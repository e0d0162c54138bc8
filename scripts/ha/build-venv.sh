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
# PYTEST_VENV, for the integration's tests (scripts/test-integration.sh): a copy of VENV
# (the same Home Assistant, the same closure) plus pytest-homeassistant-custom-component
# PHCC_VERSION without its dependencies (no release pins HA_VERSION yet) and the test
# tools of requirements-integration-tests.txt; checks that the plugin imports.
set -euo pipefail
HA_VERSION="$1"; PHCC_VERSION="$2"; VENV="$3"; PYTEST_VENV="$4"; REPO="$5"
HERE="$REPO/scripts/ha"
FIXTURE="$REPO/Tests/EndToEndTests/Fixtures/ha-config"
say() { printf 'forky-root: %s\n' "$*" >&2; }
# --no-compile: byte-compiling all of HA's ~1,000 integrations takes minutes of CPU; hass
# compiles what it imports on its first start (the smoke start), and that stays in the root.
PIP_INSTALL=(-m pip --quiet install --no-compile)
CLOSURE="$(mktemp)"
trap 'rm -f "$CLOSURE"' EXIT

python3 -m venv "$VENV"
say "  $VENV: pass 1/2: homeassistant==$HA_VERSION ($(python3 --version))"
"$VENV/bin/python" "${PIP_INSTALL[@]}" "homeassistant==$HA_VERSION"
CONSTRAINTS="$("$VENV/bin/python" -c 'import homeassistant, os; print(os.path.join(os.path.dirname(homeassistant.__file__), "package_constraints.txt"))')"
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

say "  $PYTEST_VENV: a copy of $VENV with pytest-homeassistant-custom-component==$PHCC_VERSION (--no-deps) and its test tools"
cp -a "$VENV" "$PYTEST_VENV"
"$PYTEST_VENV/bin/python" "${PIP_INSTALL[@]}" --no-deps "pytest-homeassistant-custom-component==$PHCC_VERSION"
"$PYTEST_VENV/bin/python" "${PIP_INSTALL[@]}" -r "$HERE/requirements-integration-tests.txt"
"$PYTEST_VENV/bin/python" -c "import pytest, pytest_homeassistant_custom_component"
say "  $PYTEST_VENV: pytest-homeassistant-custom-component $PHCC_VERSION on Home Assistant $("$PYTEST_VENV/bin/python" -c 'from homeassistant.const import __version__; print(__version__)')"
