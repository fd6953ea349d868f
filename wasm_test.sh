#!/usr/bin/env bash
# Run Go tests compiled to js/wasm inside headless Chromium.
#
#   ./wasm_test.sh                      # = go test ./...   (GOOS=js GOARCH=wasm)
#   ./wasm_test.sh -run TestFoo ./core/
#   ./wasm_test.sh -bench . -benchtime=2s -count=3 ./core/
#
# The test binaries are executed by wasmbrowsertest (pinned in tools/go.mod),
# built for the host into .cache/bin/go_js_wasm_exec, which `go test` picks up
# from PATH. Runs in the current directory, like `go test`. Notes:
#   * argv + environment of the wasm test must stay under ~12 KB, so the tests
#     run under `env -i` with only the variables listed below;
#   * Chromium leaves profile folders in $TMPDIR, so TMPDIR is a scratch
#     folder removed on exit;
#   * results are never cached with an exec wrapper: every run reruns all.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BIN="$ROOT/.cache/bin"
HOME="${HOME:-$(cd ~ && pwd)}"
RUNNER="$BIN/go_js_wasm_exec"

"$ROOT/scripts/ensure-chromium.sh"

GO="$(command -v go || true)"
if [ -z "$GO" ]; then
	echo "wasm_test: 'go' not found on PATH" >&2
	exit 1
fi
GODIR="$(dirname "$GO")"

# (Re)build the runner for the host (never for js/wasm) when it is missing or
# older than the pins in tools/.
if [ ! -x "$RUNNER" ] || [ "$ROOT/tools/go.sum" -nt "$RUNNER" ] || [ "$ROOT/tools/go.mod" -nt "$RUNNER" ]; then
	echo "wasm_test: building wasmbrowsertest -> $RUNNER" >&2
	mkdir -p "$BIN"
	(cd "$ROOT/tools" && GOOS= GOARCH= go build -buildvcs=false -o "$RUNNER.tmp" github.com/agnivade/wasmbrowsertest)
	mv -f "$RUNNER.tmp" "$RUNNER"
fi

# The few Go settings worth carrying into the clean environment (settings made
# with `go env -w` are read again anyway, since HOME is kept). GOROOT matters:
# the runner serves $GOROOT/lib/wasm/wasm_exec.js, which must match the Go
# that compiled the test.
{
	read -r GOROOT_V
	read -r GOCACHE_V
	read -r GOMODCACHE_V
	read -r GOPROXY_V
	read -r GOFLAGS_V || true
	read -r GOTOOLCHAIN_V || true
} < <(go env GOROOT GOCACHE GOMODCACHE GOPROXY GOFLAGS GOTOOLCHAIN)

scratch="$(mktemp -d "${TMPDIR:-/tmp}/sessiontree-wasmtest.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT

if [ "$#" -eq 0 ]; then
	set -- ./...
fi

# Not exec: the EXIT trap must still remove the scratch folder.
env -i \
	PATH="$BIN:$GODIR:$PATH" \
	HOME="$HOME" \
	GOROOT="$GOROOT_V" \
	TMPDIR="$scratch" \
	GOCACHE="$GOCACHE_V" \
	GOMODCACHE="$GOMODCACHE_V" \
	GOPROXY="$GOPROXY_V" \
	GOFLAGS="$GOFLAGS_V" \
	GOTOOLCHAIN="$GOTOOLCHAIN_V" \
	GOOS=js GOARCH=wasm \
	go test "$@"
