#!/usr/bin/env bash
# Make sure Firefox ESR is installed at /usr/bin/firefox-esr (Debian's
# `firefox-esr` package), for the page tests that run in Firefox
# (e2e/firefox.test.mjs, driven by puppeteer-core over WebDriver BiDi; a
# stock Firefox, since playwright-core needs its own patched build).
# Idempotent and quiet: does nothing when the binary is already there.
# Waits up to 10 min for a dpkg lock held by another apt-get.
# Modelled on scripts/ensure-chromium.sh.
set -euo pipefail

FIREFOX=${FIREFOX_PATH:-/usr/bin/firefox-esr}

if [ -x "$FIREFOX" ]; then
	exit 0
fi

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO=(sudo)
	else
		echo "ensure-firefox: $FIREFOX is missing and we are not root (no sudo available)" >&2
		exit 1
	fi
fi

echo "ensure-firefox: $FIREFOX not found; installing Debian package 'firefox-esr' (about a minute)" >&2
start=$SECONDS
echo "ensure-firefox: apt-get update" >&2
"${SUDO[@]}" apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null
echo "ensure-firefox: apt-get install -y firefox-esr" >&2
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq firefox-esr >/dev/null

if [ ! -x "$FIREFOX" ]; then
	echo "ensure-firefox: install finished but $FIREFOX is still missing" >&2
	exit 1
fi
echo "ensure-firefox: installed $("$FIREFOX" --version 2>/dev/null || echo "$FIREFOX") in $((SECONDS - start))s" >&2
