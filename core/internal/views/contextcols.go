package views

import (
	"bytes"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/sessiontree/sessiontree/core/internal/formats"
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/sessiontree/sessiontree/core/internal/search"
	"github.com/sessiontree/sessiontree/core/internal/tree"
)

// ContextTexts is a context laid out for a caller that builds the
// messages array itself instead of parsing JSON: the JS shim, whose
// call({operation: "context"}) spent most of its time in JSON.parse of a
// 13.6 MB answer for a 100,000-deep path (and the GC of 100,000 separate
// strings). Package core/wire writes it as the binding's columns answer.
// The text of every plain message — exactly
// {"role":"…","content":"…"} or {"content":"…","role":"…"}, both strings,
// no other member — is in one of two byte buffers, unescaped; the caller
// decodes each buffer once (TextDecoder) and slices the contents out. A
// buffer all ASCII decodes to a string of one byte a character, several
// times faster than UTF-8 with a few accents in it, so contents with any
// non-ASCII character go to the second buffer. Every other message (more
// members, non-string content, a lone surrogate escape) stays JSON in
// Other.
//
// The buffers are the session's text cache (see TextCache) when the path
// holds at least half of it, so a context asked for again copies no text
// at all; otherwise the path's texts are copied out of the cache. The
// caller must not change any of the slices.
type ContextTexts struct {
	// Cursor and State are those of the context's Context.
	Cursor *string
	State  tree.State
	// Roles are the distinct roles Rows index, as JSON string bodies
	// without escapes.
	Roles [][]byte
	// Other holds the messages that are not plain, in order, as stored.
	Other []tree.RawMessage
	// ASCII holds texts that are all ASCII; Wide the others, as UTF-8.
	ASCII, Wide []byte
	// Cache is not 0 when ASCII and Wide are a session's text cache
	// itself, and then names it: the cache only grows (bytes are appended,
	// never changed), so a caller may keep what it decoded of it and
	// decode only what was added since. A new session (load, restore,
	// import, fork, clone) has a new cache.
	Cache uint64
	// Rows holds three int32 per message, in order. For a message in
	// Other: -1, 0, 0. For a plain message: role<<2 | wide<<1 |
	// contentFirst, then the start and end of its text in its buffer's
	// decoded string, in UTF-16 code units: role indexes Roles, wide is 1
	// when the text is in Wide, and contentFirst is 1 when "content" came
	// before "role" (so the object built keeps the stored key order).
	Rows []int32
	// Layout is not 0 when the context is laid out over the cache itself
	// (Cache is not 0), and then numbers this layout of it (1, 2, … in
	// each cache, so Cache and Layout name it store-wide). Base names the
	// layout it continues (0 for none): that layout's path is a prefix of
	// this one, so the first Prefix messages of this context are its
	// messages, and the first OtherPrefix of Other its Other. A caller
	// that kept the messages it built from layout Base needs only what
	// follows (package core/wire hands over only that then): a chat turn
	// on a 100,000-deep path moves three rows instead of 300,000.
	Layout, Base        uint64
	Prefix, OtherPrefix int
}

// TextCache holds the unescaped texts of a session's plain context
// messages (see ContextTexts), filled as contexts first reach their
// nodes. Nodes never change, so nothing in it is ever stale.
type TextCache struct {
	id          uint64 // ContextTexts.Cache; 0 until first handed over
	Ascii, Wide []byte
	wideUnits   int32      // UTF-16 code units of wide
	roles       [][]byte   // distinct roles, as in ContextTexts.Rows
	spans       []TextSpan // by node index; code 0: not cached yet
	Last        textsMemo  // the last context laid out over the cache itself
	layouts     uint64     // the layouts kept as last so far (ContextTexts.Layout)
}

// TextSpan is one node's entry in the cache: code is 1 + the row code of
// ContextTexts.Rows, or -1 for a message that is not plain; start and
// end are in UTF-16 code units of its buffer's decoded string, and
// from and to are its bytes in that buffer.
type TextSpan struct{ Code, Start, End, From, To int32 }

// textsMemo is the last context Texts laid out over the text cache itself,
// kept so that the next one along the same path handles only the nodes
// the path gained: a chat turn (append, then context) on a 100,000-deep
// path walked every node four times (3.2 ms natively) for three new rows.
// Nodes never change, so the rows of a path stay its rows; a compaction
// on the added part changes what the earlier nodes give, so it is laid
// out whole again.
type textsMemo struct {
	Depth int32 // the path's length; 0: no memo
	Last  int32 // the path's last node
	rows  []int32
	other []tree.RawMessage
	units int // UTF-16 code units of the path's plain texts
	state tree.State
	id    uint64 // ContextTexts.Layout
}

// textsLayout is a context's rows before the buffers are chosen.
type textsLayout struct {
	rows  []int32
	other []tree.RawMessage
	units int
	state tree.State
	base  uint64 // the memo's id when the layout continues it, else 0
	// prefix and otherPrefix are the memo's message and Other counts
	// when base is not 0.
	prefix, otherPrefix int
}

// ContextView is what the context operation answers (Answer.Value) before
// it is encoded: the session's context at its cursor (View) with the text
// cache the views keep for the session (Caches), which Texts lays it out
// over.
type ContextView struct {
	tree.View
	// TextCache is the session's text cache (see Caches); nil in a
	// view made for its Context alone.
	TextCache *TextCache
}

// Texts lays the context out over its session's text cache (filling the
// cache for the path's messages not in it yet): the columns core/wire
// answers context in.
func (v ContextView) Texts() *ContextTexts {
	s, path, tc := v.Session, v.Path, v.TextCache
	if tc == nil {
		tc = &TextCache{} // a view no store keeps a cache for: laid out afresh
	}
	if len(tc.spans) < len(s.Nodes) {
		tc.spans = append(tc.spans, make([]TextSpan, len(s.Nodes)-len(tc.spans))...)
	}
	lay, ok := textsAfterMemo(s, tc, path)
	if !ok {
		lay = textsLayout{rows: make([]int32, 0, 3*len(path)+3), state: s.StateAt(path)}
		addTextRows(s, tc, &lay, path, path)
	}
	cols := &ContextTexts{Cursor: v.Cursor(), State: lay.state, Roles: tc.roles, Other: lay.other, Rows: lay.rows}
	if 2*lay.units >= len(tc.Ascii)+int(tc.wideUnits) {
		// The path holds at least half of the cache: the cache itself.
		if tc.id == 0 {
			tc.id = textCacheIDs.Add(1)
		}
		cols.ASCII, cols.Wide, cols.Cache = tc.Ascii, tc.Wide, tc.id
		tc.layouts++
		id := tc.layouts
		cols.Layout, cols.Base, cols.Prefix, cols.OtherPrefix = id, lay.base, lay.prefix, lay.otherPrefix
		tc.Last = textsMemo{Depth: int32(len(path)), rows: lay.rows, other: lay.other, units: lay.units, state: lay.state, id: id}
		if len(path) > 0 {
			tc.Last.Last = path[len(path)-1]
		}
		return cols
	}
	// A copy of the path's texts, the rows' offsets moved to it (a new
	// slice: the memo's rows are the cache's offsets).
	cols.Rows = slices.Clone(lay.rows)
	var wideUnits int32
	k := 0
	s.ContextNodes(path, func(i int32, n *tree.Node) {
		sp := tc.spans[i]
		switch {
		case sp.Code < 0:
		case (sp.Code-1)&2 == 0:
			start := int32(len(cols.ASCII))
			cols.ASCII = append(cols.ASCII, tc.Ascii[sp.From:sp.To]...)
			cols.Rows[k+1], cols.Rows[k+2] = start, start+sp.End-sp.Start
		default:
			cols.Wide = append(cols.Wide, tc.Wide[sp.From:sp.To]...)
			cols.Rows[k+1], cols.Rows[k+2] = wideUnits, wideUnits+sp.End-sp.Start
			wideUnits += sp.End - sp.Start
		}
		k += 3
	})
	return cols
}

// textsAfterMemo lays out path from the memo of the last context when
// that context's path is a prefix of path and the nodes after it hold no
// compaction; ok is false otherwise. The memo's rows are appended to in
// place (a copy of 1.2 MB per turn at 100,000 deep): a caller holding the
// last answer holds a slice of its own length, and no row before the end
// of the memo is ever written again (a layout that does not continue the
// memo starts new rows; one that continues it but is not kept as the memo
// is a copy, see Texts). Other is copied when appended to.
func textsAfterMemo(s *tree.Session, tc *TextCache, path []int32) (lay textsLayout, ok bool) {
	m := &tc.Last
	if m.Depth == 0 || int(m.Depth) > len(path) || path[m.Depth-1] != m.Last {
		return lay, false
	}
	added := path[m.Depth:]
	for _, i := range added {
		if s.Nodes[i].Kind == formats.KindCompaction {
			return lay, false
		}
	}
	lay = textsLayout{
		rows:        m.rows,
		other:       slices.Clip(m.other),
		units:       m.units,
		state:       m.state,
		base:        m.id,
		prefix:      len(m.rows) / 3,
		otherPrefix: len(m.other),
	}
	for _, i := range added {
		lay.state.Apply(s.Nodes[i].Kind, s.Nodes[i].Entry)
	}
	addTextRows(s, tc, &lay, path, added)
	return lay, true
}

// addTextRows appends to lay the rows of the context messages of nodes, a
// part of path (its end, or all of it), filling the text cache for those
// not in it yet.
func addTextRows(s *tree.Session, tc *TextCache, lay *textsLayout, path, nodes []int32) {
	grown := false
	add := func(i int32, n *tree.Node) {
		sp := tc.spans[i]
		var msg tree.RawMessage // built once per node (a summary's is built, not stored)
		if sp.Code == 0 {
			if !grown {
				// Room for the texts not cached yet, made once: growing the
				// cache by append copied it over and over (85 MB allocated
				// for the first context of a 100,000-deep path, instead of
				// its 10.5 MB of text).
				tc.Ascii = slices.Grow(tc.Ascii, uncachedTextBytes(s, tc, nodes, len(nodes) == len(path)))
				grown = true
			}
			msg = tree.ContextMessage(n)
			sp = tc.Add(msg)
			tc.spans[i] = sp
		}
		if sp.Code < 0 {
			if msg == nil {
				msg = tree.ContextMessage(n)
			}
			lay.other = append(lay.other, msg)
			lay.rows = append(lay.rows, -1, 0, 0)
			return
		}
		lay.units += int(sp.End - sp.Start)
		lay.rows = append(lay.rows, sp.Code-1, sp.Start, sp.End)
	}
	if len(nodes) == len(path) {
		s.ContextNodes(path, add)
		return
	}
	for _, i := range nodes { // no compaction among them (textsAfterMemo)
		if tree.ContextKind(s.Nodes[i].Kind) {
			add(i, s.Nodes[i])
		}
	}
}

// uncachedTextBytes is the room, in bytes, the texts of the context
// messages of nodes that are not in the cache yet take at most; nodes is
// a whole path (whole) or the compaction-free end of one.
func uncachedTextBytes(s *tree.Session, tc *TextCache, nodes []int32, whole bool) int {
	need := 0
	count := func(i int32, n *tree.Node) {
		switch {
		case tc.spans[i].Code != 0:
		case n.Kind == formats.KindMessage:
			need += len(n.Message)
		default: // summaries and entries: rare, built to be measured
			need += len(tree.ContextMessage(n))
		}
	}
	if whole {
		s.ContextNodes(nodes, count)
		return need
	}
	for _, i := range nodes {
		if tree.ContextKind(s.Nodes[i].Kind) {
			count(i, s.Nodes[i])
		}
	}
	return need
}

// textCacheIDs numbers text caches as they are first handed over
// (ContextTexts.Cache).
var textCacheIDs atomic.Uint64

// Add puts the text of message m in the cache and returns its span.
func (tc *TextCache) Add(m tree.RawMessage) TextSpan {
	start := len(tc.Ascii)
	tc.Ascii = slices.Grow(tc.Ascii, len(m)) // amortised: append's growth
	out, role, contentFirst, ascii, ok := appendPlainMessage(tc.Ascii, m)
	if !ok {
		tc.Ascii = tc.Ascii[:start]
		return TextSpan{Code: -1}
	}
	r := -1
	for k, known := range tc.roles {
		if bytes.Equal(known, role) {
			r = k
			break
		}
	}
	if r < 0 {
		r = len(tc.roles)
		tc.roles = append(tc.roles, bytes.Clone(role))
	}
	code := int32(r) << 2
	if contentFirst {
		code |= 1
	}
	if ascii {
		tc.Ascii = out
		return TextSpan{Code: code + 1, Start: int32(start), End: int32(len(out)), From: int32(start), To: int32(len(out))}
	}
	text := out[start:]
	if !jsonx.ValidUTF8(text) {
		// Only Store.Import through the Go API keeps bytes that are not
		// UTF-8; a decoder would replace them its own way, so the offsets
		// could not be known here. Such a message stays JSON.
		tc.Ascii = out[:start]
		return TextSpan{Code: -1}
	}
	units := int32(search.UTF16Len(unsafe.String(unsafe.SliceData(text), len(text))))
	sp := TextSpan{Code: (code | 2) + 1, Start: tc.wideUnits, End: tc.wideUnits + units, From: int32(len(tc.Wide)), To: int32(len(tc.Wide) + len(text))}
	tc.Wide = append(tc.Wide, text...)
	tc.wideUnits += units
	tc.Ascii = out[:start]
	return sp
}

const (
	roleKey        = `"role":"`
	contentKey     = `"content":"`
	thenRoleKey    = `,"role":"`
	thenContentKey = `,"content":"`
)

// appendPlainMessage reads a stored message (compact JSON) of exactly the
// form {"role":"…","content":"…"} or {"content":"…","role":"…"}: it
// appends the content's text to b, which must have room for len(m) more
// bytes, and returns the role's body (a role with escapes is not plain),
// whether content came first, and whether the text is all ASCII. ok is
// false for any other form, with b's content past its length unspecified.
func appendPlainMessage(b []byte, m tree.RawMessage) (out, role []byte, contentFirst, ascii, ok bool) {
	if len(m) < 2 || m[0] != '{' || m[len(m)-1] != '}' {
		return b, nil, false, false, false
	}
	rest := []byte(m[1 : len(m)-1])
	switch {
	case bytes.HasPrefix(rest, []byte(roleKey)):
		if role, rest, ok = roleBody(rest[len(roleKey):]); !ok || !bytes.HasPrefix(rest, []byte(thenContentKey)) {
			return b, nil, false, false, false
		}
		b, rest, ascii, ok = jsonx.AppendStringBody(b, rest[len(thenContentKey):])
	case bytes.HasPrefix(rest, []byte(contentKey)):
		contentFirst = true
		if b, rest, ascii, ok = jsonx.AppendStringBody(b, rest[len(contentKey):]); !ok || !bytes.HasPrefix(rest, []byte(thenRoleKey)) {
			return b, nil, false, false, false
		}
		role, rest, ok = roleBody(rest[len(thenRoleKey):])
	}
	if !ok || len(rest) != 0 {
		return b, nil, false, false, false
	}
	return b, role, contentFirst, ascii, true
}

// roleBody reads a JSON string body without escapes from the start of s
// (just after its opening quote) and returns it and what follows its
// closing quote.
func roleBody(s []byte) (body, rest []byte, ok bool) {
	i := jsonx.PlainRun(s, 0)
	if i >= len(s) || s[i] != '"' {
		return nil, nil, false
	}
	return s[:i], s[i+1:], true
}
