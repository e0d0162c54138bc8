#!/usr/bin/env bash
# Installs the three Debian libraries cycletrack builds against, if they are missing.
set -euo pipefail
packages=(libsqlite3-dev libcurl4-openssl-dev libmicrohttpd-dev)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "system packages: ${packages[*]} already installed"
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "system packages: installing ${missing[*]}"
$sudo apt-get update -qq
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
