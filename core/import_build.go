package core

import (
	"container/heap"
	"math"
	"strings"
	"time"

	"github.com/sessiontree/sessiontree/core/internal/formats"
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

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
	recs []formats.Record
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

func (h *recordHeap) Push(x any) { h.idx = append(h.idx, x.(int32)) }

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
func (st *Store) buildImported(c formats.Conversation) (*Session, []ImportWarning, *Error) {
	id, warns := st.importNames(&c)
	warn := func(format string, args ...any) {
		warns = append(warns, ImportWarning{SessionID: id, Message: jsonx.Sprintf(format, args...)})
	}
	recs := c.Records
	if len(recs) == 0 {
		return nil, warns, invalidf("conversation %q (%s) has no messages; skipped", id, c.Title)
	}
	if c.Linear {
		taken := make(map[string]bool, len(recs))
		for _, rec := range recs {
			taken[rec.ID] = true
		}
		for i := range recs {
			for recs[i].ID == "" {
				if cand := st.newID(); cand != "" && !taken[cand] {
					recs[i].ID, taken[cand] = cand, true
				}
			}
			if i > 0 {
				recs[i].ParentID = recs[i-1].ID
			}
		}
	}
	for _, rec := range recs {
		raw := rec.Source
		if raw == nil {
			raw = rec.Message
		}
		if at := jsonx.LoneSurrogate(raw); at >= 0 {
			esc := string(raw[at : at+6])
			warn("message %q holds a lone surrogate escape %s (byte %d of its record), which is not a character: the record keeps it as written, text shows U+FFFD", rec.ID, esc, at)
		}
	}
	at := make(map[string]int32, len(recs))
	var dups []string
	for i, rec := range recs {
		if rec.ID == "" {
			return nil, warns, invalidf("conversation %q has a message without an id (record %d); skipped", id, i)
		}
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
	if c.Linear && c.Current == "" {
		c.Current = recs[len(recs)-1].ID // a linear chat stands at its end
	}
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
			if len(kids[i]) > 0 {
				continue
			}
			better := cursor < 0 || recs[i].Time >= recs[cursor].Time
			if cursor >= 0 && recs[i].Aside != recs[cursor].Aside {
				better = recs[cursor].Aside
			}
			if better {
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
		n := &Node{ID: rec.ID, Kind: KindMessage, Source: rec.Source}
		switch {
		case rec.Kind == KindSummary:
			n.Kind, n.Summary = KindSummary, rec.Summary
		case rec.Kind != "" && rec.Kind != KindMessage:
			n.Kind, n.Entry = rec.Kind, rec.Entry
		default:
			msg, role, err := validateMessage(rec.Message, jsonx.Sprintf("message %q", rec.ID))
			if err != nil {
				return nil, warns, invalidf("conversation %q: %s; skipped", id, err.Message)
			}
			n.Message, n.role = msg, role
		}
		p := parent[i]
		branch := ""
		switch {
		case c.KeepBranches && validName(rec.Branch):
			branch = rec.Branch
		case p < 0 && onMain[i]:
			branch = DefaultBranch
		case p < 0:
			branch = s.branchFor(rec.Branch, DefaultBranch)
		case cont[p] == i:
			branch = s.nodes[s.index[recs[p].ID]].Branch
		case cont[p] < 0 && !onMain[p]:
			cont[p] = i
			branch = s.nodes[s.index[recs[p].ID]].Branch
		default:
			branch = s.branchFor(rec.Branch, s.nodes[s.index[recs[p].ID]].Branch)
		}
		ts := rec.Stamp
		if ts == "" {
			ts = unixTimestamp(rec.Time)
		}
		if ts == "" {
			ts = fallback
		}
		n.Branch, n.Timestamp = branch, ts
		pi := int32(-1)
		if p >= 0 {
			pi = s.index[recs[p].ID]
			n.ParentID = recs[p].ID
		}
		if n.Entry != nil {
			if err := s.checkEntryPlace(n.Kind, n.Entry, pi, "entry"); err != nil {
				// A compaction that keeps a node off its path cannot be
				// replayed: it stays in the tree as a custom entry.
				warn("%s %q: %s; it is kept as a custom entry (customType %q) that does not reach the model", n.Kind, n.ID, err.Message, "import:"+n.Kind)
				n.Kind, n.Entry = KindCustom, &Entry{CustomType: "import:" + n.Kind, Data: rec.Source}
			}
		}
		s.push(n, pi)
	}
	s.cursor = s.index[recs[cursor].ID]
	s.active = s.nodes[s.cursor].Branch
	if c.KeepBranches && validName(c.Active) {
		s.active = c.Active
		if s.byName[c.Active] == nil {
			s.addBranch(c.Active, s.cursor)
		}
	}
	for _, l := range c.Labels {
		if _, ok := s.index[l.Target]; !ok {
			warn("%s labels %q, which is not in the conversation; the label %q is dropped", l.What, l.Target, l.Label)
			continue
		}
		ts := l.Stamp
		if ts == "" {
			ts = fallback
		}
		s.annotate(&Annotation{Kind: AnnotationLabel, NodeID: l.Target, Label: l.Label, Timestamp: ts})
	}
	for k, raw := range c.Annotations {
		a, err := s.parseAnnotation(raw, k)
		if err != nil {
			warn("annotation %d is dropped: %s", k, err.Message)
			continue
		}
		s.annotate(a)
	}
	return s, warns, nil
}

// branchFor names a branch an import opens: hint itself when it is a
// free name, else a name derived from hint, or from from when there is no
// hint.
func (s *Session) branchFor(hint, from string) string {
	if hint == "" {
		return s.autoBranchName(from)
	}
	if s.byName[hint] == nil {
		return hint
	}
	return s.autoBranchName(hint)
}
