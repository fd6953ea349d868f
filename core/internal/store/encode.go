package store

import "github.com/sessiontree/sessiontree/core/internal/tree"

// Hand-written encoder for list items (tree rows have theirs in tree.go):
// encoding/json spends most of its time in reflection there. It gives
// exactly the bytes encoding/json gives (no HTML escaping, fields in struct
// order, omitempty as tagged); TestTreeAndListEncodeLikeEncodingJSON checks
// that.

// ListJSON encodes the value of list.
func ListJSON(items []tree.ListItem) tree.RawMessage {
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
