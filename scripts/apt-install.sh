#!/usr/bin/env bash
# Install one Debian package with apt-get, as root or through sudo, for the
# ensure-*.sh scripts (ensure-chromium.sh, ensure-firefox.sh).
#   apt-install.sh LABEL PACKAGE
# LABEL prefixes every message (e.g. "ensure-firefox"). Waits up to 10 min
# for a dpkg lock held by another apt-get. Exits 1 when it cannot install
# (not root and no sudo, or apt-get failed).
set -euo pipefail

label=$1
package=$2

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO=(sudo)
	else
		echo "$label: $package is missing and we are not root (no sudo available)" >&2
		exit 1
	fi
fi

echo "$label: installing Debian package '$package' (about a minute)" >&2
echo "$label: apt-get update" >&2
"${SUDO[@]}" apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null
echo "$label: apt-get install -y $package" >&2
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq "$package" >/dev/null
