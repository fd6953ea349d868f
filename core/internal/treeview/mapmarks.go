package treeview

import (
	"math"
	"strconv"
	"strings"
)

// Segment flags of a map answer (bit values of its "flags" column).
const (
	SegOnPath     = 1 << iota // some of its nodes are on the root→cursor path
	SegPreferred              // some of its nodes are on the preferred path
	SegHiddenRoot             // it stands, collapsed, for a hidden subtree
)

// Flags returns each visible place's flags (SegOnPath, SegPreferred,
// SegHiddenRoot), the paths followed segment by segment: cursor and
// preferred are the paths' end nodes, −1 for none.
func (m *Map) Flags(cursor, preferred int32) []uint8 {
	flags := make([]uint8, len(m.Vis))
	for _, end := range []struct {
		node int32
		flag uint8
	}{{cursor, SegOnPath}, {preferred, SegPreferred}} {
		if end.node < 0 {
			continue
		}
		for seg := m.SegOf[end.node]; seg >= 0; seg = m.Parent[seg] {
			if k := m.VisOf[seg]; k >= 0 {
				flags[k] |= end.flag
			}
		}
	}
	for k, seg := range m.Vis {
		if m.HiddenTotals[seg] > 0 {
			flags[k] |= SegHiddenRoot
		}
	}
	return flags
}

// Size returns the layout's width (the largest X) and height (the largest
// Y), both 0 for an empty map.
func (m *Map) Size() (width float64, height int32) {
	for k := range m.Vis {
		width = math.Max(width, m.X[k])
		height = max(height, m.Y[k])
	}
	return width, height
}

// Revision returns the revision of a map answer made from m when the tree
// has n nodes: "<layout number>.<n>". A view gives it back to be answered
// with what grew (DeltaFrom).
func (m *Map) Revision(n int) string {
	return strconv.FormatUint(m.ID, 10) + "." + strconv.Itoa(n)
}

// DeltaFrom reads a revision a view gave back: the node count it was made
// at, and ok, when it names m's layout at a node count this layout had
// (from its making to n, the tree's count now, and no more than m holds).
// Any other string, a revision of another layout included, is not ok,
// never an error: the caller answers the whole map.
func (m *Map) DeltaFrom(revision string, n int) (from int, ok bool) {
	layout, count, found := strings.Cut(revision, ".")
	if !found {
		return 0, false
	}
	id, err := strconv.ParseUint(layout, 10, 64)
	if err != nil || id != m.ID {
		return 0, false
	}
	from, err = strconv.Atoi(count)
	if err != nil || from < m.Base || from > n || from > len(m.SegOf) {
		return 0, false
	}
	return from, true
}

// Grown returns the segments the nodes [from, n) lengthened, in the order
// of their first such node: what changed since revision count from (see
// DeltaFrom). n is at most len(m.SegOf).
func (m *Map) Grown(from, n int) []int32 {
	var out []int32
	seen := map[int32]bool{}
	for i := from; i < n; i++ {
		if seg := m.SegOf[i]; !seen[seg] {
			seen[seg] = true
			out = append(out, seg)
		}
	}
	return out
}
