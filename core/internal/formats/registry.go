package formats

import "github.com/sessiontree/sessiontree/core/internal/jsonx"

// Model holds the rules of sessiontree's data model that importers
// apply while reading (their failures become warnings at the record that
// fails them). Core supplies them: this package cannot import core.
type Model struct {
	// Message validates a message object and returns it compacted, with
	// its role; what names it in the error ("its message").
	Message func(raw jsonx.RawMessage, what string) (jsonx.RawMessage, string, error)
	// Entry validates an entry object {"kind":…, …fields}; what names it
	// in the error ("entry").
	Entry func(body jsonx.RawMessage, what string) (*Entry, error)
	// SessionID reports whether id is a usable session id.
	SessionID func(id string) bool
	// Preview returns the first n characters of a message's text, on one
	// line (the title of a session named by its first user message).
	Preview func(msg jsonx.RawMessage, n int) string
}

// Importer converts one export format into conversations: a pure function
// of the export's bytes (and the Model's rules), which never sees a store.
// It reads a top-level array element by element (Item), a top-level
// object (Whole, else Item on the object), or JSON lines (Lines). The
// "snapshot" importer has only Detect: core reads its own snapshots.
type Importer struct {
	Name string // the format's name in requests ("chatgpt", "pi", …)
	// Detect reports whether the data looks like this format.
	Detect func(sn *Sniff) bool
	// Looks says what Detect looks for, for the error of a file no
	// format detects ("an object or array of objects with \"mapping\"").
	Looks string
	// Item converts one conversation: an element of a top-level array, or
	// the top-level object itself. A conversation it cannot use comes back
	// with Skip set.
	Item func(model *Model, raw jsonx.RawMessage, k int) (Conversation, []Warning)
	// Scan, when not nil, converts the element of a top-level array at
	// the scanner (not checked yet; see ArrayReader.NextScanned) in one
	// pass that also checks it, or reports ok false, with the scanner
	// anywhere, for an element it leaves to Item.
	Scan func(model *Model, sc *jsonx.Scanner, k int) (c Conversation, warns []Warning, ok bool)
	// Whole converts a top-level object holding several conversations;
	// nil means the object is one conversation (Item). An error is a
	// message for the whole import (the export cannot be read at all).
	Whole func(model *Model, top jsonx.RawMessage) ([]Conversation, []Warning, error)
	// Lines returns a reader of JSON lines; nil for JSON formats.
	Lines func(model *Model) LineReader
	// Text returns a reader of a text format's lines (Sniff.Shape 't');
	// nil for JSON formats.
	Text func(model *Model) TextReader
	// WholeArray says a top-level array is one conversation, read by
	// Whole, not elements read by Item ("openai": the array of messages).
	WholeArray bool
}

// RawLiner is a LineReader that can read a line before its fields are
// split out: RawLine reports whether it read line n whole, having checked
// its syntax itself (an object, valid to its end); false leaves the line
// to Line, with its fields, as if RawLine had not been called. A Pi or
// Claude Code message line then costs one scan instead of two.
type RawLiner interface {
	RawLine(raw []byte, n int) bool
}

// BrokenLiner is a LineReader that is told of line n, raw, which the
// caller skipped as not valid JSON (and warned of): a reader that names a
// file without a session id by its first line takes that line even when it
// is damaged, so the name does not depend on how the lines after it are
// spaced.
type BrokenLiner interface {
	BrokenLine(raw []byte, n int)
}

// LineReader reads a JSON-lines export, one valid JSON line at a time.
type LineReader interface {
	// Line reads line number n (counting every line of the file from 1):
	// raw is valid JSON; fields are its members when it is an object
	// (values are sub-slices of raw), else nil.
	Line(raw []byte, fields map[string]jsonx.RawMessage, n int)
	// Finish returns the conversations read.
	Finish() ([]Conversation, []Warning)
}

// Importers lists the formats import reads, in detection order.
var Importers []Importer

// init sets Importers to importerList (a function value of the table
// refers to Importers, so it cannot be the list's own initializer).
func init() {
	Importers = importerList[:]
}

// importerList is the table of Importers as static data: the compiler lays
// out a package-level literal of constants and functions in the binary,
// where the same literal assigned in init was code that V8 compiled and
// ran at every start of the wasm program. Read it through Importers.
var importerList = [...]Importer{
	{Name: "snapshot", Looks: "a JSON object with \"version\", \"sessionId\" and \"nodes\"", Detect: func(sn *Sniff) bool {
		return sn.Shape == '{' && sn.has("version", "sessionId", "nodes")
	}},
	{Name: "chatgpt", Looks: "objects with \"mapping\"", Detect: func(sn *Sniff) bool { return sn.Shape != 'l' && sn.has("mapping") },
		Item: func(model *Model, raw jsonx.RawMessage, k int) (Conversation, []Warning) {
			c, warns, err := convertChatGPTConversation(model, raw, k)
			c.Skip = err
			return c, warns
		},
		Scan: scanChatGPTConversation},
	{Name: "openwebui", Looks: "objects with a \"chat\" holding \"history\" or \"messages\", or with a \"history\" object", Detect: detectOpenWebUI, Item: convertOpenWebUIChat},
	{Name: "librechat", Looks: "objects with \"conversationId\" and \"messages\" or \"messagesTree\"", Detect: detectLibreChat, Item: convertLibreChat},
	{Name: "chatbotui", Looks: "an object with a \"history\" array, or an array of objects with \"name\" and \"messages\"", Detect: detectChatbotUI, Item: convertChatbotUIChat, Whole: convertChatbotUI},
	{Name: "claudeai", Looks: "objects with a \"chat_messages\" array, or an object whose \"conversations\" holds them", Detect: detectClaudeAI, Item: convertClaudeAI, Whole: convertClaudeAIWhole},
	{Name: "pi", Looks: "a first line {\"type\":\"session\",\"id\":…}", Detect: detectPi, Lines: newPiReader},
	{Name: "sillytavern", Looks: "a first line with \"user_name\" and \"character_name\" or \"chat_metadata\", or with \"mes\" and \"is_user\"", Detect: detectSillyTavern, Lines: newSillyTavernReader},
	{Name: "claude-code", Looks: "lines with \"parentUuid\", \"leafUuid\", or \"uuid\" and \"sessionId\"", Detect: detectClaudeCode, Lines: newClaudeCodeReader},
	{Name: "aider", Looks: "Markdown text starting \"# aider chat started at\"", Detect: detectAider, Text: newAiderReader},
	{Name: "gemini", Looks: "an object, or a first line, with \"sessionId\" and \"projectHash\"", Detect: detectGemini, Whole: convertGeminiWhole, Lines: newGeminiReader},
	{Name: "codex", Looks: "lines {\"timestamp\",\"type\",\"payload\"} of type session_meta, response_item, event_msg, turn_context or compacted", Detect: detectCodex, Lines: newCodexReader},
	{Name: "lobechat", Looks: "an object with \"exportType\", \"state\" and \"version\"", Detect: detectLobeChat, Whole: convertLobeChat},
	{Name: "cline", Looks: "an array of Anthropic messages whose first user message holds <task> or <environment_details>, or has \"ts\"", Detect: detectCline, Whole: convertClineWhole, WholeArray: true},
	{Name: "openai", Looks: "an array of messages with \"role\", an object with a \"messages\" array, or lines of such objects", Detect: detectOpenAI, Whole: convertOpenAIArray, WholeArray: true, Lines: newOpenAILines},
}

// ImportFormats returns the names of the formats import reads: "auto",
// then each of Importers in detection order.
func ImportFormats() []string {
	names := []string{"auto"}
	for _, im := range Importers {
		names = append(names, im.Name)
	}
	return names
}
