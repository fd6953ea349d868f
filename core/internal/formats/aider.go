package formats

import (
	"bytes"
	"strconv"
	"strings"
	"time"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// Aider chat histories (.aider.chat.history.md in the project), as
// Aider-AI/aider writes them (aider/io.py): every run appends
// "\n# aider chat started at YYYY-MM-DD HH:MM:SS\n\n"; user_input appends
// each line of the prompt as "#### line" ending in two spaces (the
// linebreak mark: the only reliable one, as a reply may hold "####"
// headings of its own); tool_output, tool_error and tool_warning append
// "> " and the text, stripped, ending in two spaces ("> " on the first
// line only); ai_output appends the reply between blank lines.
//
// Mapping: each run is a session (the time in the start line, read as
// UTC: the file does not say its zone), a chain under a custom root
// entry "aider/run" {started}; a prompt is a user message and a reply an
// assistant message (their text as written); a tool block is a custom
// entry "aider/tool" {text}; a prompt that is a command ("/add x.py")
// is a custom entry "aider/command" {text}, except /ask, /code,
// /architect and /context with words after them, whose words Aider sends
// as the prompt. What the file cannot say (the files and repository map
// Aider sent, its summaries of older turns) is not in the context. Node
// ids are "L<line>", the session id "aider-" and a hash of the start
// line and the run's place in the file, so a grown file adds only what
// is new. A run without prompts or replies (Aider opened and closed) is
// skipped.

const aiderStart = "# aider chat started at "

// detectAider reports whether the text starts an Aider chat history.
func detectAider(sn *Sniff) bool {
	return sn.Shape == 't' && bytes.HasPrefix(bytes.TrimLeft(sn.Text, " \t\r\n\ufeff"), []byte(aiderStart))
}

// aiderRun is one run of Aider: one session.
type aiderRun struct {
	conv Conversation
	warnings
	messages int
	headings int // "#### " lines read as reply text (not ending in the two-space mark)
}

// aiderReader reads an Aider chat history line by line.
type aiderReader struct {
	model *Model
	runs  []*aiderRun
	run   *aiderRun
	kind  byte     // the open block: 'u' prompt, 't' tool output, 'a' reply, 0 none
	start int      // the line of the open block's first line
	block []string // its lines
	blank bool     // the previous line was empty
	when  float64
	stamp string
	// marked says a line of the file ends in Aider's two-space linebreak
	// mark; without any, its trailing white space was removed (an
	// editor's trim on save) and no prompt can be told from a reply.
	marked bool
}

func newAiderReader(model *Model) TextReader { return &aiderReader{model: model} }

func (r *aiderReader) TextLine(raw []byte, n int) {
	line := string(raw)
	if strings.HasPrefix(line, aiderStart) {
		r.flush()
		r.begin(line, n)
		return
	}
	if r.run == nil {
		r.begin("", n)
		r.run.warn("line %d comes before the first %q line; a run is started there", n, strings.TrimSpace(aiderStart))
	}
	blank := strings.TrimSpace(line) == ""
	defer func() { r.blank = blank }()
	r.marked = r.marked || strings.HasSuffix(line, "  ")
	if strings.HasPrefix(line, "#### ") && !strings.HasSuffix(line, "  ") {
		r.run.headings++
	}
	switch {
	case strings.HasPrefix(line, "#### ") && strings.HasSuffix(line, "  ") || line == "####  ":
		if r.kind != 'u' {
			r.flush()
			r.kind, r.start = 'u', n
		}
		text := strings.TrimSuffix(strings.TrimPrefix(line, "####"), "  ")
		r.block = append(r.block, strings.TrimPrefix(text, " "))
		return
	case strings.HasPrefix(line, "> ") && (r.kind != 'a' || r.blank) && r.kind != 't':
		r.flush()
		r.kind, r.start = 't', n
		r.block = append(r.block, line[2:])
	case r.kind == 't':
		r.block = append(r.block, line)
	case blank && r.kind != 'a':
		r.flush()
		return
	default:
		if r.kind != 'a' {
			r.flush()
			r.kind, r.start = 'a', n
		}
		r.block = append(r.block, line)
		return
	}
	if r.kind == 't' && strings.HasSuffix(line, "  ") {
		r.block[len(r.block)-1] = strings.TrimRight(r.block[len(r.block)-1], " ")
		r.flush() // the linebreak mark ends a tool block
	}
}

// begin starts a run at the start line (or at line n without one).
func (r *aiderReader) begin(line string, n int) {
	started := strings.TrimSpace(strings.TrimPrefix(line, aiderStart))
	r.when, r.stamp = 0, ""
	if t, err := time.Parse("2006-01-02 15:04:05", started); err == nil {
		r.when, r.stamp = float64(t.Unix()), t.UTC().Format(TimeLayout)
	}
	key := []byte(strconv.Itoa(len(r.runs)) + "\x00" + line)
	run := &aiderRun{conv: Conversation{ID: hashID("aider-", key), Created: r.when}}
	data := append(jsonx.AppendString([]byte(`{"started":`), started), '}')
	run.conv.Records = append(run.conv.Records, Record{ID: "L" + strconv.Itoa(n), Kind: KindCustom, Time: r.when, Stamp: r.stamp,
		Entry: &Entry{CustomType: "aider/run", Data: data}})
	r.runs = append(r.runs, run)
	r.run = run
	r.kind, r.block, r.blank = 0, r.block[:0], true
}

// flush ends the open block: it becomes the run's next node.
func (r *aiderReader) flush() {
	kind, lines := r.kind, r.block
	r.kind, r.block = 0, r.block[:0]
	if kind == 0 || r.run == nil {
		return
	}
	text := strings.Trim(strings.Join(lines, "\n"), "\n")
	c := &r.run.conv
	rec := Record{ID: "L" + strconv.Itoa(r.start), ParentID: c.Records[len(c.Records)-1].ID, Time: r.when, Stamp: r.stamp}
	entry := func(what string) {
		data := append(jsonx.AppendString([]byte(`{"text":`), text), '}')
		rec.Kind, rec.Entry = KindCustom, &Entry{CustomType: "aider/" + what, Data: data}
	}
	switch kind {
	case 't':
		entry("tool")
	case 'u':
		prompt, ok := aiderPrompt(text)
		if !ok {
			entry("command")
			break
		}
		rec.Message, rec.Written, rec.Role = append(jsonx.AppendString([]byte(`{"role":"user","content":`), prompt), '}'), true, "user"
		if c.Title == "" {
			c.Title = r.model.Preview(rec.Message, 60)
		}
		r.run.messages++
	case 'a':
		rec.Message, rec.Written, rec.Role = append(jsonx.AppendString([]byte(`{"role":"assistant","content":`), text), '}'), true, "assistant"
		r.run.messages++
	}
	c.Records = appendRecord(c.Records, rec)
}

// aiderPrompt returns the prompt a user line gives the model: the text,
// or for /ask, /code, /architect and /context the words after the
// command; ok is false for any other command and an empty line
// ("<blank>").
func aiderPrompt(text string) (string, bool) {
	if !strings.HasPrefix(text, "/") {
		return text, text != "<blank>" && strings.TrimSpace(text) != ""
	}
	cmd, rest, _ := strings.Cut(text, " ")
	switch cmd {
	case "/ask", "/code", "/architect", "/context":
		rest = strings.TrimSpace(rest)
		return rest, rest != ""
	}
	return "", false
}

func (r *aiderReader) Finish() ([]Conversation, []Warning) {
	r.flush()
	var convs []Conversation
	var warns []Warning
	for _, run := range r.runs {
		c := run.conv
		c.Current = c.Records[len(c.Records)-1].ID
		if run.messages == 0 {
			c.Skip = jsonx.Sprintf("the run at line %s has no prompt or reply (Aider opened and closed); skipped", c.Records[0].ID[1:])
			if len(c.Records) > 1 && !r.marked {
				c.Skip = jsonx.Sprintf("the run at line %s has no prompt Aider marked: its prompt lines end in two spaces, and no line of this file does (was its trailing white space removed?); skipped", c.Records[0].ID[1:])
			}
			convs = append(convs, c)
			continue
		}
		if !r.marked && run.headings > 0 {
			run.warn("no line of this file ends in Aider's two-space mark (was its trailing white space removed?), so its %d \"#### \" line(s) are read as reply text, not prompts", run.headings)
		}
		cs, ws := finishSession(c, run.warns, "messages", true)
		convs = append(convs, cs...)
		warns = append(warns, ws...)
	}
	if len(convs) == 0 {
		convs = append(convs, Conversation{Skip: "the data holds no Aider run"})
	}
	return convs, warns
}
