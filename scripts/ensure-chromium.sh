#!/usr/bin/env bash
# Make sure a `chromium` binary is on PATH (Debian's `chromium` package).
# Idempotent: does nothing when chromium is already installed.
# Waits up to 10 min for a dpkg lock held by another apt-get.
# Used by wasm_test.sh (Go tests in headless Chromium) and the e2e tests.
set -euo pipefail

if command -v chromium >/dev/null 2>&1; then
	exit 0
fi

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO=(sudo)
	else
		echo "ensure-chromium: chromium is missing and we are not root (no sudo available)" >&2
		exit 1
	fi
fi

echo "ensure-chromium: chromium not found; installing Debian package 'chromium' (about a minute)" >&2
start=$SECONDS
echo "ensure-chromium: apt-get update" >&2
"${SUDO[@]}" apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null
echo "ensure-chromium: apt-get install -y chromium" >&2
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq chromium >/dev/null

if ! command -v chromium >/dev/null 2>&1; then
	echo "ensure-chromium: install finished but 'chromium' is still not on PATH" >&2
	exit 1
fi
echo "ensure-chromium: installed $(command -v chromium) in $((SECONDS - start))s" >&2
