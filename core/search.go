package core

import (
	"strings"
	"unicode/utf8"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/sessiontree/sessiontree/core/internal/search"
)

// Limits of the search request.
const (
	// DefaultSearchLimit is the number of hits returned when the request
	// gives no limit.
	DefaultSearchLimit = 20
	// MaxSearchLimit is the largest limit accepted.
	MaxSearchLimit = 1000
	// MaxQueryLength is the longest query accepted, in characters (runes).
	MaxQueryLength = 1000
	// SnippetLength is the length a snippet aims at, in characters (runes,
	// not counting the "…" marks of a cut).
	SnippetLength = search.SnippetLength
)

// SearchHit is one hit of search. Snippet is a short excerpt of the node's
// text (runs of white space collapsed to one space, "…" where it was cut),
// cut between whole characters; Ranges are the [start, end) pairs, in
// UTF-16 code units of Snippet, of the characters that matched, in order
// and not overlapping.
type SearchHit struct {
	SessionID string   `json:"sessionId"`
	NodeID    string   `json:"nodeId"`
	Branch    string   `json:"branch"`
	Role      string   `json:"role"`
	Score     float64  `json:"score"`
	Snippet   string   `json:"snippet"`
	Ranges    [][2]int `json:"ranges"`
}

// SearchResult is the value of search: the best hits, best first, and the
// number of nodes that matched in all.
type SearchResult struct {
	Hits  []SearchHit `json:"hits"`
	Total int         `json:"total"`
}

// index returns the store's search index, created empty when there is
// none, with every live session registered as one of its owners: attached
// (every node indexed, later ones as they arrive, Session.push) or being
// added by WarmSearch (its first s.warmed nodes indexed). Nothing is
// indexed here: a search finds the nodes not yet indexed by scanning them
// (see rest), so loading, restoring and importing pay nothing for the
// index and a search never waits for it (issue 15).
func (st *Store) index() *search.Index {
	if st.search == nil {
		st.search, st.searchOwners = search.NewIndex(), []*Session{nil}
	}
	ix := st.search
	for _, id := range st.order {
		s := st.sessions[id]
		if s == nil || s.search == ix || s.warming == ix {
			continue
		}
		s.warming, s.warmed = ix, 0
		s.searchKey = uint32(len(st.searchOwners))
		st.searchOwners = append(st.searchOwners, s)
	}
	return ix
}

// rest calls yield with each node of a live session (only of only, when
// not nil) that the index does not hold yet: the nodes of sessions
// WarmSearch has not finished, from the first it has not added.
func (st *Store) rest(ix *search.Index, only *Session) func(yield func(owner uint32, node int32, millis int64) bool) {
	return func(yield func(uint32, int32, int64) bool) {
		for _, id := range st.order {
			s := st.sessions[id]
			if s == nil || s.warming != ix || only != nil && s != only {
				continue
			}
			for i := s.warmed; i < len(s.nodes); i++ {
				if !yield(s.searchKey, int32(i), timestampMillis(s.nodes[i].Timestamp)) {
					return
				}
			}
		}
	}
}

// WarmSearch builds the search index, adding at most budget nodes (every
// node when budget < 0), and reports whether the index now covers every
// live session. The JS side calls it in the background, a few hundred
// nodes at a time, after sessions load, restore or import; searches in
// between are answered exactly all the same (see index). A session is
// attached (its later appends indexed as they come) once all its nodes
// are in; a label change in a session still being warmed starts that
// session over.
func (st *Store) WarmSearch(budget int) bool {
	ix := st.index()
	for _, id := range st.order {
		s := st.sessions[id]
		if s == nil || s.search == ix {
			continue
		}
		if s.warming != ix { // a label change started it over
			s.warming, s.warmed = ix, 0
			s.searchKey = uint32(len(st.searchOwners))
			st.searchOwners = append(st.searchOwners, s)
		}
		for s.warmed < len(s.nodes) {
			if budget == 0 {
				return false
			}
			s.indexNode(ix, int32(s.warmed))
			s.warmed++
			budget--
		}
		s.search, s.warming, s.warmed = ix, nil, 0
	}
	return true
}

// indexSession is called when s becomes the live session under its id,
// after any session it replaces was taken out (unindex). s itself is
// indexed later, by WarmSearch or the next search. When taken-out
// documents outnumber live ones the index is dropped, to be built afresh.
func (st *Store) indexSession(s *Session) {
	if st.search == nil || !st.search.Wasteful() {
		return
	}
	for _, id := range st.order {
		if live := st.sessions[id]; live != nil {
			live.search, live.warming, live.warmed = nil, nil, 0
		}
	}
	st.search, st.searchOwners = nil, nil
}

// unindex takes a session that is replaced or dropped out of the index,
// whether it was attached or still being warmed.
func (st *Store) unindex(s *Session) {
	if st.search == nil {
		return
	}
	if s.search == st.search || s.warming == st.search {
		// Its documents are dead: the owner table lets go of the session, so
		// a paged-out or replaced session's nodes are not kept alive until
		// the next rebuild (at 10,000 sessions, a gigabyte after a search).
		st.searchOwners[s.searchKey] = nil
	}
	if s.search == st.search {
		s.search = nil
		st.search.Detached(len(s.nodes))
	}
	if s.warming == st.search {
		s.abandonWarming()
	}
}

// searchRequest is a validated search request.
type searchRequest struct {
	query   string
	session *Session // nil: every session
	branch  string
	roles   map[string]bool
	limit   int
}

func parseSearchRequest(st *Store, r *request) (*searchRequest, *Error) {
	q := &searchRequest{limit: DefaultSearchLimit}
	var err *Error
	if q.query, err = r.str("query"); err != nil {
		return nil, err
	}
	if err := checkQuery(q.query); err != nil {
		return nil, err
	}
	if r.has("sessionId") {
		if q.session, err = r.existing(st); err != nil {
			return nil, err
		}
	} else if err := st.allLoaded(); err != nil {
		return nil, err
	}
	if q.branch, err = r.branchName("branch", false); err != nil {
		return nil, err
	}
	if err := q.checkBranch(); err != nil {
		return nil, err
	}
	if r.has("limit") {
		var limit float64
		if !jsonx.ReadFloat(r.fields["limit"], &limit) || limit != float64(int(limit)) || limit < 1 || limit > MaxSearchLimit {
			return nil, invalidf("field \"limit\" must be an integer from 1 to %d", MaxSearchLimit)
		}
		q.limit = int(limit)
	}
	if r.has("roles") {
		var roles []string
		if !jsonx.ReadStrings(r.fields["roles"], &roles) {
			return nil, invalidf("field \"roles\" must be an array of role names such as [\"user\", \"assistant\"]")
		}
		if err := q.setRoles(roles); err != nil {
			return nil, err
		}
	}
	return q, nil
}

// checkQuery refuses an empty or too long query.
func checkQuery(query string) *Error {
	if strings.TrimSpace(query) == "" {
		return invalidf("field \"query\" must not be empty")
	}
	if n := utf8.RuneCountInString(query); n > MaxQueryLength {
		return invalidf("field \"query\" is %d characters long; the longest query is %d", n, MaxQueryLength)
	}
	return nil
}

// allLoaded is nil when every session is in memory, so a search of them
// all may run; else the page fault naming the paged-out ones.
func (st *Store) allLoaded() *Error {
	if st.stubs == 0 {
		return nil
	}
	ids := st.pagedIDs()
	nodes := 0
	for _, id := range ids {
		nodes += st.sessions[id].paged.nodeCount
	}
	// Until the index is on disk a search across every session loads every
	// paged-out one at once; past the memory budget that ended in the
	// collector running without pause for many minutes (10,000 sessions of
	// 100 messages: 3 GB of wasm). Refused instead, as a changing call
	// estimated over the budget is.
	if err := st.checkMemory("search", 0, nodes, LoadedNodeBytes); err != nil {
		return invalidf("a search across every session is refused: it would load the %d sessions not in memory (%d nodes) at once, about %d bytes of memory, and with the %d bytes in use that passes the memory budget of %d bytes (init option memoryBudget); search within one session (field \"sessionId\"); nothing was changed",
			len(ids), nodes, int64(nodes)*LoadedNodeBytes, st.inUse(), st.budget)
	}
	return st.pageFault(ids...)
}

// LoadedNodeBytes is the memory a stored node takes once its session is
// loaded for a search (bytes; the node, its message and its search
// documents): 3,001 sessions of 100 messages of ~260 characters left the
// wasm memory at 882 MB after a search loaded them all, 2.9 KB a node of
// which the collector holds about two thirds live.
const LoadedNodeBytes = 2048

// checkBranch refuses a branch the searched session does not have.
func (q *searchRequest) checkBranch() *Error {
	if q.session != nil && q.branch != "" && q.session.byName[q.branch] == nil {
		return errorf(NotFound, "branch %q does not exist in session %q", q.branch, q.session.id)
	}
	return nil
}

// setRoles keeps only nodes of these roles; an empty name is refused.
func (q *searchRequest) setRoles(roles []string) *Error {
	for i, role := range roles {
		if role == "" {
			return invalidf("field \"roles\"[%d] must not be empty", i)
		}
		if q.roles == nil {
			q.roles = make(map[string]bool)
		}
		q.roles[role] = true
	}
	return nil
}

// SearchOptions narrow a Search; the zero value searches every session.
type SearchOptions struct {
	SessionID string   // only this session ("" for all)
	Branch    string   // only nodes on this branch ("" for any)
	Roles     []string // only messages of these roles (nil for any)
	Limit     int      // the most hits answered, 1–MaxSearchLimit; 0 for DefaultSearchLimit
}

// Search finds the nodes whose text matches query, typos allowed (see
// package core/internal/search for the matching and the ranking): the
// best hits first with their snippets and the UTF-16 ranges matched. It
// fails with INVALID_ARGUMENT (an empty or over-long query, a bad limit
// or role), SESSION_NOT_FOUND, NOT_FOUND (a branch the session lacks).
func (st *Store) Search(query string, opts SearchOptions) (SearchResult, error) {
	if err := checkQuery(query); err != nil {
		return SearchResult{}, err
	}
	q := &searchRequest{query: query, branch: opts.Branch, limit: DefaultSearchLimit}
	var err *Error
	if opts.SessionID == "" {
		err = st.allLoaded()
	} else {
		q.session, err = st.liveSession(opts.SessionID)
	}
	if err == nil && q.branch != "" {
		err = checkName("branch", q.branch, MaxBranchNameLength)
	}
	if err == nil {
		err = q.checkBranch()
	}
	if err == nil && opts.Limit != 0 {
		if opts.Limit < 1 || opts.Limit > MaxSearchLimit {
			err = invalidf("field \"limit\" must be an integer from 1 to %d", MaxSearchLimit)
		}
		q.limit = opts.Limit
	}
	if err == nil {
		err = q.setRoles(opts.Roles)
	}
	if err != nil {
		return SearchResult{}, err
	}
	return st.runSearch(q), nil
}

func opSearch(st *Store, r *request) (any, *Error) {
	q, err := parseSearchRequest(st, r)
	if err != nil {
		return nil, err
	}
	return st.runSearch(q), nil
}

// runSearch runs a validated search.
func (st *Store) runSearch(q *searchRequest) SearchResult {
	ix := st.index()
	owners := st.searchOwners
	keep := search.Filter{Owner: func(k uint32) bool {
		s := owners[k]
		return s != nil && (s.search == ix || s.warming == ix) && (q.session == nil || s == q.session)
	}}
	if q.branch != "" || q.roles != nil {
		keep.Node = func(k uint32, i int32) bool {
			n := owners[k].nodes[i]
			return (q.branch == "" || n.Branch == q.branch) && (q.roles == nil || q.roles[n.Role()])
		}
	}
	text := func(k uint32, i int32) string { return searchText(owners[k], i) }
	found := ix.Search(search.Query{Text: q.query, Limit: q.limit, Rest: st.rest(ix, q.session)}, keep, text, func(a, b uint32) bool { return owners[a].id < owners[b].id })
	res := SearchResult{Hits: make([]SearchHit, 0, len(found.Hits)), Total: found.Total}
	for _, h := range found.Hits {
		s := owners[h.Owner]
		n := s.nodes[h.Node]
		res.Hits = append(res.Hits, SearchHit{SessionID: s.id, NodeID: n.ID, Branch: n.Branch, Role: n.Role(),
			Score: h.Score, Snippet: h.Snippet, Ranges: h.Ranges})
	}
	return res
}

// indexNode adds node i of s to ix as a document of s's owner key.
func (s *Session) indexNode(ix *search.Index, i int32) {
	ix.Add(s.searchKey, i, searchText(s, i), timestampMillis(s.nodes[i].Timestamp))
}

// abandonWarming drops the documents WarmSearch added for s while s was
// not yet attached (they are left dead, like a Detached session's).
func (s *Session) abandonWarming() {
	if s.warming == nil {
		return
	}
	s.warming.DropOwner(s.searchKey, s.warmed)
	s.warming, s.warmed = nil, 0
}
