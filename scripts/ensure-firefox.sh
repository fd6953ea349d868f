#!/usr/bin/env bash
# Make sure Firefox ESR is installed at /usr/bin/firefox-esr (Debian's
# `firefox-esr` package; $FIREFOX_PATH overrides the path), for the page
# tests that run in Firefox (e2e/firefox.test.mjs, driven by puppeteer-core
# over WebDriver BiDi: a stock Firefox, since playwright-core needs its own
# patched build). Idempotent and quiet: does nothing when it is installed.
# Waits up to 10 min for a dpkg lock held by another apt-get.
set -euo pipefail

FIREFOX=${FIREFOX_PATH:-/usr/bin/firefox-esr}

if [ -x "$FIREFOX" ]; then
	exit 0
fi

echo "ensure-firefox: $FIREFOX not found" >&2
start=$SECONDS
"$(dirname "$0")/apt-install.sh" ensure-firefox firefox-esr

if [ ! -x "$FIREFOX" ]; then
	echo "ensure-firefox: install finished but $FIREFOX is still missing" >&2
	exit 1
fi
echo "ensure-firefox: installed $("$FIREFOX" --version 2>/dev/null || echo "$FIREFOX") in $((SECONDS - start))s" >&2
