package search

import (
	"sort"
	"strings"
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
func (ix *Index) matchWord(w *queryWord) []termMatch {
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
func (ix *Index) units(p parsedQuery) (units []queryUnit, ok bool) {
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
