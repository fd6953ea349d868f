package formats

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chatgptBothWays converts raw with the one-pass reader and with the
// decoding path alone; when raw is valid JSON, its compacted form is also
// read by the one-pass reader told it is valid (validFast) and by the
// decoding path (validSlow). scanned is what the reader of a conversation
// in place (Importer.Scan) made of raw as an array's only element, nil
// when it left raw to the others.
func chatgptBothWays(t testing.TB, raw []byte) (fast, slow, validFast, validSlow, scanned []any) {
	convert := func(raw []byte, valid bool) []any {
		c, w, skip := convertChatGPTConversation(stubModel, raw, 3, valid)
		return []any{withoutHints(t, c), w, skip}
	}
	fast = convert(raw, false)
	arr := ArrayReader{Scanner: jsonx.Scanner{Data: append(append([]byte("[ "), raw...), " ]"...)}}
	if arr.Start() == nil && arr.NextScanned(func(sc *jsonx.Scanner) (ok bool) {
		var c Conversation
		var w []Warning
		c, w, ok = scanChatGPTConversation(stubModel, sc, 3)
		scanned = []any{c, w, c.Skip}
		return ok
	}) {
		// What follows the element is the array reader's to check (an
		// import of [raw] fails when it finds more than "]").
		if end, _, err := arr.Next(); end != nil || err != nil {
			scanned = nil
		} else if !jsonx.Valid(raw) {
			t.Fatalf("the reader in place took %q, which is not valid JSON", raw)
		} else {
			scanned[0] = withoutHints(t, withoutSkip(scanned[0].(Conversation)))
		}
	} else {
		scanned = nil
	}
	var compact []byte
	if jsonx.Valid(raw) {
		compact = jsonx.CompactBytes(raw)
		validFast = convert(compact, true)
	}
	decode := func(raw []byte) []any {
		c, w, skip := decodeChatGPTConversation(stubModel, raw, 3)
		return []any{withoutHints(t, c), w, skip}
	}
	slow = decode(raw)
	if compact != nil {
		validSlow = decode(compact)
	}
	return fast, slow, validFast, validSlow, scanned
}

// withoutHints checks the records' NoUEscape (a hint only one path
// gives: when set, Source holds no lone surrogate escape) and clears it.
func withoutHints(t testing.TB, c Conversation) Conversation {
	recs := slices.Clone(c.Records)
	for i := range recs {
		if recs[i].NoUEscape && jsonx.LoneSurrogate(recs[i].Source) >= 0 {
			t.Fatalf("record %q says it has no \\u escape, but its source has a lone surrogate: %s", recs[i].ID, recs[i].Source)
		}
		recs[i].NoUEscape = false
	}
	c.Records = recs
	return c
}

// withoutSkip is c with Skip cleared (convertChatGPTConversation returns
// the reason beside the conversation).
func withoutSkip(c Conversation) Conversation {
	c.Skip = ""
	return c
}

// chatgptShapes are conversations the one-pass reader must read as the
// decoding path does, or leave to it: the common shape and its edges.
var chatgptShapes = []string{
	`{"id":"c1","title":"T","current_node":"b","mapping":{"r":{"id":"r","parent":null,"message":null,"children":["a"]},"a":{"id":"a","parent":"r","children":["b","x"],"message":{"id":"a","author":{"role":"user"},"create_time":1,"content":{"content_type":"text","parts":["hi \"there\"\n\u00e9"]}}},"b":{"id":"b","parent":"a","message":{"id":"b","author":{"role":"assistant","name":null},"create_time":2.5,"content":{"content_type":"text","parts":["yo","second part"]}}}}}`,
	`{"title":"no id","create_time":1700000000.5,"mapping":{"r":{"id":"r","message":null},"a":{"parent":"r","message":{"author":{"role":"user"},"content":{"content_type":"text","parts":[]}}}}}`,
	`{"id":"c2","mapping":null}`,
	`{"id":"c3"}`,
	`{"id":"c4","mapping":{}}`,
	`{"id":"c5","Title":"case","mapping":{"a":{"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["x"]}}}}}`,
	`{"id":"c6","mapping":{"a":{"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["x"]}}},"a":{"message":null}}}`,
	`{"id":"c7","mapping":{"a":{"id":5,"message":null}}}`,
	`{"id":"c8","mapping":{"a":{"message":{"author":{"role":"tool","name":"browser"},"create_time":"x","content":{"content_type":"text","parts":["x"]}}}}}`,
	`{"id":"c9","mapping":{"a":{"message":{"author":{"role":"tool","name":"browser"},"content":{"content_type":"text","parts":["x",{"content_type":"image_asset_pointer","asset_pointer":"file://a"}]}}}}}`,
	`{"id":"c10","mapping":{"a":{"message":{"author":{"role":"user"},"content":{"content_type":"user_editable_context","user_profile":"p","user_instructions":"i"}}}}}`,
	`{"id":"c11","mapping":{"a":{"message":{"author":null,"content":{"content_type":"text","parts":["x"]}}},"b":{"parent":"a","message":{"author":{},"content":"plain"}}}}`,
	`{"id":"c12","mapping":{"a":{"children":[null],"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["x"],"text":5}}}}}`,
	`{"id":"c13","create_time":1e400,"mapping":{}}`,
	`{"id":"c14","mapping":{"a":{"message":{"author":{"role":"user"},"content":{"content_type":"code","text":"print(1)","parts":null}}}}}`,
	`{"id":"c15","mapping":{"a":{"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["line\u2028sep","\b\f\/"]}}}}}`,
	"{\"id\":\"c16\",\"mapping\":{\"a\":{\"message\":{\"author\":{\"role\":\"user\"},\"content\":{\"content_type\":\"text\",\"parts\":[\"bad \xff byte\"]}}}}}",
	`{ "id" : "c17", "mapping" : { "a" : { "parent" : null , "message" : { "author" : { "role" : "user" } , "content" : { "content_type" : "text" , "parts" : [ "spaced" ] } } } } }`,
	`{"id":"c18","mapping":{"a":{"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["x"]}},"children":["missing"]},"b":{"parent":"zz","message":5}}}`,
	`{"id":"c19","current_node":"r","mapping":{"r":{"message":null,"parent":"a"},"a":{"parent":"r","message":{"author":{"role":"user"},"content":{"Content_Type":"text","parts":["x"]}}}}}`,
	`{"id":"c20","mapping":{"a":{"message":{"author":{"role":"user","Role":"x"},"content":{"content_type":"text","parts":["x"]}}}}}`,
	`{"id":"c21","mapping":{"a":{"message":{"author":{"role":"user"},"content":{"content_type":null,"parts":["x"]}}}}}`,
	`{"id":"c22","mapping":{"a":{"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["x"]}}}}`,
}

func TestTheOnePassChatGPTReaderMatchesTheDecodingPath(t *testing.T) {
	for i, shape := range chatgptShapes {
		fast, slow, validFast, validSlow, scanned := chatgptBothWays(t, []byte(shape))
		assert.Equal(t, slow, fast, "shape %d: %s", i, shape)
		assert.Equal(t, validSlow, validFast, "shape %d compacted, told it is valid: %s", i, shape)
		if scanned != nil {
			assert.Equal(t, slow, scanned, "shape %d read in place: %s", i, shape)
		}
	}
	_, _, _, _, scanned := chatgptBothWays(t, []byte(chatgptShapes[0]))
	assert.NotNil(t, scanned, "the common shape is read in place")
	_, _, _, _, scanned = chatgptBothWays(t, []byte(chatgptShapes[17]))
	assert.NotNil(t, scanned, "a spaced conversation is read in place")
	_, _, _, _, scanned = chatgptBothWays(t, []byte(chatgptShapes[16]))
	assert.Nil(t, scanned, "bytes that are not UTF-8 are left to the decoding path")
	_, _, _, _, scanned = chatgptBothWays(t, []byte(chatgptShapes[len(chatgptShapes)-1]))
	assert.Nil(t, scanned, "bad syntax is left to the array reader")
	_, ok := readChatGPTFast([]byte(chatgptShapes[0]), false)
	assert.True(t, ok, "the common shape is read in one pass")
	_, ok = readChatGPTFast([]byte(chatgptShapes[5]), false)
	assert.False(t, ok, "a key that matches a field only ignoring case is left to the decoding path")
	// The ChatGPT fixtures (core's testdata/fixtures), each conversation alone.
	files, _ := filepath.Glob("../../testdata/fixtures/*/*.json")
	require.NotEmpty(t, files, "core/testdata/fixtures is missing")
	n := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		sc := jsonx.Scanner{Data: data}
		_ = sc.Elements(func(_ int, raw []byte, _ bool) error {
			if f, err := RawFields(raw); err == nil && f["mapping"] != nil {
				fast, slow, validFast, validSlow, scanned := chatgptBothWays(t, raw)
				assert.Equal(t, slow, fast, "a conversation of %s", file)
				assert.Equal(t, validSlow, validFast, "a conversation of %s, compacted", file)
				if scanned != nil {
					assert.Equal(t, slow, scanned, "a conversation of %s, read in place", file)
				}
				n++
			}
			return nil
		})
	}
	assert.Greater(t, n, 3, "conversations compared from the fixtures")
}

func FuzzChatGPTOnePass(f *testing.F) {
	for _, shape := range chatgptShapes {
		f.Add([]byte(shape))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if len(raw) == 0 || raw[0] != '{' {
			return
		}
		fast, slow, validFast, validSlow, scanned := chatgptBothWays(t, raw)
		if !assert.ObjectsAreEqual(slow, fast) {
			t.Fatalf("the one-pass reader and the decoding path differ on %q:\n%v\n%v", raw, fast, slow)
		}
		if !assert.ObjectsAreEqual(validSlow, validFast) {
			t.Fatalf("told the input is valid, the one-pass reader and the decoding path differ on %q:\n%v\n%v", raw, validFast, validSlow)
		}
		if scanned != nil && !assert.ObjectsAreEqual(slow, scanned) {
			t.Fatalf("the reader in place and the decoding path differ on %q:\n%v\n%v", raw, scanned, slow)
		}
	})
}
