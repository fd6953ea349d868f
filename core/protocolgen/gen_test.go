//go:build !js

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGeneratedFilesAreCurrent regenerates js/protocol.js and the
// generated blocks of js/sessiontree.d.ts in memory and fails when the
// files in the repository differ (native only: it reads the module's files).
func TestGeneratedFilesAreCurrent(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	files, err := generate(root)
	require.NoError(t, err)
	require.Len(t, files, 2)
	for _, f := range files {
		t.Run(f.path+" is what go generate writes", func(t *testing.T) {
			have, err := os.ReadFile(filepath.Join(root, f.path))
			require.NoError(t, err, "%s is missing: run go generate ./...", f.path)
			if string(have) != string(f.text) {
				t.Errorf("%s is stale (core's contract changed, or the file was edited by hand): run go generate ./... and commit the result", f.path)
			}
		})
	}
}

func TestSpliceBlockReplacesOnlyBetweenItsMarkers(t *testing.T) {
	begin, end := beginMarker("X"), endMarker("X")
	cases := []struct {
		name, text, want, err string
	}{
		{"the block's old body is replaced", "a\n" + begin + "old\n" + end + "b\n", "a\n" + begin + "new\n" + end + "b\n", ""},
		{"an empty block is filled", begin + end, begin + "new\n" + end, ""},
		{"missing markers are an error naming them", "a\n", "", "markers of the generated X block are missing"},
		{"an end before its begin is an error", end + begin, "", "markers of the generated X block are missing"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := spliceBlock(tc.text, "X", "new\n")
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestHandleMethodsAreTheBindingsTable(t *testing.T) {
	names, err := handleMethods(filepath.Join("..", "..", handlePath))
	require.NoError(t, err)
	assert.Contains(t, names, "call")
	assert.Contains(t, names, "callInternal")
	assert.Contains(t, names, "drainBytes")
	assert.True(t, strings.Compare(names[0], names[len(names)-1]) < 0, "sorted")
}

func TestTSKeyQuotesOnlyWhatIsNotAnIdentifier(t *testing.T) {
	assert.Equal(t, "create", tsKey("create"))
	assert.Equal(t, `"tree.rows"`, tsKey("tree.rows"))
	assert.Equal(t, `"2x"`, tsKey("2x"))
}
