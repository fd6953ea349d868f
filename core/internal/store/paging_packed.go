package store

import (
	"encoding/binary"
	"unicode/utf8"

	"github.com/sessiontree/sessiontree/core/internal/tree"
)

// The packed form of page.stub's summaries, what the JS shim sends at
// start-up (js/store/pager.js packStubs) through the handle's pageStub:
// at 10,000 stored sessions the JSON request is 1.8 MB that a fresh wasm,
// its code not yet optimised, read in about 110 ms; the packed form is read
// without a scan. Numbers are little-endian uint32; a string is its length
// in bytes (uint32) then its UTF-8 bytes.
//
//	count
//	count × { nodeCount, flags (1 byte: StubHas… bits),
//	          sessionId, title?, createdAt, updatedAt, cursor?, activeBranch?,
//	          tool, project, [source: sessionId, nodeId?, via] }
//
// A member marked absent in flags is not written. A nodeCount of
// 0xFFFFFFFF stands for one the shim could not write (negative, not an
// integer): refused as page.stub refuses a negative one.

// The flags bits of a packed summary: which optional members follow.
const (
	StubHasTitle        = 1 << 0
	StubHasCursor       = 1 << 1
	StubHasActiveBranch = 1 << 2
	StubHasSource       = 1 << 3
	StubHasSourceNodeID = 1 << 4
)

// PageStubPacked is page.stub (see opPageStub) for summaries in the packed
// form above: it adds or updates the stubs in the order given and returns
// how many stubs the store holds. It fails with InvalidArgument, changing
// nothing, when data is cut short, holds bytes after its last summary, a
// string that is not UTF-8, a summary without a sessionId or with a bad
// nodeCount; the message names the summary and the byte.
func (st *Store) PageStubPacked(data []byte) (int, error) {
	list, err := readPackedStubs(data)
	if err == nil {
		var n int
		if n, err = st.PageStubOf(list); err == nil {
			return n, nil
		}
	}
	return 0, err
}

// packedReader reads the packed form: its strings are substrings of one
// copy of the data (text), made once.
type packedReader struct {
	data []byte
	text string
	pos  int
	bad  string // what was wrong first, "" while all is well
}

func (p *packedReader) uint32() uint32 {
	if p.bad != "" || len(p.data)-p.pos < 4 {
		p.fail("cut short")
		return 0
	}
	v := binary.LittleEndian.Uint32(p.data[p.pos:])
	p.pos += 4
	return v
}

func (p *packedReader) byte() byte {
	if p.bad != "" || p.pos >= len(p.data) {
		p.fail("cut short")
		return 0
	}
	p.pos++
	return p.data[p.pos-1]
}

func (p *packedReader) string() string {
	n := p.uint32()
	if p.bad != "" || uint64(n) > uint64(len(p.data)-p.pos) {
		p.fail("cut short")
		return ""
	}
	s := p.text[p.pos : p.pos+int(n)]
	if !utf8.ValidString(s) {
		p.fail("a string that is not UTF-8")
		return ""
	}
	p.pos += int(n)
	return s
}

func (p *packedReader) fail(what string) {
	if p.bad == "" {
		p.bad = what
	}
}

// readPackedStubs reads the packed summaries of data.
func readPackedStubs(data []byte) ([]StubEntry, *tree.Error) {
	p := &packedReader{data: data, text: string(data)}
	count := p.uint32()
	if p.bad == "" && uint64(count) > uint64(len(data))/25 { // a summary takes at least 25 bytes
		return nil, tree.Invalidf("page.stub: %d packed summaries cannot fit in %d bytes", count, len(data))
	}
	list := make([]StubEntry, count)
	for i := 0; i < len(list); i += startChunk { // in chunks, so that optimised code takes over (see startChunk)
		if err := p.stubs(list[i:min(len(list), i+startChunk)], i); err != nil {
			return nil, err
		}
	}
	if p.bad != "" {
		return nil, tree.Invalidf("page.stub: the packed summaries are %s", p.bad)
	}
	if p.pos != len(data) {
		return nil, tree.Invalidf("page.stub: %d bytes follow the last packed summary", len(data)-p.pos)
	}
	return list, nil
}

// stubs reads the next len(list) packed summaries into list, the first
// of them summary number first.
//
//go:noinline
func (p *packedReader) stubs(list []StubEntry, first int) *tree.Error {
	for i := range list {
		e := &list[i]
		start := p.pos
		nodes := p.uint32()
		flags := p.byte()
		e.SessionID = p.string()
		if flags&StubHasTitle != 0 {
			e.Title, e.Has = p.string(), e.Has|HasTitle
		}
		e.CreatedAt, e.UpdatedAt = p.string(), p.string()
		if flags&StubHasCursor != 0 {
			e.Cursor, e.Has = p.string(), e.Has|HasCursor
		}
		if flags&StubHasActiveBranch != 0 {
			e.ActiveBranch, e.Has = p.string(), e.Has|HasActiveBranch
		}
		e.Tool, e.Project = p.string(), p.string()
		if flags&StubHasSource != 0 {
			e.Source = &tree.StubSource{SessionID: p.string()}
			if flags&StubHasSourceNodeID != 0 {
				id := p.string()
				e.Source.NodeID = &id
			}
			e.Source.Via = p.string()
		}
		if p.bad != "" {
			return tree.Invalidf("page.stub: packed summary %d (from byte %d) is %s", first+i, start, p.bad)
		}
		if nodes == 0xFFFFFFFF {
			e.NodeCount = -1 // refused by PageStubOf, as a negative nodeCount
		} else {
			e.NodeCount = int(nodes)
		}
	}
	return nil
}
