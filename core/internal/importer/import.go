package importer

import (
	"bytes"
	"errors"
	"math"
	"strings"

	"github.com/sessiontree/sessiontree/core/internal/formats"
	"github.com/sessiontree/sessiontree/core/internal/importplan"
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/sessiontree/sessiontree/core/internal/msgtext"
	"github.com/sessiontree/sessiontree/core/internal/store"
	"github.com/sessiontree/sessiontree/core/internal/tree"
)

// Result is the value of import: the report of what was read.
// Sessions lists the sessions made (one per conversation imported);
// Skipped the conversations that could not be imported, each with the
// reason; Warnings everything that was skipped or guessed, each naming the
// conversation and record (a skipped conversation has a warning too, so a
// reader of Warnings alone misses nothing).
type Result struct {
	Format   string            `json:"format"`
	Sessions []SessionReport   `json:"sessions"`
	Skipped  []Skipped         `json:"skipped"`
	Warnings []formats.Warning `json:"warnings"`
}

// SessionReport describes one session an import created or added to:
// its node count, branch count (the path to the cursor is "main", every
// other branch of the export has its own), number of roots, and how many
// of the warnings name it. Existing says the session was there before (an
// earlier import of the same conversation): Added counts the nodes this
// import added to it (0 when the data holds nothing new); for a new
// session Added is NodeCount.
type SessionReport struct {
	SessionID   string  `json:"sessionId"`
	Title       string  `json:"title"`
	Existing    bool    `json:"existing"`
	Added       int     `json:"added"`
	NodeCount   int     `json:"nodeCount"`
	Cursor      *string `json:"cursor"`
	BranchCount int     `json:"branchCount"`
	RootCount   int     `json:"rootCount"`
	Warnings    int     `json:"warnings"`
	// Project is the folder the conversation worked in (a coding agent's
	// cwd) as the session keeps it: the first import's, from its export
	// or (a folder import) its path; "" when none said (not written).
	Project string `json:"project,omitempty"`
}

// Skipped is one conversation an import could not use: its id and
// title where the export gives them, and the reason.
type Skipped struct {
	SessionID string `json:"sessionId,omitempty"`
	Title     string `json:"title,omitempty"`
	Reason    string `json:"reason"`
}

// Import reads an export (data: its bytes) in the named format ("" or
// "auto" detects it) and adds one session per conversation. The result
// reports the sessions made, the conversations skipped and warnings for
// what was skipped or guessed. A conversation that is already a session
// (the same id: an earlier import of the file) adds only the nodes the
// session does not have, so a second import adds nothing and a file that
// grew adds its new turns (see SessionReport.Existing). An import that
// yields no session is an error (INVALID_ARGUMENT). Import is
// Start, Step until done, then Finish.
func Import(st *store.Store, data []byte, format string) (*Result, *tree.Error) {
	job, err := Start(st, data, format)
	if err != nil {
		return nil, err
	}
	return job.Finish()
}

// importChecks are core's rules for what a session may hold, applied by
// the importers while they read (see formats.Model).
var importChecks = &formats.Model{
	Message: func(raw tree.RawMessage, what string) (tree.RawMessage, string, error) {
		msg, role, err := tree.ValidateMessage(raw, what)
		if err != nil {
			return nil, "", errors.New(err.Message)
		}
		return msg, role, nil
	},
	Entry: func(body tree.RawMessage, what string) (*formats.Entry, error) {
		_, e, err := tree.ParseEntry(body, what)
		if err != nil {
			return nil, errors.New(err.Message)
		}
		return e, nil
	},
	// Every id an importer finds is passed on: buildImported replaces one
	// that NameProblem refuses by a derived id, with a warning.
	SessionID: func(id string) bool { return id != "" },
	Preview:   func(msg tree.RawMessage, n int) string { return msgtext.Preview(msgtext.MessageText(msg), n) },
}

// Job is an import in progress, for callers that must not block for
// long (the wasm binding runs a 50 MB import in slices and yields to the
// page between them). Make one with Store.StartImport, call Step until it
// reports done, then Finish for the report. The job reads all of the data
// first, touching the store only to draw ids, so an import that fails
// changes nothing; then it adds the sessions a few per step. Other calls
// may run between steps. The data passes through once: elements of a
// top-level array and JSON lines are read one at a time.
type Job struct {
	// blocked is the PagedOut error of a commit that would reach a
	// paged-out session (see importPaged), until the next Step.
	blocked *tree.Error

	st    *store.Store
	data  []byte
	im    *formats.Importer
	shape byte
	pos   int // bytes read so far

	arr    *formats.ArrayReader // elements of a top-level array
	item   int
	lineNo int
	lines  formats.LineReader
	text   formats.TextReader

	res      *Result
	made     []*tree.Session
	projects map[*tree.Session]string // the project of each session made, when known
	aside    map[*tree.Session]bool   // the sessions made of a sub-agent's transcript (Conversation.Aside)
	// moved maps the id of a conversation imported under another id
	// ("<id>-N": its own was another's) to that id, so that its
	// sub-agents' transcripts, read later in the same call, follow it.
	// ImportFiles shares one among its jobs.
	moved map[string]string
	// sameID counts the sessions of the call (every job's, ImportFiles
	// sets it; nil: this job's own) by their id: each commit may fill a
	// free "<id>-N" that a later one of the same id then walks past
	// (importPaged).
	sameID map[string]int
	// derived maps each id of the data that names no session
	// (NameProblem refused it) to the id its conversation was imported
	// under: prepare files the reader's warnings naming it there.
	derived  map[string]string
	err      *tree.Error
	readDone bool

	// The commit: sessions are added a few at a time after reading.
	prepared  bool
	kept      []*tree.Session
	weights   []int // bytes of each kept session's messages and sources
	next      int   // kept sessions added so far
	committed int   // their weight
	total     int   // the weight of every kept session
	perWarn   map[string]int
	finished  bool
}

// Start detects or looks up the format of data and returns a job
// that reads it (see Job). Data in UTF-8, with or without a byte
// order mark, or in UTF-16 with one (converted, with a warning saying so;
// see importplan.ToUTF8). Errors (INVALID_ARGUMENT): empty data, an
// unknown format name, a format that cannot be detected, data that is not
// JSON or JSON lines (naming line and column), data whose import would
// pass the memory budget (see CheckMemory: nothing is read).
func Start(st *store.Store, data []byte, format string) (*Job, *tree.Error) {
	return startImport(st, data, format, store.ImportGrowth)
}

// startImport is Start with the import's estimated growth per byte
// of data: ImportGrowth, or ImportJobGrowth for a job of Imports.
func startImport(st *store.Store, data []byte, format string, growth int) (*Job, *tree.Error) {
	size := len(data)
	data, encoding := importplan.ToUTF8(data) // a BOM, or UTF-16 text: see importplan.ToUTF8
	data = bytes.TrimSpace(data)
	switch {
	case len(data) == 0 && encoding != "" && size > 0:
		// Bytes that read as no text: a byte order mark (and half a character), white space.
		return nil, tree.Invalidf("import data holds no text: %d bytes, read as nothing (%s)", size, encoding)
	case len(data) == 0:
		return nil, tree.Invalidf("import data is empty")
	}
	if err := st.Reserve("import", 0, len(data), growth); err != nil {
		return nil, err
	}
	if importplan.IsZIP(data) {
		return nil, tree.Invalidf("import data is a ZIP archive, not an export file: import it with importZip, which reads its entries (the explorer does), or unzip it first")
	}
	sn, data, notes, serr := sniffImport(data, format)
	if serr != nil {
		return nil, tree.Invalidf("%s", serr.Error())
	}
	im := importerFor(sn, format)
	switch format {
	case "", "auto":
		if im == nil {
			// A document no importer knows may be one cut off, or nested
			// past the limit, inside its first object: say which it is.
			if sn.Shape == '[' || sn.Shape == '{' {
				if err := jsonx.CheckSyntax(data); err != nil {
					return nil, tree.Invalidf("import data is not valid JSON: %s", err.Error())
				}
			}
			if sn.Shape == '[' && sn.Keys == nil {
				return nil, nothingToImport(tree.Invalidf("import data is an empty array or holds no object: nothing to import"))
			}
			return nil, nothingToImport(tree.Invalidf("could not detect the format of the import data: %s", formats.Undetected(sn)))
		}
	default:
		if im == nil {
			return nil, tree.Invalidf("unknown import format %q (known: %s)", format, strings.Join(formats.ImportFormats(), ", "))
		}
	}
	shape := sn.Shape
	switch {
	case (im.Text != nil) != (shape == 't'):
		return nil, textMismatch(im.Name, shape)
	case im.Lines != nil && (im.Whole == nil || shape == 'l'):
		shape = 'l' // one object is a file of one line
	case shape == 'l':
		return nil, tree.Invalidf("%s import: the data is JSON lines, but %s exports are one JSON document", im.Name, im.Name)
	case shape == '[' && im.WholeArray:
		shape = '{' // the array is one conversation: Whole reads it
	case shape == '[' && im.Item == nil:
		return nil, tree.Invalidf("%s import: the data must be a JSON object, not an array", im.Name)
	}
	j := &Job{st: st, data: data, im: im, shape: shape,
		res: &Result{Format: im.Name, Sessions: []SessionReport{}, Skipped: []Skipped{}, Warnings: []formats.Warning{}}}
	if encoding != "" {
		j.res.Warnings = append(j.res.Warnings, formats.Warning{Message: encoding})
	}
	j.res.Warnings = append(j.res.Warnings, notes...)
	switch shape {
	case '[':
		j.arr = &formats.ArrayReader{Scanner: jsonx.Scanner{Data: data}}
		if err := j.arr.Start(); err != nil {
			return nil, tree.Invalidf("import data is not valid JSON: %s", formats.JSONFault(data))
		}
	case 'l':
		j.lines = im.Lines(importChecks)
	case 't':
		j.text = im.Text(importChecks)
	}
	return j, nil
}

// Progress returns how much of the job's work is done, and the total, in
// bytes: the total is twice the size of the (trimmed UTF-8) data — reading
// it, then adding the sessions (counted by the size of their messages,
// scaled to the data's size).
func (j *Job) Progress() (done, total int) {
	n := len(j.data)
	switch {
	case !j.prepared:
		return j.pos, 2 * n
	case j.finished || j.total == 0:
		return 2 * n, 2 * n
	}
	return n + int(int64(n)*int64(j.committed)/int64(j.total)), 2 * n
}

// Step does about budget bytes of work and reports whether the job is
// done. Reading comes first (at least one conversation, array element or
// line per step); then, once everything is read and checked, the sessions
// are added a few per step (at least one), so a page stays responsive
// while a large import is stored and indexed. After an error the job is
// done and Finish returns the error; an error can only happen while
// reading, before anything is added.
func (j *Job) Step(budget int) bool {
	if j.finished {
		return true
	}
	if !j.readDone {
		start := j.pos
		for !j.readDone && (j.pos-start < budget || j.pos == start) {
			switch j.shape {
			case '{':
				j.readObject()
			case '[':
				j.readElement()
			case 'l':
				j.readLine()
			case 't':
				j.readTextLine()
			}
		}
		if j.readDone && j.err == nil {
			j.prepare()
		}
		j.finished = j.err != nil
		return j.finished
	}
	if j.next == 0 {
		if j.blocked = j.importPaged(); j.blocked != nil {
			return false // Finish answers it; nothing is committed
		}
	}
	spent := 0
	for j.next < len(j.kept) && (spent < budget || spent == 0) {
		k := j.next
		j.next++
		spent += j.weights[k]
		j.committed += j.weights[k]
		j.commit(j.kept[k])
	}
	if j.next == len(j.kept) {
		j.finished = true
	}
	return j.finished
}

func (j *Job) fail(err *tree.Error) {
	j.err, j.readDone, j.pos = err, true, len(j.data)
}

func (j *Job) warn(ws []formats.Warning) {
	j.res.Warnings = append(j.res.Warnings, ws...)
}

// readObject converts a top-level object.
func (j *Job) readObject() {
	j.pos, j.readDone = len(j.data), true
	if j.im.Name == "snapshot" {
		s, _, err := tree.ParseSnapshot(j.data, "")
		if err != nil {
			j.fail(err)
			return
		}
		j.made = append(j.made, s)
		return
	}
	if j.im.Whole != nil {
		convs, warns, err := j.im.Whole(importChecks, j.data)
		j.warn(warns)
		if err != nil {
			j.fail(tree.Invalidf("%s", err.Error()))
			return
		}
		for _, c := range convs {
			j.build(c)
		}
		return
	}
	c, warns := j.im.Item(importChecks, j.data, 0)
	j.warn(warns)
	j.build(c)
}

// readElement converts the next element of a top-level array: in one
// pass where the importer can (Importer.Scan), else checked and compacted
// by the array reader first.
func (j *Job) readElement() {
	if j.im.Scan != nil {
		var c formats.Conversation
		var warns []formats.Warning
		if j.arr.NextScanned(func(sc *jsonx.Scanner) (ok bool) {
			c, warns, ok = j.im.Scan(importChecks, sc, j.item)
			return ok
		}) {
			j.pos = j.arr.Scanner.Pos
			j.item++
			j.warn(warns)
			j.build(c)
			return
		}
	}
	begin := j.arr.Scanner.Pos
	raw, spaced, err := j.arr.Next()
	j.pos = j.arr.Scanner.Pos
	switch {
	case err != nil && j.item > 0 && endsEarly(err, len(j.data)):
		j.cutShort(begin)
		return
	case err != nil:
		j.fail(tree.Invalidf("import data is not valid JSON: %s", formats.JSONFault(j.data)))
		return
	case raw == nil:
		j.pos, j.readDone = len(j.data), true
		return
	}
	if spaced {
		raw = jsonx.CompactBytes(raw)
	}
	c, warns := j.im.Item(importChecks, raw, j.item)
	j.item++
	j.warn(warns)
	j.build(c)
}

// endsEarly reports whether err is a syntax error at the end of a text of
// n bytes: the text was cut off, not garbled.
func endsEarly(err error, n int) bool {
	var se *jsonx.SyntaxError
	return errors.As(err, &se) && se.Offset >= n
}

// cutShort ends the reading of an array whose data stops inside (or just
// before) its next element, after at least one whole element: a
// conversations.json cut off by an unfinished download or copy. The
// conversations read so far are kept; the one begun, if any, is skipped,
// named by its number and the line it begins on. begin is the byte offset
// the array reader stood at before the element.
func (j *Job) cutShort(begin int) {
	j.pos, j.readDone = len(j.data), true
	rest := begin + len(j.data[begin:]) - len(bytes.TrimLeft(j.data[begin:], " \t\r\n,"))
	if rest >= len(j.data) {
		j.warn([]formats.Warning{{Message: jsonx.Sprintf(
			"the data ends after conversation %d without the array's closing ']': the file is cut off, so conversations after it may be missing; the %d before it are read", j.item, j.item)}})
		return
	}
	line := 1 + bytes.Count(j.data[:rest], []byte{'\n'})
	j.skip("", "", jsonx.Sprintf(
		"the data ends inside conversation %d (it begins on line %d): the file is cut off; that conversation and any after it are missing; the %d before it are read", j.item+1, line, j.item))
}

// readLine reads the next line of a JSON-lines export. A line that is not
// JSON is skipped with a warning naming its line and column (a cut-off
// last line, the file copied while being written, says so); the lines
// around it are kept.
func (j *Job) readLine() {
	if j.pos >= len(j.data) {
		j.readDone = true
		convs, warns := j.lines.Finish()
		j.warn(warns)
		for _, c := range convs {
			j.build(c)
		}
		return
	}
	line, next := formats.NextLine(j.data, j.pos)
	j.lineNo++
	start := j.pos
	j.pos = next
	if len(line) == 0 {
		return
	}
	if rl, ok := j.lines.(formats.RawLiner); ok && line[0] == '{' && rl.RawLine(line, j.lineNo) {
		return
	}
	fields, ferr := formats.RawFields(line)
	if ferr != nil {
		// The line holds no object; when it is no JSON at all either, the
		// syntax error names the line in the file and the column in it.
		se, ok := jsonx.CheckSyntax(line).(*jsonx.SyntaxError)
		if ok {
			if bl, ok := j.lines.(formats.BrokenLiner); ok {
				bl.BrokenLine(line, j.lineNo)
			}
			last := len(bytes.TrimSpace(j.data[next:])) == 0
			if last && se.Offset >= len(line) { // the JSON ends early
				j.res.Warnings = append(j.res.Warnings, formats.Warning{Message: jsonx.Sprintf(
					"line %d is cut off (%d bytes, the JSON ends early); it is skipped and the %d lines before it are kept", j.lineNo, len(line), j.lineNo-1)})
				return
			}
			lead := len(j.data[start:]) - len(bytes.TrimLeft(j.data[start:], " \t\r"))
			se.Line, se.Column = j.lineNo, se.Column+lead
			// One broken line never loses the file: it is skipped, named.
			j.res.Warnings = append(j.res.Warnings, formats.Warning{Message: jsonx.Sprintf(
				"line %d is not valid JSON: %s; it is skipped", j.lineNo, se)})
			return
		}
	}
	j.lines.Line(line, fields, j.lineNo)
}

// build turns one converted conversation into a pending session. One
// whose id was refused is imported, or skipped, under the id derived from
// it: the reader's warnings naming its id follow (Job.derived).
func (j *Job) build(c formats.Conversation) {
	if c.Skip != "" {
		j.skip(c.ID, c.Title, c.Skip)
		return
	}
	id, s, warns, err := buildImported(j.st, c)
	if c.ID != "" && id != c.ID {
		if j.derived == nil {
			j.derived = map[string]string{}
		}
		j.derived[c.ID] = id
	}
	if err != nil && c.ID == "" {
		// The id drawn for it names no session: its warnings are the file's.
		id = ""
		for i := range warns {
			warns[i].SessionID = ""
		}
	}
	j.warn(warns)
	if err != nil {
		j.skip(id, c.Title, err.Message)
		return
	}
	j.made = append(j.made, s)
	if c.Aside {
		if j.aside == nil {
			j.aside = map[*tree.Session]bool{}
		}
		j.aside[s] = true
	}
	if c.Project != "" {
		if j.projects == nil {
			j.projects = map[*tree.Session]string{}
		}
		j.projects[s] = c.Project
	}
}

func (j *Job) skip(id, title, reason string) {
	j.res.Skipped = append(j.res.Skipped, Skipped{SessionID: id, Title: title, Reason: reason})
	j.res.Warnings = append(j.res.Warnings, formats.Warning{SessionID: id, Message: reason})
}

// Finish runs the steps left and returns the report (see Step for what is
// added when). An import that adds no session is an error:
// SESSION_ALREADY_EXISTS when every conversation was imported before, else
// INVALID_ARGUMENT naming the reasons; nothing was added then.
//
// A commit that would reach a paged-out session fails the call with
// PagedOut before anything is added, and leaves the job as it was: Finish
// again once the sessions are loaded.
func (j *Job) Finish() (*Result, *tree.Error) {
	for !j.Step(math.MaxInt) {
		if err := j.blocked; err != nil {
			j.blocked = nil
			return nil, err
		}
	}
	if j.err != nil {
		return nil, j.err
	}
	return j.res, nil
}

// The reasons of the contract.
const (
	// NothingToImport: import data that no format reads, or a JSON array
	// that holds no record (INVALID_ARGUMENT). Inside a ZIP or a folder
	// such a file is left out rather than failing the import.
	NothingToImport tree.Reason = "NOTHING_TO_IMPORT"
)

// nothingToImport gives err the reason NothingToImport.
func nothingToImport(err *tree.Error) *tree.Error {
	err.Reason = NothingToImport
	return err
}
