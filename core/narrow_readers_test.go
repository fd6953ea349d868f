package core

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sessiontree/sessiontree/core/internal/importer"
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/sessiontree/sessiontree/core/internal/msgtext"
	"github.com/sessiontree/sessiontree/core/internal/store"
	"github.com/sessiontree/sessiontree/core/internal/tree"
	"github.com/stretchr/testify/assert"
)

// The request and message readers are held to the tagged structs they
// replaced (decoded with encoding/json, which jsonx.Unmarshal matched down
// to its error wording).

func TestFileManifestErrorsAreUnmarshals(t *testing.T) {
	for _, in := range []string{`[]`, `null`, `[{"path":"a","size":1}]`, `"x"`, `{"path":"a"}`, `[1]`, `[null,{"path":"a","size":1}]`,
		`[{"path":1,"size":1}]`, `[{"path":"a","size":1.5}]`, `[{"path":"a","size":"1"}]`, `[{"PATH":"a","Size":1}]`,
		`[{"path":"a","size":1e30}]`, `[{"size":-1,"path":["x"]}]`, `[{"path":"a","size":1},`, ``, `[{"path":"a","size":true},{"path":2}]`} {
		var old []struct {
			Path *string `json:"path"`
			Size *int    `json:"size"`
		}
		oldErr := json.Unmarshal([]byte(in), &old)
		_, err := ParseFileManifest([]byte(in), []byte("x"))
		if oldErr == nil {
			if err != nil {
				assert.NotContains(t, err.Error(), "must be a JSON array", "ParseFileManifest(%s)", in)
			}
			continue
		}
		if !assert.NotNil(t, err, "ParseFileManifest(%s)", in) {
			continue
		}
		if _, syntax := oldErr.(*json.SyntaxError); syntax {
			assert.Contains(t, err.Error(), "the file list must be a JSON array of {path, size}: ", "ParseFileManifest(%s)", in)
			continue
		}
		assert.Equal(t, "the file list must be a JSON array of {path, size}: "+oldErr.Error(), err.Message, "ParseFileManifest(%s)", in)
	}
}

// oldMessageText is decodedMessageText as it was, through the decoder.
func oldMessageText(raw []byte) string {
	var head struct {
		Content   RawMessage `json:"content"`
		ToolCalls RawMessage `json:"tool_calls"`
	}
	if json.Unmarshal(raw, &head) != nil {
		return ""
	}
	pieces := oldContentText(nil, head.Content, 0)
	if len(head.ToolCalls) > 0 && head.ToolCalls[0] == '[' {
		var calls []struct {
			Function struct {
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			} `json:"function"`
		}
		if json.Unmarshal(head.ToolCalls, &calls) == nil {
			for _, c := range calls {
				if c.Function.Name != "" || c.Function.Arguments != "" {
					pieces = append(pieces, "[tool call: "+c.Function.Name+"] "+c.Function.Arguments)
				}
			}
		}
	}
	return strings.Join(pieces, "\n")
}

func oldContentText(pieces []string, content RawMessage, depth int) []string {
	if len(content) == 0 || depth > 4 {
		return pieces
	}
	switch content[0] {
	case '"':
		var s string
		if json.Unmarshal(content, &s) == nil && s != "" {
			pieces = append(pieces, s)
		}
	case '[':
		var parts []RawMessage
		if json.Unmarshal(content, &parts) != nil {
			return pieces
		}
		for _, raw := range parts {
			if raw[0] == '"' {
				pieces = oldContentText(pieces, raw, depth+1)
				continue
			}
			var p struct {
				Type     string     `json:"type"`
				Text     RawMessage `json:"text"`
				Thinking string     `json:"thinking"`
				Name     string     `json:"name"`
				Input    RawMessage `json:"input"`
				Content  RawMessage `json:"content"`
			}
			if json.Unmarshal(raw, &p) != nil {
				continue
			}
			switch {
			case len(p.Text) > 0 && p.Text[0] == '"':
				pieces = oldContentText(pieces, p.Text, depth+1)
			case p.Thinking != "":
				pieces = append(pieces, p.Thinking)
			case p.Type == "tool_use":
				pieces = append(pieces, "[tool use: "+p.Name+"] "+string(p.Input))
			case p.Type == "tool_result":
				pieces = oldContentText(pieces, p.Content, depth+1)
			case p.Type != "" && p.Name != "":
				pieces = append(pieces, "["+strings.ReplaceAll(p.Type, "_", " ")+": "+p.Name+"]")
			case p.Type != "":
				pieces = append(pieces, "["+strings.ReplaceAll(p.Type, "_", " ")+"]")
			}
		}
	}
	return pieces
}

// TestDecodedMessageTextIsTheDecodersText holds the one-pass reader to
// what encoding/json gave, but for a tool call of another shape: the
// decoder dropped every call of the list for one whose name or arguments
// was not a string (an Ollama call's arguments are an object), the reader
// keeps the others (msgtext's TestToolCallsOfEveryShapeAreRead).
func TestDecodedMessageTextIsTheDecodersText(t *testing.T) {
	for _, in := range []string{`{"role":"user","content":"hi"}`, `null`, `[]`, `{"content":5}`, `{"content":null}`,
		`{"content":["a",{"type":"text","text":"b"},{"type":"thinking","thinking":"c"},{"type":"tool_use","name":"n","input":{"x":1}},{"type":"tool_result","content":[{"text":"r"}]},{"type":"image"},{"type":"function_call","name":"f"},7,null]}`,
		`{"content":[{"type":1,"text":"skipped"},{"TEXT":"folded"},{"thinking":2},{"type":"x","type":"y"}]}`,
		`{"content":"","tool_calls":[{"function":{"name":"f","arguments":"{}"}},null,{"function":null}]}`,
		`{"tool_calls":[{"function":"x"}]}`, `{"tool_calls":[3]}`,
		`{"content":[{"type":"tool_result","content":[{"type":"tool_result","content":[{"type":"tool_result","content":[{"type":"tool_result","content":[{"type":"tool_result","content":"deep"}]}]}]}]}]}`,
		`{"Content":"case","content":[{"text":"later"}],"Tool_Calls":[{"Function":{"Name":"N"}}]}`} {
		assert.Equal(t, oldMessageText([]byte(in)), msgtext.Decoded([]byte(in)), "msgtext.Decoded(%s)", in)
	}
}

func TestStubEntriesAndBatchFilesReadAsTheTaggedStructs(t *testing.T) {
	// A long list, as a start-up sent them before they were packed.
	big := string(stubRequestOf(200))
	big = big[strings.Index(big, "[") : len(big)-1]
	for _, in := range []string{`[]`, `[null]`, `[{"sessionId":"s","title":"t","nodeCount":3,"cursor":null,"source":{"sessionId":"p","nodeId":"n","via":"fork"}}]`,
		`[{"sessionId":1}]`, `[{"nodeCount":1.5}]`, `[{"title":2}]`, `[{"source":"x"}]`, `[{"source":{"nodeId":3}}]`, `[{"source":null}]`, `[5]`, `{}`, `"x"`,
		`[{"sessionId":"s\u00e9","title":"t\"q","cursor":"c","activeBranch":null,"Tool":"T"}]`, big, big[:len(big)-1] + `,{"title":3}]`} {
		var old []struct {
			SessionID    string  `json:"sessionId"`
			Title        *string `json:"title"`
			CreatedAt    string  `json:"createdAt"`
			UpdatedAt    string  `json:"updatedAt"`
			NodeCount    int     `json:"nodeCount"`
			Cursor       *string `json:"cursor"`
			ActiveBranch *string `json:"activeBranch"`
			Tool         string  `json:"tool"`
			Project      string  `json:"project"`
			Source       *struct {
				SessionID string  `json:"sessionId"`
				NodeID    *string `json:"nodeId"`
				Via       string  `json:"via"`
			} `json:"source"`
		}
		oldOK := json.Unmarshal([]byte(in), &old) == nil
		got, gotOK := store.ReadStubEntries([]byte(in))
		if !assert.Equal(t, oldOK, gotOK, "stubs %s", in) || !oldOK {
			continue
		}
		var want []store.StubEntry
		for _, e := range old {
			w := store.StubEntry{SessionID: e.SessionID, CreatedAt: e.CreatedAt, UpdatedAt: e.UpdatedAt, NodeCount: e.NodeCount,
				Tool: e.Tool, Project: e.Project, Source: (*tree.StubSource)(e.Source)}
			for _, o := range []struct {
				from *string
				to   *string
				bit  store.StubHas
			}{{e.Title, &w.Title, store.HasTitle}, {e.Cursor, &w.Cursor, store.HasCursor}, {e.ActiveBranch, &w.ActiveBranch, store.HasActiveBranch}} {
				if o.from != nil {
					*o.to, w.Has = *o.from, w.Has|o.bit
				}
			}
			want = append(want, w)
		}
		assert.Equal(t, len(want), len(got), "stubs %s", in)
		for i := range want {
			assert.Equal(t, want[i], got[i], "stubs %s", in)
		}
	}
	for _, in := range []string{`[]`, `[{"path":"a","size":3}]`, `[{"path":"a","size":-3}]`, `[{"path":"a","size":1.5}]`, `[{"path":1}]`, `[null]`, `[1]`} {
		var old []struct {
			Path string `json:"path"`
			Size int64  `json:"size"`
		}
		oldOK := json.Unmarshal([]byte(in), &old) == nil
		var got []importer.BatchFile
		if assert.Equal(t, oldOK, readList(in, &got, importer.ReadBatchFile), "files %s", in) && oldOK {
			for i := range old {
				assert.Equal(t, importer.BatchFile(old[i]), got[i], "files %s", in)
			}
		}
	}
}

// readList is jsonx.ReadList of a test's text.
func readList[T any](in string, list *[]T, read func([]byte, *T) bool) bool {
	return jsonx.ReadList([]byte(in), list, read)
}
