package core

// viewCaches is what the tree's views keep between calls, by session: the
// display order of tree.rows (rowOrderCache), the map's segments and
// layout (mapSegments), the text cache context answers in columns lay
// out over (textCache) and the path the last context walked (pathMemo).
// They belong to the views, not to the session: each entry says the node
// count it was made at, or grows with the session, which is enough since
// a session only grows (a session replaced by another object —
// snapshot.load, a page-out, a restore — is dropped by the Store when it
// leaves, see forget).
type viewCaches struct {
	rows  map[*Session]*rowOrderCache
	maps  map[*Session]*mapSegments
	texts map[*Session]*textCache
	paths map[*Session]*pathMemo
}

// pathMemo is the root→cursor path the last context of a session walked
// (see Session.contextPath).
type pathMemo struct{ path []int32 }

// forget drops what the views keep of s (s left the store or was replaced).
func (v *viewCaches) forget(s *Session) {
	delete(v.rows, s)
	delete(v.maps, s)
	delete(v.texts, s)
	delete(v.paths, s)
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

// textsOf returns the text cache of s, made empty on first use. It grows
// with the session (its spans are by node index, and nodes only append).
func (v *viewCaches) textsOf(s *Session) *textCache { return entryOf(&v.texts, s) }

// pathOf returns the path memo of s, made empty on first use.
func (v *viewCaches) pathOf(s *Session) *pathMemo { return entryOf(&v.paths, s) }

// entryOf returns (*m)[s], a new zero T on first use (m made then too).
func entryOf[T any](m *map[*Session]*T, s *Session) *T {
	if e := (*m)[s]; e != nil {
		return e
	}
	if *m == nil {
		*m = make(map[*Session]*T)
	}
	e := new(T)
	(*m)[s] = e
	return e
}
