package search

import (
	"sort"
	"strings"
)

// queryWord is a word of the query, folded.
type queryWord struct {
	text  string
	runes []rune
	typos int // the most edits allowed against any word (see allowance)
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
			p.words = append(p.words, queryWord{text: w, runes: runes, typos: allowance(len(runes), len(runes)+2), sig: signature(w)})
		} else {
			p.runs = append(p.runs, runes)
		}
	}
	return p
}

// termMatch is a term that a query unit matched, with the weight it
// earns (see weight).
type termMatch struct {
	term   int32
	points uint64
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
	take := func(t int32, points int) {
		ix.mark[t] = stamp
		out = append(out, termMatch{term: t, points: ix.weight(points, t)})
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
		for l := max(1, n-w.typos); l <= n+w.typos && l <= maxLenBucket; l++ {
			k := allowance(n, l)
			if l < n-k || l > n+k {
				continue
			}
			sigs := ix.byLenSig[l]
			for i, t := range ix.byLen[l] {
				if !signatureClose(w.sig, sigs[i], k) || ix.mark[t] == stamp {
					continue
				}
				ix.runes = appendRunes(ix.runes[:0], ix.word[t])
				if d := boundedDistance(w.runes, ix.runes, k, &ix.rows); d <= k {
					take(t, typoPoints(d))
				}
			}
		}
	}
	if len(w.runes) >= prefixTypoMin {
		for _, t := range candidates {
			if ix.mark[t] == stamp {
				continue
			}
			ix.runes = appendRunes(ix.runes[:0], ix.word[t])
			if prefixTypo(w.runes, ix.runes, &ix.rows) > 0 {
				take(t, pointsPrefixTypo)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].points > out[j].points })
	return out
}

// typoPoints returns the points of a match with d typos (1 or 2).
func typoPoints(d int) int {
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
	for _, key := range runKeys(p) {
		t, found := ix.chars[key]
		if !found {
			return nil, false
		}
		units = append(units, queryUnit{terms: []termMatch{{term: t, points: ix.charWeight(key, p)}}})
	}
	for i := range units {
		if len(units[i].terms) == 0 {
			return nil, false
		}
		for _, tm := range units[i].terms {
			units[i].cost += ix.count(tm.term)
		}
	}
	sort.SliceStable(units, func(i, j int) bool { return units[i].cost < units[j].cost })
	return units, len(units) > 0
}

// runKeys returns the character terms the unspaced runs of p must all
// match, each once: the pairs of neighbours of each run, or its one
// character.
func runKeys(p parsedQuery) []uint64 {
	var keys []uint64
	seen := map[uint64]bool{}
	for _, run := range p.runs {
		add := func(key uint64) {
			if !seen[key] {
				seen[key] = true
				keys = append(keys, key)
			}
		}
		if len(run) == 1 {
			add(uint64(run[0]) << 32)
		}
		for k := 1; k < len(run); k++ {
			add(uint64(run[k-1])<<32 | uint64(run[k]))
		}
	}
	return keys
}

// unitCount is the number of units of p: its words, and the character
// terms of its runs (see runKeys).
func (ix *Index) unitCount(p parsedQuery) int {
	return len(p.words) + len(runKeys(p))
}
