package core

import "github.com/sessiontree/sessiontree/core/internal/tree"

// Renaming a session. The title is an appended record, never an edit: a
// rename appends a "title" annotation (see AnnotationTitle) and the
// newest one is the title that sessions, session and every view show. No
// node is added or changed (a chat's path, cursor and branches stay as
// they are; compare Pi's session_info entry, which is a node of the
// tree); the records go wherever annotations go: a snapshot's
// "annotations" array, IndexedDB's annotation records, other tabs.

// opRename answers {"operation":"rename","sessionId":…,"title":…}: the
// session's title becomes title ("" clears it) by an appended title
// record; its updatedAt stays (a title is not activity: a list by last
// activity keeps its place). The value is the session status. SESSION_NOT_FOUND,
// INVALID_ARGUMENT (title missing, not a string, too long, or with
// control characters).
func opRename(st *Store, r *request) (any, *Error) {
	s, err := r.existing(st)
	if err != nil {
		return nil, err
	}
	if _, present := r.fields["title"]; !present {
		return nil, tree.Invalidf("field \"title\" is required for operation \"rename\" (\"\" clears the title)")
	}
	title, err := r.optStr("title")
	if err != nil {
		return nil, err
	}
	if err := tree.CheckTitle(title); err != nil {
		return nil, err
	}
	st.s.Retitle(s, title, r.op)
	return s.Status(), nil
}
