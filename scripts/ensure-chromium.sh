#!/usr/bin/env bash
# Make sure a `chromium` binary is on PATH (Debian's `chromium` package).
# Idempotent: does nothing when chromium is already installed.
# Waits up to 10 min for a dpkg lock held by another apt-get.
# Used by wasm_test.sh (Go tests in headless Chromium) and the e2e tests.
set -euo pipefail

if command -v chromium >/dev/null 2>&1; then
	exit 0
fi

echo "ensure-chromium: chromium not found" >&2
start=$SECONDS
"$(dirname "$0")/apt-install.sh" ensure-chromium chromium

if ! command -v chromium >/dev/null 2>&1; then
	echo "ensure-chromium: install finished but 'chromium' is still not on PATH" >&2
	exit 1
fi
echo "ensure-chromium: installed $(command -v chromium) in $((SECONDS - start))s" >&2
