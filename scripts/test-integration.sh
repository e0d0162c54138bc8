#!/usr/bin/env bash
# The Home Assistant integration's tests (custom_components/cycletrack, integration_tests/components/cycletrack):
# pytest-homeassistant-custom-component inside Home Assistant 2026.11.0's venv (Python 3.14, in the
# Debian forky root scripts/ha/forky-root.sh builds and caches). Ends with pytest's summary line.
#
#   scripts/test-integration.sh [PYTEST ARGS...]     (paths relative to integration_tests/)
#
# CYCLETRACK_BIN=/path/to/cycletrack runs every service test against the real binary as well as
# against the contract stand-in (else those cases skip, saying so). The binary is built on this
# machine: its Swift runtime directory and its own directory are made visible inside the root,
# which needs libcurl, libmicrohttpd and libsqlite3 (forky's, same sonames).
# CYCLETRACK_HA_PYTHON=/path/to/python skips the root and uses that interpreter (it must have
# homeassistant==2026.11.0 and pytest-homeassistant-custom-component); then the static checks
# (scripts/ha/integration-checks.sh, which need the root) don't run.
# In the root, scripts/ha/integration-checks.sh (ruff, mypy --strict, the manifest and
# translation checks) runs first (CYCLETRACK_SKIP_INTEGRATION_CHECKS=1 leaves it out, for
# running a single test); pytest measures coverage and fails under 95 %.
#
# The venv: Home Assistant 2026.11.0 as the root's hass venv has it (copied, so the same
# closure), plus pytest-homeassistant-custom-component 0.13.375 without its dependencies (no
# release pins 2026.11.0; integration_tests/conftest.py bridges the one name that moved) and its test
# tools at that release's pins (scripts/ha/requirements-integration-tests.txt). forky-root.sh
# builds it with the root (/opt/cycletrack-integration-pytest), again when its inputs change.
set -uo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"

# From the tests' own folder, so pytest.ini's testpaths apply and the plugin-loading
# conftest.py is a top-level one. Coverage of custom_components/cycletrack (lines and
# branches), its total printed and held at 95 % or more (the quality scale's test-coverage;
# HA asks 95 % for Gold); the data file in /tmp, never in the repository.
COVERAGE_FAIL_UNDER=95
export COVERAGE_FILE="/tmp/cycletrack-integration-coverage.$$"
args=(-m pytest -c "$repo/integration_tests/pytest.ini" --rootdir "$repo/integration_tests" -p no:cacheprovider -p no:homeassistant -p no:respx
      --cov="$repo/custom_components/cycletrack" --cov-branch --cov-report=term-missing:skip-covered
      --cov-fail-under="$COVERAGE_FAIL_UNDER" "$@")

if [[ -n "${CYCLETRACK_HA_PYTHON:-}" ]]; then
  (cd integration_tests && "$CYCLETRACK_HA_PYTHON" "${args[@]}")
  status=$?
else
  if [[ ! -x scripts/ha/forky-root.sh ]]; then
    echo "test-integration: FAILED: scripts/ha/forky-root.sh is missing (it builds Home Assistant 2026.11's root)" >&2
    exit 1
  fi
  # Built with the root, keyed by its inputs (scripts/ha/forky-root.sh, build-venv.sh).
  scripts/ha/forky-root.sh ensure || { echo "test-integration: FAILED: scripts/ha/forky-root.sh ensure" >&2; exit 1; }
  venv="$(scripts/ha/forky-root.sh venv pytest)"
  binds=()
  if [[ -n "${CYCLETRACK_BIN:-}" ]]; then
    bin="$(readlink -f "$CYCLETRACK_BIN")"
    [[ -x "$bin" ]] || { echo "test-integration: FAILED: CYCLETRACK_BIN=$CYCLETRACK_BIN is not an executable" >&2; exit 1; }
    export CYCLETRACK_BIN="$bin"
    binds+=(--bind "$(dirname "$bin")")
    swift_lib="$(ldd "$bin" | awk '/libswiftCore.so/ {print $3}')"
    [[ -n "$swift_lib" ]] && binds+=(--bind "$(dirname "$swift_lib")")
  fi
  # The root has forky's libcurl4t64, libmicrohttpd12t64 and libsqlite3-0 (its DEBIAN_PACKAGES).
  if [[ -n "${CYCLETRACK_BIN:-}" ]] && ! scripts/ha/forky-root.sh run "${binds[@]}" -- "$CYCLETRACK_BIN" --version >/dev/null 2>&1; then
    echo "test-integration: FAILED: $CYCLETRACK_BIN does not start inside the root:" >&2
    scripts/ha/forky-root.sh run "${binds[@]}" -- "$CYCLETRACK_BIN" --version >&2
    exit 1
  fi
  # The static checks first (ruff, mypy --strict, the manifest and translation checks);
  # pytest runs either way, and the run fails if either failed.
  checks=0
  if [[ -z "${CYCLETRACK_SKIP_INTEGRATION_CHECKS:-}" ]]; then
    scripts/ha/integration-checks.sh || checks=$?
  fi
  (cd integration_tests && ../scripts/ha/forky-root.sh run "${binds[@]}" -- "$venv/bin/python" "${args[@]}")
  status=$?
  rm -f "$COVERAGE_FILE"
  if [[ $status -eq 0 && $checks -ne 0 ]]; then
    echo "test-integration: FAILED: the integration's static checks (above)" >&2
    status=1
  fi
fi

case $status in
  0) ;;
  5) echo "test-integration: FAILED: pytest collected no test" >&2; status=1 ;;
  *) echo "test-integration: FAILED: pytest exited $status" >&2 ;;
esac
exit $status
