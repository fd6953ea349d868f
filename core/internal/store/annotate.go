package store

import "github.com/sessiontree/sessiontree/core/internal/tree"

// AddAnnotation records a new annotation on s for operation op.
func (st *Store) AddAnnotation(s *tree.Session, a *tree.Annotation, op string) {
	a.Timestamp = st.Timestamp()
	from := len(s.Annotations)
	s.Annotate(a)
	st.touch(s, len(s.Nodes), false, op)
	st.markAnnotated(s, from)
}
