package core

import "github.com/sessiontree/sessiontree/core/internal/jsonx"

// Hand-written encoder for list items (tree rows have theirs in tree.go):
// encoding/json spends most of its time in reflection there. It gives
// exactly the bytes encoding/json gives (no HTML escaping, fields in struct
// order, omitempty as tagged); TestTreeAndListEncodeLikeEncodingJSON checks
// that.

// AppendJSON appends the item as encoding/json would encode ListItem.
func (it *ListItem) AppendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = jsonx.AppendString(b, it.ID)
	b = append(b, `,"parentId":`...)
	b = jsonx.AppendOptString(b, it.ParentID)
	b = append(b, `,"branch":`...)
	b = jsonx.AppendString(b, it.Branch)
	b = append(b, `,"kind":`...)
	b = jsonx.AppendString(b, it.Kind)
	b = append(b, `,"role":`...)
	b = jsonx.AppendString(b, it.Role)
	b = append(b, `,"timestamp":`...)
	b = jsonx.AppendString(b, it.Timestamp)
	b = append(b, `,"depth":`...)
	b = jsonx.AppendInt(b, it.Depth)
	b = append(b, `,"preview":`...)
	b = jsonx.AppendString(b, it.Preview)
	if it.Label != "" {
		b = append(b, `,"label":`...)
		b = jsonx.AppendString(b, it.Label)
	}
	b = append(b, `,"hidden":`...)
	b = jsonx.AppendBool(b, it.Hidden)
	b = append(b, `,"preferred":`...)
	b = jsonx.AppendBool(b, it.Preferred)
	if it.Described {
		b = append(b, `,"described":true`...)
	}
	return append(b, '}')
}

// listJSON encodes the value of list.
func listJSON(items []ListItem) RawMessage {
	b := make([]byte, 0, len(items)*200+2)
	b = append(b, '[')
	for i := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = items[i].AppendJSON(b)
	}
	return append(b, ']')
}
