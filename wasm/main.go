//go:build js && wasm

// Command wasm is the WebAssembly binding of sessiontree: the main package
// built with GOOS=js GOARCH=wasm. It registers one global object,
//
//	globalThis.sessiontreeWasm = {version: string, newStore(memory?), exit(code)}
//
// exit(code: number, text?: string) ends the Go program at once
// (os.Exit), text first written to stderr as a fatal error writes its
// line: for tests of the shim's restart (js/sessiontree.js), which is what
// must happen after one. Nothing reachable from a request calls it.
//
// and newStore(memory?) (memory: the program's WebAssembly.Memory, for the
// memory budget's cheap signal; see newStore) returns a store handle (a core.Store that records its
// changes, and the core.Imports of its sliced imports) with these methods:
//
//	call(request: string | Uint8Array, parsed?: boolean) → envelope: string
//	    core.Store.Call: public operations only (restore and sync.* are unknown
//	    there); bytes are UTF-8 JSON. parsed: true → wire.CallParsed (a
//	    large answer may come back ASCII-escaped).
//	callInternal(request: string | Uint8Array) → envelope: string
//	    core.Store.CallInternal: every operation, the shim's own restore,
//	    sync.merge and sync.forget too.
//	pageStub(summaries: Uint8Array, hold?: boolean) → envelope: string
//	    core.Store.PageStubPacked: the stored sessions' summaries, packed
//	    (js/store/pager.js packStubs), as stubs; {"ok":true,"value":{"stubs":n}}.
//	    hold: true leaves the collector paused until settle() (see
//	    holdCollector): the start's first calls do not wait for it.
//	settle() → null
//	    ends the pause pageStub's hold left (settleCollector); nothing when
//	    there is none.
//	operations() → string
//	    core.OperationInfosJSON: [{"name","readOnly","keepsCursor","public"}…].
//	context(request: string | Uint8Array, held?: number[]) → string
//	    wire.CallColumns: a context in columns read from wasm memory (see
//	    columnsHeader); any other request, or an error, call(request, true)'s
//	    envelope. held: the layouts whose messages the caller kept, as
//	    [cache, layout, cache, layout, …] (wire.Layout; at most 16 pairs).
//	importText(data: string, format: string) → envelope: string
//	    core.Store.Import in one call; the value is the import report.
//	importBuffer(sizeHint: number) → id: number
//	    core.Imports.NewBuffer: a byte buffer for importAppend.
//	importAppend(id: number, bytes: Uint8Array) → "" or an error envelope
//	    copies the bytes (UTF-8) onto the end of the buffer.
//	importStart(data: string | id: number, format: string) → envelope: string
//	    core.Imports.Start, of the text or of a buffer (used once); value {job, total}.
//	importStep(job: number, budget: number) → string
//	    core.Imports.Step: {"done","read","total"} (bytes), or an error envelope.
//	importFinish(job: number) → envelope: string
//	    core.Imports.Finish: the import's report.
//	importCancel(id: number) → null
//	    core.Imports.Cancel: drops an unfinished job or a buffer.
//	importFiles(manifest: string, id: number) → envelope: string
//	    core.Store.ImportFiles of the files in buffer id (used once), split
//	    by manifest [{"path","size"},…]; the value is the files' report.
//	warm(budget: number) → done: boolean
//	    core.Store.WarmSearch: indexes up to budget nodes (default 1000).
//	warmLoad() → ran: boolean
//	    runs a stub's first context once on a scratch store, so that V8
//	    compiles its code (lazily, at a first call) while the shim waits for
//	    IndexedDB (see warm.go); false when it ran before.
//	searchSave() → bytes: Uint8Array | null
//	    core.Store.SearchIndexBytes: the search index to keep, null when
//	    there is none or it is not complete.
//	searchLoad(bytes: Uint8Array) → sessions: number
//	    core.Store.LoadSearchIndex: the sessions whose kept documents were
//	    taken (0 when the store already has an index), -1 when the bytes
//	    are not a search index.
//	drain(withNodes: boolean) → changes: string
//	    core.Store.DrainChanges.
//	drainBytes(limit?) → changes: Uint8Array
//	    core.Store.DrainChanges(true) as UTF-8 bytes; with limit (bytes,
//	    > 0) the next piece of core.Store.DrainChangesUpTo.
//	setMemoryBudget(bytes: number) → null
//	    core.Store.SetMemoryBudget: a public request, import or import buffer
//	    that would pass it is INVALID_ARGUMENT (newStore's default:
//	    core.DefaultMemoryBudget). call checks a request's length before
//	    copying it out of JS (core.Store.CheckMemory).
//	memory() → string
//	    {"inUse": bytes, "budget": bytes}: core.MemoryInUse, the budget.
//	free() → null
//	    releases the other methods' functions and the store; a method called
//	    afterwards returns undefined (syscall/js logs "call to released
//	    function"); free itself may be called again.
//
// Every method, and newStore itself, runs under one guard (guardedFunc): a
// panic becomes the string {"ok":false,"error":{"code":"INVALID_ARGUMENT",
// "message":"internal error in NAME: …"}}, so a bug in core never throws
// into JS or stops the Go program. A method whose usual answer is not an
// envelope (importBuffer's id, operations' array, importAppend's "",
// importStep's progress, warm's boolean, searchSave's bytes, searchLoad's number, drain's lines, drainBytes' bytes,
// importCancel's and free's null, newStore's handle) gives that envelope
// string in its place.
//
// Bulk data crosses as one string or one Uint8Array, never field by field
// (see TOOLCHAIN.md: per-field js.Value access is 5–10× slower). Calls are
// synchronous and never block: the store is pure computation. The binding
// only converts arguments and answers; what it calls lives in core.
package main

import (
	"os"
	"syscall/js"
)

// version is reported as sessiontreeWasm.version.
const version = "0.1.0"

func main() {
	limitMemory()
	js.Global().Set("sessiontreeWasm", js.ValueOf(map[string]any{
		"version":  version,
		"newStore": guardedFunc("newStore", newStore),
		"exit":     guardedFunc("exit", exit),
	}))
	select {} // keep the Go runtime alive for the callbacks
}

// exit is sessiontreeWasm.exit(code, text): text and a newline to
// stderr when it is a string, then os.Exit(code), 2 (a fatal error's code)
// when code is not a number. It does not return.
func exit(args []js.Value) any {
	code := 2
	if argIs(args, 0, js.TypeNumber) {
		code = args[0].Int()
	}
	if text, ok := argString(args, 1); ok {
		_, _ = os.Stderr.WriteString(text + "\n")
	}
	os.Exit(code)
	return nil
}
