#!/usr/bin/env bash
# Builds, once per machine, the Home Assistant 2024.3.3 virtual environment that
# cycletrack's end-to-end tests start as a real HA (see
# Tests/EndToEndTests/Support/HomeAssistantProcess.swift).
#
#   scripts/ha/setup.sh            build it, or say it is already there (fast no-op)
#   scripts/ha/setup.sh --force    rebuild it from scratch
#
# Where: $CYCLETRACK_HA_VENV, else $CYCLETRACK_CACHE_DIR/ha-2024.3.3 (CYCLETRACK_CACHE_DIR
# defaults to ${XDG_CACHE_HOME:-$HOME/.cache}/cycletrack; outside the repository: fresh
# clones on the same machine reuse it). pip's cache: $CYCLETRACK_CACHE_DIR/pip.
# Python: $CYCLETRACK_HA_PYTHON, else python3.11, else python3 (must be 3.11.x:
# 2024.3.3 is the last release that runs on 3.11; 2024.4 needs 3.12).
#
# What it does:
#   1. pip install homeassistant==2024.3.3 and josepy<2 (josepy 2 breaks acme,
#      which cloud imports);
#   2. the same again constrained by HA's own package_constraints.txt, together
#      with what HA would pip-install at start for the integrations it loads, so
#      `hass --skip-pip` never reaches for the network;
#   3. checks that those integrations import, starts HA once on the test fixture
#      config and waits until it answers, then writes a marker file. A second run
#      with the marker in place does nothing.
set -euo pipefail

HA_VERSION="2024.3.3"
CACHE_DIR="${CYCLETRACK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/cycletrack}"
VENV="${CYCLETRACK_HA_VENV:-$CACHE_DIR/ha-${HA_VERSION}}"
# pip's downloads in the cache directory too (a cold run with a new CYCLETRACK_CACHE_DIR
# downloads everything again).
export PIP_CACHE_DIR="$CACHE_DIR/pip"
MARKER="$VENV/.cycletrack-ha-ready"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
FIXTURE="$HERE/../../Tests/EndToEndTests/Fixtures/ha-config"

# What the integrations HA loads here (the always-loaded ones, frontend, api,
# onboarding, and mobile_app/cloud for tests that go as far as a phone) would
# install at start. Versions are the ones their 2024.3.3 manifests name.
PREINSTALL=(
  "PyNaCl==1.5.0"
  "Pillow==10.2.0"
  "home-assistant-frontend==20240307.0"
  "securetar==2024.2.1"
  "janus==1.0.0"
  "psutil-home-assistant==0.0.1"
  "SQLAlchemy==2.0.27"
  "fnv-hash-fast==0.5.0"
  "numpy==1.26.0"
  "PyTurboJPEG==1.7.1"
  "hassil==1.6.1"
  "home-assistant-intents==2024.3.12"
  "mutagen==1.47.0"
  "ha-ffmpeg==3.1.0"
  "webrtc-noise-gain==1.2.3"
)
# Modules that must import for HA not to fall into recovery mode.
IMPORT_CHECK="import homeassistant.components.api, homeassistant.components.http, \
homeassistant.components.onboarding, homeassistant.components.frontend, \
homeassistant.components.websocket_api, homeassistant.components.person, \
homeassistant.components.image_upload, homeassistant.components.hardware, \
homeassistant.components.mobile_app, homeassistant.components.cloud, \
homeassistant.components.sensor, homeassistant.components.select, nacl, PIL, hass_frontend, psutil_home_assistant"

say() { printf 'ha-setup: %s\n' "$*"; }
die() { printf 'ha-setup: FAILED: %s\n' "$*" >&2; exit 1; }

FORCE=0
case "${1:-}" in
  "") ;;
  --force) FORCE=1 ;;
  -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
  *) die "unknown argument '$1' (use --force or nothing)" ;;
esac

EXPECTED_MARKER="homeassistant==${HA_VERSION} josepy<2 ${PREINSTALL[*]}"
# One build at a time (another clone's test run may be building the same venv): wait
# for it, then find the venv ready.
mkdir -p "$(dirname "$VENV")"
exec 9>"$VENV.lock"
if ! flock -n 9; then
  say "another run is building $VENV; waiting for it"
  flock 9
fi
if [[ $FORCE -eq 0 && -f "$MARKER" && -x "$VENV/bin/hass" ]] && [[ "$(cat "$MARKER")" == "$EXPECTED_MARKER" ]]; then
  say "Home Assistant ${HA_VERSION} is ready in $VENV (nothing to do; --force rebuilds)"
  exit 0
fi

PYTHON="${CYCLETRACK_HA_PYTHON:-}"
if [[ -z "$PYTHON" ]]; then
  if command -v python3.11 >/dev/null 2>&1; then PYTHON=python3.11; else PYTHON=python3; fi
fi
command -v "$PYTHON" >/dev/null 2>&1 || die "no '$PYTHON' on PATH (set CYCLETRACK_HA_PYTHON to a Python 3.11)"
PYVER="$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
[[ "$PYVER" == "3.11" ]] || die "$PYTHON is Python $PYVER; Home Assistant ${HA_VERSION} needs 3.11 (set CYCLETRACK_HA_PYTHON)"
[[ -f "$FIXTURE/configuration.yaml" ]] || die "fixture config not found at $FIXTURE"

START=$(date +%s)
rm -f "$MARKER"
if [[ $FORCE -eq 1 && -d "$VENV" ]]; then
  say "removing $VENV (--force)"
  rm -rf "$VENV"
fi
if [[ ! -x "$VENV/bin/python" ]]; then
  say "creating virtual environment $VENV with $PYTHON ($("$PYTHON" --version 2>&1))"
  mkdir -p "$(dirname "$VENV")"
  "$PYTHON" -m venv "$VENV" || die "could not create the virtual environment"
fi
PIP=("$VENV/bin/python" -m pip --disable-pip-version-check --no-input)

say "pass 1/2: installing homeassistant==${HA_VERSION} (3-4 minutes with a cold pip cache, well under one with a warm one)"
"${PIP[@]}" install --quiet "homeassistant==${HA_VERSION}" "josepy<2" \
  || die "pip could not install homeassistant==${HA_VERSION}"

CONSTRAINTS="$("$VENV/bin/python" -c 'import homeassistant, os; print(os.path.join(os.path.dirname(homeassistant.__file__), "package_constraints.txt"))')"
[[ -f "$CONSTRAINTS" ]] || die "HA's constraints file is missing: $CONSTRAINTS"

say "pass 2/2: reinstalling under HA's constraints ($CONSTRAINTS) with what its integrations need at start"
"${PIP[@]}" install --quiet -c "$CONSTRAINTS" "homeassistant==${HA_VERSION}" "josepy<2" "${PREINSTALL[@]}" \
  || die "pip could not install under HA's constraints"

say "checking that the integrations import"
"$VENV/bin/python" -c "$IMPORT_CHECK" || die "an integration does not import; HA would start in recovery mode"

say "starting Home Assistant once on the fixture config to check that it answers"
"$VENV/bin/python" "$HERE/smoke.py" --venv "$VENV" --fixture "$FIXTURE" \
  || die "Home Assistant did not start cleanly (log above)"

printf '%s' "$EXPECTED_MARKER" > "$MARKER"
say "done in $(( $(date +%s) - START )) s: Home Assistant ${HA_VERSION} is ready in $VENV ($(du -sh "$VENV" | cut -f1))"
