package core

import (
	"bytes"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/sessiontree/sessiontree/core/internal/search"
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
// The buffers are the session's text cache (see textCache) when the path
// holds at least half of it, so a context asked for again copies no text
// at all; otherwise the path's texts are copied out of the cache. The
// caller must not change any of the slices.
type ContextTexts struct {
	// Cursor and State are those of the context's Context.
	Cursor *string
	State  State
	// Roles are the distinct roles Rows index, as JSON string bodies
	// without escapes.
	Roles [][]byte
	// Other holds the messages that are not plain, in order, as stored.
	Other []RawMessage
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
}

// textCache holds the unescaped texts of a session's plain context
// messages (see ContextTexts), filled as contexts first reach their
// nodes. Nodes never change, so nothing in it is ever stale.
type textCache struct {
	id          uint64 // ContextTexts.Cache; 0 until first handed over
	ascii, wide []byte
	wideUnits   int32      // UTF-16 code units of wide
	roles       [][]byte   // distinct roles, as in ContextTexts.Rows
	spans       []textSpan // by node index; code 0: not cached yet
}

// textSpan is one node's entry in the cache: code is 1 + the row code of
// ContextTexts.Rows, or -1 for a message that is not plain; start and
// end are in UTF-16 code units of its buffer's decoded string, and
// from and to are its bytes in that buffer.
type textSpan struct{ code, start, end, from, to int32 }

// Texts lays the context out over its session's text cache, filling the
// cache for the path's messages not in it yet.
func (v ContextView) Texts() *ContextTexts {
	s, path := v.s, v.path
	tc := &s.texts
	if len(tc.spans) < len(s.nodes) {
		tc.spans = append(tc.spans, make([]textSpan, len(s.nodes)-len(tc.spans))...)
	}
	cols := &ContextTexts{Rows: make([]int32, 0, 3*len(path)+3)}
	var other []RawMessage
	pathUnits := 0
	grown := false
	s.contextNodes(path, func(i int32, n *Node) {
		sp := tc.spans[i]
		var msg RawMessage // built once per node (a summary's is built, not stored)
		if sp.code == 0 {
			if !grown {
				// Room for the texts not cached yet, made once: growing the
				// cache by append copied it over and over (85 MB allocated
				// for the first context of a 100,000-deep path, instead of
				// its 10.5 MB of text).
				tc.ascii = slices.Grow(tc.ascii, s.uncachedTextBytes(path))
				grown = true
			}
			msg = contextMessage(n)
			sp = tc.add(msg)
			tc.spans[i] = sp
		}
		if sp.code < 0 {
			if msg == nil {
				msg = contextMessage(n)
			}
			other = append(other, msg)
			cols.Rows = append(cols.Rows, -1, 0, 0)
			return
		}
		pathUnits += int(sp.end - sp.start)
		cols.Rows = append(cols.Rows, sp.code-1, sp.start, sp.end)
	})
	if 2*pathUnits >= len(tc.ascii)+int(tc.wideUnits) {
		// The path holds at least half of the cache: the cache itself.
		if tc.id == 0 {
			tc.id = textCacheIDs.Add(1)
		}
		cols.ASCII, cols.Wide, cols.Cache = tc.ascii, tc.wide, tc.id
	} else {
		// A copy of the path's texts, the rows' offsets moved to it.
		var wideUnits int32
		k := 0
		s.contextNodes(path, func(i int32, n *Node) {
			sp := tc.spans[i]
			switch {
			case sp.code < 0:
			case (sp.code-1)&2 == 0:
				start := int32(len(cols.ASCII))
				cols.ASCII = append(cols.ASCII, tc.ascii[sp.from:sp.to]...)
				cols.Rows[k+1], cols.Rows[k+2] = start, start+sp.end-sp.start
			default:
				cols.Wide = append(cols.Wide, tc.wide[sp.from:sp.to]...)
				cols.Rows[k+1], cols.Rows[k+2] = wideUnits, wideUnits+sp.end-sp.start
				wideUnits += sp.end - sp.start
			}
			k += 3
		})
	}

	cols.Cursor, cols.State, cols.Roles, cols.Other = v.cursor(), s.stateAt(path), tc.roles, other
	return cols
}

// uncachedTextBytes is the room, in bytes, the texts of path's context
// messages that are not in the cache yet take at most.
func (s *Session) uncachedTextBytes(path []int32) int {
	need := 0
	s.contextNodes(path, func(i int32, n *Node) {
		switch {
		case s.texts.spans[i].code != 0:
		case n.Kind == KindMessage:
			need += len(n.Message)
		default: // summaries and entries: rare, built to be measured
			need += len(contextMessage(n))
		}
	})
	return need
}

// textCacheIDs numbers text caches as they are first handed over
// (ContextTexts.Cache).
var textCacheIDs atomic.Uint64

// add puts the text of message m in the cache and returns its span.
func (tc *textCache) add(m RawMessage) textSpan {
	start := len(tc.ascii)
	tc.ascii = slices.Grow(tc.ascii, len(m)) // amortised: append's growth
	out, role, contentFirst, ascii, ok := appendPlainMessage(tc.ascii, m)
	if !ok {
		tc.ascii = tc.ascii[:start]
		return textSpan{code: -1}
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
		tc.ascii = out
		return textSpan{code: code + 1, start: int32(start), end: int32(len(out)), from: int32(start), to: int32(len(out))}
	}
	text := out[start:]
	if !jsonx.ValidUTF8(text) {
		// Only Store.Import through the Go API keeps bytes that are not
		// UTF-8; a decoder would replace them its own way, so the offsets
		// could not be known here. Such a message stays JSON.
		tc.ascii = out[:start]
		return textSpan{code: -1}
	}
	units := int32(search.UTF16Len(unsafe.String(unsafe.SliceData(text), len(text))))
	sp := textSpan{code: (code | 2) + 1, start: tc.wideUnits, end: tc.wideUnits + units, from: int32(len(tc.wide)), to: int32(len(tc.wide) + len(text))}
	tc.wide = append(tc.wide, text...)
	tc.wideUnits += units
	tc.ascii = out[:start]
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
func appendPlainMessage(b []byte, m RawMessage) (out, role []byte, contentFirst, ascii, ok bool) {
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
