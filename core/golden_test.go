package core

import (
	"embed"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testdata is embedded so golden files can be read in the browser, where
// wasmbrowsertest gives the test no file system.
//
//go:embed testdata
var testdata embed.FS

var update = flag.Bool("update", false, "rewrite the golden files in core/testdata/ (native runs only)")

// golden compares got with core/testdata/name, or rewrites the file when
// the test runs with -update.
func golden(tb testing.TB, name, got string) {
	tb.Helper()
	if *update {
		require.NoError(tb, os.WriteFile(filepath.Join("testdata", name), []byte(got), 0o644))
		return
	}
	want, err := testdata.ReadFile("testdata/" + name)
	require.NoError(tb, err, "golden file %s is missing: run go test ./core -run %s -update", name, tb.Name())
	assert.Equal(tb, string(want), got, "golden file %s differs (go test ./core -run %s -update rewrites it)", name, tb.Name())
}
