// Command protocolgen writes the JS side of core's contract from core
// itself: js/protocol.js (every operation with its flags and fields, the
// error codes, the envelope heads, the chunk size, the snapshot's members,
// the wasm handle's methods) and the generated blocks of
// js/sessiontree.d.ts (the Operations interface and the ErrorCode type,
// between their BEGIN/END marker comments). Run it with `go generate
// ./...` from the module (the directive is in core/protocol.go); its test
// fails when either file is stale.
package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	root, err := moduleRoot()
	if err == nil {
		err = write(root)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "protocolgen:", err)
		os.Exit(1)
	}
}

// write regenerates every generated file under root, rewriting only those
// whose bytes change.
func write(root string) error {
	files, err := generate(root)
	if err != nil {
		return err
	}
	for _, f := range files {
		path := filepath.Join(root, f.path)
		old, _ := os.ReadFile(path)
		if string(old) == string(f.text) {
			continue
		}
		if err := os.WriteFile(path, f.text, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// moduleRoot is the nearest directory at or above the working directory
// that holds go.mod (go generate runs in core/).
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod at or above the working directory")
		}
		dir = parent
	}
}
