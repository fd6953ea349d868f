//go:build js && wasm

package main

import (
	"strconv"
	"syscall/js"

	"github.com/sessiontree/sessiontree/core"
	"github.com/sessiontree/sessiontree/core/wire"
)

// The handle's methods (see the package doc for their arguments and
// answers). Each converts its arguments, calls core, and converts the
// answer; guardedFunc runs it under the guard.

// call(request, parsed?): core.Store.Call, or wire.CallParsed when parsed is
// true (the caller parses the answer at once, so it may come back in
// ASCII).
func (h *handle) call(args []js.Value) any {
	if err := h.checkArgMemory(args); err != nil {
		return string(core.ErrorEnvelope(err))
	}
	req, ok := argBytes(args, 0)
	if !ok {
		return badArgument("call takes the request as a JSON string or as UTF-8 bytes in a Uint8Array")
	}
	parsed := len(args) > 1 && args[1].Type() == js.TypeBoolean && args[1].Bool()
	return bulk(len(req), func() string {
		if parsed {
			return bytesString(wire.CallParsed(h.st, req))
		}
		return bytesString(h.st.Call(req))
	})
}

// callInternal(request): core.Store.CallInternal.
func (h *handle) callInternal(args []js.Value) any {
	req, ok := argBytes(args, 0)
	if !ok {
		return badArgument("callInternal takes the request as a JSON string or as UTF-8 bytes in a Uint8Array")
	}
	return bulk(len(req), func() string { return bytesString(h.st.CallInternal(req)) })
}

// pageStub(summaries): core.Store.PageStubPacked, answered as an envelope.
func (h *handle) pageStub(args []js.Value) any {
	data, ok := argBytes(args, 0)
	if !ok || (len(args) > 0 && args[0].Type() == js.TypeString) {
		return badArgument("pageStub takes the packed summaries as a Uint8Array")
	}
	taken := false
	out := bulk(len(data), func() string {
		n, err := h.st.PageStubPacked(data)
		// A type assertion, not errors.As: that one links reflection
		// (13 KB of gzipped wasm); PageStubPacked fails with *core.Error only.
		if e, ok := err.(*core.Error); ok && e != nil {
			return string(core.ErrorEnvelope(e))
		}
		taken = true
		return `{"ok":true,"value":{"stubs":` + strconv.Itoa(n) + `}}`
	})
	if taken && argIs(args, 1, js.TypeBoolean) && args[1].Bool() {
		holdCollector()
	}
	return out
}

// settle(): settleCollector.
func (h *handle) settle([]js.Value) any {
	settleCollector()
	return nil
}

// operations(): core.OperationInfosJSON.
func (h *handle) operations([]js.Value) any {
	return bytesString(core.OperationInfosJSON())
}

// context(request): a context request answered in columns
// (wire.Columns) for the shim to build the messages array from wasm
// memory; any other request, or an error, gets the envelope
// call(request, true) gives. held (optional): the layouts the shim kept
// the messages of, [cache, layout, …] (wire.Layout), so that a context
// continuing one hands over only what follows it. See columnsHeader.
func (h *handle) context(args []js.Value) any {
	req, ok := argBytes(args, 0)
	if !ok {
		return badArgument("context takes the request as a JSON string or as UTF-8 bytes in a Uint8Array")
	}
	held, ok := argLayouts(args, 1)
	if !ok {
		return badArgument("context takes the layouts held as an array of at most 32 numbers, cache and layout in turn")
	}
	out, cols := wire.CallColumns(h.st, req, held...)
	lastColumns = cols // keep the buffers until the next call reads them
	if cols == nil {
		return bytesString(out)
	}
	return columnsHeader(cols)
}

// importText(data, format): core.Store.Import of the whole text at once.
func (h *handle) importText(args []js.Value) any {
	if !argIs(args, 0, js.TypeString) {
		return badArgument("importText takes the export's text as a string")
	}
	data, _ := argBytes(args, 0)
	format, _ := argString(args, 1)
	return bulk(len(data), func() string {
		return importEnvelope(h.st.Import(data, format))
	})
}

// importBuffer(sizeHint): core.Imports.NewBuffer. A large text crosses in
// slices of UTF-8 bytes (TextEncoder on the JS side) so no single call
// copies all of it. A buffer the memory budget refuses answers the error
// envelope (a string) in place of the id.
func (h *handle) importBuffer(args []js.Value) any {
	id, err := h.imports.NewBuffer(argInt(args, 0))
	if err != nil {
		return string(core.ErrorEnvelope(err))
	}
	return id
}

// importAppend(id, bytes): copies a Uint8Array (or Uint8ClampedArray, the
// other type js.CopyBytesToGo takes) onto the end of buffer id, straight
// into the room core.Imports.Grow makes. Answers "" when done.
func (h *handle) importAppend(args []js.Value) any {
	const usage = "importAppend takes an import buffer id and a Uint8Array"
	if !argIs(args, 0, js.TypeNumber) || !argIs(args, 1, js.TypeObject) ||
		!args[1].InstanceOf(uint8Array) && !args[1].InstanceOf(uint8ClampedArray) {
		return badArgument(usage)
	}
	tail, err := h.imports.Grow(args[0].Int(), args[1].Length())
	if err != nil {
		return string(core.ErrorEnvelope(err)) // no such buffer, or past the memory budget
	}
	js.CopyBytesToGo(tail, args[1])
	return ""
}

// importStart(data | id, format): core.Imports.Start of the text, or of
// the bytes of buffer id (used up). The value is {job, total}; the sliced
// import then runs by importStep with a byte budget, the shim yielding to
// the page between steps.
func (h *handle) importStart(args []js.Value) any {
	var data []byte
	ok := false
	switch {
	case argIs(args, 0, js.TypeString):
		data, ok = argBytes(args, 0)
	case argIs(args, 0, js.TypeNumber):
		data, ok = h.imports.TakeBuffer(args[0].Int())
	}
	if !ok {
		return badArgument("importStart takes the export's text as a string, or the id of an import buffer")
	}
	format, _ := argString(args, 1)
	job, total, err := h.imports.Start(data, format)
	if err != nil {
		return string(core.ErrorEnvelope(err))
	}
	importBegan(importJob{h.imports, job}, len(data))
	return string(core.ValueEnvelope(map[string]int{"job": job, "total": total}))
}

// importStep(job, budget): core.Imports.Step, answered as
// {"done":bool,"read":bytes,"total":bytes}.
func (h *handle) importStep(args []js.Value) any {
	p, ok := h.imports.Step(argInt(args, 0), argInt(args, 1))
	if !ok {
		return badArgument("importStep: no such import job")
	}
	importGrew()
	return `{"done":` + strconv.FormatBool(p.Done) + `,"read":` + strconv.Itoa(p.Read) + `,"total":` + strconv.Itoa(p.Total) + "}"
}

// importFinish(job): core.Imports.Finish.
func (h *handle) importFinish(args []js.Value) any {
	res, found, err := h.imports.Finish(argInt(args, 0))
	importEnded(importJob{h.imports, argInt(args, 0)})
	if !found {
		return badArgument("importFinish: no such import job")
	}
	return importEnvelope(res, err)
}

// importCancel(id): core.Imports.Cancel; an id that is not a number does
// nothing.
func (h *handle) importCancel(args []js.Value) any {
	if argIs(args, 0, js.TypeNumber) {
		h.imports.Cancel(args[0].Int())
		importEnded(importJob{h.imports, args[0].Int()})
		importDrained() // a cancelled job changed nothing: nothing to wait for
	}
	return nil
}

// warmBudget is warm's budget, in nodes, when it is given none.
const warmBudget = 1000

// warm(budget): core.Store.WarmSearch; reports whether the index is
// complete.
func (h *handle) warm(args []js.Value) any {
	budget := warmBudget
	if argIs(args, 0, js.TypeNumber) && args[0].Int() >= 0 {
		budget = args[0].Int()
	}
	return h.st.WarmSearch(budget)
}

// searchSave(): core.Store.SearchIndexBytes as a Uint8Array, or null.
func (h *handle) searchSave([]js.Value) any {
	b := h.st.SearchIndexBytes()
	if b == nil {
		return nil
	}
	out := uint8Array.New(len(b))
	js.CopyBytesToJS(out, b)
	return out
}

// searchLoad(bytes): core.Store.LoadSearchIndex of a Uint8Array; the
// sessions taken, or -1 for bytes that are not a search index (or no
// Uint8Array).
func (h *handle) searchLoad(args []js.Value) any {
	if !argIs(args, 0, js.TypeObject) || !args[0].InstanceOf(uint8Array) {
		return -1
	}
	data, _ := argBytes(args, 0)
	var n int
	bulk(len(data), func() string {
		var err error
		if n, err = h.st.LoadSearchIndex(data); err != nil {
			n = -1
		}
		return ""
	})
	return n
}

// drain(withNodes): core.Store.DrainChanges, withNodes as JS truthiness.
func (h *handle) drain(args []js.Value) any {
	withNodes := len(args) > 0 && args[0].Truthy()
	defer importDrained()
	return string(h.st.DrainChanges(withNodes))
}

// drainBytes(limit?): core.Store.DrainChanges(true) as UTF-8 bytes, which
// the shim cuts into records without decoding the node lines; with a limit
// in bytes (a number > 0), the next piece of core.Store.DrainChangesUpTo
// (empty once drained). An import's memory limit stays lowered until the
// last piece.
func (h *handle) drainBytes(args []js.Value) any {
	b, more := h.st.DrainChangesUpTo(argInt(args, 0))
	if !more {
		importDrained()
	}
	out := uint8Array.New(len(b))
	js.CopyBytesToJS(out, b)
	return out
}

// importEnvelope is the envelope of an import's outcome.
func importEnvelope(res *core.ImportResult, err *core.Error) string {
	if err != nil {
		return string(core.ErrorEnvelope(err))
	}
	return string(core.ValueEnvelope(res))
}

// checkArgMemory is core.Store.CheckMemory of the request in args[0] when
// it is a Uint8Array of at least core.PrecheckBytes, before it is copied
// out of JS: a request too large to copy is refused before the copy.
// Smaller ones, and strings (a JS string holds at most 2^29 code units),
// are checked by core once copied.
func (h *handle) checkArgMemory(args []js.Value) *core.Error {
	if !argIs(args, 0, js.TypeObject) || !args[0].InstanceOf(uint8Array) {
		return nil
	}
	if n := args[0].Length(); n >= core.PrecheckBytes {
		return h.st.CheckMemory(n)
	}
	return nil
}

// setMemoryBudget(bytes): core.Store.SetMemoryBudget; a number ≤ 0 means
// no budget, a value that is not a number changes nothing. Answers null.
func (h *handle) setMemoryBudget(args []js.Value) any {
	if argIs(args, 0, js.TypeNumber) {
		h.st.SetMemoryBudget(int64(args[0].Float()))
	}
	return nil
}

// memory(): {"inUse": bytes, "budget": bytes}: core.MemoryInUse (the whole
// Go runtime's, shared by every store of the page) and the store's budget.
func (h *handle) memory([]js.Value) any {
	return `{"inUse":` + strconv.FormatInt(core.MemoryInUse(), 10) + `,"budget":` + strconv.FormatInt(h.st.MemoryBudget(), 10) + "}"
}
