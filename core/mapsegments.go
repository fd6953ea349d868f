package core

import (
	"sync/atomic"
	"time"

	"github.com/sessiontree/sessiontree/core/internal/tidy"
)

// mapSegments is a session cut into segments for the map (see opMap): a
// segment is a run of nodes without a fork — each node but the last has
// exactly one child, the next one — on one branch. A node starts a new
// segment when it is a root, when its parent has more than one child,
// when its branch differs from its parent's, or when a hide annotation is
// on it. Segments are numbered in the append order of their first nodes,
// so a parent segment comes before its children and siblings are in the
// order their first nodes were appended (the list tree's order).
//
// The segments of hidden subtrees are kept (segOf covers every node) but
// only visible segments are laid out: a hidden root's segment is a leaf
// of the layout that stands for its whole subtree (below, its node count).
type mapSegments struct {
	id          uint64 // this layout's number (mapLayouts), part of a map's revision
	base        int    // the session's node count when laid out
	nodes       int    // the session's node count when last brought up to date
	annotations int    // its annotation count then (a hide may change the cut)

	segOf        []int32 // node → segment
	first, last  []int32 // segment → its first and last node
	parent       []int32 // segment → parent segment, −1 for a root
	hidden       []bool  // segment hidden (by its first node or an ancestor)
	hiddenTotals []int32 // hidden root segment → nodes in its subtree; else 0

	// The layout of the visible segments (visible numbering: vis[k] is
	// the segment, visOf[seg] its place or −1).
	vis   []int32
	visOf []int32
	x     []float64 // by visible place, in tidy.Layout's units
	y     []int32   // by visible place: depth in segments, roots 0
}

// mapOf returns the segments of s brought up to date: nodes appended
// since the last call that only extend a run lengthen its segment (O(1)
// each, the layout kept); anything else (a fork, a new root or branch, a
// new annotation) cuts the session again and lays it out again, O(nodes).
func (st *Store) mapOf(s *Session) *mapSegments {
	m := st.views.maps[s]
	if m != nil && m.annotations == len(s.annotations) && m.extend(s) {
		return m
	}
	m = buildSegments(s)
	m.layout()
	m.id = mapLayouts.Add(1)
	m.base = m.nodes
	st.views.keepMap(s, m)
	return m
}

// mapLayouts numbers the layouts made (mapSegments.id): a map's revision
// names its layout, so a revision from another layout, another session or
// an earlier run is never taken for the current one.
// It starts from the clock, so a revision kept by a page across a restart
// of its Worker does not name a layout of the new run.
var mapLayouts = func() *atomic.Uint64 {
	var n atomic.Uint64
	n.Store(uint64(time.Now().UnixNano()))
	return &n
}()

// extend takes in the nodes appended since m was made when each one only
// lengthens the segment of its parent; it reports false (and leaves m as
// it was) otherwise.
func (m *mapSegments) extend(s *Session) bool {
	n := len(s.nodes)
	if n < m.nodes {
		return false
	}
	// Checked first on a copy of what changes, so a failure leaves m as it was.
	segs := make([]int32, 0, n-m.nodes)
	lastOf := map[int32]int32{}
	for i := m.nodes; i < n; i++ {
		p := s.parent[i]
		if p < 0 || p >= int32(i) || s.children[p] != 1 || s.nodes[p].Branch != s.nodes[i].Branch {
			return false
		}
		seg := int32(-1)
		if int(p) < m.nodes {
			seg = m.segOf[p]
		} else {
			seg = segs[int(p)-m.nodes]
		}
		last, moved := lastOf[seg]
		if !moved {
			last = m.last[seg]
		}
		if last != p || m.hidden[seg] {
			return false
		}
		segs = append(segs, seg)
		lastOf[seg] = int32(i)
	}
	m.segOf = append(m.segOf, segs...)
	for seg, last := range lastOf {
		m.last[seg] = last
	}
	m.nodes = n
	return true
}

// buildSegments cuts s into segments (one pass over the nodes) and counts
// the nodes under each hidden root.
func buildSegments(s *Session) *mapSegments {
	n := len(s.nodes)
	m := &mapSegments{nodes: n, annotations: len(s.annotations), segOf: make([]int32, n)}
	for i := 0; i < n; i++ {
		p := s.parent[i]
		if p >= 0 && s.children[p] == 1 && s.nodes[p].Branch == s.nodes[i].Branch && !s.hiddenRoots[int32(i)] {
			seg := m.segOf[p]
			m.segOf[i] = seg
			m.last[seg] = int32(i)
			continue
		}
		seg := int32(len(m.first))
		m.segOf[i] = seg
		m.first = append(m.first, int32(i))
		m.last = append(m.last, int32(i))
		ps := int32(-1)
		hidden := s.hiddenRoots[int32(i)]
		if p >= 0 {
			ps = m.segOf[p]
			hidden = hidden || m.hidden[ps]
		}
		m.parent = append(m.parent, ps)
		m.hidden = append(m.hidden, hidden)
	}
	m.hiddenTotals = make([]int32, len(m.first))
	if len(s.hiddenRoots) > 0 {
		totals := make([]int32, len(m.first))
		for seg := len(m.first) - 1; seg >= 0; seg-- {
			totals[seg] += s.depth[m.last[seg]] - s.depth[m.first[seg]] + 1
			if p := m.parent[seg]; p >= 0 {
				totals[p] += totals[seg]
			}
			if m.hidden[seg] && (m.parent[seg] < 0 || !m.hidden[m.parent[seg]]) {
				m.hiddenTotals[seg] = totals[seg]
			}
		}
	}
	return m
}

// visible reports whether segment seg is drawn: not hidden, or the root
// of a hidden subtree (drawn collapsed).
func (m *mapSegments) visible(seg int32) bool {
	return !m.hidden[seg] || m.parent[seg] < 0 || !m.hidden[m.parent[seg]]
}

// layout lays out the visible segments with tidy.Layout (a segment is one
// node of the tidy tree; its level is its depth in segments).
func (m *mapSegments) layout() {
	m.visOf = make([]int32, len(m.first))
	m.vis = m.vis[:0]
	var parent []int32
	for seg := int32(0); seg < int32(len(m.first)); seg++ {
		m.visOf[seg] = -1
		if !m.visible(seg) {
			continue
		}
		m.visOf[seg] = int32(len(m.vis))
		m.vis = append(m.vis, seg)
		p := m.parent[seg]
		if p >= 0 {
			p = m.visOf[p]
		}
		parent = append(parent, p)
	}
	m.x = tidy.Layout(parent)
	m.y = make([]int32, len(m.vis))
	for k, p := range parent {
		if p >= 0 {
			m.y[k] = m.y[p] + 1
		}
	}
}

// length returns the number of nodes of segment seg.
func (m *mapSegments) length(s *Session, seg int32) int32 {
	return s.depth[m.last[seg]] - s.depth[m.first[seg]] + 1
}

// place returns where node i is drawn: its visible segment and its offset
// in it (0 for the first node). A node inside a hidden subtree is placed
// at the end of the collapsed segment that stands for it.
func (m *mapSegments) place(s *Session, i int32) (int32, int32) {
	seg := m.segOf[i]
	if m.visible(seg) {
		return m.visOf[seg], s.depth[i] - s.depth[m.first[seg]]
	}
	for !m.visible(seg) {
		seg = m.parent[seg]
	}
	return m.visOf[seg], m.length(s, seg) - 1
}
