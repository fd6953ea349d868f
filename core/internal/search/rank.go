package search

import (
	"math"
	"math/bits"
	"slices"
	"sort"
)

// search: the "search" operation.
//
// A query is folded like the text (see foldRune) and split into words and
// unspaced runs (see tokenize). Every word must match a word of the node
// (AND): exactly, as a prefix of a longer word, within maxTypos edits
// (insertion, deletion, substitution, transposition of neighbours), or,
// for words of 5 characters or more, as the start of a longer word within
// one edit (see prefixTypo). An unspaced run (Chinese, Japanese, Korean,
// Thai, emoji, …) must occur as a substring, one character included.
//
// Ranking: each query word earns points for its best match in the node
// (exact 6, prefix 4, one typo 2, two typos or a prefix with one 1; an
// unspaced run counts as exact), then, among matches of equal points, the
// rarity of the word of the node it matched (its inverse document
// frequency, see weight), so a one-typo match of a common word ranks below the one-typo match of the
// rare word the user meant; for queries of several words, words found
// close together earn up to 15 proximity points, worth less than any
// difference in match points or rarity; then the newest node first; then
// sessionId and node order, so equal scores always come out in the same
// order. score is the node's match and proximity points divided by the
// most a node can earn for the query (1 = every word exact and adjacent);
// rarity orders hits but is not part of it.

// Match points of one query word.
const (
	pointsExact  = 6
	pointsPrefix = 4
	pointsTypo1  = 2
	pointsTypo2  = 1
	// pointsPrefixTypo is a prefix within one edit (see prefixTypo): a
	// guess at a word being typed, worth what two typos are.
	pointsPrefixTypo = 1
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

// Weights of a match: points<<rareBits | rarity.
const (
	// rareBits is the width of the rarity of one match: up to 1023, with
	// room above for the rarities of 1,024 query units in all (a query is
	// at most MaxQueryLength characters, so at most 1,000 units).
	rareBits = 20
	// rareMax is the largest rarity of one match.
	rareMax = 1023
	// rareScale is the rarity of an inverse document frequency of 1
	// (natural log): 8 steps per unit, so ten times rarer is ~18 steps.
	rareScale = 8
)

// weight returns the weight of a match of points (pointsExact …
// pointsTypo2) on term t: points in the high bits, so an exact match
// always outweighs a typo, and the term's rarity in the low bits, its
// inverse document frequency as BM25 computes it, ln(1 + (N − n + 0.5) /
// (n + 0.5)) for n documents of N holding the term (Robertson and
// Zaragoza, "The Probabilistic Relevance Framework: BM25 and Beyond",
// 2009, eq. 3.3, with the +1 inside the log that Lucene adds so it never
// goes negative), scaled by rareScale. BM25's term-frequency and
// document-length parts are left out: chat messages are short, and one
// occurrence says as much as several. N and n count documents ever
// added, dead ones too (the postings keep them until a rebuild), and
// those of a scan in progress (see scanned).
func (ix *Index) weight(points int, t int32) uint64 {
	n := ix.count(t)
	if ix.scan != nil {
		n += ix.scan.df[ix.word[t]]
	}
	return uint64(points)<<rareBits | rarity(float64(ix.totalDocs()), float64(n))
}

// rarity is the scaled BM25 inverse document frequency of a term held by
// n documents of N (see weight), from 0 to rareMax.
func rarity(N, n float64) uint64 {
	idf := math.Log1p((N - n + 0.5) / (n + 0.5))
	r := uint64(math.Round(max(idf, 0) * rareScale))
	return min(r, rareMax)
}

// candidate is a matching document during ranking: document doc of the
// index, or a document not in it (doc < 0; see Query.Rest).
type candidate struct {
	doc    int32
	owner  uint32
	node   int32
	points uint64 // the sum of the weights of its best matches (see weight)
	prox   int    // proximity points (for several words)
	millis int64
}

// Query is a search as the index answers it.
type Query struct {
	Text  string // the query as the user wrote it (folded and split here)
	Limit int    // the most hits to return, at least 1
	// Rest, when not nil, calls yield with each document that is not (yet)
	// in the index but must be searched all the same, until yield returns
	// false: node of owner, written at millis (as for Index.Add). Their
	// texts are scanned, so the answer is exact while an index is still
	// being built; their owners must be keys the text function knows.
	Rest func(yield func(owner uint32, node int32, millis int64) bool)
	// Keep keeps the ranked pool of this query (the candidates before
	// proximity and snippets) when no document was scanned, and answers
	// from the pool kept, without walking the postings again, when the
	// last query that kept one had the same Text and Limit and the index's
	// documents have not changed since (none added or made dead). Only for
	// a caller whose Filter keeps the same documents whenever they have not
	// changed (every attached owner's, none by node): the store, which runs
	// a search again once the sessions holding its hits' text are loaded.
	Keep bool
}

// keptPool is the ranked pool of a query (Query.Keep).
type keptPool struct {
	text     string
	limit    int
	revision int // the index's Revision when it was kept
	pool     []candidate
	total    int
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
	nq := len(p.words) + len(p.runs)
	if nq == 0 {
		return res
	}
	if q.Rest != nil {
		ix.scan = ix.scanRest(q.Rest, p, keep, text)
		defer func() { ix.scan = nil }()
	}
	several := nq > 1
	// A pool is kept only when the ranking read no text: nothing scanned,
	// no run of more than two unspaced characters checked in each text.
	readText := ix.scan != nil && ix.scan.n > 0 || p.needsCheck()
	var top []candidate
	if k := ix.kept; q.Keep && !readText && k != nil && k.revision == ix.Revision() && k.text == q.Text && k.limit == q.Limit {
		top = slices.Clone(k.pool) // proximityCut reorders it
		res.Total = k.total
		ix.reused++
	} else {
		top = ix.rank(p, several, q.Limit, keep, text, &res)
		ix.kept = nil
		if q.Keep && !readText {
			ix.kept = &keptPool{text: q.Text, limit: q.Limit, revision: ix.Revision(), pool: slices.Clone(top), total: res.Total}
		}
	}
	maxPoints := (ix.unitCount(p)*pointsExact)*(proximityMax+1) + proximityMax
	located := make(map[uint64]location, len(top))
	if several {
		top = ix.proximityCut(top, q.Limit, p, text, located)
	} else {
		for i := range top {
			top[i].prox = proximityMax
		}
		sort.Slice(top, func(i, j int) bool { return ix.better(top[i], top[j]) })
	}
	if len(top) > q.Limit {
		top = top[:q.Limit]
	}
	for _, c := range top {
		body := text(c.owner, c.node)
		loc, ok := located[docKey(c.owner, c.node)]
		if !ok {
			loc = ix.locate(body, p)
		}
		snippet, ranges := makeSnippet(body, loc.ranges, loc.anchor)
		res.Hits = append(res.Hits, Hit{
			Owner:   c.owner,
			Node:    c.node,
			Score:   float64(int(c.points>>rareBits)*(proximityMax+1)+c.prox) / float64(maxPoints),
			Snippet: snippet,
			Ranges:  ranges,
		})
	}
	return res
}

// needsCheck reports whether a document the postings match must have its
// text read to know it holds p's runs (one of more than two characters:
// the postings hold each character and pair).
func (p parsedQuery) needsCheck() bool {
	for _, run := range p.runs {
		if len(run) > 2 {
			return true
		}
	}
	return false
}

// rank returns the best candidates for p (of a query of several words
// when several: a pool of at least proximityPool for proximityCut), in
// no particular order, counting the matches in res.Total.
func (ix *Index) rank(p parsedQuery, several bool, limit int, keep Filter, text func(uint32, int32) string, res *Result) []candidate {
	units, ok := ix.units(p)
	pool := limit
	if several && pool < proximityPool {
		pool = proximityPool
	}
	best := newTop(ix, pool)
	if ok {
		ix.searchIndexed(units, p, keep, text, best, res)
	}
	if ix.scan != nil {
		ix.addScanned(ix.scan, p, best, res)
	}
	return best.best()
}

// proximityCut measures the proximity of the candidates of a several-word
// query (locate, kept in located) and returns them best first, leaving
// out those that cannot be among the best limit whatever their proximity.
// Proximity orders only candidates of equal points, and the last ties
// after it (newer, owner, node) are known before it: walked in points
// order then those ties, once limit candidates are known to rank first —
// those of higher points, then those of the group of equal points at the
// most proximity — the rest of the group ranks below them all. A query
// whose words stand side by side in most hits ("session 5000 message 3"
// among thousands of one-typo matches) measures about limit candidates
// instead of the whole pool. The answer is the one measuring every
// candidate gives.
func (ix *Index) proximityCut(top []candidate, limit int, p parsedQuery, text func(uint32, int32) string, located map[uint64]location) []candidate {
	for i := range top {
		top[i].prox = 0
	}
	sort.Slice(top, func(i, j int) bool { return ix.better(top[i], top[j]) })
	kept := 0 // top[:kept] are measured and may be among the best limit
	for kept < len(top) && kept < limit {
		above, group, atMax := kept, top[kept].points, 0
		for kept < len(top) && top[kept].points == group && above+atMax < limit {
			c := &top[kept]
			loc := ix.locate(text(c.owner, c.node), p)
			located[docKey(c.owner, c.node)] = loc
			c.prox = loc.proximity
			if c.prox == proximityMax {
				atMax++
			}
			kept++
		}
		if above+atMax >= limit {
			break // the rest rank below limit others
		}
	}
	top = top[:kept]
	sort.Slice(top, func(i, j int) bool { return ix.better(top[i], top[j]) })
	return top
}

// docKey is a map key for node of owner.
func docKey(owner uint32, node int32) uint64 { return uint64(owner)<<32 | uint64(uint32(node)) }

// searchIndexed offers best the indexed documents that match every unit
// and that keep keeps, counting them in res.Total.
func (ix *Index) searchIndexed(units []queryUnit, p parsedQuery, keep Filter, text func(uint32, int32) string, best *top, res *Result) {
	matched := ix.intersect(units)
	needsCheck := p.needsCheck()
	o := offering{p: p, keep: keep, text: text, best: best, res: res, needsCheck: needsCheck}
	// Latest indexed first: a history is mostly indexed oldest first, and
	// newer ranks first among equal points, so the best come early and
	// most of the rest fall below best's floor at once (see top). In
	// chunks, so that optimised code takes over (see loopChunk).
	for end := len(matched); end > 0; end -= loopChunk {
		ix.offer(&o, matched[max(0, end-loopChunk):end])
	}
}

// loopChunk is the most items a loop over posting lists or matches
// handles in one call of its function. V8 runs a call of a wasm function
// to its end in the code it began in (it has no on-stack replacement for
// wasm; https://v8.dev/blog/wasm-dynamic-tiering): a loop over 500,000
// postings in one call ran wholly in baseline code (Liftoff) on a page's
// first query of a common word, several times slower than the optimised
// code (TurboFan) compiled for its function in the background meanwhile,
// which later calls run.
const loopChunk = 4096

// offering is what searchIndexed's walk over the matches carries from one
// chunk to the next.
type offering struct {
	p          parsedQuery
	keep       Filter
	text       func(uint32, int32) string
	best       *top
	res        *Result
	needsCheck bool
	last       uint32 // the owner of the previous matching document (0 at first)
	lastOK     bool   // keep.Owner of last
}

// offer offers o.best the documents of matched, latest first, that o.keep
// keeps and (when o.needsCheck) whose text holds the query's runs,
// counting them in o.res.Total. One call per chunk (see loopChunk).
//
//go:noinline
func (ix *Index) offer(o *offering, matched []int32) {
	for _, d := range slices.Backward(matched) {
		ref := &ix.docs[d]
		if ref.owner == 0 {
			continue
		}
		if ref.owner != o.last {
			o.last, o.lastOK = ref.owner, o.keep.Owner == nil || o.keep.Owner(ref.owner)
		}
		if !o.lastOK || o.keep.Node != nil && !o.keep.Node(ref.owner, ref.node) {
			continue
		}
		if o.needsCheck && !ix.locate(o.text(ref.owner, ref.node), o.p).all {
			continue
		}
		o.res.Total++
		o.best.push(candidate{doc: d, owner: ref.owner, node: ref.node, points: ix.points[d], millis: ref.millis})
	}
}

// intersect returns the documents every unit matches, leaving each one's
// points in ix.points. The units are walked rarest first; the stamp of a
// document counts the units it has matched so far, so nothing is cleared
// between queries. Once few documents are left, a unit whose posting
// lists are long is not walked: each document left is looked up in them
// instead (binary search), when that costs less (see probeCost).
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
	left := ix.left[:0] // the documents every unit so far matched
	for j, u := range units {
		want := base + uint32(j)
		if j > 0 && probeCost(ix, u, len(left)) < u.cost {
			left = ix.probe(u, left, want)
			continue
		}
		left = left[:0]
		for _, tm := range u.terms {
			list := ix.list(tm.term)
			for len(list) > 0 { // in chunks, so that optimised code takes over (see loopChunk)
				n := min(len(list), loopChunk)
				left = ix.walk(list[:n], left, j == 0, want, tm.points)
				list = list[n:]
			}
		}
	}
	ix.left = left
	return left
}

// walk appends to left the documents of list (postings of one term of
// query unit j) that the units before j all matched, stamping them
// base+j+1 and adding points: for the first unit (first), every document
// not yet stamped by another of its terms, its points starting at 0. One
// call per chunk (see loopChunk).
//
//go:noinline
func (ix *Index) walk(list, left []int32, first bool, want uint32, points uint64) []int32 {
	for _, d := range list {
		st := ix.stamp[d]
		if first {
			if st > want {
				continue
			}
			ix.points[d] = 0
		} else if st != want {
			continue
		}
		ix.stamp[d] = want + 1
		ix.points[d] += points
		left = append(left, d)
	}
	return left
}

// probeCost estimates the steps of looking up n documents in the posting
// lists of u's terms, for intersect to weigh against walking them (u.cost).
// It stops counting once past u.cost: a prefix of a few letters can reach
// thousands of terms.
func probeCost(ix *Index, u queryUnit, n int) int {
	cost := 0
	for _, tm := range u.terms {
		cost += n * (bits.Len(uint(ix.count(tm.term))) + 1)
		if cost >= u.cost {
			break
		}
	}
	return cost
}

// probe keeps, of the documents left (each stamped want by the units
// before), those in a posting list of u's terms, stamping them want+1 and
// adding the points of the first such term, as walking the lists would.
func (ix *Index) probe(u queryUnit, left []int32, want uint32) []int32 {
	kept := left[:0]
	for _, d := range left {
		for _, tm := range u.terms {
			if _, found := slices.BinarySearch(ix.list(tm.term), d); found {
				ix.stamp[d] = want + 1
				ix.points[d] += tm.points
				kept = append(kept, d)
				break
			}
		}
	}
	return kept
}

// better orders candidates: more points (match points, then rarity; see
// weight), then closer together, then newer, then owner (less), then later
// node.
func (ix *Index) better(a, b candidate) bool {
	if a.points != b.points {
		return a.points > b.points
	}
	if a.prox != b.prox {
		return a.prox > b.prox
	}
	if a.millis != b.millis {
		return a.millis > b.millis
	}
	if a.owner != b.owner {
		// hits come from live owners only, whose orders differ.
		return ix.less(a.owner, b.owner)
	}
	return a.node > b.node
}
