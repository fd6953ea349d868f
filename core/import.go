package core

import (
	"bytes"
	"container/heap"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"
)

// ImportResult is the value of import.
type ImportResult struct {
	Sessions []ImportedSession `json:"sessions"`
	Warnings []ImportWarning   `json:"warnings"`
}

// ImportedSession describes one session an import created.
type ImportedSession struct {
	SessionID string  `json:"sessionId"`
	Title     string  `json:"title"`
	NodeCount int     `json:"nodeCount"`
	Cursor    *string `json:"cursor"`
}

// ImportWarning is something an import could not use or had to guess; the
// message names the conversation and record.
type ImportWarning struct {
	SessionID string `json:"sessionId,omitempty"`
	Message   string `json:"message"`
}

// importer converts one export format into conversations.
type importer struct {
	name string
	// detect reports whether the parsed top-level value looks like this format.
	detect func(top json.RawMessage) bool
	// convert turns the data into conversations, or warnings for the parts
	// it could not read.
	convert func(top json.RawMessage) ([]importConv, []ImportWarning, *Error)
}

// importers lists the formats import reads, in detection order.
var importers []importer

func init() {
	importers = []importer{
		{"snapshot", detectSnapshot, nil},
		{"chatgpt", detectChatGPT, convertChatGPT},
	}
}

// ImportFormats returns the names of the formats import reads.
func ImportFormats() []string {
	names := []string{"auto"}
	for _, im := range importers {
		names = append(names, im.name)
	}
	return names
}

func opImport(st *Store, r *request) (any, *Error) {
	if !r.has("data") {
		return nil, invalidf("field \"data\" is required for operation \"import\" (the export's text, or its JSON value)")
	}
	format, err := r.optStr("format")
	if err != nil {
		return nil, err
	}
	data := []byte(r.fields["data"])
	if data[0] == '"' {
		var text string
		if err := json.Unmarshal(data, &text); err != nil {
			return nil, invalidf("field \"data\" is not a valid JSON string")
		}
		data = []byte(text)
	}
	return st.Import(data, format)
}

// Import reads an export (data: its bytes) in the named format ("" or
// "auto" detects it) and adds one session per conversation. The result lists
// the sessions made and warnings for what was skipped or guessed. An import
// that makes no session is an error: INVALID_ARGUMENT, or
// SESSION_ALREADY_EXISTS when every conversation was imported before.
func (st *Store) Import(data []byte, format string) (*ImportResult, *Error) {
	st.op = "import"
	top := bytes.TrimSpace(data)
	if len(top) == 0 {
		return nil, invalidf("import data is empty")
	}
	if !json.Valid(top) {
		var v any
		err := json.Unmarshal(top, &v)
		return nil, invalidf("import data is not valid JSON: %s", describeJSONError(top, err))
	}
	var im *importer
	switch format {
	case "", "auto":
		for k := range importers {
			if importers[k].detect(top) {
				im = &importers[k]
				break
			}
		}
		if im == nil {
			return nil, invalidf("could not detect the format of the import data (known formats: %s)", strings.Join(ImportFormats()[1:], ", "))
		}
	default:
		for k := range importers {
			if importers[k].name == format {
				im = &importers[k]
			}
		}
		if im == nil {
			return nil, invalidf("unknown import format %q (known: %s)", format, strings.Join(ImportFormats(), ", "))
		}
	}
	res := &ImportResult{Sessions: []ImportedSession{}, Warnings: []ImportWarning{}}
	var made []*Session
	existing := 0
	if im.name == "snapshot" {
		s, _, err := parseSnapshot(top, "")
		if err != nil {
			return nil, err
		}
		made = append(made, s)
	} else {
		convs, warns, err := im.convert(top)
		if err != nil {
			return nil, err
		}
		res.Warnings = append(res.Warnings, warns...)
		for _, c := range convs {
			s, warns, err := st.buildImported(c)
			res.Warnings = append(res.Warnings, warns...)
			if err != nil {
				res.Warnings = append(res.Warnings, ImportWarning{SessionID: c.ID, Message: err.Message})
				continue
			}
			made = append(made, s)
		}
	}
	now := st.timestamp()
	var kept []*Session
	seen := map[string]bool{}
	for _, s := range made {
		if _, ok := st.sessions[s.id]; ok || seen[s.id] {
			existing++
			res.Warnings = append(res.Warnings, ImportWarning{SessionID: s.id,
				Message: fmt.Sprintf("%s: session %q already exists; skipped (import it again under another id to keep both)", SessionAlreadyExists, s.id)})
			continue
		}
		seen[s.id] = true
		if s.createdAt == "" {
			s.createdAt = now
		}
		if s.updatedAt == "" {
			s.updatedAt = s.createdAt
		}
		kept = append(kept, s)
	}
	if len(kept) == 0 {
		if existing > 0 && existing == len(made) {
			return nil, errorf(SessionAlreadyExists, "nothing imported: every conversation in the data is already a session (%d)", existing)
		}
		msgs := make([]string, 0, len(res.Warnings))
		for _, w := range res.Warnings {
			msgs = append(msgs, w.Message)
		}
		return nil, invalidf("nothing imported: %s", strings.Join(msgs, "; "))
	}
	for _, s := range kept {
		st.put(s)
		st.markDirty(s, 0, true)
		res.Sessions = append(res.Sessions, ImportedSession{
			SessionID: s.id, Title: s.title, NodeCount: len(s.nodes), Cursor: nullable(s.nodeID(s.cursor)),
		})
	}
	return res, nil
}

// describeJSONError names the line and column where data stops being JSON.
func describeJSONError(data []byte, err error) string {
	var off int64 = -1
	if se, ok := err.(*json.SyntaxError); ok {
		off = se.Offset
	}
	if off < 0 || err == nil {
		if err == nil {
			return "malformed JSON"
		}
		return err.Error()
	}
	line, col := 1, 1
	for _, c := range data[:max(0, min(int(off)-1, len(data)))] { // the bad byte is the last one read
		if c == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return fmt.Sprintf("%v (line %d, column %d)", err, line, col)
}

// importConv is one conversation, format-neutral, ready to become a session.
type importConv struct {
	ID      string // "" generates one
	Title   string
	Created float64 // Unix seconds, 0 when unknown
	Updated float64
	Records []importRecord
	Current string // the export's own current leaf, "" when none
}

// importRecord is one node-to-be of an import.
type importRecord struct {
	ID       string
	ParentID string // "" for a root
	Message  json.RawMessage
	Time     float64 // Unix seconds, 0 when unknown
	Source   json.RawMessage
}

func unixTimestamp(sec float64) string {
	if sec <= 0 || math.IsNaN(sec) || math.IsInf(sec, 0) || sec > 1e11 {
		return ""
	}
	whole, frac := math.Modf(sec)
	return time.Unix(int64(whole), int64(frac*1e9)).UTC().Format(TimeLayout)
}

// recordHeap orders record indexes by time, then by position in the export.
type recordHeap struct {
	idx  []int32
	recs []importRecord
}

func (h *recordHeap) Len() int { return len(h.idx) }
func (h *recordHeap) Less(a, b int) bool {
	ra, rb := &h.recs[h.idx[a]], &h.recs[h.idx[b]]
	if ra.Time != rb.Time {
		return ra.Time < rb.Time
	}
	return h.idx[a] < h.idx[b]
}
func (h *recordHeap) Swap(a, b int) { h.idx[a], h.idx[b] = h.idx[b], h.idx[a] }
func (h *recordHeap) Push(x any)    { h.idx = append(h.idx, x.(int32)) }
func (h *recordHeap) Pop() any {
	x := h.idx[len(h.idx)-1]
	h.idx = h.idx[:len(h.idx)-1]
	return x
}

// buildImported turns a conversation into a session. Records keep their
// ids; a parent that is missing makes a root (warned); duplicate ids and
// parent cycles reject the conversation. Nodes are added parents first, in
// time order. The path to the cursor is branch "main"; every other child of
// a branch point opens an automatically named branch.
func (st *Store) buildImported(c importConv) (*Session, []ImportWarning, *Error) {
	var warns []ImportWarning
	id := c.ID
	if id == "" {
		id = st.sessionID()
	}
	warn := func(format string, args ...any) {
		warns = append(warns, ImportWarning{SessionID: id, Message: fmt.Sprintf(format, args...)})
	}
	recs := c.Records
	if len(recs) == 0 {
		return nil, warns, invalidf("conversation %q (%s) has no messages; skipped", id, c.Title)
	}
	at := make(map[string]int32, len(recs))
	var dups []string
	for i, rec := range recs {
		if _, dup := at[rec.ID]; dup {
			dups = append(dups, rec.ID)
			continue
		}
		at[rec.ID] = int32(i)
	}
	if len(dups) > 0 {
		return nil, warns, invalidf("conversation %q repeats message ids %s; skipped", id, strings.Join(dups, ", "))
	}
	parent := make([]int32, len(recs))
	for i, rec := range recs {
		parent[i] = -1
		if rec.ParentID == "" {
			continue
		}
		if p, ok := at[rec.ParentID]; ok {
			parent[i] = p
		} else {
			warn("message %q names parent %q, which is not in the conversation; it becomes a root", rec.ID, rec.ParentID)
		}
	}
	// Cycle check: walk up from each record, colouring; 1 = on the current
	// walk, 2 = known to reach a root.
	color := make([]byte, len(recs))
	for i := range recs {
		var walk []int32
		j := int32(i)
		for j >= 0 && color[j] == 0 {
			color[j] = 1
			walk = append(walk, j)
			j = parent[j]
		}
		if j >= 0 && color[j] == 1 {
			return nil, warns, invalidf("conversation %q has a parent cycle through message %q; skipped", id, recs[j].ID)
		}
		for _, w := range walk {
			color[w] = 2
		}
	}
	// Children lists and a time-ordered topological order.
	kids := make([][]int32, len(recs))
	h := &recordHeap{recs: recs}
	for i := range recs {
		if p := parent[i]; p >= 0 {
			kids[p] = append(kids[p], int32(i))
		} else {
			h.idx = append(h.idx, int32(i))
		}
	}
	heap.Init(h)
	order := make([]int32, 0, len(recs))
	for h.Len() > 0 {
		i := heap.Pop(h).(int32)
		order = append(order, i)
		for _, k := range kids[i] {
			heap.Push(h, k)
		}
	}
	// Cursor: the export's current leaf, else the newest leaf.
	cursor := int32(-1)
	if c.Current != "" {
		if i, ok := at[c.Current]; ok {
			cursor = i
		} else {
			warn("current message %q is not in the conversation; the cursor is on the newest leaf", c.Current)
		}
	} else {
		warn("the conversation names no current message; the cursor is on the newest leaf")
	}
	if cursor < 0 {
		for _, i := range order {
			if len(kids[i]) == 0 && (cursor < 0 || recs[i].Time >= recs[cursor].Time) {
				cursor = i
			}
		}
	}
	onMain := make([]bool, len(recs))
	cont := make([]int32, len(recs)) // the child that continues each node's branch
	for i := range cont {
		cont[i] = -1
	}
	for j := cursor; j >= 0; j = parent[j] {
		onMain[j] = true
		if p := parent[j]; p >= 0 {
			cont[p] = j
		}
	}
	s := newSession(id, c.Title, unixTimestamp(c.Created))
	s.updatedAt = unixTimestamp(c.Updated)
	s.branches, s.byName = nil, make(map[string]*branchInfo)
	fallback := unixTimestamp(c.Created)
	if fallback == "" {
		fallback = st.timestamp()
	}
	for _, i := range order {
		rec := &recs[i]
		msg, role, err := validateMessage(rec.Message, fmt.Sprintf("message %q", rec.ID))
		if err != nil {
			return nil, warns, invalidf("conversation %q: %s; skipped", id, err.Message)
		}
		p := parent[i]
		branch := ""
		switch {
		case p < 0 && onMain[i]:
			branch = DefaultBranch
		case p < 0:
			branch = s.autoBranchName(DefaultBranch)
		case cont[p] == i:
			branch = s.nodes[s.index[recs[p].ID]].Branch
		case cont[p] < 0 && !onMain[p]:
			cont[p] = i
			branch = s.nodes[s.index[recs[p].ID]].Branch
		default:
			branch = s.autoBranchName(s.nodes[s.index[recs[p].ID]].Branch)
		}
		ts := unixTimestamp(rec.Time)
		if ts == "" {
			ts = fallback
		}
		n := &Node{ID: rec.ID, Branch: branch, Kind: KindMessage, Timestamp: ts, Message: msg, role: role, Source: rec.Source}
		pi := int32(-1)
		if p >= 0 {
			pi = s.index[recs[p].ID]
			n.ParentID = recs[p].ID
		}
		s.push(n, pi)
	}
	s.cursor = s.index[recs[cursor].ID]
	s.active = s.nodes[s.cursor].Branch
	return s, warns, nil
}

// detectSnapshot reports whether top is a sessiontree snapshot.
func detectSnapshot(top json.RawMessage) bool {
	if top[0] != '{' {
		return false
	}
	var probe struct {
		Version   json.RawMessage `json:"version"`
		SessionID json.RawMessage `json:"sessionId"`
		Nodes     json.RawMessage `json:"nodes"`
	}
	return json.Unmarshal(top, &probe) == nil && probe.Version != nil && probe.SessionID != nil && probe.Nodes != nil
}

// sortedKeys returns the keys of m in sorted order (deterministic output).
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
