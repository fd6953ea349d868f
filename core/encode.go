package core

// Hand-written encoder for list items (tree rows have theirs in tree.go):
// encoding/json spends most of its time in reflection there. It gives
// exactly the bytes encoding/json gives (no HTML escaping, fields in struct
// order, omitempty as tagged); TestTreeAndListEncodeLikeEncodingJSON checks
// that.

// appendJSON appends the item as encoding/json would encode ListItem.
func (it *ListItem) appendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = appendString(b, it.ID)
	b = append(b, `,"parentId":`...)
	b = appendOptString(b, it.ParentID)
	b = append(b, `,"branch":`...)
	b = appendString(b, it.Branch)
	b = append(b, `,"kind":`...)
	b = appendString(b, it.Kind)
	b = append(b, `,"role":`...)
	b = appendString(b, it.Role)
	b = append(b, `,"timestamp":`...)
	b = appendString(b, it.Timestamp)
	b = append(b, `,"depth":`...)
	b = appendInt(b, it.Depth)
	b = append(b, `,"preview":`...)
	b = appendString(b, it.Preview)
	if it.Label != "" {
		b = append(b, `,"label":`...)
		b = appendString(b, it.Label)
	}
	b = append(b, `,"hidden":`...)
	b = appendBool(b, it.Hidden)
	b = append(b, `,"preferred":`...)
	b = appendBool(b, it.Preferred)
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
		b = items[i].appendJSON(b)
	}
	return append(b, ']')
}
