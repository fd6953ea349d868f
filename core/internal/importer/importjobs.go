package importer

import (
	"github.com/sessiontree/sessiontree/core/internal/store"
	"github.com/sessiontree/sessiontree/core/internal/tree"
)

// Imports holds one store's sliced imports for a caller that must never
// block for long and names things by number (the wasm binding, whose
// importBuffer, importAppend, importStart, importStep, importFinish and
// importCancel are these methods): byte buffers that receive an export's
// text a slice at a time, and ImportJobs stepped between other calls.
//
// Buffers and jobs take their ids from one counter (1, 2, 3, …), so an id
// names at most one buffer or job and is never given out again; an id that
// names nothing (never made, finished, cancelled or already used) is
// reported by an ok of false, never by a panic. Make one with NewImports;
// like Store, it is not safe for concurrent use.
type Imports struct {
	st      *store.Store
	Last    int            // the last id given out
	Buffers map[int][]byte // texts arriving in slices
	jobs    map[int]*Job   // imports started and not yet finished or cancelled
}

// NewImports returns an empty table of imports into st.
func NewImports(st *store.Store) *Imports {
	return &Imports{st: st, Buffers: map[int][]byte{}, jobs: map[int]*Job{}}
}

// maxBufferHint caps NewBuffer's size hint: 1 GiB, a quarter of wasm32's
// memory.
const maxBufferHint = 1 << 30

// NewBuffer makes an empty buffer with room for sizeHint bytes (a hint
// below 0 counts as 0, one above 1 GiB as 1 GiB) and returns its id. With
// a memory budget, a buffer whose text could not be imported within it
// (sizeHint for the buffer, plus the import's growth, ImportJobGrowth) is
// refused with INVALID_ARGUMENT before anything is allocated.
func (im *Imports) NewBuffer(sizeHint int) (int, *tree.Error) {
	if err := im.st.Reserve("import buffer", max(sizeHint, 0), max(sizeHint, 0), store.ImportJobGrowth); err != nil {
		return 0, err
	}
	im.Last++
	im.Buffers[im.Last] = make([]byte, 0, min(max(sizeHint, 0), maxBufferHint))
	return im.Last, nil
}

// Grow lengthens buffer id by n bytes and returns those n bytes for the
// caller to fill (the wasm binding copies a Uint8Array straight into them:
// one copy instead of two). A full buffer grows to twice its capacity plus
// n, so a text that arrives in k slices is copied O(log k) times. Errors
// (INVALID_ARGUMENT, nothing changed): id names no buffer, n is negative,
// or the larger buffer would pass the memory budget.
func (im *Imports) Grow(id, n int) (tail []byte, err *tree.Error) {
	buf, ok := im.Buffers[id]
	if !ok || n < 0 {
		return nil, tree.Invalidf("no import buffer %d to append %d bytes to", id, n)
	}
	if cap(buf)-len(buf) < n {
		size := 2*cap(buf) + n
		if err := im.st.Reserve("import buffer", size, 0, 0); err != nil {
			return nil, err
		}
		grown := make([]byte, len(buf), size)
		copy(grown, buf)
		buf = grown
	}
	buf = buf[:len(buf)+n]
	im.Buffers[id] = buf
	return buf[len(buf)-n:], nil
}

// Append appends data to buffer id (Grow, then a copy); ok is false, and
// nothing changes, when id names no buffer.
func (im *Imports) Append(id int, data []byte) (ok bool) {
	tail, err := im.Grow(id, len(data))
	copy(tail, data)
	return err == nil
}

// TakeBuffer removes buffer id and returns its bytes, to start an import
// of them: a buffer is used once. ok is false when id names no buffer.
func (im *Imports) TakeBuffer(id int) (data []byte, ok bool) {
	data, ok = im.Buffers[id]
	delete(im.Buffers, id)
	return data, ok
}

// PutBack gives buffer id its bytes back after TakeBuffer took them, for
// a call that failed with PagedOut having changed nothing: the shim loads
// the sessions it needed and makes the call again with the same id.
func (im *Imports) PutBack(id int, data []byte) {
	im.Buffers[id] = data
}

// Start starts an import of data in format ("auto" or "" detects it; see
// Store.StartImport for the errors, which leave nothing behind) and
// returns the new job's id and its total work in bytes (see
// Job.Progress). The job keeps data: the caller must not change it
// afterwards. Its memory is checked with ImportJobGrowth, as NewBuffer
// checks it (Start's ImportGrowth refused a buffer NewBuffer had
// made for any file over about 235 MB under the default budget).
func (im *Imports) Start(data []byte, format string) (job, total int, err *tree.Error) {
	j, err := startImport(im.st, data, format, store.ImportJobGrowth)
	if err != nil {
		return 0, 0, err
	}
	im.Last++
	im.jobs[im.Last] = j
	_, total = j.Progress()
	return im.Last, total, nil
}

// Progress is where a job stands after a step, in bytes of work (see
// Job.Progress): Done once Finish has nothing left to do.
type Progress struct {
	Done  bool `json:"done"`
	Read  int  `json:"read"`
	Total int  `json:"total"`
}

// DefaultStepBudget is the work Step does when given no budget: 1 MiB.
const DefaultStepBudget = 1 << 20

// Step does about budget bytes of job's work (DefaultStepBudget when
// budget ≤ 0; see Job.Step) and reports where it stands. ok is false
// when job names no job. A job that failed is done; Finish returns its
// error.
func (im *Imports) Step(job, budget int) (p Progress, ok bool) {
	j, ok := im.jobs[job]
	if !ok {
		return Progress{}, false
	}
	if budget <= 0 {
		budget = DefaultStepBudget
	}
	p.Done = j.Step(budget)
	p.Read, p.Total = j.Progress()
	return p, true
}

// Finish runs what is left of job, removes it and returns its report or
// its error (see Job.Finish). found is false, and res and err nil,
// when job names no job.
func (im *Imports) Finish(job int) (res *Result, found bool, err *tree.Error) {
	j, found := im.jobs[job]
	if !found {
		return nil, false, nil
	}
	delete(im.jobs, job)
	res, err = j.Finish()
	if err != nil && err.Code == store.PagedOut {
		im.jobs[job] = j // unchanged: finished again once the sessions are loaded
	}
	return res, true, err
}

// Cancel drops the buffer or the unfinished job named id, and does nothing
// when id names neither. A job cancelled while reading has changed
// nothing; one cancelled while adding sessions keeps those it added.
func (im *Imports) Cancel(id int) {
	delete(im.jobs, id)
	delete(im.Buffers, id)
}
