package tree

import "github.com/sessiontree/sessiontree/core/internal/jsonx"

// A session's origin: the tool whose history it was imported from and the
// project (working folder) its conversation belongs to, answered by
// "sessions" so a list can be grouped and filtered by them (issue 26). Set
// by the import that makes a session (never changed by a later one: the
// first import's answer stays), carried in the drained metadata
// ("tool", "project"), and taken back by "restore" and "page.stub". A
// snapshot does not carry them.

// SetOrigin records tool and project where the session has none yet. A
// snapshot import is no tool: its sessions came from sessiontree itself.
func (s *Session) SetOrigin(tool, project string) {
	if s.Tool == "" && tool != "snapshot" {
		s.Tool = tool
	}
	if s.Project == "" {
		s.Project = project
	}
}

// AppendOrigin appends the members `,"tool":…,"project":…` of the
// drained metadata, each only when known.
func (s *Session) AppendOrigin(b []byte) []byte {
	if s.Tool != "" {
		b = append(b, `,"tool":`...)
		b = jsonx.AppendString(b, s.Tool)
	}
	if s.Project != "" {
		b = append(b, `,"project":`...)
		b = jsonx.AppendString(b, s.Project)
	}
	return b
}
