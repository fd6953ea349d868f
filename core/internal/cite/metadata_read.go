package cite

import "github.com/sessiontree/sessiontree/core/internal/jsonx"

// Reading a ChatGPT message's metadata field by field, with jsonx's narrow
// readers and Unmarshal's rules (a misfit leaves its field and is
// reported; the rest is read all the same).

// The keys of each record's fields, in the order of its read's switch.
var (
	metadataFields   = []string{"content_references", "search_result_groups", "citations"}
	contentRefFields = []string{"matched_text", "items", "safe_urls"}
	entriesField     = []string{"entries"}
	pageFields       = []string{"title", "url", "attribution", "refs", "ref_id", "metadata", "start_ix"}
	refFields        = []string{"turn_index", "ref_type", "ref_index"}
)

// readMetadata reads raw metadata whole; when a field of it has another
// shape, each of the three fields is read on its own (by its exact key),
// so that one of another shape does not lose the others. Text that is not
// JSON (or nested deeper than jsonx.MaxDepth) gives no metadata.
func readMetadata(raw []byte) metadata {
	var m metadata
	if len(raw) == 0 || jsonx.CheckSyntax(raw) != nil {
		return m
	}
	if jsonx.IsNull(raw) || m.read(raw) {
		return m
	}
	m = metadata{}
	var fields map[string]jsonx.RawMessage
	if !jsonx.ReadRawMap(raw, &fields) {
		return m
	}
	_ = jsonx.ReadList(fields["content_references"], &m.ContentReferences, readContentRef)
	_ = jsonx.ReadList(fields["search_result_groups"], &m.SearchResultGroups, readResultGroup)
	_ = jsonx.ReadList(fields["citations"], &m.Citations, readPage)
	return m
}

// read reads the metadata object v and reports whether every field fit.
func (m *metadata) read(v []byte) bool {
	ok := true
	ok = jsonx.ReadObject(v, metadataFields, func(field int, v []byte) {
		switch field {
		case 0:
			ok = jsonx.ReadList(v, &m.ContentReferences, readContentRef) && ok
		case 1:
			ok = jsonx.ReadList(v, &m.SearchResultGroups, readResultGroup) && ok
		case 2:
			ok = jsonx.ReadList(v, &m.Citations, readPage) && ok
		}
	}) && ok
	return ok
}

// readContentRef reads a content reference el into c.
func readContentRef(el []byte, c *contentRef) bool {
	ok := true
	ok = jsonx.ReadObject(el, contentRefFields, func(field int, v []byte) {
		switch field {
		case 0:
			ok = jsonx.ReadStringPtr(v, &c.MatchedText) && ok
		case 1:
			ok = jsonx.ReadList(v, &c.Items, readPage) && ok
		case 2:
			ok = jsonx.ReadStrings(v, &c.SafeURLs) && ok
		}
	}) && ok
	return ok
}

// readResultGroup reads a search result group el into g.
func readResultGroup(el []byte, g *resultGroup) bool {
	ok := true
	ok = jsonx.ReadObject(el, entriesField, func(_ int, v []byte) {
		ok = jsonx.ReadList(v, &g.Entries, readPage) && ok
	}) && ok
	return ok
}

// readPage reads the page el into p. A page's "metadata" is a page too,
// nested to any depth: they are read a level at a time, in a loop, each
// level's values (every "metadata" member of the level above, in order:
// Unmarshal reads a repeated key into the same page, and null clears it)
// into that level's page.
func readPage(el []byte, p *page) bool {
	ok := true
	level := [][]byte{el}
	for cur := p; len(level) > 0; cur = cur.Meta {
		var next [][]byte
		for _, v := range level {
			if jsonx.IsNull(v) {
				continue
			}
			ok = jsonx.ReadObject(v, pageFields, func(field int, v []byte) {
				switch field {
				case 0:
					ok = jsonx.ReadString(v, &cur.Title) && ok
				case 1:
					ok = jsonx.ReadString(v, &cur.URL) && ok
				case 2:
					ok = jsonx.ReadString(v, &cur.Attribution) && ok
				case 3:
					ok = jsonx.ReadList(v, &cur.Refs, readRef) && ok
				case 4:
					ok = readRefPtr(v, &cur.RefID) && ok
				case 5:
					if jsonx.IsNull(v) {
						cur.Meta, next = nil, next[:0]
						return
					}
					if cur.Meta == nil {
						cur.Meta = &page{}
					}
					next = append(next, v)
				case 6:
					ok = jsonx.ReadFloat(v, &cur.StartIx) && ok
				}
			}) && ok
		}
		level = next
	}
	return ok
}

// readRefPtr reads a ref_id: null clears it, anything else is read into
// the ref (allocated when nil).
func readRefPtr(v []byte, r **ref) bool {
	if jsonx.IsNull(v) {
		*r = nil
		return true
	}
	if *r == nil {
		*r = &ref{}
	}
	return readRef(v, *r)
}

// readRef reads a ref el into r.
func readRef(el []byte, r *ref) bool {
	ok := true
	ok = jsonx.ReadObject(el, refFields, func(field int, v []byte) {
		switch field {
		case 0:
			r.TurnIndex = v
		case 1:
			ok = jsonx.ReadString(v, &r.RefType) && ok
		case 2:
			r.RefIndex = v
		}
	}) && ok
	return ok
}
