package store

import "github.com/sessiontree/sessiontree/core/internal/tree"

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
