package core

// viewCaches is what the tree's views keep between calls, by session: the
// display order of tree.rows (rowOrderCache) and the map's segments and
// layout (mapSegments). They belong to the views, not to the session:
// each entry says the node count it was made at, which is enough to know
// whether it still holds, since a session only grows (a session replaced
// by another object — snapshot.load, a page-out, a restore — is dropped
// by the Store when it leaves, see forget).
type viewCaches struct {
	rows map[*Session]*rowOrderCache
	maps map[*Session]*mapSegments
}

// forget drops what the views keep of s (s left the store or was replaced).
func (v *viewCaches) forget(s *Session) {
	delete(v.rows, s)
	delete(v.maps, s)
}

// rowsOf returns the kept row order of s, nil when none holds.
func (v *viewCaches) rowsOf(s *Session) *rowOrderCache {
	if c := v.rows[s]; c != nil && c.n == len(s.nodes) {
		return c
	}
	return nil
}

// keepRows keeps the row order of s.
func (v *viewCaches) keepRows(s *Session, c *rowOrderCache) {
	if v.rows == nil {
		v.rows = make(map[*Session]*rowOrderCache)
	}
	v.rows[s] = c
}

// keepMap keeps the map segments of s.
func (v *viewCaches) keepMap(s *Session, m *mapSegments) {
	if v.maps == nil {
		v.maps = make(map[*Session]*mapSegments)
	}
	v.maps[s] = m
}
