package store

// Synchronisation with other tabs. The JS shim keeps every session in
// IndexedDB; when another tab (another Store on the same database) has
// appended nodes to a session this store also holds, the shim reads the new
// node records and hands them to "sync.merge"; when a session must be
// dropped from memory (a write that failed for lack of storage created it)
// it calls "sync.forget". Neither records a change: what they bring in is
// already stored. Whole-session replacements use "restore".

import (
	"github.com/sessiontree/sessiontree/core/internal/tree"
)

// markPush remembers the session's node tables and returns a function that
// takes back every node pushed since: the node, parent, depth and children
// tables are cut back, the new ids leave the index and the branch table is
// restored. It handles pushes only (no cursor moves, no annotations). The
// search index needs nothing: it reads a session's new nodes only when a
// search or WarmSearch runs, never during the call that pushed them.
//
//go:noinline // small enough to inline, which copied its undo into each of opSyncMerge's three faults (2.7 KB)
func markPush(s *tree.Session) func() {
	n := len(s.Nodes)
	leaves := s.Leaves
	branches := append([]*tree.Branch(nil), s.Branches...)
	saved := make([]tree.Branch, len(branches))
	for i, b := range branches {
		saved[i] = *b
	}
	return func() {
		for i := len(s.Nodes) - 1; i >= n; i-- {
			if p := s.Parent[i]; p >= 0 {
				s.Children[p]--
			}
			delete(s.Index, s.Nodes[i].ID)
		}
		s.Nodes, s.Parent, s.Depth, s.Children = s.Nodes[:n], s.Parent[:n], s.Depth[:n], s.Children[:n]
		s.Leaves = leaves
		s.Branches = branches
		s.ByName = make(map[string]*tree.Branch, len(branches))
		s.LastBranch = nil
		for i, b := range branches {
			*b = saved[i]
			s.ByName[b.Name] = b
		}
	}
}

// SyncMerge appends nodes another tab stored (snapshot form, parents
// first) and then annotations to session s, recording no change. With
// cursor and active the session takes them (a tab that only watches
// follows the writer); a non-empty title replaces its title and a later
// updatedAt its time. Each node is checked against the session as it
// grows (parents, repeated ids, a compaction's kept node on its path): a
// fault (INVALID_SNAPSHOT naming the node) undoes the nodes pushed so
// far, so the cost is O(nodes + branches), never O(session), and a failed
// merge changes nothing. The value is the session's status.
func (st *Store) SyncMerge(s *tree.Session, nodes, annotations []tree.RawMessage, title, updated, cursor, active string) (tree.Status, *tree.Error) {
	undo := markPush(s)
	for i, rawNode := range nodes {
		n, parent, perr := s.ParseNode(rawNode, i, false)
		if perr != nil {
			undo()
			return tree.Status{}, perr
		}
		s.Push(n, parent)
	}
	parsed := make([]*tree.Annotation, len(annotations))
	for k, raw := range annotations {
		a, aerr := s.ParseAnnotation(raw, k)
		if aerr != nil {
			undo()
			return tree.Status{}, aerr
		}
		parsed[k] = a
	}
	if cursor != "" {
		i, ok := s.Index[cursor]
		if !ok {
			undo()
			return tree.Status{}, tree.SnapshotFault("cursor %q is not a node of the merge", cursor)
		}
		s.Cursor = i
	}
	for _, a := range parsed {
		s.Annotate(a)
	}
	if active != "" {
		s.SetActive(active)
	}
	if title != "" {
		s.Title = title
	}
	if updated > s.UpdatedAt {
		s.UpdatedAt = updated
	}
	return s.Status(), nil
}
