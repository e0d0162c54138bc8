#!/usr/bin/env bash
# Builds a release for this machine's architecture: a release binary with the Swift
# runtime linked in statically (--static-swift-stdlib: the target needs only libc,
# libstdc++, libsqlite3 and libcurl, no Swift toolchain), and a tarball with the
# binary, the systemd unit and its notes, and the licence.
#
#   scripts/release.sh [OUTDIR]      default OUTDIR: .build/release-artifacts
#
# CYCLETRACK_RELEASE_SCRATCH=DIR builds in DIR instead of .build (swift build --scratch-path),
# so a release can build while another swift command holds .build (scripts/test-deploy.sh).
#
# Makes OUTDIR/cycletrack-<version>-linux-<arch>.tar.gz and its .sha256. The version
# is the one the binary prints (`cycletrack --version`, Sources/CycleCommands/CycletrackVersion.swift);
# the script refuses to go on if cycletrack/config.yaml (the add-on) says otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${1:-.build/release-artifacts}"
say() { printf 'release: %s\n' "$*"; }
die() { printf 'release: FAILED: %s\n' "$*" >&2; exit 1; }

scripts/install-system-packages.sh >/dev/null
SWIFT_BUILD=(swift build -c release --static-swift-stdlib --scratch-path "${CYCLETRACK_RELEASE_SCRATCH:-.build}")
say "building (release, --static-swift-stdlib)"
"${SWIFT_BUILD[@]}" --product cycletrack
BINARY="$("${SWIFT_BUILD[@]}" --show-bin-path)/cycletrack"
VERSION="$("$BINARY" --version | awk '{print $2}')"
ADDON_VERSION="$(awk -F'"' '/^version:/ {print $2; exit}' cycletrack/config.yaml)"
[[ -n "$VERSION" ]] || die "the binary printed no version"
[[ "$VERSION" == "$ADDON_VERSION" ]] || die "cycletrack --version says $VERSION but cycletrack/config.yaml says $ADDON_VERSION"

NAME="cycletrack-${VERSION}-linux-$(uname -m)"
STAGE="$(mktemp -d)"
trap 'rm -rf "$STAGE"' EXIT
mkdir -p "$STAGE/$NAME" "$OUT"
install -m 0755 "$BINARY" "$STAGE/$NAME/cycletrack"
strip "$STAGE/$NAME/cycletrack" 2>/dev/null || true
install -m 0644 Deploy/systemd/cycletrack.service "$STAGE/$NAME/cycletrack.service"
install -m 0644 Deploy/systemd/README.md "$STAGE/$NAME/README.md"
install -m 0644 LICENSE "$STAGE/$NAME/LICENSE"
tar -C "$STAGE" --owner=0 --group=0 -czf "$OUT/$NAME.tar.gz" "$NAME"
(cd "$OUT" && sha256sum "$NAME.tar.gz" > "$NAME.tar.gz.sha256")
say "linked against: $(ldd "$STAGE/$NAME/cycletrack" | awk '{print $1}' | tr '\n' ' ')"
say "made $OUT/$NAME.tar.gz ($(du -h "$OUT/$NAME.tar.gz" | cut -f1); binary $(du -h "$STAGE/$NAME/cycletrack" | cut -f1))"
