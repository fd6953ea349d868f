package formats

import (
	"bytes"
	"slices"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// A Claude Code transcript is one session's, but its lines may name more
// than one sessionId: a resumed or continued session's file holds the
// lines it went on from, and files joined by hand hold two sessions. The
// lines of each id are a part; a part whose record names a parent in
// another part (a parentUuid, or the logicalParentUuid of a compaction)
// goes on from it, as does one repeating a record of the other (a copied
// line), and the two are one conversation, under the id the file names
// first. Parts that share no message are separate conversations, each
// under its own id: imported as one, two conversations would be one
// session with two roots, one's title and the other's cursor.

// claudeCodeTitles are what may title a session (see titles): the main
// line's first prompt, the first sub-agent task, a sidechain's first
// prompt.
type claudeCodeTitles struct {
	first, task, side titleCandidate
}

// join takes from o each candidate that comes before t's.
func (t *claudeCodeTitles) join(o claudeCodeTitles) {
	for _, p := range [...][2]*titleCandidate{{&t.first, &o.first}, {&t.task, &o.task}, {&t.side, &o.side}} {
		if p[1].text != "" && p[0].earlier(p[1].time) {
			*p[0] = *p[1]
		}
	}
}

// claudeCodeParts are the sessionIds a transcript's lines name.
type claudeCodeParts struct {
	ids        []string         // each id, in the order the lines name them (ids[0] is the reader's sessionID)
	idLines    []int            // the line that names each id first
	of         []int32          // the part of each record (parallel to recs); nil while the lines name one id
	cur        int              // the part of the line read: the last id named (a line naming none stays with the lines before it)
	curRaw     jsonx.RawMessage // the last id named, as written
	index      map[string]int   // each id's part, once a line names another than the first
	parentPart int              // the part of the line the reader's parent (forkedFrom) came from
	projects   []string         // the first cwd of each part's lines: a session split off is in its own folder
}

// session notes the sessionId of the line l (n) read: the first one named
// is the transcript's; a line naming another (a usable session id) starts
// or goes on with that id's part.
func (r *claudeCodeReader) session(l *claudeCodeLine, n int) {
	if r.sessionID == "" {
		if l.SessionID != "" {
			r.sessionID, r.curRaw = l.SessionID, bytes.Clone(l.sessionRaw)
			r.ids, r.idLines = append(r.ids[:0], l.SessionID), append(r.idLines[:0], n)
		}
		return
	}
	if l.sessionRaw == nil || bytes.Equal(l.sessionRaw, r.curRaw) {
		return // the common case: the id of the line before, as written
	}
	id, _ := lineString(l.sessionRaw)
	if r.index == nil {
		r.index = map[string]int{r.ids[0]: 0}
	}
	if k, ok := r.index[id]; ok {
		r.cur, r.curRaw = k, bytes.Clone(l.sessionRaw)
		return
	}
	if id == "" || !r.model.SessionID(id) {
		return // no usable id: the line stays with the lines before it
	}
	r.curRaw = bytes.Clone(l.sessionRaw)
	if r.of == nil {
		r.of = make([]int32, len(r.recs), cap(r.recs))
	}
	r.cur, r.index[id] = len(r.ids), len(r.ids)
	r.ids, r.idLines = append(r.ids, id), append(r.idLines, n)
	r.titled, r.projects = append(r.titled, claudeCodeTitles{}), append(r.projects, "")
}

// cwd notes the working folder of the line l as its part's, when that
// part has none yet.
func (r *claudeCodeReader) cwd(l *claudeCodeLine) {
	if r.projects[r.cur] == "" && l.cwdRaw != nil {
		r.projects[r.cur], _ = lineString(l.cwdRaw)
	}
}

// projectOf is the project of a conversation of the parts parts: the
// file's first cwd when they are all its parts, else the first cwd of
// theirs.
func (r *claudeCodeReader) projectOf(parts []int) string {
	if len(parts) == len(r.ids) {
		return r.project
	}
	for _, p := range parts {
		if r.projects[p] != "" {
			return r.projects[p]
		}
	}
	return ""
}

// add adds the record rec of the line read.
func (r *claudeCodeReader) add(rec Record) {
	r.recs = appendRecord(r.recs, rec)
	if r.of != nil {
		r.of = append(r.of, int32(r.cur))
	}
}

// groups returns the parts joined into conversations: each group's parts
// in order, the groups in the order of their first part (the first holds
// part 0). Parts join when a record of one names a parent in the other
// or has the uuid of one of its records; a part with no record joins the
// first that has one. groupOf is each
// part's group.
func (r *claudeCodeReader) groups() (groups [][]int, groupOf []int) {
	if len(r.ids) == 0 {
		r.ids = []string{r.sessionID}
	}
	if len(r.ids) == 1 {
		return [][]int{{0}}, []int{0}
	}
	up := make([]int, len(r.ids)) // union-find: each part's link towards its group's first part
	for i := range up {
		up[i] = i
	}
	find := func(p int) int {
		for up[p] != p {
			up[p] = up[up[p]]
			p = up[p]
		}
		return p
	}
	join := func(p, q int) {
		a, b := find(p), find(q)
		up[max(a, b)] = min(a, b)
	}
	part := make(map[string]int, len(r.recs))
	held := make([]bool, len(r.ids)) // the parts whose lines gave a record
	for i := range r.recs {
		held[r.of[i]] = true
		if p, ok := part[r.recs[i].ID]; ok {
			join(p, int(r.of[i])) // one message in both: a copied line
		} else {
			part[r.recs[i].ID] = int(r.of[i])
		}
	}
	for i := range r.recs {
		if p, ok := part[r.recs[i].ParentID]; ok && r.recs[i].ParentID != "" {
			join(p, int(r.of[i]))
		}
	}
	// A part whose lines carry no message (a queue-operation line naming
	// another id) is no conversation: it goes with the first part that
	// has one, so its id is the session's when the file names it first.
	first := max(0, slices.Index(held, true))
	for p := range held {
		if !held[p] {
			join(p, first)
		}
	}
	groupOf = make([]int, len(r.ids))
	for p := range r.ids {
		if root := find(p); root < p {
			groupOf[p] = groupOf[root] // a root is the first part of its group: seen before
			groups[groupOf[p]] = append(groups[groupOf[p]], p)
			continue
		}
		groupOf[p] = len(groups)
		groups = append(groups, []int{p})
	}
	return groups, groupOf
}
