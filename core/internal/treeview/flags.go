package treeview

// Row flags of a tree.rows answer (bit values of its "flags" column).
const (
	RowOnPath     = 1 << iota // on the root→cursor path
	RowCursor                 // the cursor
	RowHidden                 // hidden (the node or an ancestor is a hidden root)
	RowHiddenRoot             // a hidden root: the hide annotation is on this node
	RowPreferred              // on the preferred path
	RowDescribed              // the preview describes a message without text (set by the caller, which reads messages)
)

// HiddenFlags returns, for every node, whether it is hidden: a hidden root
// itself or below one. Nil when nothing is hidden.
func (t *Tree) HiddenFlags() []bool {
	if len(t.HiddenRoots) == 0 {
		return nil
	}
	h := make([]bool, t.Len())
	for i := range h {
		h[i] = t.HiddenRoots[int32(i)] || (t.Parent[i] >= 0 && h[t.Parent[i]])
	}
	return h
}

// PathFlags returns, for every node, whether it is on the path from a root
// to end (end included). Nil when end < 0 (no path).
func (t *Tree) PathFlags(end int32) []bool {
	if end < 0 {
		return nil
	}
	p := make([]bool, t.Len())
	for i := end; i >= 0; i = t.Parent[i] {
		p[i] = true
	}
	return p
}

// SubtreeSizes returns each node's number of nodes in its subtree, itself
// included (one pass from the last node back: parents come first).
func (t *Tree) SubtreeSizes() []int32 {
	size := make([]int32, t.Len())
	for i := len(size) - 1; i >= 0; i-- {
		size[i]++
		if p := t.Parent[i]; p >= 0 {
			size[p] += size[i]
		}
	}
	return size
}

// RowFlags returns the flags of rows (node indexes, as a window of
// Rows.Order): RowOnPath, RowCursor, RowHidden, RowHiddenRoot and
// RowPreferred, for the cursor and the end of the preferred path (−1 for
// none). RowDescribed is the caller's to add.
func (t *Tree) RowFlags(rows []int32, cursor, preferred int32) []uint8 {
	onPath, hidden, pref := t.PathFlags(cursor), t.HiddenFlags(), t.PathFlags(preferred)
	flags := make([]uint8, len(rows))
	for k, i := range rows {
		var f uint8
		if onPath != nil && onPath[i] {
			f |= RowOnPath
		}
		if i == cursor {
			f |= RowCursor
		}
		if hidden != nil && hidden[i] {
			f |= RowHidden
		}
		if len(t.HiddenRoots) > 0 && t.HiddenRoots[i] {
			f |= RowHiddenRoot
		}
		if pref != nil && pref[i] {
			f |= RowPreferred
		}
		flags[k] = f
	}
	return flags
}
