package core

import "github.com/sessiontree/sessiontree/core/internal/jsonx"

// Node ids in context, on request ({"operation":"context","ids":true}).
// A chat app that edits or regenerates message i needs the node that
// message came from (to branch there) and that node's siblings (the other
// versions of the same turn, for a "2 / 3" switcher). The plain context
// is unchanged and costs nothing more: only a request with "ids": true
// takes this path (and core/wire then answers it as JSON, not in columns).

// contextIDs is the value of context with "ids": true: the view's Context
// plus, for each message, its node id and that node's siblings.
type contextIDs struct{ v ContextView }

// contextValue returns the value of a context request: the plain view,
// or with ids the view wrapped so that it is written with its node ids.
func (r *request) contextValue(st *Store, s *Session) (any, *Error) {
	v := ContextView{View: s.ContextView(st.s.PathOf(s)), TextCache: st.views.TextsOf(s)}
	ids, err := r.optBool("ids")
	if err != nil || !ids {
		return v, err
	}
	return contextIDs{v}, nil
}

// ContextIDs is the value of context with "ids": true:
//
//	{"cursor":…,"messages":[…],"state":{…},"nodeIds":[…],"siblings":[[…],…]}
//
// nodeIds[i] is the id of the node messages[i] came from (a message node,
// a summary, a custom_message entry, or the compaction whose summary
// opens the path). siblings[i] lists the ids of every node with the same
// parent as nodeIds[i] (the roots, for a root), itself included, in
// append order: length 1 for an only child; the index of nodeIds[i] in
// it is the message's place among its versions.
type ContextIDs struct {
	Cursor   *string      `json:"cursor"`
	Messages []RawMessage `json:"messages"`
	State    State        `json:"state"`
	NodeIDs  []string     `json:"nodeIds"`
	Siblings [][]string   `json:"siblings"`
}

// Value returns the ContextIDs the view gives.
func (c contextIDs) Value() ContextIDs {
	s := c.v.Session
	var nodes []int32
	s.ContextNodes(c.v.Path, func(i int32, _ *Node) { nodes = append(nodes, i) })
	ctx := c.v.Context()
	out := ContextIDs{Cursor: ctx.Cursor, Messages: ctx.Messages, State: ctx.State, NodeIDs: make([]string, len(nodes)), Siblings: make([][]string, len(nodes))}
	// The children of each parent on the path, in one pass over the
	// nodes (only the counts are kept in the session).
	kids := make(map[int32][]string, len(nodes))
	for _, i := range nodes {
		if p := s.Parent[i]; p < 0 || s.Children[p] > 1 {
			kids[p] = nil
		}
	}
	if len(kids) > 0 {
		for j := range s.Nodes {
			if list, ok := kids[s.Parent[j]]; ok {
				kids[s.Parent[j]] = append(list, s.Nodes[j].ID)
			}
		}
	}
	for k, i := range nodes {
		out.NodeIDs[k] = s.Nodes[i].ID
		if list, ok := kids[s.Parent[i]]; ok {
			out.Siblings[k] = list
		} else {
			out.Siblings[k] = []string{s.Nodes[i].ID}
		}
	}
	return out
}

// AppendJSON appends the value of context with ids (see ContextIDs).
func (c contextIDs) AppendJSON(b []byte) []byte {
	v := c.Value()
	b = Context{Cursor: v.Cursor, Messages: v.Messages, State: v.State}.AppendJSON(b)
	b = b[:len(b)-1] // the Context's closing brace
	b = append(b, `,"nodeIds":`...)
	b = appendStrings(b, v.NodeIDs)
	b = append(b, `,"siblings":[`...)
	for k, list := range v.Siblings {
		if k > 0 {
			b = append(b, ',')
		}
		b = appendStrings(b, list)
	}
	return append(b, "]}"...)
}

// MarshalJSON encodes the value as AppendJSON does.
func (c contextIDs) MarshalJSON() ([]byte, error) { return c.AppendJSON(nil), nil }

// appendStrings appends list as a JSON array of strings.
func appendStrings(b []byte, list []string) []byte {
	b = append(b, '[')
	for k, s := range list {
		if k > 0 {
			b = append(b, ',')
		}
		b = jsonx.AppendString(b, s)
	}
	return append(b, ']')
}
