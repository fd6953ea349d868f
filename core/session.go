package core

import (
	"slices"
	"strconv"
	"unicode/utf8"
)

// branchInfo is the bookkeeping of one branch. A branch's nodes form a
// chain: base is the parent of its first node (-1 for none), tip its newest
// node (-1 while the branch has no node yet).
type branchInfo struct {
	name  string
	base  int32
	tip   int32
	count int
}

// Session is one session tree: its nodes in append order with parent links
// by index, the cursor, the active branch and the branch table. Every walk
// over it is a loop; nothing recurses, so a 1,000,000-deep chain is fine.
type Session struct {
	// paged is non-nil for a stub: a session whose nodes are not in
	// memory (see paging.go); every field below but the id, title, times
	// and active branch is then empty.
	paged *pageStub

	id        string
	title     string
	createdAt string
	updatedAt string
	deletedAt string // set while the session is in the trash
	// tool is the format of the import that made the session ("codex",
	// "claude-code", …; "" for one made otherwise), project the folder
	// the conversation worked in where the import said (see origin.go).
	tool    string
	project string

	nodes    []*Node
	index    map[string]int32
	parent   []int32 // index of each node's parent, -1 for a root
	depth    []int32 // 1 for a root
	children []int32 // number of children of each node
	leaves   int

	cursor   int32 // -1 when the cursor is null
	active   string
	branches []*branchInfo // in order of creation
	byName   map[string]*branchInfo
	// lastBranch is the branch of the last push: consecutive nodes mostly
	// share one, and a map lookup per node is slow in wasm. Whatever drops
	// a branch from byName resets it.
	lastBranch *branchInfo

	// Annotations (annotate.go): the append-only records and the marks
	// they leave, newest record winning.
	annotations []*Annotation
	labels      map[int32]string // node → label
	hiddenRoots map[int32]bool   // nodes whose subtree is hidden
	preferred   int32            // end of the preferred path, -1 for none
	source      *sourceLink      // the newest source record (source.go), nil for none
	// lastImport is the node of the newest import record: where the
	// file's cursor was at the last import of the session ("" for none).
	lastImport string
}

func newSession(id, title, now string) *Session {
	s := &Session{
		id:        id,
		title:     title,
		createdAt: now,
		updatedAt: now,
		index:     make(map[string]int32),
		cursor:    -1,
		byName:    make(map[string]*branchInfo),
		preferred: -1,
	}
	s.active = DefaultBranch
	s.addBranch(DefaultBranch, -1)
	return s
}

// reserve makes room for n more nodes (an import knows how many it adds),
// so the node slices and the index grow once.
func (s *Session) reserve(n int) {
	s.nodes = slices.Grow(s.nodes, n)
	s.parent = slices.Grow(s.parent, n)
	s.depth = slices.Grow(s.depth, n)
	s.children = slices.Grow(s.children, n)
	if len(s.index) == 0 {
		s.index = make(map[string]int32, n)
	}
}

// ID returns the session id.
func (s *Session) ID() string { return s.id }

// Len returns the number of nodes.
func (s *Session) Len() int { return len(s.nodes) }

//go:noinline // called once per operation; inlined copies cost wasm size
func (s *Session) addBranch(name string, base int32) *branchInfo {
	b := &branchInfo{name: name, base: base, tip: -1}
	s.branches = append(s.branches, b)
	s.byName[name] = b
	return b
}

// setActive makes name the active branch and drops the previous active
// branch if it never received a node: an empty branch lives only while it
// is active, so a snapshot (which records nodes and activeBranch) always
// holds the whole branch table.
func (s *Session) setActive(name string) {
	if old := s.byName[s.active]; old != nil && old.count == 0 && s.active != name {
		delete(s.byName, old.name)
		s.lastBranch = nil
		for i, b := range s.branches {
			if b == old {
				s.branches = append(s.branches[:i], s.branches[i+1:]...)
				break
			}
		}
	}
	s.active = name
	if s.byName[name] == nil {
		s.addBranch(name, s.cursor)
	}
}

// trimNumberSuffix removes a final "-<digits>" from name ("main-2" gives
// "main"); a name without one is returned as it is. (A loop rather than
// regexp, which cost about 100 KB of wasm.)
func trimNumberSuffix(name string) string {
	i := len(name)
	for i > 0 && name[i-1] >= '0' && name[i-1] <= '9' {
		i--
	}
	if i < len(name) && i > 0 && name[i-1] == '-' {
		return name[:i-1]
	}
	return name
}

// autoBranchName derives a new, unused branch name from name: "main" gives
// "main-2", then "main-3"; "main-2" gives "main-3".
func (s *Session) autoBranchName(name string) string {
	return s.autoBranchNameFrom(name, nil)
}

// autoBranchNameFrom is autoBranchName for a caller that only adds
// branches while it runs (the import builder): next, when not nil, keeps
// per base name the suffix to try first, so a conversation with 1,500
// branches off "main" no longer probes every taken name for each new one
// (12% of a Pi import's time, issue 15). The names are autoBranchName's:
// with no branch removed, every suffix below next[base] stays taken.
func (s *Session) autoBranchNameFrom(name string, next map[string]int) string {
	base := trimNumberSuffix(name)
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
		if candidate := b + suffix; s.byName[candidate] == nil {
			if next != nil {
				next[base] = k + 1
			}
			return candidate
		}
	}
}

// placement says where an append goes: under parent, on branch; newBranch
// is set when the append opens an automatically named branch.
type placement struct {
	parent    int32
	branch    string
	newBranch bool
}

// place decides where the next append goes, without changing anything.
// branch is the request's optional branch ("" for none).
func (s *Session) place(branch string) (placement, *Error) {
	if branch != "" && branch != s.active {
		b := s.byName[branch]
		if b == nil {
			return placement{}, errorf(NotFound, "branch %q does not exist in session %q", branch, s.id)
		}
		if b.tip >= 0 {
			return placement{parent: b.tip, branch: branch}, nil
		}
		return placement{parent: b.base, branch: branch}, nil
	}
	b := s.byName[s.active]
	if b == nil || b.count == 0 {
		return placement{parent: s.cursor, branch: s.active}, nil
	}
	if b.tip == s.cursor {
		return placement{parent: s.cursor, branch: s.active}, nil
	}
	return placement{parent: s.cursor, branch: s.autoBranchName(s.active), newBranch: true}, nil
}

// add appends n (already validated, ID set, ParentID and Branch to be set
// from p) and moves the cursor and active branch to it.
func (s *Session) add(n *Node, p placement) {
	if p.parent >= 0 {
		n.ParentID = s.nodes[p.parent].ID
	} else {
		n.ParentID = ""
	}
	n.Branch = p.branch
	if p.newBranch {
		s.addBranch(p.branch, p.parent)
	}
	s.push(n, p.parent)
	s.cursor = int32(len(s.nodes) - 1)
	s.setActive(p.branch)
}

// push appends a node whose parent index is known and updates the derived
// tables (depth, children, leaves, branch). It does not move the cursor.
func (s *Session) push(n *Node, parent int32) {
	i := int32(len(s.nodes))
	s.nodes = append(s.nodes, n)
	s.index[n.ID] = i
	s.parent = append(s.parent, parent)
	d := int32(1)
	if parent >= 0 {
		d = s.depth[parent] + 1
		if s.children[parent] == 0 {
			s.leaves--
		}
		s.children[parent]++
	}
	s.depth = append(s.depth, d)
	s.children = append(s.children, 0)
	s.leaves++
	b := s.lastBranch
	if b == nil || b.name != n.Branch {
		if b = s.byName[n.Branch]; b == nil {
			b = s.addBranch(n.Branch, parent)
		}
		s.lastBranch = b
	}
	if b.count == 0 {
		b.base = parent
	}
	b.count++
	b.tip = i
}

// path returns the node indexes from a root to i, root first.
//
//go:noinline // called once per operation; inlined copies cost wasm size
func (s *Session) path(i int32) []int32 {
	if i < 0 {
		return nil
	}
	out := make([]int32, s.depth[i])
	for k := len(out) - 1; i >= 0 && k >= 0; k-- {
		out[k] = i
		i = s.parent[i]
	}
	return out
}

// contextPath is path(i) for a context: when the last context's path is
// a prefix of i's path (a chat turn: an append, then a context), only the
// nodes after it are walked, and they are appended to it in place (the
// walk of a 100,000-deep path was most of a turn's time in core). Nodes
// and their parents never change, so a path stays the path; a caller of
// an earlier answer holds a slice of its own length, and no element
// before the end of memo's path is written again. The caller must not
// change the slice. memo is the path the last context of s walked (kept
// by the store's view caches); nil walks the path afresh.
func (s *Session) contextPath(i int32, memo *pathMemo) []int32 {
	if memo == nil {
		return s.path(i)
	}
	last := memo.path
	n := int32(len(last))
	if i < 0 || n == 0 || s.depth[i] < n {
		memo.path = s.path(i)
		return memo.path
	}
	added := s.depth[i] - n
	j := i
	for k := int32(0); k < added; k++ {
		j = s.parent[j]
	}
	if j != last[n-1] {
		memo.path = s.path(i)
		return memo.path
	}
	out := slices.Grow(last, int(added))[:s.depth[i]]
	for k := s.depth[i] - 1; k >= n; k-- {
		out[k] = i
		i = s.parent[i]
	}
	memo.path = out
	return out
}

// node returns the node with id, or NODE_NOT_FOUND.
func (s *Session) lookup(id string) (int32, *Error) {
	if i, ok := s.index[id]; ok {
		return i, nil
	}
	return -1, errorf(NodeNotFound, "node %q is not in session %q", id, s.id)
}

func (s *Session) nodeID(i int32) string {
	if i < 0 {
		return ""
	}
	return s.nodes[i].ID
}

// clone returns a deep copy of the session's structure under a new id.
// Nodes are immutable once added, so the copy shares them.
func (s *Session) clone(id, now string) *Session {
	c := &Session{
		id:        id,
		title:     s.title,
		createdAt: now,
		updatedAt: now,
		nodes:     append([]*Node(nil), s.nodes...),
		index:     make(map[string]int32, len(s.index)),
		parent:    append([]int32(nil), s.parent...),
		depth:     append([]int32(nil), s.depth...),
		children:  append([]int32(nil), s.children...),
		leaves:    s.leaves,
		cursor:    s.cursor,
		active:    s.active,
		byName:    make(map[string]*branchInfo, len(s.byName)),
		preferred: -1,
	}
	for k, v := range s.index {
		c.index[k] = v
	}
	for _, b := range s.branches {
		cb := *b
		c.branches = append(c.branches, &cb)
		c.byName[cb.name] = &cb
	}
	c.copyAnnotations(s)
	return c
}

// pageStub is what a paged-out session keeps of the session it stands
// for, beside the Session's own id, title, times and active branch.
type pageStub struct {
	nodeCount int
	cursor    string // "" for none
}
