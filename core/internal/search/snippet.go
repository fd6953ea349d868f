package search

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// location is where a query matched in one text.
type location struct {
	// ranges are the byte ranges of the original text to highlight,
	// sorted and merged: for each query word only its matches of the best
	// kind found in the text (exact and prefix matches are one kind, then
	// one typo, then two), so a near miss is never marked when the word
	// itself is there.
	ranges [][2]int
	// anchor is the byte range of the first highlight of the best window
	// (see bestWindow), where the snippet starts.
	anchor    [2]int
	all       bool // every word and run was found
	proximity int  // 0..proximityMax: how close together they are
}

// match is one place a query word or run matched: the query unit (words
// first, then runs), the points it earns and the byte range of the text.
type match struct {
	unit, points int
	start, end   int
}

// matchKind groups match points for highlighting: exact and prefix 2,
// one typo 1, two typos 0.
func matchKind(points int) int {
	switch {
	case points >= pointsPrefix:
		return 2
	case points >= pointsTypo1:
		return 1
	}
	return 0
}

// locate finds the query's matches in text (the original, not folded):
// every word of the text a query word matches (the matched prefix only,
// for a prefix match) and every occurrence of an unspaced run, widened to
// whole characters.
func (ix *Index) locate(text string, p parsedQuery) location {
	folded := foldText(ix.folded[:0], text)
	ix.folded = folded
	tokens := tokenize(ix.tokens[:0], folded)
	ix.tokens = tokens
	nq := len(p.words) + len(p.runs)
	bestPoints := make([]int, nq)
	bestAt := make([]int, nq)
	var matches []match
	add := func(unit, points, from, to int) {
		start := clusterStart(text, int(folded[from].start))
		end := clusterEnd(text, int(folded[to-1].end))
		matches = append(matches, match{unit: unit, points: points, start: start, end: end})
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
				points, n := ix.wordMatch(w, tok, &sig)
				if points == 0 {
					continue
				}
				add(wi, points, t.from, t.from+n)
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
					add(qi, pointsExact, t.from+k, t.from+k+len(run))
					if bestPoints[qi] == 0 {
						bestPoints[qi], bestAt[qi] = pointsExact, ti
					}
				}
			}
		}
	}
	return locationOf(text, matches, bestPoints, bestAt)
}

// windowSpan is how many characters after its first highlight a snippet
// window is judged on: what a snippet shows after its lead.
const windowSpan = SnippetLength - snippetLead

// bestWindow returns the match a snippet should start at: the first of the
// window of windowSpan characters holding the most query units, then the
// most points (each unit's best match in it: exact before prefix before
// typos), then the tightest (the fewest characters from its first match
// to the end of the last one that adds a unit or points), then the
// earliest. nq is the number of units. The work is bounded by the number
// of matches times the matches that fit in one window.
func bestWindow(text string, ms []match, nq int) match {
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].start < ms[j].start })
	// Rune offsets of each match's start and end, in one pass.
	startRune := make([]int, len(ms))
	endRune := make([]int, len(ms))
	pos, runes := 0, 0
	for i, m := range ms {
		runes += utf8.RuneCountInString(text[pos:m.start])
		pos = m.start
		startRune[i] = runes
		endRune[i] = runes + utf8.RuneCountInString(text[m.start:m.end])
	}
	best, bestUnits, bestPoints, bestSpread := 0, -1, -1, 0
	unitBest := make([]int, nq)
	for i := range ms {
		clear(unitBest)
		units, points, spread := 0, 0, 0
		for j := i; j < len(ms) && endRune[j] <= startRune[i]+windowSpan; j++ {
			m := ms[j]
			if unitBest[m.unit] == 0 {
				units++
			}
			if m.points > unitBest[m.unit] {
				points += m.points - unitBest[m.unit]
				unitBest[m.unit] = m.points
				spread = endRune[j] - startRune[i]
			}
			if units == nq && points == nq*pointsExact {
				break // nothing later in this window adds anything
			}
		}
		if units > bestUnits || units == bestUnits && (points > bestPoints || points == bestPoints && spread < bestSpread) {
			best, bestUnits, bestPoints, bestSpread = i, units, points, spread
		}
	}
	return ms[best]
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
// around the byte range at (the location's anchor; the text's start when
// empty), collapses runs of white space to one space, marks cuts with "…",
// and returns it with the ranges (byte ranges of text) that lie wholly
// inside it, as UTF-16 offsets of the excerpt.
func makeSnippet(text string, ranges [][2]int, at [2]int) (string, [][2]int) {
	anchor, anchorEnd := at[0], at[1]
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

// wordMatch returns the points token tok earns for query word w (0 for
// none) and how many of its characters the match covers: all of them, or
// the word's length for a prefix match (the prefix's, for one within an
// edit: prefixTypo). sig is tok's rune signature,
// computed on first need and kept for the other words.
func (ix *Index) wordMatch(w *queryWord, tok []rune, sig *uint64) (points, n int) {
	n = len(tok)
	switch {
	case runesEqual(tok, w.runes):
		points = pointsExact
	case len(tok) > len(w.runes) && runesEqual(tok[:len(w.runes)], w.runes):
		points, n = pointsPrefix, len(w.runes)
	case allowance(len(w.runes), len(tok)) > 0:
		k := allowance(len(w.runes), len(tok))
		if *sig == 0 {
			*sig = runeSignature(tok)
		}
		if signatureClose(w.sig, *sig, k) {
			if d := boundedDistance(w.runes, tok, k, &ix.rows); d <= k {
				points = typoPoints(d)
			}
		}
	}
	if points == 0 {
		if m := prefixTypo(w.runes, tok, &ix.rows); m > 0 {
			points, n = pointsPrefixTypo, m
		}
	}
	return points, n
}

// locationOf makes the location of text's matches: each query unit's
// matches of its best kind highlighted (merged ranges), the anchor of the
// best window, whether every unit matched, and proximity less the gap
// between the units' best tokens (bestAt).
func locationOf(text string, matches []match, bestPoints, bestAt []int) location {
	nq := len(bestPoints)
	// Highlight each unit's matches of its best kind only.
	kept := matches[:0]
	for _, m := range matches {
		if matchKind(m.points) == matchKind(bestPoints[m.unit]) {
			kept = append(kept, m)
		}
	}
	ranges := make([][2]int, len(kept))
	for i, m := range kept {
		ranges[i] = [2]int{m.start, m.end}
	}
	loc := location{ranges: mergeRanges(ranges), all: true, proximity: proximityMax}
	if len(kept) > 0 {
		a := bestWindow(text, kept, nq)
		loc.anchor = [2]int{a.start, a.end}
		for _, r := range loc.ranges {
			if r[0] <= a.start && a.start < r[1] {
				loc.anchor = r // the merged highlight holding it
				break
			}
		}
	}
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
