package store

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"time"
	"unicode/utf8"

	"github.com/sessiontree/sessiontree/core/internal/search"
	"github.com/sessiontree/sessiontree/core/internal/tree"
)

// The search index kept between pages. SearchIndexBytes writes the
// documents of every session the index holds in full and current, under a
// table naming each session; the JS shim keeps the bytes in IndexedDB and
// hands them to LoadSearchIndex in a fresh page before its first search
// across every session, which then loads only the sessions its hits show
// (see SearchIndex.retain) instead of every stored session. The bytes are
// a cache: a session whose stored copy changed since (grown, relabelled,
// replaced, deleted) is left out on reading and loaded by the search as
// one never indexed.
//
//	"STSX" 3
//	sessions  count, then per session: id, node count, updatedAt (each
//	          string as its byte length and UTF-8 bytes), digest
//	          (searchOwner.sum) — owner keys 1, 2, … in this order
//	index     search.Index.Encode
//	check     CRC-32 (IEEE) of every byte before it, 4 bytes little-endian
//
// Numbers are unsigned LEB128 varints. The check refuses bytes damaged
// where they still read as an index (a letter of a word changed): the
// documents of a paged-out session are taken on its node count and
// updatedAt alone, and would answer for it unchecked until its hits load
// it. Format 1 had no check; format 2 wrote each document's owner, node
// and millis whole (three times the bytes).

// searchMagic starts the bytes of SearchIndexBytes (format 3).
const searchMagic = "STSX\x03"

// errSearchBytes is LoadSearchIndex's error for bytes that are not a
// search index of this format.
var errSearchBytes = errors.New("the stored search index is damaged or of another version; it is built again")

// Keeping the index again: the whole of it is written each time (at
// 1,000,000 nodes some tens of megabytes), so a chat's turns do not each
// rewrite it. What changed since is not lost meanwhile: a session stored
// since the bytes were kept is left out of them on reading and loaded.
const (
	// KeepSearchShare: kept again once the documents added or dropped since
	// reach this share of the index (1/KeepSearchShare of its documents)…
	KeepSearchShare = 16
	// KeepSearchEvery: …or once this long passed with any change.
	KeepSearchEvery = 10 * time.Minute
)

// SearchIndexBytes returns the search index as bytes to keep (see the file
// comment), or nil when there is no index, the index does not yet hold
// every session (WarmSearch has not finished, or a paged-out session's
// documents are not in it as it is stored: the bytes would leave the rest
// out, and written over those an earlier page kept, a fresh page's index
// of the few sessions it opened would make the next page load every
// session), or it changed too little since the bytes it last returned or
// LoadSearchIndex took (see KeepSearchShare); a session removed (deleted,
// erased, dropped by another tab) makes it keep them again, without its
// words.
func (st *Store) SearchIndexBytes() []byte {
	if st.Index.Docs == nil || !st.WarmSearch(0) {
		return nil
	}
	sx := &st.Index
	for _, id := range st.pagedIDs() {
		if !sx.current(st.ByID[id]) {
			return nil
		}
	}
	if sx.kept == sx.Docs {
		changed := sx.Docs.Revision() - sx.keptRev
		if changed == 0 || changed*KeepSearchShare < sx.Docs.LiveDocs() && st.now().Sub(sx.keptAt) < KeepSearchEvery {
			return nil
		}
	}
	sx.kept, sx.keptRev, sx.keptAt = sx.Docs, sx.Docs.Revision(), st.now()
	keys := make([]uint32, len(sx.Owners))
	table := []byte(searchMagic)
	var n uint32
	var entries []byte
	for k, o := range sx.Owners {
		if o == nil || st.ByID[o.Session.ID()] != o.Session {
			continue
		}
		s, at := o.Session, o.at
		if s.Paged == nil {
			if !o.attached || o.Indexed != len(s.Nodes) || o.notes != len(s.Annotations) {
				continue
			}
			if o.stale {
				o.sum, o.stale = sumOf(s, o.Indexed), false
			}
			at = s.UpdatedAt
		} else if !sx.current(s) {
			continue
		}
		n++
		keys[k] = n
		entries = appendString(entries, s.ID())
		entries = binary.AppendUvarint(entries, uint64(o.Indexed))
		entries = appendString(entries, at)
		entries = binary.AppendUvarint(entries, o.sum)
	}
	table = binary.AppendUvarint(table, uint64(n))
	table = append(table, entries...)
	out := sx.Docs.Encode(table, func(k uint32) uint32 { return keys[k] })
	return binary.LittleEndian.AppendUint32(out, checksum(out))
}

// savedSession is one session of the table of SearchIndexBytes.
type savedSession struct {
	id, at  string
	indexed int
	sum     uint64
}

// LoadSearchIndex replaces the store's search index with the one of bytes
// SearchIndexBytes wrote (in this page or another), and returns how many
// sessions it took the documents of: those still as they were (a stub
// with the node count and updatedAt written, a session in memory whose
// first nodes give the digest written); the others' documents are dropped
// and those sessions are indexed as new ones (the shim calls it before a
// page's first search across every session, when at most the few sessions
// opened so far are indexed). Bytes that are not such an index fail with
// an error, the store unchanged.
func (st *Store) LoadSearchIndex(data []byte) (int, error) {
	end := len(data) - 4
	if end < len(searchMagic) || checksum(data[:end]) != binary.LittleEndian.Uint32(data[end:]) {
		return 0, errSearchBytes
	}
	table, rest, ok := readSearchTable(data[:end])
	if !ok {
		return 0, errSearchBytes
	}
	ix, err := search.Decode(rest, uint32(len(table)))
	sizes := make([]int, len(table)+1)
	for i, e := range table {
		sizes[i+1] = e.indexed
	}
	if err != nil || !ix.CheckOwners(sizes) {
		return 0, errSearchBytes
	}
	sx := SearchIndex{Docs: ix, Owners: make([]*searchOwner, len(table)+1), Of: make(map[*tree.Session]*searchOwner, len(table))}
	for i, e := range table {
		s := st.ByID[e.id]
		if s == nil || sx.Of[s] != nil {
			continue
		}
		o := &searchOwner{Session: s, Key: uint32(i + 1), Indexed: e.indexed, attached: true, sum: e.sum}
		if s.Paged != nil {
			if e.indexed != s.Paged.NodeCount || e.at != s.UpdatedAt {
				continue
			}
			o.at = e.at
		} else {
			if e.indexed > len(s.Nodes) || sumOf(s, e.indexed) != e.sum {
				continue
			}
			o.notes = len(s.Annotations)
		}
		sx.Owners[o.Key] = o
		sx.Of[s] = o
	}
	ix.DropOwners(func(k uint32) bool { return sx.Owners[k] == nil })
	sx.kept, sx.keptRev, sx.keptAt = ix, ix.Revision(), st.now()
	st.Index = sx
	return len(sx.Of), nil
}

// crcChunk is the most bytes one call of crc32 reads in checksum.
const crcChunk = 64 << 10

// checksum is crc32.ChecksumIEEE(data), computed crcChunk bytes a call,
// so that a kept index of 1,000,000 nodes (11 MB, read at a page's first
// search) is not checked wholly in baseline code (see startChunk).
func checksum(data []byte) uint32 {
	var c uint32
	for len(data) > 0 {
		n := min(len(data), crcChunk)
		c = crc32.Update(c, crc32.IEEETable, data[:n])
		data = data[n:]
	}
	return c
}

// readSearchTable reads the magic and the session table of
// SearchIndexBytes, returning the rest (the index).
func readSearchTable(data []byte) (table []savedSession, rest []byte, ok bool) {
	if len(data) < len(searchMagic) || string(data[:len(searchMagic)]) != searchMagic {
		return nil, nil, false
	}
	data = data[len(searchMagic):]
	n, data, ok := readUvarint(data)
	if !ok || n > uint64(len(data))/4 { // an entry is at least four bytes
		return nil, nil, false
	}
	table = make([]savedSession, n)
	for i := range table {
		e := &table[i]
		var indexed uint64
		if e.id, data, ok = readString(data); !ok || e.id == "" {
			return nil, nil, false
		}
		if indexed, data, ok = readUvarint(data); !ok || indexed > 1<<31 {
			return nil, nil, false
		}
		e.indexed = int(indexed)
		if e.at, data, ok = readString(data); !ok {
			return nil, nil, false
		}
		if e.sum, data, ok = readUvarint(data); !ok {
			return nil, nil, false
		}
	}
	return table, data, true
}

// appendString appends s as its byte length (a varint) and its bytes.
func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// readUvarint reads an unsigned LEB128 varint (binary.Uvarint) off the front of b.
func readUvarint(b []byte) (uint64, []byte, bool) {
	v, n := binary.Uvarint(b)
	if n <= 0 {
		return 0, nil, false
	}
	return v, b[n:], true
}

// readString reads a string appendString wrote (valid UTF-8 only).
func readString(b []byte) (string, []byte, bool) {
	n, b, ok := readUvarint(b)
	if !ok || n > uint64(len(b)) || !utf8.Valid(b[:n]) {
		return "", nil, false
	}
	return string(b[:n]), b[n:], true
}
