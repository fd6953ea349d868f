package store

import (
	"strings"
	"unicode/utf8"

	"github.com/sessiontree/sessiontree/core/internal/names"
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
// number of nodes that matched in all. A search across every session
// lists in Skipped the sessions it could not search, their stored records
// unreadable (Store.MarkUnreadable); omitted when there are none.
type SearchResult struct {
	Hits    []SearchHit      `json:"hits"`
	Total   int              `json:"total"`
	Skipped []SkippedSession `json:"skipped,omitempty"`
}

// SkippedSession is a session a search across every session passed over:
// Message says why (its stored records could not be read, and how).
type SkippedSession struct {
	SessionID string `json:"sessionId"`
	Message   string `json:"message"`
}

// SearchRequest is a validated search request.
type SearchRequest struct {
	Query   string
	Session *tree.Session // nil: every session
	Branch  string
	Roles   map[string]bool
	Limit   int
}

// CheckQuery refuses an empty or too long query.
func CheckQuery(query string) *tree.Error {
	if strings.TrimSpace(query) == "" {
		return tree.Invalidf("field \"query\" must not be empty")
	}
	if n := utf8.RuneCountInString(query); n > MaxQueryLength {
		return tree.Invalidf("field \"query\" is %d characters long; the longest query is %d", n, MaxQueryLength)
	}
	return nil
}

// Searchable returns nil when a search across every session may run: each
// session is in memory, or paged out with its documents retained in the
// index and current (SearchIndex.retain, current); else the page fault
// naming the paged-out sessions to load first. A search that filters by
// branch or role (filtered) reads the nodes of every session, so then
// every paged-out one is loaded, and it is refused (INVALID_ARGUMENT)
// when they would pass the memory budget together.
func (st *Store) Searchable(filtered bool) *tree.Error {
	if st.Stubs == 0 {
		return nil
	}
	var ids []string
	nodes := 0
	for _, s := range st.list {
		if s.Paged == nil || s.Paged.Unreadable != "" || !filtered && st.Index.current(s) {
			continue
		}
		ids = append(ids, s.ID())
		nodes += s.Paged.NodeCount
	}
	if len(ids) == 0 {
		return nil
	}
	if !filtered {
		// The shim reads sessions never indexed a batch at a time and pages
		// each batch out again at once (Pager.indexThrough in
		// js/store/pager.js): their documents stay in the index as they
		// leave (retain), which must exist for that.
		st.index()
		return st.PageFault(ids...)
	}
	// A filtered search needs every node loaded at once; past the memory
	// budget that ended in the collector running without pause for many
	// minutes (10,000 sessions of 100 messages: 3 GB of wasm). Refused
	// instead, as a changing call estimated over the budget is.
	if err := st.Reserve("search", 0, nodes, LoadedNodeBytes); err != nil {
		return tree.Invalidf("a search across every session filtered by branch or role is refused: it would load the %d sessions not in memory (%d nodes) at once, about %d bytes of memory, and with the %d bytes in use that passes the memory budget of %d bytes (init option memoryBudget); search without the filter, or within one session (field \"sessionId\"); nothing was changed",
			len(ids), nodes, int64(nodes)*LoadedNodeBytes, st.InUse(), st.budget)
	}
	return st.PageFault(ids...)
}

// SearchWarmNodes is how many nodes not yet indexed a search across every
// session indexes before it runs (WarmSearch); it scans the rest. Indexing
// a node costs about 1.4 times scanning it (100,000 messages, natively:
// 156 ms against 111 ms), and the searches after it then find it indexed:
// the sessions a search loaded for its hits, searched again back to back,
// with no quiet spell for the background build. Few enough that a search
// after a large import or restore still never waits for its index.
const SearchWarmNodes = 5000

// LoadedNodeBytes is the memory a stored node takes once its session is
// loaded for a search (bytes; the node, its message and its search
// documents): 3,001 sessions of 100 messages of ~260 characters left the
// wasm memory at 882 MB after a search loaded them all, 2.9 KB a node of
// which the collector holds about two thirds live.
const LoadedNodeBytes = 2048

// CheckBranch refuses a branch the searched session does not have.
func (q *SearchRequest) CheckBranch() *tree.Error {
	if q.Session != nil && q.Branch != "" && q.Session.ByName[q.Branch] == nil {
		return tree.Errorf(tree.NotFound, "branch %q does not exist in session %q", q.Branch, q.Session.ID())
	}
	return nil
}

// SetRoles keeps only nodes of these roles; an empty name is refused.
func (q *SearchRequest) SetRoles(roles []string) *tree.Error {
	for i, role := range roles {
		if role == "" {
			return tree.Invalidf("field \"roles\"[%d] must not be empty", i)
		}
		if q.Roles == nil {
			q.Roles = make(map[string]bool)
		}
		q.Roles[role] = true
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
	if err := CheckQuery(query); err != nil {
		return SearchResult{}, err
	}
	q := &SearchRequest{Query: query, Branch: opts.Branch, Limit: DefaultSearchLimit}
	var err *tree.Error
	if opts.SessionID != "" {
		q.Session, err = st.LiveSession(opts.SessionID)
	}
	if err == nil && q.Branch != "" {
		err = CheckName("branch", q.Branch, names.MaxBranchNameLength)
	}
	if err == nil {
		err = q.CheckBranch()
	}
	if err == nil && opts.Limit != 0 {
		if opts.Limit < 1 || opts.Limit > MaxSearchLimit {
			err = tree.Invalidf("field \"limit\" must be an integer from 1 to %d", MaxSearchLimit)
		}
		q.Limit = opts.Limit
	}
	if err == nil {
		err = q.SetRoles(opts.Roles)
	}
	if err == nil && q.Session == nil {
		err = st.Searchable(q.Branch != "" || q.Roles != nil)
	}
	if err != nil {
		return SearchResult{}, err
	}
	res, err := st.RunSearch(q)
	if err != nil {
		return SearchResult{}, err
	}
	return res, nil
}

// RunSearch runs a validated search. Hits in sessions paged out with
// their documents retained need their text (a snippet, the proximity of
// several words): the search fails with the page fault naming those
// sessions, having changed nothing, and runs again once they are loaded.
func (st *Store) RunSearch(q *SearchRequest) (SearchResult, *tree.Error) {
	if q.Session == nil {
		st.WarmSearch(SearchWarmNodes) // which makes the index first (index)
	} else {
		st.index()
	}
	ix := st.Index.Docs
	owners := st.Index.Owners
	// An owner left (Owners[k] nil) whenever its session left the store or
	// was replaced (Put, Remove: see SearchIndex.leave); one still in
	// Owners holds a live session (TestOwnersHoldLiveSessions).
	keep := search.Filter{Owner: func(k uint32) bool {
		o := owners[k]
		return o != nil && (q.Session == nil || o.Session == q.Session)
	}}
	if q.Branch != "" || q.Roles != nil {
		keep.Node = func(k uint32, i int32) bool {
			n := owners[k].Session.Nodes[i]
			return (q.Branch == "" || n.Branch == q.Branch) && (q.Roles == nil || q.Roles[n.Role()])
		}
	}
	var paged []string // sessions paged out whose text the answer needs
	var seen map[uint32]bool
	text := func(k uint32, i int32) string {
		o := owners[k]
		if o.Session.Paged != nil {
			if !seen[k] {
				if seen == nil {
					seen = map[uint32]bool{}
				}
				seen[k] = true
				paged = append(paged, o.Session.ID())
			}
			return ""
		}
		return searchText(o.Session, i)
	}
	// Across every session, unfiltered, the ranking is kept (Query.Keep)
	// for the same search run again once the sessions its hits need are
	// loaded: loading relinks their documents, so the index is unchanged.
	sq := search.Query{Text: q.Query, Limit: q.Limit, Rest: st.rest(q.Session), Keep: q.Session == nil && keep.Node == nil}
	found := ix.Search(sq, keep, text, func(a, b uint32) bool { return owners[a].Session.ID() < owners[b].Session.ID() })
	if ix.Damaged() {
		// A list of the kept index read back was not one (search.Decode):
		// built afresh, the paged-out sessions' documents gone with it.
		st.Index = SearchIndex{}
		if err := st.Searchable(q.Branch != "" || q.Roles != nil); err != nil {
			return SearchResult{}, err
		}
		return st.RunSearch(q)
	}
	if len(paged) > 0 {
		return SearchResult{}, st.PageFault(paged...)
	}
	res := SearchResult{Hits: make([]SearchHit, 0, len(found.Hits)), Total: found.Total}
	if q.Session == nil {
		res.Skipped = st.unreadable()
	}
	for _, h := range found.Hits {
		s := owners[h.Owner].Session
		n := s.Nodes[h.Node]
		res.Hits = append(res.Hits, SearchHit{SessionID: s.ID(), NodeID: n.ID, Branch: n.Branch, Role: n.Role(),
			Score: h.Score, Snippet: h.Snippet, Ranges: h.Ranges})
	}
	return res, nil
}

// MarkUnreadable records that the stored records of stub id could not be
// read into memory (why: how they failed, naming the session), so that a
// search across every session passes over it and lists it in
// SearchResult.Skipped instead of failing for one damaged session; the
// documents retained for it leave the index (they are no longer hits).
// Every other call on it still needs its nodes and fails as the load did.
// The mark goes when the stub is updated from its stored summary
// (page.stub: another tab wrote the session) or the session is loaded.
// SESSION_NOT_FOUND for an unknown id; INVALID_ARGUMENT for a session in
// memory or an empty why.
func (st *Store) MarkUnreadable(id, why string) *tree.Error {
	s := st.ByID[id]
	if s == nil {
		return tree.Errorf(tree.SessionNotFound, "session %q does not exist", id)
	}
	if s.Paged == nil {
		return tree.Invalidf("session %q is in memory, so it was read", id)
	}
	if why == "" {
		return tree.Invalidf("field \"message\" must say why session %q could not be read", id)
	}
	s.Paged.Unreadable = why
	st.unindex(s)
	return nil
}

// unreadable lists the stubs marked unreadable (MarkUnreadable), in
// creation order; nil for none.
func (st *Store) unreadable() []SkippedSession {
	if st.Stubs == 0 {
		return nil
	}
	var out []SkippedSession
	for _, s := range st.list {
		if s.Paged != nil && s.Paged.Unreadable != "" {
			out = append(out, SkippedSession{SessionID: s.ID(), Message: s.Paged.Unreadable})
		}
	}
	return out
}
