#!/usr/bin/env bash
# Assembles the cycletrack add-on folder, ready to copy into Home Assistant's
# /addons/ (a local add-on) or into an add-on repository:
#
#   Deploy/homeassistant-addon/package.sh OUTDIR     makes OUTDIR/cycletrack/
#
# The Supervisor builds an add-on from its own folder only, so the folder carries
# the Swift sources (src/) that the Dockerfile's first stage compiles.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
[[ $# -eq 1 ]] || { echo "usage: $0 OUTDIR" >&2; exit 64; }
out="$1/cycletrack"
echo "package: assembling the add-on in $out"
rm -rf "$out"
mkdir -p "$out/src"
cp "$here"/{config.yaml,Dockerfile,run.sh,DOCS.md,CHANGELOG.md} "$out/"
cp "$root/Package.swift" "$out/src/"
cp -R "$root/Sources" "$root/Migrations" "$out/src/"
echo "package: done; copy $out to /addons/cycletrack on the Home Assistant host, then install it from the add-on store (Local add-ons)"
