#!/usr/bin/env bash
# First look, on a fresh Debian machine with Swift 6.3: installs the three system
# libraries (scripts/install-system-packages.sh), builds cycletrack (release, Swift
# runtime linked in), and runs the demo, which needs no Home Assistant. Arguments go
# to the demo (e.g. --speed 5000).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-system-packages.sh
echo "building cycletrack (release; the first build takes a few minutes)"
log=$(mktemp)
if ! swift build -c release --static-swift-stdlib --product cycletrack >"$log" 2>&1; then
  cat "$log"
  rm -f "$log"
  echo "the build failed; the lines above say why" >&2
  exit 1
fi
grep -E "complete!" "$log" || true
rm -f "$log"
exec .build/release/cycletrack demo "$@"
