//go:build !js

package core

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// heavyPackages are the standard packages the wasm build leaves out to stay
// near 900 KB gzip (issue 8; the lead measured each alone over a
// syscall/js hello world): fmt +170 KB, encoding/json +280 KB, crypto/rand
// and crypto/sha256 +130–140 KB each (the fips140 machinery), plus what
// they bring (encoding/hex, encoding/base64, math/big). Tests may use them.
var heavyPackages = []string{"fmt", "encoding/json", "encoding/hex", "encoding/base64", "math/big", "crypto"}

func isHeavy(pkg string) bool {
	for _, h := range heavyPackages {
		if pkg == h || strings.HasPrefix(pkg, h+"/") {
			return true
		}
	}
	return false
}

// deadHeavyImports are packages of the wasm build's graph that import a
// heavy package for functions core never calls, so the linker drops that
// code (checked in the built wasm's name section when each was added):
// golang.org/x/text/unicode/norm imports fmt for Iter.Seek's errors, and
// runtime/debug (the binding's SetMemoryLimit) imports fmt for Stack and
// BuildInfo. A new entry needs the same check.
var deadHeavyImports = []string{"golang.org/x/text/", "runtime/debug"}

func isDeadHeavyImporter(pkg string) bool {
	for _, p := range deadHeavyImports {
		if pkg == p || strings.HasSuffix(p, "/") && strings.HasPrefix(pkg, p) {
			return true
		}
	}
	return false
}

// TestWasmBuildLeavesOutHeavyPackages (native only: it runs go list) lists
// the dependencies of the wasm binding (GOOS=js GOARCH=wasm, test files
// excluded) and fails when one of heavyPackages is imported by anything
// but another heavy package or a known dead import (deadHeavyImports): so
// the size cannot silently grow back.
func TestWasmBuildLeavesOutHeavyPackages(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "../wasm")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	require.Greater(t, len(lines), 10, "go list found the dependencies")
	seenCore := false
	for _, line := range lines {
		fields := strings.Fields(line)
		importer := fields[0]
		seenCore = seenCore || importer == "github.com/sessiontree/sessiontree/core"
		if isHeavy(importer) || isDeadHeavyImporter(importer) {
			continue
		}
		for _, imp := range fields[1:] {
			if isHeavy(imp) {
				t.Errorf("%s imports %s, which the wasm build leaves out (issue 8: size); in core use its own (sprintf, marshal, unmarshal, RawMessage, hash/fnv, math/rand/v2)", importer, imp)
			}
		}
	}
	require.True(t, seenCore, "the binding depends on core")
}
