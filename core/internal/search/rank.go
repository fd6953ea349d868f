package search

import (
	"sort"
)

// search: the "search" operation.
//
// A query is folded like the text (see foldRune) and split into words and
// unspaced runs (see tokenize). Every word must match a word of the node
// (AND): exactly, as a prefix of a longer word, or within maxTypos edits
// (insertion, deletion, substitution, transposition of neighbours). An
// unspaced run (Chinese, Japanese, Korean, Thai, emoji, …) must occur as a
// substring, one character included.
//
// Ranking: each query word earns points for its best match in the node
// (exact 6, prefix 4, one typo 2, two typos 1; an unspaced run counts as
// exact); for queries of several words, words found close together earn up
// to 15 proximity points, worth less than any difference in match points;
// then the newest node first; then sessionId and node order, so equal
// scores always come out in the same order. score is the node's points
// divided by the most a node can earn for the query (1 = every word exact
// and adjacent).

// Match points of one query word.
const (
	pointsExact  = 6
	pointsPrefix = 4
	pointsTypo1  = 2
	pointsTypo2  = 1
	// proximityMax is the most proximity points a hit earns: query words
	// found next to each other.
	proximityMax = 15
)

// Limits of ranking and snippets.
const (
	// SnippetLength is the length a snippet aims at, in characters (runes,
	// not counting the "…" marks of a cut).
	SnippetLength = 100
	// snippetLead is how many characters of context a snippet shows before
	// its first highlight.
	snippetLead = 30
	// proximityPool is the number of best candidates of a several-word
	// query whose proximity is measured; the order of the rest does not
	// depend on proximity.
	proximityPool = 200
)

// candidate is a matching document during ranking.
type candidate struct {
	doc    int32
	points int // match points, then (for several words) ×16 + proximity
	millis int64
}

// Query is a search as the index answers it.
type Query struct {
	Text  string // the query as the user wrote it (folded and split here)
	Limit int    // the most hits to return, at least 1
}

// Hit is one document found.
type Hit struct {
	Owner   uint32   // the document: node number Node of Owner
	Node    int32    // (see Index.Add)
	Score   float64  // the points earned over the most the query can earn, 0–1
	Snippet string   // an excerpt of about SnippetLength characters of its text
	Ranges  [][2]int // [start, end) in UTF-16 code units of Snippet: what matched
}

// Result is the answer to a query.
type Result struct {
	Hits  []Hit // the best hits, best first, at most Query.Limit
	Total int   // documents that matched and were kept, in all
}

// Filter says which documents that match may be hits. Owner is asked once
// for each run of matching documents of one owner (its attachment and the
// caller's owner filter), Node for each document; a nil function keeps
// everything. Both must not change the index.
type Filter struct {
	Owner func(owner uint32) bool
	Node  func(owner uint32, node int32) bool
}

// Search answers q. keep says which matching documents may be hits; text
// returns the text of a document, as it was indexed; less orders owners,
// the last tie-break between equal hits.
func (ix *Index) Search(q Query, keep Filter, text func(owner uint32, node int32) string, less func(a, b uint32) bool) Result {
	var res Result
	ix.less = less
	p := parseQuery(q.Text, ix.folded)
	units, ok := ix.units(p)
	if !ok {
		return res
	}
	matched := ix.intersect(units)
	needsCheck := false
	for _, run := range p.runs {
		needsCheck = needsCheck || len(run) > 2
	}
	several := len(p.words)+len(p.runs) > 1
	pool := q.Limit
	if several && pool < proximityPool {
		pool = proximityPool
	}
	top := make([]candidate, 0, pool)
	var last uint32 // the owner of the previous matching document (0 at first), and keep.Owner of it
	lastOK := false
	for _, d := range matched {
		ref := &ix.docs[d]
		if ref.owner == 0 {
			continue
		}
		if ref.owner != last {
			last, lastOK = ref.owner, keep.Owner == nil || keep.Owner(ref.owner)
		}
		if !lastOK || keep.Node != nil && !keep.Node(ref.owner, ref.node) {
			continue
		}
		if needsCheck && !ix.locate(text(ref.owner, ref.node), p).all {
			continue
		}
		res.Total++
		top = pushTop(top, candidate{doc: d, points: int(ix.points[d]), millis: ref.millis}, pool, ix)
	}
	maxPoints := (len(units)*pointsExact)*(proximityMax+1) + proximityMax
	located := make(map[int32]location, len(top))
	for i := range top {
		c := &top[i]
		c.points *= proximityMax + 1
		if several {
			loc := ix.locate(text(ix.docs[c.doc].owner, ix.docs[c.doc].node), p)
			located[c.doc] = loc
			c.points += loc.proximity
		} else {
			c.points += proximityMax
		}
	}
	sort.Slice(top, func(i, j int) bool { return ix.better(top[i], top[j]) })
	if len(top) > q.Limit {
		top = top[:q.Limit]
	}
	for _, c := range top {
		ref := ix.docs[c.doc]
		body := text(ref.owner, ref.node)
		loc, ok := located[c.doc]
		if !ok {
			loc = ix.locate(body, p)
		}
		snippet, ranges := makeSnippet(body, loc.ranges, loc.anchor)
		res.Hits = append(res.Hits, Hit{
			Owner:   ref.owner,
			Node:    ref.node,
			Score:   float64(c.points) / float64(maxPoints),
			Snippet: snippet,
			Ranges:  ranges,
		})
	}
	return res
}

// intersect returns the documents every unit matches, leaving each one's
// points in ix.points. The units are walked rarest first; the stamp of a
// document counts the units it has matched so far, so nothing is cleared
// between queries.
func (ix *Index) intersect(units []queryUnit) []int32 {
	for len(ix.stamp) < len(ix.docs) {
		ix.stamp = append(ix.stamp, 0)
		ix.points = append(ix.points, 0)
	}
	m := uint32(len(units))
	if ix.epoch > ^uint32(0)-2*m-2 {
		clear(ix.stamp)
		clear(ix.mark)
		ix.epoch = 0
	}
	base := ix.epoch
	ix.epoch += m + 1
	var matched []int32
	for j, u := range units {
		want := base + uint32(j)
		last := j == len(units)-1
		for _, tm := range u.terms {
			for _, d := range ix.postings[tm.term] {
				st := ix.stamp[d]
				if j == 0 {
					if st > base {
						continue
					}
					ix.points[d] = 0
				} else if st != want {
					continue
				}
				ix.stamp[d] = want + 1
				ix.points[d] += tm.points
				if last {
					matched = append(matched, d)
				}
			}
		}
	}
	return matched
}

// better orders candidates: more points, then newer, then owner (less),
// then later node.
func (ix *Index) better(a, b candidate) bool {
	if a.points != b.points {
		return a.points > b.points
	}
	if a.millis != b.millis {
		return a.millis > b.millis
	}
	ra, rb := ix.docs[a.doc], ix.docs[b.doc]
	if ra.owner != rb.owner {
		// hits come from live owners only, whose orders differ.
		return ix.less(ra.owner, rb.owner)
	}
	return ra.node > rb.node
}

// pushTop keeps the best n candidates in a heap whose root is the worst.
func pushTop(h []candidate, c candidate, n int, ix *Index) []candidate {
	if len(h) < n {
		h = append(h, c)
		for i := len(h) - 1; i > 0; {
			parent := (i - 1) / 2
			if !ix.better(h[parent], h[i]) {
				break
			}
			h[parent], h[i] = h[i], h[parent]
			i = parent
		}
		return h
	}
	if !ix.better(c, h[0]) {
		return h
	}
	h[0] = c
	for i := 0; ; {
		worst := i
		for _, k := range []int{2*i + 1, 2*i + 2} {
			if k < len(h) && ix.better(h[worst], h[k]) {
				worst = k
			}
		}
		if worst == i {
			return h
		}
		h[i], h[worst] = h[worst], h[i]
		i = worst
	}
}
