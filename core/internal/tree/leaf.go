package tree

// The newest leaf under a node, and switching to a branch in one call.
// A chat app's "version 2 / 3" switcher jumps to another version of a
// turn and wants the conversation as it went on from there: the newest
// leaf under that node, not the node itself.

// NewestLeaf returns the newest node (the highest append index) of the
// subtree rooted at i: nodes come after their parents, so the newest node
// of a subtree has no child and is its newest leaf. One loop over the
// nodes after i; i < 0 means the whole session (its last node, or -1).
func (s *Session) NewestLeaf(i int32) int32 {
	if i < 0 {
		return int32(len(s.Nodes)) - 1
	}
	if s.Children[i] == 0 {
		return i
	}
	in := make([]bool, len(s.Nodes)-int(i)) // in[j-i]: node j is under i
	in[0] = true
	leaf := i
	for j := i + 1; j < int32(len(s.Nodes)); j++ {
		if p := s.Parent[j]; p >= i && in[p-i] {
			in[j-i] = true
			leaf = j
		}
	}
	return leaf
}

// Leaf is the value of leaf: the newest leaf under a node.
type Leaf struct {
	SessionID string `json:"sessionId"`
	// NodeID is the node asked about (null: the whole session).
	NodeID *string `json:"nodeId"`
	// Leaf is the newest leaf under it (the node itself when it has no
	// child; null for an empty session).
	Leaf *string `json:"leaf"`
}
