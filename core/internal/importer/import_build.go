package importer

import (
	"errors"

	"github.com/sessiontree/sessiontree/core/internal/formats"
	"github.com/sessiontree/sessiontree/core/internal/importplan"
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/sessiontree/sessiontree/core/internal/names"
	"github.com/sessiontree/sessiontree/core/internal/store"
	"github.com/sessiontree/sessiontree/core/internal/tree"
)

// importTree is a conversation's records planned as a tree
// (importplan.Tree), while an import builds its session.
type importTree struct {
	importplan.Tree
}

// validateImported is importplan's Validate: tree.ValidateMessageOf, its error
// as a plain error.
func validateImported(raw tree.RawMessage, what string, written bool) (tree.RawMessage, string, error) {
	msg, role, err := tree.ValidateMessageOf(raw, what, written)
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
// automatically named branch. Its times are the data's (see session): a
// conversation that gives none is undated.
// It returns the session's id too (see importNames), also when the
// conversation is skipped: its warnings name it.
func buildImported(st *store.Store, c formats.Conversation) (string, *tree.Session, []formats.Warning, *tree.Error) {
	c.Title = tree.TidyTitle(c.Title)
	id, warns := importNames(st, &c)
	t := &importTree{importplan.Tree{ID: id, Warnings: warns}}
	t.Fallback = importplan.UnixTime(c.Created)
	if len(c.Records) == 0 {
		if c.Unusable > 0 {
			return id, nil, t.Warnings, tree.Invalidf("%s: none of its %d records could be used; skipped", formats.ConversationName("conversation", c.Title, t.ID), c.Unusable)
		}
		s := tree.NewSession(t.ID, c.Title, importplan.UnixTime(c.Created))
		s.UpdatedAt = importplan.UnixTime(c.Updated)
		return id, s, t.Warnings, nil
	}
	order, cursor, ok := t.Plan(&c, validateImported)
	if !ok {
		return id, nil, t.Warnings, tree.Invalidf("%s: none of its %d records could be used; skipped", formats.ConversationName("conversation", c.Title, t.ID), len(c.Records))
	}
	s := t.session(&c, order, cursor, st.Timestamp)
	t.annotate(s, &c)
	return id, s, t.Warnings, nil
}

// session adds the records as nodes of a new session, in order, each on
// the branch its importplan.Branching gives. A node whose record gives no
// time takes t.Fallback, else the earliest time a record gives, else now()
// (a node has a time, SPEC.md); the session's creation and update times
// are the conversation's, else its records' earliest and newest, else ""
// (undated: not the import's time, which would pose it as brand new).
func (t *importTree) session(c *formats.Conversation, order []int32, cursor int32, now func() string) *tree.Session {
	var keep func(string) bool
	if c.KeepBranches {
		keep = names.ValidBranch
	}
	how := t.Branches(order, cursor, keep)
	s := tree.NewSession(t.ID, c.Title, importplan.UnixTime(c.Created))
	s.UpdatedAt = importplan.UnixTime(c.Updated)
	s.Branches, s.ByName = nil, make(map[string]*tree.Branch)
	s.Reserve(len(order))
	next := map[string]int{} // see Session.AutoBranchNameFrom: this build only adds branches
	var undated []*tree.Node // nodes whose record gives no time
	var first, last string   // the earliest and newest times the records give
	for _, i := range order {
		rec := &t.Records[i]
		n := &tree.Node{ID: rec.ID, Kind: formats.KindMessage, Source: rec.Source}
		switch {
		case rec.Kind == formats.KindSummary:
			n.Kind, n.Summary = formats.KindSummary, rec.Summary
		case rec.Kind != "" && rec.Kind != formats.KindMessage:
			n.Kind, n.Entry = rec.Kind, rec.Entry
		default:
			n.Message, n.MessageRole = t.Msgs[i], t.Roles[i]
		}
		pi := int32(-1)
		if p := t.Par[i]; p >= 0 {
			pi = s.Index[t.Records[p].ID]
			n.ParentID = t.Records[p].ID
		}
		switch how[i] {
		case importplan.BranchKept:
			n.Branch = rec.Branch
		case importplan.BranchMain:
			n.Branch = formats.DefaultBranch
			if c.Aside { // a sub-agent's own transcript: "sidechain"
				n.Branch = branchFor(s, rec.Branch, formats.DefaultBranch, next)
			}
		case importplan.BranchRoot:
			n.Branch = branchFor(s, rec.Branch, formats.DefaultBranch, next)
		case importplan.BranchParent:
			n.Branch = s.Nodes[pi].Branch
		default:
			n.Branch = branchFor(s, rec.Branch, s.Nodes[pi].Branch, next)
		}
		n.Timestamp = rec.Stamp
		if n.Timestamp == "" {
			n.Timestamp = importplan.UnixTime(rec.Time)
		}
		switch {
		case n.Timestamp == "":
			undated = append(undated, n)
		case first == "":
			first, last = n.Timestamp, n.Timestamp
		case n.Timestamp < first: // TimeLayout strings sort as their times
			first = n.Timestamp
		case n.Timestamp > last:
			last = n.Timestamp
		}
		t.placeEntry(s, n, pi, rec.Source)
		s.Push(n, pi)
	}
	t.dates(s, undated, first, last, now)
	s.Cursor = s.Index[t.Records[cursor].ID]
	s.Active = s.Nodes[s.Cursor].Branch
	if c.KeepBranches && names.ValidBranch(c.Active) {
		s.Active = c.Active
		if s.ByName[c.Active] == nil {
			s.AddBranch(c.Active, s.Cursor)
		}
	}
	return s
}

// dates gives the nodes in undated a time and the session its creation
// and update times when the conversation gives none (see session): first
// and last are the earliest and newest times its records give.
func (t *importTree) dates(s *tree.Session, undated []*tree.Node, first, last string, now func() string) {
	if t.Fallback == "" {
		t.Fallback = first
	}
	if t.Fallback == "" && len(undated) > 0 {
		t.Fallback = now()
	}
	for _, n := range undated {
		n.Timestamp = t.Fallback
	}
	if s.CreatedAt == "" {
		s.CreatedAt = first
	}
	if s.UpdatedAt == "" {
		s.UpdatedAt = last
	}
}

// placeEntry checks an entry node against its place: a compaction that
// keeps a node off its path cannot be replayed, so it stays in the tree as
// a custom entry that does not reach the model.
func (t *importTree) placeEntry(s *tree.Session, n *tree.Node, parent int32, source tree.RawMessage) {
	if n.Entry == nil {
		return
	}
	if err := s.CheckEntryPlaceOf(n.Kind, n.Entry, parent, n.ID, "entry"); err != nil {
		t.Warn("%s %q: %s; it is kept as a custom entry (customType %q) that does not reach the model", n.Kind, n.ID, err.Message, "import:"+n.Kind)
		n.Kind, n.Entry = formats.KindCustom, &formats.Entry{CustomType: "import:" + n.Kind, Data: source}
	}
}

// annotate applies the conversation's labels and annotations.
func (t *importTree) annotate(s *tree.Session, c *formats.Conversation) {
	for _, l := range c.Labels {
		if _, ok := s.Index[l.Target]; !ok {
			t.Warn("%s labels %q, which is not in the conversation; the label %q is dropped", l.What, l.Target, l.Label)
			continue
		}
		ts := l.Stamp
		if ts == "" {
			ts = t.Fallback
		}
		s.Annotate(&tree.Annotation{Kind: tree.AnnotationLabel, NodeID: l.Target, Label: l.Label, Timestamp: ts})
	}
	for k, raw := range c.Annotations {
		a, err := s.ParseAnnotation(raw, k)
		if err != nil {
			t.Warn("annotation %d is dropped: %s", k, err.Message)
			continue
		}
		s.Annotate(a)
	}
	t.linkSource(s, c)
}

// branchFor names a branch an import opens: hint itself when it is a
// free name, else a name derived from hint, or from from when there is no
// hint (next: see Session.AutoBranchNameFrom).
func branchFor(s *tree.Session, hint, from string, next map[string]int) string {
	if hint == "" {
		return s.AutoBranchNameFrom(from, next)
	}
	if s.ByName[hint] == nil {
		return hint
	}
	return s.AutoBranchNameFrom(hint, next)
}

// linkSource appends the import's source record when the conversation
// names the session it was forked from (formats.Conversation's
// ParentSession) and s has none yet (sessiontree's own exports carry
// theirs among their annotations). A link that is not a valid session id
// is dropped with a warning: links never fail an import. The link is kept
// even when that session is not in the store: family resolves it when it
// arrives.
func (t *importTree) linkSource(s *tree.Session, c *formats.Conversation) {
	if c.ParentSession == "" || s.Source != nil || c.ParentSession == s.ID() {
		return
	}
	if p := names.Problem(c.ParentSession, names.MaxSessionIDLength); p != "" {
		t.Warn("the session it was forked from %s: %q; the link is dropped", p, c.ParentSession)
		return
	}
	ts := t.Fallback
	if ts == "" {
		ts = s.CreatedAt
	}
	s.Annotate(&tree.Annotation{Kind: tree.AnnotationSource, SourceSession: c.ParentSession, Via: tree.SourceImport, Timestamp: ts})
}

// importNames returns the session id an imported conversation gets (its
// own; a generated one when it has none; a derived one, with a warning,
// when NameProblem refuses its own) and the warnings of renaming its
// unusable message ids (names.RenameUnusableNodeIDs).
func importNames(st *store.Store, c *formats.Conversation) (string, []formats.Warning) {
	id := c.ID
	if id == "" {
		id = st.DrawSessionID()
	}
	var warns []formats.Warning
	warn := func(format string, args ...any) {
		warns = append(warns, formats.Warning{SessionID: id, Message: jsonx.Sprintf(format, args...)})
	}
	if p := names.Problem(id, names.MaxSessionIDLength); p != "" {
		orig := id
		id = names.DerivedSessionID(orig)
		warn("the conversation's id %q %s; it is imported as %q", orig, p, id)
	}
	names.RenameUnusableNodeIDs(c, warn)
	return id, warns
}
