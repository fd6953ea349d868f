package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryFileHasTheWasmBuildTag runs natively: every Go file of the
// binding except this one must carry `//go:build js && wasm`, or a native
// build would try to compile syscall/js code.
func TestEveryFileHasTheWasmBuildTag(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 2 {
		t.Fatalf("found %d Go files in wasm/, expected the binding and its tests", len(files))
	}
	for _, f := range files {
		if f == "tags_test.go" {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(data), "//go:build js && wasm\n") {
			t.Errorf("%s does not start with //go:build js && wasm", f)
		}
	}
}
