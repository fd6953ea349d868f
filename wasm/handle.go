//go:build js && wasm

package main

import (
	"strconv"
	"syscall/js"

	"github.com/sessiontree/sessiontree/core"
)

// handle is one store handle, what newStore returns to JS: the store and
// what its methods share. Its methods are the entries of methods.
type handle struct {
	st      *core.Store
	imports *core.Imports
	funcs   []js.Func // the functions free releases
}

// method is one method of the handle: it takes the JS arguments and returns
// the answer, a value js.ValueOf converts (see the package doc for each).
type method func(h *handle, args []js.Value) any

// methodEntry is one method of the handle's table: its name in JS and
// its function.
type methodEntry struct {
	name string
	run  method
}

// methods is the handle's method table: every method JS can call on a
// handle, by name. newStore builds each through guardedFunc. A list, not
// a map: the compiler lays it out as static data, where the map literal
// was built by 7 KB of init code that V8 compiled and ran at every start
// of the program (see core's operationList).
var methods = [...]methodEntry{
	{"call", (*handle).call},
	{"callInternal", (*handle).callInternal},
	{"pageStub", (*handle).pageStub},
	{"settle", (*handle).settle},
	{"operations", (*handle).operations},
	{"context", (*handle).context},
	{"importText", (*handle).importText},
	{"importBuffer", (*handle).importBuffer},
	{"importAppend", (*handle).importAppend},
	{"importStart", (*handle).importStart},
	{"importStep", (*handle).importStep},
	{"importFinish", (*handle).importFinish},
	{"importCancel", (*handle).importCancel},
	{"importFiles", (*handle).importFiles},
	{"setMemoryBudget", (*handle).setMemoryBudget},
	{"memory", (*handle).memory},
	{"warm", (*handle).warm},
	{"warmLoad", (*handle).warmLoad},
	{"searchSave", (*handle).searchSave},
	{"searchLoad", (*handle).searchLoad},
	{"drain", (*handle).drain},
	{"drainBytes", (*handle).drainBytes},
	{"free", (*handle).free},
}

// newStore is sessiontreeWasm.newStore(memory?): a new store that records
// its changes, with the memory budget core.DefaultMemoryBudget, as a JS
// object with the methods of the table. memory, the program's
// WebAssembly.Memory (the JS side has it), gives the budget its cheap
// signal (core.Options.MemoryMapped: the buffer's byteLength, two property
// reads); without it the budget rereads runtime/metrics by call count only.
func newStore(args []js.Value) any {
	opts := core.Options{MemoryBudget: core.DefaultMemoryBudget}
	if argIs(args, 0, js.TypeObject) && args[0].InstanceOf(js.Global().Get("WebAssembly").Get("Memory")) {
		mem := args[0]
		opts.MemoryMapped = func() int64 { return int64(mem.Get("buffer").Get("byteLength").Float()) }
	}
	st := core.New(opts)
	st.TrackChanges(true)
	h := &handle{st: st, imports: core.NewImports(st)}
	return h.object(methods[:])
}

// object returns the JS object of h with one guarded function per entry of
// table. Every function but free's is kept for free to release; free's
// stays, so calling free twice is harmless.
func (h *handle) object(table []methodEntry) js.Value {
	obj := make(map[string]any, len(table))
	for _, m := range table {
		f := guardedFunc(m.name, func(args []js.Value) any { return m.run(h, args) })
		obj[m.name] = f
		if m.name != "free" {
			h.funcs = append(h.funcs, f)
		}
	}
	return js.ValueOf(obj)
}

// free releases the handle's functions, and its store with them (the
// functions hold it).
func (h *handle) free([]js.Value) any {
	for _, f := range h.funcs {
		f.Release()
	}
	importsFreed(h.imports)
	h.funcs, h.st, h.imports = nil, nil, nil
	return nil
}

// guardedFunc is the one place the binding makes a JS function: f, called
// with the JS arguments, under guard(name). No other code calls js.FuncOf
// (a native test checks it).
func guardedFunc(name string, f func(args []js.Value) any) js.Func {
	return js.FuncOf(func(_ js.Value, args []js.Value) any {
		out := guard(name, func() any { return f(args) })
		if heldGCPercent != 0 {
			settleIfGrown()
		}
		return out
	})
}

// guard runs f and returns its answer; a panic in f becomes instead the
// INVALID_ARGUMENT envelope "internal error in NAME: …" (as a string,
// whatever f would have returned).
func guard(name string, f func() any) (out any) {
	defer func() {
		if r := recover(); r != nil {
			out = string(core.ErrorEnvelope(&core.Error{
				Code:    core.InvalidArgument,
				Message: "internal error in " + name + ": " + panicText(r),
			}))
		}
	}()
	return f()
}

// panicText is the text of a recovered panic value, as fmt's %v gives it
// for the values a panic carries in practice (errors, runtime errors,
// strings, values with a String method); fmt stays out of the wasm build.
func panicText(r any) string {
	switch x := r.(type) {
	case error:
		return x.Error()
	case interface{ String() string }:
		return x.String()
	case string:
		return x
	case int:
		return strconv.Itoa(x)
	}
	return "unexpected panic value"
}
