package core

import (
	"bytes"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/sessiontree/sessiontree/core/internal/tree"
)

// Bulk append: many messages in one call, appended as a chain (each under
// the one before), checked all before any is added. A chat app migrating
// its stored conversations makes one call (and, in the browser, one
// IndexedDB transaction) per conversation instead of one per message.

// AppendMany is the value of append.many: the ids of the new nodes, in
// order, and the session's status after the call.
type AppendMany struct {
	NodeIDs []string `json:"nodeIds"`
	Session Status   `json:"session"`
}

// opAppendMany answers
//
//	{"operation":"append.many","sessionId":…,"messages":[message…],"branch"?:…,"create"?:bool,"title"?:…}
//
// The messages are appended as a chain: the first where append would put
// it (under the cursor on the active branch, or on the tip of branch),
// each next one under the one before; the cursor ends at the last. With
// "create": true the session is made first (SESSION_ALREADY_EXISTS when
// it exists, so a migration run twice adds nothing), titled title, and
// messages may then be empty. Every message is checked before anything is
// added: a bad one is INVALID_ARGUMENT naming it (messages[3].role) and
// changes nothing.
func opAppendMany(st *Store, r *request) (any, *Error) {
	id, err := r.sessionID()
	if err != nil {
		return nil, err
	}
	create, err := r.optBool("create")
	if err != nil {
		return nil, err
	}
	title, err := r.optStr("title")
	if err != nil {
		return nil, err
	}
	if r.has("title") && !create {
		return nil, tree.Invalidf("field \"title\" of operation \"append.many\" is only for a session it creates (\"create\": true); rename a session with operation \"rename\"")
	}
	msgs, roles, err := r.messageList("messages", create)
	if err != nil {
		return nil, err
	}
	s := st.sessions[id]
	switch {
	case create && st.taken(id) != nil:
		return nil, st.taken(id)
	case create:
		s = tree.NewSession(id, title, st.timestamp())
	case s == nil:
		return nil, tree.Errorf(SessionNotFound, "session %q does not exist", id)
	}
	p, err := r.placement(s)
	if err != nil {
		return nil, err
	}
	if create {
		st.put(s)
	}
	from := len(s.Nodes)
	s.Reserve(len(msgs))
	out := AppendMany{NodeIDs: make([]string, len(msgs))}
	now := st.timestamp()
	for k, m := range msgs {
		n := &Node{Kind: KindMessage, Message: m, MessageRole: roles[k], ID: st.nodeID(s, nil), Timestamp: now}
		s.Add(n, p)
		p = tree.Placement{Parent: s.Cursor, Branch: s.Active}
		out.NodeIDs[k] = n.ID
	}
	st.touch(s, from, false, r.op)
	out.Session = s.Status()
	return out, nil
}

// messageList reads a field holding an array of chat messages, each
// checked as append checks its message; empty is an error unless
// allowEmpty.
func (r *request) messageList(field string, allowEmpty bool) ([]RawMessage, []string, *Error) {
	raw := bytes.TrimSpace(r.fields[field])
	if !r.has(field) {
		return nil, nil, tree.Invalidf("field %q (an array of chat messages) is required for operation %q", field, r.op)
	}
	if raw[0] != '[' {
		return nil, nil, tree.Invalidf("field %q must be an array of chat messages", field)
	}
	var msgs []RawMessage
	var roles []string
	sc := jsonx.Scanner{Data: raw, Valid: r.valid}
	perr := sc.Elements(func(k int, v []byte, _ bool) error {
		m, role, err := tree.ValidateMessageOf(v, jsonx.Sprintf("%s[%d]", field, k), r.valid)
		if err != nil {
			return err
		}
		msgs, roles = append(msgs, m), append(roles, role)
		return nil
	})
	if perr != nil {
		if e, ok := perr.(*Error); ok {
			return nil, nil, e
		}
		return nil, nil, tree.Invalidf("field %q is not valid JSON: %s", field, jsonx.ErrorText(perr))
	}
	if len(msgs) == 0 && !allowEmpty {
		return nil, nil, tree.Invalidf("field %q must hold at least one message", field)
	}
	return msgs, roles, nil
}
