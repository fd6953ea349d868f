package search

import "unicode/utf8"

// Scanning: documents not yet in the index (Query.Rest) are searched by
// reading their text, with the matching rules of the index (query.go's
// matchWord on the vocabulary, locate for snippets) and its weights, so a
// query that arrives while the index is being built is answered exactly:
// the indexed part from the postings, the rest by a scan. The scan also
// counts, for every word of the text that matched a query word, the
// scanned documents holding it, so rarity (see weight) is computed over
// all documents, indexed or scanned, as the complete index would.

// scanned is what a scan of the documents outside the index found.
type scanned struct {
	n     int               // documents scanned (those keep keeps)
	df    map[string]int    // per word of a scanned document that matched a query word: the scanned documents holding it
	runDF []int             // per run: the scanned documents holding it
	hits  []scanHit         // the documents that match every word and run
	words map[string]string // interned words of df
}

// scanHit is a document of the scan that matches every word and run.
type scanHit struct {
	owner  uint32
	node   int32
	millis int64
	best   []unitWord // per query word, the words of its text that matched it with the best points
}

// unitWord is a word of a text that matched query word unit with points.
type unitWord struct {
	unit, points int
	word         string
}

// scanRest scans the documents of rest that keep keeps for the words and
// runs of p.
func (ix *Index) scanRest(rest func(yield func(uint32, int32, int64) bool), p parsedQuery, keep Filter, text func(uint32, int32) string) *scanned {
	sc := &scanned{df: map[string]int{}, runDF: make([]int, len(p.runs)), words: map[string]string{}}
	counted := map[string]int{} // word → the scanned document (sc.n) that last counted it
	var last uint32
	lastOK := false
	rest(func(owner uint32, node int32, millis int64) bool {
		if owner != last {
			last, lastOK = owner, keep.Owner == nil || keep.Owner(owner)
		}
		if !lastOK || keep.Node != nil && !keep.Node(owner, node) {
			return true
		}
		sc.n++
		best, ok := ix.scanDoc(text(owner, node), p, sc, counted)
		if ok {
			sc.hits = append(sc.hits, scanHit{owner: owner, node: node, millis: millis, best: best})
		}
		return true
	})
	return sc
}

// docScan is the state of scanning one document (see scanDoc).
type docScan struct {
	p          parsedQuery
	sc         *scanned
	counted    map[string]int
	best       []unitWord // per query word, its best matches so far
	bestPoints []int      // per query word, the points of its best match so far
	runFound   []bool     // per run, whether it occurs
}

// scanDoc reports whether text matches every word and run of p, and the
// best matches of each word, counting in sc the words and runs it holds.
// Text of ASCII only, the common case, is split and folded byte by byte
// as Index.Add does; other text goes through foldText and tokenize.
func (ix *Index) scanDoc(text string, p parsedQuery, sc *scanned, counted map[string]int) ([]unitWord, bool) {
	ds := docScan{p: p, sc: sc, counted: counted, bestPoints: make([]int, len(p.words)), runFound: make([]bool, len(p.runs))}
	if isASCII(text) {
		word := ix.buf[:0]
		for k := 0; k < len(text); k++ {
			c := text[k]
			if asciiClass[c] == classWord {
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				word = append(word, c)
			} else if len(word) > 0 {
				ix.scanWord(&ds, word, nil)
				word = word[:0]
			}
		}
		if len(word) > 0 {
			ix.scanWord(&ds, word, nil)
		}
		ix.buf = word[:0]
	} else {
		folded := foldText(ix.folded[:0], text)
		ix.folded = folded
		tokens := tokenize(ix.tokens[:0], folded)
		ix.tokens = tokens
		for _, t := range tokens {
			tok := ix.runes[:0] // scanWord converts nothing when given runes
			for _, fr := range folded[t.from:t.to] {
				tok = append(tok, fr.r)
			}
			ix.runes = tok
			if t.kind == tokenWord {
				ix.scanWord(&ds, nil, tok)
				continue
			}
			for ri, run := range p.runs {
				if !ds.runFound[ri] && containsRunes(tok, run) {
					ds.runFound[ri] = true
				}
			}
		}
	}
	for ri, f := range ds.runFound {
		if f {
			sc.runDF[ri]++
		}
	}
	for _, b := range ds.bestPoints {
		if b == 0 {
			return nil, false
		}
	}
	for _, f := range ds.runFound {
		if !f {
			return nil, false
		}
	}
	return ds.best, true
}

// scanWord matches one folded word of a scanned text, given as ASCII
// bytes (ascii) or as runes (tok), against the query words, as matchWord
// matches a term of the vocabulary.
func (ix *Index) scanWord(ds *docScan, ascii []byte, tok []rune) {
	n := len(tok)
	if ascii != nil {
		n = len(ascii)
	}
	var sig uint64
	word := ""
	for wi := range ds.p.words {
		w := &ds.p.words[wi]
		points := 0
		switch {
		case n == len(w.runes) && (ascii != nil && string(ascii) == w.text || ascii == nil && runesEqual(tok, w.runes)):
			points = pointsExact
		case n > len(w.runes) && (ascii != nil && len(ascii) > len(w.text) && string(ascii[:len(w.text)]) == w.text || ascii == nil && runesEqual(tok[:len(w.runes)], w.runes)):
			points = pointsPrefix
		default:
			k := allowance(len(w.runes), n)
			typo := k > 0 && n >= len(w.runes)-k && n <= len(w.runes)+k
			// A prefix within an edit keeps the first two characters
			// (prefixTypo): an ASCII token is told by its bytes, unconverted.
			if !typo && (len(w.runes) < prefixTypoMin || n < len(w.runes) || ascii != nil && (ascii[0] != w.text[0] || ascii[1] != w.text[1])) {
				continue
			}
			if tok == nil {
				tok = appendRunes(ix.runes[:0], string(ascii))
				ix.runes = tok
			}
			if typo {
				if sig == 0 {
					sig = runeSignature(tok)
				}
				if signatureClose(w.sig, sig, k) {
					if d := boundedDistance(w.runes, tok, k, &ix.rows); d <= k {
						points = typoPoints(d)
					}
				}
			}
			if points == 0 && prefixTypo(w.runes, tok, &ix.rows) > 0 {
				points = pointsPrefixTypo
			}
		}
		if points == 0 || points < ds.bestPoints[wi] {
			continue
		}
		if word == "" {
			if ascii == nil {
				ascii = ix.runeBytes(tok)
			}
			word = ds.sc.intern(ascii)
			if ds.counted[word] != ds.sc.n {
				ds.counted[word] = ds.sc.n
				ds.sc.df[word]++
			}
		}
		if points > ds.bestPoints[wi] {
			ds.bestPoints[wi] = points
			kept := ds.best[:0]
			for _, b := range ds.best {
				if b.unit != wi {
					kept = append(kept, b)
				}
			}
			ds.best = kept
		}
		ds.best = append(ds.best, unitWord{unit: wi, points: points, word: word})
	}
}

// isASCII reports whether s is all ASCII.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// intern returns b as a string, one string per distinct word.
func (sc *scanned) intern(b []byte) string {
	if s, ok := sc.words[string(b)]; ok {
		return s
	}
	s := string(b)
	sc.words[s] = s
	return s
}

// runeBytes returns tok as UTF-8, in scratch space.
func (ix *Index) runeBytes(tok []rune) []byte {
	b := ix.buf[:0]
	for _, r := range tok {
		b = utf8.AppendRune(b, r)
	}
	ix.buf = b[:0]
	return b
}

// addScanned offers best the hits of a scan, weighed as the index weighs
// its own, counting them in res.Total. ix.scan must be sc.
func (ix *Index) addScanned(sc *scanned, p parsedQuery, best *top, res *Result) {
	var runs uint64
	for _, key := range runKeys(p) {
		runs += ix.charWeight(key, p)
	}
	bestOf := make([]uint64, len(p.words))
	for _, h := range sc.hits {
		clear(bestOf)
		for _, b := range h.best {
			bestOf[b.unit] = max(bestOf[b.unit], ix.wordWeight(b.points, b.word))
		}
		points := runs
		for _, w := range bestOf {
			points += w
		}
		res.Total++
		best.push(candidate{doc: -1, owner: h.owner, node: h.node, points: points, millis: h.millis})
	}
}

// wordWeight is weight for the word term word, which the index may not
// hold yet.
func (ix *Index) wordWeight(points int, word string) uint64 {
	if t := ix.lookupWord([]byte(word)); t >= 0 {
		return ix.weight(points, t)
	}
	return uint64(points)<<rareBits | rarity(float64(ix.totalDocs()), float64(ix.scan.df[word]))
}

// totalDocs is the number of documents rarity counts: those ever added,
// and those of the scan in progress.
func (ix *Index) totalDocs() int {
	if ix.scan == nil {
		return len(ix.docs)
	}
	return len(ix.docs) + ix.scan.n
}

// charWeight is the weight of an exact match of the character term key
// (see runKeys), which the index may not hold yet. The scanned documents
// counted for it are those holding a run of p the key belongs to (exact
// for runs of one or two characters, the common case; for longer runs a
// lower bound, as a pair can occur without the whole run).
func (ix *Index) charWeight(key uint64, p parsedQuery) uint64 {
	n := 0
	if t, ok := ix.chars[key]; ok {
		n = ix.count(t)
	}
	if sc := ix.scan; sc != nil {
		for ri, run := range p.runs {
			if runHasKey(run, key) {
				n += sc.runDF[ri]
				break
			}
		}
	}
	return uint64(pointsExact)<<rareBits | rarity(float64(ix.totalDocs()), float64(n))
}

// runHasKey reports whether key is a character term of run (see runKeys).
func runHasKey(run []rune, key uint64) bool {
	if len(run) == 1 {
		return key == uint64(run[0])<<32
	}
	for k := 1; k < len(run); k++ {
		if key == uint64(run[k-1])<<32|uint64(run[k]) {
			return true
		}
	}
	return false
}

// containsRunes reports whether run occurs in tok.
func containsRunes(tok, run []rune) bool {
	for k := 0; k+len(run) <= len(tok); k++ {
		if runesEqual(tok[k:k+len(run)], run) {
			return true
		}
	}
	return false
}
