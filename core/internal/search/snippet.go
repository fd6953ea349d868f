package search

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

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
func (ix *Index) locate(text string, p parsedQuery) location {
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
