#!/usr/bin/env bash
# First look, on a fresh Debian machine with Swift 6.3: installs the two system
# libraries, builds cycletrack (release), and runs the demo, which needs no Home Assistant.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-system-packages.sh
echo "building cycletrack (release; the first build takes a few minutes)"
swift build -c release --product cycletrack 2>&1 | grep -E "error|warning: unre|Compiling|Build complete" | tail -n 3
exec .build/release/cycletrack demo "$@"
