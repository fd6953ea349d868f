package search

import (
	"encoding/binary"
	"errors"
	"math"
	"unicode/utf8"
)

// The index as bytes, kept by the caller (the JS shim: in IndexedDB) so a
// fresh page searches without reading every document again. Only the
// documents and the postings are written; the vocabulary's lookup tables
// are rebuilt on reading. Little-endian unsigned varints (LEB128, as
// encoding/binary's Uvarint) throughout:
//
//	docs    count, then per document: its owner, node and millis, each
//	        as the zig-zag difference from the document before's (0 for
//	        the first): a session's documents follow each other, so most
//	        take a byte each
//	terms   count, then per term: kind (0 a word: its length and UTF-8
//	        bytes; 1 an unspaced character or pair: its key), then its
//	        postings: count, first document, gaps to the next
//
// Dead documents, and terms only they held, are left out, so the documents are numbered afresh and
// the index read back holds as many documents as live ones were written
// (the rarity of a term counts them, as an index rebuilt from the live
// owners would).

// errCorrupt is the error of Decode for bytes that are not an index.
var errCorrupt = errors.New("search: the stored index is damaged")

// Encode appends the index to buf (see the comment above) and returns it.
// owner maps each owner to the key it is written under; 0 leaves its
// documents out (a session whose documents are not to be kept).
func (ix *Index) Encode(buf []byte, owner func(uint32) uint32) []byte {
	renum := make([]int32, len(ix.docs)) // old document → new number + 1, 0 when left out
	n := int32(0)
	for d, ref := range ix.docs {
		if ref.owner != 0 && owner(ref.owner) != 0 {
			n++
			renum[d] = n
		}
	}
	buf = binary.AppendUvarint(buf, uint64(n))
	var prev docRef
	for d, ref := range ix.docs {
		if renum[d] != 0 {
			o := owner(ref.owner)
			buf = appendZigzag(buf, int64(o)-int64(prev.owner))
			buf = appendZigzag(buf, int64(ref.node)-int64(prev.node))
			buf = appendZigzag(buf, ref.millis-prev.millis)
			prev = docRef{owner: o, node: ref.node, millis: ref.millis}
		}
	}
	ix.unpackAll()
	keys := make([]uint64, len(ix.postings))
	for key, t := range ix.chars {
		keys[t] = key
	}
	// A term none of the documents written holds is left out (an erased
	// session's words go with it).
	live := func(p []int32) bool {
		for _, d := range p {
			if renum[d] != 0 {
				return true
			}
		}
		return false
	}
	terms := 0
	for _, p := range ix.postings { // unpacked above
		if live(p) {
			terms++
		}
	}
	buf = binary.AppendUvarint(buf, uint64(terms))
	post := make([]int32, 0, 64)
	for t, p := range ix.postings {
		if !live(p) {
			continue
		}
		if w := ix.word[t]; w != "" {
			buf = append(buf, 0)
			buf = binary.AppendUvarint(buf, uint64(len(w)))
			buf = append(buf, w...)
		} else {
			buf = append(buf, 1)
			buf = binary.AppendUvarint(buf, keys[t])
		}
		post = post[:0]
		for _, d := range p {
			if renum[d] != 0 {
				post = append(post, renum[d]-1)
			}
		}
		buf = binary.AppendUvarint(buf, uint64(len(post)))
		prev := int32(0)
		for _, d := range post {
			buf = binary.AppendUvarint(buf, uint64(d-prev))
			prev = d
		}
	}
	return buf
}

// Decode reads an index Encode wrote, the documents of owners 1 … owners
// only. It fails, returning nil, on bytes that are not one (cut, damaged,
// an owner out of range): the caller builds its index afresh then. The
// postings stay packed in data (which the index keeps) until a query
// needs them; a list found out of order or out of range then reads as
// empty and the index reports itself Damaged.
func Decode(data []byte, owners uint32) (*Index, error) {
	r := reader{data: data, ok: true}
	ix := NewIndex()
	n := r.count(3) // a document is at least three bytes
	ix.docs = make([]docRef, 0, n)
	var sums docSums
	// Every loop in chunks, so that optimised code takes over (see loopChunk).
	for left := n; left > 0 && r.ok; left -= loopChunk {
		ix.decodeDocs(&r, min(left, loopChunk), owners, &sums)
	}
	ix.live = len(ix.docs)
	terms := r.count(3) // a term is at least three bytes
	for left := terms; left > 0 && r.ok; left -= loopChunk {
		ix.decodeTerms(&r, min(left, loopChunk))
	}
	ix.packedDocs = int32(len(ix.docs))
	if !r.ok || r.at != len(r.data) {
		return nil, errCorrupt
	}
	return ix, nil
}

// docSums is the document Decode read last: each member of the next is a
// zig-zag delta from it.
type docSums struct{ owner, node, millis int64 }

// decodeDocs reads the next n documents of Decode into ix.docs, from the
// sums of the one before. An owner out of 1 … owners or a node out of
// range stops r.
//
//go:noinline
func (ix *Index) decodeDocs(r *reader, n int, owners uint32, s *docSums) {
	for ; n > 0 && r.ok; n-- {
		s.owner += r.zigzag()
		s.node += r.zigzag()
		s.millis += r.zigzag()
		if s.owner <= 0 || s.owner > int64(owners) || s.node < 0 || s.node > math.MaxInt32 {
			r.ok = false
		}
		ix.docs = append(ix.docs, docRef{owner: uint32(s.owner), node: int32(s.node), millis: s.millis})
	}
}

// decodeTerms reads the next n terms of Decode: each a word (0, its
// length, its UTF-8 bytes) or a character key (1, a varint), then its
// postings, left packed. A repeated or empty term stops r.
//
//go:noinline
func (ix *Index) decodeTerms(r *reader, n int) {
	for ; n > 0 && r.ok; n-- {
		var term int32
		switch r.byte() {
		case 0:
			w := r.bytes(r.count(1))
			if len(w) == 0 || !utf8.Valid(w) || ix.lookupWord(w) >= 0 {
				r.ok = false
				continue
			}
			term = ix.wordTerm(w)
		case 1:
			key := r.uvarint()
			if _, dup := ix.chars[key]; dup {
				r.ok = false
				continue
			}
			term = ix.charTerm(key)
		default:
			r.ok = false
			continue
		}
		// Left packed until a query reaches the term (see Index.list): a
		// fresh page's first search reads the vocabulary and the documents,
		// not every posting (at 1,000,000 nodes most of the bytes).
		np := r.count(1)
		start := r.at
		for left := np; left > 0 && r.ok; left -= loopChunk {
			r.skip(min(left, loopChunk))
		}
		for len(ix.packed) <= int(term) {
			ix.packed = append(ix.packed, packedList{})
		}
		ix.packed[term] = packedList{bytes: r.data[start:r.at], n: int32(np)}
	}
}

// reader reads Encode's bytes; ok turns false at the first thing out of
// place, and every read after it gives zero values.
type reader struct {
	data []byte
	at   int
	ok   bool
}

func (r *reader) byte() byte {
	if !r.ok || r.at >= len(r.data) {
		r.ok = false
		return 0
	}
	r.at++
	return r.data[r.at-1]
}

// uvarint reads one varint; a value under 128 (one byte, as most are)
// inline. Once ok is false the values it reads no longer matter: every
// caller stops at it.
func (r *reader) uvarint() uint64 {
	if at := r.at; at < len(r.data) {
		if b := r.data[at]; b < 0x80 {
			r.at = at + 1
			return uint64(b)
		}
	}
	return r.longUvarint()
}

// skip moves past n varints: each ends at its first byte under 0x80.
// Called a chunk at a time (see loopChunk).
//
//go:noinline
func (r *reader) skip(n int) {
	for ; n > 0 && r.ok; n-- {
		for {
			if r.at >= len(r.data) {
				r.ok = false
				return
			}
			r.at++
			if r.data[r.at-1] < 0x80 {
				break
			}
		}
	}
}

// zigzag reads a signed varint in zig-zag form (see appendZigzag).
func (r *reader) zigzag() int64 {
	z := r.uvarint()
	return int64(z>>1) ^ -int64(z&1)
}

// appendZigzag appends v as a varint in zig-zag form (0, -1, 1, -2, … as
// 0, 1, 2, 3, …), as Protocol Buffers' sint64.
func appendZigzag(buf []byte, v int64) []byte {
	return binary.AppendUvarint(buf, uint64(v<<1^v>>63))
}

func (r *reader) longUvarint() uint64 {
	if !r.ok {
		return 0
	}
	v, n := binary.Uvarint(r.data[r.at:])
	if n <= 0 {
		r.ok = false
		return 0
	}
	r.at += n
	return v
}

// count reads a count of items of at least min bytes each, refusing one
// the bytes left cannot hold (so a damaged count never allocates).
func (r *reader) count(min int) int {
	v := r.uvarint()
	if v > uint64(len(r.data)-r.at)/uint64(min) {
		r.ok = false
		return 0
	}
	return int(v)
}

func (r *reader) bytes(n int) []byte {
	if !r.ok || n > len(r.data)-r.at {
		r.ok = false
		return nil
	}
	r.at += n
	return r.data[r.at-n : r.at]
}

// CheckOwners reports whether the documents are exactly nodes 0 …
// sizes[k]-1 of each owner k (1 ≤ k < len(sizes)), each once: what a
// caller that read an index back checks against its own table before it
// takes it, so no document names a node its owner does not have.
func (ix *Index) CheckOwners(sizes []int) bool {
	start := make([]int, len(sizes)+1) // owner k's nodes are seen[start[k] : start[k]+sizes[k]]
	for k := 1; k < len(sizes); k++ {
		if sizes[k] < 0 {
			return false
		}
		start[k+1] = start[k] + sizes[k]
	}
	if start[len(sizes)] != len(ix.docs) {
		return false
	}
	seen := make([]bool, len(ix.docs))
	for i := 0; i < len(ix.docs); i += loopChunk { // in chunks, so that optimised code takes over (see loopChunk)
		if !checkOwners(ix.docs[i:min(len(ix.docs), i+loopChunk)], sizes, start, seen) {
			return false
		}
	}
	return true
}

// checkOwners is CheckOwners for one chunk of the documents, marking each
// in seen (owner k's node i at start[k]+i).
//
//go:noinline
func checkOwners(docs []docRef, sizes, start []int, seen []bool) bool {
	for _, d := range docs {
		k := int(d.owner)
		if k < 1 || k >= len(sizes) || int(d.node) >= sizes[k] || seen[start[k]+int(d.node)] {
			return false
		}
		seen[start[k]+int(d.node)] = true
	}
	return true
}

// Revision changes whenever documents are added or die: a caller that
// kept the index's bytes at one revision keeps them again only past it.
func (ix *Index) Revision() int { return len(ix.docs) + ix.dead }

// DropOwners makes dead, in one pass, the documents of every owner drop
// reports true for (a session whose stored documents are not current).
func (ix *Index) DropOwners(drop func(owner uint32) bool) {
	for i := 0; i < len(ix.docs); i += loopChunk { // in chunks, so that optimised code takes over (see loopChunk)
		n := dropOwners(ix.docs[i:min(len(ix.docs), i+loopChunk)], drop)
		ix.live -= n
		ix.dead += n
	}
}

// dropOwners is DropOwners for one chunk of the documents; it returns how
// many it made dead.
//
//go:noinline
func dropOwners(docs []docRef, drop func(owner uint32) bool) int {
	n := 0
	for d := range docs {
		if o := docs[d].owner; o != 0 && drop(o) {
			docs[d].owner = 0
			n++
		}
	}
	return n
}
