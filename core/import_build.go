package core

import (
	"math"
	"strings"

	"github.com/sessiontree/sessiontree/core/internal/formats"
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

func unixTimestamp(sec float64) string {
	if sec <= 0 || math.IsNaN(sec) || math.IsInf(sec, 0) || sec > 1e11 {
		return ""
	}
	whole, frac := math.Modf(sec)
	// To the nearest millisecond (TimeLayout's unit): 1674559896.839 is
	// 1674559896.838999… as a float.
	ms := int64(whole)*1000 + int64(math.Round(frac*1e3))
	// TimeLayout written by hand, the date by Howard Hinnant's
	// days_from_civil inverse ("chrono-Compatible Low-Level Date
	// Algorithms", civil_from_days): time.Time's Format and even its
	// Date and Clock were 3% of a ChatGPT import in wasm, one call per
	// node. The year has four digits, since 0 < sec ≤ 1e11.
	secs, milli := ms/1000, int(ms%1000)
	day, rem := secs/86400, int(secs%86400)
	z := day + 719468 // days since 0000-03-01
	era := z / 146097
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d := int(doy - (153*mp+2)/5 + 1)
	m := int(mp + 3)
	if mp >= 10 {
		m = int(mp - 9)
	}
	y := int(yoe + era*400)
	if m <= 2 {
		y++
	}
	var b [len(TimeLayout)]byte
	put := func(at, v, n int) {
		for k := at + n - 1; k >= at; k-- {
			b[k] = byte('0' + v%10)
			v /= 10
		}
	}
	put(0, y, 4)
	put(5, m, 2)
	put(8, d, 2)
	put(11, rem/3600, 2)
	put(14, rem%3600/60, 2)
	put(17, rem%60, 2)
	put(20, milli, 3)
	b[4], b[7], b[10], b[13], b[16], b[19], b[23] = '-', '-', 'T', ':', ':', '.', 'Z'
	return string(b[:])
}

// recordHeap is a binary heap of record indexes, least first by time,
// then by position in the export (a strict order, so the pops come in the
// same order from any heap). Typed, not through container/heap: its
// interface calls (Less, Swap, any boxes) were most of order() in wasm.
type recordHeap struct {
	idx  []int32
	recs []formats.Record
}

func (h *recordHeap) less(a, b int32) bool {
	ra, rb := &h.recs[a], &h.recs[b]
	if ra.Time != rb.Time {
		return ra.Time < rb.Time
	}
	return a < b
}

// push adds record i.
func (h *recordHeap) push(i int32) {
	h.idx = append(h.idx, i)
	for j := len(h.idx) - 1; j > 0; {
		p := (j - 1) / 2
		if !h.less(h.idx[j], h.idx[p]) {
			break
		}
		h.idx[j], h.idx[p] = h.idx[p], h.idx[j]
		j = p
	}
}

// pop removes and returns the least record (the heap is not empty).
func (h *recordHeap) pop() int32 {
	top := h.idx[0]
	last := len(h.idx) - 1
	h.idx[0] = h.idx[last]
	h.idx = h.idx[:last]
	for j := 0; ; {
		l, m := 2*j+1, j
		if l < last && h.less(h.idx[l], h.idx[m]) {
			m = l
		}
		if r := l + 1; r < last && h.less(h.idx[r], h.idx[m]) {
			m = r
		}
		if m == j {
			break
		}
		h.idx[j], h.idx[m] = h.idx[m], h.idx[j]
		j = m
	}
	return top
}

// importTree is a conversation's records linked into a tree while an
// import builds it: parent and children by record index, and the records'
// validated messages.
type importTree struct {
	id    string // the session id
	recs  []formats.Record
	at    map[string]int32 // record id → index
	par   []int32
	kids  [][]int32
	msgs  []RawMessage // validated message of each message record
	roles []string
	warns []ImportWarning
	// fallback is the time of a record that gives none: the
	// conversation's creation, else the time of the import.
	fallback string
}

//go:noinline // called once per operation; inlined copies cost wasm size
func (t *importTree) warn(format string, args ...any) {
	t.warns = append(t.warns, ImportWarning{SessionID: t.id, Message: jsonx.Sprintf(format, args...)})
}

// buildImported turns a conversation into a session, applying the import
// tolerance rule (docs/IMPORTERS.md): a record that cannot be used is
// skipped with a warning and its children attach to its parent; a
// repeated id keeps the first usable record; a parent that is missing
// makes a root; a link that closes a cycle is cut, the importer's inferred
// links first; only a conversation with records none of which is usable
// is rejected (a conversation with no records is an empty session). Nodes
// are added parents first, in time order. The path to the cursor is
// branch "main"; every other child of a branch point opens an
// automatically named branch.
func (st *Store) buildImported(c formats.Conversation) (*Session, []ImportWarning, *Error) {
	id, warns := st.importNames(&c)
	t := &importTree{id: id, warns: warns}
	if t.fallback = unixTimestamp(c.Created); t.fallback == "" && (len(c.Records) > 0 || len(c.Labels) > 0) {
		t.fallback = st.timestamp()
	}
	if len(c.Records) == 0 {
		if c.Unusable > 0 {
			return nil, t.warns, invalidf("%s: none of its %d records could be used; skipped", conversationName(t.id, c.Title), c.Unusable)
		}
		s := newSession(t.id, c.Title, unixTimestamp(c.Created))
		s.updatedAt = unixTimestamp(c.Updated)
		return s, t.warns, nil
	}
	t.recs = c.Records
	if c.Linear {
		t.chain(c.ID)
	}
	t.surrogates()
	if !t.usable() {
		return nil, t.warns, invalidf("%s: none of its %d records could be used; skipped", conversationName(t.id, c.Title), len(c.Records))
	}
	t.link()
	t.cutCycles()
	order := t.order()
	cursor := t.cursor(&c, order)
	s := t.session(&c, order, cursor)
	t.annotate(s, &c)
	return s, t.warns, nil
}

// conversationName names a conversation in a message: `conversation "id"
// (title)`, without the parentheses when it has no title.
func conversationName(id, title string) string {
	if title == "" {
		return jsonx.Sprintf("conversation %q", id)
	}
	return jsonx.Sprintf("conversation %q (%s)", id, title)
}

// chain links the records of a linear conversation in their order; a
// record without an id gets one derived from the conversation, its
// position and its message, so importing the same file again gives the
// same ids (see formats.DerivedID).
func (t *importTree) chain(conv string) {
	taken := make(map[string]bool, len(t.recs))
	for _, rec := range t.recs {
		taken[rec.ID] = true
	}
	for i := range t.recs {
		for k := 0; t.recs[i].ID == ""; k++ {
			if cand := formats.DerivedID(conv, i, k, t.recs[i].Message); !taken[cand] {
				t.recs[i].ID, taken[cand] = cand, true
			}
		}
		if i > 0 {
			t.recs[i].ParentID = t.recs[i-1].ID
		}
	}
}

// surrogates warns of lone surrogate escapes in the records.
func (t *importTree) surrogates() {
	for i := range t.recs {
		rec := &t.recs[i]
		if rec.NoUEscape && rec.Source != nil {
			continue // the importer's scanner saw no \u escape in it
		}
		raw := rec.Source
		if raw == nil {
			raw = rec.Message
		}
		if at := jsonx.LoneSurrogate(raw); at >= 0 {
			esc := string(raw[at : at+6])
			t.warn("message %q holds a lone surrogate escape %s (byte %d of its record), which is not a character: the record keeps it as written, text shows U+FFFD", rec.ID, esc, at)
		}
	}
}

// usable drops the records that cannot be used — no id, a message that is
// not one, a repeated id (the first usable record keeps it) — warning of
// each, and attaches their children to their parents. It reports whether
// any record is left.
func (t *importTree) usable() bool {
	dropped := map[string]string{}
	seen := make(map[string]bool, len(t.recs))
	// Filtered in place (a record moves only towards the front, after it
	// was read): a copy of the records was a fifth of the bytes a 20 MB
	// ChatGPT import allocated.
	kept := t.recs[:0]
	t.msgs = make([]RawMessage, 0, len(t.recs))
	t.roles = make([]string, 0, len(t.recs))
	for i, rec := range t.recs {
		var msg RawMessage
		var role string
		switch {
		case rec.ID == "":
			t.warn("record %d has no id; skipped", i)
			continue
		case seen[rec.ID]:
			t.warn("message %q appears again (record %d); the first is kept and this one skipped", rec.ID, i)
			continue
		case (rec.Kind == "" || rec.Kind == KindMessage) && rec.Written && rec.Role != "" && strings.TrimSpace(rec.Role) != "":
			// Written with a string content by the importer: only the
			// role is core's to check (as validateMessageOf would).
			msg, role = rec.Message, rec.Role
		case rec.Kind == "" || rec.Kind == KindMessage:
			var err *Error
			// The field's name is formatted only for an error (once per
			// record, it was a tenth of the import's allocations).
			if msg, role, err = validateMessageOf(rec.Message, "message", rec.Written); err != nil {
				_, _, err = validateMessageOf(rec.Message, jsonx.Sprintf("message %q", rec.ID), rec.Written)
				t.warn("%s; the record is skipped and its children attach to its parent", err.Message)
				if _, again := dropped[rec.ID]; !again {
					dropped[rec.ID] = rec.ParentID
				}
				continue
			}
		}
		seen[rec.ID] = true
		kept = append(kept, rec)
		t.msgs = append(t.msgs, msg)
		t.roles = append(t.roles, role)
	}
	for id := range seen {
		delete(dropped, id) // a repeated id's kept record stands
	}
	formats.Relink(kept, dropped)
	t.recs = kept
	return len(kept) > 0
}

// link fills at and par; a parent not in the conversation makes a root.
func (t *importTree) link() {
	t.at = make(map[string]int32, len(t.recs))
	for i := range t.recs {
		t.at[t.recs[i].ID] = int32(i)
	}
	t.par = make([]int32, len(t.recs))
	for i := range t.recs {
		rec := &t.recs[i]
		t.par[i] = -1
		if rec.ParentID == "" {
			continue
		}
		if p, ok := t.at[rec.ParentID]; ok {
			t.par[i] = p
		} else {
			t.warn("message %q names parent %q, which is not in the conversation; it becomes a root", rec.ID, rec.ParentID)
		}
	}
}

// cutCycles walks up from each record, colouring (1 = on the current
// walk, 2 = known to reach a root). A walk that meets itself has found a
// cycle: the link cut is the first inferred one on the cycle (the record
// falls back to the parent the file states), else the link of the cycle's
// record that comes last in the file (it becomes a root). Each cut
// removes a link, so the loop ends.
func (t *importTree) cutCycles() {
	color := make([]byte, len(t.recs))
	var walk []int32
	for i := 0; i < len(t.recs); i++ {
		walk = walk[:0]
		j := int32(i)
		for j >= 0 && color[j] == 0 {
			color[j] = 1
			walk = append(walk, j)
			j = t.par[j]
		}
		if j >= 0 && color[j] == 1 {
			k := 0
			for walk[k] != j {
				k++
			}
			t.cut(walk[k:])
			for _, w := range walk {
				color[w] = 0
			}
			i-- // walk again from the same record
			continue
		}
		for _, w := range walk {
			color[w] = 2
		}
	}
}

// cut breaks the cycle of records cyc (each one's parent is the next).
func (t *importTree) cut(cyc []int32) {
	for _, r := range cyc {
		rec := &t.recs[r]
		if !rec.Inferred {
			continue
		}
		rec.Inferred = false
		p, ok := t.at[rec.StatedParent]
		if !ok {
			p = -1
		}
		t.par[r] = p
		to := "it becomes a root"
		if p >= 0 {
			to = jsonx.Sprintf("it keeps the parent the file states, %q", rec.StatedParent)
		}
		t.warn("message %q: the link to %q that the importer inferred would close a cycle; it is cut and %s", rec.ID, rec.ParentID, to)
		return
	}
	last := cyc[0]
	for _, r := range cyc {
		if r > last {
			last = r
		}
	}
	t.warn("message %q: its parent %q would close a cycle; the link is cut and it becomes a root", t.recs[last].ID, t.recs[last].ParentID)
	t.par[last] = -1
}

// order returns the records parents first, in time order (then file
// order), and fills kids.
func (t *importTree) order() []int32 {
	t.kids = make([][]int32, len(t.recs))
	h := &recordHeap{recs: t.recs}
	for i := range t.recs {
		if p := t.par[i]; p >= 0 {
			t.kids[p] = append(t.kids[p], int32(i))
		} else {
			h.push(int32(i))
		}
	}
	order := make([]int32, 0, len(t.recs))
	for len(h.idx) > 0 {
		i := h.pop()
		order = append(order, i)
		for _, k := range t.kids[i] {
			h.push(k)
		}
	}
	return order
}

// cursor returns the record the session's cursor is on: the export's
// current leaf, else the newest leaf off the sidechains.
func (t *importTree) cursor(c *formats.Conversation, order []int32) int32 {
	cursor := int32(-1)
	if c.Linear && c.Current == "" {
		c.Current = t.recs[len(t.recs)-1].ID // a linear chat stands at its end
	}
	if c.Current != "" {
		if i, ok := t.at[c.Current]; ok {
			return i
		}
		t.warn("current message %q is not in the conversation; the cursor is on the newest leaf", c.Current)
	} else if !c.NewestLeaf {
		t.warn("the conversation names no current message; the cursor is on the newest leaf")
	}
	for _, i := range order {
		if len(t.kids[i]) > 0 {
			continue
		}
		better := cursor < 0 || t.recs[i].Time >= t.recs[cursor].Time
		if cursor >= 0 && t.recs[i].Aside != t.recs[cursor].Aside {
			better = t.recs[cursor].Aside
		}
		if better {
			cursor = i
		}
	}
	return cursor
}

// session adds the records as nodes of a new session, in order.
func (t *importTree) session(c *formats.Conversation, order []int32, cursor int32) *Session {
	onMain := make([]bool, len(t.recs))
	cont := make([]int32, len(t.recs)) // the child that continues each node's branch
	for i := range cont {
		cont[i] = -1
	}
	for j := cursor; j >= 0; j = t.par[j] {
		onMain[j] = true
		if p := t.par[j]; p >= 0 {
			cont[p] = j
		}
	}
	s := newSession(t.id, c.Title, unixTimestamp(c.Created))
	s.updatedAt = unixTimestamp(c.Updated)
	s.branches, s.byName = nil, make(map[string]*branchInfo)
	s.reserve(len(order))
	next := map[string]int{} // see autoBranchNameFrom: this build only adds branches
	for _, i := range order {
		rec := &t.recs[i]
		n := &Node{ID: rec.ID, Kind: KindMessage, Source: rec.Source}
		switch {
		case rec.Kind == KindSummary:
			n.Kind, n.Summary = KindSummary, rec.Summary
		case rec.Kind != "" && rec.Kind != KindMessage:
			n.Kind, n.Entry = rec.Kind, rec.Entry
		default:
			n.Message, n.role = t.msgs[i], t.roles[i]
		}
		p := t.par[i]
		var from string
		if p >= 0 {
			from = s.nodes[s.index[t.recs[p].ID]].Branch
		}
		switch {
		case c.KeepBranches && validName(rec.Branch):
			n.Branch = rec.Branch
		case p < 0 && onMain[i]:
			n.Branch = DefaultBranch
		case p < 0:
			n.Branch = s.branchFor(rec.Branch, DefaultBranch, next)
		case cont[p] == i:
			n.Branch = from
		case cont[p] < 0 && !onMain[p]:
			cont[p] = i
			n.Branch = from
		default:
			n.Branch = s.branchFor(rec.Branch, from, next)
		}
		n.Timestamp = rec.Stamp
		if n.Timestamp == "" {
			n.Timestamp = unixTimestamp(rec.Time)
		}
		if n.Timestamp == "" {
			n.Timestamp = t.fallback
		}
		pi := int32(-1)
		if p >= 0 {
			pi = s.index[t.recs[p].ID]
			n.ParentID = t.recs[p].ID
		}
		t.placeEntry(s, n, pi, rec.Source)
		s.push(n, pi)
	}
	s.cursor = s.index[t.recs[cursor].ID]
	s.active = s.nodes[s.cursor].Branch
	if c.KeepBranches && validName(c.Active) {
		s.active = c.Active
		if s.byName[c.Active] == nil {
			s.addBranch(c.Active, s.cursor)
		}
	}
	return s
}

// placeEntry checks an entry node against its place: a compaction that
// keeps a node off its path cannot be replayed, so it stays in the tree as
// a custom entry that does not reach the model.
func (t *importTree) placeEntry(s *Session, n *Node, parent int32, source RawMessage) {
	if n.Entry == nil {
		return
	}
	if err := s.checkEntryPlaceOf(n.Kind, n.Entry, parent, n.ID, "entry"); err != nil {
		t.warn("%s %q: %s; it is kept as a custom entry (customType %q) that does not reach the model", n.Kind, n.ID, err.Message, "import:"+n.Kind)
		n.Kind, n.Entry = KindCustom, &Entry{CustomType: "import:" + n.Kind, Data: source}
	}
}

// annotate applies the conversation's labels and annotations.
func (t *importTree) annotate(s *Session, c *formats.Conversation) {
	for _, l := range c.Labels {
		if _, ok := s.index[l.Target]; !ok {
			t.warn("%s labels %q, which is not in the conversation; the label %q is dropped", l.What, l.Target, l.Label)
			continue
		}
		ts := l.Stamp
		if ts == "" {
			ts = t.fallback
		}
		s.annotate(&Annotation{Kind: AnnotationLabel, NodeID: l.Target, Label: l.Label, Timestamp: ts})
	}
	for k, raw := range c.Annotations {
		a, err := s.parseAnnotation(raw, k)
		if err != nil {
			t.warn("annotation %d is dropped: %s", k, err.Message)
			continue
		}
		s.annotate(a)
	}
	t.linkSource(s, c)
}

// branchFor names a branch an import opens: hint itself when it is a
// free name, else a name derived from hint, or from from when there is no
// hint (next: see autoBranchNameFrom).
func (s *Session) branchFor(hint, from string, next map[string]int) string {
	if hint == "" {
		return s.autoBranchNameFrom(from, next)
	}
	if s.byName[hint] == nil {
		return hint
	}
	return s.autoBranchNameFrom(hint, next)
}
