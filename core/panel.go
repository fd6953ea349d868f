package core

// PanelView is the value of the panel service's operations (remote.list,
// remote.jump, remote.fork, remote.session): everything a tree panel draws,
// in one reply — the session's status and its tree (rows with indent,
// branch tips, the cursor path, labels, hidden and preferred flags, and
// the text rendering).
type PanelView struct {
	Session Status `json:"session"`
	Tree    Tree   `json:"tree"`
}

func panelView(s *Session) PanelView {
	return PanelView{Session: s.Status(), Tree: s.Tree()}
}

// panelOp wraps operation op for the panel: it runs op's handler (recording
// a change under op's own name, so change events say "jump" or "fork") and
// answers the PanelView of the session it leaves current: the new session
// after a fork, the request's session otherwise.
func panelOp(op string) func(st *Store, r *request) (any, *Error) {
	return func(st *Store, r *request) (any, *Error) {
		r.op = op
		v, err := operations[op].run(st, r)
		if err != nil {
			return nil, err
		}
		id, _ := r.sessionID()
		if status, ok := v.(Status); ok {
			id = status.SessionID
		}
		s, err := st.s.Lookup(id)
		if err != nil {
			return nil, err
		}
		return panelView(s), nil
	}
}
