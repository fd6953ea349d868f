package store

import (
	"github.com/sessiontree/sessiontree/core/internal/formats"
	"github.com/sessiontree/sessiontree/core/internal/names"
	"github.com/sessiontree/sessiontree/core/internal/tree"
)

// The typed API: the store's operations as Go methods, for a Go program
// that keeps sessions without JSON requests (see core's ExampleStore_typed). Each
// method is the operation of the same name in SPEC.md with its fields as
// arguments: it validates them as the operation validates its request
// (the messages name the request's field, "nodeId", "branch", …), changes
// nothing when it fails, and records its change in the change log under
// the operation's name, exactly as core's Call does. Core's handlers
// (core/ops*.go) decode a request and call the same code.
//
// A method returns a non-nil error only as an *Error, whose Code is one of
// SPEC.md's; errors.Is(err, tree.ErrNodeNotFound) and the like tell them apart.

// AppendOptions are the optional fields of append.
type AppendOptions struct {
	// Branch names an existing branch to append to (at its tip, the
	// cursor moving there); "" appends at the cursor, on the active
	// branch or on a new "<active>-N" when the cursor is not its tip.
	Branch string
	// Root appends the node as a new root (see Session.PlaceRoot): a
	// sibling of the session's first message, on a new branch. It
	// excludes Branch.
	Root bool
}

// ForkOptions are the optional fields of fork.
type ForkOptions struct {
	// NewSessionID is the id of the new session; "" draws one.
	NewSessionID string
	// Branch is the active branch of the new session; "" keeps the
	// branch of the fork node.
	Branch string
}

// failed turns an operation's *Error into an error, nil staying nil (a nil
// *Error in an error interface would not compare equal to nil).
func failed(err *tree.Error) error {
	if err == nil {
		return nil
	}
	return err
}

// CheckName applies names.Problem to an id or branch name given as argument
// field of a typed call: INVALID_ARGUMENT naming the field.
func CheckName(field, value string, max int) *tree.Error {
	if p := names.Problem(value, max); p != "" {
		return tree.Invalidf("field %q %s: %s (ids and branch names are 1–%d visible characters on one line)", field, p, names.Quote(value), max)
	}
	return nil
}

// LiveSession returns the session sessionID names, checking the id first.
func (st *Store) LiveSession(sessionID string) (*tree.Session, *tree.Error) {
	if err := CheckName("sessionId", sessionID, names.MaxSessionIDLength); err != nil {
		return nil, err
	}
	return st.Lookup(sessionID)
}

// sessionNode returns the session and the index of the node the two ids
// name: SESSION_NOT_FOUND, NODE_NOT_FOUND or INVALID_ARGUMENT.
func (st *Store) sessionNode(sessionID, nodeID string) (*tree.Session, int32, *tree.Error) {
	s, err := st.LiveSession(sessionID)
	if err != nil {
		return nil, -1, err
	}
	if err := CheckName("nodeId", nodeID, names.MaxNodeIDLength); err != nil {
		return nil, -1, err
	}
	i, err := s.Lookup(nodeID)
	return s, i, err
}

// Create makes an empty session sessionID with title ("" for none): its
// Status, or SESSION_ALREADY_EXISTS (also for an id in the trash) or
// INVALID_ARGUMENT for a malformed id or a title rename would not take
// (over MaxTitleLength characters, or a control character).
func (st *Store) Create(sessionID, title string) (tree.Status, error) {
	if err := CheckName("sessionId", sessionID, names.MaxSessionIDLength); err != nil {
		return tree.Status{}, err
	}
	if err := tree.CheckTitle(title); err != nil {
		return tree.Status{}, err
	}
	s, err := st.CreateAs(sessionID, title, "create")
	if err != nil {
		return tree.Status{}, err
	}
	return s.Status(), nil
}

// CreateAs makes and stores an empty session, recording it under op.
func (st *Store) CreateAs(id, title, op string) (*tree.Session, *tree.Error) {
	if err := st.Taken(id); err != nil {
		return nil, err
	}
	s := tree.NewSession(id, title, st.Timestamp())
	st.Put(s)
	st.markDirty(s, 0, false, op)
	return s, nil
}

// Append adds message (a chat message object, {"role":…,"content":…,…}
// as SPEC.md describes it) to the session as a child of its cursor, or at
// the tip of opts.Branch, and moves the cursor to it: the new node, or
// INVALID_ARGUMENT (a bad message, naming its field "message.…"),
// SESSION_NOT_FOUND or NOT_FOUND (an unknown branch).
func (st *Store) Append(sessionID string, message tree.RawMessage, opts AppendOptions) (*tree.Node, error) {
	s, err := st.LiveSession(sessionID)
	if err != nil {
		return nil, err
	}
	n := &tree.Node{Kind: formats.KindMessage}
	if n.Message, n.MessageRole, err = tree.ValidateMessageOf(message, "message", false); err != nil {
		return nil, err
	}
	return st.appendTyped(s, n, opts)
}

// AppendEntry is Append for an entry ({"kind":…, …fields}: a model or
// thinking-level change, a compaction, a custom entry; see tree.ParseEntry).
func (st *Store) AppendEntry(sessionID string, entry tree.RawMessage, opts AppendOptions) (*tree.Node, error) {
	s, err := st.LiveSession(sessionID)
	if err != nil {
		return nil, err
	}
	n := &tree.Node{}
	if n.Kind, n.Entry, err = tree.ParseEntry(entry, "entry"); err != nil {
		return nil, err
	}
	return st.appendTyped(s, n, opts)
}

// appendTyped checks opts.Branch and appends n (see AppendNode).
func (st *Store) appendTyped(s *tree.Session, n *tree.Node, opts AppendOptions) (*tree.Node, error) {
	if opts.Branch != "" {
		if err := CheckName("branch", opts.Branch, names.MaxBranchNameLength); err != nil {
			return nil, err
		}
	}
	if err := st.AppendNode(s, n, opts, "append"); err != nil {
		return nil, err
	}
	return n, nil
}

// AppendNode places n (a validated message or entry, its id not set) in s
// where an append with opts goes (see Session.Place, and PlaceRoot for
// opts.Root), gives it an id and a timestamp, moves the cursor to it and
// records the change under op. INVALID_ARGUMENT for Root with a Branch,
// NOT_FOUND for a Branch that does not exist.
func (st *Store) AppendNode(s *tree.Session, n *tree.Node, opts AppendOptions, op string) *tree.Error {
	var p tree.Placement
	if opts.Root {
		if opts.Branch != "" {
			return tree.Invalidf("fields \"root\" and \"branch\" exclude each other: a new root starts a branch of its own")
		}
		p = s.PlaceRoot()
	} else {
		var err *tree.Error
		if p, err = s.Place(opts.Branch); err != nil {
			return err
		}
	}
	if n.Entry != nil {
		if err := s.CheckEntryPlace(n.Kind, n.Entry, p.Parent, "entry"); err != nil {
			return err
		}
	}
	n.ID, n.Timestamp = st.DrawNodeID(s, nil), st.Timestamp()
	from := len(s.Nodes)
	s.Add(n, p)
	st.touch(s, from, false, op)
	return nil
}

// Jump moves the session's cursor to nodeID, making the node's branch the
// active one: the session's Status, or SESSION_NOT_FOUND, NODE_NOT_FOUND,
// INVALID_ARGUMENT.
func (st *Store) Jump(sessionID, nodeID string) (tree.Status, error) {
	s, i, err := st.sessionNode(sessionID, nodeID)
	if err != nil {
		return tree.Status{}, err
	}
	st.JumpTo(s, i, "jump")
	return s.Status(), nil
}

// JumpTo moves the cursor of s to node i and records it under op.
func (st *Store) JumpTo(s *tree.Session, i int32, op string) {
	s.Cursor = i
	s.SetActive(s.Nodes[i].Branch)
	st.touch(s, len(s.Nodes), false, op)
}

// Branch moves the cursor to nodeID and makes branch, a new name (or the
// name of the branch whose tip is nodeID), the active branch: the next
// append starts it. The session's Status, or INVALID_ARGUMENT (a name in
// use elsewhere, a malformed one), SESSION_NOT_FOUND, NODE_NOT_FOUND.
func (st *Store) Branch(sessionID, nodeID, branch string) (tree.Status, error) {
	s, i, err := st.sessionNode(sessionID, nodeID)
	if err != nil {
		return tree.Status{}, err
	}
	if err := CheckName("branch", branch, names.MaxBranchNameLength); err != nil {
		return tree.Status{}, err
	}
	if err := st.BranchAt(s, i, branch, "branch"); err != nil {
		return tree.Status{}, err
	}
	return s.Status(), nil
}

// BranchAt checks and makes name the active branch at node i of s,
// recording it under op.
func (st *Store) BranchAt(s *tree.Session, i int32, name, op string) *tree.Error {
	if err := s.CheckBranchTarget(i, name); err != nil {
		return err
	}
	s.BranchAt(i, name)
	st.touch(s, len(s.Nodes), false, op)
	return nil
}

// SummarizeBranch makes name the active branch at node i of s (checked
// as BranchAt checks it) and starts it with a summary node holding
// summary: the new node. It records the change under op.
func (st *Store) SummarizeBranch(s *tree.Session, i int32, name, summary, op string) (*tree.Node, *tree.Error) {
	if err := s.CheckBranchTarget(i, name); err != nil {
		return nil, err
	}
	from := len(s.Nodes)
	s.BranchAt(i, name)
	p, _ := s.Place("") // the active branch at the cursor: never fails
	n := &tree.Node{ID: st.DrawNodeID(s, nil), Kind: formats.KindSummary, Timestamp: st.Timestamp(), Summary: summary}
	s.Add(n, p)
	st.touch(s, from, false, op)
	return n, nil
}

// SwitchToLeaf moves the cursor of s to the newest leaf under node i (see
// Session.NewestLeaf), making its branch the active one, and records it
// under op.
func (st *Store) SwitchToLeaf(s *tree.Session, i int32, op string) {
	st.JumpTo(s, s.NewestLeaf(i), op)
}

// SwitchToBranch makes branch name of s the active one, the cursor at its
// tip (left where it is for a branch with no node yet), and records it
// under op: NOT_FOUND for a branch s does not have.
func (st *Store) SwitchToBranch(s *tree.Session, name, op string) *tree.Error {
	b := s.ByName[name]
	if b == nil {
		return tree.Errorf(tree.NotFound, "branch %q does not exist in session %q", name, s.ID())
	}
	if b.Tip >= 0 {
		s.Cursor = b.Tip
	}
	s.SetActive(name)
	st.touch(s, len(s.Nodes), false, op)
	return nil
}

// Fork makes a new session of the root→nodeID path of sessionID (the same
// node ids, branches, messages and annotations, a source record naming
// where it came from), its cursor at the node: the new session's Status,
// or SESSION_NOT_FOUND, NODE_NOT_FOUND, SESSION_ALREADY_EXISTS (for
// opts.NewSessionID), INVALID_ARGUMENT.
func (st *Store) Fork(sessionID, nodeID string, opts ForkOptions) (tree.Status, error) {
	s, at, err := st.sessionNode(sessionID, nodeID)
	if err != nil {
		return tree.Status{}, err
	}
	if opts.Branch != "" {
		if err := CheckName("branch", opts.Branch, names.MaxBranchNameLength); err != nil {
			return tree.Status{}, err
		}
	}
	newID, err := st.newSessionIDOf(opts.NewSessionID)
	if err != nil {
		return tree.Status{}, err
	}
	f, err := st.ForkAt(s, at, newID, opts.Branch, "fork")
	if err != nil {
		return tree.Status{}, err
	}
	return f.Status(), nil
}

// newSessionIDOf checks a new session's id, or draws one for "".
func (st *Store) newSessionIDOf(id string) (string, *tree.Error) {
	if id == "" {
		return st.DrawSessionID(), nil
	}
	if err := CheckName("newSessionId", id, names.MaxSessionIDLength); err != nil {
		return "", err
	}
	if err := st.Taken(id); err != nil {
		return "", err
	}
	return id, nil
}

// ForkAt stores the fork of s at node at as session newID, branch its
// active branch ("" for the node's), recording it under op.
func (st *Store) ForkAt(s *tree.Session, at int32, newID, branch, op string) (*tree.Session, *tree.Error) {
	f := s.ForkAt(at, newID, st.Timestamp())
	if branch != "" && branch != f.Active {
		if b := f.ByName[branch]; b != nil {
			return nil, tree.Invalidf("branch %q already exists on the path to node %q and does not end there", branch, s.Nodes[at].ID)
		}
		f.SetActive(branch)
	}
	st.PutNew(f, op)
	return f, nil
}

// Clone makes a new session with every node, branch, annotation and the
// cursor of sessionID (newSessionID, or a drawn id for ""): the new
// session's Status, or SESSION_NOT_FOUND, SESSION_ALREADY_EXISTS,
// INVALID_ARGUMENT.
func (st *Store) Clone(sessionID, newSessionID string) (tree.Status, error) {
	s, err := st.LiveSession(sessionID)
	if err != nil {
		return tree.Status{}, err
	}
	newID, err := st.newSessionIDOf(newSessionID)
	if err != nil {
		return tree.Status{}, err
	}
	return st.CloneAs(s, newID, "clone").Status(), nil
}

// CloneAs stores a copy of s as session newID, recording it under op.
func (st *Store) CloneAs(s *tree.Session, newID, op string) *tree.Session {
	now := st.Timestamp()
	c := s.Clone(newID, now)
	c.RecordSource(s, s.Cursor, tree.SourceClone, now)
	st.PutNew(c, op)
	return c
}

// Context returns what the model sees at the session's cursor: the
// root→cursor path as a messages array (a compaction's summary replacing
// what it compacted) and the configuration in force there; or
// SESSION_NOT_FOUND, INVALID_ARGUMENT.
func (st *Store) Context(sessionID string) (tree.Context, error) {
	s, err := st.LiveSession(sessionID)
	if err != nil {
		return tree.Context{}, err
	}
	return s.ContextView(st.PathOf(s)).Context(), nil
}

// Status returns the state of one session (the value of "session"), or
// SESSION_NOT_FOUND, INVALID_ARGUMENT.
func (st *Store) Status(sessionID string) (tree.Status, error) {
	s, err := st.LiveSession(sessionID)
	if err != nil {
		return tree.Status{}, err
	}
	return s.Status(), nil
}

// Sessions lists every session outside the trash, in the order they were
// made (the value of "sessions"). It never fails.
func (st *Store) Sessions() []SessionSummary { return st.SessionList() }

// Label sets the label of nodeID ("" clears it; at most 1,000 characters,
// no control characters): the node's Marks after the call, or
// SESSION_NOT_FOUND, NODE_NOT_FOUND, INVALID_ARGUMENT.
func (st *Store) Label(sessionID, nodeID, label string) (tree.Marks, error) {
	s, i, err := st.sessionNode(sessionID, nodeID)
	if err != nil {
		return tree.Marks{}, err
	}
	if err := tree.CheckLabel(label); err != nil {
		return tree.Marks{}, err
	}
	st.AddAnnotation(s, &tree.Annotation{Kind: tree.AnnotationLabel, NodeID: s.Nodes[i].ID, Label: label}, "label")
	return s.Marks(i), nil
}

// Hide hides (hidden true) or shows again the subtree of nodeID in the
// tree views; context and the nodes are unchanged. The node's Marks, or
// SESSION_NOT_FOUND, NODE_NOT_FOUND, INVALID_ARGUMENT.
func (st *Store) Hide(sessionID, nodeID string, hidden bool) (tree.Marks, error) {
	s, i, err := st.sessionNode(sessionID, nodeID)
	if err != nil {
		return tree.Marks{}, err
	}
	st.AddAnnotation(s, &tree.Annotation{Kind: tree.AnnotationHide, NodeID: s.Nodes[i].ID, Hidden: hidden}, "hide")
	return s.Marks(i), nil
}

// Prefer makes the root→nodeID path the preferred one ("" clears it): the
// node's Marks, or SESSION_NOT_FOUND, NODE_NOT_FOUND, INVALID_ARGUMENT.
func (st *Store) Prefer(sessionID, nodeID string) (tree.Marks, error) {
	if nodeID == "" {
		s, err := st.LiveSession(sessionID)
		if err != nil {
			return tree.Marks{}, err
		}
		st.AddAnnotation(s, &tree.Annotation{Kind: tree.AnnotationPrefer}, "prefer")
		return s.Marks(-1), nil
	}
	s, i, err := st.sessionNode(sessionID, nodeID)
	if err != nil {
		return tree.Marks{}, err
	}
	st.AddAnnotation(s, &tree.Annotation{Kind: tree.AnnotationPrefer, NodeID: nodeID}, "prefer")
	return s.Marks(i), nil
}

// Rename sets the session's title ("" clears it; at most MaxTitleLength
// characters, no control characters): its Status, or SESSION_NOT_FOUND,
// INVALID_ARGUMENT. The session's updatedAt stays: a title is not
// activity, so a list by last activity (the explorer's) keeps its place,
// as chat apps keep a renamed chat's.
func (st *Store) Rename(sessionID, title string) (tree.Status, error) {
	s, err := st.LiveSession(sessionID)
	if err != nil {
		return tree.Status{}, err
	}
	if err := tree.CheckTitle(title); err != nil {
		return tree.Status{}, err
	}
	st.Retitle(s, title, "rename")
	return s.Status(), nil
}

// Retitle appends a title record to s (the title checked by the caller)
// for operation op, keeping s.UpdatedAt: a title is not activity.
func (st *Store) Retitle(s *tree.Session, title, op string) {
	updated := s.UpdatedAt
	st.AddAnnotation(s, &tree.Annotation{Kind: tree.AnnotationTitle, Title: title}, op)
	s.UpdatedAt = updated
}

// SaveSnapshot returns the session's snapshot (snapshot v1 of SPEC.md,
// compact JSON), or SESSION_NOT_FOUND, INVALID_ARGUMENT.
func (st *Store) SaveSnapshot(sessionID string) ([]byte, error) {
	s, err := st.LiveSession(sessionID)
	if err != nil {
		return nil, err
	}
	return tree.SnapshotValue{Session: s}.AppendJSON(nil), nil
}

// LoadSnapshot makes session sessionID from snapshot (snapshot v1; its own
// id is ignored), replacing a session of that id: its Status, or
// INVALID_SNAPSHOT naming the first fault, SESSION_ALREADY_EXISTS (the id
// is in the trash), INVALID_ARGUMENT.
func (st *Store) LoadSnapshot(sessionID string, snapshot []byte) (tree.Status, error) {
	if err := CheckName("sessionId", sessionID, names.MaxSessionIDLength); err != nil {
		return tree.Status{}, err
	}
	s, err := st.LoadSession(sessionID, snapshot, false, "snapshot.load")
	if err != nil {
		return tree.Status{}, err
	}
	return s.Status(), nil
}

// Branches lists the session's branches in order of creation (the value
// of "branches"), or SESSION_NOT_FOUND, INVALID_ARGUMENT.
func (st *Store) Branches(sessionID string) ([]tree.BranchInfo, error) {
	s, err := st.LiveSession(sessionID)
	if err != nil {
		return nil, err
	}
	return s.BranchList(), nil
}
