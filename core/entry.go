package core

import (
	"bytes"
	"maps"
	"slices"
	"strings"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/sessiontree/sessiontree/core/internal/msgtext"
)

// entryKinds lists the entry kinds with their fields in wire order; a field
// name ending in "?" is optional.
var entryKinds = map[string][]string{
	KindModelChange:         {"provider", "model"},
	KindThinkingLevelChange: {"level"},
	KindActiveToolsChange:   {"tools"},
	KindCompaction:          {"summary", "firstKeptNodeId", "tokensBefore?"},
	KindCustom:              {"customType", "data?"},
	KindCustomMessage:       {"customType", "content", "display?", "details?"},
	KindSessionInfo:         {"name"},
}

// EntryKinds returns the entry kinds, sorted.
func EntryKinds() []string {
	return slices.Sorted(maps.Keys(entryKinds))
}

// IsEntryKind reports whether kind is one of the entry kinds.
func IsEntryKind(kind string) bool {
	_, ok := entryKinds[kind]
	return ok
}

// knownKinds is the list of every node kind for error messages.
func knownKinds() string {
	return strings.Join(append([]string{KindMessage, KindSummary}, EntryKinds()...), ", ")
}

// ParseEntry validates the entry object of an append request,
// {"kind":…, …fields}, and returns its kind and fields. field names the
// object in error messages ("entry"). Errors are INVALID_ARGUMENT naming
// the bad field ("entry.model must be a non-empty string").
func ParseEntry(raw RawMessage, field string) (string, *Entry, *Error) {
	fields, err := entryObject(raw, field)
	if err != nil {
		return "", nil, err
	}
	kraw, ok := fields["kind"]
	if !ok {
		return "", nil, invalidf("%s.kind is missing (one of: %s)", field, strings.Join(EntryKinds(), ", "))
	}
	var kind string
	if !jsonx.ReadString(kraw, &kind) {
		return "", nil, invalidf("%s.kind must be a string", field)
	}
	if !IsEntryKind(kind) {
		return "", nil, invalidf("%s.kind %q is not an entry kind (one of: %s)", field, kind, strings.Join(EntryKinds(), ", "))
	}
	delete(fields, "kind")
	e, err := entryFields(kind, fields, field)
	return kind, e, err
}

// parseEntryBody validates the "entry" object of a snapshot node of kind.
func parseEntryBody(kind string, raw RawMessage, field string) (*Entry, *Error) {
	fields, err := entryObject(raw, field)
	if err != nil {
		return nil, err
	}
	return entryFields(kind, fields, field)
}

func entryObject(raw RawMessage, field string) (map[string]RawMessage, *Error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, invalidf("%s must be a JSON object", field)
	}
	if err := jsonx.CheckSyntax(raw); err != nil {
		return nil, invalidf("%s is not valid JSON: %s", field, jsonx.ErrorText(err))
	}
	var fields map[string]RawMessage
	jsonx.ReadRawMap(raw, &fields) // an object (checked above)
	return fields, nil
}

// entryFields checks the fields of an entry of kind: every required field
// present and well-typed, no unknown field.
func entryFields(kind string, fields map[string]RawMessage, field string) (*Entry, *Error) {
	spec := entryKinds[kind]
	allowed := make([]string, len(spec))
	for i, f := range spec {
		allowed[i] = strings.TrimSuffix(f, "?")
	}
	for _, name := range slices.Sorted(maps.Keys(fields)) {
		known := false
		for _, a := range allowed {
			known = known || a == name
		}
		if !known {
			return nil, invalidf("%s.%s is not a field of a %s entry (fields: %s)", field, name, kind, strings.Join(allowed, ", "))
		}
	}
	for i, f := range spec {
		if !strings.HasSuffix(f, "?") {
			if _, ok := fields[allowed[i]]; !ok {
				return nil, invalidf("%s.%s is missing (a %s entry has %s)", field, allowed[i], kind, strings.Join(allowed, ", "))
			}
		}
	}
	e := &Entry{}
	str := func(name string, nonEmpty bool) (string, *Error) {
		var s string
		if !jsonx.ReadString(fields[name], &s) || isNull(fields[name]) {
			if nonEmpty {
				return "", invalidf("%s.%s must be a non-empty string", field, name)
			}
			return "", invalidf("%s.%s must be a string", field, name)
		}
		if nonEmpty && strings.TrimSpace(s) == "" {
			return "", invalidf("%s.%s must be a non-empty string", field, name)
		}
		return s, nil
	}
	raw := func(name string) (RawMessage, *Error) {
		v, ok := fields[name]
		if !ok {
			return nil, nil
		}
		c, err := jsonx.CompactRaw(v)
		if err != nil {
			return nil, invalidf("%s.%s is not valid JSON: %v", field, name, err)
		}
		return c, nil
	}
	var err *Error
	switch kind {
	case KindModelChange:
		if e.Provider, err = str("provider", true); err != nil {
			return nil, err
		}
		if e.Model, err = str("model", true); err != nil {
			return nil, err
		}
	case KindThinkingLevelChange:
		if e.Level, err = str("level", true); err != nil {
			return nil, err
		}
	case KindActiveToolsChange:
		if !jsonx.ReadStrings(fields["tools"], &e.Tools) || e.Tools == nil {
			return nil, invalidf("%s.tools must be an array of tool names", field)
		}
		for i, t := range e.Tools {
			if strings.TrimSpace(t) == "" {
				return nil, invalidf("%s.tools[%d] must be a non-empty string", field, i)
			}
		}
	case KindCompaction:
		if e.Summary, err = str("summary", true); err != nil {
			return nil, err
		}
		if e.FirstKeptNodeID, err = str("firstKeptNodeId", true); err != nil {
			return nil, err
		}
		if v, ok := fields["tokensBefore"]; ok {
			var n uint64
			if !jsonx.ReadUint(v, &n) || isNull(v) || bytes.ContainsAny(v, ".eE") {
				return nil, invalidf("%s.tokensBefore must be a non-negative integer", field)
			}
			e.TokensBefore, _ = jsonx.CompactRaw(v)
		}
	case KindCustom:
		if e.CustomType, err = str("customType", true); err != nil {
			return nil, err
		}
		if e.Data, err = raw("data"); err != nil {
			return nil, err
		}
	case KindCustomMessage:
		if e.CustomType, err = str("customType", true); err != nil {
			return nil, err
		}
		if err := validContent(fields["content"], field+".content"); err != nil {
			return nil, err
		}
		if e.Content, err = raw("content"); err != nil {
			return nil, err
		}
		if v, ok := fields["display"]; ok {
			var d bool
			if !jsonx.ReadBool(v, &d) || isNull(v) {
				return nil, invalidf("%s.display must be true or false", field)
			}
			e.Display = &d
		}
		if e.Details, err = raw("details"); err != nil {
			return nil, err
		}
	case KindSessionInfo:
		if e.Name, err = str("name", false); err != nil {
			return nil, err
		}
	}
	return e, nil
}

func isNull(raw RawMessage) bool {
	return bytes.Equal(bytes.TrimSpace(raw), []byte("null"))
}

// validContent checks a message content value: a string or an array of
// content-part objects.
func validContent(raw RawMessage, field string) *Error {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if jsonx.ReadString(raw, &s) {
			return nil
		}
	}
	if len(raw) > 0 && raw[0] == '[' {
		var parts []RawMessage
		if !jsonx.ReadRaws(raw, &parts) {
			return invalidf("%s is not a valid array", field)
		}
		for i, p := range parts {
			if len(p) == 0 || p[0] != '{' {
				return invalidf("%s[%d] must be an object (a content part)", field, i)
			}
		}
		return nil
	}
	return invalidf("%s must be a string or an array of content parts", field)
}

// appendEntryJSON appends the "entry" object of an entry node, fields in
// the fixed order of entryKinds, optional fields only when present.
func appendEntryJSON(b []byte, e *Entry, kind string) []byte {
	b = append(b, '{')
	first := true
	key := func(name string) {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = jsonx.AppendKey(b, name)
	}
	switch kind {
	case KindModelChange:
		key("provider")
		b = jsonx.AppendString(b, e.Provider)
		key("model")
		b = jsonx.AppendString(b, e.Model)
	case KindThinkingLevelChange:
		key("level")
		b = jsonx.AppendString(b, e.Level)
	case KindActiveToolsChange:
		key("tools")
		b = append(b, '[')
		for i, t := range e.Tools {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonx.AppendString(b, t)
		}
		b = append(b, ']')
	case KindCompaction:
		key("summary")
		b = jsonx.AppendString(b, e.Summary)
		key("firstKeptNodeId")
		b = jsonx.AppendString(b, e.FirstKeptNodeID)
		if e.TokensBefore != nil {
			key("tokensBefore")
			b = append(b, e.TokensBefore...)
		}
	case KindCustom:
		key("customType")
		b = jsonx.AppendString(b, e.CustomType)
		if e.Data != nil {
			key("data")
			b = append(b, e.Data...)
		}
	case KindCustomMessage:
		key("customType")
		b = jsonx.AppendString(b, e.CustomType)
		key("content")
		b = append(b, e.Content...)
		if e.Display != nil {
			key("display")
			b = jsonx.AppendBool(b, *e.Display)
		}
		if e.Details != nil {
			key("details")
			b = append(b, e.Details...)
		}
	case KindSessionInfo:
		key("name")
		b = jsonx.AppendString(b, e.Name)
	}
	return append(b, '}')
}

// checkEntryPlace validates what an entry says about the tree around the
// place it goes (under parent): a compaction's firstKeptNodeId must be on
// the root→parent path.
func (s *Session) checkEntryPlace(kind string, e *Entry, parent int32, field string) *Error {
	return s.checkEntryPlaceOf(kind, e, parent, "", field)
}

// checkEntryPlaceOf is checkEntryPlace for an entry whose id is known
// (self: an import or a snapshot): a compaction may also name itself,
// which keeps nothing before it in context (Pi's buildSessionContext for
// a compaction whose firstKeptEntryId is on no entry of the path).
func (s *Session) checkEntryPlaceOf(kind string, e *Entry, parent int32, self, field string) *Error {
	if kind != KindCompaction || self != "" && e.FirstKeptNodeID == self {
		return nil
	}
	j, ok := s.index[e.FirstKeptNodeID]
	if !ok || !s.isAncestor(j, parent) {
		return invalidf("%s.firstKeptNodeId %q must be a node on the path from the root to the compaction's parent", field, e.FirstKeptNodeID)
	}
	return nil
}

// isAncestor reports whether a is b or an ancestor of b.
func (s *Session) isAncestor(a, b int32) bool {
	if a < 0 || b < 0 || s.depth[a] > s.depth[b] {
		return false
	}
	for b >= 0 && s.depth[b] > s.depth[a] {
		b = s.parent[b]
	}
	return a == b
}

// entryText is the readable text of an entry node: what its tree line,
// preview and search show.
func entryText(kind string, e *Entry) string {
	switch kind {
	case KindModelChange:
		return e.Provider + "/" + e.Model
	case KindThinkingLevelChange:
		return e.Level
	case KindActiveToolsChange:
		if len(e.Tools) == 0 {
			return "(no tools)"
		}
		return strings.Join(e.Tools, ", ")
	case KindCompaction:
		return e.Summary
	case KindCustom:
		return e.CustomType
	case KindCustomMessage:
		return msgtext.ContentText(e.Content)
	case KindSessionInfo:
		if e.Name == "" {
			return "(name cleared)"
		}
		return e.Name
	}
	return ""
}

// CompactionPreamble opens the user message that context makes of the
// newest compaction on the path; the wording follows the Pi coding agent.
const CompactionPreamble = "The conversation history before this point was compacted into the following summary:\n\n<summary>\n"

// CompactionClosing closes the user message of a compaction.
const CompactionClosing = "\n</summary>"

// CompactionMessage returns the chat message context gives for a
// compaction: {"role":"user","content":CompactionPreamble+summary+CompactionClosing}.
func CompactionMessage(summary string) RawMessage {
	return userMessage(jsonx.AppendString(nil, CompactionPreamble+summary+CompactionClosing))
}

// customMessage returns the user message of a custom_message entry.
func customMessage(e *Entry) RawMessage {
	return userMessage(e.Content)
}

// userMessage returns {"role":"user","content":content}; content is JSON.
func userMessage(content []byte) RawMessage {
	b := make([]byte, 0, len(content)+27)
	b = append(b, `{"role":"user","content":`...)
	b = append(b, content...)
	return append(b, '}')
}

// ModelState is the model in force: the provider and model of the newest
// model_change on the path.
type ModelState struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
}

// State is the configuration in force at a node: for each setting, the
// newest entry that set it on the root→node path, or null when none did.
// ActiveTools is [] after an entry that turned every tool off.
type State struct {
	Model         *ModelState `json:"model"`
	ThinkingLevel *string     `json:"thinkingLevel"`
	ActiveTools   *[]string   `json:"activeTools"`
	SessionName   *string     `json:"sessionName"`
}

// AppendJSON appends the state as
// {"model":{"provider":…,"model":…}|null,"thinkingLevel":…|null,"activeTools":[…]|null,"sessionName":…|null}.
func (st State) AppendJSON(b []byte) []byte {
	b = append(b, `{"model":`...)
	if st.Model == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, `{"provider":`...)
		b = jsonx.AppendString(b, st.Model.Provider)
		b = append(b, `,"model":`...)
		b = jsonx.AppendString(b, st.Model.Model)
		b = append(b, '}')
	}
	b = append(b, `,"thinkingLevel":`...)
	b = jsonx.AppendOptString(b, st.ThinkingLevel)
	b = append(b, `,"activeTools":`...)
	if st.ActiveTools == nil || *st.ActiveTools == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, t := range *st.ActiveTools {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonx.AppendString(b, t)
		}
		b = append(b, ']')
	}
	b = append(b, `,"sessionName":`...)
	b = jsonx.AppendOptString(b, st.SessionName)
	return append(b, '}')
}

// stateAt returns the state in force along path (root first).
func (s *Session) stateAt(path []int32) State {
	var st State
	for _, i := range path {
		st.apply(s.nodes[i])
	}
	return st
}

// apply takes node n's entry, when it is a configuration change, into st.
func (st *State) apply(n *Node) {
	e := n.Entry
	switch n.Kind {
	case KindModelChange:
		st.Model = &ModelState{Provider: e.Provider, Model: e.Model}
	case KindThinkingLevelChange:
		st.ThinkingLevel = &e.Level
	case KindActiveToolsChange:
		tools := e.Tools
		st.ActiveTools = &tools
	case KindSessionInfo:
		if e.Name == "" {
			st.SessionName = nil
		} else {
			st.SessionName = &e.Name
		}
	}
}

// describeState is the one-line text of a state, for commands.
func describeState(st State) string {
	var parts []string
	if st.Model != nil {
		parts = append(parts, "model "+st.Model.Provider+"/"+st.Model.Model)
	}
	if st.ThinkingLevel != nil {
		parts = append(parts, "thinking "+*st.ThinkingLevel)
	}
	if st.ActiveTools != nil {
		parts = append(parts, jsonx.Sprintf("tools [%s]", strings.Join(*st.ActiveTools, ", ")))
	}
	if st.SessionName != nil {
		parts = append(parts, jsonx.Sprintf("name %q", *st.SessionName))
	}
	if len(parts) == 0 {
		return "(defaults)"
	}
	return strings.Join(parts, ", ")
}
