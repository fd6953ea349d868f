package formats

import (
	"bytes"
	"slices"
	"strconv"
	"strings"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// Cline and Roo Code task folders (cline/cline,
// apps/vscode/src/core/storage/disk.ts: GlobalFileNames; Roo Code keeps the
// same three files): tasks/<taskId>/ holds
//
//   - api_conversation_history.json: the array of messages sent to the
//     model, Anthropic message params {"role":"user"|"assistant",
//     "content": string | blocks} (ClineStorageMessage in
//     src/shared/messages/content.ts adds "id", "modelInfo", "metrics" and
//     "ts", milliseconds); tool results often come back as user text;
//   - ui_messages.json: what the panel showed, ClineMessage
//     {ts, type:"ask"|"say", ask?, say?, text?, …, lastCheckpointHash?,
//     conversationHistoryIndex?} (src/shared/ExtensionMessage.ts), where
//     conversationHistoryIndex is the index of the last API message when
//     it was written;
//   - task_metadata.json: {files_in_context, model_usage,
//     environment_history} (ContextTrackerTypes.ts).
//
// Mapping: each API message is a message node, in order, one chain: the
// context at the cursor is the API history. Each UI message is a custom
// entry "cline/<type>/<ask|say>" (data: the UI message) placed after the API
// message its conversationHistoryIndex names (the last index seen before
// it when it has none), so timestamps, costs and checkpoints sit where
// they happened and never reach the model. task_metadata.json is a second
// root, a custom entry "cline/task_metadata". Node ids are derived from
// the task id, the position and the record, so a task that grew adds its
// new records, and a history rewritten after a checkpoint restore adds the
// new turns as a branch. The title is the task prompt (the UI's first
// "task" message, else the API history's <task> text), the project the
// "Current Working Directory (…)" of the first environment_details.

// ClineTaskFiles are the files of one Cline task folder (nil when absent).
type ClineTaskFiles struct {
	TaskID            string
	API, UI, Metadata []byte
}

// detectCline reports whether a top-level array looks like a Cline API
// history: its first message is a user message whose content carries
// Cline's <task> or <environment_details> text, or it has a "ts".
func detectCline(sn *Sniff) bool {
	if sn.Shape != '[' || sn.str("role") != "user" {
		return false
	}
	c := sn.Keys["content"]
	if _, ts := sn.Keys["ts"]; ts && len(c) > 0 && c[0] == '[' {
		return true
	}
	return bytes.Contains(c, []byte("<task>")) || bytes.Contains(c, []byte("<environment_details>"))
}

// convertClineWhole reads a lone api_conversation_history.json: one task,
// its id derived from its first message.
func convertClineWhole(model *Model, top jsonx.RawMessage) ([]Conversation, []Warning, error) {
	c, warns := ConvertClineTask(model, ClineTaskFiles{API: top})
	return []Conversation{c}, warns, nil
}

type clineUI struct {
	Ts                   jsonx.RawMessage
	Type, Ask, Say, Text string
	Index                *int // conversationHistoryIndex
}

// clineUIFields are the keys of clineUI's fields, in order.
var clineUIFields = []string{"ts", "type", "ask", "say", "text", "conversationHistoryIndex"}

// read reads the UI message object raw and reports whether every field it
// reads has the right type.
func (m *clineUI) read(raw []byte) bool {
	ok := true
	ok = jsonx.ReadObject(raw, clineUIFields, func(field int, v []byte) {
		switch field {
		case 0:
			m.Ts = v
		case 1:
			ok = jsonx.ReadString(v, &m.Type) && ok
		case 2:
			ok = jsonx.ReadString(v, &m.Ask) && ok
		case 3:
			ok = jsonx.ReadString(v, &m.Say) && ok
		case 4:
			ok = jsonx.ReadString(v, &m.Text) && ok
		case 5:
			ok = jsonx.ReadIntPtr(v, &m.Index) && ok
		}
	}) && ok
	return ok || jsonx.IsNull(raw)
}

// ConvertClineTask converts one task folder (see the mapping above). A
// file that is not what it should be is left out with a warning; a task
// without a readable API history is skipped.
func ConvertClineTask(model *Model, files ClineTaskFiles) (Conversation, []Warning) {
	var w warnings
	warn := w.warn
	api, err := jsonx.RawArray(files.API)
	if err != nil {
		return Conversation{ID: files.TaskID, Skip: jsonx.Sprintf("task %q: api_conversation_history.json is not an array of messages (%s); skipped", files.TaskID, jsonx.ErrorText(err))}, nil
	}
	id := files.TaskID
	if id == "" {
		key := []byte("cline")
		if len(api) > 0 {
			key = append(key, api[0]...)
		}
		id = hashID("cline-", key)
	}
	c := Conversation{ID: id}
	var ui []clineUI
	var uiRaw []jsonx.RawMessage
	if files.UI != nil {
		if uiRaw, err = jsonx.RawArray(files.UI); err != nil {
			warn("ui_messages.json is not an array; its timestamps and costs are left out")
			uiRaw = nil
		}
		for i, raw := range uiRaw {
			var m clineUI
			if !m.read(raw) {
				warn("ui_messages.json[%d] is not a UI message; it is left out", i)
				m.Type = "(unreadable)"
			}
			ui = append(ui, m)
		}
	}
	// UI messages by the API index they follow (-1: before the first).
	after := map[int][]int{}
	last := -1
	for i, m := range ui {
		if m.Type == "(unreadable)" {
			continue
		}
		if m.Index != nil {
			last = min(max(*m.Index, -1), len(api)-1)
		}
		after[last] = append(after[last], i)
		if m.Type == "say" && m.Say == "task" && c.Title == "" {
			c.Title = firstLine(m.Text, 60)
		}
		if t := unixSeconds(m.Ts); t > 0 && (c.Created == 0 || t < c.Created) {
			c.Created = t
		}
	}
	parent := ""
	addUI := func(k int) {
		for _, i := range after[k] {
			m := ui[i]
			kind := "cline/" + m.Type
			if s := m.Ask + m.Say; s != "" {
				kind += "/" + s
			}
			rec := Record{ID: DerivedID(id, i, 0, append([]byte("ui"), uiRaw[i]...)), ParentID: parent, Kind: KindCustom,
				Entry: &Entry{CustomType: kind, Data: compactSource(uiRaw[i])}, Time: unixSeconds(m.Ts), Source: compactSource(uiRaw[i])}
			c.Records = append(c.Records, rec)
			parent = rec.ID
		}
	}
	addUI(-1)
	for i, raw := range api {
		rec := clineMessage(model, id, i, parent, raw, &w.warns)
		if rec.Kind == "" && c.Title == "" && i == 0 {
			c.Title = clineTitle(model.Preview(rec.Message, 4000))
		}
		if rec.Kind == "" && c.Project == "" {
			c.Project = clineCwd(model.Preview(rec.Message, 1<<16))
		}
		c.Records = append(c.Records, rec)
		parent = rec.ID
		addUI(i)
	}
	if len(c.Records) > 0 {
		c.Current = c.Records[len(c.Records)-1].ID
	}
	if files.Metadata != nil {
		if jsonx.Valid(files.Metadata) {
			c.Records = append(c.Records, Record{ID: id + "-metadata", Kind: KindCustom,
				Entry: &Entry{CustomType: "cline/task_metadata", Data: compactSource(bytes.TrimSpace(files.Metadata))}})
		} else {
			warn("task_metadata.json is not valid JSON; it is left out")
		}
	}
	name := ConversationName("session", c.Title, id)
	for i := range w.warns {
		w.warns[i].SessionID = id
		w.warns[i].Message = name + ": " + w.warns[i].Message
	}
	if len(api) == 0 && len(ui) == 0 {
		c.Skip = name + " has no messages; skipped"
	}
	return c, w.warns
}

// clineMessage converts API message i: a message node holding its role and
// content (the rest of the record, ts, metrics, modelInfo, stays in its
// source), or a custom entry with a warning when it is not a message.
func clineMessage(model *Model, conv string, i int, parent string, raw jsonx.RawMessage, warns *[]Warning) Record {
	rec := Record{ID: DerivedID(conv, i, 0, raw), ParentID: parent, Source: compactSource(bytes.TrimSpace(raw))}
	f, err := RawFields(bytes.TrimSpace(raw))
	if err == nil {
		rec.Time = unixSeconds(f["ts"])
		role, _ := jsonx.ParseString(f["role"])
		msg := append(jsonx.AppendString([]byte(`{"role":`), role), `,"content":`...)
		msg = append(append(msg, compactSource(f["content"])...), '}')
		if f["content"] != nil {
			m, _, merr := model.Message(msg, "its message")
			if merr == nil {
				rec.Message, rec.Written = m, true
				return rec
			}
			err = merr
		} else {
			err = jsonx.TextError("it has no content")
		}
	}
	*warns = append(*warns, Warning{Message: jsonx.Sprintf("api_conversation_history.json[%d] is not a usable message (%s); it is kept as a custom entry that does not reach the model", i, jsonx.ErrorText(err))})
	rec.Kind, rec.Entry = KindCustom, &Entry{CustomType: "cline/api-message", Data: rec.Source}
	return rec
}

// clineTitle returns a task's title from its first message's text: what
// <task>…</task> (Roo Code: <user_message>) encloses, else the text.
func clineTitle(text string) string {
	for _, tag := range []string{"task", "user_message"} {
		if i := strings.Index(text, "<"+tag+">"); i >= 0 {
			rest := text[i+len(tag)+2:]
			if j := strings.Index(rest, "</"+tag+">"); j >= 0 {
				rest = rest[:j]
			}
			return firstLine(rest, 60)
		}
	}
	return firstLine(text, 60)
}

// clineCwd returns the folder environment_details names
// ("# Current Working Directory (/home/u/p) Files"; Roo Code: "Current
// Workspace Directory"), "" when none.
func clineCwd(text string) string {
	for _, mark := range []string{"Current Working Directory (", "Current Workspace Directory ("} {
		if i := strings.Index(text, mark); i >= 0 {
			rest := text[i+len(mark):]
			if j := strings.Index(rest, ")"); j > 0 && !strings.Contains(rest[:j], "\n") {
				return rest[:j]
			}
		}
	}
	return ""
}

// firstLine returns text's white space folded to single spaces, cut to n
// runes with "…".
func firstLine(text string, n int) string {
	text = strings.Join(strings.Fields(text), " ")
	r := []rune(text)
	if len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return text
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// itoa is strconv.Itoa.
func itoa(n int) string { return strconv.Itoa(n) }
