package tree

import (
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/sessiontree/sessiontree/core/internal/formats"
)

// Branch is the bookkeeping of one branch. A branch's nodes form a
// chain: base is the parent of its first node (-1 for none), tip its newest
// node (-1 while the branch has no node yet).
type Branch struct {
	Name  string
	Base  int32
	Tip   int32
	Count int
}

// Session is one session tree: its nodes in append order with parent links
// by index, the cursor, the active branch and the branch table. Every walk
// over it is a loop; nothing recurses, so a 1,000,000-deep chain is fine.
type Session struct {
	// Paged is non-nil for a stub: a session whose nodes are not in
	// memory (see package store, paging.go); every field below but the id, title, times
	// and active branch is then empty.
	Paged *PageStub

	id        string
	Title     string
	CreatedAt string
	UpdatedAt string
	DeletedAt string // set while the session is in the trash
	// Tool is the format of the import that made the session ("codex",
	// "claude-code", …; "" for one made otherwise), project the folder
	// the conversation worked in where the import said (see origin.go).
	Tool    string
	Project string

	Nodes    []*Node
	Index    map[string]int32
	Parent   []int32 // index of each node's parent, -1 for a root
	Depth    []int32 // 1 for a root
	Children []int32 // number of children of each node
	Leaves   int

	Cursor   int32 // -1 when the cursor is null
	Active   string
	Branches []*Branch // in order of creation
	ByName   map[string]*Branch
	// LastBranch is the branch of the last push: consecutive nodes mostly
	// share one, and a map lookup per node is slow in wasm. Whatever drops
	// a branch from ByName resets it.
	LastBranch *Branch

	// Annotations (annotate.go): the append-only records and the marks
	// they leave, newest record winning.
	Annotations []*Annotation
	Labels      map[int32]string // node → label
	hiddenRoots map[int32]bool   // nodes whose subtree is hidden
	Preferred   int32            // end of the preferred path, -1 for none
	Source      *SourceLink      // the newest source record (source.go), nil for none
	// LastImport is the node of the newest import record: where the
	// file's cursor was at the last import of the session ("" for none).
	LastImport string
}

// NewSession returns an empty session with the id and title, made at now
// (a timestamp in TimeLayout): no node, no cursor, the default branch
// active.
func NewSession(id, title, now string) *Session {
	s := &Session{
		id:        id,
		Title:     title,
		CreatedAt: now,
		UpdatedAt: now,
		Index:     make(map[string]int32),
		Cursor:    -1,
		ByName:    make(map[string]*Branch),
		Preferred: -1,
	}
	s.Active = formats.DefaultBranch
	s.AddBranch(formats.DefaultBranch, -1)
	return s
}

// Reserve makes room for n more nodes (an import knows how many it adds),
// so the node slices and the index grow once.
func (s *Session) Reserve(n int) {
	s.Nodes = slices.Grow(s.Nodes, n)
	s.Parent = slices.Grow(s.Parent, n)
	s.Depth = slices.Grow(s.Depth, n)
	s.Children = slices.Grow(s.Children, n)
	if len(s.Index) == 0 {
		s.Index = make(map[string]int32, n)
	}
}

// NewStub returns a stub: a session standing for a stored one whose nodes
// are not in memory (see PageStub), with its id and page, no cursor and no
// preferred path. The caller sets its title, times, active branch and
// origin from the stored summary.
func NewStub(id string, page *PageStub) *Session {
	return &Session{id: id, Cursor: -1, Preferred: -1, Paged: page}
}

// Stubs makes stubs as NewStub does, n sessions and their pages in one
// allocation each instead of two allocations a stub: the start stubs every
// stored session at once (10,000: a fifth less time natively, and far
// less in wasm not yet optimised). A slab stays in memory while any of its
// stubs does; a stub replaced when its session is loaded leaves its slot
// unused (~0.5 KB).
type Stubs struct {
	sessions []Session
	pages    []PageStub
}

// NewStubs returns a maker with room for n stubs; past them, New
// allocates one at a time.
func NewStubs(n int) *Stubs {
	return &Stubs{sessions: make([]Session, n), pages: make([]PageStub, n)}
}

// New returns a stub (see NewStub) with id and an empty page.
func (m *Stubs) New(id string) *Session {
	if len(m.sessions) == 0 {
		return NewStub(id, &PageStub{})
	}
	s, page := &m.sessions[0], &m.pages[0]
	m.sessions, m.pages = m.sessions[1:], m.pages[1:]
	*s = Session{id: id, Cursor: -1, Preferred: -1, Paged: page}
	return s
}

// SetID gives s the id. Only a session no store holds yet may be renamed
// (an import choosing a free id for a conversation).
func (s *Session) SetID(id string) { s.id = id }

// ID returns the session id.
func (s *Session) ID() string { return s.id }

// Len returns the number of nodes.
func (s *Session) Len() int { return len(s.Nodes) }

// AddBranch appends an empty branch name, based at node base, to the
// branch table and returns it.
//
//go:noinline // called once per operation; inlined copies cost wasm size
func (s *Session) AddBranch(name string, base int32) *Branch {
	b := &Branch{Name: name, Base: base, Tip: -1}
	s.Branches = append(s.Branches, b)
	s.ByName[name] = b
	return b
}

// SetActive makes name the active branch and drops the previous active
// branch if it never received a node: an empty branch lives only while it
// is active, so a snapshot (which records nodes and activeBranch) always
// holds the whole branch table.
func (s *Session) SetActive(name string) {
	if old := s.ByName[s.Active]; old != nil && old.Count == 0 && s.Active != name {
		delete(s.ByName, old.Name)
		s.LastBranch = nil
		for i, b := range s.Branches {
			if b == old {
				s.Branches = append(s.Branches[:i], s.Branches[i+1:]...)
				break
			}
		}
	}
	s.Active = name
	if s.ByName[name] == nil {
		s.AddBranch(name, s.Cursor)
	}
}

// TrimNumberSuffix removes a final "-<digits>" from name ("main-2" gives
// "main"); a name without one is returned as it is. (A loop rather than
// regexp, which cost about 100 KB of wasm.)
func TrimNumberSuffix(name string) string {
	i := len(name)
	for i > 0 && name[i-1] >= '0' && name[i-1] <= '9' {
		i--
	}
	if i < len(name) && i > 0 && name[i-1] == '-' {
		return name[:i-1]
	}
	return name
}

// AutoBranchName derives a new, unused branch name from name: "main" gives
// "main-2", then "main-3"; "main-2" gives "main-3".
func (s *Session) AutoBranchName(name string) string {
	return s.AutoBranchNameFrom(name, nil)
}

// AutoBranchNameFrom is AutoBranchName for a caller that only adds
// branches while it runs (the import builder): next, when not nil, keeps
// per base name the suffix to try first, so a conversation with 1,500
// branches off "main" no longer probes every taken name for each new one
// (12% of a Pi import's time, issue 15). The names are AutoBranchName's:
// with no branch removed, every suffix below next[base] stays taken.
func (s *Session) AutoBranchNameFrom(name string, next map[string]int) string {
	base := TrimNumberSuffix(name)
	if base == "" {
		base = name
	}
	for k := max(2, next[base]); ; k++ {
		suffix := "-" + strconv.Itoa(k)
		b := base
		for utf8.RuneCountInString(b)+len(suffix) > 128 {
			_, size := utf8.DecodeLastRuneInString(b)
			b = b[:len(b)-size]
		}
		if candidate := b + suffix; s.ByName[candidate] == nil {
			if next != nil {
				next[base] = k + 1
			}
			return candidate
		}
	}
}

// Placement says where an append goes: under parent, on branch; newBranch
// is set when the append opens an automatically named branch.
type Placement struct {
	Parent    int32
	Branch    string
	newBranch bool
}

// PlaceRoot decides where an append as a new root goes, without changing
// anything: in a session with no node, where any append goes (Place("")),
// else a root of its own on a new branch named after the active one
// ("main-2"): the session becomes a forest, the new root a sibling of its
// first message (what an edit of that message is, as ChatGPT keeps one).
func (s *Session) PlaceRoot() Placement {
	if len(s.Nodes) == 0 {
		p, _ := s.Place("") // with no node no branch has a tip: the cursor's place, never an error
		return p
	}
	return Placement{Parent: -1, Branch: s.AutoBranchName(s.Active), newBranch: true}
}

// Place decides where the next append goes, without changing anything.
// branch is the request's optional branch ("" for none).
func (s *Session) Place(branch string) (Placement, *Error) {
	if branch != "" && branch != s.Active {
		b := s.ByName[branch]
		if b == nil {
			return Placement{}, Errorf(NotFound, "branch %q does not exist in session %q", branch, s.id)
		}
		if b.Tip >= 0 {
			return Placement{Parent: b.Tip, Branch: branch}, nil
		}
		return Placement{Parent: b.Base, Branch: branch}, nil
	}
	b := s.ByName[s.Active]
	if b == nil || b.Count == 0 {
		return Placement{Parent: s.Cursor, Branch: s.Active}, nil
	}
	if b.Tip == s.Cursor {
		return Placement{Parent: s.Cursor, Branch: s.Active}, nil
	}
	return Placement{Parent: s.Cursor, Branch: s.AutoBranchName(s.Active), newBranch: true}, nil
}

// Add appends n (already validated, ID set, ParentID and Branch to be set
// from p) and moves the cursor and active branch to it.
func (s *Session) Add(n *Node, p Placement) {
	if p.Parent >= 0 {
		n.ParentID = s.Nodes[p.Parent].ID
	} else {
		n.ParentID = ""
	}
	n.Branch = p.Branch
	if p.newBranch {
		s.AddBranch(p.Branch, p.Parent)
	}
	s.Push(n, p.Parent)
	s.Cursor = int32(len(s.Nodes) - 1)
	s.SetActive(p.Branch)
}

// Push appends a node whose parent index is known and updates the derived
// tables (depth, children, leaves, branch). It does not move the cursor.
func (s *Session) Push(n *Node, parent int32) {
	i := int32(len(s.Nodes))
	s.Nodes = append(s.Nodes, n)
	s.Index[n.ID] = i
	s.Parent = append(s.Parent, parent)
	d := int32(1)
	if parent >= 0 {
		d = s.Depth[parent] + 1
		if s.Children[parent] == 0 {
			s.Leaves--
		}
		s.Children[parent]++
	}
	s.Depth = append(s.Depth, d)
	s.Children = append(s.Children, 0)
	s.Leaves++
	b := s.LastBranch
	if b == nil || b.Name != n.Branch {
		if b = s.ByName[n.Branch]; b == nil {
			b = s.AddBranch(n.Branch, parent)
		}
		s.LastBranch = b
	}
	if b.Count == 0 {
		b.Base = parent
	}
	b.Count++
	b.Tip = i
}

// Path returns the node indexes from a root to i, root first.
//
//go:noinline // called once per operation; inlined copies cost wasm size
func (s *Session) Path(i int32) []int32 {
	if i < 0 {
		return nil
	}
	out := make([]int32, s.Depth[i])
	for k := len(out) - 1; i >= 0 && k >= 0; k-- {
		out[k] = i
		i = s.Parent[i]
	}
	return out
}

// ContextPath is Path(i) for a context: when the last context's path is
// a prefix of i's path (a chat turn: an append, then a context), only the
// nodes after it are walked, and they are appended to it in place (the
// walk of a 100,000-deep path was most of a turn's time in core). Nodes
// and their parents never change, so a path stays the path; a caller of
// an earlier answer holds a slice of its own length, and no element
// before the end of memo's path is written again. The caller must not
// change the slice. memo is the path the last context of s walked (kept
// by the store, Store.PathOf); nil walks the path afresh.
func (s *Session) ContextPath(i int32, memo *PathMemo) []int32 {
	if memo == nil {
		return s.Path(i)
	}
	last := memo.path
	n := int32(len(last))
	if i < 0 || n == 0 || s.Depth[i] < n {
		memo.path = s.Path(i)
		return memo.path
	}
	added := s.Depth[i] - n
	j := i
	for k := int32(0); k < added; k++ {
		j = s.Parent[j]
	}
	if j != last[n-1] {
		memo.path = s.Path(i)
		return memo.path
	}
	out := slices.Grow(last, int(added))[:s.Depth[i]]
	for k := s.Depth[i] - 1; k >= n; k-- {
		out[k] = i
		i = s.Parent[i]
	}
	memo.path = out
	return out
}

// Lookup returns the index of the node with id, or NODE_NOT_FOUND.
func (s *Session) Lookup(id string) (int32, *Error) {
	if i, ok := s.Index[id]; ok {
		return i, nil
	}
	return -1, Errorf(NodeNotFound, "node %q is not in session %q", id, s.id)
}

// NodeID returns the id of node i, "" for i < 0 (no node).
func (s *Session) NodeID(i int32) string {
	if i < 0 {
		return ""
	}
	return s.Nodes[i].ID
}

// Clone returns a deep copy of the session's structure under a new id.
// Nodes are immutable once added, so the copy shares them.
func (s *Session) Clone(id, now string) *Session {
	c := &Session{
		id:        id,
		Title:     s.Title,
		CreatedAt: now,
		UpdatedAt: now,
		Nodes:     append([]*Node(nil), s.Nodes...),
		Index:     make(map[string]int32, len(s.Index)),
		Parent:    append([]int32(nil), s.Parent...),
		Depth:     append([]int32(nil), s.Depth...),
		Children:  append([]int32(nil), s.Children...),
		Leaves:    s.Leaves,
		Cursor:    s.Cursor,
		Active:    s.Active,
		ByName:    make(map[string]*Branch, len(s.ByName)),
		Preferred: -1,
	}
	for k, v := range s.Index {
		c.Index[k] = v
	}
	for _, b := range s.Branches {
		cb := *b
		c.Branches = append(c.Branches, &cb)
		c.ByName[cb.Name] = &cb
	}
	c.copyAnnotations(s)
	return c
}

// PageStub is what a paged-out session keeps of the session it stands
// for, beside the Session's own id, title, times and active branch.
type PageStub struct {
	NodeCount int
	Cursor    string // "" for none
	// Unreadable says why the session's stored records could not be read
	// into memory when a call last tried ("" when they could, or were not
	// tried since the stub was last updated): a search across every
	// session passes over it (store.Store.MarkUnreadable).
	Unreadable string
}
