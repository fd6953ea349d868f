package tree

import (
	"github.com/sessiontree/sessiontree/core/internal/entries"
	"github.com/sessiontree/sessiontree/core/internal/formats"
)

// The entry nodes' kinds, fields, JSON, text and the state they set are
// core/internal/entries'; core names them here as its own and checks
// where an entry may stand in a session's tree.

// ParseEntry validates the entry object of an append request,
// {"kind":…, …fields}, and returns its kind and fields. field names the
// object in error messages ("entry"). Errors are INVALID_ARGUMENT naming
// the bad field ("entry.model must be a non-empty string"; see
// entries.Parse).
func ParseEntry(raw RawMessage, field string) (string, *formats.Entry, *Error) {
	kind, e, err := entries.Parse(raw, field)
	if err != nil {
		return "", nil, Invalidf("%s", err.Error())
	}
	return kind, e, nil
}

// CheckEntryPlace validates what an entry says about the tree around the
// place it goes (under parent): a compaction's firstKeptNodeId must be on
// the root→parent path.
func (s *Session) CheckEntryPlace(kind string, e *formats.Entry, parent int32, field string) *Error {
	return s.CheckEntryPlaceOf(kind, e, parent, "", field)
}

// CheckEntryPlaceOf is CheckEntryPlace for an entry whose id is known
// (self: an import or a snapshot): a compaction may also name itself,
// which keeps nothing before it in context (Pi's buildSessionContext for
// a compaction whose firstKeptEntryId is on no entry of the path).
func (s *Session) CheckEntryPlaceOf(kind string, e *formats.Entry, parent int32, self, field string) *Error {
	if kind != formats.KindCompaction || self != "" && e.FirstKeptNodeID == self {
		return nil
	}
	j, ok := s.Index[e.FirstKeptNodeID]
	if !ok || !s.IsAncestor(j, parent) {
		return Invalidf("%s.firstKeptNodeId %q must be a node on the path from the root to the compaction's parent", field, e.FirstKeptNodeID)
	}
	return nil
}

// IsAncestor reports whether a is b or an ancestor of b.
func (s *Session) IsAncestor(a, b int32) bool {
	if a < 0 || b < 0 || s.Depth[a] > s.Depth[b] {
		return false
	}
	for b >= 0 && s.Depth[b] > s.Depth[a] {
		b = s.Parent[b]
	}
	return a == b
}

// ModelState is the model in force: the provider and model of the newest
// model_change on the path (entries.ModelState).
type ModelState = entries.ModelState

// State is the configuration in force at a node: for each setting, the
// newest entry that set it on the root→node path, or null when none did
// (entries.State).
type State = entries.State

// StateAt returns the state in force along path (root first).
func (s *Session) StateAt(path []int32) State {
	var st State
	for _, i := range path {
		n := s.Nodes[i]
		st.Apply(n.Kind, n.Entry)
	}
	return st
}
