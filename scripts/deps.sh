#!/usr/bin/env bash
# Installs the Debian packages of scripts/debian-packages.txt (or of the
# list files given as arguments) that are missing.
# Idempotent: does nothing (and needs no network) when all are installed.
# Uses sudo only when not root.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
lists=("$@")
((${#lists[@]})) || lists=("$here/debian-packages.txt")
mapfile -t pkgs < <(cat "${lists[@]}" | grep -v -e '^#' -e '^[[:space:]]*$')

missing=()
for p in "${pkgs[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ $status == "install ok installed" ]] || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  exit 0
fi

echo "deps: installing ${missing[*]}"
if [[ $(id -u) -eq 0 ]]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1; then
  sudo=(sudo)
else
  echo "deps: missing packages and neither root nor sudo: install them with" >&2
  echo "  apt-get install ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update
"${sudo[@]}" apt-get install -y "${missing[@]}"
