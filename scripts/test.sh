#!/usr/bin/env bash
# The whole test suite, on a fresh Debian machine with Swift 6.3: installs the system
# libraries and a real Home Assistant (from PyPI, into a cached virtual environment) for
# the end-to-end tests, then runs the README's commands and every test.
set -euo pipefail
cd "$(dirname "$0")/.."
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
scripts/ha/setup.sh
export CYCLETRACK_REQUIRE_HA=1
swift build --build-tests
# The README's commands, as written (under a minute).
scripts/check-readme.sh
swift test --skip-build
