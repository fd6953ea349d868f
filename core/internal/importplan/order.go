package importplan

import (
	"github.com/sessiontree/sessiontree/core/internal/formats"
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// cutCycles walks up from each record, colouring (1 = on the current
// walk, 2 = known to reach a root). A walk that meets itself has found a
// cycle: the link cut is the first inferred one on the cycle (the record
// falls back to the parent the file states), else the link of the cycle's
// record that comes last in the file (it becomes a root). Each cut
// removes a link, so the loop ends.
func (t *Tree) cutCycles() {
	color := make([]byte, len(t.Records))
	var walk []int32
	for i := 0; i < len(t.Records); i++ {
		walk = walk[:0]
		j := int32(i)
		for j >= 0 && color[j] == 0 {
			color[j] = 1
			walk = append(walk, j)
			j = t.Par[j]
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
func (t *Tree) cut(cyc []int32) {
	for _, r := range cyc {
		rec := &t.Records[r]
		if !rec.Inferred {
			continue
		}
		rec.Inferred = false
		p, ok := t.at[rec.StatedParent]
		if !ok {
			p = -1
		}
		t.Par[r] = p
		to := "it becomes a root"
		if p >= 0 {
			to = jsonx.Sprintf("it keeps the parent the file states, %q", rec.StatedParent)
		}
		t.Warn("message %q: the link to %q that the importer inferred would close a cycle; it is cut and %s", rec.ID, rec.ParentID, to)
		return
	}
	last := cyc[0]
	for _, r := range cyc {
		if r > last {
			last = r
		}
	}
	t.Warn("message %q: its parent %q would close a cycle; the link is cut and it becomes a root", t.Records[last].ID, t.Records[last].ParentID)
	t.Par[last] = -1
}

// order returns the records parents first, in time order (then file
// order), and fills Kids.
func (t *Tree) order() []int32 {
	t.Kids = make([][]int32, len(t.Records))
	h := &recordHeap{recs: t.Records}
	for i := range t.Records {
		if p := t.Par[i]; p >= 0 {
			t.Kids[p] = append(t.Kids[p], int32(i))
		} else {
			h.push(int32(i))
		}
	}
	order := make([]int32, 0, len(t.Records))
	for len(h.idx) > 0 {
		i := h.pop()
		order = append(order, i)
		for _, k := range t.Kids[i] {
			h.push(k)
		}
	}
	return order
}

// cursor returns the record the session's cursor is on: the export's
// current leaf, else the newest leaf off the sidechains.
func (t *Tree) cursor(c *formats.Conversation, order []int32) int32 {
	cursor := int32(-1)
	if c.Linear && c.Current == "" {
		c.Current = t.Records[len(t.Records)-1].ID // a linear chat stands at its end
	}
	if c.Current != "" {
		if i, ok := t.at[c.Current]; ok {
			return i
		}
		t.Warn("current message %q is not in the conversation; the cursor is on the newest leaf", c.Current)
	} else if !c.NewestLeaf {
		t.Warn("the conversation names no current message; the cursor is on the newest leaf")
	}
	for _, i := range order {
		if len(t.Kids[i]) > 0 {
			continue
		}
		better := cursor < 0 || t.Records[i].Time >= t.Records[cursor].Time
		if cursor >= 0 && t.Records[i].Aside != t.Records[cursor].Aside {
			better = t.Records[cursor].Aside
		}
		if better {
			cursor = i
		}
	}
	return cursor
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
