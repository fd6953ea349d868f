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

// TestWasmBuildLeavesOutHeavyPackages (native only: it runs go list) lists the dependencies of the wasm
// binding (GOOS=js GOARCH=wasm, test files excluded) and fails when one of
// heavyPackages is imported by anything but golang.org/x/text: so the size
// cannot silently grow back. (golang.org/x/text/unicode/norm imports fmt
// for Iter.Seek's errors only; core never calls it and the linker drops
// fmt's code — the built wasm has no fmt function.)
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
		if isHeavy(importer) || strings.HasPrefix(importer, "golang.org/x/text/") {
			continue // imports among excluded or third-party packages
		}
		for _, imp := range fields[1:] {
			if isHeavy(imp) {
				t.Errorf("%s imports %s, which the wasm build leaves out (issue 8: size); use core's own (sprintf, marshal, unmarshal, RawMessage, hash/fnv, math/rand/v2)", importer, imp)
			}
		}
	}
	require.True(t, seenCore, "the binding depends on core")
}
