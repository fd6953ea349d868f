package core

import "github.com/sessiontree/sessiontree/core/internal/tree"

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
	return Leaf{SessionID: s.ID(), NodeID: tree.Nullable(s.NodeID(at)), Leaf: tree.Nullable(s.NodeID(s.NewestLeaf(at)))}, nil
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
		return nil, tree.Invalidf("operation \"switch\" takes exactly one of the fields \"nodeId\" (go to the newest leaf under it) and \"branch\" (go to its tip)")
	}
	if hasNode {
		_, at, err := r.sessionNode(st)
		if err != nil {
			return nil, err
		}
		st.s.SwitchToLeaf(s, at, r.op)
	} else {
		name, err := r.branchName("branch", true)
		if err != nil {
			return nil, err
		}
		if err := st.s.SwitchToBranch(s, name, r.op); err != nil {
			return nil, err
		}
	}
	return s.Status(), nil
}

func opDiff(st *Store, r *request) (any, *Error) {
	s, err := r.existing(st)
	if err != nil {
		return nil, err
	}
	from, err := r.nodeIDField("from")
	if err != nil {
		return nil, err
	}
	to, err := r.nodeIDField("to")
	if err != nil {
		return nil, err
	}
	return s.Diff(from, to)
}

func opTree(st *Store, r *request) (any, *Error) {
	s, err := r.existing(st)
	if err != nil {
		return nil, err
	}
	show, err := r.optBool("showHidden")
	if err != nil {
		return nil, err
	}
	t := s.TreeView(show)
	return RawMessage(t.AppendJSON(make([]byte, 0, 64+len(t.Text)+len(t.Rows)*192))), nil
}

// optBool returns an optional boolean field: false when absent or null,
// INVALID_ARGUMENT when it is not a boolean.
func (r *request) optBool(field string) (bool, *Error) {
	if !r.has(field) {
		return false, nil
	}
	return r.boolField(field)
}

// boolField returns a boolean field (INVALID_ARGUMENT when it is not one).
func (r *request) boolField(field string) (bool, *Error) {
	switch string(r.fields[field]) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, tree.Invalidf("field %q must be true or false", field)
}
