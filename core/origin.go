package core

import "github.com/sessiontree/sessiontree/core/internal/jsonx"

// A session's origin: the tool whose history it was imported from and the
// project (working folder) its conversation belongs to, answered by
// "sessions" so a list can be grouped and filtered by them (issue 26). Set
// by the import that makes a session (never changed by a later one: the
// first import's answer stays), carried in the drained metadata
// ("tool", "project"), and taken back by "restore" and "page.stub". A
// snapshot does not carry them.

// setOrigin records tool and project where the session has none yet. A
// snapshot import is no tool: its sessions came from sessiontree itself.
func (s *Session) setOrigin(tool, project string) {
	if s.tool == "" && tool != "snapshot" {
		s.tool = tool
	}
	if s.project == "" {
		s.project = project
	}
}

// appendOrigin appends the members `,"tool":…,"project":…` of the
// drained metadata, each only when known.
func (s *Session) appendOrigin(b []byte) []byte {
	if s.tool != "" {
		b = append(b, `,"tool":`...)
		b = jsonx.AppendString(b, s.tool)
	}
	if s.project != "" {
		b = append(b, `,"project":`...)
		b = jsonx.AppendString(b, s.project)
	}
	return b
}
