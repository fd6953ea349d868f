package tree

// DiffEnd is one end of a diff: the reference as given and the node it
// names.
type DiffEnd struct {
	Ref    string `json:"ref"`
	NodeID string `json:"nodeId"`
	// Branch is the branch name when Ref named a branch ("" for a node id).
	Branch string `json:"branch,omitempty"`
}

// DiffNode is a node that is on one side of a diff only, with its full
// readable text (MessageText, the summary, or the entry's text).
type DiffNode struct {
	ID     string `json:"id"`
	Branch string `json:"branch"`
	Kind   string `json:"kind"`
	Role   string `json:"role"`
	Text   string `json:"text"`
}

// Diff is the value of diff: where two paths part and what each holds
// alone. Ancestor is the deepest node on both root→node paths (null when
// the nodes are in different roots of a forest); Common is the number of
// nodes the paths share (the depth of Ancestor). FromOnly and ToOnly are
// the nodes after Ancestor on each path, in path order (root side first).
type Diff struct {
	SessionID string     `json:"sessionId"`
	From      DiffEnd    `json:"from"`
	To        DiffEnd    `json:"to"`
	Ancestor  *string    `json:"ancestor"`
	Common    int        `json:"common"`
	FromOnly  []DiffNode `json:"fromOnly"`
	ToOnly    []DiffNode `json:"toOnly"`
}

// resolveRef turns a diff reference into a node: a node id first, else a
// branch name (its tip; a branch with no node yet gives its base). Neither
// is NOT_FOUND naming the reference.
func (s *Session) resolveRef(ref, field string) (int32, DiffEnd, *Error) {
	if i, ok := s.Index[ref]; ok {
		return i, DiffEnd{Ref: ref, NodeID: ref}, nil
	}
	if b := s.ByName[ref]; b != nil {
		i := b.Tip
		if i < 0 {
			i = b.Base
		}
		if i >= 0 {
			return i, DiffEnd{Ref: ref, NodeID: s.Nodes[i].ID, Branch: ref}, nil
		}
		return -1, DiffEnd{}, Errorf(NotFound, "%s: branch %q of session %q has no node yet", field, ref, s.id)
	}
	return -1, DiffEnd{}, Errorf(NotFound, "%s: %q is neither a node nor a branch of session %q", field, ref, s.id)
}

// Diff compares the root→node paths of two references. Both walks are
// loops bounded by the depth of the deeper node.
func (s *Session) Diff(fromRef, toRef string) (*Diff, *Error) {
	a, fromEnd, err := s.resolveRef(fromRef, "from")
	if err != nil {
		return nil, err
	}
	b, toEnd, err := s.resolveRef(toRef, "to")
	if err != nil {
		return nil, err
	}
	var aSide, bSide []int32
	x, y := a, b
	for x >= 0 && y >= 0 && s.Depth[x] > s.Depth[y] {
		aSide = append(aSide, x)
		x = s.Parent[x]
	}
	for x >= 0 && y >= 0 && s.Depth[y] > s.Depth[x] {
		bSide = append(bSide, y)
		y = s.Parent[y]
	}
	for x != y {
		aSide = append(aSide, x)
		bSide = append(bSide, y)
		x, y = s.Parent[x], s.Parent[y]
	}
	d := &Diff{SessionID: s.id, From: fromEnd, To: toEnd, Ancestor: Nullable(s.NodeID(x)),
		FromOnly: s.diffNodes(aSide), ToOnly: s.diffNodes(bSide)}
	if x >= 0 {
		d.Common = int(s.Depth[x])
	}
	return d, nil
}

// diffNodes turns a leaf-first list of node indexes into DiffNodes, root
// side first.
func (s *Session) diffNodes(side []int32) []DiffNode {
	out := make([]DiffNode, len(side))
	for k, i := range side {
		n := s.Nodes[i]
		out[len(side)-1-k] = DiffNode{ID: n.ID, Branch: n.Branch, Kind: n.Kind, Role: n.Role(), Text: NodeText(n)}
	}
	return out
}
