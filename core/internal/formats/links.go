package formats

import (
	"strings"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// The links between sessions that exports carry (Conversation's
// ParentSession): each reader's own in a function of its own here.

// piParentSession returns the session id a Pi header's parentSession
// names: Pi writes the parent's file path, whose name is
// "<timestamp>_<id>.jsonl" (session-manager.ts), so the id is the name
// after its last "_" without ".jsonl"; a value without a path is taken as
// the id. "" when absent or not a string, and for sessiontree's own
// export (its annotations carry the source record).
func piParentSession(h *piHeader) string {
	if h.Sessiontree != nil && h.Sessiontree.Annotations != nil {
		return ""
	}
	v, ok := jsonx.ParseString(h.ParentSession)
	if !ok {
		return ""
	}
	if k := strings.LastIndexAny(v, "/\\"); k >= 0 {
		v = v[k+1:]
	}
	v = strings.TrimSuffix(v, ".jsonl")
	if k := strings.LastIndexByte(v, '_'); k >= 0 && strings.Contains(v[:k], "T") {
		v = v[k+1:]
	}
	return v
}

// claudeCodeParentSession returns the session id a Claude Code line's
// forkedFrom names. /branch copies every entry of the session into a new
// file with forkedFrom {sessionId: the original's, messageUuid: the entry's
// uuid}, and the Agent SDK's forkSession does the same with new uuids
// (Claude Code 2.1.219's createFork and forkSession, as read from its
// bundle in qlan-ro/mainframe docs/research/2026-07-25-todo-246-claude-fork.md);
// a headless `--resume <id> --fork-session` writes none. "" when raw is
// not an object with a string sessionId (a missing, null or odd value is
// no link); a string is returned as it stands, for core to check.
func claudeCodeParentSession(raw jsonx.RawMessage) string {
	if len(raw) == 0 || raw[0] != '{' {
		return ""
	}
	f, err := RawFields(raw)
	if err != nil {
		return ""
	}
	v, _ := jsonx.ParseString(f["sessionId"])
	return v
}

// openWebUIParentSession returns the chat id an Open WebUI chat object's
// originalChatId names: "Clone" (clone_chat_by_id, and
// clone_shared_chat_by_id for a shared chat, in
// backend/open_webui/routers/chats.py) writes the copy's chat JSON as the
// original's with originalChatId (the original's id) and
// branchPointMessageId (its currentId), and the export keeps the chat JSON
// whole. "" when absent or not a string.
func openWebUIParentSession(chat map[string]jsonx.RawMessage) string {
	v, _ := jsonx.ParseString(chat["originalChatId"])
	return v
}
