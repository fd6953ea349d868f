package tree

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/sessiontree/sessiontree/core/internal/names"
)

// Annotation kinds. Annotations are records about nodes kept beside them:
// append-only (a newer record about the same thing wins; nothing is
// rewritten), never model-visible, and not nodes (so node counts, paths and
// context are unchanged by them).
const (
	// AnnotationLabel names a node: {"kind":"label","nodeId":…,"label":…};
	// an empty label clears the node's label.
	AnnotationLabel = "label"
	// AnnotationHide hides (or shows again) a node's subtree in default
	// views: {"kind":"hide","nodeId":…,"hidden":bool}. Nothing is deleted:
	// hidden nodes stay in list (flagged), context, search and snapshots.
	AnnotationHide = "hide"
	// AnnotationPrefer marks the root→node path as the session's preferred
	// path: {"kind":"prefer","nodeId":…|null}; null clears the mark.
	AnnotationPrefer = "prefer"
	// AnnotationTitle renames the session: {"kind":"title","nodeId":null,
	// "title":…}; the newest one is the session's title ("" clears it).
	// It names no node (see core/rename.go).
	AnnotationTitle = "title"
	// AnnotationSource (source.go) names the session this one was made
	// from: {"kind":"source","nodeId":null,"sourceSessionId":…,
	// "sourceNodeId":…|null,"via":…}.

	// AnnotationImport records where the file's own cursor was when an
	// import of the session's source read it: {"kind":"import",
	// "nodeId":…}, timestamped with that node's time. The newest one tells
	// the next import of that source whether the user moved the cursor
	// since (importer/import_merge.go).
	AnnotationImport = "import"
)

// Annotation is one annotation record, in the shape a snapshot carries in
// its top-level "annotations" array:
//
//	{"kind":"label","nodeId":…,"label":…,"timestamp":…}
//	{"kind":"hide","nodeId":…,"hidden":bool,"timestamp":…}
//	{"kind":"prefer","nodeId":…|null,"timestamp":…}
//	{"kind":"title","nodeId":null,"title":…,"timestamp":…}
//	{"kind":"source","nodeId":null,"sourceSessionId":…,"sourceNodeId":…|null,"via":…,"timestamp":…}
//	{"kind":"import","nodeId":…,"timestamp":…}
type Annotation struct {
	Kind      string
	NodeID    string // "" for a title or source record, or a prefer record that clears the mark
	Label     string
	Title     string
	Hidden    bool
	Timestamp string
	// SourceSession, SourceNode ("" for none) and Via: a source record's
	// (see source.go).
	SourceSession, SourceNode, Via string
}

// AppendJSON appends the annotation's JSON encoding (the bytes
// encoding/json gives for it) to b and returns the extended buffer.
func (a *Annotation) AppendJSON(b []byte) []byte {
	b = append(b, `{"kind":`...)
	b = jsonx.AppendString(b, a.Kind)
	b = append(b, `,"nodeId":`...)
	b = jsonx.AppendNullableString(b, a.NodeID)
	switch a.Kind {
	case AnnotationLabel:
		b = append(b, `,"label":`...)
		b = jsonx.AppendString(b, a.Label)
	case AnnotationHide:
		b = append(b, `,"hidden":`...)
		b = jsonx.AppendBool(b, a.Hidden)
	case AnnotationTitle:
		b = append(b, `,"title":`...)
		b = jsonx.AppendString(b, a.Title)
	case AnnotationSource:
		b = a.appendSourceJSON(b)
	}
	b = append(b, `,"timestamp":`...)
	b = jsonx.AppendString(b, a.Timestamp)
	return append(b, '}')
}

// Annotate records a (whose node exists) and updates the derived marks.
func (s *Session) Annotate(a *Annotation) {
	s.Annotations = append(s.Annotations, a)
	i := int32(-1)
	if a.NodeID != "" {
		i = s.Index[a.NodeID]
	}
	switch a.Kind {
	case AnnotationLabel:
		if a.Label == "" {
			delete(s.Labels, i)
		} else {
			if s.Labels == nil {
				s.Labels = make(map[int32]string)
			}
			s.Labels[i] = a.Label
		}
	case AnnotationHide:
		if !a.Hidden {
			delete(s.hiddenRoots, i)
		} else {
			if s.hiddenRoots == nil {
				s.hiddenRoots = make(map[int32]bool)
			}
			s.hiddenRoots[i] = true
		}
	case AnnotationPrefer:
		s.Preferred = i
	case AnnotationTitle:
		s.Title = a.Title
	case AnnotationSource:
		s.Source = &SourceLink{SessionID: a.SourceSession, NodeID: a.SourceNode, Via: a.Via}
	case AnnotationImport:
		s.LastImport = a.NodeID
	}
}

// Label returns the node's label ("" when none).
func (s *Session) Label(nodeID string) string {
	if i, ok := s.Index[nodeID]; ok {
		return s.Labels[i]
	}
	return ""
}

// isHidden reports whether node i is hidden (itself or by an ancestor).
func (s *Session) isHidden(i int32) bool {
	for ; i >= 0 && len(s.hiddenRoots) > 0; i = s.Parent[i] {
		if s.hiddenRoots[i] {
			return true
		}
	}
	return false
}

// Marks is the value of label, hide and prefer: the node's annotations
// after the call. Hidden is true when the node or an ancestor is hidden;
// Preferred when the node is on the preferred path.
type Marks struct {
	SessionID string  `json:"sessionId"`
	NodeID    *string `json:"nodeId"`
	Label     *string `json:"label"`
	Hidden    bool    `json:"hidden"`
	Preferred bool    `json:"preferred"`
	// PreferredNode is the end of the preferred path (null when none).
	PreferredNode *string `json:"preferredNode"`
}

// Marks returns node i's marks (its label, hidden, preferred) and the
// session's preferred node; i < 0 gives the session's alone.
func (s *Session) Marks(i int32) Marks {
	m := Marks{SessionID: s.id, PreferredNode: Nullable(s.NodeID(s.Preferred))}
	if i < 0 {
		return m
	}
	m.NodeID = Nullable(s.Nodes[i].ID)
	if l, ok := s.Labels[i]; ok {
		m.Label = &l
	}
	m.Hidden = s.isHidden(i)
	m.Preferred = s.Preferred >= 0 && s.IsAncestor(i, s.Preferred)
	return m
}

// appendAnnotations appends `,"annotations":[…]` when s has any.
func (s *Session) appendAnnotations(b []byte) []byte {
	if len(s.Annotations) == 0 {
		return b
	}
	b = append(b, `,"annotations":[`...)
	for k, a := range s.Annotations {
		if k > 0 {
			b = append(b, ',')
		}
		b = a.AppendJSON(b)
	}
	return append(b, ']')
}

// parseAnnotations validates a snapshot's "annotations" array against the
// session's nodes and records them in order.
func (s *Session) parseAnnotations(raw []byte) *Error {
	if len(raw) == 0 || raw[0] != '[' {
		return SnapshotFault("field \"annotations\" must be an array")
	}
	sc := jsonx.Scanner{Data: raw}
	perr := sc.Elements(func(k int, v []byte, _ bool) error {
		a, err := s.ParseAnnotation(v, k)
		if err != nil {
			return err
		}
		s.Annotate(a)
		return nil
	})
	if perr != nil {
		if e, ok := perr.(*Error); ok {
			return e
		}
		return SnapshotFault("field \"annotations\" is not valid JSON: %s", jsonx.ErrorText(perr))
	}
	return nil
}

// ParseAnnotation reads raw, the k-th member of a snapshot's
// "annotations" array, against s's nodes. A fault is INVALID_SNAPSHOT
// naming annotations[k] and the field.
func (s *Session) ParseAnnotation(raw []byte, k int) (*Annotation, *Error) {
	at := jsonx.Sprintf("annotations[%d]", k)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, SnapshotFault("%s must be an object", at)
	}
	var f struct{ kind, nodeID, label, hidden, title, timestamp, srcSession, srcNode, via []byte }
	var unknown string
	sc := jsonx.Scanner{Data: raw}
	_ = sc.Members(func(key string, v []byte, _ bool) error {
		switch key {
		case "kind":
			f.kind = v
		case "nodeId":
			f.nodeID = v
		case "label":
			f.label = v
		case "hidden":
			f.hidden = v
		case "title":
			f.title = v
		case "timestamp":
			f.timestamp = v
		case "sourceSessionId":
			f.srcSession = v
		case "sourceNodeId":
			f.srcNode = v
		case "via":
			f.via = v
		default:
			if unknown == "" {
				unknown = key
			}
		}
		return nil
	})
	if unknown != "" {
		return nil, SnapshotFault("%s has unknown field %q", at, unknown)
	}
	if err := loneFault(at, namedRaw{"nodeId", f.nodeID}, namedRaw{"label", f.label}, namedRaw{"title", f.title},
		namedRaw{"sourceSessionId", f.srcSession}, namedRaw{"sourceNodeId", f.srcNode}); err != nil {
		return nil, err // as a snapshot's own names (topFields)
	}
	kind, _, _ := nodeField(f.kind)
	a := &Annotation{Kind: kind}
	switch kind {
	case AnnotationLabel:
		label, present, ok := nodeField(f.label)
		if !present || !ok || CheckLabel(label) != nil {
			return nil, SnapshotFault("%s needs a label string of at most 1000 characters without control characters", at)
		}
		a.Label = label
	case AnnotationHide:
		switch string(f.hidden) {
		case "true":
			a.Hidden = true
		case "false":
		default:
			return nil, SnapshotFault("%s needs \"hidden\": true or false", at)
		}
	case AnnotationPrefer, AnnotationImport:
	case AnnotationTitle:
		title, present, ok := nodeField(f.title)
		if !present || !ok || CheckTitle(title) != nil {
			return nil, SnapshotFault("%s needs a title string of at most %d characters without control characters", at, MaxTitleLength)
		}
		a.Title = title
	case AnnotationSource:
		if err := a.parseSource(f.srcSession, f.srcNode, f.via, at); err != nil {
			return nil, err
		}
	default:
		return nil, SnapshotFault("%s has a bad kind %q (known: label, hide, prefer, title, source, import)", at, kind)
	}
	if kind != AnnotationLabel && f.label != nil || kind != AnnotationHide && f.hidden != nil || kind != AnnotationTitle && f.title != nil ||
		sourceMembersOnly(kind, f.srcSession, f.srcNode, f.via) {
		return nil, SnapshotFault("%s has a field that a %s annotation does not have", at, kind)
	}
	id, present, ok := nodeField(f.nodeID)
	sessionWide := kind == AnnotationTitle || kind == AnnotationSource
	if !ok || (!present && kind != AnnotationPrefer && !sessionWide) || (present && sessionWide) {
		if sessionWide {
			return nil, SnapshotFault("%s needs \"nodeId\": null (a %s names the session, not a node)", at, kind)
		}
		return nil, SnapshotFault("%s needs a nodeId", at)
	}
	if present {
		if _, found := s.Index[id]; !found {
			return nil, SnapshotFault("%s names node %q, which is not in the snapshot", at, id)
		}
	}
	a.NodeID = id
	ts, _, ok := nodeField(f.timestamp)
	if !ok || !names.ValidTimestamp(ts) {
		return nil, SnapshotFault("%s has a bad timestamp: it must be an RFC 3339 string", at)
	}
	a.Timestamp = ts
	return a, nil
}

// copyAnnotations records on f the annotations of src whose node is in f,
// in order, but for src's source and import records (f names its own
// source, and no import of src's file goes to f).
func (f *Session) copyAnnotations(src *Session) {
	for _, a := range src.Annotations {
		if a.Kind == AnnotationSource || a.Kind == AnnotationImport {
			continue
		}
		if _, ok := f.Index[a.NodeID]; ok || a.NodeID == "" {
			f.Annotate(a)
		}
	}
}

// validText reports whether s is valid UTF-8 of at most max characters
// without control characters.
func validText(s string, max int) bool {
	if !utf8.ValidString(s) || utf8.RuneCountInString(s) > max {
		return false
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return false
		}
	}
	return true
}

// MaxTitleLength is the longest session title rename takes, in characters.
const MaxTitleLength = 1000

// CheckTitle limits a title to MaxTitleLength characters of valid text
// without control characters ("" is allowed: no title).
func CheckTitle(title string) *Error {
	if title != "" && !validText(title, MaxTitleLength) {
		return Invalidf("field \"title\" must be at most %d characters without control characters", MaxTitleLength)
	}
	return nil
}

// TidyTitle returns an imported title as rename would take it: each run
// of control characters (a newline, a tab, U+0007) and white space around
// them one space, the ends trimmed, and at most MaxTitleLength characters
// (the last "…"). An export's title is kept, not refused: a ChatGPT title
// of 2,005 characters holding a bell character was stored as it was,
// and renaming to it was refused.
func TidyTitle(title string) string {
	if validText(title, MaxTitleLength) && strings.TrimSpace(title) == title {
		return title
	}
	var b strings.Builder
	space := false
	for _, r := range strings.ToValidUTF8(title, "\uFFFD") {
		if unicode.IsControl(r) || unicode.IsSpace(r) {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	out := b.String()
	if utf8.RuneCountInString(out) > MaxTitleLength {
		n := 0
		for i := range out {
			if n == MaxTitleLength-1 {
				return strings.TrimRight(out[:i], " ") + "…"
			}
			n++
		}
	}
	return out
}

// CheckLabel limits a label to 1,000 characters of valid text without
// control characters.
func CheckLabel(label string) *Error {
	if label != "" && !validText(label, 1000) {
		return Invalidf("field \"label\" must be at most 1000 characters without control characters")
	}
	return nil
}
