package store

import (
	"slices"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/sessiontree/sessiontree/core/internal/tree"
)

// Change tracking for persistence. The JS shim writes to IndexedDB only what
// a call changed: the session's metadata record and the nodes appended since
// the last drain, or every node after a replace (snapshot.load).

type dirtyMark struct {
	ID    string
	reset bool   // every stored node of the session is to be replaced
	from  int    // first node index not yet handed out (when !reset)
	afrom int    // first annotation index not yet handed out (when !reset)
	op    string // the operation that last changed the session
	// erased: the session was erased for good (trash.empty, delete with
	// permanent): its block is the header alone, saying so.
	erased bool
}

// TrackChanges turns change tracking on or off. While it is on, every
// successful mutating call records what it changed until DrainChanges.
func (st *Store) TrackChanges(on bool) {
	st.track = on
	if !on {
		st.setDirty(nil)
	}
}

// dirtyIndex returns the index of session id's mark in st.dirty, or -1.
// It looks it up in st.dirtyAt, rebuilt from st.dirty when nil: a scan of
// st.dirty per mark made an import of n new sessions O(n²) (20,000
// conversations of a dataset JSONL: 1.6 s in wasm, growing with the square).
func (st *Store) dirtyIndex(id string) int {
	if st.dirtyAt == nil {
		st.dirtyAt = make(map[string]int, len(st.dirty))
		for i := range st.dirty {
			st.dirtyAt[st.dirty[i].ID] = i
		}
	}
	if i, ok := st.dirtyAt[id]; ok {
		return i
	}
	return -1
}

// addDirty appends mark d (of a session that has none) to st.dirty.
func (st *Store) addDirty(d dirtyMark) {
	if st.dirtyAt != nil {
		st.dirtyAt[d.ID] = len(st.dirty)
	}
	st.dirty = append(st.dirty, d)
}

// setDirty replaces st.dirty by marks (any change but addDirty's goes
// through it: the index is rebuilt when next needed).
func (st *Store) setDirty(marks []dirtyMark) {
	st.dirty, st.dirtyAt = marks, nil
}

// markDirty records that operation op changed session s. from is the
// number of nodes it had before the call; reset says every node was
// replaced.
func (st *Store) markDirty(s *tree.Session, from int, reset bool, op string) {
	if !st.track {
		return
	}
	if i := st.dirtyIndex(s.ID()); i >= 0 {
		if st.dirty[i].erased {
			// Erased, then made again in the same drain: all of it is
			// new (the writer replaces every record).
			st.dirty[i] = dirtyMark{ID: s.ID(), reset: true, op: op}
			return
		}
		if reset {
			st.dirty[i].reset = true
		}
		if from < st.dirty[i].from {
			st.dirty[i].from = from
		}
		st.dirty[i].op = op
		return
	}
	st.addDirty(dirtyMark{ID: s.ID(), reset: reset, from: from, afrom: len(s.Annotations), op: op})
}

// markErased records that operation op erased session id for good: what
// was marked for it before is dropped, and its drain block says erased.
func (st *Store) markErased(id, op string) {
	if !st.track {
		return
	}
	st.setDirty(slices.DeleteFunc(st.dirty, func(d dirtyMark) bool { return d.ID == id }))
	st.addDirty(dirtyMark{ID: id, erased: true, op: op})
}

// appendErased appends the block of an erased session: its header alone,
//
//	{"sessionId":…,"operation":…,"erased":true,"reset":false,"from":0,"count":0,"annotationFrom":0,"annotationCount":0,"meta":null}
func (d *dirtyMark) appendErased(b []byte) []byte {
	b = append(b, `{"sessionId":`...)
	b = jsonx.AppendString(b, d.ID)
	b = append(b, `,"operation":`...)
	b = jsonx.AppendString(b, d.op)
	return append(b, `,"erased":true,"reset":false,"from":0,"count":0,"annotationFrom":0,"annotationCount":0,"meta":null}`+"\n"...)
}

// markAnnotated records that session s gained annotations; from is the
// number it had before the call. Call it after markDirty (or touch).
func (st *Store) markAnnotated(s *tree.Session, from int) {
	if !st.track {
		return
	}
	if i := st.dirtyIndex(s.ID()); i >= 0 && from < st.dirty[i].afrom {
		st.dirty[i].afrom = from
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
// "updatedAt","nodeCount","annotationCount","deletedAt"?,"tool"?,"project"?,"source"?}
// (source: {"sessionId","nodeId","via"}, see Session.AppendSourceMeta).
// With reset the session's stored nodes and annotations are replaced by these (N and A are 0).
// Lines end with "\n"; node JSON never contains a raw newline. With
// withNodes false the node lines are left out (count stays the number of
// nodes that changed). An empty string means nothing changed. The bytes
// are the caller's. DrainChangesUpTo gives the same in pieces.
func (st *Store) DrainChanges(withNodes bool) []byte {
	var b []byte
	if withNodes {
		// Sized once: growing a 255 MB drain (a 1,000,000-node load) by
		// doubling left as much again in dead copies, and the wasm memory
		// never shrinks.
		b = make([]byte, 0, st.DrainSize())
	}
	for i := range st.dirty {
		if st.dirty[i].erased {
			b = st.dirty[i].appendErased(b)
		} else if s, from := st.drained(st.dirty[i]); s != nil {
			b = st.dirty[i].appendBlock(b, s, from, len(s.Nodes), withNodes)
		}
	}
	st.setDirty(st.dirty[:0])
	return b
}

// DrainGroupNodes is the node count at whose multiples DrainChangesUpTo
// may cut a session's nodes: the shim's chunk record holds that many
// (CHUNK_SIZE in js/store/records.js), so every piece but a session's
// last writes whole chunk records.
const DrainGroupNodes = 1000

// DrainChangesUpTo is DrainChanges(true) in pieces of about limit bytes
// (at least one session's block or one group of nodes, so a piece can
// pass limit by one session's header and DrainGroupNodes nodes): it
// returns the next piece and forgets what that piece holds; more is true
// while changes are left, and the piece after the last is empty. A
// session's nodes may be cut between pieces at an append-order index that
// is a multiple of DrainGroupNodes: every block of a cut session but its
// last has "more":true in its header after annotationCount, holds no
// annotations, and its meta is the session's as it will be once all of it
// is drained (count is that block's nodes only); the blocks after it have
// reset false and continue where it ended, and the last one carries the
// annotations (from A, which for a reset is 0). A caller that writes each
// piece before it asks for the next holds one piece at a time: a
// 200 MB import drained whole was 300 MB beside its sessions, and the
// wasm memory never shrinks.
//
// The piece is the store's own buffer, reused by the next call: copy it
// out (the wasm binding copies it to a Uint8Array) before calling again.
// The buffer is let go once a drain is done. limit ≤ 0 drains everything
// in one piece.
func (st *Store) DrainChangesUpTo(limit int) (piece []byte, more bool) {
	if limit <= 0 {
		return st.DrainChanges(true), false
	}
	if cap(st.drainBuf) == 0 {
		st.drainBuf = make([]byte, 0, min(st.DrainSize(), limit+limit/4))
	}
	b := st.drainBuf[:0]
	done := 0 // marks drained whole
	for done < len(st.dirty) && (len(b) < limit || len(b) == 0) {
		d := &st.dirty[done]
		s, from := st.drained(*d)
		if d.erased {
			b = d.appendErased(b)
		}
		if s == nil {
			done++
			continue
		}
		end := len(s.Nodes)
		size := len(b) + 512 + len(s.Title) + len(s.Tool) + len(s.Project)
		for i := from; i < len(s.Nodes); i++ {
			if i > from && i%DrainGroupNodes == 0 && size >= limit {
				end = i
				break
			}
			size += nodeSize(s.Nodes[i])
		}
		b = d.appendBlock(b, s, from, end, true)
		if end < len(s.Nodes) {
			// The rest continues this block: no longer a reset, with
			// every annotation (those of a reset from 0) still to come.
			if d.reset {
				d.afrom = 0
			}
			d.reset, d.from = false, end
			break
		}
		done++
	}
	st.setDirty(append(st.dirty[:0], st.dirty[done:]...))
	more = len(st.dirty) > 0
	st.drainBuf = b
	if !more && cap(b) > 64<<10 {
		st.drainBuf = nil // a large drain is over: let its buffer go
	}
	return b, more
}

// appendBlock appends d's block for session s to b: its header, the node
// lines of nodes from to end-1 (withNodes), and, when end is the
// session's end, the annotation lines; a block that stops short says
// "more":true (see DrainChangesUpTo).
func (d *dirtyMark) appendBlock(b []byte, s *tree.Session, from, end int, withNodes bool) []byte {
	b = append(b, `{"sessionId":`...)
	b = jsonx.AppendString(b, s.ID())
	b = append(b, `,"operation":`...)
	b = jsonx.AppendString(b, d.op)
	b = append(b, `,"reset":`...)
	b = jsonx.AppendBool(b, d.reset)
	b = append(b, `,"from":`...)
	b = jsonx.AppendInt(b, from)
	b = append(b, `,"count":`...)
	b = jsonx.AppendInt(b, end-from)
	afrom := d.afrom
	if d.reset {
		afrom = 0
	}
	afrom = min(afrom, len(s.Annotations))
	acount := len(s.Annotations) - afrom
	if end < len(s.Nodes) {
		acount = 0
	}
	b = append(b, `,"annotationFrom":`...)
	b = jsonx.AppendInt(b, afrom)
	b = append(b, `,"annotationCount":`...)
	b = jsonx.AppendInt(b, acount)
	if end < len(s.Nodes) {
		b = append(b, `,"more":true`...)
	}
	b = append(b, `,"meta":`...)
	b = appendMeta(s, b)
	b = append(b, "}\n"...)
	if !withNodes {
		return b
	}
	for i := from; i < end; i++ {
		b = s.Nodes[i].AppendJSON(b)
		if i < end-1 {
			b = append(b, ',')
		}
		b = append(b, '\n')
	}
	for _, a := range s.Annotations[afrom : afrom+acount] {
		b = a.AppendJSON(b)
		b = append(b, '\n')
	}
	return b
}

func appendMeta(s *tree.Session, b []byte) []byte {
	b = append(b, `{"sessionId":`...)
	b = jsonx.AppendString(b, s.ID())
	b = append(b, `,"title":`...)
	b = jsonx.AppendString(b, s.Title)
	b = append(b, `,"cursor":`...)
	b = jsonx.AppendNullableString(b, s.NodeID(s.Cursor))
	b = append(b, `,"activeBranch":`...)
	b = jsonx.AppendString(b, s.Active)
	b = append(b, `,"createdAt":`...)
	b = jsonx.AppendString(b, s.CreatedAt)
	b = append(b, `,"updatedAt":`...)
	b = jsonx.AppendString(b, s.UpdatedAt)
	b = append(b, `,"nodeCount":`...)
	b = jsonx.AppendInt(b, len(s.Nodes))
	b = append(b, `,"annotationCount":`...)
	b = jsonx.AppendInt(b, len(s.Annotations))
	b = s.AppendOrigin(b)
	if s.DeletedAt != "" {
		b = append(b, `,"deletedAt":`...)
		b = jsonx.AppendString(b, s.DeletedAt)
	}
	b = s.AppendSourceMeta(b)
	return append(b, '}')
}

// drained returns the session of a dirty mark (nil when it is gone) and
// the first node its drain carries: 0 for a reset, never past the end.
func (st *Store) drained(d dirtyMark) (*tree.Session, int) {
	s := st.ByID[d.ID]
	if s == nil {
		s = st.Trash[d.ID]
	}
	if s == nil || d.erased {
		return nil, 0
	}
	from := d.from
	if d.reset {
		from = 0
	}
	return s, min(from, len(s.Nodes))
}

// DrainSize estimates the bytes of DrainChanges(true): each node's fields
// as they stand plus its JSON punctuation and escapes (a few over are
// cheaper than a regrowth), and each header and annotation line.
func (st *Store) DrainSize() int {
	size := 0
	for _, d := range st.dirty {
		s, from := st.drained(d)
		if s == nil {
			continue
		}
		size += 512 + len(s.Title) + len(s.Tool) + len(s.Project)
		for i := from; i < len(s.Nodes); i++ {
			size += nodeSize(s.Nodes[i])
		}
		size += 160 * len(s.Annotations)
	}
	return size + size/16
}

// nodeSize estimates the bytes of n's node line (see DrainSize).
func nodeSize(n *tree.Node) int {
	size := 96 + len(n.ID) + len(n.ParentID) + len(n.Branch) + len(n.Kind) + len(n.Timestamp) +
		len(n.Message) + len(n.Summary) + len(n.Source)
	if n.Entry != nil {
		size += 256
	}
	return size
}
