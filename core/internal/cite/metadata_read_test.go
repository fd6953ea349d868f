package cite

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/stretchr/testify/assert"
)

// The metadata readers are held to the tagged structs and the two-step
// decode (whole, else field by field) they replaced.

type pageTagged struct {
	Title       string      `json:"title"`
	URL         string      `json:"url"`
	Attribution string      `json:"attribution"`
	Refs        []refTagged `json:"refs"`
	RefID       *refTagged  `json:"ref_id"`
	Meta        *pageTagged `json:"metadata"`
	StartIx     float64     `json:"start_ix"`
}

type refTagged struct {
	TurnIndex jsonx.RawMessage `json:"turn_index"`
	RefType   string           `json:"ref_type"`
	RefIndex  jsonx.RawMessage `json:"ref_index"`
}

type metadataTagged struct {
	ContentReferences []struct {
		MatchedText *string      `json:"matched_text"`
		Items       []pageTagged `json:"items"`
		SafeURLs    []string     `json:"safe_urls"`
	} `json:"content_references"`
	SearchResultGroups []struct {
		Entries []pageTagged `json:"entries"`
	} `json:"search_result_groups"`
	Citations []pageTagged `json:"citations"`
}

// oldMetadata is readIndex's decode before the narrow readers.
func oldMetadata(raw []byte) metadataTagged {
	var m metadataTagged
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil {
		m = metadataTagged{}
		var fields map[string]jsonx.RawMessage
		if len(raw) == 0 || json.Unmarshal(raw, &fields) != nil {
			return m
		}
		_ = json.Unmarshal(fields["content_references"], &m.ContentReferences)
		_ = json.Unmarshal(fields["search_result_groups"], &m.SearchResultGroups)
		_ = json.Unmarshal(fields["citations"], &m.Citations)
	}
	return m
}

func TestMetadataReadsAsTheTaggedStructs(t *testing.T) {
	inputs := []string{testMetadata, ``, `null`, `[]`, `"x"`, `{}`, `{"citations":null}`, `{`,
		`{"Citations":[{"start_ix":5,"metadata":{"title":"t","url":"https://a.example","metadata":{"title":1}}},{"start_ix":1}]}`,
		`{"Citations":[{"start_ix":5}],"content_references":5}`,
		`{"citations":[{"metadata":{"title":"a"},"metadata":{"url":"u"}}]}`,
		`{"citations":[{"metadata":{"title":"a"},"metadata":null,"metadata":{"url":"u"}}]}`,
		`{"citations":[{"metadata":"x"}],"search_result_groups":[{"entries":[{"ref_id":{"turn_index":1,"ref_type":2}}]}]}`,
		`{"content_references":[{"matched_text":"m","items":[{"url":"https://b","refs":[{"turn_index":0},7]}],"safe_urls":["https://c",1]},null,3]}`,
		`{"content_references":[{"matched_text":"a"}],"content_references":[null,{"safe_urls":["u"]}]}`,
		`{"search_result_groups":[{"entries":[{"ref_id":null},{"ref_id":{"ref_type":"search"}}]}],"citations":[{"start_ix":"x"}]}`,
		`{"citations":[{"start_ix":1e400}]}`, `{"citations":[{"metadata":{"metadata":{"metadata":{"url":"deep"}}}}]}`,
		strings.Repeat(`{"metadata":`, 10001) + `{}` + strings.Repeat(`}`, 10001),
	}
	for _, in := range inputs {
		old, err := json.Marshal(oldMetadata([]byte(in)))
		assert.NoError(t, err)
		got := readMetadata([]byte(in))
		gotJSON, err := json.Marshal(metadataJSON(got))
		assert.NoError(t, err)
		assert.JSONEq(t, string(old), string(gotJSON), "metadata %.200s", in)
	}
}

// metadataJSON turns m into metadataTagged through JSON-shaped copies.
func metadataJSON(m metadata) metadataTagged {
	var out metadataTagged
	b, _ := json.Marshal(map[string]any{"content_references": crJSON(m.ContentReferences), "search_result_groups": groupsJSON(m.SearchResultGroups), "citations": pagesJSON(m.Citations)})
	_ = json.Unmarshal(b, &out)
	if m.ContentReferences == nil {
		out.ContentReferences = nil
	}
	if m.SearchResultGroups == nil {
		out.SearchResultGroups = nil
	}
	if m.Citations == nil {
		out.Citations = nil
	}
	return out
}

func crJSON(list []contentRef) any {
	if list == nil {
		return nil
	}
	out := []any{}
	for _, c := range list {
		out = append(out, map[string]any{"matched_text": c.MatchedText, "items": pagesJSON(c.Items), "safe_urls": c.SafeURLs})
	}
	return out
}

func groupsJSON(list []resultGroup) any {
	if list == nil {
		return nil
	}
	out := []any{}
	for _, g := range list {
		out = append(out, map[string]any{"entries": pagesJSON(g.Entries)})
	}
	return out
}

func pagesJSON(list []page) any {
	if list == nil {
		return nil
	}
	out := []any{}
	for i := range list {
		out = append(out, pageJSON(&list[i]))
	}
	return out
}

func pageJSON(p *page) any {
	if p == nil {
		return nil
	}
	var refs any
	if p.Refs != nil {
		rs := []any{}
		for _, r := range p.Refs {
			rs = append(rs, refJSON(&r))
		}
		refs = rs
	}
	var id any
	if p.RefID != nil {
		id = refJSON(p.RefID)
	}
	return map[string]any{"title": p.Title, "url": p.URL, "attribution": p.Attribution, "refs": refs, "ref_id": id, "metadata": pageJSON(p.Meta), "start_ix": p.StartIx}
}

func refJSON(r *ref) any {
	return map[string]any{"turn_index": r.TurnIndex, "ref_type": r.RefType, "ref_index": r.RefIndex}
}

func TestMetadataOfReadsAsTheTaggedRecord(t *testing.T) {
	for _, in := range []string{`{}`, `{"metadata":{"a":1}}`, `{"message":{"metadata":{"b":2}},"metadata":{"a":1}}`,
		`{"message":{"metadata":null}}`, `{"message":null,"metadata":3}`, `{"message":"x","metadata":{"a":1}}`,
		`{"message":{"metadata":{"b":2}},"message":{"content":1}}`, `{"message":{"metadata":{"b":2}},"message":null,"message":{}}`,
		`{"MESSAGE":{"Metadata":[1]}}`, `{"metadata":1} x`, `{"message":{"metadata":1}`} {
		var rec struct {
			Message *struct {
				Metadata jsonx.RawMessage `json:"metadata"`
			} `json:"message"`
			Metadata jsonx.RawMessage `json:"metadata"`
		}
		var want []byte
		if json.Unmarshal([]byte(in), &rec) == nil {
			want = rec.Metadata
			if rec.Message != nil && len(rec.Message.Metadata) > 0 {
				want = rec.Message.Metadata
			}
		}
		assert.Equal(t, string(want), string(MetadataOf([]byte(in))), "MetadataOf(%s)", in)
	}
}

func TestEntityNameReadsTheSecondItem(t *testing.T) {
	for in, want := range map[string]string{`["x","Paris"]`: "Paris", `["x"]`: "", `["x",1]`: "", `["x",null]`: "", `{"a":1}`: "", `["x","a\u00e9"]`: "aé", `["x","y"`: ""} {
		assert.Equal(t, want, entityName(in), "entityName(%s)", in)
	}
}
