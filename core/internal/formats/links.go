package formats

import (
	"strings"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// The links between sessions that exports carry (Conversation's
// ParentSession): each reader's own in a function of its own here.

// piParentSession returns the session id a Pi header's parentSession
// names: Pi writes the parent's file path, whose name is
// "<timestamp>_<id>.jsonl" (session-manager.ts), so the id is the name
// after its last "_" without ".jsonl"; a value without a path is taken as
// the id. "" when absent or not a string, and for sessiontree's own
// export (its annotations carry the source record).
func piParentSession(h *piHeader) string {
	if h.Sessiontree != nil && h.Sessiontree.Annotations != nil {
		return ""
	}
	v, ok := jsonx.ParseString(h.ParentSession)
	if !ok {
		return ""
	}
	if k := strings.LastIndexAny(v, "/\\"); k >= 0 {
		v = v[k+1:]
	}
	v = strings.TrimSuffix(v, ".jsonl")
	if k := strings.LastIndexByte(v, '_'); k >= 0 && strings.Contains(v[:k], "T") {
		v = v[k+1:]
	}
	return v
}
