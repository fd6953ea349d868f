package names

import (
	"hash/fnv"

	"github.com/sessiontree/sessiontree/core/internal/formats"
)

// DerivedSessionID returns the id an import gives a conversation whose
// own id Problem refuses: "import-" and 16 hex digits of the FNV-1a hash
// of the id, so importing the same file again finds the same session.
func DerivedSessionID(id string) string {
	h := fnv.New128a()
	_, _ = h.Write([]byte(id))
	return "import-" + formats.HexString(h.Sum(nil)[:8])
}

// RenameUnusableNodeIDs gives each record of c whose id Problem
// refuses a derived one ("m-" and 16 hex digits of the FNV-1a hash of the
// id), with a warning, and follows the renames in parent links, the
// current leaf, labels and compactions' first kept node. Empty ids are
// left to the caller. warn receives each warning as a jsonx.Sprintf
// format and its arguments.
func RenameUnusableNodeIDs(c *formats.Conversation, warn func(format string, args ...any)) {
	var renamed map[string]string
	for i := range c.Records {
		id := c.Records[i].ID
		if id == "" {
			continue
		}
		if p := Problem(id, MaxNodeIDLength); p != "" {
			if renamed == nil {
				renamed = make(map[string]string)
			}
			h := fnv.New128a()
			_, _ = h.Write([]byte(id))
			derived := "m-" + formats.HexString(h.Sum(nil)[:8])
			renamed[id] = derived
			c.Records[i].ID = derived
			warn("message id %q %s; it is imported as %q", id, p, derived)
		}
	}
	if renamed == nil {
		return
	}
	follow := func(id *string) {
		if to, ok := renamed[*id]; ok {
			*id = to
		}
	}
	for i := range c.Records {
		follow(&c.Records[i].ParentID)
		if e := c.Records[i].Entry; e != nil {
			follow(&e.FirstKeptNodeID)
		}
	}
	follow(&c.Current)
	for i := range c.Labels {
		follow(&c.Labels[i].Target)
	}
}
