package store

// Sessions paged out of memory. The JS shim keeps every session in
// IndexedDB and, at start-up, gives core only each session's summary (a
// stub: id, title, times, node count, cursor, active branch); a session's
// nodes are read into memory the first time a call needs them, and a
// session nobody used recently goes back to being a stub (issue 24). Core
// answers what a stub holds ("sessions", whether an id is taken) and faults
// on everything else: the call fails with the internal code PagedOut,
// having changed nothing, and "page.faults" names the sessions it needed.
// The shim loads them ("restore") and runs the call again, so every caller
// of the public API sees the answer the session would have given had it
// stayed in memory. PagedOut never leaves the shim.

import (
	"slices"

	"github.com/sessiontree/sessiontree/core/internal/formats"
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/sessiontree/sessiontree/core/internal/tree"
)

// PagedOut is the internal error code of a call that needed a session
// whose nodes are not in memory (a stub; see the file comment). It is not
// one of SPEC.md's six codes: the JS shim loads the sessions page.faults
// names and repeats the call, so no public caller ever sees it.
const PagedOut tree.Code = "PAGED_OUT"

// PageFault records that the call needed the stubs ids and returns the PagedOut error to fail it with.
func (st *Store) PageFault(ids ...string) *tree.Error {
	for _, id := range ids {
		if !st.faulted[id] {
			if st.faulted == nil {
				st.faulted = map[string]bool{}
			}
			st.faulted[id] = true
			st.faults = append(st.faults, id)
		}
	}
	if len(ids) == 1 {
		return tree.Errorf(PagedOut, "session %q is not in memory", ids[0])
	}
	return tree.Errorf(PagedOut, "%d sessions are not in memory", len(ids))
}

// pagedIDs returns the ids of every stub, in creation order.
func (st *Store) pagedIDs() []string {
	var ids []string
	if st.Stubs == 0 {
		return nil
	}
	st.SortOrder()
	for _, s := range st.list {
		if s.Paged != nil {
			ids = append(ids, s.ID())
		}
	}
	return ids
}

// StubOf returns a stub standing for s (which may itself be one).
func StubOf(s *tree.Session) *tree.Session {
	if s.Paged != nil {
		return s
	}
	stub := tree.NewStub(s.ID(), &tree.PageStub{NodeCount: len(s.Nodes), Cursor: s.NodeID(s.Cursor)})
	stub.Title, stub.CreatedAt, stub.UpdatedAt, stub.Active = s.Title, s.CreatedAt, s.UpdatedAt, s.Active
	stub.Tool, stub.Project, stub.Source = s.Tool, s.Project, s.Source
	return stub
}

// StubEntry is one session of a page.stub request: its stored summary.
// Title, Cursor and ActiveBranch count only where their has bit is set
// (a member absent or null keeps what the stub holds).
type StubEntry struct {
	SessionID    string
	Title        string
	CreatedAt    string
	UpdatedAt    string
	NodeCount    int
	Cursor       string
	ActiveBranch string
	Tool         string
	Project      string
	// Source is the stored summary's source link (Session.AppendSourceMeta).
	Source *tree.StubSource
	Has    StubHas
}

// StubHas says which of a StubEntry's optional members were given.
type StubHas uint8

// The members a stub entry may give besides its id and counts.
const (
	HasTitle StubHas = 1 << iota
	HasCursor
	HasActiveBranch
)

// stubEntryFields are the keys of StubEntry's fields, in order.
var stubEntryFields = []string{"sessionId", "title", "createdAt", "updatedAt", "nodeCount", "cursor", "activeBranch", "tool", "project", "source"}

// readStubEntry reads the page.stub entry el into e and reports whether
// every field has its type.
func readStubEntry(el []byte, e *StubEntry) bool {
	dst := [...]*string{&e.SessionID, &e.Title, &e.CreatedAt, &e.UpdatedAt, nil, &e.Cursor, &e.ActiveBranch, &e.Tool, &e.Project}
	ok := true
	ok = jsonx.ReadObject(el, stubEntryFields, func(field int, v []byte) {
		switch field {
		case 4:
			ok = jsonx.ReadInt(v, &e.NodeCount) && ok
		case 9:
			ok = tree.ReadStubSource(v, &e.Source) && ok
		case 1, 5, 6:
			bit := [...]StubHas{1: HasTitle, 5: HasCursor, 6: HasActiveBranch}[field]
			if jsonx.IsNull(v) {
				e.Has &^= bit
				return
			}
			e.Has |= bit
			ok = jsonx.ReadString(v, dst[field]) && ok
		default:
			ok = jsonx.ReadString(v, dst[field]) && ok
		}
	}) && ok
	return ok
}

// ReadStubEntries reads page.stub's "sessions" list v, reporting false
// when it is not a list of entries of the right types. The shim sends a
// few sessions this way (another tab's); start-up's thousands come packed
// (paging_packed.go).
func ReadStubEntries(v []byte) ([]StubEntry, bool) {
	var list []StubEntry
	ok := jsonx.ReadList(v, &list, readStubEntry)
	return list, ok
}

// PageStubOf adds or updates the stubs of list (see opPageStub) and returns
// how many stubs the store holds; it fails with InvalidArgument, changing
// nothing, when an entry has no sessionId or a negative node count.
func (st *Store) PageStubOf(list []StubEntry) (int, *tree.Error) {
	for i, e := range list {
		if e.SessionID == "" || e.NodeCount < 0 {
			return 0, tree.Invalidf("page.stub: session %d has no sessionId or a negative nodeCount", i)
		}
	}
	// Room for every entry: at start all are new; the few a later call
	// updates leave slots that go with their slab.
	st.reserve(len(list))
	stubs := tree.NewStubs(len(list))
	for i := 0; i < len(list); i += startChunk { // in chunks, so that optimised code takes over (see startChunk)
		st.pageStubChunk(list[i:min(len(list), i+startChunk)], stubs)
	}
	return st.Stubs, nil
}

// startChunk is the most sessions a loop of the start (page.stub, the
// packed summaries) handles in one call of its function, so that the
// optimised code compiled for it meanwhile runs the later chunks (why:
// the search package's loopChunk). A session costs more than a posting.
const startChunk = 512

// pageStubChunk is PageStubOf for one chunk of its checked list, making
// new stubs from stubs.
//
//go:noinline
func (st *Store) pageStubChunk(list []StubEntry, stubs *tree.Stubs) {
	for i := range list {
		e := &list[i]
		s := st.ByID[e.SessionID]
		if s != nil && s.Paged == nil {
			continue
		}
		if s == nil {
			s = stubs.New(e.SessionID)
			s.Active = formats.DefaultBranch
			st.Put(s)
		}
		if e.Has&HasTitle != 0 {
			s.Title = e.Title
		}
		if e.CreatedAt != "" {
			s.CreatedAt = e.CreatedAt
		}
		s.UpdatedAt = e.UpdatedAt
		s.SetOrigin(e.Tool, e.Project)
		s.Paged.NodeCount = e.NodeCount
		s.Paged.Unreadable = "" // stored again: worth another read
		if e.Has&HasCursor != 0 {
			s.Paged.Cursor = e.Cursor
		}
		if e.Has&HasActiveBranch != 0 {
			s.Active = e.ActiveBranch
		}
		if l := e.Source.Link(); l != nil {
			s.Source = l
		}
	}
}

// PageOut takes session id's nodes out of memory, leaving its stub (a
// stub stays as it is), recording no change: the node count the stub
// stands for. SESSION_NOT_FOUND for an unknown id; INVALID_ARGUMENT while
// the session has changes not yet drained (they are not stored yet).
func (st *Store) PageOut(id string) (int, *tree.Error) {
	s := st.ByID[id]
	if s == nil {
		return 0, tree.Errorf(tree.SessionNotFound, "session %q does not exist", id)
	}
	for _, d := range st.dirty {
		if d.ID == id {
			return 0, tree.Invalidf("session %q has changes not yet stored; it stays in memory", id)
		}
	}
	stub := StubOf(s)
	if stub != s {
		st.Put(stub)
	}
	return stub.Paged.NodeCount, nil
}

// TakeFaults returns the ids of the stubs calls faulted on (PagedOut)
// since the last TakeFaults, in the order they were needed, and forgets
// them; never nil.
func (st *Store) TakeFaults() []string {
	ids := st.faults
	if ids == nil {
		ids = []string{}
	}
	st.faults, st.faulted = nil, nil
	return ids
}

// reserve makes room for n more sessions in the order's maps and lists,
// so that the start's stubs, every stored session at once, fill them
// without growing them again and again (10,000 stubs: a fifth less time,
// natively). A map can only be sized when it is made: an empty store's are
// made anew.
func (st *Store) reserve(n int) {
	if len(st.ByID) == 0 && len(st.place) == 0 {
		st.ByID = make(map[string]*tree.Session, n)
		st.place = make(map[string]int, n)
	}
	st.Order = slices.Grow(st.Order, n)
	st.list = slices.Grow(st.list, n)
}
