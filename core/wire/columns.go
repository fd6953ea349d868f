package wire

import (
	"github.com/sessiontree/sessiontree/core"
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// Columns is a context answered in columns (see core.ContextTexts, whose
// buffers and rows it hands over as they are).
type Columns struct {
	// Head is JSON: {"cursor":…,"state":…,"count":n,"roles":[…],"other":[…]}.
	// count is the number of messages, roles the roles Rows index, other
	// the messages that are not plain, in order, as stored. It is escaped
	// to ASCII as CallParsed escapes a large answer.
	Head []byte
	// ASCII, Wide, Cache and Rows are core.ContextTexts': the texts all
	// ASCII and the others (UTF-8), the text cache's id (0 for a copy),
	// and three int32 per message.
	ASCII, Wide []byte
	Cache       uint64
	Rows        []int32
}

// CallColumns is CallParsed for a caller that builds a context's messages
// array itself (the JS shim's call through the binding's context): when
// req is a context request that succeeds, it answers the value as Columns
// and out is nil; any other request, and any error, gets CallParsed's
// envelope and cols nil. The same request gives the same value either
// way.
func CallColumns(st *core.Store, req []byte) (out []byte, cols *Columns) {
	a := st.Run(req)
	if v, ok := a.Value.(core.ContextView); ok && a.Err == nil {
		return nil, columnsOf(v.Texts())
	}
	return Parsed(a), nil
}

// columnsOf writes t's head and hands over its buffers.
func columnsOf(t *core.ContextTexts) *Columns {
	h := append(make([]byte, 0, 256), `{"cursor":`...)
	h = appendCursor(h, t.Cursor)
	h = append(h, `,"state":`...)
	h = t.State.AppendJSON(h)
	h = append(h, `,"count":`...)
	h = jsonx.AppendInt(h, len(t.Rows)/3)
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
	h = append(h, "]}"...)
	return &Columns{Head: asciiIfLarge(h), ASCII: t.ASCII, Wide: t.Wide, Cache: t.Cache, Rows: t.Rows}
}
