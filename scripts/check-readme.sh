#!/usr/bin/env bash
# Runs the commands of the ```sh blocks of README.md, docs/COMMANDS.md and
# docs/CONFIGURATION.md as written, in that order, against the built cycletrack, in a
# scratch folder holding a copy of docs/ (what the commands refer to): the examples
# must work from a clean clone. Commands that need a Home Assistant are shown without
# a ```sh block and are not run here.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="$(swift build --show-bin-path)"
if [ ! -x "$bin/cycletrack" ]; then
    swift build --product cycletrack
fi
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
cp -R docs "$scratch/docs"
pages=(README.md docs/COMMANDS.md docs/CONFIGURATION.md)
awk '/^```sh$/ { inside = 1; next } /^```/ { inside = 0; next } inside { print }' "${pages[@]}" > "$scratch/readme-commands.sh"
count="$(grep -c . "$scratch/readme-commands.sh" || true)"
if [ "$count" -eq 0 ]; then
    echo "check-readme: ${pages[*]} have no sh blocks to run" >&2
    exit 1
fi
if ! (cd "$scratch" && env PATH="$bin:$PATH" HOME="$scratch" TMPDIR="$scratch" TZ=UTC \
        bash -euo pipefail -x readme-commands.sh > "$scratch/stdout.txt" 2> "$scratch/stderr.txt"); then
    echo "check-readme: a command of ${pages[*]} failed (the last lines of its run):" >&2
    tail -n 15 "$scratch/stderr.txt" >&2
    exit 1
fi
echo "check-readme: the $count commands of the sh blocks of ${pages[*]} ran"
