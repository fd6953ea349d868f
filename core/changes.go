package core

import "github.com/sessiontree/sessiontree/core/internal/jsonx"

// Change tracking for persistence. The JS shim writes to IndexedDB only what
// a call changed: the session's metadata record and the nodes appended since
// the last drain, or every node after a replace (snapshot.load).

type dirtyMark struct {
	id    string
	reset bool   // every stored node of the session is to be replaced
	from  int    // first node index not yet handed out (when !reset)
	afrom int    // first annotation index not yet handed out (when !reset)
	op    string // the operation that last changed the session
}

// TrackChanges turns change tracking on or off. While it is on, every
// successful mutating call records what it changed until DrainChanges.
func (st *Store) TrackChanges(on bool) {
	st.track = on
	if !on {
		st.dirty = nil
	}
}

// markDirty records that operation op changed session s. from is the
// number of nodes it had before the call; reset says every node was
// replaced.
func (st *Store) markDirty(s *Session, from int, reset bool, op string) {
	if !st.track {
		return
	}
	for i := range st.dirty {
		if st.dirty[i].id == s.id {
			if reset {
				st.dirty[i].reset = true
			}
			if from < st.dirty[i].from {
				st.dirty[i].from = from
			}
			st.dirty[i].op = op
			return
		}
	}
	st.dirty = append(st.dirty, dirtyMark{id: s.id, reset: reset, from: from, afrom: len(s.annotations), op: op})
}

// markAnnotated records that session s gained annotations; from is the
// number it had before the call. Call it after markDirty (or touch).
func (st *Store) markAnnotated(s *Session, from int) {
	if !st.track {
		return
	}
	for i := range st.dirty {
		if st.dirty[i].id == s.id && from < st.dirty[i].afrom {
			st.dirty[i].afrom = from
		}
	}
}

// DrainChanges returns what changed since the last drain and forgets it. The
// text is one block per changed session: a header line
//
//	{"sessionId":…,"operation":…,"reset":bool,"from":N,"count":K,"annotationFrom":A,"annotationCount":J,"meta":{…}}
//
// (operation names the call that last changed the session) followed by K
// lines, each one node in snapshot form: the nodes with append-order
// indexes from N to N+K-1, every line but the block's last ending in ","
// before its newline — so any run of node lines, less its last ",\n", is
// those nodes joined by ",\n", the form of the shim's chunk records, and
// is written to IndexedDB without being split and joined again; then J
// lines, each one annotation record in snapshot form (see Annotation): the
// annotations with indexes A to A+J-1.
// meta is {"sessionId","title","cursor","activeBranch","createdAt",
// "updatedAt","nodeCount","annotationCount"}. With reset the session's
// stored nodes and annotations are replaced by these (N and A are 0).
// Lines end with "\n"; node JSON never contains a raw newline. With
// withNodes false the node lines are left out (count stays the number of
// nodes that changed). An empty string means nothing changed.
func (st *Store) DrainChanges(withNodes bool) []byte {
	var b []byte
	if withNodes {
		// Sized once: growing a 255 MB drain (a 1,000,000-node load) by
		// doubling left as much again in dead copies, and the wasm memory
		// never shrinks.
		b = make([]byte, 0, st.drainSize())
	}
	for _, d := range st.dirty {
		s, from := st.drained(d)
		if s == nil {
			continue
		}
		b = append(b, `{"sessionId":`...)
		b = jsonx.AppendString(b, s.id)
		b = append(b, `,"operation":`...)
		b = jsonx.AppendString(b, d.op)
		b = append(b, `,"reset":`...)
		b = jsonx.AppendBool(b, d.reset)
		b = append(b, `,"from":`...)
		b = jsonx.AppendInt(b, from)
		b = append(b, `,"count":`...)
		b = jsonx.AppendInt(b, len(s.nodes)-from)
		afrom := d.afrom
		if d.reset {
			afrom = 0
		}
		if afrom > len(s.annotations) {
			afrom = len(s.annotations)
		}
		b = append(b, `,"annotationFrom":`...)
		b = jsonx.AppendInt(b, afrom)
		b = append(b, `,"annotationCount":`...)
		b = jsonx.AppendInt(b, len(s.annotations)-afrom)
		b = append(b, `,"meta":`...)
		b = s.appendMeta(b)
		b = append(b, "}\n"...)
		if withNodes {
			last := len(s.nodes) - 1
			for i := from; i <= last; i++ {
				b = s.nodes[i].AppendJSON(b)
				if i < last {
					b = append(b, ',')
				}
				b = append(b, '\n')
			}
			for _, a := range s.annotations[afrom:] {
				b = a.AppendJSON(b)
				b = append(b, '\n')
			}
		}
	}
	st.dirty = st.dirty[:0]
	return b
}

func (s *Session) appendMeta(b []byte) []byte {
	b = append(b, `{"sessionId":`...)
	b = jsonx.AppendString(b, s.id)
	b = append(b, `,"title":`...)
	b = jsonx.AppendString(b, s.title)
	b = append(b, `,"cursor":`...)
	b = jsonx.AppendNullableString(b, s.nodeID(s.cursor))
	b = append(b, `,"activeBranch":`...)
	b = jsonx.AppendString(b, s.active)
	b = append(b, `,"createdAt":`...)
	b = jsonx.AppendString(b, s.createdAt)
	b = append(b, `,"updatedAt":`...)
	b = jsonx.AppendString(b, s.updatedAt)
	b = append(b, `,"nodeCount":`...)
	b = jsonx.AppendInt(b, len(s.nodes))
	b = append(b, `,"annotationCount":`...)
	b = jsonx.AppendInt(b, len(s.annotations))
	return append(b, '}')
}

// drained returns the session of a dirty mark (nil when it is gone) and
// the first node its drain carries: 0 for a reset, never past the end.
func (st *Store) drained(d dirtyMark) (*Session, int) {
	s := st.sessions[d.id]
	if s == nil {
		return nil, 0
	}
	from := d.from
	if d.reset {
		from = 0
	}
	return s, min(from, len(s.nodes))
}

// drainSize estimates the bytes of DrainChanges(true): each node's fields
// as they stand plus its JSON punctuation and escapes (a few over are
// cheaper than a regrowth), and each header and annotation line.
func (st *Store) drainSize() int {
	size := 0
	for _, d := range st.dirty {
		s, from := st.drained(d)
		if s == nil {
			continue
		}
		size += 512 + len(s.title)
		for i := from; i < len(s.nodes); i++ {
			n := s.nodes[i]
			size += 96 + len(n.ID) + len(n.ParentID) + len(n.Branch) + len(n.Kind) + len(n.Timestamp) +
				len(n.Message) + len(n.Summary) + len(n.Source)
			if n.Entry != nil {
				size += 256
			}
		}
		size += 160 * len(s.annotations)
	}
	return size + size/16
}
