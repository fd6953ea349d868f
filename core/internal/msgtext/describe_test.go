package msgtext

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDescribeEmpty(t *testing.T) {
	type msg struct{ message, source []byte }
	node := func(message, source string) msg {
		m := msg{message: []byte(message)}
		if source != "" {
			m.source = []byte(source)
		}
		return m
	}
	tests := []struct {
		name string
		n    msg
		want string
	}{
		{"a system message ChatGPT hid", node(`{"role":"system","content":""}`, `{"message":{"author":{"role":"system"},"metadata":{"is_visually_hidden_from_conversation":true},"recipient":"all"}}`), "system (hidden by ChatGPT)"},
		{"an assistant turn addressed to the web tool", node(`{"role":"assistant","content":""}`, `{"message":{"author":{"role":"assistant"},"recipient":"web.run","metadata":{}}}`), "called search"},
		{"an assistant turn addressed to python", node(`{"role":"assistant","content":""}`, `{"message":{"recipient":"python"}}`), "called python"},
		{"a web tool's result", node(`{"role":"tool","content":"","name":"web"}`, ""), "tool result: web"},
		{"a tool result named in the source", node(`{"role":"tool","content":""}`, `{"message":{"author":{"role":"tool","name":"browser"}}}`), "tool result: web"},
		{"an empty user message", node(`{"role":"user","content":""}`, ""), "user (empty)"},
		{"no message is not described", msg{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, DescribeEmpty(tt.n.message, tt.n.source))
		})
	}
}

func TestDescribeEmptyReadsTheSourceAsTheDecoder(t *testing.T) {
	type head struct {
		Message *struct {
			Author *struct {
				Name *string `json:"name"`
			} `json:"author"`
			Recipient string `json:"recipient"`
			Metadata  *struct {
				Hidden bool `json:"is_visually_hidden_from_conversation"`
			} `json:"metadata"`
		} `json:"message"`
	}
	for _, in := range []string{`{}`, `{"message":null}`, `{"message":5}`, `{"message":{"author":{"name":"a"},"recipient":"web.run","metadata":{"is_visually_hidden_from_conversation":true}}}`,
		`{"message":{"author":{"name":"a"}},"message":{"recipient":"r"}}`, `{"message":{"author":{"name":"a"}},"message":null,"message":{"recipient":"r"}}`,
		`{"message":{"author":{"name":"a"},"author":null}}`, `{"message":{"author":{"name":"a"},"author":5}}`, `{"message":{"author":{"name":1}}}`,
		`{"message":{"metadata":{"is_visually_hidden_from_conversation":true},"metadata":{}}}`, `{"message":{"metadata":{"is_visually_hidden_from_conversation":true},"metadata":null}}`,
		`{"message":{"metadata":{"is_visually_hidden_from_conversation":"yes"},"recipient":2}}`, `{"MESSAGE":{"Author":{"NAME":"x"}}}`} {
		var old head
		_ = json.Unmarshal([]byte(in), &old)
		var want chatgptSourceHead
		if m := old.Message; m != nil {
			want.recipient = m.Recipient
			if m.Author != nil {
				want.name = m.Author.Name
			}
			want.hidden = m.Metadata != nil && m.Metadata.Hidden
		}
		var got chatgptSourceHead
		got.read([]byte(in))
		assert.Equal(t, want, got, "source %s", in)
	}
}
