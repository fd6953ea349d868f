package core

import (
	"bytes"
	"math/bits"
	"time"
	"unicode/utf8"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// searchIndex is the store's search index: one document per node of every
// live session, kept up to date as nodes arrive (Session.push) and as
// sessions are added or replaced (Store.put). Nothing is rebuilt per query.
//
// Words of spaced scripts are terms of a vocabulary; each term has a
// posting list of document numbers in increasing order. A query word is
// matched against the vocabulary (exactly, as a prefix, or within a few
// typos), and the posting lists of the terms it matches are merged.
// Characters of scripts without spaces (Han, kana, Hangul, Thai, …) and
// symbols such as emoji are indexed one by one and as pairs of neighbours,
// so a query of one or two such characters is answered from the postings
// and a longer run is checked against the text of the few candidates.
//
// A replaced session is detached: its documents stay in the postings but
// are skipped (their session no longer points at the index) until dead
// documents outnumber live ones, when the store rebuilds the index from
// the live sessions.
type searchIndex struct {
	slots []int32          // open-addressing table of word terms: term number + 1, 0 for empty (see findWord)
	nword int              // word terms in slots
	hash  []uint32         // FNV-1a hash of each term's word (0 for character terms)
	chars map[uint64]int32 // unspaced character (r<<32) or pair (r1<<32|r2) → term number

	word     []string            // text of each word term ("" for character terms)
	sig      []uint64            // letter signature of each word term (see signature)
	postings [][]int32           // posting list of each term: document numbers, increasing
	last     []int32             // the last document posted to each term (dedupes a document's repeats)
	byLen    [][]int32           // word terms by length in runes (the last bucket holds all longer ones)
	first    map[rune][]int32    // word terms by first rune
	pair     map[[2]rune][]int32 // word terms of 2+ runes by their first two runes

	docs []docRef
	live int // documents of attached sessions
	dead int // documents of detached sessions

	// Scratch space reused by add and by queries (a Store is not used
	// concurrently).
	buf    []byte
	stamp  []uint32 // per document: base+j once the first j query units matched it
	points []uint16 // per document: the points collected so far
	epoch  uint32
	mark   []uint32 // per term: the query word that last matched it
	rows   [3][]int
	runes  []rune
	folded []foldedRune
	tokens []textToken
}

// docRef is one document: a node of a session, with its time for ranking.
type docRef struct {
	sess   *Session
	node   int32
	millis int64 // the node's timestamp in Unix milliseconds (0 if unreadable)
}

// maxLenBucket is the last length bucket of the vocabulary: words of this
// many runes or more share it.
const maxLenBucket = 48

func newSearchIndex() *searchIndex {
	return &searchIndex{
		slots: make([]int32, 1024),
		chars: make(map[uint64]int32),
		byLen: make([][]int32, maxLenBucket+1),
		first: make(map[rune][]int32),
		pair:  make(map[[2]rune][]int32),
	}
}

// abandon drops the documents WarmSearch added for s while s was not yet
// attached (they are left dead, like a detached session's).
func (ix *searchIndex) abandon(s *Session) {
	if s.warming != ix {
		return
	}
	for d := range ix.docs {
		if ix.docs[d].sess == s {
			ix.docs[d].sess = nil
		}
	}
	ix.live -= s.warmed
	ix.dead += s.warmed
	s.warming, s.warmed = nil, 0
}

// detach takes s out of the index: its documents are no longer hits.
func (ix *searchIndex) detach(s *Session) {
	if s.search != ix {
		return
	}
	s.search = nil
	ix.live -= len(s.nodes)
	ix.dead += len(s.nodes)
}

// wasteful reports whether dead documents outnumber live ones by enough
// that a rebuild pays.
func (ix *searchIndex) wasteful() bool {
	return ix.dead > 4096 && ix.dead > ix.live
}

// searchText returns the text search sees for node i of s: the message
// text (string content, text parts, tool-call names and arguments), the
// summary or the entry's text, then the node's label on a line of its
// own. When a node's label changes, Session.annotate calls
// searchIndex.refresh.
func searchText(s *Session, i int32) string {
	n := s.nodes[i]
	text, ok := "", false
	if n.Kind == KindMessage && n.Message != nil {
		text, ok = plainMessageText(n.Message)
	}
	if !ok {
		text = nodeText(n)
	}
	if label := s.labels[i]; label != "" {
		text += "\n" + label
	}
	return text
}

// refresh indexes node i of s again after its searchable text changed: the
// old document is left dead and a new one added.
func (ix *searchIndex) refresh(s *Session, i int32) {
	if s.search != ix {
		return
	}
	for d := range ix.docs {
		if ix.docs[d].sess == s && ix.docs[d].node == i {
			ix.docs[d].sess = nil
			ix.live--
			ix.dead++
		}
	}
	ix.add(s, i)
}

// add indexes node i of s as a new document.
func (ix *searchIndex) add(s *Session, i int32) {
	d := int32(len(ix.docs))
	ix.docs = append(ix.docs, docRef{sess: s, node: i, millis: timestampMillis(s.nodes[i].Timestamp)})
	ix.live++
	text := searchText(s, i)
	word := ix.buf[:0]
	prev := rune(-1) // previous unspaced rune in the current run, -1 for none
	for k := 0; k < len(text); {
		if c := text[k]; c < utf8.RuneSelf {
			// ASCII: fold and classify by table, no rune decoding.
			k++
			prev = -1
			if asciiClass[c] == classWord {
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				word = append(word, c)
			} else if len(word) > 0 {
				ix.post(ix.wordTerm(word), d)
				word = word[:0]
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(text[k:])
		k += size
		for _, f := range foldRune(r) {
			switch runeClass(f) {
			case classWord:
				prev = -1
				word = utf8.AppendRune(word, f)
			case classUnspace:
				if len(word) > 0 {
					ix.post(ix.wordTerm(word), d)
					word = word[:0]
				}
				ix.post(ix.charTerm(uint64(f)<<32), d)
				if prev >= 0 {
					ix.post(ix.charTerm(uint64(prev)<<32|uint64(f)), d)
				}
				prev = f
			default:
				if len(word) > 0 {
					ix.post(ix.wordTerm(word), d)
					word = word[:0]
				}
				prev = -1
			}
		}
	}
	if len(word) > 0 {
		ix.post(ix.wordTerm(word), d)
	}
	ix.buf = word[:0]
}

// post adds document d to term t's postings once.
func (ix *searchIndex) post(t, d int32) {
	if ix.last[t] == d {
		return
	}
	ix.last[t] = d
	ix.postings[t] = append(ix.postings[t], d)
}

func (ix *searchIndex) newTerm(word string) int32 {
	t := int32(len(ix.postings))
	ix.word = append(ix.word, word)
	ix.sig = append(ix.sig, signature(word))
	ix.postings = append(ix.postings, nil)
	ix.last = append(ix.last, -1)
	ix.mark = append(ix.mark, 0)
	ix.hash = append(ix.hash, 0)
	return t
}

// fnv1a is the 32-bit FNV-1a hash of w.
func fnv1a(w []byte) uint32 {
	h := uint32(2166136261)
	for _, c := range w {
		h = (h ^ uint32(c)) * 16777619
	}
	return h
}

// findWord returns the slot of word w (hash h): the slot holding its term,
// or the empty slot where it would go. The table is a plain linear-probing
// hash table; a Go map costs about twice as much per word when indexing,
// since the word's bytes must be hashed and compared through the generic
// map code (notably in wasm, which has no AES hashing).
func (ix *searchIndex) findWord(w []byte, h uint32) int {
	mask := len(ix.slots) - 1
	for i := int(h) & mask; ; i = (i + 1) & mask {
		t := ix.slots[i] - 1
		if t < 0 || (ix.hash[t] == h && ix.word[t] == string(w)) {
			return i
		}
	}
}

// lookupWord returns the term number of word w, or -1.
func (ix *searchIndex) lookupWord(w []byte) int32 {
	return ix.slots[ix.findWord(w, fnv1a(w))] - 1
}

func (ix *searchIndex) growSlots() {
	slots := make([]int32, 2*len(ix.slots))
	mask := len(slots) - 1
	for _, t1 := range ix.slots {
		if t1 == 0 {
			continue
		}
		i := int(ix.hash[t1-1]) & mask
		for slots[i] != 0 {
			i = (i + 1) & mask
		}
		slots[i] = t1
	}
	ix.slots = slots
}

// wordTerm returns the term number of a folded word, adding it to the
// vocabulary when new.
func (ix *searchIndex) wordTerm(w []byte) int32 {
	h := fnv1a(w)
	slot := ix.findWord(w, h)
	if t := ix.slots[slot] - 1; t >= 0 {
		return t
	}
	word := string(w)
	t := ix.newTerm(word)
	ix.hash[t] = h
	ix.slots[slot] = t + 1
	ix.nword++
	if ix.nword*4 > len(ix.slots)*3 {
		ix.growSlots()
	}
	n := utf8.RuneCountInString(word)
	if n > maxLenBucket {
		n = maxLenBucket
	}
	ix.byLen[n] = append(ix.byLen[n], t)
	r0, size := utf8.DecodeRuneInString(word)
	ix.first[r0] = append(ix.first[r0], t)
	if size < len(word) {
		r1, _ := utf8.DecodeRuneInString(word[size:])
		ix.pair[[2]rune{r0, r1}] = append(ix.pair[[2]rune{r0, r1}], t)
	}
	return t
}

// charTerm returns the term number of an unspaced character or pair.
func (ix *searchIndex) charTerm(key uint64) int32 {
	if t, ok := ix.chars[key]; ok {
		return t
	}
	t := ix.newTerm("")
	ix.chars[key] = t
	return t
}

// signature sets one of 64 bits for every distinct rune of w. Two words
// within k typos differ by at most k distinct runes each way, so
// bits.OnesCount64(a&^b) > k rules a pair out without computing a
// distance.
func signature(w string) uint64 {
	var s uint64
	for _, r := range w {
		s |= 1 << (uint32(r) * 2654435761 >> 26)
	}
	return s
}

// signatureClose reports whether words with signatures a and b may be
// within k typos of each other.
func signatureClose(a, b uint64, k int) bool {
	return bits.OnesCount64(a&^b) <= k && bits.OnesCount64(b&^a) <= k
}

// timestampMillis reads a node timestamp as Unix milliseconds; the layout
// sessiontree writes is read without time.Parse.
func timestampMillis(ts string) int64 {
	if len(ts) == len(TimeLayout) && ts[4] == '-' && ts[10] == 'T' && ts[19] == '.' && ts[23] == 'Z' {
		num := func(from, to int) (int, bool) {
			v := 0
			for i := from; i < to; i++ {
				c := ts[i]
				if c < '0' || c > '9' {
					return 0, false
				}
				v = v*10 + int(c-'0')
			}
			return v, true
		}
		y, ok1 := num(0, 4)
		mo, ok2 := num(5, 7)
		dd, ok3 := num(8, 10)
		h, ok4 := num(11, 13)
		mi, ok5 := num(14, 16)
		se, ok6 := num(17, 19)
		ms, ok7 := num(20, 23)
		if ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && ok7 {
			return time.Date(y, time.Month(mo), dd, h, mi, se, ms*1e6, time.UTC).UnixMilli()
		}
	}
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return 0
	}
	return t.UnixMilli()
}

// sizeBytes estimates the memory the index holds, in bytes: postings,
// vocabulary, lookup tables and documents (map overhead approximated).
func (ix *searchIndex) sizeBytes() int {
	n := 0
	for t, p := range ix.postings {
		n += cap(p)*4 + 24 + len(ix.word[t]) + 16 + 8 + 4 + 4
	}
	n += cap(ix.slots)*4 + cap(ix.hash)*4 + len(ix.chars)*24
	for _, l := range ix.byLen {
		n += cap(l) * 4
	}
	n += (len(ix.first) + len(ix.pair)) * 48
	for _, l := range ix.first {
		n += cap(l) * 4
	}
	for _, l := range ix.pair {
		n += cap(l) * 4
	}
	n += cap(ix.docs)*24 + cap(ix.stamp)*4 + cap(ix.points)*2
	return n
}

// skipValidString returns the offset just past the JSON string starting
// at raw[pos] (a '"'), and whether it holds escapes; -1 if it does not
// end. The message was validated when it entered the session, so this only
// looks for the closing quote, which is several times cheaper than the
// validating scanner.
func skipValidString(raw []byte, pos int) (int, bool) {
	escaped := false
	for k := pos + 1; k < len(raw); k++ {
		switch raw[k] {
		case '\\':
			escaped = true
			k++
		case '"':
			return k + 1, escaped
		}
	}
	return -1, escaped
}

// plainMessageText returns the content of a message whose content is a
// string and that has no tool calls, read with the one-pass scanner
// instead of encoding/json (the common case when indexing). ok is false
// for every other message.
func plainMessageText(raw []byte) (text string, ok bool) {
	sc := jsonx.Scanner{Data: raw}
	if sc.SkipSpace(); sc.Peek() != '{' {
		return "", false
	}
	sc.Pos++
	var content []byte
	contentEscaped := false
	for {
		sc.SkipSpace()
		if sc.Peek() != '"' {
			break
		}
		keyStart := sc.Pos
		if sc.Pos, _ = skipValidString(raw, sc.Pos); sc.Pos < 0 {
			return "", false
		}
		key := raw[keyStart:sc.Pos]
		if sc.SkipSpace(); sc.Peek() != ':' {
			return "", false
		}
		sc.Pos++
		sc.SkipSpace()
		valueStart := sc.Pos
		escaped := false
		if sc.Peek() == '"' {
			if sc.Pos, escaped = skipValidString(raw, sc.Pos); sc.Pos < 0 {
				return "", false
			}
		} else if _, _, err := sc.Value(); err != nil {
			return "", false
		}
		v := raw[valueStart:sc.Pos]
		switch string(key) {
		case `"content"`:
			content, contentEscaped = v, escaped
		case `"tool_calls"`:
			if len(v) > 0 && v[0] == '[' {
				return "", false
			}
		default:
			if bytes.EqualFold(key, []byte(`"content"`)) || bytes.EqualFold(key, []byte(`"tool_calls"`)) {
				return "", false // encoding/json matches keys without regard to case: leave these to MessageText
			}
		}
		if sc.SkipSpace(); sc.Peek() == ',' {
			sc.Pos++
		}
	}
	if len(content) < 2 || content[0] != '"' {
		return "", false
	}
	if !contentEscaped {
		return string(content[1 : len(content)-1]), true
	}
	return jsonx.DecodeString(content, true), true
}
