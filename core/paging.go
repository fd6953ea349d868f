package core

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
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/sessiontree/sessiontree/core/internal/tree"
)

// PagedOut is the internal error code of a call that needed a session
// whose nodes are not in memory (a stub; see the file comment). It is not
// one of SPEC.md's six codes: the JS shim loads the sessions page.faults
// names and repeats the call, so no public caller ever sees it.
const PagedOut Code = "PAGED_OUT"

// pageFault records that the call needed session id, which is a stub, and
// returns the PagedOut error to fail it with.
func (st *Store) pageFault(ids ...string) *Error {
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
	if st.stubs == 0 {
		return nil
	}
	for _, id := range st.order {
		if s := st.sessions[id]; s != nil && s.Paged != nil {
			ids = append(ids, id)
		}
	}
	return ids
}

// stubOf returns a stub standing for s (which may itself be one).
func stubOf(s *Session) *Session {
	if s.Paged != nil {
		return s
	}
	stub := tree.NewStub(s.ID(), &tree.PageStub{NodeCount: len(s.Nodes), Cursor: s.NodeID(s.Cursor)})
	stub.Title, stub.CreatedAt, stub.UpdatedAt, stub.Active = s.Title, s.CreatedAt, s.UpdatedAt, s.Active
	stub.Tool, stub.Project, stub.Source = s.Tool, s.Project, s.Source
	return stub
}

// stubEntry is one session of a page.stub request: its stored summary.
// Title, Cursor and ActiveBranch count only where their has bit is set
// (a member absent or null keeps what the stub holds).
type stubEntry struct {
	SessionID    string
	Title        string
	CreatedAt    string
	UpdatedAt    string
	NodeCount    int
	Cursor       string
	ActiveBranch string
	Tool         string
	Project      string
	// Source is the stored summary's source link (appendSourceMeta).
	Source *tree.StubSource
	has    stubHas
}

// stubHas says which of a stubEntry's optional members were given.
type stubHas uint8

const (
	hasTitle stubHas = 1 << iota
	hasCursor
	hasActiveBranch
)

// stubEntryFields are the keys of stubEntry's fields, in order.
var stubEntryFields = []string{"sessionId", "title", "createdAt", "updatedAt", "nodeCount", "cursor", "activeBranch", "tool", "project", "source"}

// readStubEntry reads the page.stub entry el into e and reports whether
// every field has its type.
func readStubEntry(el []byte, e *stubEntry) bool {
	dst := [...]*string{&e.SessionID, &e.Title, &e.CreatedAt, &e.UpdatedAt, nil, &e.Cursor, &e.ActiveBranch, &e.Tool, &e.Project}
	ok := true
	ok = jsonx.ReadObject(el, stubEntryFields, func(field int, v []byte) {
		switch field {
		case 4:
			ok = jsonx.ReadInt(v, &e.NodeCount) && ok
		case 9:
			ok = tree.ReadStubSource(v, &e.Source) && ok
		case 1, 5, 6:
			bit := [...]stubHas{1: hasTitle, 5: hasCursor, 6: hasActiveBranch}[field]
			if jsonx.IsNull(v) {
				e.has &^= bit
				return
			}
			e.has |= bit
			ok = jsonx.ReadString(v, dst[field]) && ok
		default:
			ok = jsonx.ReadString(v, dst[field]) && ok
		}
	}) && ok
	return ok
}

// readStubEntries reads page.stub's "sessions" list v, reporting false
// when it is not a list of entries of the right types. The shim sends a
// few sessions this way (another tab's); start-up's thousands come packed
// (paging_packed.go).
func readStubEntries(v []byte) ([]stubEntry, bool) {
	var list []stubEntry
	ok := jsonx.ReadList(v, &list, readStubEntry)
	return list, ok
}

// pageStub adds or updates the stubs of list (see opPageStub) and returns
// how many stubs the store holds; it fails with InvalidArgument, changing
// nothing, when an entry has no sessionId or a negative node count.
func (st *Store) pageStub(list []stubEntry) (int, *Error) {
	for i, e := range list {
		if e.SessionID == "" || e.NodeCount < 0 {
			return 0, tree.Invalidf("page.stub: session %d has no sessionId or a negative nodeCount", i)
		}
	}
	for i := range list {
		e := &list[i]
		s := st.sessions[e.SessionID]
		if s != nil && s.Paged == nil {
			continue
		}
		if s == nil {
			s = tree.NewStub(e.SessionID, &tree.PageStub{})
			s.Active = DefaultBranch
			st.put(s)
		}
		if e.has&hasTitle != 0 {
			s.Title = e.Title
		}
		if e.CreatedAt != "" {
			s.CreatedAt = e.CreatedAt
		}
		s.UpdatedAt = e.UpdatedAt
		s.SetOrigin(e.Tool, e.Project)
		s.Paged.NodeCount = e.NodeCount
		if e.has&hasCursor != 0 {
			s.Paged.Cursor = e.Cursor
		}
		if e.has&hasActiveBranch != 0 {
			s.Active = e.ActiveBranch
		}
		if l := e.Source.Link(); l != nil {
			s.Source = l
		}
	}
	return st.stubs, nil
}

// importPaged reports the stubs the commits of j would reach (the session
// of each conversation's id, and the "<id>-N" it may be renamed to), as a
// PagedOut error, or nil when there are none: checked before the first
// commit, so an import that needs a paged-out session changes nothing.
func (j *ImportJob) importPaged() *Error {
	st := j.st
	if st.stubs == 0 {
		return nil
	}
	var ids []string
	for _, s := range j.kept {
		into := st.sessions[s.ID()]
		if into == nil {
			continue
		}
		if into.Paged != nil {
			ids = append(ids, s.ID())
			continue
		}
		if len(into.Nodes) == 0 || len(s.Nodes) == 0 || sharesNode(into, s) {
			continue
		}
		for n := 2; ; n++ {
			next := st.sessions[s.ID()+"-"+string(jsonx.AppendInt(nil, n))]
			if next == nil {
				break
			}
			if next.Paged != nil {
				ids = append(ids, next.ID())
			} else if sharesNode(next, s) {
				break
			}
		}
	}
	if len(ids) == 0 {
		return nil
	}
	return st.pageFault(ids...)
}
