package formats

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chatgptRecordLine writes a record as "id<parent: message" ("<~" for a
// parent inferred from a children list, "<" alone for a root).
func chatgptRecordLine(r Record) string {
	link := "<"
	if r.Inferred {
		link = "<~"
	}
	return r.ID + link + r.ParentID + ": " + string(r.Message)
}

// chatgptRead is what the reader made of a conversation, as the tests
// compare it.
type chatgptRead struct {
	ID, Title, Current, Skip string
	Unusable                 int
	Records, Warnings        []string
}

// readChatGPTThreeWays reads raw as Item does, again compacted (when it
// is valid JSON) and as Scan does (raw as an array's only element, in
// place), fails the test when they differ, and returns what Item made of
// it.
func readChatGPTThreeWays(t testing.TB, raw []byte) chatgptRead {
	t.Helper()
	read := func(c Conversation, w []Warning, skip string) chatgptRead {
		r := chatgptRead{ID: c.ID, Title: c.Title, Current: c.Current, Skip: skip, Unusable: c.Unusable}
		for _, rec := range c.Records {
			if rec.NoUEscape && jsonx.LoneSurrogate(rec.Source) >= 0 {
				t.Fatalf("record %q says it has no \\u escape, but its source has a lone surrogate: %s", rec.ID, rec.Source)
			}
			r.Records = append(r.Records, chatgptRecordLine(rec))
		}
		for _, x := range w {
			if x.SessionID != c.ID {
				t.Fatalf("warning %q names session %q, not %q", x.Message, x.SessionID, c.ID)
			}
			r.Warnings = append(r.Warnings, x.Message)
		}
		return r
	}
	item := read(convertChatGPTConversation(stubModel, raw, 3))
	if len(raw) == 0 || raw[0] != '{' || !jsonx.Valid(raw) {
		return item // Item's alone: not a conversation, or bad syntax
	}
	compact := read(convertChatGPTConversation(stubModel, jsonx.CompactBytes(raw), 3))
	if !assert.ObjectsAreEqual(item, compact) {
		t.Fatalf("compacted, %q gives\n%+v\nnot\n%+v", raw, compact, item)
	}
	arr := ArrayReader{Scanner: jsonx.Scanner{Data: append(append([]byte("[ "), raw...), " ]"...)}}
	require.NoError(t, arr.Start())
	var scanned chatgptRead
	if arr.NextScanned(func(sc *jsonx.Scanner) bool {
		c, w, ok := scanChatGPTConversation(stubModel, sc, 3)
		scanned = read(c, w, c.Skip)
		return ok
	}) {
		if !assert.ObjectsAreEqual(item, scanned) {
			t.Fatalf("read in place, %q gives\n%+v\nnot\n%+v", raw, scanned, item)
		}
	} else {
		t.Fatalf("the reader in place left %q, valid JSON, to the array reader", raw)
	}
	return item
}

// chatgptCases are conversations of every shape the reader meets, with
// what it makes of them.
var chatgptCases = []struct {
	name, raw string
	want      chatgptRead
}{
	{"the common shape links records by parent and warns of a child not in the mapping",
		`{"id":"c1","title":"T","current_node":"b","mapping":{"r":{"id":"r","parent":null,"message":null,"children":["a"]},"a":{"id":"a","parent":"r","children":["b","x"],"message":{"id":"a","author":{"role":"user"},"create_time":1,"content":{"content_type":"text","parts":["hi \"there\"\n\u00e9"]}}},"b":{"id":"b","parent":"a","message":{"id":"b","author":{"role":"assistant","name":null},"create_time":2.5,"content":{"content_type":"text","parts":["yo","second part"]}}}}}`,
		chatgptRead{ID: "c1", Title: "T", Current: "b", Records: []string{
			`a<: {"role":"user","content":"hi \"there\"\né"}`,
			`b<a: {"role":"assistant","content":"yo\nsecond part"}`,
		}, Warnings: []string{
			`conversation "T": message "a" lists child "x", which is not in the mapping; ignored`,
		}}},
	{"a conversation without an id gets one derived from its creation time and roots",
		`{"title":"no id","create_time":1700000000.5,"mapping":{"r":{"id":"r","message":null},"a":{"parent":"r","message":{"author":{"role":"user"},"content":{"content_type":"text","parts":[]}}}}}`,
		chatgptRead{ID: "chatgpt-e79890f4e22566d9", Title: "no id", Records: []string{
			`a<: {"role":"user","content":""}`,
		}}},
	{"a null mapping skips the conversation",
		`{"id":"c2","mapping":null}`,
		chatgptRead{ID: "c2", Skip: `conversation "c2" has no messages (its "mapping" is missing); skipped`}},
	{"a missing mapping skips the conversation",
		`{"id":"c3"}`,
		chatgptRead{ID: "c3", Skip: `conversation "c3" has no messages (its "mapping" is missing); skipped`}},
	{"an empty mapping is an empty session",
		`{"id":"c4","mapping":{}}`,
		chatgptRead{ID: "c4", Warnings: []string{
			`conversation "c4" has no messages; it is an empty session`,
		}}},
	{"keys that match a field only ignoring case are other fields",
		`{"id":"c5","Title":"case","mapping":{"a":{"parent":null,"message":{"Author":{"role":"user"},"author":{"role":"user","Role":"x"},"content":{"Content_Type":"user_editable_context","parts":["x"]}}}}}`,
		chatgptRead{ID: "c5", Records: []string{
			`a<: {"role":"user","content":"x"}`,
		}}},
	{"a field given twice takes its last value, a mapping and an entry included",
		`{"id":"c6","title":"a","title":"b","current_node":"a","current_node":null,"mapping":{"a":{"parent":null,"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["x"]}}}},"mapping":{"b":{"parent":null,"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["y"]}}},"c":{"message":null},"c":{"parent":"b","message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["z"]}}}}}`,
		chatgptRead{ID: "c6", Title: "b", Records: []string{
			`b<: {"role":"user","content":"y"}`,
			`c<b: {"role":"user","content":"z"}`,
		}}},
	{"a link, author, role, time or message given twice takes its last value",
		`{"id":"c7","mapping":{"a":{"parent":null,"parent":"b","message":{"author":{"role":"user","name":"n"},"author":{"role":"tool"},"create_time":1,"create_time":null,"content":{"content_type":"text","parts":["x"]},"content":{"content_type":"code","text":"y"}},"message":null},"b":{"parent":null,"children":["a"],"children":null,"message":{"author":{"role":"user","role":null},"content":"x"}}}}`,
		chatgptRead{ID: "c7", Skip: `conversation "c7": none of its 1 messages could be used; skipped`, Unusable: 1, Warnings: []string{
			`conversation "c7": message "b" has no author role; skipped`,
		}}},
	{"a creation time too large for a float64 is taken as absent, with a warning",
		`{"id":"c8","create_time":1e400,"mapping":{}}`,
		chatgptRead{ID: "c8", Warnings: []string{
			`conversation "c8": its "create_time" is 1e400, too large a number; taken as absent`,
			`conversation "c8" has no messages; it is an empty session`,
		}}},
	{"a mapping that is not an object skips the conversation",
		`{"id":"c9","mapping":"nope"}`,
		chatgptRead{Skip: `conversation 4 could not be read: its "mapping" is a string, not an object; skipped`}},
	{"an id that is not a string skips the conversation",
		`{"id":5,"mapping":{}}`,
		chatgptRead{Skip: `conversation 4 could not be read: its "id" is a number, not a string; skipped`}},
	{"a title, times and current node of another type are taken as absent, with a warning each; the messages are kept",
		`{"id":"c11","title":["x"],"create_time":"2024","update_time":"x","current_node":7,"mapping":{"a":{"parent":null,"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["kept"]}}}}}`,
		chatgptRead{ID: "c11", Records: []string{ // no current node: the newest leaf is chosen later (Conversation.Current "")
			`a<: {"role":"user","content":"kept"}`,
		}, Warnings: []string{
			`conversation "c11": its "title" is an array, not a string; taken as absent`,
			`conversation "c11": its "create_time" is a string, not a number; taken as absent`,
			`conversation "c11": its "update_time" is a string, not a number; taken as absent`,
			`conversation "c11": its "current_node" is a number, not a string; taken as absent`,
		}}},
	{"mapping entries that are not objects are skipped with a warning, a null one is an entry without a message",
		`{"id":"c13","mapping":{"a":"str","b":5,"c":[1],"d":true,"e":null,"f":{"parent":"e","message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["f"]}}}}}`,
		chatgptRead{ID: "c13", Unusable: 4, Records: []string{
			`f<: {"role":"user","content":"f"}`,
		}, Warnings: []string{
			`conversation "c13": mapping entry "a" could not be read (it is a string, not an object); skipped`,
			`conversation "c13": mapping entry "b" could not be read (it is a number, not an object); skipped`,
			`conversation "c13": mapping entry "c" could not be read (it is an array, not an object); skipped`,
			`conversation "c13": mapping entry "d" could not be read (it is a boolean, not an object); skipped`,
		}}},
	{"mapping entries with links of another type are skipped with a warning naming the link",
		`{"id":"c14","mapping":{"a":{"id":5,"message":null},"b":{"parent":5,"message":null},"c":{"children":"x","message":null},"d":{"children":[1],"message":null},"e":{"children":{},"message":null},"f":{"parent":"a","message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["f"]}}}}}`,
		chatgptRead{ID: "c14", Unusable: 5, Records: []string{
			`f<a: {"role":"user","content":"f"}`,
		}, Warnings: []string{
			`conversation "c14": mapping entry "a" could not be read (its "id" is a number, not a string); skipped`,
			`conversation "c14": mapping entry "b" could not be read (its "parent" is a number, not a string); skipped`,
			`conversation "c14": mapping entry "c" could not be read (its "children" is a string, not an array); skipped`,
			`conversation "c14": mapping entry "d" could not be read (its "children" holds a number, not a string); skipped`,
			`conversation "c14": mapping entry "e" could not be read (its "children" is an object, not an array); skipped`,
		}}},
	{"messages of another type, or with fields of another type or no author role, are skipped with a warning naming the field",
		`{"id":"c15","mapping":{"a":{"parent":null,"message":"str"},"b":{"parent":null,"message":[1]},"c":{"parent":null,"message":true},"d":{"parent":null,"message":{"author":"x"}},"e":{"parent":null,"message":{"author":{"role":5}}},"i":{"parent":null,"message":{"author":null,"content":"x"}},"j":{"parent":null,"message":{"author":{},"content":"x"}},"k":{"parent":null,"message":{"author":{"role":""}}}}}`,
		chatgptRead{ID: "c15", Skip: `conversation "c15": none of its 8 messages could be used; skipped`, Unusable: 8, Warnings: []string{
			`conversation "c15": message "a" could not be read: it is a string, not an object; skipped`,
			`conversation "c15": message "b" could not be read: it is an array, not an object; skipped`,
			`conversation "c15": message "c" could not be read: it is a boolean, not an object; skipped`,
			`conversation "c15": message "d" could not be read: its "author" is a string, not an object; skipped`,
			`conversation "c15": message "e" could not be read: its "author.role" is a number, not a string; skipped`,
			`conversation "c15": message "i" has no author role; skipped`,
			`conversation "c15": message "j" has no author role; skipped`,
			`conversation "c15": message "k" has no author role; skipped`,
		}}},
	{"a message whose create_time is not a number, or whose author.name is not a string, is kept (undated, unnamed), with a warning naming the field",
		`{"id":"c15t","mapping":{"g":{"parent":null,"message":{"author":{"role":"user"},"create_time":"1","content":{"content_type":"text","parts":["q"]}}},"h":{"parent":"g","message":{"author":{"role":"assistant"},"create_time":1e999,"content":{"content_type":"text","parts":["r"]}}},"f":{"parent":"h","message":{"author":{"role":"tool","name":{}},"content":{"content_type":"text","parts":["t"]}}}}}`,
		chatgptRead{ID: "c15t", Records: []string{
			`f<h: {"role":"tool","content":"t"}`,
			`g<: {"role":"user","content":"q"}`,
			`h<g: {"role":"assistant","content":"r"}`,
		}, Warnings: []string{
			`conversation "c15t": message "f": its "author.name" is an object, not a string; taken as absent`,
			`conversation "c15t": message "g": its "create_time" is a string, not a number; taken as absent`,
			`conversation "c15t": message "h": its "create_time" is 1e999, too large a number; taken as absent`,
		}}},
	{"parts that are not all strings become typed parts, strings that are empty and values of other types dropped",
		`{"id":"c16","mapping":{"a":{"parent":null,"message":{"author":{"role":"tool","name":"browser"},"content":{"content_type":"multimodal_text","parts":["",null,5,"t",{"type":"x","a":1},{"content_type":"image","b":2},{},{"type":null,"content_type":"k"},{"type":5},{"content_type":5},[1],true, { "content_type" : "spaced" }]}}}}}`,
		chatgptRead{ID: "c16", Records: []string{
			`a<: {"role":"tool","content":[{"type":"text","text":"t"},{"type":"x","a":1},{"type":"image","content_type":"image","b":2},{"type":"unknown"},{"type":"k","type":null,"content_type":"k"},{"type":5},{"type":"unknown","content_type":5},{"type":"spaced","content_type":"spaced"}],"name":"browser"}`,
		}}},
	{"custom instructions become a system message of their profile and instructions",
		`{"id":"c17","mapping":{"a":{"parent":null,"message":{"author":{"role":"user"},"content":{"content_type":"user_editable_context","user_profile":"p","user_instructions":"i"}}},"b":{"parent":"a","message":{"author":{"role":"user"},"content":{"content_type":"user_editable_context","user_profile":5}}},"c":{"parent":"b","message":{"author":{"role":"user"},"content":{"content_type":"user_editable_context","parts":["p"]}}},"d":{"parent":"c","message":{"author":{"role":"user"},"content":{"content_type":5,"parts":["p"]}}},"e":{"parent":"d","message":{"author":{"role":"user"},"content":{"content_type":null,"parts":["p"]}}}}}`,
		chatgptRead{ID: "c17", Records: []string{
			`a<: {"role":"system","content":"p\n\ni"}`,
			`b<a: {"role":"system","content":""}`,
			`c<b: {"role":"system","content":"p"}`,
			`d<c: {"role":"user","content":""}`,
			`e<d: {"role":"user","content":"p"}`,
		}}},
	{"a content without parts joins its texts, and one of another shape reads as empty",
		`{"id":"c18","mapping":{"a":{"parent":null,"message":{"author":{"role":"tool"},"content":{"content_type":"execution_output","text":"t","result":"r","content":"c","user_profile":"","user_instructions":null}}},"b":{"parent":"a","message":{"author":{"role":"user"},"content":{"content_type":"x","text":null,"result":5}}},"c":{"parent":"b","message":{"author":{"role":"user"},"content":"str"}},"d":{"parent":"c","message":{"author":{"role":"user"},"content":[1,2]}},"e":{"parent":"d","message":{"author":{"role":"user"},"content":null}},"f":{"parent":"e","message":{"author":{"role":"user"}}},"g":{"parent":"f","message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["x"],"text":5}}},"h":{"parent":"g","message":{"author":{"role":"user"},"content":{"content_type":"code","text":"print(1)","parts":null}}},"i":{"parent":"h","message":{"author":{"role":"user"},"content":{"content_type":"text","parts":"x"}}}}}`,
		chatgptRead{ID: "c18", Records: []string{
			`a<: {"role":"tool","content":"t\n\nr\n\nc"}`,
			`b<a: {"role":"user","content":""}`,
			`c<b: {"role":"user","content":""}`,
			`d<c: {"role":"user","content":""}`,
			`e<d: {"role":"user","content":""}`,
			`f<e: {"role":"user","content":""}`,
			`g<f: {"role":"user","content":""}`,
			`h<g: {"role":"user","content":"print(1)"}`,
			`i<h: {"role":"user","content":""}`,
		}}},
	{"thoughts join each one's content, else its summary",
		`{"id":"c19","mapping":{"a":{"parent":null,"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["x"],"thoughts":[{"summary":"s","content":"c"}]}}},"b":{"parent":"a","message":{"author":{"role":"assistant"},"content":{"content_type":"thoughts","thoughts":[{"summary":"s1"},{"content":"c2","summary":"s2"},null,{"summary":"","content":""},{"summary":null}]}}},"c":{"parent":"b","message":{"author":{"role":"assistant"},"content":{"content_type":"thoughts","thoughts":[5]}}},"d":{"parent":"c","message":{"author":{"role":"assistant"},"content":{"content_type":"thoughts","thoughts":[{"summary":5}]}}},"e":{"parent":"d","message":{"author":{"role":"assistant"},"content":{"content_type":"thoughts","thoughts":"x"}}},"f":{"parent":"e","message":{"author":{"role":"assistant"},"content":{"content_type":"thoughts","thoughts":null,"text":"t"}}}}}`,
		chatgptRead{ID: "c19", Records: []string{
			`a<: {"role":"user","content":"x"}`,
			`b<a: {"role":"assistant","content":"s1\n\nc2"}`,
			`c<b: {"role":"assistant","content":""}`,
			`d<c: {"role":"assistant","content":""}`,
			`e<d: {"role":"assistant","content":""}`,
			`f<e: {"role":"assistant","content":"t"}`,
		}}},
	{"escapes are decoded and written again, a lone surrogate as U+FFFD",
		`{"id":"c20","mapping":{"a":{"parent":null,"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["line\u2028sep","\b\f\/","\ud83d\ude00 \ud800"]}}}}}`,
		chatgptRead{ID: "c20", Records: []string{
			`a<: {"role":"user","content":"line\u2028sep\n\u0008\u000c/\n😀 �"}`,
		}}},
	{"escaped keys and ids are decoded, a null child is the id \"\"",
		`{"title":"t\u00e9","mapping":{"k\u00e9":{"parent":null,"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["p"]}},"children":["k\u00e9","\u007a",null]},"z":{"parent":"k\u00e9","message":{"author":{"role":"tool","name":"n"},"content":{"content_type":"text","parts":["z"]}}}}}`,
		chatgptRead{ID: "chatgpt-a4836a088ed01012", Title: "té", Records: []string{
			`ké<ké: {"role":"user","content":"p"}`,
			`z<ké: {"role":"tool","content":"z","name":"n"}`,
		}, Warnings: []string{
			`conversation "té": message "ké" lists child "", which is not in the mapping; ignored`,
		}}},
	{"a conversation with white space keeps its records' sources compacted",
		`{ "id" : "c22", "mapping" : { "a" : { "parent" : null , "message" : { "author" : { "role" : "user" } , "content" : { "content_type" : "text" , "parts" : [ "spaced" ] } } } } }`,
		chatgptRead{ID: "c22", Records: []string{
			`a<: {"role":"user","content":"spaced"}`,
		}}},
	{"children lists give parents to entries without a parent key, and a current node without a message stands for itself",
		`{"id":"c23","current_node":"c","mapping":{"r":{"message":null,"children":["a","b"]},"a":{"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["x"]}}},"b":{"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["y"]}},"children":["c"]},"c":{"message":null},"d":{"parent":"c","message":{"author":{"role":"user"},"create_time":-1.5e3,"content":{"content_type":"text","parts":["d"]}}}}}`,
		chatgptRead{ID: "c23", Current: "c", Records: []string{
			`a<: {"role":"user","content":"x"}`,
			`b<: {"role":"user","content":"y"}`,
			`d<b: {"role":"user","content":"d"}`,
		}, Warnings: []string{
			`conversation "c23": message "a" has no parent key; it becomes a root`,
			`conversation "c23": message "b" has no parent key; it becomes a root`,
		}}},
	{"a parent inferred from a children list is marked so",
		`{"id":"c24","current_node":"a","mapping":{"a":{"id":"a","parent":"b","children":["b"],"message":{"author":{"role":"assistant"},"create_time":2,"content":{"content_type":"text","parts":["r"]}}},"b":{"id":"b","children":["a"],"message":{"author":{"role":"user"},"create_time":1,"content":{"content_type":"text","parts":["q"]}}}}}`,
		chatgptRead{ID: "c24", Current: "a", Records: []string{
			`a<b: {"role":"assistant","content":"r"}`,
			`b<~a: {"role":"user","content":"q"}`,
		}, Warnings: []string{
			`conversation "c24": message "b" has no parent key; its parent is "a", whose children list names it`,
		}}},
	{"a conversation cut short is skipped with the syntax error",
		`{"id":"c25","mapping":{"a":{"parent":null,"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["x"]}}}}`,
		chatgptRead{Skip: `conversation 4 could not be read: unexpected end of JSON input at line 1, column 129; skipped`}},
	{"text after the conversation is a syntax error",
		`{"id":"c26","mapping":{}} x`,
		chatgptRead{Skip: `conversation 4 could not be read: invalid character 'x' after the top-level value at line 1, column 27; skipped`}},
	{"an id is taken as it stands for the model to check",
		`{"id":"bad id\n","mapping":{}}`,
		chatgptRead{ID: "bad id\n", Warnings: []string{
			`conversation "bad id\n" has no messages; it is an empty session`,
		}}},
	{"conversation_id comes before id, and dangling parents are kept",
		`{"id":"c28","conversation_id":"c28b","mapping":{"a":{"parent":null,"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["x"]}},"children":["missing"]},"b":{"parent":"zz","message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["y"]}}}}}`,
		chatgptRead{ID: "c28b", Records: []string{
			`a<: {"role":"user","content":"x"}`,
			`b<zz: {"role":"user","content":"y"}`,
		}, Warnings: []string{
			`conversation "c28b": message "a" lists child "missing", which is not in the mapping; ignored`,
		}}},
}

func TestTheChatGPTReaderReadsEveryShape(t *testing.T) {
	for _, tc := range chatgptCases {
		t.Run(tc.name, func(t *testing.T) {
			got := readChatGPTThreeWays(t, []byte(tc.raw))
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestTheChatGPTFixturesReadTheSameEachWay(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/fixtures/*/*.json")
	require.NotEmpty(t, files, "core/testdata/fixtures is missing")
	n := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		sc := jsonx.Scanner{Data: data}
		_ = sc.Elements(func(_ int, raw []byte, _ bool) error {
			if f, err := RawFields(raw); err == nil && f["mapping"] != nil {
				got := readChatGPTThreeWays(t, raw)
				assert.Empty(t, got.Skip, "a conversation of %s", file)
				assert.NotEmpty(t, got.Records, "a conversation of %s", file)
				n++
			}
			return nil
		})
	}
	assert.Greater(t, n, 3, "conversations read from the fixtures")
}

func FuzzChatGPTReader(f *testing.F) {
	for _, tc := range chatgptCases {
		f.Add([]byte(tc.raw))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		first := readChatGPTThreeWays(t, raw)
		if again := readChatGPTThreeWays(t, raw); !assert.ObjectsAreEqual(first, again) {
			t.Fatalf("read twice, %q gives\n%+v\nthen\n%+v", raw, first, again)
		}
	})
}
