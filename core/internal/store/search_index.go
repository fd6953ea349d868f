package store

import (
	"time"

	"github.com/sessiontree/sessiontree/core/internal/search"
	"github.com/sessiontree/sessiontree/core/internal/tree"
)

// SearchIndex is the store's search consumer: the index of every live
// session's nodes and, by session, how much of each it holds. It belongs
// to the search, not to the sessions: a Session knows nothing of it. What
// it keeps of a session is a node count and an annotation count, enough
// since a session only grows (a session replaced by another object —
// snapshot.load, a page-out, a restore — leaves through unindex). The
// zero value holds no index; the first search or WarmSearch makes one.
type SearchIndex struct {
	Docs *search.Index // nil until the first search or WarmSearch
	// Owners maps the index's owner keys to what the index holds of a
	// session: key k is Owners[k]; key 0 (no owner) and the key of a
	// session that left are nil, so their documents are never hits and
	// the index keeps no session alive.
	Owners []*searchOwner
	Of     map[*tree.Session]*searchOwner // the live sessions registered in ix
	// kept and keptRev are the index and its revision when its bytes were
	// last kept or taken (search_save.go): nothing to keep again until it
	// changes.
	kept    *search.Index
	keptRev int
	keptAt  time.Time
}

// searchOwner is what the index holds of one session: the documents of
// its first indexed nodes, under owner key key.
type searchOwner struct {
	Session *tree.Session
	Key     uint32
	// Indexed is how many of s's nodes (the first ones, in append order)
	// are documents of key.
	Indexed int
	// attached is set once WarmSearch added every node: the nodes s gains
	// later are indexed when the next search or WarmSearch catches up
	// (catchUp). Until then a search scans the nodes from Indexed on
	// (Store.rest).
	attached bool
	// notes is len(s.annotations) when the index last read s's labels
	// (a label is part of a node's searchable text).
	notes int
	// sum is the digest of the documents of the first indexed nodes
	// (sumDoc over each node's id and text, in order), checked when a
	// paged-out session comes back (relink); stale once a document was
	// replaced (a label), until retain takes it again.
	sum   uint64
	stale bool
	// at is, while s is a stub (paged out), the session's updatedAt when
	// it left memory: the documents are current while the stub still
	// says so and holds as many nodes (current).
	at string
}

// register makes s an owner of the index with no node indexed yet.
func (sx *SearchIndex) register(s *tree.Session) *searchOwner {
	o := &searchOwner{Session: s, Key: uint32(len(sx.Owners)), notes: len(s.Annotations)}
	sx.Owners = append(sx.Owners, o)
	if sx.Of == nil {
		sx.Of = make(map[*tree.Session]*searchOwner)
	}
	sx.Of[s] = o
	return o
}

// leave takes o out of the index: its documents become dead and its owner
// slot is emptied, so a paged-out or replaced session's nodes are not kept
// alive until the next rebuild (at 10,000 sessions, a gigabyte after a
// search).
func (sx *SearchIndex) leave(o *searchOwner) {
	sx.Owners[o.Key] = nil
	delete(sx.Of, o.Session)
	if o.attached {
		sx.Docs.Detached(o.Indexed)
	} else {
		sx.Docs.DropOwner(o.Key, o.Indexed)
	}
}

// catchUp brings o up to date with its session and returns the owner now
// holding it: the documents of nodes whose label changed since the last
// reading are replaced (attached) or the session starts over under a new
// key (still being warmed: warmed again from the start, labels and all);
// an attached session's new nodes are indexed.
func (sx *SearchIndex) catchUp(o *searchOwner) *searchOwner {
	s := o.Session
	for _, a := range s.Annotations[o.notes:] {
		if a.Kind != tree.AnnotationLabel {
			continue
		}
		i := s.Index[a.NodeID]
		if int(i) >= o.Indexed {
			continue // indexed later, with its label
		}
		if !o.attached {
			sx.leave(o)
			return sx.register(s)
		}
		sx.Docs.Replace(o.Key, i, searchText(s, i), timestampMillis(s.Nodes[i].Timestamp))
		o.stale = true
	}
	o.notes = len(s.Annotations)
	if o.attached {
		for o.Indexed < len(s.Nodes) {
			o.add(sx.Docs)
		}
	}
	return o
}

// add indexes o's next node.
func (o *searchOwner) add(ix *search.Index) {
	i := int32(o.Indexed)
	text := searchText(o.Session, i)
	ix.Add(o.Key, i, text, timestampMillis(o.Session.Nodes[i].Timestamp))
	o.sum = sumDoc(o.sum, o.Session.Nodes[i].ID, text)
	o.Indexed++
}

// sumDoc folds one document, a node's id and its search text, into the
// digest sum: 64-bit FNV-1a (Fowler, Noll and Vo; the offset basis when
// sum is 0) over the id, a zero byte, the text and a zero byte.
func sumDoc(sum uint64, id, text string) uint64 {
	const prime = 1099511628211
	if sum == 0 {
		sum = 14695981039346656037
	}
	for i := 0; i < len(id); i++ {
		sum = (sum ^ uint64(id[i])) * prime
	}
	sum *= prime
	for i := 0; i < len(text); i++ {
		sum = (sum ^ uint64(text[i])) * prime
	}
	return sum * prime
}

// sumOf returns the digest of the documents of the first n nodes of s as
// add would have made them now.
func sumOf(s *tree.Session, n int) uint64 {
	var sum uint64
	for i := 0; i < n; i++ {
		sum = sumDoc(sum, s.Nodes[i].ID, searchText(s, int32(i)))
	}
	return sum
}

// retain keeps the documents of old, a session leaving memory (page.out),
// in the index under stub, the stub standing for it: indexed in full
// first, so a search across every session finds its nodes without
// loading it, and loads only the sessions whose text its answer needs
// (RunSearch). Nothing is kept while there is no index (no search yet);
// the first search across every session loads them all, as a search of
// sessions never indexed must.
func (sx *SearchIndex) retain(old, stub *tree.Session) {
	if sx.Docs == nil {
		return
	}
	o := sx.Of[old]
	if o == nil {
		o = sx.register(old)
	} else {
		o = sx.catchUp(o)
	}
	for o.Indexed < len(old.Nodes) {
		o.add(sx.Docs)
	}
	o.attached = true
	if o.stale {
		o.sum, o.stale = sumOf(old, o.Indexed), false
	}
	delete(sx.Of, old)
	o.Session, o.at = stub, old.UpdatedAt
	sx.Of[stub] = o
}

// relink gives the documents retain kept under stub back to s, the
// session read in for it, when s begins with the very nodes they were
// made of (its digest over them matches: another tab may have replaced
// the session meanwhile), and reports whether it did; else they are
// dropped. The nodes s holds beyond them are indexed by the next search
// or WarmSearch (catchUp).
func (sx *SearchIndex) relink(stub, s *tree.Session) bool {
	o := sx.Of[stub]
	if o == nil {
		return false
	}
	if o.Indexed > len(s.Nodes) || sumOf(s, o.Indexed) != o.sum {
		sx.leave(o)
		return false
	}
	delete(sx.Of, stub)
	o.Session, o.notes, o.at = s, len(s.Annotations), ""
	sx.Of[s] = o
	return true
}

// current reports whether the documents retained for stub s hold every
// node it stands for, as they were stored: the stub has neither grown nor
// been updated (a label, a moved cursor) since its session left memory.
func (sx *SearchIndex) current(s *tree.Session) bool {
	o := sx.Of[s]
	return o != nil && o.Indexed == s.Paged.NodeCount && o.at == s.UpdatedAt
}

// index returns the store's search index, created empty when there is
// none, with every live session registered as one of its owners and
// caught up (catchUp): attached (every node indexed) or being added by
// WarmSearch (its first indexed nodes in). Nothing is indexed here but
// what an attached session gained since: a search finds the nodes not
// yet indexed by scanning them (see rest), so loading, restoring and
// importing pay nothing for the index and a search never waits for it
// (issue 15).
func (st *Store) index() *search.Index {
	sx := &st.Index
	if sx.Docs == nil {
		sx.Docs, sx.Owners = search.NewIndex(), []*searchOwner{nil}
	}
	for _, s := range st.list {
		if s.Paged != nil {
			continue // a stub's documents, if any, were retained whole
		}
		if o := sx.Of[s]; o == nil {
			sx.register(s)
		} else {
			sx.catchUp(o)
		}
	}
	return sx.Docs
}

// rest calls yield with each node of a live session (only of only, when
// not nil) that the index does not hold yet: the nodes of sessions
// WarmSearch has not finished, from the first it has not added. index
// must have run since the last change.
func (st *Store) rest(only *tree.Session) func(yield func(owner uint32, node int32, millis int64) bool) {
	return func(yield func(uint32, int32, int64) bool) {
		for _, s := range st.list {
			if only != nil && s != only {
				continue
			}
			o := st.Index.Of[s]
			if o == nil || o.attached {
				continue
			}
			for i := o.Indexed; i < len(s.Nodes); i++ {
				if !yield(o.Key, int32(i), timestampMillis(s.Nodes[i].Timestamp)) {
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
// attached (its later appends indexed by the next search or WarmSearch)
// once all its nodes are in; a label change in a session still being
// warmed starts that session over.
func (st *Store) WarmSearch(budget int) bool {
	ix := st.index()
	for _, s := range st.list {
		if s.Paged != nil {
			continue
		}
		o := st.Index.Of[s] // registered by index
		if o.attached {
			continue
		}
		for o.Indexed < len(s.Nodes) {
			if budget == 0 {
				return false
			}
			o.add(ix)
			budget--
		}
		o.attached = true
	}
	return true
}

// indexSession is called when s becomes the live session under its id,
// after any session it replaces was taken out (unindex). s itself is
// indexed later, by WarmSearch or the next search. When taken-out
// documents outnumber live ones the index is dropped, to be built afresh.
func (st *Store) indexSession(s *tree.Session) {
	if st.Index.Docs == nil || !st.Index.Docs.Wasteful() {
		return
	}
	st.Index = SearchIndex{}
}

// unindex takes a session that is replaced or dropped out of the index,
// whether it was attached or still being warmed.
func (st *Store) unindex(s *tree.Session) {
	if o := st.Index.Of[s]; o != nil {
		st.Index.leave(o)
	}
}

// ForgetKept is called when a session leaves the store (deleted, erased,
// dropped by another tab): the kept index holds its words, so it is kept
// again at the next chance (SearchIndexBytes), however little changed. So
// is a session in the trash erased: the erasure deleted the kept index.
func (st *Store) ForgetKept() {
	st.Index.kept = nil
}
