#!/usr/bin/env bash
# A Debian forky root (Python 3.14) with Home Assistant 2026.11.0 for cycletrack's
# end-to-end tests, and a second venv for the integration's pytest suite. Built from
# Debian's mirror and PyPI by the tests themselves, cached outside the repository in a
# directory named after a hash of its inputs: other inputs, another root beside it (a
# root in use is never rebuilt under a running test). See docs/TESTING.md.
#
#   scripts/ha/forky-root.sh ensure              build the root if it is missing or its inputs changed
#   scripts/ha/forky-root.sh run [--venv hass|pytest] [--bind DIR]... -- COMMAND [ARG...]
#                                                run COMMAND inside the root (ensures it first):
#                                                the repository, /tmp and DIRs are visible at
#                                                the same paths, the working directory is kept
#                                                when it is visible, PATH starts with a venv:
#                                                hass (default): /opt/homeassistant, HA 2026.11.0;
#                                                pytest: /opt/cycletrack-integration-pytest,
#                                                the same HA with pytest-homeassistant-custom-
#                                                component 0.13.375 (scripts/test-integration.sh)
#   scripts/ha/forky-root.sh pytest [ARG...]     = run --venv pytest -- python -m pytest ARG...
#   scripts/ha/forky-root.sh status              exit 0 when the root is built and current; says why not
#   scripts/ha/forky-root.sh path                print the root's directory
#   scripts/ha/forky-root.sh venv [hass|pytest]  print that venv's path inside the root
#   scripts/ha/forky-root.sh rebuild             throw the root away and build it again
#
# Examples:
#   scripts/ha/forky-root.sh pytest integration/tests -q
#   scripts/ha/forky-root.sh run -- hass --version
#
# Where: $CYCLETRACK_HA_ROOT, else $CYCLETRACK_CACHE_DIR/ha-2026.11.0-root-<inputs hash>
# (CYCLETRACK_CACHE_DIR defaults to ${XDG_CACHE_HOME:-$HOME/.cache}/cycletrack; pip's
# downloads are cached in $CYCLETRACK_CACHE_DIR/pip). A new root takes the Debian part
# of a sibling root with the same Debian inputs (a copy) instead of debootstrapping again.
# Needs root (debootstrap, unshare, chroot). `run` enters a private mount namespace
# (unshare --mount --propagation private), bind-mounts /proc /dev /sys /tmp, the
# repository and resolv.conf into the root and chroots; the mounts end with the
# command, nothing stays mounted. The command keeps this process's pid (every step
# execs), so signals sent to it reach the command.
# Environment inside: HOME=/root, LANG=C.UTF-8, PATH with the venv first; TERM, TZ, CI
# and every CYCLETRACK_* / PYTEST_* variable are passed on, nothing else.
# Builds take a lock (flock on <root>.lock): two runs never build at once.
set -euo pipefail

HA_VERSION="2026.11.0"
SUITE="forky"
# pytest-homeassistant-custom-component for the integration's tests: no release pins
# homeassistant==2026.11.0 (the newest, 0.13.375, pins 2026.10.4), so it goes into a copy
# of the HA venv without its dependencies (build-venv.sh). Set this to the release for
# 2026.11 when there is one.
PHCC_VERSION="0.13.375"
# Debian packages inside the root (debootstrap brings python3, python3-venv, ca-certificates):
# what HA's wheels build and load with, and the C libraries the cycletrack binary links
# (scripts/test-integration.sh runs the binary built on the host inside the root).
DEBIAN_PACKAGES=(python3-dev build-essential libffi-dev libssl-dev libturbojpeg0 libjpeg62-turbo tzdata
  libcurl4t64 libmicrohttpd12t64 libsqlite3-0)
VENV_IN_ROOT="/opt/homeassistant"
PYTEST_VENV_IN_ROOT="/opt/cycletrack-integration-pytest"

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
CACHE_DIR="${CYCLETRACK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/cycletrack}"

say() { printf 'forky-root: %s\n' "$*" >&2; }
die() { printf 'forky-root: FAILED: %s\n' "$*" >&2; exit 1; }

# ---- Inputs: the marker records them; any change rebuilds -------------------------

mirror() {
  local sources=/etc/apt/sources.list.d/debian.sources
  if [[ -n "${CYCLETRACK_DEBIAN_MIRROR:-}" ]]; then echo "$CYCLETRACK_DEBIAN_MIRROR"
  elif [[ -f $sources ]]; then awk '/^URIs:/ {print $2; exit}' "$sources"
  else echo "http://deb.debian.org/debian"; fi
}

# The Debian part (a change here rebuilds everything).
debian_inputs() {
  printf 'suite=%s mirror=%s packages=%s\n' "$SUITE" "$(mirror)" "${DEBIAN_PACKAGES[*]}"
}

# The Python part (a change here rebuilds only the venv): versions and the scripts that
# decide what is installed.
venv_inputs() {
  printf 'homeassistant==%s phcc==%s closure=%s\n' "$HA_VERSION" "$PHCC_VERSION" \
    "$(cat "$HERE/build-venv.sh" "$HERE/requirements_closure.py" "$HERE/requirements-extra-2026.11.txt" \
         "$HERE/requirements-integration-tests.txt" | sha256sum | cut -c1-16)"
}

inputs() { debian_inputs; venv_inputs; }

ROOT="${CYCLETRACK_HA_ROOT:-$CACHE_DIR/ha-${HA_VERSION}-root-$(inputs | sha256sum | cut -c1-12)}"
MARKER="$ROOT/.cycletrack-root-inputs"
LOCK="$ROOT.lock"

is_current() {
  [[ -f "$MARKER" && -x "$ROOT$VENV_IN_ROOT/bin/hass" && -x "$ROOT$PYTEST_VENV_IN_ROOT/bin/python" \
     && "$(cat "$MARKER")" == "$(inputs)" ]]
}

status() {
  if [[ ! -d "$ROOT" ]]; then echo "no root at $ROOT (scripts/ha/forky-root.sh ensure builds it)"; return 1; fi
  if [[ ! -f "$MARKER" ]]; then echo "the root at $ROOT is unfinished (no marker)"; return 1; fi
  if ! is_current; then echo "the root at $ROOT was built from other inputs (ensure rebuilds it)"; return 1; fi
  echo "Home Assistant $HA_VERSION is ready in $ROOT (venvs $VENV_IN_ROOT, $PYTEST_VENV_IN_ROOT)"
}

# ---- Entering the root -------------------------------------------------------------

need_root() {
  [[ "$(id -u)" -eq 0 ]] || die "needs root (debootstrap, unshare --mount, chroot); this is uid $(id -u)"
}

# in_root ENV_ASSIGNMENTS... -- COMMAND...: runs COMMAND in the root with only the given
# environment, in a private mount namespace. Extra binds come from BINDS (array).
in_root() {
  local envs=()
  while [[ $# -gt 0 && "$1" != "--" ]]; do envs+=("$1"); shift; done
  shift
  local dirs=("$REPO" /tmp "${BINDS[@]}")
  [[ -n "${TMPDIR:-}" && -d "${TMPDIR}" ]] && dirs+=("$TMPDIR")
  local cwd="$PWD" visible=0 dir
  for dir in "${dirs[@]}"; do [[ "$cwd" == "$dir" || "$cwd" == "$dir"/* ]] && visible=1; done
  [[ $visible -eq 1 ]] || cwd="$REPO"
  exec unshare --mount --propagation private -- /bin/bash -c '
    set -e
    root="$1"; cwd="$2"; ndirs="$3"; shift 3
    for fs in proc dev sys; do mkdir -p "$root/$fs"; mount --rbind "/$fs" "$root/$fs"; done
    while [ "$ndirs" -gt 0 ]; do
      mkdir -p "$root$1"; mount --rbind "$1" "$root$1"; shift; ndirs=$((ndirs - 1))
    done
    if [ -f /etc/resolv.conf ]; then
      touch "$root/etc/resolv.conf"; mount --bind "$(readlink -f /etc/resolv.conf)" "$root/etc/resolv.conf"
    fi
    exec chroot "$root" /usr/bin/env -i "$@"
  ' forky-root "$ROOT" "$cwd" "${#dirs[@]}" "${dirs[@]}" \
    /bin/sh -c 'cd "$0" && exec "$@"' "$cwd" /usr/bin/env "${envs[@]}" "$@"
}

base_env() {  # [venv]
  local venv="${1:-$VENV_IN_ROOT}"
  printf '%s\n' HOME=/root LANG=C.UTF-8 \
    "PATH=$venv/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
    "VIRTUAL_ENV=$venv" PIP_CERT=/etc/ssl/certs/ca-certificates.crt \
    SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1
}

passed_env() {
  local name
  while IFS= read -r name; do
    case "$name" in
      CYCLETRACK_*|PYTEST_*|TERM|TZ|CI) printf '%s=%s\n' "$name" "${!name}" ;;
    esac
  done < <(compgen -e)
}

# ---- Building ----------------------------------------------------------------------

# Removes a root; refuses when anything is mounted below it (a host /dev or /proc
# bound there must never be deleted through it).
remove_tree() {
  local tree="$1"
  [[ -e "$tree" ]] || return 0
  if awk -v t="$(readlink -f "$tree")" '$5 == t || index($5, t "/") == 1 {found=1} END {exit !found}' /proc/self/mountinfo; then
    die "something is mounted below $tree (see /proc/self/mountinfo); not removing it"
  fi
  rm -rf --one-file-system "$tree"
}

build_debian() {
  local target="$1" mirror
  mirror="$(mirror)"
  command -v debootstrap >/dev/null || die "debootstrap is missing (apt-get install -y debootstrap)"
  local script=/usr/share/debootstrap/scripts/sid   # bookworm's debootstrap has no forky script
  [[ -f /usr/share/debootstrap/scripts/$SUITE ]] && script=/usr/share/debootstrap/scripts/$SUITE
  remove_tree "$target"
  mkdir -p "$target"
  say "step 1/4: debootstrap --variant=minbase $SUITE from $mirror (about 1 minute)"
  # In a private mount namespace: whatever debootstrap mounts in the target (proc, sys)
  # is gone when it exits, even when it fails half way.
  unshare --mount --propagation private -- debootstrap --variant=minbase --include=python3,python3-venv,ca-certificates \
    "$SUITE" "$target" "$mirror" "$script" >"$target.debootstrap.log" 2>&1 \
    || { tail -20 "$target.debootstrap.log" >&2; die "debootstrap failed (log: $target.debootstrap.log)"; }
  rm -f "$target.debootstrap.log"
  # forky's Release file is past its Valid-Until; take the host's setting for that, and
  # the host's CA certificates (apt and pip go through the same network as the host's).
  grep -h 'Check-Valid-Until' /etc/apt/apt.conf.d/* 2>/dev/null | sort -u >"$target/etc/apt/apt.conf.d/99cycletrack-valid-until" || true
  if [[ -d /usr/local/share/ca-certificates ]]; then
    cp -a /usr/local/share/ca-certificates/. "$target/usr/local/share/ca-certificates/"
  fi
  cp /etc/hosts "$target/etc/hosts" 2>/dev/null || true
  say "step 2/4: apt-get install ${DEBIAN_PACKAGES[*]}"
  ( ROOT="$target"; BINDS=(); in_root HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive -- \
      /bin/sh -c "update-ca-certificates >/dev/null && apt-get update -qq && apt-get install -y -qq --no-install-recommends ${DEBIAN_PACKAGES[*]} >/dev/null && apt-get clean" ) \
    || die "apt-get inside the root failed"
  debian_inputs >"$target/.cycletrack-debian-inputs"
}

# Copies the Debian part (everything but the venvs and markers) of a finished sibling root
# with the same Debian inputs into TARGET; fails when there is none.
copy_debian() {
  local target="$1" sibling
  for sibling in "$(dirname "$ROOT")"/ha-"${HA_VERSION}"-root*; do
    [[ -d "$sibling" && "$sibling" != "$ROOT" && "$sibling" != *.building && -f "$sibling/.cycletrack-root-inputs" ]] || continue
    [[ "$(cat "$sibling/.cycletrack-debian-inputs" 2>/dev/null)" == "$(debian_inputs)" ]] || continue
    remove_tree "$target"
    mkdir -p "$target"
    say "steps 1-2/4: the Debian part of $sibling (same Debian inputs), copied"
    if tar -C "$sibling" --one-file-system --exclude="./opt/*" --exclude="./.cycletrack-*" -cf - . | tar -C "$target" -xpf -; then
      debian_inputs >"$target/.cycletrack-debian-inputs"
      return 0
    fi
    say "copying $sibling failed; building the Debian part instead"
  done
  return 1
}

build_venv() {
  local envs=()
  mapfile -t envs < <(base_env)
  # pip's cache, in the cache directory: a rebuild after an input change downloads little.
  local pip_cache="$CACHE_DIR/pip"
  mkdir -p "$pip_cache"
  BINDS=("$pip_cache")
  remove_tree "${ROOT:?}$VENV_IN_ROOT"
  remove_tree "${ROOT:?}$PYTEST_VENV_IN_ROOT"
  say "step 3/4: venvs: $VENV_IN_ROOT, homeassistant==$HA_VERSION twice (the second time under its package_constraints.txt) and what the loaded integrations need; $PYTEST_VENV_IN_ROOT, a copy with pytest-homeassistant-custom-component $PHCC_VERSION"
  ( in_root "${envs[@]}" "PIP_CACHE_DIR=$pip_cache" -- \
      /bin/bash "$HERE/build-venv.sh" "$HA_VERSION" "$PHCC_VERSION" "$VENV_IN_ROOT" "$PYTEST_VENV_IN_ROOT" "$REPO" ) \
    || die "building the venv failed (above)"
}

build() {
  need_root
  mkdir -p "$(dirname "$ROOT")"
  exec 9>"$LOCK"
  if ! flock -n 9; then
    say "another run is building the root; waiting for it (lock $LOCK)"
    flock 9
  fi
  if is_current; then exec 9>&-; return 0; fi
  local start=$SECONDS
  rm -f "$MARKER"
  if [[ ! -f "$ROOT/.cycletrack-debian-inputs" || "$(cat "$ROOT/.cycletrack-debian-inputs" 2>/dev/null)" != "$(debian_inputs)" ]]; then
    copy_debian "$ROOT.building" || build_debian "$ROOT.building"
    remove_tree "$ROOT"
    mv "$ROOT.building" "$ROOT"
  else
    say "the Debian part is current"
  fi
  if [[ "$(cat "$ROOT/.cycletrack-venv-inputs" 2>/dev/null)" != "$(venv_inputs)" ]]; then
    rm -f "$ROOT/.cycletrack-venv-inputs"
    build_venv
    venv_inputs >"$ROOT/.cycletrack-venv-inputs"
  else
    say "the venvs are current (a failed smoke start is tried again)"
  fi
  say "step 4/4: a smoke start of hass on the fixture config"
  BINDS=()
  ( mapfile -t envs < <(base_env)
    in_root "${envs[@]}" -- python "$HERE/smoke.py" --venv "$VENV_IN_ROOT" --fixture "$REPO/Tests/EndToEndTests/Fixtures/ha-config" ) \
    || die "Home Assistant $HA_VERSION did not start cleanly in the root (above)"
  inputs >"$MARKER"
  exec 9>&-
  say "built in $((SECONDS - start)) s: Home Assistant $HA_VERSION in $ROOT ($(du -sh "$ROOT" 2>/dev/null | cut -f1))"
}

ensure() {
  if is_current; then return 0; fi
  build
}

# ---- Commands ----------------------------------------------------------------------

BINDS=()
command="${1:-}"
[[ $# -gt 0 ]] && shift
case "$command" in
  ensure) ensure; status >&2 ;;
  status) status ;;
  path) echo "$ROOT" ;;
  venv) case "${1:-hass}" in hass) echo "$VENV_IN_ROOT" ;; pytest) echo "$PYTEST_VENV_IN_ROOT" ;;
          *) die "venv: hass or pytest, not '$1'" ;; esac ;;
  rebuild) need_root; remove_tree "$ROOT"; remove_tree "$ROOT.building"; build; status >&2 ;;
  run|pytest)
    venv="$VENV_IN_ROOT"
    if [[ "$command" == pytest ]]; then
      set -- --venv pytest -- python -m pytest "$@"
    fi
    while [[ $# -gt 0 && "$1" != "--" ]]; do
      case "$1" in
        --bind) [[ $# -ge 2 ]] || die "--bind needs a directory"; BINDS+=("$(cd "$2" && pwd)"); shift 2 ;;
        --venv) case "${2:-}" in hass) venv="$VENV_IN_ROOT" ;; pytest) venv="$PYTEST_VENV_IN_ROOT" ;;
                  *) die "--venv: hass or pytest, not '${2:-}'" ;; esac; shift 2 ;;
        *) die "run: unknown option '$1' (usage: run [--venv hass|pytest] [--bind DIR]... -- COMMAND [ARG...])" ;;
      esac
    done
    [[ $# -ge 2 ]] || die "run: no command (usage: run [--venv hass|pytest] [--bind DIR]... -- COMMAND [ARG...])"
    shift
    need_root
    ensure
    mapfile -t envs < <(base_env "$venv"; passed_env)
    in_root "${envs[@]}" -- "$@"
    ;;
  -h|--help|help) sed -n '2,39p' "$0" ;;
  *) die "unknown command '${command}' (ensure, run, pytest, status, path, venv, rebuild; --help)" ;;
esac
