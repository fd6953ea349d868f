package search

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
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

// queryWord is a word of the query, folded.
type queryWord struct {
	text  string
	runes []rune
	typos int // edits allowed (maxTypos of its length)
	sig   uint64
}

// parsedQuery is a query split into its words and unspaced runs.
type parsedQuery struct {
	words []queryWord
	runs  [][]rune
}

// parseQuery folds and splits a query, dropping repeated words and runs.
func parseQuery(query string, scratch []foldedRune) parsedQuery {
	folded := foldText(scratch[:0], query)
	var p parsedQuery
	seen := map[string]bool{}
	for _, t := range tokenize(nil, folded) {
		runes := make([]rune, 0, t.to-t.from)
		for _, fr := range folded[t.from:t.to] {
			runes = append(runes, fr.r)
		}
		key := string(rune('0'+t.kind)) + string(runes)
		if seen[key] {
			continue
		}
		seen[key] = true
		if t.kind == tokenWord {
			w := string(runes)
			p.words = append(p.words, queryWord{text: w, runes: runes, typos: maxTypos(len(runes)), sig: signature(w)})
		} else {
			p.runs = append(p.runs, runes)
		}
	}
	return p
}

// termMatch is a term that a query unit matched, with the points it earns.
type termMatch struct {
	term   int32
	points uint16
}

// queryUnit is one condition every hit meets: one query word, or one
// unspaced character or pair of characters of a run.
type queryUnit struct {
	terms []termMatch // best points first
	cost  int         // total length of the postings
}

// matchWord finds the vocabulary terms a query word matches.
func (ix *Index[O]) matchWord(w *queryWord) []termMatch {
	ix.epoch++
	stamp := ix.epoch
	var out []termMatch
	take := func(t int32, points uint16) {
		ix.mark[t] = stamp
		out = append(out, termMatch{term: t, points: points})
	}
	if t := ix.lookupWord([]byte(w.text)); t >= 0 {
		take(t, pointsExact)
	}
	var candidates []int32
	if len(w.runes) == 1 {
		candidates = ix.first[w.runes[0]]
	} else {
		candidates = ix.pair[[2]rune{w.runes[0], w.runes[1]}]
	}
	for _, t := range candidates {
		if ix.mark[t] != stamp && len(ix.word[t]) > len(w.text) && strings.HasPrefix(ix.word[t], w.text) {
			take(t, pointsPrefix)
		}
	}
	if w.typos > 0 {
		n := len(w.runes)
		for l := n - w.typos; l <= n+w.typos && l <= maxLenBucket; l++ {
			if l < 1 {
				continue
			}
			for _, t := range ix.byLen[l] {
				if ix.mark[t] == stamp || !signatureClose(w.sig, ix.sig[t], w.typos) {
					continue
				}
				ix.runes = appendRunes(ix.runes[:0], ix.word[t])
				if d := boundedDistance(w.runes, ix.runes, w.typos, &ix.rows); d <= w.typos {
					take(t, typoPoints(d))
				}
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].points > out[j].points })
	return out
}

// typoPoints returns the points of a match with d typos (1 or 2).
func typoPoints(d int) uint16 {
	if d == 1 {
		return pointsTypo1
	}
	return pointsTypo2
}

func appendRunes(dst []rune, s string) []rune {
	for _, r := range s {
		dst = append(dst, r)
	}
	return dst
}

// units turns a parsed query into the conditions every hit meets. ok is
// false when some condition matches no term (no node can match).
func (ix *Index[O]) units(p parsedQuery) (units []queryUnit, ok bool) {
	for i := range p.words {
		units = append(units, queryUnit{terms: ix.matchWord(&p.words[i])})
	}
	seen := map[uint64]bool{}
	for _, run := range p.runs {
		keys := []uint64{uint64(run[0]) << 32}
		if len(run) > 1 {
			keys = keys[:0]
			for k := 1; k < len(run); k++ {
				keys = append(keys, uint64(run[k-1])<<32|uint64(run[k]))
			}
		}
		for _, key := range keys {
			if seen[key] {
				continue
			}
			seen[key] = true
			t, found := ix.chars[key]
			if !found {
				return nil, false
			}
			units = append(units, queryUnit{terms: []termMatch{{term: t, points: pointsExact}}})
		}
	}
	for i := range units {
		if len(units[i].terms) == 0 {
			return nil, false
		}
		for _, tm := range units[i].terms {
			units[i].cost += len(ix.postings[tm.term])
		}
	}
	sort.SliceStable(units, func(i, j int) bool { return units[i].cost < units[j].cost })
	return units, len(units) > 0
}

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
type Hit[O comparable] struct {
	Owner   O        // the document: node number Node of Owner
	Node    int32    // (see Index.Add)
	Score   float64  // the points earned over the most the query can earn, 0–1
	Snippet string   // an excerpt of about SnippetLength characters of its text
	Ranges  [][2]int // [start, end) in UTF-16 code units of Snippet: what matched
}

// Result is the answer to a query.
type Result[O comparable] struct {
	Hits  []Hit[O] // the best hits, best first, at most Query.Limit
	Total int      // documents that matched and were kept, in all
}

// Search answers q. keep says whether a document that matches may be a
// hit (its owner attached, and the caller's filters); text returns the
// text of a document, as it was indexed; less orders owners, the last
// tie-break between equal hits.
func (ix *Index[O]) Search(q Query, keep func(owner O, node int32) bool, text func(owner O, node int32) string, less func(a, b O) bool) Result[O] {
	var res Result[O]
	var none O
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
	for _, d := range matched {
		ref := &ix.docs[d]
		if ref.owner == none || !keep(ref.owner, ref.node) {
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
		snippet, ranges := makeSnippet(body, loc.ranges)
		res.Hits = append(res.Hits, Hit[O]{
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
func (ix *Index[O]) intersect(units []queryUnit) []int32 {
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
func (ix *Index[O]) better(a, b candidate) bool {
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
func pushTop[O comparable](h []candidate, c candidate, n int, ix *Index[O]) []candidate {
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

// location is where a query matched in one text.
type location struct {
	ranges    [][2]int // byte ranges of the original text, sorted, merged
	all       bool     // every word and run was found
	proximity int      // 0..proximityMax: how close together they are
}

// locate finds the query's matches in text (the original, not folded):
// every word of the text a query word matches (the matched prefix only,
// for a prefix match) and every occurrence of an unspaced run, widened to
// whole characters.
func (ix *Index[O]) locate(text string, p parsedQuery) location {
	folded := foldText(ix.folded[:0], text)
	ix.folded = folded
	tokens := tokenize(ix.tokens[:0], folded)
	ix.tokens = tokens
	nq := len(p.words) + len(p.runs)
	bestPoints := make([]int, nq)
	bestAt := make([]int, nq)
	var ranges [][2]int
	add := func(from, to int) {
		start := clusterStart(text, int(folded[from].start))
		end := clusterEnd(text, int(folded[to-1].end))
		ranges = append(ranges, [2]int{start, end})
	}
	for ti, t := range tokens {
		ix.runes = ix.runes[:0]
		for _, fr := range folded[t.from:t.to] {
			ix.runes = append(ix.runes, fr.r)
		}
		tok := ix.runes
		if t.kind == tokenWord {
			var sig uint64
			for wi := range p.words {
				w := &p.words[wi]
				points, n := 0, len(tok)
				switch {
				case runesEqual(tok, w.runes):
					points = pointsExact
				case len(tok) > len(w.runes) && runesEqual(tok[:len(w.runes)], w.runes):
					points, n = pointsPrefix, len(w.runes)
				case w.typos > 0:
					if sig == 0 {
						sig = signature(string(tok))
					}
					if signatureClose(w.sig, sig, w.typos) {
						if d := boundedDistance(w.runes, tok, w.typos, &ix.rows); d <= w.typos {
							points = int(typoPoints(d))
						}
					}
				}
				if points == 0 {
					continue
				}
				add(t.from, t.from+n)
				if points > bestPoints[wi] {
					bestPoints[wi], bestAt[wi] = points, ti
				}
			}
			continue
		}
		for ri, run := range p.runs {
			qi := len(p.words) + ri
			for k := 0; k+len(run) <= len(tok); k++ {
				if runesEqual(tok[k:k+len(run)], run) {
					add(t.from+k, t.from+k+len(run))
					if bestPoints[qi] == 0 {
						bestPoints[qi], bestAt[qi] = pointsExact, ti
					}
				}
			}
		}
	}
	loc := location{ranges: mergeRanges(ranges), all: true, proximity: proximityMax}
	lo, hi := -1, -1
	for qi := range bestPoints {
		if bestPoints[qi] == 0 {
			loc.all = false
			continue
		}
		if lo < 0 || bestAt[qi] < lo {
			lo = bestAt[qi]
		}
		if bestAt[qi] > hi {
			hi = bestAt[qi]
		}
	}
	if nq > 1 && lo >= 0 {
		gap := hi - lo - (nq - 1)
		if gap > 0 {
			loc.proximity -= gap
		}
		if loc.proximity < 0 {
			loc.proximity = 0
		}
	}
	return loc
}

func runesEqual(a, b []rune) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// mergeRanges sorts byte ranges and merges those that overlap or touch.
func mergeRanges(ranges [][2]int) [][2]int {
	sort.Slice(ranges, func(i, j int) bool { return ranges[i][0] < ranges[j][0] })
	var out [][2]int
	for _, r := range ranges {
		if len(out) > 0 && r[0] <= out[len(out)-1][1] {
			if r[1] > out[len(out)-1][1] {
				out[len(out)-1][1] = r[1]
			}
			continue
		}
		out = append(out, r)
	}
	return out
}

// makeSnippet cuts an excerpt of about SnippetLength characters from text
// around the first range, collapses runs of white space to one space,
// marks cuts with "…", and returns it with the ranges (byte ranges of
// text) that lie wholly inside it, as UTF-16 offsets of the excerpt.
func makeSnippet(text string, ranges [][2]int) (string, [][2]int) {
	anchor, anchorEnd := 0, 0
	if len(ranges) > 0 {
		anchor, anchorEnd = ranges[0][0], ranges[0][1]
	}
	// Step back snippetLead characters from the anchor, then to a
	// character boundary.
	start := anchor
	for n := 0; start > 0 && n < snippetLead; n++ {
		_, size := utf8.DecodeLastRuneInString(text[:start])
		start -= size
	}
	start = clusterStart(text, start)
	if start > 0 {
		// Begin at a word: after the first space in the lead, if any.
		if k := strings.IndexFunc(text[start:anchor], unicode.IsSpace); k >= 0 {
			start += k
		}
	}
	for start < anchor {
		r, size := utf8.DecodeRuneInString(text[start:])
		if !unicode.IsSpace(r) {
			break
		}
		start += size
	}
	// Step forward SnippetLength characters, at least past the anchor.
	end := start
	for n := 0; end < len(text) && (n < SnippetLength || end < anchorEnd); n++ {
		_, size := utf8.DecodeRuneInString(text[end:])
		end += size
	}
	end = clusterEnd(text, end)
	if end < len(text) {
		// end after a word: at the last space of the final stretch, if any.
		if k := strings.LastIndexFunc(text[max(anchorEnd, start):end], unicode.IsSpace); k >= 0 && end-(max(anchorEnd, start)+k) < 20 {
			end = max(anchorEnd, start) + k
		}
	}

	var b strings.Builder
	var out [][2]int
	units := 0
	write := func(s string) {
		b.WriteString(s)
		units += UTF16Len(s)
	}
	if start > 0 {
		write("…")
	}
	ri := 0
	open := -1
	space := false
	for i := start; i <= end; {
		for ri < len(ranges) && ranges[ri][0] < start {
			ri++
		}
		if ri < len(ranges) && open < 0 && ranges[ri][0] == i && ranges[ri][1] <= end {
			if space {
				write(" ")
				space = false
			}
			open = units
		}
		if open >= 0 && ranges[ri][1] == i {
			out = append(out, [2]int{open, units})
			open = -1
			ri++
			continue
		}
		if i == end {
			break
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		if unicode.IsSpace(r) {
			space = units > 0 && (start == 0 || units > 1)
			continue
		}
		if space {
			write(" ")
			space = false
		}
		if r == utf8.RuneError && size == 1 {
			r = '\uFFFD'
		}
		b.WriteRune(r)
		if r >= 0x10000 {
			units += 2
		} else {
			units++
		}
	}
	if end < len(text) {
		write("…")
	}
	if out == nil {
		out = [][2]int{}
	}
	return b.String(), out
}
