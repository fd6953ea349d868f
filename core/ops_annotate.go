package core

import (
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/sessiontree/sessiontree/core/internal/tree"
)

func opLabel(st *Store, r *request) (any, *Error) {
	s, i, err := r.sessionNode(st)
	if err != nil {
		return nil, err
	}
	if _, present := r.fields["label"]; !present {
		return nil, tree.Invalidf("field \"label\" is required for operation \"label\" (\"\" clears the label)")
	}
	label, err := r.optStr("label")
	if err != nil {
		return nil, err
	}
	if err := tree.CheckLabel(label); err != nil {
		return nil, err
	}
	st.s.AddAnnotation(s, &Annotation{Kind: AnnotationLabel, NodeID: s.Nodes[i].ID, Label: label}, r.op)
	return s.Marks(i), nil
}

func opHide(st *Store, r *request) (any, *Error) {
	s, i, err := r.sessionNode(st)
	if err != nil {
		return nil, err
	}
	hidden := true
	if r.has("hidden") {
		if !jsonx.ReadBool(r.fields["hidden"], &hidden) {
			return nil, tree.Invalidf("field \"hidden\" must be true or false")
		}
	}
	st.s.AddAnnotation(s, &Annotation{Kind: AnnotationHide, NodeID: s.Nodes[i].ID, Hidden: hidden}, r.op)
	return s.Marks(i), nil
}

func opPrefer(st *Store, r *request) (any, *Error) {
	s, err := r.existing(st)
	if err != nil {
		return nil, err
	}
	if _, present := r.fields["nodeId"]; !present {
		return nil, tree.Invalidf("field \"nodeId\" is required for operation \"prefer\" (null clears the preferred path)")
	}
	i := int32(-1)
	if r.has("nodeId") {
		id, err := r.nodeIDField("nodeId")
		if err != nil {
			return nil, err
		}
		if i, err = s.Lookup(id); err != nil {
			return nil, err
		}
	}
	st.s.AddAnnotation(s, &Annotation{Kind: AnnotationPrefer, NodeID: s.NodeID(i)}, r.op)
	return s.Marks(i), nil
}

// sessionNode returns the session named by "sessionId" and the index of
// the node named by "nodeId".
func (r *request) sessionNode(st *Store) (*Session, int32, *Error) {
	s, err := r.existing(st)
	if err != nil {
		return nil, -1, err
	}
	id, err := r.nodeIDField("nodeId")
	if err != nil {
		return nil, -1, err
	}
	i, err := s.Lookup(id)
	return s, i, err
}
