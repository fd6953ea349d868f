package core

import "github.com/sessiontree/sessiontree/core/internal/entries"

// EntryKinds returns the entry kinds, sorted.
func EntryKinds() []string { return entries.Kinds() }

// IsEntryKind reports whether kind is one of the entry kinds.
func IsEntryKind(kind string) bool { return entries.IsKind(kind) }

// CompactionPreamble opens the user message that context makes of the
// newest compaction on the path; the wording follows the Pi coding agent.
const CompactionPreamble = entries.CompactionPreamble

// CompactionClosing closes the user message of a compaction.
const CompactionClosing = entries.CompactionClosing

// CompactionMessage returns the chat message context gives for a
// compaction: {"role":"user","content":CompactionPreamble+summary+CompactionClosing}.
func CompactionMessage(summary string) RawMessage { return entries.CompactionMessage(summary) }
