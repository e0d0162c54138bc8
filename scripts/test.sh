#!/usr/bin/env bash
# The whole test suite, on a fresh Debian 12 machine with Swift 6.3, run as root: the README's
# test command, and all CI runs (.ci/run calls exactly this). It does its own set-up:
#
# 1. apt (Debian's mirror): the libraries cycletrack builds against, Chromium (the history
#    page's browser tests and the screenshots), Podman and runc (the deployment tests),
#    debootstrap and util-linux (Home Assistant 2026.11's root), python3-venv (2024.3.3's venv).
# 2. Two real Home Assistants, built from Debian and PyPI and cached in $CYCLETRACK_CACHE_DIR
#    (docs/TESTING.md):
#      2026.11.0  in a Debian forky root (scripts/ha/forky-root.sh; needs root): every real-HA
#                 suite runs on it, and the integration's tests.
#      2024.3.3   in a venv (scripts/ha/setup.sh): the suites of what the README says works on
#                 older Home Assistant ($OLDER_HA_SUITES), at the same time as the rest.
# 3. The deployment tests (scripts/test-deploy.sh: the container and add-on images with
#    Podman), beside everything else, their compiling at idle priority.
#
# As root, a Home Assistant or a deployment test that can't run is a failure
# (CYCLETRACK_REQUIRE_HA=1, CYCLETRACK_REQUIRE_DEPLOY=1). Not as root, nothing is installed
# that is missing but the three libraries (with sudo), and what can't run says so as skips.
# A compiler warning in the build fails the run. The last line is
# `test.sh: PASSED ...` or `test.sh: FAILED: <the parts that failed> ...`.
set -euo pipefail
cd "$(dirname "$0")/.."
CURRENT_HA=2026.11.0
OLDER_HA=2024.3.3
# What the README says works on older HA (docs/TESTING.md, "Minimum Home Assistant per
# feature"): cycle tracking over REST (poll) and the WebSocket API (events), discovery, check.
OLDER_HA_SUITES="ServiceWithHomeAssistantTests|ServiceRestartsWithHomeAssistantTests|HomeAssistantWebSocketTests"
# Everything the suites need from apt (docs/TESTING.md, "What the test command installs").
APT_PACKAGES=(libsqlite3-dev libcurl4-openssl-dev libmicrohttpd-dev chromium podman runc
  debootstrap util-linux ca-certificates python3-venv)
say() { printf 'test.sh: %s\n' "$*"; }
start=$SECONDS

LOGS="$(mktemp -d /tmp/cycletrack-test.XXXXXX)"
ROOT_PID=""
if [ "$(id -u)" -eq 0 ]; then
  missing=()
  for package in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    say "apt: installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${APT_PACKAGES[@]}"
  else
    say "apt: ${APT_PACKAGES[*]} already installed"
  fi
  export CYCLETRACK_REQUIRE_HA=1
  export CYCLETRACK_REQUIRE_DEPLOY=1
  # The root builds (mostly downloads) while Swift compiles (mostly CPU).
  say "Home Assistant $CURRENT_HA: scripts/ha/forky-root.sh ensure (log $LOGS/forky-root.log)"
  scripts/ha/forky-root.sh ensure >"$LOGS/forky-root.log" 2>&1 &
  ROOT_PID=$!
else
  scripts/install-system-packages.sh
  say "not root: nothing but the libraries is installed; Home Assistant $CURRENT_HA (a chroot), the deployment tests (Podman) and whatever else is missing say so as skips"
fi
# The deployment tests, beside everything (they wait for the same root, under its lock).
say "the deployment tests: scripts/test-deploy.sh beside the rest (log $LOGS/deploy.log, shown at the end)"
scripts/test-deploy.sh >"$LOGS/deploy.log" 2>&1 &
DEPLOY_PID=$!
# The 2024.3.3 venv (pip, mostly downloads) builds beside them too; it is needed only
# from the end-to-end suites on.
say "Home Assistant $OLDER_HA: scripts/ha/setup.sh (log $LOGS/older-ha-setup.log)"
scripts/ha/setup.sh >"$LOGS/older-ha-setup.log" 2>&1 &
OLDER_SETUP_PID=$!

# The build and the test build, without a compiler warning.
swift build --build-tests 2>&1 | tee "$LOGS/build.log"
if grep -E '(^|: )warning: ' "$LOGS/build.log" >"$LOGS/warnings.txt"; then
  sort -u "$LOGS/warnings.txt"
  say "FAILED: the build printed $(sort -u "$LOGS/warnings.txt" | wc -l) compiler warning(s) (above); the build is warning-free"
  exit 1
fi
say "the build and the test build: no compiler warning"
if [ -n "$ROOT_PID" ]; then
  if ! wait "$ROOT_PID"; then
    cat "$LOGS/forky-root.log"
    say "FAILED: the Home Assistant $CURRENT_HA root could not be built (log above)"
    exit 1
  fi
  tail -1 "$LOGS/forky-root.log"
fi
# The README's commands, as written (under a minute).
scripts/check-readme.sh
python3 scripts/check-function-length.py
python3 scripts/check-one-type-per-file.py

# The suites that need no Home Assistant first, alone: they run services in real time
# over loopback, and the end-to-end suites' blocking waits for processes would starve
# Swift's two cooperative threads under them.
say "the suites without a Home Assistant"
status=0
swift test --skip-build --skip EndToEndTests 2>&1 | tee "$LOGS/unit.log" || status=$?

if ! wait "$OLDER_SETUP_PID"; then
  cat "$LOGS/older-ha-setup.log"
  say "FAILED: the Home Assistant $OLDER_HA venv could not be built (log above)"
  exit 1
fi
tail -1 "$LOGS/older-ha-setup.log"

say "the end-to-end suites on Home Assistant $CURRENT_HA (CYCLETRACK_HA_VERSION=$CURRENT_HA)"
say "at the same time, on Home Assistant $OLDER_HA: $OLDER_HA_SUITES (log $LOGS/older-ha.log, shown after)"
# The test binary itself: `swift test` holds a lock on .build for its whole run, so a
# second one would only wait for the first.
TESTS="$(swift build --show-bin-path)/cycletrackPackageTests.xctest"
CYCLETRACK_HA_VERSION="$OLDER_HA" "$TESTS" --testing-library swift-testing --filter "$OLDER_HA_SUITES" \
  >"$LOGS/older-ha.log" 2>&1 &
OLDER_PID=$!
CYCLETRACK_HA_VERSION="$CURRENT_HA" swift test --skip-build --filter EndToEndTests 2>&1 \
  | tee "$LOGS/current-ha.log" || status=$?
older=0
wait "$OLDER_PID" || older=$?
# The Home Assistant integration: its checks (ruff, mypy --strict, the manifest checks) and
# its pytest suite with coverage (pytest-homeassistant-custom-component on HA 2026.11.0, in
# the forky root), against the cycletrack just built.
integration=0
if [ -n "$ROOT_PID" ]; then
  say "the integration's checks and tests (scripts/test-integration.sh) against $(swift build --show-bin-path)/cycletrack"
  CYCLETRACK_BIN="$(swift build --show-bin-path)/cycletrack" scripts/test-integration.sh 2>&1 \
    | tee "$LOGS/integration.log" || integration=$?
else
  say "SKIPPED: not root: the integration's checks and tests need the forky root"
fi
say "---- the suites on Home Assistant $OLDER_HA ----"
cat "$LOGS/older-ha.log"
deploy=0
wait "$DEPLOY_PID" || deploy=$?
say "---- the deployment tests (scripts/test-deploy.sh) ----"
cat "$LOGS/deploy.log"
# What failed, one line each, again at the end: where only the end of this output is
# kept (a CI page), a failure in the middle of a long log still shows.
failures() {
  local found
  found="$(grep -ahE "$2" "$1" 2>/dev/null | cut -c1-400 | sort -u | head -20)" || true
  [ -z "$found" ] || { say "what failed in $3:"; printf '%s\n' "$found"; }
}
failures "$LOGS/unit.log" '✘.*Test .*recorded an issue' "the suites without Home Assistant"
failures "$LOGS/current-ha.log" '✘.*Test .*recorded an issue' "the suites on $CURRENT_HA"
failures "$LOGS/older-ha.log" '✘.*Test .*recorded an issue' "the suites on $OLDER_HA"
failures "$LOGS/integration.log" '^(FAILED|ERROR) |FAILED: |FAIL Required test coverage' "the integration"
failures "$LOGS/deploy.log" '^deploy: FAIL' "the deployment tests"
verdict() { [ "$1" -eq 0 ] && echo passed || echo FAILED; }
say "Home Assistant $CURRENT_HA: every suite $(verdict $status)"
say "Home Assistant $OLDER_HA: $OLDER_HA_SUITES $(verdict $older)"
say "the integration's checks and tests $(verdict $integration)"
say "the deployment tests $(verdict $deploy)"
rm -rf "$LOGS"
failed=()
[ $status -eq 0 ] || failed+=("the suites on $CURRENT_HA")
[ $older -eq 0 ] || failed+=("the suites on $OLDER_HA")
[ $integration -eq 0 ] || failed+=("the integration")
[ $deploy -eq 0 ] || failed+=("the deployment tests")
if [ ${#failed[@]} -eq 0 ]; then
  say "PASSED: every suite, the integration's checks and tests, the deployment tests ($((SECONDS - start)) s)"
else
  say "FAILED: $(IFS=,; echo "${failed[*]}" | sed 's/,/, /g') ($((SECONDS - start)) s)"
  exit 1
fi
