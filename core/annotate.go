package core

// addAnnotation records a new annotation on s for operation op.
func (st *Store) addAnnotation(s *Session, a *Annotation, op string) {
	a.Timestamp = st.timestamp()
	from := len(s.Annotations)
	s.Annotate(a)
	st.touch(s, len(s.Nodes), false, op)
	st.markAnnotated(s, from)
}
