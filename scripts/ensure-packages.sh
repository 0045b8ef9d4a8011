#!/usr/bin/env bash
# Makes sure the Debian packages named as arguments are installed.
# As root, missing ones are installed with apt-get; otherwise the exact command is printed
# and the script exits with status 1.
set -euo pipefail
missing=()
for package in "$@"; do
  # Read whole, not through `grep -q`, which stops reading early (SIGPIPE under pipefail).
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  if [ "$status" != "install ok installed" ]; then
    missing+=("$package")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ]; then
  echo "Installing ${missing[*]} with apt-get…" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
else
  echo "Perch needs these Debian packages: ${missing[*]}" >&2
  echo "Install them with:  sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
