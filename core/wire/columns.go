package wire

import (
	"slices"
	"strconv"

	"github.com/sessiontree/sessiontree/core"
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// Columns is a context answered in columns (see core.ContextTexts, whose
// buffers and rows it hands over as they are).
type Columns struct {
	// Head is JSON: {"cursor":…,"state":…,"count":n,"roles":[…],
	// "other":[…],"layout":l,"prefix":p}. count is the number of
	// messages, roles the roles Rows index, other the messages that are
	// not plain, in order, as stored; layout is core.ContextTexts.Layout
	// (0: not kept). prefix is 0, or the number of messages the caller
	// already holds: those of the layout it named as held that this one
	// continues (core.ContextTexts.Base), and then Rows and other hold
	// only the messages after them. It is escaped to ASCII as CallParsed
	// escapes a large answer.
	Head []byte
	// ASCII, Wide, Cache and Rows are core.ContextTexts': the texts all
	// ASCII and the others (UTF-8), the text cache's id (0 for a copy),
	// and three int32 per message.
	ASCII, Wide []byte
	Cache       uint64
	Rows        []int32
}

// Layout names a context laid out over a text cache: its Columns' cache
// and layout.
type Layout struct{ Cache, Layout uint64 }

// CallColumns is CallParsed for a caller that builds a context's messages
// array itself (the JS shim's call through the binding's context): when
// req is a context request that succeeds, it answers the value as Columns
// and out is nil; any other request, and any error, gets CallParsed's
// envelope and cols nil. The same request gives the same value either
// way. held names the layouts whose messages the caller kept, at most a
// few: when the context continues one of them, only the messages after it
// are handed over (Head's prefix).
func CallColumns(st *core.Store, req []byte, held ...Layout) (out []byte, cols *Columns) {
	a := st.Run(req)
	if v, ok := a.Value.(core.ContextView); ok && a.Err == nil {
		t := v.Texts()
		prefix := 0
		if t.Base != 0 && slices.Contains(held, Layout{t.Cache, t.Base}) {
			prefix = t.Prefix
			trimmed := *t
			trimmed.Rows, trimmed.Other = t.Rows[3*t.Prefix:], t.Other[t.OtherPrefix:]
			t = &trimmed
		}
		return nil, columnsOf(t, prefix)
	}
	return Parsed(a), nil
}

// columnsOf writes t's head and hands over its buffers; t's Rows and
// Other are those after the first prefix messages.
func columnsOf(t *core.ContextTexts, prefix int) *Columns {
	h := append(make([]byte, 0, 256), `{"cursor":`...)
	h = appendCursor(h, t.Cursor)
	h = append(h, `,"state":`...)
	h = t.State.AppendJSON(h)
	h = append(h, `,"count":`...)
	h = jsonx.AppendInt(h, prefix+len(t.Rows)/3)
	h = append(h, `,"roles":[`...)
	for k, role := range t.Roles {
		if k > 0 {
			h = append(h, ',')
		}
		h = append(h, '"')
		h = append(h, role...)
		h = append(h, '"')
	}
	h = append(h, `],"other":[`...)
	for k, m := range t.Other {
		if k > 0 {
			h = append(h, ',')
		}
		h = append(h, m...)
	}
	h = append(h, `],"layout":`...)
	h = strconv.AppendUint(h, t.Layout, 10)
	h = append(h, `,"prefix":`...)
	h = jsonx.AppendInt(h, prefix)
	h = append(h, '}')
	return &Columns{Head: asciiIfLarge(h), ASCII: t.ASCII, Wide: t.Wide, Cache: t.Cache, Rows: t.Rows}
}
