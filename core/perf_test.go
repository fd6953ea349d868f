package core

import (
	"encoding/json"
	"testing"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/sessiontree/sessiontree/core/internal/tree"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The hand-written encoders of the hot paths must give exactly what
// encoding/json (without HTML escaping) gives for the same value.
func TestHandEncodersMatchEncodingJSON(t *testing.T) {
	str := func(s string) *string { return &s }
	tools := func(t ...string) *[]string { return &t }
	var nilTools []string
	states := map[string]State{
		"an empty state gives nulls":                        {},
		"a full state gives every field":                    {Model: &ModelState{Provider: "openai", Model: "gpt-5 <b>"}, ThinkingLevel: str("high"), ActiveTools: tools("read", "bash"), SessionName: str("dé\u2028mo \"q\"")},
		"tools turned off give an empty array":              {ActiveTools: tools()},
		"a pointer to a nil tool list gives null like Go's": {ActiveTools: &nilTools},
	}
	for name, st := range states {
		t.Run(name, func(t *testing.T) {
			type plain State // no MarshalJSON
			want, err := jsonx.Marshal(plain(st))
			require.NoError(t, err)
			assert.Equal(t, string(want), string(st.AppendJSON(nil)))
		})
	}
	t.Run("a context copies its messages and encodes cursor and state like encoding/json", func(t *testing.T) {
		for _, c := range []Context{
			{Messages: []RawMessage{}},
			{Cursor: str("n\"1"), Messages: []RawMessage{RawMessage(`{"role":"user","content":"<a> & \u2028"}`), RawMessage(`{"role":"assistant","content":null,"n":1.50}`)}, State: State{ThinkingLevel: str("low")}},
		} {
			type plain Context
			want, err := jsonx.Marshal(plain(c))
			require.NoError(t, err)
			assert.Equal(t, string(want), string(c.AppendJSON(nil)))
		}
	})
}

func TestTrimNumberSuffix(t *testing.T) {
	for name, want := range map[string]string{
		"main-2": "main", "main-12": "main", "main": "main", "main-": "main-", "-2": "", "a-b-3": "a-b", "v2": "v2", "x-2a": "x-2a", "": "",
	} {
		t.Run(name+" gives "+want, func(t *testing.T) {
			assert.Equal(t, want, tree.TrimNumberSuffix(name), "trimNumberSuffix(%q)", name)
		})
	}
}

func TestTreeAndListEncodeLikeEncodingJSON(t *testing.T) {
	st := testStore(t)
	buildBranchy(t, st, "b")
	annotateBranchy(t, st, "b")
	ok[Status](t, st, `{"operation":"append","sessionId":"b","message":{"role":"user","content":"<html> & \"quotes\" \u2028 naïve"}}`)
	s := st.Session("b")
	t.Run("tree rows with labels, hidden and preferred nodes, branch tips", func(t *testing.T) {
		tr := s.Tree()
		type plain Tree
		want, err := jsonx.Marshal(plain(tr))
		require.NoError(t, err)
		assert.Equal(t, string(want), string(do(t, st, `{"operation":"tree","sessionId":"b"}`).Value))
		assert.Contains(t, string(want), `"hiddenRoot":true`)
		assert.Contains(t, string(want), `"tipOf":`)
		assert.Contains(t, string(want), `"label":`)
	})
	t.Run("list items", func(t *testing.T) {
		want, err := jsonx.Marshal(s.List())
		require.NoError(t, err)
		assert.Equal(t, string(want), string(do(t, st, `{"operation":"list","sessionId":"b"}`).Value))
		assert.Contains(t, string(want), `"label":`)
	})
}

// SkipValid (the scanner's path for input already validated) must find the
// same value ends as the validating scanner on valid, compact JSON.
func TestSkipValidFindsTheSameValuesAsTheValidatingScanner(t *testing.T) {
	for _, in := range []string{
		`"plain"`, `"esc \" \\ \/ \n \u00e9 \ud83d\ude00"`, `"\\"`, `"ends with \\\\"`, `12`, `-0.5e+10`, `true`, `false`, `null`,
		`{}`, `[]`, `{"a":[1,{"b":"}]"}],"c":"[{"}`, `[[],[[]],{"x":null}]`, `{"k\"":"v\\"}`, `["naïve","日本","🙂"]`,
	} {
		t.Run(in+" is skipped whole", func(t *testing.T) {
			for _, tail := range []string{"", ",1", "]", "}"} {
				data := []byte(in + tail)
				want := jsonx.Scanner{Data: data}
				raw, _, err := want.Value()
				require.Nil(t, err)
				got := jsonx.Scanner{Data: data, Valid: true}
				assert.Equal(t, string(raw), string(got.SkipValid()), "tail %q", tail)
				assert.Equal(t, want.Pos, got.Pos, "tail %q", tail)
			}
		})
	}
	t.Run("a snapshot with white space loads the same through Call and through a command", func(t *testing.T) {
		st := testStore(t)
		snap := `{ "version" : 1, "sessionId":"w", "cursor":"a", "activeBranch":"main", "nodes":[ {"id":"a","parentId":null,"branch":"main","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{ "role":"user", "content":[ {"type":"text","text":"hi \"x\" \\"} ] } } ] }`
		do(t, st, `{"operation":"snapshot.load","sessionId":"w","snapshot":`+snap+`}`)
		viaCall := snapshot(t, st, "w")
		st2 := testStore(t)
		ok[Status](t, st2, `{"operation":"create","sessionId":"w"}`)
		line, err := json.Marshal("/tree snapshot load " + snap)
		require.NoError(t, err)
		do(t, st2, `{"operation":"command","sessionId":"w","line":`+string(line)+`}`)
		assert.Equal(t, viaCall, snapshot(t, st2, "w"))
		assert.Contains(t, viaCall, `"message":{"role":"user","content":[{"type":"text","text":"hi \"x\" \\"}]}`)
	})
}
