package formats

import "github.com/sessiontree/sessiontree/core/internal/jsonx"

// The records of an OpenCode storage tree (see opencode.go), read field by
// field. A file whose fields do not have the types below is skipped with a
// warning that quotes the first misfit as jsonx.Unmarshal words it ("json:
// cannot unmarshal number into Go struct field ocSession.title of type
// string"), so the warnings are the ones the reflection decoder gave.

type ocSession struct {
	ID        string
	Directory string
	ParentID  string
	Title     string
	Time      ocTime
	Revert    *struct{ MessageID string }
	raw       jsonx.RawMessage
}

type ocTime struct {
	Created jsonx.RawMessage
}

type ocMessage struct {
	ID        string
	SessionID string
	Role      string
	ParentID  string
	Time      ocTime
	Error     jsonx.RawMessage
	raw       jsonx.RawMessage
	parts     []ocPart
}

type ocPart struct {
	ID        string
	MessageID string
	Type      string
	Text      *string
	Ignored   bool
	Mime      string
	Filename  string
	URL       string
	CallID    string
	Tool      string
	State     *ocToolState
	raw       jsonx.RawMessage
}

type ocToolState struct {
	Status string
	Input  jsonx.RawMessage
	Output *string
	Error  string
}

// The keys of each record's fields, in the order of its read's switch.
var (
	ocSessionFields   = []string{"id", "directory", "parentID", "title", "time", "revert"}
	ocMessageFields   = []string{"id", "sessionID", "role", "parentID", "time", "error"}
	ocPartFields      = []string{"id", "messageID", "type", "text", "ignored", "mime", "filename", "url", "callID", "tool", "state"}
	ocToolStateFields = []string{"status", "input", "output", "error"}
	ocTimeFields      = []string{"created"}
	ocRevertFields    = []string{"messageID"}
)

// ocReader reads one record file, keeping the first value that does not
// fit its field.
type ocReader struct {
	data []byte // the file's text
	err  error
}

// check records a misfit of the value v for the field (a dotted path
// from the record's struct strct) of Go type typ, unless ok.
func (r *ocReader) check(ok bool, v []byte, typ, strct, field string) {
	if !ok && r.err == nil {
		r.err = jsonx.Mismatch(r.data, v, typ, strct, field)
	}
}

// readOCRecord reads data, one record file, with read, which fills the
// record from the object; the error is the syntax error, the file's
// value when it is not an object (null is an empty record), or the first
// field that does not fit.
func readOCRecord(data []byte, read func(r *ocReader, v []byte)) error {
	if err := jsonx.CheckSyntax(data); err != nil {
		return err
	}
	r := &ocReader{data: data}
	read(r, data)
	return r.err
}

// object reads the object v with fn, recording a misfit of typ (named
// within strct as field) when v is neither an object nor null.
func (r *ocReader) object(v []byte, names []string, typ, strct, field string, fn func(field int, v []byte)) {
	if jsonx.IsNull(v) {
		return
	}
	r.check(jsonx.ReadObject(v, names, fn), v, typ, strct, field)
}

// str reads the string field of strct.
func (r *ocReader) str(v []byte, dst *string, strct, field string) {
	r.check(jsonx.ReadString(v, dst), v, "string", strct, field)
}

// time reads a record's "time" object.
func (r *ocReader) time(v []byte, t *ocTime, strct string) {
	r.object(v, ocTimeFields, "formats.ocTime", strct, "time", func(_ int, v []byte) { t.Created = v })
}

// read fills the session from the object v (the whole file).
func (s *ocSession) read(r *ocReader, v []byte) {
	const st = "ocSession"
	r.object(v, ocSessionFields, "formats.ocSession", "", "", func(field int, v []byte) {
		switch field {
		case 0:
			r.str(v, &s.ID, st, "id")
		case 1:
			r.str(v, &s.Directory, st, "directory")
		case 2:
			r.str(v, &s.ParentID, st, "parentID")
		case 3:
			r.str(v, &s.Title, st, "title")
		case 4:
			r.time(v, &s.Time, st)
		case 5:
			if jsonx.IsNull(v) {
				s.Revert = nil
				return
			}
			if s.Revert == nil {
				s.Revert = &struct{ MessageID string }{}
			}
			r.object(v, ocRevertFields, `struct { MessageID string "json:\"messageID\"" }`, st, "revert", func(_ int, v []byte) {
				r.str(v, &s.Revert.MessageID, "", "revert.messageID")
			})
		}
	})
}

// read fills the message from the object v (the whole file).
func (m *ocMessage) read(r *ocReader, v []byte) {
	const st = "ocMessage"
	r.object(v, ocMessageFields, "formats.ocMessage", "", "", func(field int, v []byte) {
		switch field {
		case 0:
			r.str(v, &m.ID, st, "id")
		case 1:
			r.str(v, &m.SessionID, st, "sessionID")
		case 2:
			r.str(v, &m.Role, st, "role")
		case 3:
			r.str(v, &m.ParentID, st, "parentID")
		case 4:
			r.time(v, &m.Time, st)
		case 5:
			m.Error = v
		}
	})
}

// read fills the part from the object v (the whole file).
func (p *ocPart) read(r *ocReader, v []byte) {
	const st = "ocPart"
	strs := [...]*string{0: &p.ID, 1: &p.MessageID, 2: &p.Type, 5: &p.Mime, 6: &p.Filename, 7: &p.URL, 8: &p.CallID, 9: &p.Tool}
	r.object(v, ocPartFields, "formats.ocPart", "", "", func(field int, v []byte) {
		switch field {
		case 3:
			r.check(jsonx.ReadStringPtr(v, &p.Text), v, "string", st, "text")
		case 4:
			r.check(jsonx.ReadBool(v, &p.Ignored), v, "bool", st, "ignored")
		case 10:
			p.readState(r, v)
		default:
			r.str(v, strs[field], st, ocPartFields[field])
		}
	})
}

// readState reads a tool part's "state".
func (p *ocPart) readState(r *ocReader, v []byte) {
	if jsonx.IsNull(v) {
		p.State = nil
		return
	}
	if p.State == nil {
		p.State = &ocToolState{}
	}
	s := p.State
	const st = "ocToolState"
	r.object(v, ocToolStateFields, "formats.ocToolState", "ocPart", "state", func(field int, v []byte) {
		switch field {
		case 0:
			r.str(v, &s.Status, st, "state.status")
		case 1:
			s.Input = v
		case 2:
			r.check(jsonx.ReadStringPtr(v, &s.Output), v, "string", st, "state.output")
		case 3:
			r.str(v, &s.Error, st, "state.error")
		}
	})
}
