#!/usr/bin/env bash
# The whole test suite, on a fresh Debian machine with Swift 6.3: installs the system
# libraries and a real Home Assistant (from PyPI, into a cached virtual environment) for
# the end-to-end tests, then runs the README's commands and every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-system-packages.sh
scripts/ha/setup.sh
export CYCLETRACK_REQUIRE_HA=1
swift build --build-tests
# The README's commands, as written (under a minute).
scripts/check-readme.sh
swift test --skip-build
