#!/bin/sh
# Starts cycletrack inside the Home Assistant add-on.
#
# The Supervisor writes the add-on's options to /data/options.json, which is
# cycletrack's config file as it is. No url or token is configured there: with
# $SUPERVISOR_TOKEN set (homeassistant_api: true) cycletrack's config loader takes
# it as the token and defaults the url to http://supervisor/core. The database is
# the `database` option (default /data/cycletrack.sqlite; keep it under /data,
# the only place that survives an update).
#
# The container starts as root (the Supervisor owns /data); this script hands /data
# to the unprivileged user `cycletrack` and drops to it, unless options.json is not
# readable by that user, in which case it says so and stays root.
set -eu

CONFIG=/data/options.json
BINARY=/usr/local/bin/cycletrack

if [ -z "${SUPERVISOR_TOKEN:-}" ]; then
  echo "cycletrack add-on: SUPERVISOR_TOKEN is not set; the add-on needs homeassistant_api: true" >&2
  exit 78
fi
if [ ! -r "$CONFIG" ]; then
  echo "cycletrack add-on: $CONFIG is missing; the Supervisor writes it from the add-on's options" >&2
  exit 78
fi

if [ "$(id -u)" = 0 ]; then
  chown cycletrack:cycletrack /data
  for file in /data/cycletrack.sqlite /data/cycletrack.sqlite-wal /data/cycletrack.sqlite-shm; do
    if [ -e "$file" ]; then chown cycletrack:cycletrack "$file"; fi
  done
  if setpriv --reuid=cycletrack --regid=cycletrack --init-groups test -r "$CONFIG"; then
    echo "cycletrack add-on: starting as user cycletrack with $CONFIG"
    exec setpriv --reuid=cycletrack --regid=cycletrack --init-groups -- "$BINARY" run --config "$CONFIG"
  fi
  echo "cycletrack add-on: $CONFIG is not readable by user cycletrack; running as root"
fi
echo "cycletrack add-on: starting with $CONFIG"
exec "$BINARY" run --config "$CONFIG"
