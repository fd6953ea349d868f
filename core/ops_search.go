package core

import (
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/sessiontree/sessiontree/core/internal/store"
	"github.com/sessiontree/sessiontree/core/internal/tree"
)

func parseSearchRequest(st *Store, r *request) (*store.SearchRequest, *Error) {
	q := &store.SearchRequest{Limit: store.DefaultSearchLimit}
	var err *Error
	if q.Query, err = r.str("query"); err != nil {
		return nil, err
	}
	if err := store.CheckQuery(q.Query); err != nil {
		return nil, err
	}
	if r.has("sessionId") {
		if q.Session, err = r.existing(st); err != nil {
			return nil, err
		}
	}
	if q.Branch, err = r.branchName("branch", false); err != nil {
		return nil, err
	}
	if err := q.CheckBranch(); err != nil {
		return nil, err
	}
	if r.has("limit") {
		var limit float64
		if !jsonx.ReadFloat(r.fields["limit"], &limit) || limit != float64(int(limit)) || limit < 1 || limit > store.MaxSearchLimit {
			return nil, tree.Invalidf("field \"limit\" must be an integer from 1 to %d", store.MaxSearchLimit)
		}
		q.Limit = int(limit)
	}
	if r.has("roles") {
		var roles []string
		if !jsonx.ReadStrings(r.fields["roles"], &roles) {
			return nil, tree.Invalidf("field \"roles\" must be an array of role names such as [\"user\", \"assistant\"]")
		}
		if err := q.SetRoles(roles); err != nil {
			return nil, err
		}
	}
	if q.Session == nil {
		if err := st.s.Searchable(q.Branch != "" || q.Roles != nil); err != nil {
			return nil, err
		}
	}
	return q, nil
}

func opSearch(st *Store, r *request) (any, *Error) {
	q, err := parseSearchRequest(st, r)
	if err != nil {
		return nil, err
	}
	return st.s.RunSearch(q)
}
