package store

import (
	"runtime"
	"runtime/metrics"

	"github.com/sessiontree/sessiontree/core/internal/tree"
)

// The memory budget: a store given one (Options.MemoryBudget,
// SetMemoryBudget) refuses, with INVALID_ARGUMENT naming the sizes, every
// public request that may change the store, import and import buffer
// whose estimated memory would take the program past it, before anything
// is changed. Read-only operations are always answered: a store that is
// full (nothing is ever deleted) still reads and exports. It exists
// for the browser: wasm32 memory ends at 4 GiB and never shrinks, and a Go
// program that cannot grow it ends with "fatal error: out of memory"
// (issue 19), so refusing up front is the only answer that keeps the
// store. The shim's own operations (restore, sync.*) are never refused:
// they bring in what IndexedDB already holds.

// DefaultMemoryBudget is the budget the wasm binding gives a store unless
// the shim's init says otherwise: 2 GiB, half of wasm32's 4 GiB. The other
// half is the collector's room: a heap may grow past its live size before
// a collection (the binding's soft limit caps it at 3 GiB) and wasm memory
// that grew stays grown, so a store kept to 2 GiB of held memory stays
// clear of the ceiling.
const DefaultMemoryBudget int64 = 2 << 30

// RequestGrowth and ImportGrowth are the memory, in bytes per byte of
// request, that answering a request is estimated to allocate beyond the
// request's own bytes, with the collector off (as the binding runs its
// bulk calls): RequestGrowth for any request through Call (a snapshot.load
// is the largest: 1.63 measured for a 100,000-message chain of short
// messages, TestGrowthFactorsCoverLoadAndImport), ImportGrowth for the
// text of an import (5.5 for a Claude Code transcript, 6.7 for an Open
// WebUI export: the importers hold the parsed export and the sessions
// built from it at once). Both rounded up with room to spare: a refusal
// costs a retry with a larger budget, an underestimate the whole store.
const (
	RequestGrowth = 3
	ImportGrowth  = 8
)

// ImportJobGrowth is ImportGrowth for an import job and its buffer
// (Imports: NewBuffer and Start; the browser's importText and
// importFile), whose import runs with the collector bounded by a memory
// limit of the memory in use plus 1.5× the file (the binding sets it)
// instead of paused: the wasm memory of a 200 MB ChatGPT export's job
// peaked at 2.6× the file in memory and 2.5× persisted (the Writer drains
// the changes in pieces, DrainChangesUpTo; drained whole it was 4.1×),
// the file included, so 4 beyond the buffer leaves room (3 would, for
// ChatGPT; the other formats' jobs are not measured); with ImportGrowth a
// file over about 235 MB could not be imported under the default budget.
const ImportJobGrowth = 4

// MemoryInUse returns the bytes the Go runtime holds now: all the memory
// it has mapped (in wasm, the linear memory it has grown) less the heap
// pages that are free or released, from runtime/metrics. Dead objects not
// yet collected count: they hold their pages until a collection.
func MemoryInUse() int64 {
	s := []metrics.Sample{
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/free:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
	}
	metrics.Read(s)
	var v [3]int64
	for i := range s {
		if s[i].Value.Kind() == metrics.KindUint64 {
			v[i] = int64(s[i].Value.Uint64())
		}
	}
	return v[0] - v[1] - v[2]
}

// SetMemoryBudget sets the store's memory budget to limit bytes (0 or
// less: none), as Options.MemoryBudget does.
func (st *Store) SetMemoryBudget(limit int64) {
	st.budget = max(limit, 0)
	st.room, st.sinceRead = 0, 0 // read the memory in use at the next call
}

// MemoryBudget returns the store's memory budget in bytes (0: none).
func (st *Store) MemoryBudget() int64 { return st.budget }

// CheckMemory reports whether a request of n bytes that is not yet in
// memory fits the budget: its copy (n bytes) and the answer's growth (n ×
// RequestGrowth) on top of what the program holds (Options.MemoryInUse).
// The wasm binding asks before it copies a request of at least
// PrecheckBytes out of JS, so a request too large to copy is refused too
// (whatever its operation: no read takes a request that large). Nil when it fits or there is no
// budget; else INVALID_ARGUMENT naming the request's size, the estimate,
// the memory in use and the limit, in bytes.
func (st *Store) CheckMemory(n int) *tree.Error {
	return st.Reserve("request", n, n, RequestGrowth)
}

// PrecheckBytes is the request size from which the wasm binding calls
// CheckMemory before it copies a request: 1 MiB (a snapshot.load, a
// restore point, an import in one call). Smaller requests are checked by
// Call once their operation is known.
const PrecheckBytes = 1 << 20

// RereadCalls is how many calls Reserve answers from its last reading
// of the memory in use (less what it estimated they need) before it reads
// it again: runtime/metrics takes about 85 µs in wasm (measured in
// Chromium, an append's call 77–147 µs without it), so reading it for
// every call nearly doubled a small call's cost.
const RereadCalls = 64

// Reserve checks that incoming bytes about to be allocated, plus the
// growth of answering grow bytes of request (grow × growth bytes per
// byte), fit the budget on top of the memory in use. The memory in use is
// read (Options.MemoryInUse) when the estimate needs more than a quarter
// of the room the last reading left, when the mapped memory grew since
// (Options.MemoryMapped: a call whose request is small may still grow the
// heap, a clone of a large session), or every RereadCalls calls; in
// between, each call's estimate is taken from that room. Over the budget,
// one collection is run (runtime.GC: garbage from earlier calls still
// holds its pages, notably after the binding's bulk calls, which run with
// the collector paused) and the check made again. what names the thing
// refused ("request", "import", "import buffer").
func (st *Store) Reserve(what string, incoming, grow, growth int) *tree.Error {
	if st.budget <= 0 {
		return nil
	}
	need := int64(incoming) + int64(grow)*int64(growth)
	mapped := int64(0)
	if st.mapped != nil {
		mapped = st.mapped()
	}
	if st.sinceRead < RereadCalls && need < st.room/4 && mapped == st.mappedAt {
		st.sinceRead++
		st.room -= need
		return nil
	}
	st.mappedAt = mapped
	held := st.InUse()
	if held+need > st.budget && need <= st.budget {
		runtime.GC()
		held = st.InUse()
	}
	st.sinceRead = 0
	st.room = st.budget - held
	if need > st.room {
		return tooLarge(what, max(incoming, grow), need, held, st.budget)
	}
	st.room -= need
	return nil
}

//go:noinline
func tooLarge(what string, size int, need, held, limit int64) *tree.Error {
	return tree.Invalidf("%s of %d bytes refused: it needs about %d bytes of memory, and with the %d bytes in use that passes the memory budget of %d bytes (init option memoryBudget); nothing was changed", what, size, need, held, limit)
}
