#!/usr/bin/env bash
# The Home Assistant integration's tests (custom_components/cycletrack, tests/components/cycletrack):
# pytest-homeassistant-custom-component inside Home Assistant 2026.11.0's venv (Python 3.14, in the
# Debian forky root scripts/ha/forky-root.sh builds and caches). Ends with pytest's summary line.
#
#   scripts/test-integration.sh [PYTEST ARGS...]
#
# CYCLETRACK_BIN=/path/to/cycletrack runs every service test against the real binary as well as
# against the contract stand-in (else those cases skip, saying so). The binary is built on this
# machine: its Swift runtime directory and its own directory are made visible inside the root,
# which needs libcurl, libmicrohttpd and libsqlite3 (forky's, same sonames).
# CYCLETRACK_HA_PYTHON=/path/to/python skips the root and uses that interpreter (it must have
# homeassistant==2026.11.0 and pytest-homeassistant-custom-component).
set -uo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"

args=(-m pytest -c "$repo/tests/pytest.ini" --rootdir "$repo/tests" -p no:cacheprovider -p no:homeassistant -p no:respx "$@")

if [[ -n "${CYCLETRACK_HA_PYTHON:-}" ]]; then
  "$CYCLETRACK_HA_PYTHON" "${args[@]}"
  status=$?
else
  if [[ ! -x scripts/ha/forky-root.sh ]]; then
    echo "test-integration: FAILED: scripts/ha/forky-root.sh is missing (it builds Home Assistant 2026.11's root)" >&2
    exit 1
  fi
  binds=()
  if [[ -n "${CYCLETRACK_BIN:-}" ]]; then
    bin="$(readlink -f "$CYCLETRACK_BIN")"
    [[ -x "$bin" ]] || { echo "test-integration: FAILED: CYCLETRACK_BIN=$CYCLETRACK_BIN is not an executable" >&2; exit 1; }
    export CYCLETRACK_BIN="$bin"
    binds+=(--bind "$(dirname "$bin")")
    swift_lib="$(ldd "$bin" | awk '/libswiftCore.so/ {print $3}')"
    [[ -n "$swift_lib" ]] && binds+=(--bind "$(dirname "$swift_lib")")
  fi
  if [[ -n "${CYCLETRACK_BIN:-}" ]] && ! scripts/ha/forky-root.sh run "${binds[@]}" -- "$CYCLETRACK_BIN" --version >/dev/null; then
    echo "test-integration: FAILED: $CYCLETRACK_BIN does not start inside the root (it needs forky's libcurl4t64, libmicrohttpd12t64 and libsqlite3-0 there)" >&2
    exit 1
  fi
  scripts/ha/forky-root.sh run "${binds[@]}" -- python "${args[@]}"
  status=$?
fi

case $status in
  0) ;;
  5) echo "test-integration: FAILED: pytest collected no test" >&2; status=1 ;;
  *) echo "test-integration: FAILED: pytest exited $status" >&2 ;;
esac
exit $status
