package core

import (
	"bytes"
	"strings"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/sessiontree/sessiontree/core/internal/store"
	"github.com/sessiontree/sessiontree/core/internal/tree"
)

func opCreate(st *Store, r *request) (any, *Error) {
	id, err := r.sessionID()
	if err != nil {
		return nil, err
	}
	title, err := r.optStr("title")
	if err == nil {
		err = tree.CheckTitle(title) // as rename takes one
	}
	if err != nil {
		return nil, err
	}
	s, err := st.s.CreateAs(id, title, r.op)
	if err != nil {
		return nil, err
	}
	return s.Status(), nil
}

func opAppend(st *Store, r *request) (any, *Error) {
	s, err := r.existing(st)
	if err != nil {
		return nil, err
	}
	n := &Node{Kind: KindMessage}
	switch hasMsg, hasEntry := r.has("message"), r.has("entry"); {
	case hasMsg && hasEntry:
		return nil, tree.Invalidf("fields \"message\" and \"entry\" exclude each other: append takes one of them")
	case hasEntry:
		if n.Kind, n.Entry, err = ParseEntry(r.fields["entry"], "entry"); err != nil {
			return nil, err
		}
	case hasMsg:
		if n.Message, n.MessageRole, err = tree.ValidateMessageOf(r.fields["message"], "message", true); err != nil {
			return nil, err
		}
	default:
		return nil, tree.Invalidf("field \"message\" (a chat message) or \"entry\" (an entry {kind, …}) is required for operation \"append\"")
	}
	branch, err := r.branchName("branch", false)
	if err != nil {
		return nil, err
	}
	root, err := r.optBool("root")
	if err != nil {
		return nil, err
	}
	if err := st.s.AppendNode(s, n, AppendOptions{Branch: branch, Root: root}, r.op); err != nil {
		return nil, err
	}
	return RawMessage(n.AppendJSON(nil)), nil
}

func opList(st *Store, r *request) (any, *Error) {
	s, err := r.existing(st)
	if err != nil {
		return nil, err
	}
	return tree.ListJSON(s.List()), nil
}

func opNode(st *Store, r *request) (any, *Error) {
	s, i, err := r.sessionNode(st)
	if err != nil {
		return nil, err
	}
	return RawMessage(s.Nodes[i].AppendJSON(nil)), nil
}

func opBranches(st *Store, r *request) (any, *Error) {
	s, err := r.existing(st)
	if err != nil {
		return nil, err
	}
	return s.BranchList(), nil
}

func opJump(st *Store, r *request) (any, *Error) {
	s, i, err := r.sessionNode(st)
	if err != nil {
		return nil, err
	}
	st.s.JumpTo(s, i, r.op)
	return s.Status(), nil
}

// newSessionID returns the request's "newSessionId" or a generated one.
func (st *Store) newSessionID(r *request) (string, *Error) {
	if !r.has("newSessionId") {
		return st.s.DrawSessionID(), nil
	}
	id, err := r.idField("newSessionId")
	if err != nil {
		return "", err
	}
	if err := st.s.Taken(id); err != nil {
		return "", err
	}
	return id, nil
}

func opFork(st *Store, r *request) (any, *Error) {
	s, at, err := r.sessionNode(st)
	if err != nil {
		return nil, err
	}
	branch, err := r.branchName("branch", false)
	if err != nil {
		return nil, err
	}
	newID, err := st.newSessionID(r)
	if err != nil {
		return nil, err
	}
	f, err := st.s.ForkAt(s, at, newID, branch, r.op)
	if err != nil {
		return nil, err
	}
	return f.Status(), nil
}

func opClone(st *Store, r *request) (any, *Error) {
	s, err := r.existing(st)
	if err != nil {
		return nil, err
	}
	newID, err := st.newSessionID(r)
	if err != nil {
		return nil, err
	}
	return st.s.CloneAs(s, newID, r.op).Status(), nil
}

func opContext(st *Store, r *request) (any, *Error) {
	s, err := r.existing(st)
	if err != nil {
		return nil, err
	}
	return r.contextValue(st, s)
}

func opSession(st *Store, r *request) (any, *Error) {
	s, err := r.existing(st)
	if err != nil {
		return nil, err
	}
	return s.Status(), nil
}

func opBranch(st *Store, r *request) (any, *Error) {
	s, i, err := r.sessionNode(st)
	if err != nil {
		return nil, err
	}
	name, err := r.branchName("branch", true)
	if err != nil {
		return nil, err
	}
	if err := st.s.BranchAt(s, i, name, r.op); err != nil {
		return nil, err
	}
	return s.Status(), nil
}

func opBranchSummary(st *Store, r *request) (any, *Error) {
	s, i, err := r.sessionNode(st)
	if err != nil {
		return nil, err
	}
	name, err := r.branchName("branch", true)
	if err != nil {
		return nil, err
	}
	summary, err := r.str("summary")
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(summary) == "" {
		return nil, tree.Invalidf("field \"summary\" must not be empty")
	}
	n, err := st.s.SummarizeBranch(s, i, name, summary, r.op)
	if err != nil {
		return nil, err
	}
	return RawMessage(n.AppendJSON(nil)), nil
}

// opSessions answers "sessions": every session's summary, in creation
// order; with "order": "updated", newest first (updatedAt, then
// sessionId, descending, compared as UTF-16 code units: see
// store.SessionsByUpdate), "limit" summaries at most (1 to 2³¹ − 1) after
// "before" ({"updatedAt","sessionId"} of the last summary of the page
// before). limit and before need order "updated".
func opSessions(st *Store, r *request) (any, *Error) {
	order := "created"
	if r.has("order") {
		var err *Error
		if order, err = r.str("order"); err != nil {
			return nil, err
		}
		if order != "created" && order != "updated" {
			return nil, tree.Invalidf("field \"order\" must be \"created\" or \"updated\", not %q", order)
		}
	}
	if order == "created" {
		for _, f := range []string{"limit", "before"} {
			if r.has(f) {
				return nil, tree.Invalidf("field %q needs \"order\": \"updated\" (pages go newest first)", f)
			}
		}
		return st.s.SessionList(), nil
	}
	limit := -1
	if r.has("limit") {
		var err *Error
		if limit, err = r.rowCount("limit"); err != nil || limit == 0 {
			return nil, tree.Invalidf("field \"limit\" must be an integer from 1 to %d", maxRowIndex)
		}
	}
	var before *store.PageKey
	if r.has("before") {
		var k store.PageKey
		seen, lone := 0, false
		if !jsonx.ReadObject(r.fields["before"], []string{"updatedAt", "sessionId"}, func(i int, v []byte) {
			// A string, not null (which ReadString takes as ""), and
			// whole characters: a lone surrogate would be read as U+FFFD.
			v = bytes.TrimSpace(v)
			lone = lone || jsonx.LoneSurrogate(v) >= 0
			if len(v) > 0 && v[0] == '"' && (i == 0 && jsonx.ReadString(v, &k.UpdatedAt) || i == 1 && jsonx.ReadString(v, &k.SessionID)) {
				seen |= 1 << i
			}
		}) || seen != 3 || k.SessionID == "" {
			return nil, tree.Invalidf("field \"before\" must be {\"updatedAt\": string, \"sessionId\": string}: the last summary of the page before")
		}
		if lone {
			return nil, tree.Invalidf("field \"before\" holds a lone UTF-16 surrogate; no stored session has one in its updatedAt or sessionId")
		}
		before = &k
	}
	return st.s.SessionsByUpdate(before, limit), nil
}

// placement reads the request's optional "branch" and decides where the
// next append to s goes (see place), changing nothing.
func (r *request) placement(s *Session) (tree.Placement, *Error) {
	branch, err := r.branchName("branch", false)
	if err != nil {
		return tree.Placement{}, err
	}
	return s.Place(branch)
}
