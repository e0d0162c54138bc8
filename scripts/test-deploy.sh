#!/usr/bin/env bash
# The deployment tests: builds the container image and the Home Assistant add-on
# image from their Dockerfiles with Podman, then runs each against a real Home
# Assistant (the end-to-end tests' HA 2026.11.0 in the forky root of
# scripts/ha/forky-root.sh, with its stand-ins) and plays a whole
# dishwasher cycle through it. Takes minutes; .ci/run runs it after the main suite.
#
#   scripts/test-deploy.sh
#
# Needs root (Podman here runs rootful), Debian's apt mirror and PyPI; no image
# registry: the base images are made locally (debootstrap) and kept, as
# localhost/cycletrack-test/..., in a Podman store of its own in the cache directory
# ($CYCLETRACK_CACHE_DIR/podman, default ~/.cache/cycletrack/podman), so a second run
# reuses them, and the Swift toolchain of this machine is mounted into the build
# instead of pulled.
# The compiling (the container image's release build and the release tarball's, side by
# side) runs at idle priority (chrt --idle): .ci/run starts this script beside
# scripts/test.sh, whose end-to-end suites mostly wait, and the builds take only the CPU
# those leave.
# Where Podman cannot run (not root, no Podman and no way to install it) it says
# so and skips; with CYCLETRACK_REQUIRE_DEPLOY=1 (CI) a skip is a failure.
#
# Environment:
#   CYCLETRACK_SWIFT_TOOLCHAIN  the toolchain to mount (default: found from `swift`, e.g. /opt/swift)
#   CYCLETRACK_CACHE_DIR        every cache (Podman store, HA root and venv; docs/TESTING.md)
#   CYCLETRACK_KEEP_DEPLOY=1    keep the temporary directory (logs, HA config)
#
# Ends with one line `deploy: N passed, M failed` (or `deploy: skipped ...`).
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"

say() { printf 'deploy: %s\n' "$*"; }
PASSED=0
FAILED=0
pass() { PASSED=$((PASSED + 1)); say "ok   $*"; }
fail() { FAILED=$((FAILED + 1)); say "FAIL $*"; }
skip_all() {
  say "SKIPPED: $*"
  if [[ "${CYCLETRACK_REQUIRE_DEPLOY:-}" == "1" ]]; then
    say "CYCLETRACK_REQUIRE_DEPLOY=1: a skipped deploy test is a failure here"
    echo "deploy: 0 passed, 1 failed"
    exit 1
  fi
  echo "deploy: skipped (the container tests did not run)"
  exit 0
}
finish() {
  echo "deploy: ${PASSED} passed, ${FAILED} failed"
  [[ $FAILED -eq 0 ]]
  exit $?
}
seconds_since() { echo $(( $(date +%s) - $1 )); }

START=$(date +%s)

# ---- Can Podman run here? -------------------------------------------------------
[[ "$(id -u)" -eq 0 ]] || skip_all "Podman runs rootful on these machines and this is not root (uid $(id -u)); run as root"
if ! command -v podman >/dev/null 2>&1 || ! command -v runc >/dev/null 2>&1 || ! command -v debootstrap >/dev/null 2>&1; then
  say "installing podman, runc and debootstrap with apt"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman runc debootstrap; } >/dev/null 2>&1 \
    || skip_all "podman, runc or debootstrap are missing and apt-get could not install them"
fi
# This kernel: runc (crun fails on hybrid cgroups), cgroupfs, and limits the sandbox allows.
# The store: the cache directory's own, so a cold run (a new CYCLETRACK_CACHE_DIR) builds
# every image again without touching this machine's other images.
CACHE_DIR="${CYCLETRACK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/cycletrack}"
mkdir -p "$CACHE_DIR/podman/storage" "$CACHE_DIR/podman/run"
P=(podman --root "$CACHE_DIR/podman/storage" --runroot "$CACHE_DIR/podman/run" --runtime runc --cgroup-manager=cgroupfs)
# What compiles yields to what waits (the end-to-end suites beside it, .ci/run): the idle
# scheduling class, which the compilers inherit (swift-build starts them at nice 0 again,
# so nice alone would not reach them).
NICE=(chrt --idle 0 nice -n 19)
L=(--ulimit nofile=20000:20000 --ulimit nproc=4096:4096)
"${P[@]}" info >/dev/null 2>&1 || skip_all "'podman info' fails here: $("${P[@]}" info 2>&1 | tail -1)"

SWIFT_TOOLCHAIN="${CYCLETRACK_SWIFT_TOOLCHAIN:-}"
if [[ -z "$SWIFT_TOOLCHAIN" ]]; then
  swift_bin="$(command -v swift || true)"
  [[ -n "$swift_bin" ]] || { say "FAILED: no swift on PATH (set CYCLETRACK_SWIFT_TOOLCHAIN)"; FAILED=1; finish; }
  SWIFT_TOOLCHAIN="$(cd "$(dirname "$(readlink -f "$swift_bin")")/../.." && pwd)"   # <root>/usr/bin/swift
fi
[[ -x "$SWIFT_TOOLCHAIN/usr/bin/swift" ]] || { say "FAILED: no toolchain at $SWIFT_TOOLCHAIN (usr/bin/swift)"; FAILED=1; finish; }

VERSION="$(awk -F'"' '/^version:/ {print $2; exit}' cycletrack/config.yaml)"
[[ -n "$VERSION" ]] || { say "FAILED: no version in cycletrack/config.yaml"; FAILED=1; finish; }

WORK="$(mktemp -d /tmp/cycletrack-deploy.XXXXXX)"
chmod 0700 "$WORK"
cleanup() {
  # The release build is not left running (nor writing into $WORK) after an early finish.
  [[ -n "${RELEASE_PID:-}" ]] && wait "$RELEASE_PID" 2>/dev/null
  if [[ "${CYCLETRACK_KEEP_DEPLOY:-}" == "1" ]]; then say "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
say "cycletrack $VERSION; toolchain $SWIFT_TOOLCHAIN; logs in $WORK"

# ---- The release tarball: built from here on, beside the rest; checked at the end ----
# Its own scratch path: `swift test` in .build (scripts/test.sh, at the same time) holds
# that folder's lock for its whole run.
RELEASE_START=$(date +%s)
CYCLETRACK_RELEASE_SCRATCH="$ROOT/.build/release-tarball" "${NICE[@]}" scripts/release.sh "$WORK/dist" >"$WORK/release.log" 2>&1 &
RELEASE_PID=$!

# ---- Home Assistant (the end-to-end tests' forky root and venv; cached) ---------------
# HA 2026.11.0 runs in the forky root; live_test.py itself runs with the 2024.3.3 venv's
# Python (aiohttp, PyYAML), because it drives Podman on this machine.
scripts/ha/forky-root.sh ensure || { say "FAILED: scripts/ha/forky-root.sh ensure"; FAILED=$((FAILED + 1)); finish; }
scripts/ha/setup.sh || { say "FAILED: scripts/ha/setup.sh"; FAILED=$((FAILED + 1)); finish; }
VENV="${CYCLETRACK_HA_VENV:-$CACHE_DIR/ha-2024.3.3}"

# ---- Local base images (kept in Podman's store, reused) ------------------------------
BASE=localhost/cycletrack-test/bookworm:minbase
STANDIN_FILE=scripts/deploy/swift-standin.Containerfile
SWIFT_STANDIN="localhost/cycletrack-test/swift-standin:$(sha256sum "$STANDIN_FILE" | cut -c1-12)"
T=$(date +%s)
if "${P[@]}" image exists "$BASE"; then
  say "base image $BASE: reused"
else
  MIRROR="$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)"
  [[ -n "$MIRROR" ]] || MIRROR="$(awk '/^deb / {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)"
  MIRROR="${MIRROR:-http://deb.debian.org/debian}"
  say "base image $BASE: debootstrap --variant=minbase bookworm from $MIRROR"
  if debootstrap --variant=minbase bookworm "$WORK/rootfs" "$MIRROR" >"$WORK/debootstrap.log" 2>&1 \
     && tar -C "$WORK/rootfs" -c . | "${P[@]}" import - "$BASE" >/dev/null 2>&1; then
    rm -rf "$WORK/rootfs"
  else
    tail -20 "$WORK/debootstrap.log"
    fail "making the local Debian base image"; finish
  fi
fi
if "${P[@]}" image exists "$SWIFT_STANDIN"; then
  say "Swift stand-in image $SWIFT_STANDIN: reused"
else
  say "Swift stand-in image $SWIFT_STANDIN: building"
  if ! "${NICE[@]}" "${P[@]}" build --pull=never --network=host "${L[@]}" --build-arg BASE="$BASE" \
       -f "$STANDIN_FILE" -t "$SWIFT_STANDIN" scripts/deploy >"$WORK/standin-build.log" 2>&1; then
    tail -20 "$WORK/standin-build.log"
    fail "building the Swift stand-in image"; finish
  fi
fi
say "base images ready in $(seconds_since "$T") s"

# ---- The two images, from their Dockerfiles as they are -----------------------------
CONTAINER_IMAGE=localhost/cycletrack-test/cycletrack:test
ADDON_IMAGE=localhost/cycletrack-test/cycletrack-addon:test
build() {  # name dockerfile image build-args...
  local name="$1" dockerfile="$2" image="$3"
  shift 3
  local t log="$WORK/build-$name.log"
  t=$(date +%s)
  if "${NICE[@]}" "${P[@]}" build --pull=never --network=host "${L[@]}" -v "$SWIFT_TOOLCHAIN:/opt/swift:ro" \
       --build-arg SWIFT_IMAGE="$SWIFT_STANDIN" "$@" -f "$dockerfile" -t "$image" . >"$log" 2>&1; then
    local size
    size="$("${P[@]}" image inspect --format '{{.Size}}' "$image")"
    pass "built $name image from $dockerfile in $(seconds_since "$t") s: $image, $((size / 1000000)) MB"
    echo "$name $(seconds_since "$t") $size" >>"$WORK/measured"
    return 0
  fi
  tail -30 "$log"
  fail "building $name image from $dockerfile (log above)"
  return 1
}
build container Deploy/container/Dockerfile "$CONTAINER_IMAGE" --build-arg RUNTIME_IMAGE="$BASE" || finish
build add-on cycletrack/Dockerfile "$ADDON_IMAGE" \
  --build-arg BUILD_FROM="$BASE" --build-arg BUILD_ARCH=amd64 --build-arg BUILD_VERSION="$VERSION" || finish

for image in "$CONTAINER_IMAGE" "$ADDON_IMAGE"; do
  said="$("${P[@]}" run --rm --network=none "${L[@]}" --entrypoint /usr/local/bin/cycletrack "$image" --version 2>&1)"
  if [[ "$said" == "cycletrack $VERSION" ]]; then
    pass "$image: cycletrack --version says $VERSION, as config.yaml does"
  else
    fail "$image: cycletrack --version says '$said', config.yaml says $VERSION"
  fi
done

# ---- Live: both images against a real Home Assistant --------------------------------
"$VENV/bin/python" scripts/deploy/live_test.py \
  --venv "$VENV" --ha-root "$ROOT/scripts/ha/forky-root.sh" --work "$WORK" --results "$WORK/live-results" \
  --container-image "$CONTAINER_IMAGE" --addon-image "$ADDON_IMAGE" \
  --podman "${P[*]}" --ulimits "${L[*]}"
live_status=$?
if [[ -f "$WORK/live-results" ]]; then
  read -r live_passed live_failed <"$WORK/live-results"
  PASSED=$((PASSED + live_passed))
  FAILED=$((FAILED + live_failed))
fi
if [[ $live_status -ne 0 && ( ! -f "$WORK/live-results" || ${live_failed:-0} -eq 0 ) ]]; then
  fail "live_test.py exited $live_status"
fi

# ---- Release tarball and the systemd unit in it --------------------------------------
if wait "$RELEASE_PID"; then
  T=$RELEASE_START
  tarball="$(ls "$WORK"/dist/cycletrack-"$VERSION"-linux-*.tar.gz 2>/dev/null | head -1)"
  listed="$(tar -tzf "$tarball" 2>/dev/null | sort | tr '\n' ' ')"
  mkdir -p "$WORK/unpacked" && tar -C "$WORK/unpacked" -xzf "$tarball"
  top="$WORK/unpacked/$(basename "$tarball" .tar.gz)"
  said="$("$top/cycletrack" --version 2>&1)"
  if [[ -x "$top/cycletrack" && -f "$top/cycletrack.service" && -f "$top/LICENSE" && -f "$top/README.md" \
        && "$said" == "cycletrack $VERSION" ]]; then
    pass "scripts/release.sh made $(basename "$tarball") in $(seconds_since "$T") s: $listed"
    echo "release-tarball $(seconds_since "$T") $(stat -c %s "$tarball")" >>"$WORK/measured"
  else
    fail "the release tarball: has '$listed'; its cycletrack --version says '$said'"
  fi
  # systemd: PID 1 here is not systemd, so the unit can't be started; verify the shipped
  # unit against the shipped binary instead.
  init="$(ps -p 1 -o comm= 2>/dev/null || echo unknown)"
  if command -v systemd-analyze >/dev/null 2>&1 && [[ -f "$top/cycletrack.service" ]]; then
    sed "s|ExecStart=/usr/local/bin/cycletrack |ExecStart=$top/cycletrack |" "$top/cycletrack.service" >"$WORK/cycletrack.service"
    verified="$(systemd-analyze verify --man=no "$WORK/cycletrack.service" 2>&1)"
    if [[ $? -eq 0 && -z "$verified" ]]; then
      pass "the tarball's systemd unit passes systemd-analyze verify (not started: PID 1 here is '$init', not systemd)"
    else
      fail "systemd-analyze verify on the tarball's unit: $verified"
    fi
  else
    say "systemd unit: systemd-analyze is not installed and PID 1 is '$init': not checked here"
  fi
else
  tail -20 "$WORK/release.log"
  fail "scripts/release.sh (log above)"
fi

say "measured (name, build seconds, image bytes):"
sed 's/^/deploy:   /' "$WORK/measured" 2>/dev/null || true
say "took $(seconds_since "$START") s"
finish
