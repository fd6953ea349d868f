// Package entries holds the entry nodes of a session tree: their kinds
// and fields (Kinds), the checks an entry object passes (Parse, ParseBody:
// every required field present and well-typed, no unknown field), its
// JSON (AppendJSON), its readable text (Text), the user messages context
// makes of compactions and custom messages, and the configuration in
// force along a path (State). An entry's fields are a formats.Entry.
//
// It knows no session: where an entry may stand in a tree (a compaction's
// firstKeptNodeId on the path) is core's to check. Errors are plain
// errors whose text names the field ("entry.model must be a non-empty
// string"); core answers them as INVALID_ARGUMENT.
package entries

import (
	"bytes"
	"errors"
	"maps"
	"slices"
	"strings"

	"github.com/sessiontree/sessiontree/core/internal/formats"
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// kinds lists the entry kinds with their fields in wire order; a field
// name ending in "?" is optional. A list, not a map: static data, where
// the map literal was 2.6 KB of wasm code that V8 compiled and ran at
// every start of the program; kindFields finds a kind among the seven.
var kinds = [...]struct {
	name   string
	fields []string
}{
	{formats.KindModelChange, []string{"provider", "model"}},
	{formats.KindThinkingLevelChange, []string{"level"}},
	{formats.KindActiveToolsChange, []string{"tools"}},
	{formats.KindCompaction, []string{"summary", "firstKeptNodeId", "tokensBefore?"}},
	{formats.KindCustom, []string{"customType", "data?"}},
	{formats.KindCustomMessage, []string{"customType", "content", "display?", "details?"}},
	{formats.KindSessionInfo, []string{"name"}},
}

// kindFields returns the fields of the entry kind kind (see kinds); ok is
// false when kind is not one.
func kindFields(kind string) (fields []string, ok bool) {
	for _, k := range kinds {
		if k.name == kind {
			return k.fields, true
		}
	}
	return nil, false
}

// Kinds returns the entry kinds, sorted.
func Kinds() []string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k.name
	}
	slices.Sort(names)
	return names
}

// IsKind reports whether kind is one of the entry kinds.
func IsKind(kind string) bool {
	_, ok := kindFields(kind)
	return ok
}

// NodeKinds lists every node kind, for error messages: "message, summary,
// " and the entry kinds, sorted.
func NodeKinds() string {
	return strings.Join(append([]string{formats.KindMessage, formats.KindSummary}, Kinds()...), ", ")
}

// errorf returns an error whose text is format filled by jsonx.Sprintf.
func errorf(format string, args ...any) error {
	return errors.New(jsonx.Sprintf(format, args...))
}

// Parse checks the entry object of an append request, {"kind":…,
// …fields}, and returns its kind and fields. field names the object in
// errors ("entry"): a kind that is missing or not an entry kind, a field
// missing, unknown or of the wrong type ("entry.model must be a non-empty
// string"), JSON that is not valid (with line and column).
func Parse(raw jsonx.RawMessage, field string) (string, *formats.Entry, error) {
	members, err := object(raw, field)
	if err != nil {
		return "", nil, err
	}
	kraw, ok := members["kind"]
	if !ok {
		return "", nil, errorf("%s.kind is missing (one of: %s)", field, strings.Join(Kinds(), ", "))
	}
	var kind string
	if !jsonx.ReadString(kraw, &kind) {
		return "", nil, errorf("%s.kind must be a string", field)
	}
	if !IsKind(kind) {
		return "", nil, errorf("%s.kind %q is not an entry kind (one of: %s)", field, kind, strings.Join(Kinds(), ", "))
	}
	delete(members, "kind")
	e, err := fields(kind, members, field)
	return kind, e, err
}

// ParseBody checks the "entry" object of a snapshot node of kind (an
// entry kind; the object holds no "kind"), with Parse's errors.
func ParseBody(kind string, raw jsonx.RawMessage, field string) (*formats.Entry, error) {
	members, err := object(raw, field)
	if err != nil {
		return nil, err
	}
	return fields(kind, members, field)
}

// object reads the entry object raw (field names it in errors) into its
// members.
func object(raw jsonx.RawMessage, field string) (map[string]jsonx.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, errorf("%s must be a JSON object", field)
	}
	if err := jsonx.CheckSyntax(raw); err != nil {
		return nil, errorf("%s is not valid JSON: %s", field, jsonx.ErrorText(err))
	}
	var members map[string]jsonx.RawMessage
	jsonx.ReadRawMap(raw, &members) // an object (checked above)
	return members, nil
}

// fields reads the members of an entry of kind into its fields, each
// well-typed (checkMembers first).
func fields(kind string, members map[string]jsonx.RawMessage, field string) (*formats.Entry, error) {
	if err := checkMembers(kind, members, field); err != nil {
		return nil, err
	}
	e := &formats.Entry{}
	str := func(name string, nonEmpty bool) (string, error) {
		var s string
		if !jsonx.ReadString(members[name], &s) || isNull(members[name]) {
			if nonEmpty {
				return "", errorf("%s.%s must be a non-empty string", field, name)
			}
			return "", errorf("%s.%s must be a string", field, name)
		}
		if nonEmpty && strings.TrimSpace(s) == "" {
			return "", errorf("%s.%s must be a non-empty string", field, name)
		}
		return s, nil
	}
	raw := func(name string) (jsonx.RawMessage, error) {
		v, ok := members[name]
		if !ok {
			return nil, nil
		}
		c, err := jsonx.CompactRaw(v)
		if err != nil {
			return nil, errorf("%s.%s is not valid JSON: %v", field, name, err)
		}
		return c, nil
	}
	var err error
	switch kind {
	case formats.KindModelChange:
		if e.Provider, err = str("provider", true); err != nil {
			return nil, err
		}
		if e.Model, err = str("model", true); err != nil {
			return nil, err
		}
	case formats.KindThinkingLevelChange:
		if e.Level, err = str("level", true); err != nil {
			return nil, err
		}
	case formats.KindActiveToolsChange:
		if !jsonx.ReadStrings(members["tools"], &e.Tools) || e.Tools == nil {
			return nil, errorf("%s.tools must be an array of tool names", field)
		}
		for i, t := range e.Tools {
			if strings.TrimSpace(t) == "" {
				return nil, errorf("%s.tools[%d] must be a non-empty string", field, i)
			}
		}
	case formats.KindCompaction:
		if e.Summary, err = str("summary", true); err != nil {
			return nil, err
		}
		if e.FirstKeptNodeID, err = str("firstKeptNodeId", true); err != nil {
			return nil, err
		}
		if v, ok := members["tokensBefore"]; ok {
			var n uint64
			if !jsonx.ReadUint(v, &n) || isNull(v) || bytes.ContainsAny(v, ".eE") {
				return nil, errorf("%s.tokensBefore must be a non-negative integer", field)
			}
			e.TokensBefore, _ = jsonx.CompactRaw(v)
		}
	case formats.KindCustom:
		if e.CustomType, err = str("customType", true); err != nil {
			return nil, err
		}
		if e.Data, err = raw("data"); err != nil {
			return nil, err
		}
	case formats.KindCustomMessage:
		if e.CustomType, err = str("customType", true); err != nil {
			return nil, err
		}
		if err := validContent(members["content"], field+".content"); err != nil {
			return nil, err
		}
		if e.Content, err = raw("content"); err != nil {
			return nil, err
		}
		if v, ok := members["display"]; ok {
			var d bool
			if !jsonx.ReadBool(v, &d) || isNull(v) {
				return nil, errorf("%s.display must be true or false", field)
			}
			e.Display = &d
		}
		if e.Details, err = raw("details"); err != nil {
			return nil, err
		}
	case formats.KindSessionInfo:
		if e.Name, err = str("name", false); err != nil {
			return nil, err
		}
	}
	return e, nil
}

func isNull(raw jsonx.RawMessage) bool {
	return bytes.Equal(bytes.TrimSpace(raw), []byte("null"))
}

// validContent checks a message content value: a string or an array of
// content-part objects.
func validContent(raw jsonx.RawMessage, field string) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if jsonx.ReadString(raw, &s) {
			return nil
		}
	}
	if len(raw) > 0 && raw[0] == '[' {
		var parts []jsonx.RawMessage
		if !jsonx.ReadRaws(raw, &parts) {
			return errorf("%s is not a valid array", field)
		}
		for i, p := range parts {
			if len(p) == 0 || p[0] != '{' {
				return errorf("%s[%d] must be an object (a content part)", field, i)
			}
		}
		return nil
	}
	return errorf("%s must be a string or an array of content parts", field)
}

// checkMembers checks the member names of an entry of kind: every
// required field present, no unknown field.
func checkMembers(kind string, members map[string]jsonx.RawMessage, field string) error {
	spec, _ := kindFields(kind)
	allowed := make([]string, len(spec))
	for i, f := range spec {
		allowed[i] = strings.TrimSuffix(f, "?")
	}
	for _, name := range slices.Sorted(maps.Keys(members)) {
		known := false
		for _, a := range allowed {
			known = known || a == name
		}
		if !known {
			return errorf("%s.%s is not a field of a %s entry (fields: %s)", field, name, kind, strings.Join(allowed, ", "))
		}
	}
	for i, f := range spec {
		if !strings.HasSuffix(f, "?") {
			if _, ok := members[allowed[i]]; !ok {
				return errorf("%s.%s is missing (a %s entry has %s)", field, allowed[i], kind, strings.Join(allowed, ", "))
			}
		}
	}
	return nil
}
