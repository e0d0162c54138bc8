#!/usr/bin/env bash
# The whole test suite, on a fresh Debian machine with Swift 6.3: installs the system
# libraries and two real Home Assistants for the end-to-end tests, then runs the
# README's commands and every test.
#
# Home Assistant (docs/TESTING.md):
#   2026.11.0  in a Debian forky root (scripts/ha/forky-root.sh; needs root): every
#              real-HA suite runs on it.
#   2024.3.3   in a venv (scripts/ha/setup.sh): the suites of what the README says works
#              on older Home Assistant ($OLDER_HA_SUITES), at the same time as the rest
#              (the test binary run directly, beside `swift test`).
# As root a Home Assistant that can't be built is a failure (CYCLETRACK_REQUIRE_HA=1);
# not as root, 2026.11.0 can't run here and its suites say so as skips.
set -euo pipefail
cd "$(dirname "$0")/.."
CURRENT_HA=2026.11.0
OLDER_HA=2024.3.3
# What the README says works on older HA (docs/TESTING.md, "Minimum Home Assistant per
# feature"): cycle tracking over REST (poll) and the WebSocket API (events), discovery, check.
OLDER_HA_SUITES="ServiceWithHomeAssistantTests|ServiceRestartsWithHomeAssistantTests|HomeAssistantWebSocketTests"
say() { printf 'test.sh: %s\n' "$*"; }

scripts/install-system-packages.sh
# Headless Chromium loads the history page in the browser tests (they say so and skip
# without it, unless $CI is set).
if ! command -v chromium >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "chromium: installing it for the history page's browser tests"
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
fi

LOGS="$(mktemp -d /tmp/cycletrack-test.XXXXXX)"
ROOT_PID=""
if [ "$(id -u)" -eq 0 ]; then
  export CYCLETRACK_REQUIRE_HA=1
  # The root builds (mostly downloads) while Swift compiles (mostly CPU).
  say "Home Assistant $CURRENT_HA: scripts/ha/forky-root.sh ensure (log $LOGS/forky-root.log)"
  scripts/ha/forky-root.sh ensure >"$LOGS/forky-root.log" 2>&1 &
  ROOT_PID=$!
else
  say "not root: Home Assistant $CURRENT_HA (a chroot) can't run here; its suites will say so as skips"
fi
# The 2024.3.3 venv (pip, mostly downloads) builds beside them too; it is needed only
# from the end-to-end suites on.
say "Home Assistant $OLDER_HA: scripts/ha/setup.sh (log $LOGS/older-ha-setup.log)"
scripts/ha/setup.sh >"$LOGS/older-ha-setup.log" 2>&1 &
OLDER_SETUP_PID=$!
swift build --build-tests
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

# The suites that need no Home Assistant first, alone: they run services in real time
# over loopback, and the end-to-end suites' blocking waits for processes would starve
# Swift's two cooperative threads under them.
say "the suites without a Home Assistant"
status=0
swift test --skip-build --skip EndToEndTests || status=$?

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
CYCLETRACK_HA_VERSION="$CURRENT_HA" swift test --skip-build --filter EndToEndTests || status=$?
older=0
wait "$OLDER_PID" || older=$?
# The Home Assistant integration's pytest suite (pytest-homeassistant-custom-component on
# HA 2026.11.0, in the forky root), against the cycletrack just built.
integration=0
if [ -n "$ROOT_PID" ]; then
  say "the integration's tests (scripts/test-integration.sh) against $(swift build --show-bin-path)/cycletrack"
  CYCLETRACK_BIN="$(swift build --show-bin-path)/cycletrack" scripts/test-integration.sh || integration=$?
else
  say "not root: the integration's tests need the forky root; skipped"
fi
say "---- the suites on Home Assistant $OLDER_HA ----"
cat "$LOGS/older-ha.log"
say "Home Assistant $CURRENT_HA: every suite $([ $status -eq 0 ] && echo passed || echo FAILED)"
say "Home Assistant $OLDER_HA: $OLDER_HA_SUITES $([ $older -eq 0 ] && echo passed || echo FAILED)"
say "the integration's tests $([ $integration -eq 0 ] && echo passed || echo FAILED)"
rm -rf "$LOGS"
[ $status -eq 0 ] && [ $older -eq 0 ] && [ $integration -eq 0 ]
