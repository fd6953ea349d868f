package core

import (
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/sessiontree/sessiontree/core/internal/names"
	"github.com/sessiontree/sessiontree/core/internal/store"
	"github.com/sessiontree/sessiontree/core/internal/tree"
)

// The longest session id, node id and branch name, in code points (see
// core/internal/names).
const (
	MaxSessionIDLength  = names.MaxSessionIDLength
	MaxNodeIDLength     = names.MaxNodeIDLength
	MaxBranchNameLength = names.MaxBranchNameLength
)

// DefaultIgnorable is Unicode's Default_Ignorable_Code_Point property
// (names.DefaultIgnorable).
var DefaultIgnorable = names.DefaultIgnorable

// NameProblem is the one rule for every session id, node id and branch
// name core takes (requests, fork and clone's newSessionId, import ids):
// "" when s is usable with at most max code points, else what is wrong, as
// a phrase that follows the field's name ("is empty", "holds U+2028, a
// line or paragraph separator"). See names.Problem for what it refuses.
func NameProblem(s string, max int) string { return names.Problem(s, max) }

// nameField checks the string field of a request that names a session,
// node or branch: a lone surrogate escape, or a value NameProblem refuses,
// is INVALID_ARGUMENT naming the field and the value.
func (r *request) nameField(field, value string, max int) *Error {
	if jsonx.LoneSurrogate(r.fields[field]) >= 0 {
		return tree.Invalidf("field %q holds a lone UTF-16 surrogate; ids and branch names must be valid Unicode", field)
	}
	return store.CheckName(field, value, max)
}

// nodeIDField returns a required node-id field checked by NameProblem.
func (r *request) nodeIDField(field string) (string, *Error) {
	id, err := r.str(field)
	if err != nil {
		return "", err
	}
	if err := r.nameField(field, id, MaxNodeIDLength); err != nil {
		return "", err
	}
	return id, nil
}
