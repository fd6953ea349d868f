package formats

import (
	"bytes"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// Claude Code's one-pass line reader (see lines_fast.go): a user or
// assistant message line, {"parentUuid","isSidechain","sessionId","uuid",
// "timestamp","type","message":{"role","content",…},…}, compact and with
// a message core takes as it is, is read straight into its record. The
// decoding path (Line, from the line's map of members) reads every other
// line and gives every warning: a summary, system or other line, a uuid
// or parentUuid that is missing or not a string, a member read here
// twice, white space between tokens, a compact summary, a message core
// refuses.

// claudeCodeFastLine is what the one-pass reader takes of a message line.
type claudeCodeFastLine struct {
	typ, uuid, parent, sessionID string
	parentNull                   bool
	logical                      *string // logicalParentUuid, when a string
	sidechain, meta              bool
	boundary                     bool // subtype "compact_boundary"
	timestamp                    []byte
	message                      []byte // checked by lineMessage
	role                         string // the message's, from lineMessage
}

// RawLine is formats.RawLiner's: a message line after the first is read
// in one pass (lineFast), with nothing split out first (the first is
// hashed by Line, to name a file without a session id).
func (r *claudeCodeReader) RawLine(raw []byte, _ int) bool {
	if r.lines == 0 || !r.lineFast(raw) {
		return false
	}
	r.lines++
	return true
}

// lineFast reads the line raw when it is a message line of the common
// shape (see the top of this file) and reports whether it did; false
// leaves the line, untouched, to the decoding path.
func (r *claudeCodeReader) lineFast(raw []byte) bool {
	if !LinesOnePass || raw[0] != '{' {
		return false
	}
	l, ok := readClaudeCodeFast(raw, r.sessionID == "", r.lastID())
	if !ok {
		return false
	}
	if r.sessionID == "" && l.sessionID != "" {
		r.sessionID = l.sessionID
	}
	parent, inferred := l.parent, false
	if l.parentNull && l.logical != nil && *l.logical != "" {
		// A compacted continuation, linked back (as Line does).
		parent, inferred = *l.logical, true
	}
	t, stamp := lineTimes(l.timestamp)
	if t > 0 && (r.created == 0 || t < r.created) {
		r.created = t
	}
	rec := Record{ID: l.uuid, ParentID: parent, Inferred: inferred, Time: t, Stamp: stamp,
		Source: raw[:len(raw):len(raw)], Aside: l.sidechain, Message: l.message, Written: true, Role: l.role}
	if l.sidechain {
		rec.Branch = "sidechain"
	}
	if l.boundary {
		r.bounds[l.uuid] = true
	}
	if l.typ == "user" && !l.sidechain && !l.meta && (r.firstText == "" || t < r.firstTime) && !bytes.Contains(l.message, []byte(`"tool_result"`)) {
		r.firstText, r.firstTime = claudeCodeTitle(r.model, l.message), t
	}
	r.recs = appendRecord(r.recs, rec)
	return true
}

// lastID returns the uuid of the last record read ("" before the first).
func (r *claudeCodeReader) lastID() string {
	if len(r.recs) == 0 {
		return ""
	}
	return r.recs[len(r.recs)-1].ID
}

// readClaudeCodeFast reads a message line in one pass; ok is false when
// it is not one of the common shape. wantSession says the session id is
// still to be found (it is decoded only then); last is the previous
// record's uuid.
func readClaudeCodeFast(raw []byte, wantSession bool, last string) (l claudeCodeFastLine, ok bool) {
	sc := jsonx.Scanner{Data: raw}
	var seen fastField
	err := sc.Object(func(key []byte) error {
		// The decoding path reads a map of members: keys match exactly.
		bit := claudeCodeKey(key)
		if seen&bit != 0 {
			return errFast
		}
		seen |= bit
		if bit == ccMessage {
			var err error
			l.message, l.role, err = lineMessage(&sc)
			return err
		}
		v, _, serr := sc.Value()
		if serr != nil {
			return serr
		}
		return l.member(bit, v, wantSession, last)
	})
	const need = ccType | ccUUID | ccParent | ccMessage
	if err != nil || sc.End() != nil || sc.Spaced || seen&need != need {
		return claudeCodeFastLine{}, false
	}
	return l, true
}

// The members readClaudeCodeFast reads, as bits of a fastField.
const (
	ccType fastField = 1 << iota
	ccUUID
	ccParent
	ccLogical
	ccSidechain
	ccSession
	ccTime
	ccMessage
	ccSubtype
	ccCompactSummary
	ccMeta
)

// claudeCodeKey returns the bit of a member readClaudeCodeFast reads, 0
// for any other.
func claudeCodeKey(key []byte) fastField {
	switch string(key) {
	case "type":
		return ccType
	case "uuid":
		return ccUUID
	case "parentUuid":
		return ccParent
	case "logicalParentUuid":
		return ccLogical
	case "isSidechain":
		return ccSidechain
	case "sessionId":
		return ccSession
	case "timestamp":
		return ccTime
	case "message":
		return ccMessage
	case "subtype":
		return ccSubtype
	case "isCompactSummary":
		return ccCompactSummary
	case "isMeta":
		return ccMeta
	}
	return 0
}

// member takes the value v of the member bit into l; errFast leaves the
// line to the decoding path.
func (l *claudeCodeFastLine) member(bit fastField, v []byte, wantSession bool, last string) error {
	ok := true
	switch bit {
	case ccType:
		switch string(v) {
		case `"user"`:
			l.typ = "user"
		case `"assistant"`:
			l.typ = "assistant"
		default:
			return errFast
		}
	case ccUUID:
		l.uuid, ok = lineString(v)
		ok = ok && l.uuid != ""
	case ccParent:
		l.parentNull = string(v) == "null"
		l.parent, ok = lineParent(v, last)
		ok = ok || l.parentNull
	case ccLogical:
		if s, isString := lineString(v); isString {
			l.logical = &s
		}
	case ccSidechain:
		l.sidechain = string(v) == "true"
	case ccSession:
		if wantSession {
			l.sessionID, _ = lineString(v)
		}
	case ccTime:
		l.timestamp = v
	case ccSubtype:
		l.boundary = string(v) == `"compact_boundary"`
		if !l.boundary && bytes.IndexByte(v, '\\') >= 0 {
			s, _ := lineString(v)
			l.boundary = s == "compact_boundary"
		}
	case ccCompactSummary:
		ok = string(v) != "true" // a compact summary is the decoding path's
	case ccMeta:
		l.meta = string(v) == "true"
	}
	if !ok {
		return errFast
	}
	return nil
}
