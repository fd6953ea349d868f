package core

// The newest leaf under a node, and switching to a branch in one call.
// A chat app's "version 2 / 3" switcher jumps to another version of a
// turn and wants the conversation as it went on from there: the newest
// leaf under that node, not the node itself.

// newestLeaf returns the newest node (the highest append index) of the
// subtree rooted at i: nodes come after their parents, so the newest node
// of a subtree has no child and is its newest leaf. One loop over the
// nodes after i; i < 0 means the whole session (its last node, or -1).
func (s *Session) newestLeaf(i int32) int32 {
	if i < 0 {
		return int32(len(s.nodes)) - 1
	}
	if s.children[i] == 0 {
		return i
	}
	in := make([]bool, len(s.nodes)-int(i)) // in[j-i]: node j is under i
	in[0] = true
	leaf := i
	for j := i + 1; j < int32(len(s.nodes)); j++ {
		if p := s.parent[j]; p >= i && in[p-i] {
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

// opLeaf answers {"operation":"leaf","sessionId":…,"nodeId"?:…}: the
// newest leaf under nodeId, or of the whole session without it.
// SESSION_NOT_FOUND, NODE_NOT_FOUND.
func opLeaf(st *Store, r *request) (any, *Error) {
	s, err := r.existing(st)
	if err != nil {
		return nil, err
	}
	at := int32(-1)
	if r.has("nodeId") {
		if _, at, err = r.sessionNode(st); err != nil {
			return nil, err
		}
	}
	return Leaf{SessionID: s.id, NodeID: nullable(s.nodeID(at)), Leaf: nullable(s.nodeID(s.newestLeaf(at)))}, nil
}

// opSwitch answers {"operation":"switch","sessionId":…,"nodeId"|"branch":…}:
// the cursor moves to the newest leaf under nodeId (activeBranch becomes
// that leaf's branch), or to the tip of the branch named (which becomes
// the active branch; a branch without nodes yet keeps the cursor at its
// base). Exactly one of nodeId and branch. The value is the session
// status. SESSION_NOT_FOUND, NODE_NOT_FOUND, NOT_FOUND (an unknown
// branch), INVALID_ARGUMENT.
func opSwitch(st *Store, r *request) (any, *Error) {
	s, err := r.existing(st)
	if err != nil {
		return nil, err
	}
	hasNode, hasBranch := r.has("nodeId"), r.has("branch")
	if hasNode == hasBranch {
		return nil, invalidf("operation \"switch\" takes exactly one of the fields \"nodeId\" (go to the newest leaf under it) and \"branch\" (go to its tip)")
	}
	if hasNode {
		_, at, err := r.sessionNode(st)
		if err != nil {
			return nil, err
		}
		leaf := s.newestLeaf(at)
		s.cursor = leaf
		s.setActive(s.nodes[leaf].Branch)
	} else {
		name, err := r.branchName("branch", true)
		if err != nil {
			return nil, err
		}
		b := s.byName[name]
		if b == nil {
			return nil, errorf(NotFound, "branch %q does not exist in session %q", name, s.id)
		}
		if b.tip >= 0 {
			s.cursor = b.tip
		}
		s.setActive(name)
	}
	st.touch(s, len(s.nodes), false, r.op)
	return s.status(), nil
}
