package entries

import (
	"strings"

	"github.com/sessiontree/sessiontree/core/internal/formats"
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/sessiontree/sessiontree/core/internal/msgtext"
)

// AppendJSON appends to b the "entry" object of an entry node of kind
// with fields e, fields in the fixed order of Kinds' table, optional
// fields only when present. Its values were checked by Parse: raw fields
// are written as they are.
func AppendJSON(b []byte, e *formats.Entry, kind string) []byte {
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
	case formats.KindModelChange:
		key("provider")
		b = jsonx.AppendString(b, e.Provider)
		key("model")
		b = jsonx.AppendString(b, e.Model)
	case formats.KindThinkingLevelChange:
		key("level")
		b = jsonx.AppendString(b, e.Level)
	case formats.KindActiveToolsChange:
		key("tools")
		b = append(b, '[')
		for i, t := range e.Tools {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonx.AppendString(b, t)
		}
		b = append(b, ']')
	case formats.KindCompaction:
		key("summary")
		b = jsonx.AppendString(b, e.Summary)
		key("firstKeptNodeId")
		b = jsonx.AppendString(b, e.FirstKeptNodeID)
		if e.TokensBefore != nil {
			key("tokensBefore")
			b = append(b, e.TokensBefore...)
		}
	case formats.KindCustom:
		key("customType")
		b = jsonx.AppendString(b, e.CustomType)
		if e.Data != nil {
			key("data")
			b = append(b, e.Data...)
		}
	case formats.KindCustomMessage:
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
	case formats.KindSessionInfo:
		key("name")
		b = jsonx.AppendString(b, e.Name)
	}
	return append(b, '}')
}

// Text is the readable text of an entry node of kind with fields e: what
// its tree line, preview and search show ("" for a kind that is not an
// entry kind).
func Text(kind string, e *formats.Entry) string {
	switch kind {
	case formats.KindModelChange:
		return e.Provider + "/" + e.Model
	case formats.KindThinkingLevelChange:
		return e.Level
	case formats.KindActiveToolsChange:
		if len(e.Tools) == 0 {
			return "(no tools)"
		}
		return strings.Join(e.Tools, ", ")
	case formats.KindCompaction:
		return e.Summary
	case formats.KindCustom:
		return e.CustomType
	case formats.KindCustomMessage:
		return msgtext.ContentText(e.Content)
	case formats.KindSessionInfo:
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
func CompactionMessage(summary string) jsonx.RawMessage {
	return UserMessage(jsonx.AppendString(nil, CompactionPreamble+summary+CompactionClosing))
}

// CustomMessage returns the user message context gives for a
// custom_message entry e: {"role":"user","content":…} with its content.
func CustomMessage(e *formats.Entry) jsonx.RawMessage {
	return UserMessage(e.Content)
}

// UserMessage returns {"role":"user","content":content}; content is JSON,
// written as it is.
func UserMessage(content []byte) jsonx.RawMessage {
	b := make([]byte, 0, len(content)+27)
	b = append(b, `{"role":"user","content":`...)
	b = append(b, content...)
	return append(b, '}')
}
