package search

import (
	"math/bits"
	"unicode/utf8"
)

// Index is a full-text index of documents: each is the text of node number
// node of an owner, a non-zero key of the caller's choosing (core: one
// document per node of every live session, the key naming the session,
// brought up to date by each search as sessions grow, are added or are
// replaced).
// Nothing is rebuilt per query. Owner 0 is no owner: it marks a dead
// document. An Index is not safe for concurrent use.
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
// A replaced owner is detached: its documents stay in the postings but
// are skipped (the caller's keep function refuses them) until dead
// documents outnumber live ones (Wasteful), when the caller builds a new
// index from the live owners.
type Index struct {
	slots []int32          // open-addressing table of word terms: term number + 1, 0 for empty (see findWord)
	nword int              // word terms in slots
	hash  []uint32         // FNV-1a hash of each term's word (0 for character terms)
	chars map[uint64]int32 // unspaced character (r<<32) or pair (r1<<32|r2) → term number

	word     []string            // text of each word term ("" for character terms)
	sig      []uint64            // letter signature of each word term (see signature)
	postings [][]int32           // posting list of each term: document numbers, increasing
	last     []int32             // the last document posted to each term (dedupes a document's repeats)
	byLen    [][]int32           // word terms by length in runes (the last bucket holds all longer ones)
	byLenSig [][]uint64          // the signatures of byLen's terms, side by side (the typo scan reads them in order)
	first    map[rune][]int32    // word terms by first rune
	pair     map[[2]rune][]int32 // word terms of 2+ runes by their first two runes

	// packed is, per term read back by Decode and not yet reached by a
	// query, its postings as Encode wrote them (see list); packedDocs the
	// documents Decode read, which they must stay below; damaged is set
	// when one of them did not (see Damaged).
	packed     []packedList
	packedDocs int32
	damaged    bool

	docs []docRef
	// less orders owners for the ranking's last tie-break (set by search).
	less func(a, b uint32) bool
	// scan is what the scan of the documents outside the index found,
	// during a search that has such documents (see Query.Rest).
	scan *scanned
	live int // documents of attached owners
	dead int // documents of detached owners, and replaced documents
	// kept is the ranked pool of the last query that asked to keep it
	// (Query.Keep), made at Revision kept.revision.
	kept   *keptPool
	reused int // queries answered from kept (see Reused)

	// Scratch space reused by add and by queries (a Store is not used
	// concurrently).
	buf    []byte
	stamp  []uint32 // per document: base+j once the first j query units matched it
	points []uint64 // per document: the weights collected so far (see weight)
	epoch  uint32
	mark   []uint32 // per term: the query word that last matched it
	left   []int32  // the documents intersect has left
	rows   [3][]int
	runes  []rune
	folded []foldedRune
	tokens []textToken
}

// docRef is one document: node number node of owner (0 once the document
// is dead), with its time for ranking.
type docRef struct {
	owner  uint32
	node   int32
	millis int64 // the node's timestamp in Unix milliseconds (0 if unreadable)
}

// maxLenBucket is the last length bucket of the vocabulary: words of this
// many runes or more share it.
const maxLenBucket = 48

// NewIndex returns an empty index.
func NewIndex() *Index {
	return &Index{
		slots:    make([]int32, 1024),
		chars:    make(map[uint64]int32),
		byLen:    make([][]int32, maxLenBucket+1),
		byLenSig: make([][]uint64, maxLenBucket+1),
		first:    make(map[rune][]int32),
		pair:     make(map[[2]rune][]int32),
	}
}

// DropOwner makes dead the n documents of owner, added while owner was not
// attached (see the store's WarmSearch).
func (ix *Index) DropOwner(owner uint32, n int) {
	for d := range ix.docs {
		if ix.docs[d].owner == owner {
			ix.docs[d].owner = 0
		}
	}
	ix.live -= n
	ix.dead += n
}

// Detached records that an owner of n documents left the index: they are
// no longer hits (the caller's keep function refuses them) and count as
// dead.
func (ix *Index) Detached(n int) {
	ix.live -= n
	ix.dead += n
}

// Reused returns how many queries were answered from a kept pool
// (Query.Keep) so far, for tests.
func (ix *Index) Reused() int { return ix.reused }

// LiveDocs returns the number of documents of attached owners.
func (ix *Index) LiveDocs() int { return ix.live }

// DeadDocs returns the number of dead documents (of detached owners, or
// replaced).
func (ix *Index) DeadDocs() int { return ix.dead }

// Wasteful reports whether dead documents outnumber live ones by enough
// that a rebuild pays.
func (ix *Index) Wasteful() bool {
	return ix.dead > 4096 && ix.dead > ix.live
}

// Replace indexes node i of owner again after its searchable text changed
// (now text): the old document is left dead and a new one added.
func (ix *Index) Replace(owner uint32, i int32, text string, millis int64) {
	for d := range ix.docs {
		if ix.docs[d].owner == owner && ix.docs[d].node == i {
			ix.docs[d].owner = 0
			ix.live--
			ix.dead++
		}
	}
	ix.Add(owner, i, text, millis)
}

// Add indexes text as a new document: node i of owner, written at millis
// (Unix milliseconds, 0 when unknown).
func (ix *Index) Add(owner uint32, i int32, text string, millis int64) {
	d := int32(len(ix.docs))
	ix.docs = append(ix.docs, docRef{owner: owner, node: i, millis: millis})
	ix.live++
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

// packedList is one term's postings as Encode wrote them: n varints.
type packedList struct {
	bytes []byte
	n     int32
}

// list returns term t's postings, decoding them first when Decode left
// them packed; those added since follow them (their documents are newer).
func (ix *Index) list(t int32) []int32 {
	if int(t) < len(ix.packed) && ix.packed[t].n > 0 {
		ix.unpack(t)
	}
	return ix.postings[t]
}

// count returns the number of term t's postings, packed or not.
func (ix *Index) count(t int32) int {
	n := len(ix.postings[t])
	if int(t) < len(ix.packed) {
		n += int(ix.packed[t].n)
	}
	return n
}

// unpack decodes term t's packed postings in front of those added since.
// A list out of order or past the documents read makes the term's packed
// postings read as none, and the index Damaged.
func (ix *Index) unpack(t int32) {
	pk := ix.packed[t]
	ix.packed[t] = packedList{}
	u := unpacking{r: reader{data: pk.bytes, ok: true}, p: make([]int32, 0, int(pk.n)+len(ix.postings[t]))}
	for left := int(pk.n); left > 0 && !u.bad; left -= loopChunk { // in chunks, so that optimised code takes over (see loopChunk)
		ix.unpackChunk(&u, min(left, loopChunk))
	}
	if u.bad {
		ix.damaged = true
		u.p = u.p[:0]
	}
	ix.postings[t] = append(u.p, ix.postings[t]...)
}

// unpacking is one packed list's decoding, from one chunk to the next.
type unpacking struct {
	r   reader
	d   int64   // the last document decoded
	p   []int32 // the documents decoded
	bad bool    // a gap out of order or past the documents read
}

// unpackChunk decodes the next n postings of u (see unpack); it stops at
// the first bad one, setting u.bad.
//
//go:noinline
func (ix *Index) unpackChunk(u *unpacking, n int) {
	for ; n > 0; n-- {
		gap := u.r.uvarint() // the first document, then the gap to the next
		u.d += int64(gap)
		if !u.r.ok || len(u.p) > 0 && gap == 0 || gap >= uint64(ix.packedDocs) || u.d >= int64(ix.packedDocs) {
			u.bad = true
			return
		}
		u.p = append(u.p, int32(u.d))
	}
}

// unpackAll decodes every packed list (Encode writes them all).
func (ix *Index) unpackAll() {
	for t := range ix.packed {
		ix.list(int32(t))
	}
}

// Damaged reports whether a list Decode left packed turned out not to be
// one (out of order, or naming a document it did not read): its term then
// found nothing. The bytes passed their check, so only a fault in
// writing them could do this; the caller builds its index afresh.
func (ix *Index) Damaged() bool { return ix.damaged }

// post adds document d to term t's postings once.
func (ix *Index) post(t, d int32) {
	if ix.last[t] == d {
		return
	}
	ix.last[t] = d
	ix.postings[t] = append(ix.postings[t], d)
}

func (ix *Index) newTerm(word string) int32 {
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
func (ix *Index) findWord(w []byte, h uint32) int {
	mask := len(ix.slots) - 1
	for i := int(h) & mask; ; i = (i + 1) & mask {
		t := ix.slots[i] - 1
		if t < 0 || (ix.hash[t] == h && ix.word[t] == string(w)) {
			return i
		}
	}
}

// lookupWord returns the term number of word w, or -1.
func (ix *Index) lookupWord(w []byte) int32 {
	return ix.slots[ix.findWord(w, fnv1a(w))] - 1
}

func (ix *Index) growSlots() {
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
func (ix *Index) wordTerm(w []byte) int32 {
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
	ix.byLenSig[n] = append(ix.byLenSig[n], ix.sig[t])
	r0, size := utf8.DecodeRuneInString(word)
	ix.first[r0] = append(ix.first[r0], t)
	if size < len(word) {
		r1, _ := utf8.DecodeRuneInString(word[size:])
		ix.pair[[2]rune{r0, r1}] = append(ix.pair[[2]rune{r0, r1}], t)
	}
	return t
}

// charTerm returns the term number of an unspaced character or pair.
func (ix *Index) charTerm(key uint64) int32 {
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

// runeSignature is signature of the word w, given as runes.
func runeSignature(w []rune) uint64 {
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

// SizeBytes estimates the memory the index holds, in bytes: postings,
// vocabulary, lookup tables and documents (map overhead approximated).
func (ix *Index) SizeBytes() int {
	n := 0
	for t, p := range ix.postings {
		n += cap(p)*4 + 24 + len(ix.word[t]) + 16 + 8 + 4 + 4
	}
	for _, pk := range ix.packed {
		n += len(pk.bytes) + 28
	}
	n += cap(ix.slots)*4 + cap(ix.hash)*4 + len(ix.chars)*24
	for i, l := range ix.byLen {
		n += cap(l)*4 + cap(ix.byLenSig[i])*8
	}
	n += (len(ix.first) + len(ix.pair)) * 48
	for _, l := range ix.first {
		n += cap(l) * 4
	}
	for _, l := range ix.pair {
		n += cap(l) * 4
	}
	n += cap(ix.docs)*24 + cap(ix.stamp)*4 + cap(ix.points)*8
	return n
}
