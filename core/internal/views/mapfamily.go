package views

import (
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/sessiontree/sessiontree/core/internal/store"
	"github.com/sessiontree/sessiontree/core/internal/tree"
	"github.com/sessiontree/sessiontree/core/internal/treeview"
)

// The family on the map: where sessions made from this one hang off it
// ("forks"), and where this session left the one it was made from
// ("source"), each a node placed on this session's map, so a view can
// draw each fork's own part (what follows the node it was made at) beside
// the node it hangs off. Both are marks: they are in the whole map and in
// every delta (mapdelta.go), read from the source records (source.go) at
// each answer, so a fork made or imported later shows without a new
// layout.
//
//	"forks":[[segment, offset, sessionId, kind]…]   (at most MaxMapForks)
//	"source":{"sessionId","nodeId","segment","offset","kind"}|null

// MaxMapForks bounds the forks one map answer places; the family
// operation lists them all.
const MaxMapForks = 100

// mapFork is a session made from this one, placed at the node it was made at.
type mapFork struct {
	seg, off  int32
	sessionID string
	nodeID    string
	kind      string
}

// MapForks places the sessions whose source is s at the nodes of s they
// were made at on m, s's map (t its tree), in store order; a link whose node s does not have (or
// that no node names: an import whose sessions are not both in memory)
// is left out.
func (v *Caches) MapForks(st *store.Store, s *tree.Session, t *treeview.Tree, m *treeview.Map) []mapFork {
	var forks []mapFork
	for _, id := range familyChildren(st)[s.ID()] {
		e := v.familyEdge(st, id)
		if e.NodeID == nil {
			continue
		}
		i, ok := s.Index[*e.NodeID]
		if !ok {
			continue
		}
		seg, off := m.Place(t, i)
		forks = append(forks, mapFork{seg, off, id, *e.NodeID, e.Kind})
		if len(forks) == MaxMapForks {
			break
		}
	}
	return forks
}

// MapSource places the node s was made at on s's own map m (t its tree): nil when s has
// no source, or its node is unknown or not in s (an SDK fork with new ids).
func (v *Caches) MapSource(st *store.Store, s *tree.Session, t *treeview.Tree, m *treeview.Map) *mapFork {
	if s.Source == nil || s.Source.SessionID == s.ID() {
		return nil
	}
	e := v.familyEdge(st, s.ID())
	if e.NodeID == nil {
		return nil
	}
	i, ok := s.Index[*e.NodeID]
	if !ok {
		return nil
	}
	seg, off := m.Place(t, i)
	return &mapFork{seg, off, e.ParentSessionID, *e.NodeID, e.Kind}
}

// appendFamilyMarks appends ,"forks":[…],"source":… (see the file comment).
func appendFamilyMarks(b []byte, forks []mapFork, source *mapFork) []byte {
	b = append(b, `,"forks":[`...)
	for k, f := range forks {
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = jsonx.AppendInt(b, int(f.seg))
		b = append(b, ',')
		b = jsonx.AppendInt(b, int(f.off))
		b = append(b, ',')
		b = jsonx.AppendString(b, f.sessionID)
		b = append(b, ',')
		b = jsonx.AppendString(b, f.kind)
		b = append(b, ']')
	}
	b = append(b, `],"source":`...)
	if source == nil {
		return append(b, "null"...)
	}
	b = append(b, `{"sessionId":`...)
	b = jsonx.AppendString(b, source.sessionID)
	b = append(b, `,"nodeId":`...)
	b = jsonx.AppendString(b, source.nodeID)
	b = append(b, `,"segment":`...)
	b = jsonx.AppendInt(b, int(source.seg))
	b = append(b, `,"offset":`...)
	b = jsonx.AppendInt(b, int(source.off))
	b = append(b, `,"kind":`...)
	b = jsonx.AppendString(b, source.kind)
	return append(b, '}')
}
