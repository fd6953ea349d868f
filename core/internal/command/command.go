package command

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/sessiontree/sessiontree/core/internal/formats"
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/sessiontree/sessiontree/core/internal/msgtext"
	"github.com/sessiontree/sessiontree/core/internal/names"
	"github.com/sessiontree/sessiontree/core/internal/store"
	"github.com/sessiontree/sessiontree/core/internal/tree"
)

// Text commands for chat frontends (SPEC.md "Commands"): the operation
// "command" {line, sessionId?} parses one line such as `/tree jump n0002`
// and answers
//
//	{"command":"/tree jump","text":…,"data":…}
//
// text is for display; data is the value of the operation the command runs
// (status, list, tree, …). /fork adds "draft". A command that changes a
// session records the underlying operation ("jump", "fork", …) for change
// events, exactly as the tool call would.
//
// Arguments are separated by spaces; "double" (with \" and \\ escapes) or
// 'single' quotes keep spaces. A command whose last argument takes the rest
// of the line (<json>, <text>) receives it raw, so JSON with spaces needs
// no quoting. Errors: a line that is not a command, or a wrong number of
// arguments, is INVALID_ARGUMENT with the usage; an unknown command is
// NOT_FOUND with the usage line of every command.

// Result is the value of the command operation.
type Result struct {
	Command string `json:"command"`
	Text    string `json:"text"`
	Data    any    `json:"data"`
	// Draft is the text of the user message /fork forked before.
	Draft *string `json:"draft,omitempty"`
}

// Command is one entry of the command table (commands).
type Command struct {
	name    string // the command's words without the slash: "tree jump", "fork"
	args    string // argument synopsis for the usage line: "<nodeId> <name>"
	min     int    // arguments required
	max     int    // arguments allowed
	rest    bool   // the last argument takes the rest of the line, raw
	summary string // one line for /tree help
	// NoSession: the command runs without a sessionId.
	NoSession bool
	Run       func(st *store.Store, c *Call) (*Result, *tree.Error)
}

// commands is the command table, in the order of /tree help, and
// commandByName indexes it by name: read them through loadCommands.
// Adding a command is one entry in fillCommands plus its function.
var (
	commands      []Command
	commandByName map[string]Command
	commandsOnce  sync.Once
)

// loadCommands fills the command table the first time a command line is
// parsed or a usage asked for, not in the package's init: as init it was
// 1.8 KB of wasm code that V8 compiled and ran at every start of the
// program, for a feature most pages never use. A function, not a
// package-level initializer, because the help command reads the table
// (an initialization cycle otherwise).
func loadCommands() {
	commandsOnce.Do(fillCommands)
}

// fillCommands builds commands and commandByName (see loadCommands).
func fillCommands() {
	commands = []Command{
		{"tree list", "", 0, 0, false, "every node in append order, with marks", false, cmdList},
		{"tree branches", "", 0, 0, false, "the branches, their tips and bases", false, cmdBranches},
		{"tree tree", "[all]", 0, 1, false, "the tree as text (linear runs compacted; all: hidden subtrees too)", false, cmdTree},
		{"tree context", "", 0, 0, false, "what the model sees at the cursor, and the state there", false, cmdContext},
		{"tree jump", "<nodeId>", 1, 1, false, "move the cursor to a node", false, cmdJump},
		{"tree branch", "<nodeId> <name>", 2, 2, false, "start a new branch at a node", false, cmdBranch},
		{"tree label", "<nodeId> <text>", 2, 2, true, "label a node (\"\" clears the label)", false, cmdLabel},
		{"tree hide", "<nodeId>", 1, 1, false, "hide a node's subtree from default views", false, cmdHide},
		{"tree unhide", "<nodeId>", 1, 1, false, "show a hidden subtree again", false, cmdUnhide},
		{"tree prefer", "<nodeId>", 1, 1, false, "mark the path to a node as preferred", false, cmdPrefer},
		{"tree diff", "<a> <b>", 2, 2, false, "compare two nodes or branches", false, cmdDiff},
		{"tree search", "<query>", 1, 1, true, "find nodes by text, forgiving typos and accents", false, cmdSearch},
		{"tree snapshot save", "", 0, 0, false, "the session's snapshot as JSON", false, cmdSnapshotSave},
		{"tree snapshot load", "<json>", 1, 1, true, "replace the session by a snapshot", false, cmdSnapshotLoad},
		{"fork", "<nodeId>", 1, 1, false, "new session with the history before a user message; returns it as draft", false, cmdFork},
		{"clone", "[newSessionId]", 0, 1, false, "new session copying the whole tree", false, cmdClone},
		{"session", "", 0, 0, false, "the session's status", false, cmdSession},
		{"tree help", "", 0, 0, false, "this list", true, cmdHelp},
	}
	commandByName = make(map[string]Command, len(commands))
	for _, c := range commands {
		commandByName[c.name] = c
	}
}

// Usage returns the usage of the command name: "/tree jump <nodeId>".
func Usage(name string) string {
	loadCommands()
	u := "/" + name
	if a := commandByName[name].args; a != "" {
		u += " " + a
	}
	return u
}

// UsageLine returns every command's usage joined by " | ".
func UsageLine() string {
	loadCommands()
	parts := make([]string, len(commands))
	for i, c := range commands {
		parts[i] = Usage(c.name)
	}
	return "usage: " + strings.Join(parts, " | ")
}

// Call is one parsed command.
type Call struct {
	Name      string
	args      []string
	SessionID string
}

// session returns the command's session.
func (c *Call) session(st *store.Store) (*tree.Session, *tree.Error) {
	return st.Lookup(c.SessionID)
}

// typedErr returns the *Error a typed method (api.go) failed with, nil
// for none: they fail with no other error.
func typedErr(err error) *tree.Error {
	e, _ := err.(*tree.Error)
	return e
}

// Parse splits a command line into the command and its arguments.
func Parse(line string) (*Call, Command, *tree.Error) {
	text := strings.TrimSpace(line)
	if !strings.HasPrefix(text, "/") {
		return nil, Command{}, tree.Invalidf("a command starts with \"/\", as in /tree help; got %q", clipText(text))
	}
	// The command's name: the longest run of leading words that names a
	// command ("tree snapshot load" before "tree snapshot").
	var words []string
	var ends []int
	pos := 1
	for len(words) < 3 {
		start := pos
		for start < len(text) && isCmdSpace(rune(text[start])) {
			start++
		}
		end := start
		for end < len(text) && !isCmdSpace(rune(text[end])) {
			end++
		}
		if end == start {
			break
		}
		words = append(words, text[start:end])
		ends = append(ends, end)
		pos = end
	}
	loadCommands()
	for k := len(words); k >= 1; k-- {
		name := strings.Join(words[:k], " ")
		cmd, ok := commandByName[name]
		if !ok {
			continue
		}
		args, err := parseArgs(text[ends[k-1]:], cmd)
		if err != nil {
			return nil, Command{}, err
		}
		if len(args) < cmd.min || len(args) > cmd.max {
			return nil, Command{}, tree.Invalidf("%s takes %s; usage: %s", "/"+name, argCount(cmd), Usage(name))
		}
		return &Call{Name: name, args: args}, cmd, nil
	}
	unknown := "/"
	if len(words) > 0 {
		unknown += words[0]
		if words[0] == "tree" && len(words) > 1 {
			unknown += " " + words[1]
		}
	}
	return nil, Command{}, tree.Errorf(tree.NotFound, "unknown command %q; %s", unknown, UsageLine())
}

func argCount(cmd Command) string {
	switch {
	case cmd.max == 0:
		return "no arguments"
	case cmd.min == cmd.max:
		return tree.Plural(cmd.min, "argument")
	default:
		return jsonx.Sprintf("%d to %d arguments", cmd.min, cmd.max)
	}
}

func isCmdSpace(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' }

// parseArgs splits the text after a command's name into arguments. With
// cmd.rest, argument number cmd.max takes the rest of the line: unquoted
// when it is one quoted word, raw (trimmed) otherwise.
func parseArgs(text string, cmd Command) ([]string, *tree.Error) {
	var args []string
	pos := 0
	for {
		for pos < len(text) && isCmdSpace(rune(text[pos])) {
			pos++
		}
		if pos >= len(text) {
			return args, nil
		}
		if cmd.rest && len(args) == cmd.max-1 {
			rest := strings.TrimRightFunc(text[pos:], unicode.IsSpace)
			if word, end, err := nextWord(rest, 0); err == nil && end == len(rest) && (rest[0] == '"' || rest[0] == '\'') {
				rest = word
			}
			return append(args, rest), nil
		}
		word, end, err := nextWord(text, pos)
		if err != nil {
			return nil, err
		}
		args = append(args, word)
		pos = end
	}
}

// nextWord reads one argument at pos: a run of characters up to white
// space, where quoted parts may hold spaces.
func nextWord(text string, pos int) (string, int, *tree.Error) {
	var b strings.Builder
	for pos < len(text) {
		c := text[pos]
		switch {
		case isCmdSpace(rune(c)):
			return b.String(), pos, nil
		case c == '"':
			pos++
			for {
				if pos >= len(text) {
					return "", 0, tree.Invalidf("unterminated \" quote in the command arguments")
				}
				if text[pos] == '\\' && pos+1 < len(text) && (text[pos+1] == '"' || text[pos+1] == '\\') {
					b.WriteByte(text[pos+1])
					pos += 2
					continue
				}
				if text[pos] == '"' {
					pos++
					break
				}
				b.WriteByte(text[pos])
				pos++
			}
		case c == '\'':
			end := strings.IndexByte(text[pos+1:], '\'')
			if end < 0 {
				return "", 0, tree.Invalidf("unterminated ' quote in the command arguments")
			}
			b.WriteString(text[pos+1 : pos+1+end])
			pos += end + 2
		default:
			b.WriteByte(c)
			pos++
		}
	}
	return b.String(), pos, nil
}

// clipText cuts s to 40 characters for messages.
func clipText(s string) string {
	if utf8.RuneCountInString(s) <= 40 {
		return s
	}
	return msgtext.Preview(s, 40)
}

// ---- the commands ----

func cmdList(st *store.Store, c *Call) (*Result, *tree.Error) {
	s, err := c.session(st)
	if err != nil {
		return nil, err
	}
	items := s.List()
	var b strings.Builder
	for k, it := range items {
		jsonx.Fprintf(&b, "%s [%s] %s: %s", it.ID, it.Branch, it.Role, msgtext.Preview(it.Preview, tree.TextPreviewLength))
		if it.Label != "" {
			b.WriteString("  [label: " + it.Label + "]")
		}
		if it.Hidden {
			b.WriteString("  (hidden)")
		}
		if int32(k) == s.Cursor {
			b.WriteString("  ← cursor")
		}
		b.WriteByte('\n')
	}
	if len(items) == 0 {
		b.WriteString("(no nodes)\n")
	}
	return &Result{Text: b.String(), Data: items}, nil
}

func cmdBranches(st *store.Store, c *Call) (*Result, *tree.Error) {
	data, err := st.Branches(c.SessionID)
	if err != nil {
		return nil, typedErr(err)
	}
	var b strings.Builder
	for _, br := range data {
		mark := "  "
		if br.Active {
			mark = "* "
		}
		jsonx.Fprintf(&b, "%s%s  tip %s  base %s  %s\n", mark, br.Name, orDash(br.Tip), orDash(br.Base), tree.Plural(br.NodeCount, "node"))
	}
	return &Result{Text: b.String(), Data: data}, nil
}

func orDash(s *string) string { return orNone(s, "-") }

// orNone returns *s, or none for nil.
func orNone(s *string, none string) string {
	if s == nil {
		return none
	}
	return *s
}

func cmdTree(st *store.Store, c *Call) (*Result, *tree.Error) {
	s, err := c.session(st)
	if err != nil {
		return nil, err
	}
	if len(c.args) == 1 && c.args[0] != "all" {
		return nil, tree.Invalidf("/tree tree takes no argument or \"all\", not %q; usage: %s", c.args[0], Usage(c.Name))
	}
	t := s.TreeView(len(c.args) == 1)
	text := t.Text
	if text == "" {
		text = "(no nodes)\n"
	}
	return &Result{Text: text, Data: t}, nil
}

func cmdContext(st *store.Store, c *Call) (*Result, *tree.Error) {
	s, err := c.session(st)
	if err != nil {
		return nil, err
	}
	ctx := s.Context()
	var b strings.Builder
	jsonx.Fprintf(&b, "cursor %s, %s; state: %s\n", orNone(ctx.Cursor, "none"), tree.Plural(len(ctx.Messages), "message"), ctx.State.Describe())
	// One line per message, from the nodes (their cached previews): a
	// message made from a summary, compaction or custom message names the
	// node kind after its role.
	s.ContextNodes(s.Path(s.Cursor), func(_ int32, n *tree.Node) {
		role := n.MessageRole
		if n.Kind != formats.KindMessage {
			role = "user · " + n.Kind
		}
		jsonx.Fprintf(&b, "[%s] %s\n", role, msgtext.Preview(n.PreviewText(), tree.TextPreviewLength))
	})
	return &Result{Text: b.String(), Data: ctx}, nil
}

func cmdJump(st *store.Store, c *Call) (*Result, *tree.Error) {
	status, err := st.Jump(c.SessionID, c.args[0])
	if err != nil {
		return nil, typedErr(err)
	}
	return &Result{Text: jsonx.Sprintf("cursor at %s on branch %s\n", orNone(status.Cursor, "none"), status.ActiveBranch), Data: status}, nil
}

func cmdBranch(st *store.Store, c *Call) (*Result, *tree.Error) {
	status, err := st.Branch(c.SessionID, c.args[0], c.args[1])
	if err != nil {
		return nil, typedErr(err)
	}
	return &Result{Text: jsonx.Sprintf("on branch %s from %s; the next message goes there\n", status.ActiveBranch, orNone(status.Cursor, "none")), Data: status}, nil
}

func cmdLabel(st *store.Store, c *Call) (*Result, *tree.Error) {
	data, err := st.Label(c.SessionID, c.args[0], c.args[1])
	if err != nil {
		return nil, typedErr(err)
	}
	text := jsonx.Sprintf("label of %s cleared\n", c.args[0])
	if c.args[1] != "" {
		text = jsonx.Sprintf("%s labelled %q\n", c.args[0], c.args[1])
	}
	return &Result{Text: text, Data: data}, nil
}

func cmdHide(st *store.Store, c *Call) (*Result, *tree.Error) {
	return c.hide(st, true, "%s and its subtree are hidden (nothing is deleted)\n")
}

func cmdUnhide(st *store.Store, c *Call) (*Result, *tree.Error) {
	return c.hide(st, false, "%s and its subtree are shown again\n")
}

func (c *Call) hide(st *store.Store, hidden bool, format string) (*Result, *tree.Error) {
	data, err := st.Hide(c.SessionID, c.args[0], hidden)
	if err != nil {
		return nil, typedErr(err)
	}
	return &Result{Text: jsonx.Sprintf(format, c.args[0]), Data: data}, nil
}

func cmdPrefer(st *store.Store, c *Call) (*Result, *tree.Error) {
	// Prefer clears the preferred path for "": the command names a node.
	if err := store.CheckName("nodeId", c.args[0], names.MaxNodeIDLength); err != nil {
		return nil, err
	}
	data, err := st.Prefer(c.SessionID, c.args[0])
	if err != nil {
		return nil, typedErr(err)
	}
	return &Result{Text: jsonx.Sprintf("the path to %s is preferred\n", c.args[0]), Data: data}, nil
}

func cmdDiff(st *store.Store, c *Call) (*Result, *tree.Error) {
	s, err := c.session(st)
	if err != nil {
		return nil, err
	}
	d, err := s.Diff(c.args[0], c.args[1])
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	if d.Ancestor != nil {
		jsonx.Fprintf(&b, "%s and %s part after %s (%s in common)\n", c.args[0], c.args[1], *d.Ancestor, tree.Plural(d.Common, "node"))
	} else {
		jsonx.Fprintf(&b, "%s and %s share no node (different roots)\n", c.args[0], c.args[1])
	}
	for _, side := range []struct {
		mark  string
		nodes []tree.DiffNode
	}{{"-", d.FromOnly}, {"+", d.ToOnly}} {
		for k := 0; k < len(side.nodes); k++ {
			if len(side.nodes) > tree.MaxPlain && k == tree.KeepPlain {
				skip := len(side.nodes) - 2*tree.KeepPlain
				jsonx.Fprintf(&b, "%s ··· %d nodes (%s … %s)\n", side.mark, skip, side.nodes[k].ID, side.nodes[k+skip-1].ID)
				k += skip - 1
				continue
			}
			n := side.nodes[k]
			jsonx.Fprintf(&b, "%s %s %s: %s\n", side.mark, n.ID, n.Role, msgtext.Preview(n.Text, tree.TextPreviewLength))
		}
	}
	return &Result{Text: b.String(), Data: d}, nil
}

func cmdSnapshotSave(st *store.Store, c *Call) (*Result, *tree.Error) {
	s, err := c.session(st)
	if err != nil {
		return nil, err
	}
	snap := s.AppendSnapshot(nil)
	return &Result{Text: string(snap) + "\n", Data: tree.RawMessage(snap)}, nil
}

func cmdSnapshotLoad(st *store.Store, c *Call) (*Result, *tree.Error) {
	status, err := st.LoadSnapshot(c.SessionID, []byte(c.args[0]))
	if err != nil {
		return nil, typedErr(err)
	}
	return &Result{Text: jsonx.Sprintf("loaded a snapshot of %s: %s, cursor %s on branch %s\n",
		status.SessionID, tree.Plural(status.NodeCount, "node"), orNone(status.Cursor, "none"), status.ActiveBranch), Data: status}, nil
}

func cmdHelp(st *store.Store, c *Call) (*Result, *tree.Error) {
	type helpLine struct {
		Usage   string `json:"usage"`
		Summary string `json:"summary"`
	}
	var lines []helpLine
	width := 0
	loadCommands()
	for _, c := range commands {
		lines = append(lines, helpLine{Usage(c.name), c.summary})
		width = max(width, utf8.RuneCountInString(Usage(c.name)))
	}
	var b strings.Builder
	for _, l := range lines {
		jsonx.Fprintf(&b, "%s%s  %s\n", l.Usage, strings.Repeat(" ", width-utf8.RuneCountInString(l.Usage)), l.Summary)
	}
	return &Result{Text: b.String(), Data: lines}, nil
}

// cmdFork answers /fork <nodeId>: the node must be a user message; the new
// session holds the path before it (root→parent, cursor at the parent) and
// the value carries the message's text as draft, to edit and send again.
// For a user message that is a root the new session is empty (cursor null,
// branch main).
func cmdFork(st *store.Store, c *Call) (*Result, *tree.Error) {
	s, err := c.session(st)
	if err != nil {
		return nil, err
	}
	i, err := s.Lookup(c.args[0])
	if err != nil {
		return nil, err
	}
	n := s.Nodes[i]
	if n.Kind != formats.KindMessage || n.MessageRole != "user" {
		what := "a " + n.Kind + " entry"
		switch n.Kind {
		case formats.KindMessage:
			what = "an " + n.MessageRole + " message"
			if !strings.ContainsAny(n.MessageRole[:1], "aeiou") {
				what = "a " + n.MessageRole + " message"
			}
		case formats.KindSummary:
			what = "a summary"
		}
		return nil, tree.Invalidf("/fork needs a user message; node %q is %s", n.ID, what)
	}
	id := st.DrawSessionID()
	var f *tree.Session
	if p := s.Parent[i]; p >= 0 {
		f, _ = st.ForkAt(s, p, id, "", "fork") // no branch asked: never fails
	} else {
		now := st.Timestamp()
		f = tree.NewSession(id, s.Title, now)
		f.RecordSource(s, -1, tree.SourceFork, now)
		st.PutNew(f, "fork")
	}
	draft := msgtext.MessageText(n.Message)
	status := f.Status()
	return &Result{
		Text: jsonx.Sprintf("forked %s before %s into %s: %s, cursor %s\ndraft: %s\n",
			s.ID(), n.ID, f.ID(), tree.Plural(status.NodeCount, "node"), orNone(status.Cursor, "none"), draft),
		Data:  status,
		Draft: &draft,
	}, nil
}

func cmdClone(st *store.Store, c *Call) (*Result, *tree.Error) {
	newID := ""
	if len(c.args) == 1 {
		// Clone draws an id for "": the command names one.
		if err := store.CheckName("newSessionId", c.args[0], names.MaxSessionIDLength); err != nil {
			return nil, err
		}
		newID = c.args[0]
	}
	status, err := st.Clone(c.SessionID, newID)
	if err != nil {
		return nil, typedErr(err)
	}
	return &Result{Text: jsonx.Sprintf("cloned %s into %s: %s, cursor %s\n", c.SessionID, status.SessionID, tree.Plural(status.NodeCount, "node"), orNone(status.Cursor, "none")), Data: status}, nil
}

func cmdSession(st *store.Store, c *Call) (*Result, *tree.Error) {
	s, err := c.session(st)
	if err != nil {
		return nil, err
	}
	status := s.Status()
	var b strings.Builder
	jsonx.Fprintf(&b, "session %s", status.SessionID)
	if status.Title != "" {
		jsonx.Fprintf(&b, " %q", status.Title)
	}
	jsonx.Fprintf(&b, "\ncursor %s on branch %s, depth %d\n%s, %s, %s\nstate: %s\ncreated %s, updated %s\n",
		orNone(status.Cursor, "none"), status.ActiveBranch, status.Depth,
		tree.Plural(status.NodeCount, "node"), tree.Plural(status.BranchCount, "branch"), tree.Plural(status.LeafCount, "leaf"),
		s.StateAt(s.Path(s.Cursor)).Describe(), status.CreatedAt, status.UpdatedAt)
	return &Result{Text: b.String(), Data: status}, nil
}
