package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Native tests of the binding's sources (this file has no build tag).

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

// TestOnlyGuardedFuncMakesJSFunctions runs natively: js.FuncOf appears in
// exactly one place of the binding's sources, guardedFunc, so no method or
// callback can run outside the guard (TestEveryMethodOfTheTableIsGuarded
// checks what guardedFunc makes).
func TestOnlyGuardedFuncMakesJSFunctions(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var uses []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inGuarded := false
		for i, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(line, "func ") {
				inGuarded = strings.HasPrefix(line, "func guardedFunc(")
			}
			if strings.Contains(line, "js.FuncOf(") && !strings.HasPrefix(strings.TrimSpace(line), "//") {
				uses = append(uses, f+":"+strconv.Itoa(i+1))
				if !inGuarded {
					t.Errorf("%s:%d calls js.FuncOf outside guardedFunc: %s", f, i+1, strings.TrimSpace(line))
				}
			}
		}
	}
	if len(uses) != 1 {
		t.Errorf("js.FuncOf is called at %v, want exactly once (in guardedFunc)", uses)
	}
}
