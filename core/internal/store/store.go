package store

import (
	"math/rand/v2"
	"slices"
	"time"

	"github.com/sessiontree/sessiontree/core/internal/formats"
	"github.com/sessiontree/sessiontree/core/internal/tree"
)

// Options configure a Store. The zero value uses the system clock and
// RandomID's ids (math/rand/v2).
type Options struct {
	// Now returns the current time; timestamps are written in UTC with
	// milliseconds (TimeLayout). Nil means time.Now.
	Now func() time.Time
	// NewID returns a candidate id for a node or a generated session. A
	// candidate already taken is drawn again, so a generator that repeats
	// itself forever makes the call loop: tests pass a counter. Nil means
	// RandomID.
	NewID func() string
	// MemoryBudget is the memory, in bytes, the program may hold after a
	// public request, import or import buffer is answered; one that would
	// pass it is refused (see CheckMemory). 0 means no budget; the wasm
	// binding gives DefaultMemoryBudget.
	MemoryBudget int64
	// MemoryInUse returns the bytes the program holds now, for the budget.
	// Nil means MemoryInUse (runtime/metrics); tests pass a fake.
	MemoryInUse func() int64
	// MemoryMapped, when set, returns cheaply the bytes the program has
	// mapped (in wasm, the linear memory's size, which only grows): the
	// budget reads MemoryInUse again whenever it grew since the last
	// reading (see Reserve). Nil: only the call count says when.
	MemoryMapped func() int64
}

// RandomID returns 8 lowercase hex characters (32 random bits from
// math/rand/v2), the id length the Pi coding agent uses. Ids are not
// secrets: uniqueness within a store is checked by the caller, and
// math/rand/v2 is seeded by the runtime (crypto.getRandomValues in a
// browser), while crypto/rand would add 177 KB raw, 54 KB gzip -9 to the
// wasm (measured in issue 14).
func RandomID() string {
	v := rand.Uint32()
	var b [4]byte
	b[0], b[1], b[2], b[3] = byte(v>>24), byte(v>>16), byte(v>>8), byte(v)
	return formats.HexString(b[:])
}

// Store holds every session of one page (or one process): the sessions by
// id, the clock and the ids it draws, the change log, the pages, the
// memory budget, the trash and the search index, with the typed
// operations on them (api.go). Package core answers requests over it. It
// is not safe for concurrent use: the wasm binding calls it from the JS
// event loop only; native callers serialise their calls.
type Store struct {
	now   func() time.Time
	NewID func() string
	ByID  map[string]*tree.Session
	Order []string                 // session ids in order of creation once SortOrder ran (see unsorted)
	Trash map[string]*tree.Session // deleted sessions, by id (see trash.go)
	// list is the session of each id of Order, in its place (what ByID
	// gives for it), and place each id's index in both: a search walks
	// every session several times a query, and in wasm a lookup by string
	// per session cost more than the rest of those walks (10,000 stubs:
	// ~6 ms a query, natively).
	list  []*tree.Session
	place map[string]int
	// unsorted is set when Put left Order out of creation order: a session
	// created before the last one (an import's old dates, one back from the
	// trash, another tab's). SortOrder puts it right before Order is read.
	unsorted bool

	track    bool
	dirty    []dirtyMark
	dirtyAt  map[string]int // index of each session's mark in Dirty; nil: to be rebuilt (see DirtyIndex)
	drainBuf []byte         // DrainChangesUpTo's pieces, reused while a drain lasts

	// Stubs counts the paged-out sessions (paging.go); faults and faulted
	// are the stubs calls needed since the last page.faults.
	Stubs   int
	faults  []string
	faulted map[string]bool

	// Index is the search index of every live session's nodes and what
	// it holds of each (search_index.go).
	Index SearchIndex

	// paths is the path the last context of each session walked (see
	// PathOf).
	paths map[*tree.Session]*tree.PathMemo
	// OnLeave, when set, is told of each session object that leaves the
	// store: replaced by another (snapshot.load, a page-out or page-in, a
	// restore) or removed. Package core drops what its views keep of it.
	OnLeave func(*tree.Session)

	budget    int64        // memory budget in bytes; 0: none (see Reserve)
	InUse     func() int64 // the memory held, for the budget
	mapped    func() int64 // Options.MemoryMapped, or nil
	room      int64        // the budget less the memory in use at the last reading, less the estimates since
	sinceRead int          // calls checked since that reading
	mappedAt  int64        // mapped() at that reading

}

// New returns an empty store.
func New(opts Options) *Store {
	st := &Store{
		now:    opts.Now,
		NewID:  opts.NewID,
		ByID:   make(map[string]*tree.Session),
		place:  make(map[string]int),
		budget: max(opts.MemoryBudget, 0),
		InUse:  opts.MemoryInUse,
		mapped: opts.MemoryMapped,
	}
	if st.InUse == nil {
		st.InUse = MemoryInUse
	}
	if st.now == nil {
		st.now = time.Now
	}
	if st.NewID == nil {
		st.NewID = RandomID
	}
	return st
}

// Timestamp returns the store's clock now in TimeLayout (UTC, milliseconds).
func (st *Store) Timestamp() string {
	return st.now().UTC().Format(formats.TimeLayout)
}

// DrawNodeID draws a node id unused in s.
func (st *Store) DrawNodeID(s *tree.Session, taken map[string]bool) string {
	for {
		id := st.NewID()
		if id == "" {
			continue
		}
		if _, ok := s.Index[id]; !ok && !taken[id] {
			return id
		}
	}
}

// DrawSessionID draws a session id unused in the store.
func (st *Store) DrawSessionID() string {
	for {
		id := st.NewID()
		if id != "" && st.Taken(id) == nil {
			return id
		}
	}
}

// Lookup returns the live session with id: SESSION_NOT_FOUND when there
// is none, PAGED_OUT (recording the fault) when it is a stub.
func (st *Store) Lookup(id string) (*tree.Session, *tree.Error) {
	if s := st.ByID[id]; s != nil {
		if s.Paged != nil {
			return nil, st.PageFault(id)
		}
		return s, nil
	}
	return nil, tree.Errorf(tree.SessionNotFound, "session %q does not exist", id)
}

// Put adds or replaces a session, keeping a replaced session's place in
// the order and the count of stubs (see paging.go).
func (st *Store) Put(s *tree.Session) {
	old, ok := st.ByID[s.ID()]
	if n := len(st.list); (!ok && n > 0 && compareCreation(s, st.list[n-1]) < 0) || (ok && old.CreatedAt != s.CreatedAt) {
		st.unsorted = true
	}
	if !ok {
		st.place[s.ID()] = len(st.Order)
		st.Order = append(st.Order, s.ID())
		st.list = append(st.list, s)
	} else if old != s {
		st.list[st.place[s.ID()]] = s
		switch {
		case s.Paged != nil && old.Paged == nil:
			st.Index.retain(old, s) // page.out: its documents stay
		case old.Paged != nil && s.Paged == nil && st.Index.relink(old, s):
			// paged in: the documents kept for it are its own
		default:
			st.unindex(old)
		}
		st.leave(old)
		if old.Paged != nil {
			st.Stubs--
		}
	}
	if s.Paged != nil && old != s {
		st.Stubs++
	}
	st.ByID[s.ID()] = s
	st.indexSession(s)
}

// Session returns the session with id, or nil.
func (st *Store) Session(id string) *tree.Session { return st.ByID[id] }

// PutNew stores s, a session made by operation op (created, forked,
// cloned, imported), and records all of it as new.
func (st *Store) PutNew(s *tree.Session, op string) {
	st.Put(s)
	st.markDirty(s, 0, true, op)
}

// Record runs edit on s, a stored session, and records what edit reports
// it changed under op: the nodes and annotations appended since it began
// (a session only grows) and its metadata. It does not stamp the session
// as updated: edit sets UpdatedAt as it sees fit (an import keeps the
// file's time). The importer's merge is its caller: every other change is
// made by a method of the store, which records it itself.
func (st *Store) Record(s *tree.Session, op string, edit func() (changed bool)) {
	from, afrom := len(s.Nodes), len(s.Annotations)
	if edit() {
		st.markDirty(s, from, false, op)
		st.markAnnotated(s, afrom)
	}
}

// touch stamps the session as updated and records the change by operation
// op for persistence. from is the node count before the call.
func (st *Store) touch(s *tree.Session, from int, reset bool, op string) {
	s.UpdatedAt = st.Timestamp()
	st.markDirty(s, from, reset, op)
}

// compareCreation orders sessions by creation: by createdAt, then
// sessionId, each as UTF-16 code units (CompareUTF16); negative when a
// comes first. It is the order in which the shim restores stored sessions
// (js/store/listing.js byCreation), so that a store reloaded from
// IndexedDB lists as it did.
func compareCreation(a, b *tree.Session) int {
	if c := CompareUTF16(a.CreatedAt, b.CreatedAt); c != 0 {
		return c
	}
	return CompareUTF16(a.ID(), b.ID())
}

// SortOrder puts Order (and the list and places that follow it) in
// creation order (compareCreation) when Put left it out of it: once for a
// whole import, however many old sessions it added. Readers of Order call
// it first.
func (st *Store) SortOrder() {
	if !st.unsorted {
		return
	}
	st.unsorted = false
	slices.SortStableFunc(st.list, compareCreation)
	for i, s := range st.list {
		st.Order[i] = s.ID()
		st.place[s.ID()] = i
	}
}

// SessionList builds the value of sessions; a paged-out session gives the
// counts its stub keeps.
func (st *Store) SessionList() []SessionSummary {
	st.SortOrder()
	out := make([]SessionSummary, 0, len(st.Order))
	for _, id := range st.Order {
		s := st.ByID[id]
		count, cursor := len(s.Nodes), s.NodeID(s.Cursor)
		if s.Paged != nil {
			count, cursor = s.Paged.NodeCount, s.Paged.Cursor
		}
		out = append(out, SessionSummary{
			SessionID:    s.ID(),
			Title:        s.Title,
			NodeCount:    count,
			Cursor:       tree.Nullable(cursor),
			ActiveBranch: s.Active,
			UpdatedAt:    s.UpdatedAt,
			Tool:         s.Tool,
			Project:      s.Project,
		})
	}
	return out
}

// SessionSummary is one entry of the value of sessions.
type SessionSummary struct {
	SessionID    string  `json:"sessionId"`
	Title        string  `json:"title"`
	NodeCount    int     `json:"nodeCount"`
	Cursor       *string `json:"cursor"`
	ActiveBranch string  `json:"activeBranch"`
	// UpdatedAt is as Status's: "" for an undated import.
	UpdatedAt string `json:"updatedAt"`
	// Tool is the format of the import that made the session ("codex",
	// "claude-code", "chatgpt", …), Project the folder its conversation
	// worked in (a coding agent's cwd); each left out when unknown.
	Tool    string `json:"tool,omitempty"`
	Project string `json:"project,omitempty"`
}

// leave forgets what is kept of s, which left the store (see OnLeave).
func (st *Store) leave(s *tree.Session) {
	delete(st.paths, s)
	if st.OnLeave != nil {
		st.OnLeave(s)
	}
}

// PathOf returns the path memo of s (the root→cursor path its last
// context walked), made empty on first use.
func (st *Store) PathOf(s *tree.Session) *tree.PathMemo {
	if m := st.paths[s]; m != nil {
		return m
	}
	if st.paths == nil {
		st.paths = make(map[*tree.Session]*tree.PathMemo)
	}
	m := new(tree.PathMemo)
	st.paths[s] = m
	return m
}
