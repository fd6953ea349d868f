package formats

import "github.com/sessiontree/sessiontree/core/internal/jsonx"

// The vocabulary of sessiontree's data model that importers and exporters
// share with core, which re-exports each name (core.KindMessage, core.Entry,
// …).

// Node kinds of snapshot version 1.
const (
	// KindMessage is a node carrying a chat message in Message.
	KindMessage = "message"
	// KindSummary is a node carrying a branch summary in Summary; context
	// turns it into a user message (see SummaryMessage).
	KindSummary = "summary"
)

// TimeLayout is the layout of every timestamp sessiontree writes: RFC 3339,
// UTC, milliseconds ("2026-11-29T22:13:42.123Z").
const TimeLayout = "2006-01-02T15:04:05.000Z"

// entry kinds of snapshot version 1, after the Pi coding agent's session
// entry types (session-manager.ts). A node of one of these kinds carries its
// fields in Node.Entry and, on the wire, in an "entry" object:
//
//	{"id":…,"parentId":…,"branch":…,"kind":"model_change","timestamp":…,"entry":{"provider":"openai","model":"gpt-5"}}
const (
	// KindModelChange records a switch of model: entry {provider, model}.
	KindModelChange = "model_change"
	// KindThinkingLevelChange records a switch of reasoning effort: entry {level}.
	KindThinkingLevelChange = "thinking_level_change"
	// KindActiveToolsChange records the tool set in force: entry {tools}.
	KindActiveToolsChange = "active_tools_change"
	// KindCompaction replaces the path before firstKeptNodeId by a summary in
	// context: entry {summary, firstKeptNodeId, tokensBefore?}. A
	// compaction whose firstKeptNodeId is its own id keeps nothing before
	// it (an imported or loaded one; append names a node of the path).
	KindCompaction = "compaction"
	// KindCustom is extension data that never reaches the model: entry
	// {customType, data?}.
	KindCustom = "custom"
	// KindCustomMessage is an extension's model-visible message: entry
	// {customType, content, display?, details?}; context gives it as a user
	// message with that content.
	KindCustomMessage = "custom_message"
	// KindSessionInfo names the session from this point on: entry {name}
	// ("" clears the name).
	KindSessionInfo = "session_info"
)

// Entry holds the kind-specific fields of an entry node. Only the fields of
// the node's kind are set. Data, Details and Content are raw JSON kept as
// received (compacted); TokensBefore keeps the number's exact digits.
type Entry struct {
	Provider        string           // model_change
	Model           string           // model_change
	Level           string           // thinking_level_change
	Tools           []string         // active_tools_change (never nil)
	Summary         string           // compaction
	FirstKeptNodeID string           // compaction
	TokensBefore    jsonx.RawMessage // compaction, nil when absent
	CustomType      string           // custom, custom_message
	Data            jsonx.RawMessage // custom, nil when absent
	Content         jsonx.RawMessage // custom_message: a string or an array of content parts
	Display         *bool            // custom_message, nil when absent
	Details         jsonx.RawMessage // custom_message, nil when absent
	Name            string           // session_info
}

// DefaultBranch is the active branch of a new session.
const DefaultBranch = "main"
