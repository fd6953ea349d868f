package formats

import (
	"strconv"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// How the Pi reader reads an entry line: one pass of the validating
// scanner over the line, each member matched to a field of piLine by its
// name (else the first field whose name matches it ignoring case, as
// encoding/json matches struct fields; the last of a repeated member
// wins), the message checked where it stands (lineMessage) when it has
// the shape core takes as it is. A member of the wrong type (an id that
// is a number, a firstKeptEntryIndex that is not an integer) makes the
// line unusable, as a struct decoder's type error did: the reader skips
// it with a warning.

// piLine is an entry line's members. String fields hold the member
// decoded (nil: missing or null); the others its raw JSON.
type piLine struct {
	Type      string
	ID        string // "" when missing or null
	ParentID  jsonx.RawMessage
	Timestamp jsonx.RawMessage
	Branch    *string
	Message   jsonx.RawMessage

	ThinkingLevel       jsonx.RawMessage
	Provider            jsonx.RawMessage
	ModelID             jsonx.RawMessage
	Tools               jsonx.RawMessage
	Summary             jsonx.RawMessage
	FirstKeptEntryID    jsonx.RawMessage
	FirstKeptEntryIndex *int
	TokensBefore        jsonx.RawMessage
	CustomType          jsonx.RawMessage
	Data                jsonx.RawMessage
	Content             jsonx.RawMessage
	Display             jsonx.RawMessage
	Details             jsonx.RawMessage
	Name                jsonx.RawMessage
	TargetID            *string
	Label               *string

	// role is the message's role when lineMessage read it as core takes
	// it (asIs); spaced says the line has white space between tokens, so
	// neither the line nor the message is compact as it stands.
	role   string
	asIs   bool
	spaced bool
	// bad says a member has the wrong type for its field.
	bad bool
}

// piLineKeys are piLine's member names, in the order of its fields.
var piLineKeys = []string{"type", "id", "parentId", "timestamp", "branch", "message",
	"thinkingLevel", "provider", "modelId", "tools", "summary", "firstKeptEntryId", "firstKeptEntryIndex",
	"tokensBefore", "customType", "data", "content", "display", "details", "name", "targetId", "label"}

// piKey returns the index in piLineKeys of the field key names: its exact
// name, else the first name it matches ignoring case; -1 for none.
func piKey(key []byte) int {
	switch string(key) { // the common members without a loop
	case "type":
		return 0
	case "id":
		return 1
	case "parentId":
		return 2
	case "timestamp":
		return 3
	case "message":
		return 5
	}
	return jsonx.Match(key, piLineKeys)
}

// readPiLine reads the entry line raw in one pass; ok is false when raw
// is not valid JSON (the caller's syntax check then names the fault). A
// valid line that is not an object, or has a member of the wrong type,
// comes back with bad set.
func readPiLine(raw []byte) (l piLine, ok bool) {
	sc := jsonx.Scanner{Data: raw}
	sc.SkipSpace()
	if sc.Peek() != '{' {
		return piLine{bad: true}, jsonx.Valid(raw)
	}
	err := sc.Object(func(key []byte) error {
		i := piKey(key)
		if i == 5 {
			return l.message(&sc)
		}
		v, _, serr := sc.Value()
		if serr != nil {
			return serr
		}
		if i >= 0 {
			l.set(i, v)
		}
		return nil
	})
	if err != nil || sc.End() != nil {
		return piLine{}, false
	}
	l.spaced = sc.Spaced
	return l, true
}

// message reads the message member at sc: in place when lineMessage
// takes it (asIs), else as a raw value for the reader to check.
func (l *piLine) message(sc *jsonx.Scanner) error {
	start := sc.Pos
	msg, role, err := lineMessage(sc)
	if err == nil {
		l.Message, l.role, l.asIs = msg, role, true
		return nil
	}
	if err != errFast {
		return err
	}
	sc.Pos = start
	v, _, serr := sc.Value()
	if serr != nil {
		return serr
	}
	l.Message, l.role, l.asIs = v, "", false
	return nil
}

// set takes the value v of the member whose field is piLineKeys[i]
// (the message is read by message).
func (l *piLine) set(i int, v []byte) {
	v = v[:len(v):len(v)]
	ok := true
	switch i {
	case 0:
		ok = setString(&l.Type, v)
	case 1:
		l.ID = "" // null clears it
		ok = setString(&l.ID, v)
	case 2:
		l.ParentID = v
	case 3:
		l.Timestamp = v
	case 4:
		ok = setStringPtr(&l.Branch, v)
	case 6:
		l.ThinkingLevel = v
	case 7:
		l.Provider = v
	case 8:
		l.ModelID = v
	case 9:
		l.Tools = v
	case 10:
		l.Summary = v
	case 11:
		l.FirstKeptEntryID = v
	case 12:
		ok = setIntPtr(&l.FirstKeptEntryIndex, v)
	case 13:
		l.TokensBefore = v
	case 14:
		l.CustomType = v
	case 15:
		l.Data = v
	case 16:
		l.Content = v
	case 17:
		l.Display = v
	case 18:
		l.Details = v
	case 19:
		l.Name = v
	case 20:
		ok = setStringPtr(&l.TargetID, v)
	case 21:
		ok = setStringPtr(&l.Label, v)
	}
	l.bad = l.bad || !ok
}

// setString reads the string member v into *dst as a struct decoder
// does: null leaves *dst, any other value than a string is a type error
// (false).
func setString(dst *string, v []byte) bool {
	if string(v) == "null" {
		return true
	}
	s, ok := lineString(v)
	if ok {
		*dst = s
	}
	return ok
}

// setStringPtr is setString for a *string: null clears it.
func setStringPtr(dst **string, v []byte) bool {
	if string(v) == "null" {
		*dst = nil
		return true
	}
	if v[0] != '"' {
		return false
	}
	s, _ := lineString(v)
	*dst = &s // (an allocation only here)
	return true
}

// setIntPtr reads an integer member into *dst (null clears it); a number
// with a fraction or exponent, or out of range, is a type error (false).
func setIntPtr(dst **int, v []byte) bool {
	if string(v) == "null" {
		*dst = nil
		return true
	}
	if len(v) == 0 || v[0] != '-' && (v[0] < '0' || v[0] > '9') {
		return false
	}
	n, err := strconv.ParseInt(string(v), 10, 0)
	if err != nil {
		return false
	}
	k := int(n)
	*dst = &k
	return true
}

// piEntryBody returns the entry kind of a Pi entry line and the entry
// object {kind, …fields} to validate, or "" for a type with no kind.
func piEntryBody(l *piLine) (string, jsonx.RawMessage) {
	b := []byte(`{"kind":`)
	field := func(name string, raw jsonx.RawMessage) {
		if raw != nil {
			b = append(b, ',')
			b = jsonx.AppendKey(b, name)
			c, err := jsonx.CompactRaw(raw)
			if err != nil {
				c = []byte("null")
			}
			b = append(b, c...)
		}
	}
	var kind string
	switch l.Type {
	case "model_change":
		kind = KindModelChange
		b = jsonx.AppendString(b, kind)
		field("provider", l.Provider)
		field("model", l.ModelID)
	case "thinking_level_change":
		kind = KindThinkingLevelChange
		b = jsonx.AppendString(b, kind)
		field("level", l.ThinkingLevel)
	case "active_tools_change":
		kind = KindActiveToolsChange
		b = jsonx.AppendString(b, kind)
		field("tools", l.Tools)
	case "compaction":
		kind = KindCompaction
		b = jsonx.AppendString(b, kind)
		field("summary", l.Summary)
		field("firstKeptNodeId", l.FirstKeptEntryID)
		field("tokensBefore", l.TokensBefore)
	case "custom":
		kind = KindCustom
		b = jsonx.AppendString(b, kind)
		field("customType", l.CustomType)
		field("data", l.Data)
	case "custom_message":
		kind = KindCustomMessage
		b = jsonx.AppendString(b, kind)
		field("customType", l.CustomType)
		field("content", l.Content)
		field("display", l.Display)
		field("details", l.Details)
	case "session_info":
		kind = KindSessionInfo
		b = jsonx.AppendString(b, kind)
		name := l.Name
		if name == nil {
			name = jsonx.RawMessage(`""`)
		}
		field("name", name)
	default:
		return "", nil
	}
	return kind, append(b, '}')
}

// piHeaderKeys are piHeader's member names, in the order of its fields,
// and piHeaderExtKeys piHeaderExt's.
var (
	piHeaderKeys    = []string{"type", "version", "id", "timestamp", "cwd", "parentSession", "sessiontree"}
	piHeaderExtKeys = []string{"title", "activeBranch", "annotations"}
)

// readPiHeader reads the header line raw (valid JSON) as a struct decoder
// reads it into piHeader (see readPiLine); ok is false when raw is not an
// object or a member has the wrong type.
func readPiHeader(raw []byte) (h piHeader, ok bool) {
	if len(raw) == 0 || raw[0] != '{' {
		return h, false
	}
	ok = true
	sc := jsonx.Scanner{Data: raw}
	err := sc.Object(func(key []byte) error {
		v, _, serr := sc.Value()
		if serr != nil {
			return serr
		}
		switch jsonx.Match(key, piHeaderKeys) {
		case 0:
			ok = setString(&h.Type, v) && ok
		case 1:
			ok = setIntPtr(&h.Version, v) && ok
		case 2:
			ok = setString(&h.ID, v) && ok
		case 3:
			h.Timestamp = v
		case 4:
			ok = setString(&h.Cwd, v) && ok
		case 5:
			h.ParentSession = v
		case 6:
			ok = h.extension(v) && ok
		}
		return nil
	})
	return h, ok && err == nil
}

// extension reads the header's "sessiontree" member v into
// h.Sessiontree (null clears it; a second one adds to the first, as a
// struct decoder does); false for a member of the wrong type.
func (h *piHeader) extension(v []byte) bool {
	if string(v) == "null" {
		h.Sessiontree = nil
		return true
	}
	if v[0] != '{' {
		return false
	}
	if h.Sessiontree == nil {
		h.Sessiontree = &piHeaderExt{}
	}
	ext, ok := h.Sessiontree, true
	sc := jsonx.Scanner{Data: v}
	_ = sc.Object(func(key []byte) error {
		m, _, _ := sc.Value()
		switch jsonx.Match(key, piHeaderExtKeys) {
		case 0:
			ok = setStringPtr(&ext.Title, m) && ok
		case 1:
			ok = setString(&ext.ActiveBranch, m) && ok
		case 2:
			switch {
			case string(m) == "null":
				ext.Annotations = nil
			case m[0] != '[':
				ok = false
			default:
				ext.Annotations = appendElements([]jsonx.RawMessage{}, m)
			}
		}
		return nil
	})
	return ok
}

// appendElements appends the elements of the array raw (valid JSON) to
// list.
func appendElements(list []jsonx.RawMessage, raw []byte) []jsonx.RawMessage {
	sc := jsonx.Scanner{Data: raw}
	_ = sc.Elements(func(_ int, v []byte, _ bool) error {
		list = append(list, v)
		return nil
	})
	return list
}
