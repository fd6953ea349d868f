package core

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCoreDoesNotImportSyscallJS: core stays pure Go, testable without a
// browser. Every .go file under core/ (tests included) is parsed and its
// imports checked.
func TestCoreDoesNotImportSyscallJS(t *testing.T) {
	// Spelled in two parts so that a grep for the import path finds only
	// real imports, not this test.
	const forbidden = "syscall" + "/js"
	checked := 0
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if p == forbidden || strings.HasPrefix(p, forbidden+"/") {
				t.Errorf("%s imports %s: core must stay pure Go", path, p)
			}
		}
		checked++
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, checked, 10, "the walk found the core sources")
}
