package store

import (
	"github.com/sessiontree/sessiontree/core/internal/formats"
	"github.com/sessiontree/sessiontree/core/internal/tree"
)

// Bulk append: many messages in one call, appended as a chain (each under
// the one before), checked all before any is added. A chat app migrating
// its stored conversations makes one call (and, in the browser, one
// IndexedDB transaction) per conversation instead of one per message.

// AppendMany is the value of append.many: the ids of the new nodes, in
// order, and the session's status after the call.
type AppendMany struct {
	NodeIDs []string    `json:"nodeIds"`
	Session tree.Status `json:"session"`
}

// AppendChain appends msgs (messages already checked, roles[k] the role of
// msgs[k]) to s as a chain: the first at p, each next one under the one
// before, the cursor ending at the last; with create, s is a new session,
// stored first. It records the change under op and returns the new ids
// and the session's status.
func (st *Store) AppendChain(s *tree.Session, create bool, msgs []tree.RawMessage, roles []string, p tree.Placement, op string) AppendMany {
	if create {
		st.PutNew(s, op)
	}
	from := len(s.Nodes)
	s.Reserve(len(msgs))
	out := AppendMany{NodeIDs: make([]string, len(msgs))}
	now := st.Timestamp()
	for k, m := range msgs {
		n := &tree.Node{Kind: formats.KindMessage, Message: m, MessageRole: roles[k], ID: st.DrawNodeID(s, nil), Timestamp: now}
		s.Add(n, p)
		p = tree.Placement{Parent: s.Cursor, Branch: s.Active}
		out.NodeIDs[k] = n.ID
	}
	st.touch(s, from, false, op)
	out.Session = s.Status()
	return out
}
