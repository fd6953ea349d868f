package treeview

import (
	"sync/atomic"
	"time"

	"github.com/sessiontree/sessiontree/core/internal/tidy"
)

// Map is a tree cut into segments and laid out for the map: a segment is
// a run of nodes without a fork — each node but the last has exactly one
// child, the next one — on one branch. A node starts a new segment when
// it is a root, when its parent has more than one child, when its branch
// differs from its parent's, or when it is a hidden root. Segments are
// numbered in the append order of their first nodes, so a parent segment
// comes before its children and siblings are in the order their first
// nodes were appended (the rows' order).
//
// The segments of hidden subtrees are kept (SegOf covers every node) but
// only visible segments are laid out: a hidden root's segment is a leaf of
// the layout that stands for its whole subtree (HiddenTotals).
//
// A Map is made by NewMap and grown by Extend; its fields are read only.
// Slices by segment are indexed by segment number; slices by visible
// place by the segment's place in Vis (the answer's segment index).
type Map struct {
	// ID is this layout's number, unique in the process and unlike any of
	// an earlier run (it starts from the clock): part of a revision.
	ID uint64
	// Base is the tree's node count when it was laid out.
	Base int

	// SegOf is each node's segment (len: the node count when last
	// brought up to date, by NewMap or Extend).
	SegOf []int32
	// First and Last are each segment's first and last node.
	First, Last []int32
	// Parent is each segment's parent segment, −1 for a root.
	Parent []int32
	// Hidden says a segment is hidden, by its first node or an ancestor.
	Hidden []bool
	// HiddenTotals is, for a hidden root's segment, the number of nodes in
	// its subtree; 0 for every other segment.
	HiddenTotals []int32

	// Vis is the visible segments in segment order (Vis[k] is the segment
	// at visible place k); VisOf is each segment's place, −1 when hidden.
	Vis   []int32
	VisOf []int32
	// X is each visible place's x, in tidy.Layout's units (≥ 0).
	X []float64
	// Y is each visible place's depth in segments, roots 0.
	Y []int32
}

// layouts numbers the layouts made (Map.ID), so a revision from another
// layout, another session or an earlier run is never taken for the
// current one. It starts from the clock, so a revision a page kept across
// a restart of its Worker does not name a layout of the new run.
var layouts = func() *atomic.Uint64 {
	var n atomic.Uint64
	n.Store(uint64(time.Now().UnixNano()))
	return &n
}()

// NewMap cuts t into segments, counts the nodes under each hidden root
// and lays out the visible segments, under a new layout number: O(nodes).
func NewMap(t *Tree) *Map {
	m := cut(t)
	m.layout()
	m.ID = layouts.Add(1)
	m.Base = t.Len()
	return m
}

// Extend takes in the nodes appended to t since m was made or last
// extended when each one only lengthens the segment of its parent (O(1)
// a node, the layout kept); it reports false, and leaves m as it was,
// otherwise (a fork, a new root or branch, a node under a hidden root, a
// tree with fewer nodes): the caller makes a new Map.
func (m *Map) Extend(t *Tree) bool {
	n, had := t.Len(), len(m.SegOf)
	if n < had {
		return false
	}
	// Checked first on a copy of what changes, so a failure leaves m as it was.
	segs := make([]int32, 0, n-had)
	lastOf := map[int32]int32{}
	for i := had; i < n; i++ {
		p := t.Parent[i]
		if p < 0 || p >= int32(i) || t.Children[p] != 1 || t.Branch(p) != t.Branch(int32(i)) {
			return false
		}
		seg := int32(-1)
		if int(p) < had {
			seg = m.SegOf[p]
		} else {
			seg = segs[int(p)-had]
		}
		last, moved := lastOf[seg]
		if !moved {
			last = m.Last[seg]
		}
		if last != p || m.Hidden[seg] {
			return false
		}
		segs = append(segs, seg)
		lastOf[seg] = int32(i)
	}
	m.SegOf = append(m.SegOf, segs...)
	for seg, last := range lastOf {
		m.Last[seg] = last
	}
	return true
}

// cut cuts t into segments (one pass over the nodes) and counts the nodes
// under each hidden root.
func cut(t *Tree) *Map {
	n := t.Len()
	m := &Map{SegOf: make([]int32, n)}
	// Each node's branch is asked once where a run goes on: the parent's,
	// mostly the node before, is remembered from its own turn.
	known, knownBranch := int32(-1), ""
	sameBranch := func(p, i int32) bool {
		bp := knownBranch
		if p != known {
			bp = t.Branch(p)
		}
		known, knownBranch = i, t.Branch(i)
		return bp == knownBranch
	}
	for i := 0; i < n; i++ {
		p := t.Parent[i]
		if p >= 0 && t.Children[p] == 1 && sameBranch(p, int32(i)) && !t.HiddenRoots[int32(i)] {
			seg := m.SegOf[p]
			m.SegOf[i] = seg
			m.Last[seg] = int32(i)
			continue
		}
		seg := int32(len(m.First))
		m.SegOf[i] = seg
		m.First = append(m.First, int32(i))
		m.Last = append(m.Last, int32(i))
		ps := int32(-1)
		hidden := t.HiddenRoots[int32(i)]
		if p >= 0 {
			ps = m.SegOf[p]
			hidden = hidden || m.Hidden[ps]
		}
		m.Parent = append(m.Parent, ps)
		m.Hidden = append(m.Hidden, hidden)
	}
	m.HiddenTotals = make([]int32, len(m.First))
	if len(t.HiddenRoots) > 0 {
		totals := make([]int32, len(m.First))
		for seg := len(m.First) - 1; seg >= 0; seg-- {
			totals[seg] += t.Depth[m.Last[seg]] - t.Depth[m.First[seg]] + 1
			if p := m.Parent[seg]; p >= 0 {
				totals[p] += totals[seg]
			}
			if m.Hidden[seg] && (m.Parent[seg] < 0 || !m.Hidden[m.Parent[seg]]) {
				m.HiddenTotals[seg] = totals[seg]
			}
		}
	}
	return m
}

// Visible reports whether segment seg is drawn: not hidden, or the root
// of a hidden subtree (drawn collapsed).
func (m *Map) Visible(seg int32) bool {
	return !m.Hidden[seg] || m.Parent[seg] < 0 || !m.Hidden[m.Parent[seg]]
}

// layout lays out the visible segments with tidy.Layout (a segment is one
// node of the tidy tree; its level is its depth in segments).
func (m *Map) layout() {
	m.VisOf = make([]int32, len(m.First))
	m.Vis = m.Vis[:0]
	var parent []int32
	for seg := int32(0); seg < int32(len(m.First)); seg++ {
		m.VisOf[seg] = -1
		if !m.Visible(seg) {
			continue
		}
		m.VisOf[seg] = int32(len(m.Vis))
		m.Vis = append(m.Vis, seg)
		p := m.Parent[seg]
		if p >= 0 {
			p = m.VisOf[p]
		}
		parent = append(parent, p)
	}
	m.X = tidy.Layout(parent)
	m.Y = make([]int32, len(m.Vis))
	for k, p := range parent {
		if p >= 0 {
			m.Y[k] = m.Y[p] + 1
		}
	}
}

// Length returns the number of nodes of segment seg; t is the tree m was
// made from (its Depth is read).
func (m *Map) Length(t *Tree, seg int32) int32 {
	return t.Depth[m.Last[seg]] - t.Depth[m.First[seg]] + 1
}

// Place returns where node i of t is drawn: its visible place and its
// offset in the segment (0 for the first node). A node inside a hidden
// subtree is placed at the end of the collapsed segment that stands for
// it. i must be a node m holds (i < len(m.SegOf)).
func (m *Map) Place(t *Tree, i int32) (place, offset int32) {
	seg := m.SegOf[i]
	if m.Visible(seg) {
		return m.VisOf[seg], t.Depth[i] - t.Depth[m.First[seg]]
	}
	for !m.Visible(seg) {
		seg = m.Parent[seg]
	}
	return m.VisOf[seg], m.Length(t, seg) - 1
}
