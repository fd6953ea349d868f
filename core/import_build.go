package core

import (
	"errors"

	"github.com/sessiontree/sessiontree/core/internal/formats"
	"github.com/sessiontree/sessiontree/core/internal/importplan"
	"github.com/sessiontree/sessiontree/core/internal/names"
)

// importTree is a conversation's records planned as a tree
// (importplan.Tree), while an import builds its session.
type importTree struct {
	importplan.Tree
}

// validateImported is importplan's Validate: validateMessageOf, its error
// as a plain error.
func validateImported(raw RawMessage, what string, written bool) (RawMessage, string, error) {
	msg, role, err := validateMessageOf(raw, what, written)
	if err != nil {
		return nil, "", errors.New(err.Message)
	}
	return msg, role, nil
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
	t := &importTree{importplan.Tree{ID: id, Warnings: warns}}
	if t.Fallback = importplan.UnixTime(c.Created); t.Fallback == "" && (len(c.Records) > 0 || len(c.Labels) > 0) {
		t.Fallback = st.timestamp()
	}
	if len(c.Records) == 0 {
		if c.Unusable > 0 {
			return nil, t.Warnings, invalidf("%s: none of its %d records could be used; skipped", formats.ConversationName("conversation", c.Title, t.ID), c.Unusable)
		}
		s := newSession(t.ID, c.Title, importplan.UnixTime(c.Created))
		s.updatedAt = importplan.UnixTime(c.Updated)
		return s, t.Warnings, nil
	}
	order, cursor, ok := t.Plan(&c, validateImported)
	if !ok {
		return nil, t.Warnings, invalidf("%s: none of its %d records could be used; skipped", formats.ConversationName("conversation", c.Title, t.ID), len(c.Records))
	}
	s := t.session(&c, order, cursor)
	t.annotate(s, &c)
	return s, t.Warnings, nil
}

// session adds the records as nodes of a new session, in order, each on
// the branch its importplan.Branching gives.
func (t *importTree) session(c *formats.Conversation, order []int32, cursor int32) *Session {
	var keep func(string) bool
	if c.KeepBranches {
		keep = names.ValidBranch
	}
	how := t.Branches(order, cursor, keep)
	s := newSession(t.ID, c.Title, importplan.UnixTime(c.Created))
	s.updatedAt = importplan.UnixTime(c.Updated)
	s.branches, s.byName = nil, make(map[string]*branchInfo)
	s.reserve(len(order))
	next := map[string]int{} // see autoBranchNameFrom: this build only adds branches
	for _, i := range order {
		rec := &t.Records[i]
		n := &Node{ID: rec.ID, Kind: KindMessage, Source: rec.Source}
		switch {
		case rec.Kind == KindSummary:
			n.Kind, n.Summary = KindSummary, rec.Summary
		case rec.Kind != "" && rec.Kind != KindMessage:
			n.Kind, n.Entry = rec.Kind, rec.Entry
		default:
			n.Message, n.role = t.Msgs[i], t.Roles[i]
		}
		pi := int32(-1)
		if p := t.Par[i]; p >= 0 {
			pi = s.index[t.Records[p].ID]
			n.ParentID = t.Records[p].ID
		}
		switch how[i] {
		case importplan.BranchKept:
			n.Branch = rec.Branch
		case importplan.BranchMain:
			n.Branch = DefaultBranch
		case importplan.BranchRoot:
			n.Branch = s.branchFor(rec.Branch, DefaultBranch, next)
		case importplan.BranchParent:
			n.Branch = s.nodes[pi].Branch
		default:
			n.Branch = s.branchFor(rec.Branch, s.nodes[pi].Branch, next)
		}
		n.Timestamp = rec.Stamp
		if n.Timestamp == "" {
			n.Timestamp = importplan.UnixTime(rec.Time)
		}
		if n.Timestamp == "" {
			n.Timestamp = t.Fallback
		}
		t.placeEntry(s, n, pi, rec.Source)
		s.push(n, pi)
	}
	s.cursor = s.index[t.Records[cursor].ID]
	s.active = s.nodes[s.cursor].Branch
	if c.KeepBranches && names.ValidBranch(c.Active) {
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
		t.Warn("%s %q: %s; it is kept as a custom entry (customType %q) that does not reach the model", n.Kind, n.ID, err.Message, "import:"+n.Kind)
		n.Kind, n.Entry = KindCustom, &Entry{CustomType: "import:" + n.Kind, Data: source}
	}
}

// annotate applies the conversation's labels and annotations.
func (t *importTree) annotate(s *Session, c *formats.Conversation) {
	for _, l := range c.Labels {
		if _, ok := s.index[l.Target]; !ok {
			t.Warn("%s labels %q, which is not in the conversation; the label %q is dropped", l.What, l.Target, l.Label)
			continue
		}
		ts := l.Stamp
		if ts == "" {
			ts = t.Fallback
		}
		s.annotate(&Annotation{Kind: AnnotationLabel, NodeID: l.Target, Label: l.Label, Timestamp: ts})
	}
	for k, raw := range c.Annotations {
		a, err := s.parseAnnotation(raw, k)
		if err != nil {
			t.Warn("annotation %d is dropped: %s", k, err.Message)
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
