package core

import (
	"strings"
	"unicode/utf8"

	"github.com/sessiontree/sessiontree/core/internal/search"
	"github.com/sessiontree/sessiontree/core/internal/tree"
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

// searchRequest is a validated search request.
type searchRequest struct {
	query   string
	session *Session // nil: every session
	branch  string
	roles   map[string]bool
	limit   int
}

// checkQuery refuses an empty or too long query.
func checkQuery(query string) *Error {
	if strings.TrimSpace(query) == "" {
		return tree.Invalidf("field \"query\" must not be empty")
	}
	if n := utf8.RuneCountInString(query); n > MaxQueryLength {
		return tree.Invalidf("field \"query\" is %d characters long; the longest query is %d", n, MaxQueryLength)
	}
	return nil
}

// searchable is nil when a search across every session may run: each
// session is in memory, or paged out with its documents retained in the
// index and current (searchIndex.retain, current); else the page fault
// naming the paged-out sessions to load first. A search that filters by
// branch or role (filtered) reads the nodes of every session, so then
// every paged-out one is loaded.
func (st *Store) searchable(filtered bool) *Error {
	if st.stubs == 0 {
		return nil
	}
	var ids []string
	nodes := 0
	for _, id := range st.pagedIDs() {
		s := st.sessions[id]
		if !filtered && st.search.current(s) {
			continue
		}
		ids = append(ids, id)
		nodes += s.Paged.NodeCount
	}
	if len(ids) == 0 {
		return nil
	}
	// Sessions never indexed are loaded all at once (their documents are
	// retained as they leave again); past the memory budget that ended in
	// the collector running without pause for many minutes (10,000
	// sessions of 100 messages: 3 GB of wasm). Refused instead, as a
	// changing call estimated over the budget is (the shim then reads the
	// index a page kept, if it has not, and runs the search again: see
	// retryPaged in js/local-paging.js).
	if err := st.checkMemory("search", 0, nodes, LoadedNodeBytes); err != nil {
		return tree.Invalidf("a search across every session is refused: it would load the %d sessions not in memory (%d nodes) at once, about %d bytes of memory, and with the %d bytes in use that passes the memory budget of %d bytes (init option memoryBudget); search within one session (field \"sessionId\"); nothing was changed",
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
	if q.session != nil && q.branch != "" && q.session.ByName[q.branch] == nil {
		return tree.Errorf(NotFound, "branch %q does not exist in session %q", q.branch, q.session.ID())
	}
	return nil
}

// setRoles keeps only nodes of these roles; an empty name is refused.
func (q *searchRequest) setRoles(roles []string) *Error {
	for i, role := range roles {
		if role == "" {
			return tree.Invalidf("field \"roles\"[%d] must not be empty", i)
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
	if opts.SessionID != "" {
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
			err = tree.Invalidf("field \"limit\" must be an integer from 1 to %d", MaxSearchLimit)
		}
		q.limit = opts.Limit
	}
	if err == nil {
		err = q.setRoles(opts.Roles)
	}
	if err == nil && q.session == nil {
		err = st.searchable(q.branch != "" || q.roles != nil)
	}
	if err != nil {
		return SearchResult{}, err
	}
	res, err := st.runSearch(q)
	if err != nil {
		return SearchResult{}, err
	}
	return res, nil
}

// runSearch runs a validated search. Hits in sessions paged out with
// their documents retained need their text (a snippet, the proximity of
// several words): the search fails with the page fault naming those
// sessions, having changed nothing, and runs again once they are loaded.
func (st *Store) runSearch(q *searchRequest) (SearchResult, *Error) {
	ix := st.index()
	owners := st.search.owners
	keep := search.Filter{Owner: func(k uint32) bool {
		o := owners[k]
		return o != nil && st.sessions[o.s.ID()] == o.s && (q.session == nil || o.s == q.session)
	}}
	if q.branch != "" || q.roles != nil {
		keep.Node = func(k uint32, i int32) bool {
			n := owners[k].s.Nodes[i]
			return (q.branch == "" || n.Branch == q.branch) && (q.roles == nil || q.roles[n.Role()])
		}
	}
	var paged []string // sessions paged out whose text the answer needs
	var seen map[uint32]bool
	text := func(k uint32, i int32) string {
		o := owners[k]
		if o.s.Paged != nil {
			if !seen[k] {
				if seen == nil {
					seen = map[uint32]bool{}
				}
				seen[k] = true
				paged = append(paged, o.s.ID())
			}
			return ""
		}
		return searchText(o.s, i)
	}
	found := ix.Search(search.Query{Text: q.query, Limit: q.limit, Rest: st.rest(q.session)}, keep, text, func(a, b uint32) bool { return owners[a].s.ID() < owners[b].s.ID() })
	if len(paged) > 0 {
		return SearchResult{}, st.pageFault(paged...)
	}
	res := SearchResult{Hits: make([]SearchHit, 0, len(found.Hits)), Total: found.Total}
	for _, h := range found.Hits {
		s := owners[h.Owner].s
		n := s.Nodes[h.Node]
		res.Hits = append(res.Hits, SearchHit{SessionID: s.ID(), NodeID: n.ID, Branch: n.Branch, Role: n.Role(),
			Score: h.Score, Snippet: h.Snippet, Ranges: h.Ranges})
	}
	return res, nil
}
