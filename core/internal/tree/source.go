package tree

import (
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/sessiontree/sessiontree/core/internal/names"
)

// Where a session came from. fork and clone append a "source" annotation
// to the session they make, and an import appends one for the link its
// format carries (Pi's parentSession, Codex's forked_from_id, Claude
// Code's forkedFrom, Open WebUI's originalChatId; formats/links.go):
//
//	{"kind":"source","nodeId":null,"sourceSessionId":…,"sourceNodeId":…|null,"via":"fork"|"clone"|"import","timestamp":…}
//
// Like a title record it names no node of its own session (nodeId is
// null): sourceNodeId is a node of the SOURCE session (the node forked at;
// a clone's source cursor; null when the format does not say). The record
// is append-only and the newest one is the session's source; it goes
// wherever annotations go (snapshots, IndexedDB, other tabs), so a
// version 1 snapshot without one still loads. A fork or clone never
// copies its source's source record: each session names its own parent.
// The link is kept as written even when the source session is not in the
// store (not imported yet, deleted): the family operation resolves it
// when asked (family.go).

// AnnotationSource records the session a session was made from (see the
// file comment of source.go).
const AnnotationSource = "source"

// The ways a session comes from another (Annotation.Via).
const (
	SourceFork   = "fork"
	SourceClone  = "clone"
	SourceImport = "import"
)

// SourceLink is a session's newest source record, kept on the Session
// (and on its stub, so the family of paged-out sessions needs no load).
type SourceLink struct {
	SessionID string
	NodeID    string // "" when unknown
	Via       string
}

// RecordSource appends a source record to the new session f (made from
// node at of src; at -1 for no node) stamped now.
func (f *Session) RecordSource(src *Session, at int32, via, now string) {
	f.Annotate(&Annotation{Kind: AnnotationSource, SourceSession: src.id, SourceNode: src.NodeID(at), Via: via, Timestamp: now})
}

// appendSourceJSON appends the source members of a source record.
func (a *Annotation) appendSourceJSON(b []byte) []byte {
	b = append(b, `,"sourceSessionId":`...)
	b = jsonx.AppendString(b, a.SourceSession)
	b = append(b, `,"sourceNodeId":`...)
	b = jsonx.AppendNullableString(b, a.SourceNode)
	b = append(b, `,"via":`...)
	return jsonx.AppendString(b, a.Via)
}

// parseSource fills a source record's members from a snapshot's raw
// fields; at names the record in the error (INVALID_SNAPSHOT).
func (a *Annotation) parseSource(session, node, via []byte, at string) *Error {
	sid, present, ok := nodeField(session)
	if !present || !ok || names.Problem(sid, names.MaxSessionIDLength) != "" {
		return SnapshotFault("%s needs a sourceSessionId string (1–%d visible characters)", at, names.MaxSessionIDLength)
	}
	nid, _, ok := nodeField(node)
	if !ok || nid != "" && names.Problem(nid, names.MaxNodeIDLength) != "" {
		return SnapshotFault("%s has a bad sourceNodeId: a node id string or null", at)
	}
	v, _, _ := nodeField(via)
	switch v {
	case SourceFork, SourceClone, SourceImport:
	default:
		return SnapshotFault("%s has a bad via %q (known: fork, clone, import)", at, v)
	}
	a.SourceSession, a.SourceNode, a.Via = sid, nid, v
	return nil
}

// sourceMembersOnly reports whether a record of kind carries a source
// member it may not have (only source records have them).
func sourceMembersOnly(kind string, session, node, via []byte) bool {
	return kind != AnnotationSource && (session != nil || node != nil || via != nil)
}

// AppendSourceMeta appends `,"source":{"sessionId","nodeId","via"}` to a
// session's stored summary (its meta record) when it has a source, so a
// stub made from that summary keeps the link (see opPageStub).
func (s *Session) AppendSourceMeta(b []byte) []byte {
	if s.Source == nil {
		return b
	}
	b = append(b, `,"source":{"sessionId":`...)
	b = jsonx.AppendString(b, s.Source.SessionID)
	b = append(b, `,"nodeId":`...)
	b = jsonx.AppendNullableString(b, s.Source.NodeID)
	b = append(b, `,"via":`...)
	b = jsonx.AppendString(b, s.Source.Via)
	return append(b, '}')
}

// StubSource is the "source" member of a page.stub entry (the stored
// meta's; see Session.AppendSourceMeta).
type StubSource struct {
	SessionID string  `json:"sessionId"`
	NodeID    *string `json:"nodeId"`
	Via       string  `json:"via"`
}

// stubSourceFields are the keys of StubSource's fields, in order.
var stubSourceFields = []string{"sessionId", "nodeId", "via"}

// ReadStubSource reads a page.stub entry's "source" v into *e (null sets
// it to nil) and reports whether every field has its type.
func ReadStubSource(v []byte, e **StubSource) bool {
	if jsonx.IsNull(v) {
		*e = nil
		return true
	}
	if *e == nil {
		*e = &StubSource{}
	}
	s, ok := *e, true
	ok = jsonx.ReadObject(v, stubSourceFields, func(field int, v []byte) {
		switch field {
		case 0:
			ok = jsonx.ReadString(v, &s.SessionID) && ok
		case 1:
			ok = jsonx.ReadStringPtr(v, &s.NodeID) && ok
		case 2:
			ok = jsonx.ReadString(v, &s.Via) && ok
		}
	}) && ok
	return ok
}

// Link returns the stub source as a SourceLink (nil for none or a bad one:
// a stored summary never fails page.stub for it).
func (e *StubSource) Link() *SourceLink {
	if e == nil || names.Problem(e.SessionID, names.MaxSessionIDLength) != "" {
		return nil
	}
	l := &SourceLink{SessionID: e.SessionID, Via: e.Via}
	if e.NodeID != nil {
		l.NodeID = *e.NodeID
	}
	return l
}
