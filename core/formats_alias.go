package core

import "github.com/sessiontree/sessiontree/core/internal/formats"

// The vocabulary core shares with the format converters
// (core/internal/formats), which cannot import core: the node kinds, the
// timestamp layout, the default branch, the entry fields and the import
// warning are defined there once and named here as core's own.

// Node kinds of snapshot version 1.
const (
	// KindMessage is a node carrying a chat message in Message.
	KindMessage = formats.KindMessage
	// KindSummary is a node carrying a branch summary in Summary; context
	// turns it into a user message (see SummaryMessage).
	KindSummary = formats.KindSummary
)

// Entry kinds of snapshot version 1 (see formats.KindModelChange and the
// others for each kind's fields).
const (
	KindModelChange         = formats.KindModelChange
	KindThinkingLevelChange = formats.KindThinkingLevelChange
	KindActiveToolsChange   = formats.KindActiveToolsChange
	KindCompaction          = formats.KindCompaction
	KindCustom              = formats.KindCustom
	KindCustomMessage       = formats.KindCustomMessage
	KindSessionInfo         = formats.KindSessionInfo
)

// TimeLayout is the layout of every timestamp sessiontree writes: RFC 3339,
// UTC, milliseconds ("2026-11-29T22:13:42.123Z").
const TimeLayout = formats.TimeLayout

// DefaultBranch is the active branch of a new session.
const DefaultBranch = formats.DefaultBranch

// Entry holds the kind-specific fields of an entry node (see
// formats.Entry).
type Entry = formats.Entry

// ImportWarning is something an import could not use or had to guess; the
// message names the conversation and record.
type ImportWarning = formats.Warning

// ImportFormats returns the names of the formats import reads: "auto",
// then each format in detection order.
func ImportFormats() []string {
	return formats.ImportFormats()
}
