#!/usr/bin/env bash
# The integration's static checks (custom_components/cycletrack), the quality scale's
# strict-typing and Home Assistant's own file checks; scripts/test-integration.sh runs them
# before pytest, so scripts/test.sh does. Fails when one fails:
#
#   1. ruff with Home Assistant core's rule set (pyproject.toml) over custom_components/ and
#      integration_tests/;
#   2. mypy --strict over custom_components/cycletrack, against Home Assistant 2026.11.0's own
#      types (the integration test venv, --python-executable);
#   3. scripts/ha/check_integration_files.py: what hassfest checks of manifest.json, hacs.json,
#      strings.json and translations/en.json, as far as it can run without HA's repository.
#
# ruff and mypy (scripts/ha/requirements-integration-checks.txt) live in a venv of their own
# inside the 2026.11.0 root (Python 3.14), built once per version of that file under
# $CYCLETRACK_CACHE_DIR/integration-checks-<hash> (PyPI; pip's downloads cached). Needs root.
set -uo pipefail
cd "$(dirname "$0")/../.."
repo="$PWD"
say() { printf 'integration-checks: %s\n' "$*"; }
CACHE_DIR="${CYCLETRACK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/cycletrack}"
requirements=scripts/ha/requirements-integration-checks.txt
hash="$(sha256sum "$requirements" | cut -c1-12)"
tools="$CACHE_DIR/integration-checks-$hash"
mkdir -p "$tools" "$CACHE_DIR/pip"
pytest_venv="$(scripts/ha/forky-root.sh venv pytest)"
root() { scripts/ha/forky-root.sh run --bind "$tools" --bind "$CACHE_DIR/pip" -- "$@"; }

(
  flock 9
  if [[ ! -f "$tools/.complete" ]]; then
    say "building the checks' venv ($tools: $(grep -v '^#' "$requirements" | xargs))"
    rm -rf "$tools/venv"
    root /usr/bin/python3 -m venv "$tools/venv" \
      && root /usr/bin/env PIP_CACHE_DIR="$CACHE_DIR/pip" "$tools/venv/bin/python" -m pip --quiet install -r "$repo/$requirements" \
      && touch "$tools/.complete"
  fi
) 9>"$tools.lock"
[[ -f "$tools/.complete" ]] || { say "FAILED: the checks' venv could not be built"; exit 1; }

failed=()
say "ruff check (Home Assistant core's rules, pyproject.toml)"
root "$tools/venv/bin/python" -m ruff check --no-cache --config "$repo/pyproject.toml" \
  "$repo/custom_components" "$repo/integration_tests" || failed+=(ruff)
say "mypy --strict custom_components/cycletrack (Home Assistant's types from $pytest_venv)"
root "$tools/venv/bin/python" -m mypy --config-file "$repo/pyproject.toml" --strict --no-incremental \
  --python-executable "$pytest_venv/bin/python" "$repo/custom_components/cycletrack" || failed+=(mypy)
say "manifest.json, hacs.json, strings.json and translations (scripts/ha/check_integration_files.py)"
root "$pytest_venv/bin/python" "$repo/scripts/ha/check_integration_files.py" || failed+=(files)
if [[ ${#failed[@]} -gt 0 ]]; then
  say "FAILED: ${failed[*]}"
  exit 1
fi
say "ruff, mypy --strict and the file checks passed"
