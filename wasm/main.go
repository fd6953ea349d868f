//go:build js && wasm

// Command wasm is the WebAssembly binding of sessiontree: the main package
// built with GOOS=js GOARCH=wasm. It registers one global object,
//
//	globalThis.sessiontreeWasm = {version, newStore()}
//
// and newStore() returns a store handle whose methods take and return
// strings:
//
//	call(request: string | Uint8Array, parsed?: boolean) → envelope: string
//	                                  // core.Store.Call; bytes are UTF-8 JSON; parsed: true →
//	                                  // core.Store.CallParsed (context may come back ASCII-escaped)
//	                                  // answers public operations only: restore, sync.* are unknown there
//	callInternal(request: string | Uint8Array) → envelope: string  // core.Store.CallInternal: every operation
//	operations() → string                      // core.OperationInfosJSON: [{name, readOnly, keepsCursor, public}…]
//	context(request: string | Uint8Array) → header: string  // core.Store.CallColumns: a context in
//	                                  // columns read from wasm memory (see columnsHeader); else call(request, true)'s envelope
//	importText(data: string, format: string) → envelope: string
//	importBuffer(sizeHint: number) → id: number                  // a byte buffer for importAppend
//	importAppend(id: number, bytes: Uint8Array)                   // copies UTF-8 bytes into the buffer
//	importStart(data: string | id, format: string) → envelope: string  // value {job, total}
//	importStep(job: number, budget: number) → string              // {"done","read","total"} or an error envelope
//	importFinish(job: number) → envelope: string                  // the import's value
//	importCancel(id: number)                                      // drops an unfinished job or buffer
//	warm(budget: number) → done: boolean           // core.Store.WarmSearch: index up to budget nodes
//	drain(withNodes: boolean) → changes: string    // core.Store.DrainChanges
//	drainBytes() → changes: Uint8Array             // DrainChanges(true) as UTF-8 bytes
//	free()                                         // releases the handle's functions
//
// Bulk data crosses as one string, never field by field (see
// TOOLCHAIN.md: per-field js.Value access is 5–10× slower). Every method
// recovers a panic into an INVALID_ARGUMENT envelope naming it, so a bug
// in core never throws into JS. Calls are synchronous and never block: the
// store is pure computation.
package main

import (
	"runtime/debug"
	"strconv"
	"syscall/js"
	"unsafe"

	"github.com/sessiontree/sessiontree/core"
)

// version is reported as sessiontreeWasm.version.
const version = "0.1.0"

// memoryLimit is the Go heap's soft limit in bytes: near it the collector
// runs more often instead of letting the heap double. wasm32 memory ends
// at 4 GiB and never shrinks, so a tab holding 1,000,000 nodes must not
// let one peak (a 250 MB request next to its parsed session) grow it to
// the end.
const memoryLimit = 3 << 30

func main() {
	debug.SetMemoryLimit(memoryLimit)
	js.Global().Set("sessiontreeWasm", js.ValueOf(map[string]any{
		"version":  version,
		"newStore": js.FuncOf(newStore),
	}))
	select {} // keep the Go runtime alive for the callbacks
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

// guard runs f, turning a panic into an error envelope.
func guard(what string, f func() string) (out string) {
	defer func() {
		if r := recover(); r != nil {
			out = string(core.ErrorEnvelope(&core.Error{
				Code:    core.InvalidArgument,
				Message: "internal error in " + what + ": " + panicText(r),
			}))
		}
	}()
	return f()
}

// lastColumns holds the buffers of the last context answered in columns,
// so the collector leaves them alone until the shim has read them (it does
// before it calls again).
var lastColumns *core.ContextColumns

// columnsHeader is the answer of the handle's context for a context in
// columns: {"ok":true,"columns":{"ascii":[address,bytes],"wide":[address,
// bytes],"rows":[address,count],"cache":id,…Head's members}}, where an
// address is a byte offset into the wasm memory (Go's pointers in wasm are
// such offsets), rows' count is in int32 (4-aligned, as Go aligns
// []int32), cache is core.ContextColumns.Cache, and the rest is
// core.ContextColumns.Head. The shim reads the buffers before
// the wasm runs again.
func columnsHeader(c *core.ContextColumns) string {
	span := func(b []byte, p unsafe.Pointer, n int) []byte {
		b = append(b, '[')
		b = strconv.AppendUint(b, uint64(uintptr(p)), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(n), 10)
		return append(b, ']')
	}
	h := append(make([]byte, 0, 128+len(c.Head)), `{"ok":true,"columns":{"ascii":`...)
	h = span(h, unsafe.Pointer(unsafe.SliceData(c.ASCII)), len(c.ASCII))
	h = append(h, `,"wide":`...)
	h = span(h, unsafe.Pointer(unsafe.SliceData(c.Wide)), len(c.Wide))
	h = append(h, `,"rows":`...)
	h = span(h, unsafe.Pointer(unsafe.SliceData(c.Rows)), len(c.Rows))
	h = append(h, `,"cache":`...)
	h = strconv.AppendUint(h, c.Cache, 10)
	h = append(h, ',')
	h = append(h, c.Head[1:]...)
	return bytesString(append(h, '}'))
}

// bulkBytes is the request size, in bytes, from which a call runs with
// the collector paused (see bulk).
const bulkBytes = 1 << 20

// bulk runs f, the answer to a request of size bytes. From bulkBytes on
// (a snapshot.load, a restore, an import in one importText call; not the
// steps of a sliced import) the collector is paused for the
// call and its percentage restored afterwards; the soft memory limit
// (memoryLimit) still starts a collection if the heap nears it. What such
// a call allocates is mostly the session it builds, which stays live, so
// collections during it marked a growing heap again and again for little
// garbage. Measured on a 100,000-message snapshot.load (25.4 MB, in one
// page, alternating builds): 413 → 339 ms, and wasm memory after ten
// loads 225 → 124 MB, since the heap goal no longer doubles a heap that
// holds both the old and the new session.
func bulk(size int, f func() string) string {
	if size >= bulkBytes {
		defer debug.SetGCPercent(debug.SetGCPercent(-1))
	}
	return f()
}

func argString(args []js.Value, i int) (string, bool) {
	if i >= len(args) || args[i].Type() != js.TypeString {
		return "", false
	}
	return args[i].String(), true
}

// uint8Array is the JS Uint8Array constructor.
var uint8Array = js.Global().Get("Uint8Array")

// argBytes returns the UTF-8 bytes of args[i], a string or a Uint8Array.
// Bytes cross with one copy and no transcoding; a string goes through
// js.Value.String (TextEncoder, then two copies into Go memory, and
// measured about twice the cost of bytes even for a 200-byte append), so
// the shim sends every request as bytes; strings still work for callers
// of the handle itself.
func argBytes(args []js.Value, i int) ([]byte, bool) {
	if i >= len(args) {
		return nil, false
	}
	v := args[i]
	switch t := v.Type(); {
	case t == js.TypeString:
		// The string's bytes are used as they are (core never writes to a
		// request): no third copy.
		s := v.String()
		if s == "" {
			return nil, true
		}
		return unsafe.Slice(unsafe.StringData(s), len(s)), true
	case t != js.TypeObject || !v.InstanceOf(uint8Array):
		return nil, false
	}
	b := make([]byte, v.Get("length").Int())
	js.CopyBytesToGo(b, v)
	return b, true
}

// bytesString returns b as a string without copying it; b must not be
// written to afterwards (core hands over a fresh envelope on every call).
func bytesString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

func badArgument(msg string) string {
	return string(core.ErrorEnvelope(&core.Error{Code: core.InvalidArgument, Message: msg}))
}

func newStore(this js.Value, args []js.Value) any {
	st := core.New(core.Options{})
	st.TrackChanges(true)
	var funcs []js.Func
	jobs := map[int]*core.ImportJob{}
	buffers := map[int][]byte{} // import texts arriving in slices
	nextJob := 0
	fn := func(f func(this js.Value, args []js.Value) any) js.Func {
		jf := js.FuncOf(f)
		funcs = append(funcs, jf)
		return jf
	}
	handle := map[string]any{
		"call": fn(func(this js.Value, args []js.Value) any {
			return guard("call", func() string {
				req, ok := argBytes(args, 0)
				if !ok {
					return badArgument("call takes the request as a JSON string or as UTF-8 bytes in a Uint8Array")
				}
				// call(request, true): the caller parses the answer at once,
				// so a context may come back in ASCII (see Store.CallParsed).
				parsed := len(args) > 1 && args[1].Type() == js.TypeBoolean && args[1].Bool()
				return bulk(len(req), func() string {
					if parsed {
						return bytesString(st.CallParsed(req))
					}
					return bytesString(st.Call(req))
				})
			})
		}),
		// callInternal(request): core.Store.CallInternal, the shim's own
		// operations (restore, sync.merge, sync.forget) and every public one.
		"callInternal": fn(func(this js.Value, args []js.Value) any {
			return guard("callInternal", func() string {
				req, ok := argBytes(args, 0)
				if !ok {
					return badArgument("callInternal takes the request as a JSON string or as UTF-8 bytes in a Uint8Array")
				}
				return bulk(len(req), func() string { return bytesString(st.CallInternal(req)) })
			})
		}),
		// operations(): the JSON array of core.OperationInfos.
		"operations": fn(func(this js.Value, args []js.Value) any {
			return guard("operations", func() string {
				return string(core.OperationInfosJSON())
			})
		}),
		// context(request): a context request answered in columns
		// (core.ContextColumns) for the shim to build the messages array
		// from wasm memory; any other request, or an error, gets the
		// envelope as call(request, true) does. See columnsHeader.
		"context": fn(func(this js.Value, args []js.Value) any {
			return guard("context", func() string {
				req, ok := argBytes(args, 0)
				if !ok {
					return badArgument("context takes the request as a JSON string or as UTF-8 bytes in a Uint8Array")
				}
				out, cols := st.CallColumns(req)
				lastColumns = cols // keep the buffers until the next call reads them
				if cols == nil {
					return bytesString(out)
				}
				return columnsHeader(cols)
			})
		}),
		"importText": fn(func(this js.Value, args []js.Value) any {
			return guard("importText", func() string {
				if len(args) == 0 || args[0].Type() != js.TypeString {
					return badArgument("importText takes the export's text as a string")
				}
				data, _ := argBytes(args, 0)
				format, _ := argString(args, 1)
				return bulk(len(data), func() string {
					res, err := st.Import(data, format)
					if err != nil {
						return string(core.ErrorEnvelope(err))
					}
					return string(core.ValueEnvelope(res))
				})
			})
		}),
		// Sliced import (core.ImportJob): the shim calls importStep with a
		// byte budget and yields to the page between steps; read and total
		// are UTF-8 bytes of the data.
		"importStart": fn(func(this js.Value, args []js.Value) any {
			return guard("importStart", func() string {
				var data []byte
				if len(args) > 0 && args[0].Type() == js.TypeString {
					data, _ = argBytes(args, 0)
				} else if len(args) > 0 && args[0].Type() == js.TypeNumber && buffers[args[0].Int()] != nil {
					data = buffers[args[0].Int()]
					delete(buffers, args[0].Int())
				} else {
					return badArgument("importStart takes the export's text as a string, or the id of an import buffer")
				}
				format, _ := argString(args, 1)
				job, err := st.StartImport(data, format)
				if err != nil {
					return string(core.ErrorEnvelope(err))
				}
				nextJob++
				jobs[nextJob] = job
				_, total := job.Progress()
				return string(core.ValueEnvelope(map[string]int{"job": nextJob, "total": total}))
			})
		}),
		// A large text crosses in slices of UTF-8 bytes (TextEncoder on the
		// JS side) so no single call copies all of it.
		"importBuffer": fn(func(this js.Value, args []js.Value) any {
			hint := 0
			if len(args) > 0 && args[0].Type() == js.TypeNumber && args[0].Int() > 0 {
				hint = min(args[0].Int(), 1<<30)
			}
			nextJob++
			buffers[nextJob] = make([]byte, 0, hint)
			return nextJob
		}),
		"importAppend": fn(func(this js.Value, args []js.Value) any {
			return guard("importAppend", func() string {
				if len(args) < 2 || args[0].Type() != js.TypeNumber || buffers[args[0].Int()] == nil || args[1].Type() != js.TypeObject {
					return badArgument("importAppend takes an import buffer id and a Uint8Array")
				}
				buf := buffers[args[0].Int()]
				n := args[1].Get("length").Int()
				if cap(buf)-len(buf) < n {
					grown := make([]byte, len(buf), 2*cap(buf)+n)
					copy(grown, buf)
					buf = grown
				}
				js.CopyBytesToGo(buf[len(buf):len(buf)+n], args[1])
				buffers[args[0].Int()] = buf[:len(buf)+n]
				return ""
			})
		}),
		"importStep": fn(func(this js.Value, args []js.Value) any {
			return guard("importStep", func() string {
				job := jobArg(jobs, args)
				if job == nil {
					return badArgument("importStep: no such import job")
				}
				budget := 1 << 20
				if len(args) > 1 && args[1].Type() == js.TypeNumber && args[1].Int() > 0 {
					budget = args[1].Int()
				}
				done := job.Step(budget)
				read, total := job.Progress()
				return `{"done":` + strconv.FormatBool(done) + `,"read":` + strconv.Itoa(read) + `,"total":` + strconv.Itoa(total) + "}"
			})
		}),
		"importFinish": fn(func(this js.Value, args []js.Value) any {
			return guard("importFinish", func() string {
				job := jobArg(jobs, args)
				if job == nil {
					return badArgument("importFinish: no such import job")
				}
				delete(jobs, args[0].Int())
				res, err := job.Finish()
				if err != nil {
					return string(core.ErrorEnvelope(err))
				}
				return string(core.ValueEnvelope(res))
			})
		}),
		"importCancel": fn(func(this js.Value, args []js.Value) any {
			if len(args) > 0 && args[0].Type() == js.TypeNumber {
				delete(jobs, args[0].Int())
				delete(buffers, args[0].Int())
			}
			return nil
		}),
		"warm": fn(func(this js.Value, args []js.Value) any {
			budget := 1000
			if len(args) > 0 && args[0].Type() == js.TypeNumber && args[0].Int() >= 0 {
				budget = args[0].Int()
			}
			done := false
			guard("warm", func() string {
				done = st.WarmSearch(budget)
				return ""
			})
			return done
		}),
		"drain": fn(func(this js.Value, args []js.Value) any {
			withNodes := len(args) > 0 && args[0].Truthy()
			return string(st.DrainChanges(withNodes))
		}),
		// drainBytes: DrainChanges(true) as UTF-8 bytes, which the shim
		// cuts into records without decoding the node lines.
		"drainBytes": fn(func(this js.Value, args []js.Value) any {
			b := st.DrainChanges(true)
			out := js.Global().Get("Uint8Array").New(len(b))
			js.CopyBytesToJS(out, b)
			return out
		}),
	}
	handle["free"] = js.FuncOf(func(this js.Value, args []js.Value) any {
		for _, f := range funcs {
			f.Release()
		}
		return nil
	})
	return js.ValueOf(handle)
}

// jobArg returns the import job named by args[0], or nil.
func jobArg(jobs map[int]*core.ImportJob, args []js.Value) *core.ImportJob {
	if len(args) == 0 || args[0].Type() != js.TypeNumber {
		return nil
	}
	return jobs[args[0].Int()]
}
