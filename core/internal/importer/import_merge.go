package importer

import (
	"bytes"
	"strings"

	"github.com/sessiontree/sessiontree/core/internal/formats"
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/sessiontree/sessiontree/core/internal/store"
	"github.com/sessiontree/sessiontree/core/internal/tree"
)

// prepare orders the commit of the sessions read: each weighs the bytes of
// its messages and sources, so progress moves with the work. A session
// whose id a conversation earlier in the data already took is skipped, and
// so is one whose session is in the trash (as create and snapshot.load
// refuse it: importing it again must not make a second copy beside it);
// when nothing was read the job fails naming the reasons:
// SESSION_ALREADY_EXISTS when every conversation's session is in the
// trash, else INVALID_ARGUMENT. First, a warning that names an id of the
// data that was refused (Job.derived) names the id its conversation was
// imported under.
func (j *Job) prepare() {
	res := j.res
	j.prepared = true
	for i := range res.Warnings {
		if to, ok := j.derived[res.Warnings[i].SessionID]; ok {
			res.Warnings[i].SessionID = to
		}
	}
	seen := map[string]bool{}
	trashed := 0
	for _, s := range j.made {
		if seen[s.ID()] {
			j.skip(s.ID(), s.Title, jsonx.Sprintf("conversation %q appears again in the data; the first is kept and this one skipped", s.ID()))
			continue
		}
		seen[s.ID()] = true
		if j.st.Trash[s.ID()] != nil {
			j.skip(s.ID(), s.Title, jsonx.Sprintf("session %q is in the trash; restore it (or empty the trash) to import it again", s.ID()))
			trashed++
			continue
		}
		// An undated conversation stays undated (createdAt ""): the
		// import's time would show it as brand new.
		if s.UpdatedAt == "" {
			s.UpdatedAt = s.CreatedAt
		}
		w := 1
		for _, n := range s.Nodes {
			w += len(n.Message) + len(n.Source)
		}
		j.kept = append(j.kept, s)
		j.weights = append(j.weights, w)
		j.total += w
	}
	if len(j.kept) == 0 {
		msgs := make([]string, 0, len(res.Warnings))
		for _, w := range res.Warnings {
			msgs = append(msgs, w.Message)
		}
		if len(msgs) == 0 {
			msgs = append(msgs, "the data holds no conversation")
		}
		j.err = tree.Invalidf("nothing imported: %s", joinReasons(msgs))
		if trashed > 0 && trashed == len(seen) {
			j.err = tree.Errorf(tree.SessionAlreadyExists, "nothing imported: %s", joinReasons(msgs))
		}
		return
	}
	j.perWarn = map[string]int{}
	for _, w := range res.Warnings {
		j.perWarn[w.SessionID]++
	}
}

// commit adds session s to the store, or, when the store has a session of
// its id (an earlier import of the same conversation, or one created while
// this import ran), adds to that session the nodes it lacks.
func (j *Job) commit(s *tree.Session) {
	st := j.st
	project := j.projects[s]
	if to, ok := j.moved[s.ID()]; ok && j.aside[s] {
		j.rename(s, to) // its parent's conversation went there
	} else if j.aside[s] {
		j.rename(s, j.parentID(s)) // a parent moved to "<id>-N" by an earlier call
	}
	into, exists := st.ByID[s.ID()]
	joins := exists && j.joinsSideChain(into, s)
	if exists && !joins && len(into.Nodes) > 0 && len(s.Nodes) > 0 && !sharesNode(into, s) || st.Trash[s.ID()] != nil {
		// The id is taken by another conversation (no node in common: the
		// same Pi session id, or the demo's, exported from another
		// browser): the import goes to the first "<id>-N" that holds this
		// one already (a second import adds nothing), else to a free one.
		// A session put in the trash while this import ran gets the same.
		from, why := s.ID(), "already holds another conversation (no node in common with this one)"
		if st.Trash[from] != nil {
			why = "was put in the trash while it was imported"
		}
		into, exists = j.importTarget(s)
		joins = exists && j.joinsSideChain(into, s)
		if j.moved == nil {
			j.moved = map[string]string{}
		}
		j.moved[from] = s.ID()
		j.res.Warnings = append(j.res.Warnings, formats.Warning{SessionID: s.ID(), Message: jsonx.Sprintf(
			"session %q %s; it is imported as session %q", from, why, s.ID())})
		j.perWarn[s.ID()]++
	}
	added := len(s.Nodes)
	// A sessiontree snapshot is no tool's file: its cursor is sessiontree's
	// own, and it imports as itself (no import record).
	fromTool := j.res.Format != "snapshot"
	if exists {
		if j.aside[s] {
			s.Cursor = -1 // a sub-agent's leaf is never the session's cursor
		} else if joins && !retitled(into) {
			into.Title = s.Title // the main line's title, not a sub-agent's task (a rename stays)
		}
		added = mergeImported(st, into, s, fromTool && !j.aside[s])
		s = into
	} else {
		if fromTool {
			recordImport(s, s.Cursor)
		}
		st.PutNew(s, "import")
	}
	s.SetOrigin(j.res.Format, project)
	report := NewSessionReport(s, exists, added)
	// The project the session keeps (the first import's), not this file's.
	report.Warnings, report.Project = j.perWarn[s.ID()], s.Project
	j.res.Sessions = append(j.res.Sessions, report)
}

// rename gives the imported session s the id to, and the warnings that
// name its id (what the data said of this conversation, and of nothing
// else in the job: an id names one session of it) name to: the old id is
// another conversation's, or none the report holds.
func (j *Job) rename(s *tree.Session, to string) {
	from := s.ID()
	s.SetID(to)
	if from == to {
		return
	}
	for i := range j.res.Warnings {
		if j.res.Warnings[i].SessionID == from {
			j.res.Warnings[i].SessionID = to
		}
	}
	j.perWarn[to] += j.perWarn[from]
	delete(j.perWarn, from)
}

// joinsSideChain reports whether the Claude Code conversation im goes into
// the session s of its id (or an "<id>-N" of it) although they have no
// node in common: one of them is a sub-agent's transcript (the same Claude
// Code session, whose sub-agents write files of their own under its id)
// and s came from Claude Code (fromClaudeCode). s is one when every node
// of it is on a "sidechain" branch; im, when the job read it as such
// (Conversation.Aside). A stub (no nodes) never joins: importPaged has it
// loaded first.
func (j *Job) joinsSideChain(s, im *tree.Session) bool {
	if j.res.Format != "claude-code" || len(s.Nodes) == 0 || !fromClaudeCode(s) {
		return false // a session made here, or another tool's, is no Claude Code parent
	}
	if j.aside[im] {
		return true
	}
	for _, n := range s.Nodes {
		if !strings.HasPrefix(n.Branch, "sidechain") {
			return false
		}
	}
	return true
}

// NewSessionReport is the import report's entry for s as it stands after an
// import that added `added` of its nodes (existing: it was there before),
// with no warnings or project.
func NewSessionReport(s *tree.Session, existing bool, added int) SessionReport {
	roots := 0
	for _, p := range s.Parent {
		if p < 0 {
			roots++
		}
	}
	return SessionReport{
		SessionID: s.ID(), Title: s.Title, Existing: existing, Added: added, NodeCount: len(s.Nodes),
		Cursor: tree.Nullable(s.NodeID(s.Cursor)), BranchCount: len(s.Branches), RootCount: roots,
	}
}

// mergeImported adds to s the nodes of the imported session im whose ids
// s does not have, parents first, and returns how many. A node continues
// its parent's branch when the parent is that branch's tip (a root of an
// empty session goes on "main"), else it opens a branch named after the
// parent's (a root: after "main"). The cursor follows the file's
// (followImport; record: the file's cursor is recorded, as for every
// tool's file). The labels and other annotations the data puts on the
// added nodes come along, in the data's order. Nodes already in s, and
// their annotations, are left as they are, even where the data now
// differs: what was imported is append-only, and a label the user set
// stays.
func mergeImported(st *store.Store, s, im *tree.Session, record bool) (added int) {
	st.Record(s, "import", func() bool {
		from, afrom, cursor := len(s.Nodes), len(s.Annotations), s.Cursor
		addNodes(s, im)
		added = len(s.Nodes) - from
		for _, a := range im.Annotations {
			if i, ok := s.Index[a.NodeID]; ok && a.NodeID != "" && int(i) >= from && a.Kind != tree.AnnotationImport {
				c := *a
				s.Annotate(&c)
			}
		}
		followImport(st, s, im, from, record)
		if added == 0 && afrom == len(s.Annotations) && cursor == s.Cursor {
			return false // nothing new: the session is left exactly as it was
		}
		if im.UpdatedAt > s.UpdatedAt {
			s.UpdatedAt = im.UpdatedAt
		}
		return true
	})
	return added
}

// addNodes adds to s the nodes of im whose ids s does not have, parents
// first, on branches as mergeImported says.
func addNodes(s, im *tree.Session) {
	for _, n := range im.Nodes {
		if _, ok := s.Index[n.ID]; ok {
			continue
		}
		c := *n
		// A copy: an imported source may share the export's bytes
		// (formats.Record.Source), which a few nodes added to an existing
		// session must not keep alive.
		c.Source = bytes.Clone(n.Source)
		parent := int32(-1)
		base := formats.DefaultBranch
		if strings.HasPrefix(n.Branch, "sidechain") {
			base = "sidechain" // a sub-agent's root (Conversation.Aside) stays a sidechain
		}
		if p, ok := s.Index[n.ParentID]; ok && n.ParentID != "" {
			parent = p
			base = s.Nodes[p].Branch
		} else {
			c.ParentID = ""
		}
		if b := s.ByName[base]; b != nil && (parent >= 0 && b.Tip == parent || b.Count == 0 && b.Base == parent) {
			c.Branch = base
		} else if b == nil && parent < 0 && base != formats.DefaultBranch {
			c.Branch = base // a sidechain's root, its name free
		} else {
			c.Branch = s.AutoBranchName(base)
		}
		s.Push(&c, parent)
	}
}

// followImport moves s's cursor to the file's cursor (im's; from is the
// node count of s before this import) when the file's cursor moved since
// the last import of it and the user did not move s's since: s's cursor
// is still where the last import found the file's (its import record,
// see AnnotationImport), or on the path to the new one (an ancestor: the
// file only went on from it), or s has none. So a refresh after the tool
// compacted or rolled back its history (the new cursor on another branch)
// leaves the context what the model now sees, and a cursor the user
// jumped elsewhere stays. Without an import record (a session imported
// before they were kept) the file's cursor moved when it is a node just
// added, and only the path rule applies. With record, the file's cursor is
// then recorded, unless the record already says it.
func followImport(st *store.Store, s, im *tree.Session, from int, record bool) {
	cur, ok := s.Index[im.NodeID(im.Cursor)]
	if !ok {
		return
	}
	last, known := s.Index[s.LastImport]
	known = known && s.LastImport != ""
	moved := known && cur != last || !known && int(cur) >= from
	if moved && cur != s.Cursor && (s.Cursor < 0 || known && s.Cursor == last || s.IsAncestor(s.Cursor, cur)) {
		s.Cursor = cur
		s.SetActive(s.Nodes[cur].Branch)
	}
	if record && (!known || cur != last) {
		recordImport(s, cur)
	}
}

// recordImport appends an import record (AnnotationImport) naming node
// cur, the file's cursor at an import, stamped with that node's time (not
// the clock's: an import of the same data makes the same session whenever
// it runs); nothing for no node or when the newest record names it
// already (a file sessiontree exported carries the records of the session
// it came from).
func recordImport(s *tree.Session, cur int32) {
	if cur >= 0 && s.Nodes[cur].ID != s.LastImport {
		n := s.Nodes[cur]
		s.Annotate(&tree.Annotation{Kind: tree.AnnotationImport, NodeID: n.ID, Timestamp: n.Timestamp})
	}
}

// retitled reports whether s has a title record (a rename): its title is
// then the caller's, which an import does not replace.
func retitled(s *tree.Session) bool {
	for _, a := range s.Annotations {
		if a.Kind == tree.AnnotationTitle {
			return true
		}
	}
	return false
}

// fromClaudeCode reports whether s came from Claude Code: imported from it
// here (its tool), or brought by a snapshot of such a session (a snapshot
// carries no tool, but keeps its import record; a session made here has
// none).
func fromClaudeCode(s *tree.Session) bool {
	return s.Tool == "claude-code" || s.Tool == "" && s.LastImport != ""
}

// takes reports whether the session s, of im's id or an "<id>-N" of it,
// is where the imported session im goes: it holds a node of im (an
// earlier import of the same conversation), or one of them is a Claude
// Code sub-agent's transcript of the other (joinsSideChain), the parent
// moved there (by an earlier call: a folder is imported in batches).
func (j *Job) takes(s, im *tree.Session) bool {
	return sharesNode(s, im) || j.joinsSideChain(s, im)
}

// walkIDs calls visit with the session of each id an imported session of
// id base may go to after base, "<base>-N" for N from 2 (ids in the trash
// left out; nil when the id is free), and returns the first id visit
// stops at (true).
func walkIDs(st *store.Store, base string, visit func(*tree.Session) bool) string {
	for n := 2; ; n++ {
		id := base + "-" + string(jsonx.AppendInt(nil, n))
		if st.Trash[id] == nil && visit(st.ByID[id]) {
			return id
		}
	}
}

// laterIDs returns the first of base's "<base>-N" (walkIDs) that is free
// or that stop takes.
func laterIDs(st *store.Store, base string, stop func(*tree.Session) bool) string {
	return walkIDs(st, base, func(s *tree.Session) bool { return s == nil || stop(s) })
}

// parentID is the id of the session the Claude Code sub-agent's
// transcript im goes to: the first of its id and the "<id>-N" after it
// that came from Claude Code (joinsSideChain: its parent, moved there when
// the id held another conversation), else its own id (the usual rules
// then decide).
func (j *Job) parentID(im *tree.Session) string {
	base := im.ID()
	if s := j.st.ByID[base]; s != nil && j.st.Trash[base] == nil && j.joinsSideChain(s, im) {
		return base
	}
	if id := laterIDs(j.st, base, func(s *tree.Session) bool { return j.joinsSideChain(s, im) }); j.st.ByID[id] != nil {
		return id
	}
	return base
}

// sharesNode reports whether the imported session im has a node id that s
// has.
func sharesNode(s, im *tree.Session) bool {
	for _, n := range im.Nodes {
		if _, ok := s.Index[n.ID]; ok {
			return true
		}
	}
	return false
}

// importTarget renames im (and its warnings: rename), whose id another
// conversation holds, to the first "<id>-N" (N from 2, ids in the trash
// left out) that is free or takes im (takes), and returns that session
// when it exists.
func (j *Job) importTarget(im *tree.Session) (*tree.Session, bool) {
	j.rename(im, laterIDs(j.st, im.ID(), func(s *tree.Session) bool { return j.takes(s, im) }))
	into, ok := j.st.ByID[im.ID()]
	return into, ok
}

// shownReasons is how many reasons a "nothing imported" message gives.
const shownReasons = 5

// joinReasons joins the reasons nothing was imported: the first
// shownReasons, then how many more. A file read in a format it is not in
// has one per line: a ChatGPT export forced to be read as Claude Code
// JSONL made a message of 48,000 characters.
func joinReasons(why []string) string {
	if len(why) <= shownReasons {
		return strings.Join(why, "; ")
	}
	return strings.Join(why[:shownReasons], "; ") + jsonx.Sprintf("; and %d more", len(why)-shownReasons)
}
