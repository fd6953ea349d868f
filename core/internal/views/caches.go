package views

import (
	"github.com/sessiontree/sessiontree/core/internal/tree"
	"github.com/sessiontree/sessiontree/core/internal/treeview"
)

// Caches is what the views keep between calls, by session: the display
// order of tree.rows (treeview.Rows), the map's segments and layout
// (keptMap) and the text cache context answers in columns lay out over
// (TextCache). They belong to the views, neither to the session nor to the
// store: each entry says the node count it was made at, or grows with the
// session, which is enough since a session only grows. A session replaced
// by another object (snapshot.load, a page-out, a restore) or removed is
// dropped by Forget, which package core hands the store as its OnLeave.
// The zero value is ready to use.
type Caches struct {
	Rows  map[*tree.Session]*treeview.Rows
	Maps  map[*tree.Session]*keptMap
	Texts map[*tree.Session]*TextCache
	// Points: the node a session without one named in its source link
	// was made at (see forkPoint), by the session.
	Points map[*tree.Session]forkPointKept
}

// forkPointKept is a found fork point: the node's id ("" for none), the
// parent it was found in, and the node counts of the parent and the child
// it was found at.
type forkPointKept struct {
	node   string
	parent *tree.Session
	at     [2]int
}

// keptMap is a session's map kept between map calls: the segments and
// layout, and the session's annotation count when they were made or last
// extended (a hide may change the cut).
type keptMap struct {
	m           *treeview.Map
	annotations int
}

// Forget drops what the views keep of s (s left the store or was replaced).
func (v *Caches) Forget(s *tree.Session) {
	delete(v.Rows, s)
	delete(v.Maps, s)
	delete(v.Texts, s)
	delete(v.Points, s)
}

// RowsOf returns the kept row order of s, nil when none holds (none was
// made, or nodes were added since).
func (v *Caches) RowsOf(s *tree.Session) *treeview.Rows {
	if c := v.Rows[s]; c != nil && len(c.RowOf) == len(s.Nodes) {
		return c
	}
	return nil
}

// RowOrder returns the display order of s's rows (treeview.RowOrder), kept
// until a node is added, so the slices of a large session a panel asks one
// after the other cost one walk.
func (v *Caches) RowOrder(s *tree.Session) *treeview.Rows {
	if c := v.RowsOf(s); c != nil {
		return c
	}
	c := treeview.RowOrder(s.Parent)
	if v.Rows == nil {
		v.Rows = make(map[*tree.Session]*treeview.Rows)
	}
	v.Rows[s] = c
	return c
}

// MapOf returns the map of s brought up to date: nodes appended since the
// last call that only extend a run lengthen its segment (O(1) each, the
// layout kept); anything else (a fork, a new root or branch, a new
// annotation) cuts the session again and lays it out again, O(nodes).
func (v *Caches) MapOf(s *tree.Session, t *treeview.Tree) *treeview.Map {
	if k := v.Maps[s]; k != nil && k.annotations == len(s.Annotations) && k.m.Extend(t) {
		return k.m
	}
	m := treeview.NewMap(t)
	if v.Maps == nil {
		v.Maps = make(map[*tree.Session]*keptMap)
	}
	v.Maps[s] = &keptMap{m, len(s.Annotations)}
	return m
}

// TextsOf returns the text cache of s, made empty on first use. It grows
// with the session (its spans are by node index, and nodes only append).
func (v *Caches) TextsOf(s *tree.Session) *TextCache { return entryOf(&v.Texts, s) }

// entryOf returns (*m)[s], a new zero T on first use (m made then too).
func entryOf[T any](m *map[*tree.Session]*T, s *tree.Session) *T {
	if e := (*m)[s]; e != nil {
		return e
	}
	if *m == nil {
		*m = make(map[*tree.Session]*T)
	}
	e := new(T)
	(*m)[s] = e
	return e
}
