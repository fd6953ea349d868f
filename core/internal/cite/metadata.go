package cite

import (
	"cmp"
	"slices"
	"strings"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// index is what a message's metadata says its markers point to.
type index struct {
	byMarker map[string][]Source // a marker's text (matched_text) → its sources
	byRef    map[string]Source   // "turn0search3" → its source
	old      []Source            // metadata.citations in text order
}

// page is a cited page as the metadata's items and entries hold it.
type page struct {
	Title       string
	URL         string
	Attribution string
	Refs        []ref
	RefID       *ref  // ref_id
	Meta        *page // metadata
	StartIx     float64
}

// ref names one search result of a turn.
type ref struct {
	TurnIndex jsonx.RawMessage
	RefType   string
	RefIndex  jsonx.RawMessage
}

func (r ref) key() string {
	return "turn" + string(r.TurnIndex) + r.RefType + string(r.RefIndex)
}

// metadata is the part of a ChatGPT message's metadata index reads.
type metadata struct {
	ContentReferences  []contentRef
	SearchResultGroups []resultGroup
	Citations          []page
}

// contentRef is a content reference: a marker's text and its pages.
type contentRef struct {
	MatchedText *string
	Items       []page
	SafeURLs    []string
}

// resultGroup is a search result group: the pages one search found.
type resultGroup struct {
	Entries []page
}

// readIndex reads raw metadata; a field of another shape is skipped, and
// metadata that is not an object gives an empty index.
func readIndex(raw []byte) index {
	idx := index{byMarker: map[string][]Source{}, byRef: map[string]Source{}}
	m := readMetadata(raw)
	for _, cr := range m.ContentReferences {
		if cr.MatchedText == nil || strings.TrimSpace(*cr.MatchedText) == "" {
			continue
		}
		var list []Source
		for _, it := range cr.Items {
			s, ok := source(it)
			if !ok {
				continue
			}
			list = append(list, s)
			for _, r := range it.Refs {
				idx.byRef[r.key()] = s
			}
		}
		if len(list) == 0 {
			for _, u := range cr.SafeURLs {
				if s, ok := source(page{URL: u}); ok {
					list = append(list, s)
				}
			}
		}
		idx.byMarker[*cr.MatchedText] = list
	}
	for _, g := range m.SearchResultGroups {
		for _, e := range g.Entries {
			if s, ok := source(e); ok && e.RefID != nil {
				if _, seen := idx.byRef[e.RefID.key()]; !seen {
					idx.byRef[e.RefID.key()] = s
				}
			}
		}
	}
	cites := slices.Clone(m.Citations)
	slices.SortStableFunc(cites, func(a, b page) int { return cmp.Compare(a.StartIx, b.StartIx) })
	for _, c := range cites {
		s := Source{}
		if c.Meta != nil {
			s, _ = source(*c.Meta)
		}
		idx.old = append(idx.old, s)
	}
	return idx
}

// source returns a page as a Source, ok false when its URL is not http(s).
func source(p page) (Source, bool) {
	u := strings.TrimSpace(p.URL)
	lower := strings.ToLower(u)
	if !strings.HasPrefix(lower, "http://") && !strings.HasPrefix(lower, "https://") {
		return Source{}, false
	}
	title := strings.TrimSpace(p.Title)
	if title == "" {
		title = p.Attribution
	}
	return Source{Title: title, URL: u, Host: HostOf(u)}, true
}

// HostOf returns the host of an absolute URL ("scheme://host…"), lower
// case, without "www.", user info or port; "" when it has none. (Not
// net/url: it brings fmt into the wasm build.)
func HostOf(raw string) string {
	k := strings.Index(raw, "://")
	if k <= 0 {
		return ""
	}
	rest := raw[k+3:]
	if end := strings.IndexAny(rest, "/?#"); end >= 0 {
		rest = rest[:end]
	}
	if at := strings.LastIndexByte(rest, '@'); at >= 0 {
		rest = rest[at+1:]
	}
	if strings.HasPrefix(rest, "[") {
		if end := strings.IndexByte(rest, ']'); end > 0 {
			return strings.ToLower(rest[1:end])
		}
		return ""
	}
	if colon := strings.LastIndexByte(rest, ':'); colon >= 0 {
		rest = rest[:colon]
	}
	if strings.ContainsAny(rest, " \t\n<>\"") {
		return ""
	}
	return strings.TrimPrefix(strings.ToLower(rest), "www.")
}

// recordFields are the fields MetadataOf reads of a record, metadataField
// the one it reads of its message.
var (
	recordFields  = []string{"message", "metadata"}
	metadataField = []string{"metadata"}
)

// MetadataOf returns the message metadata a node's source record holds: a
// ChatGPT mapping entry's message.metadata, or the record's own metadata;
// nil for none.
func MetadataOf(source []byte) []byte {
	if len(source) == 0 || source[0] != '{' {
		return nil
	}
	if jsonx.CheckSyntax(source) != nil {
		return nil
	}
	var message, meta []byte
	hasMessage, ok := false, true
	ok = jsonx.ReadObject(source, recordFields, func(field int, v []byte) {
		switch {
		case field == 1:
			meta = v
		case jsonx.IsNull(v):
			hasMessage, message = false, nil
		default:
			// A message that is not an object is a misfit (nil); one
			// without metadata keeps what an earlier "message" held.
			hasMessage = true
			ok = jsonx.ReadObject(v, metadataField, func(_ int, v []byte) { message = v }) && ok
		}
	}) && ok
	switch {
	case !ok:
		return nil
	case hasMessage && len(message) > 0:
		return message[:len(message):len(message)]
	}
	return meta[:len(meta):len(meta)]
}
