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

// MarkPush remembers the session's node tables and returns a function that
// takes back every node pushed since: the node, parent, depth and children
// tables are cut back, the new ids leave the index and the branch table is
// restored. It handles pushes only (no cursor moves, no annotations). The
// search index needs nothing: it reads a session's new nodes only when a
// search or WarmSearch runs, never during the call that pushed them.
//
//go:noinline // small enough to inline, which copied its undo into each of opSyncMerge's three faults (2.7 KB)
func MarkPush(s *tree.Session) func() {
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
