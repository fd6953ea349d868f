//go:build js && wasm

package main

import (
	"strings"
	"testing"

	"github.com/sessiontree/sessiontree/core"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWarmLoadRunsAStubsFirstContext: each call of the warm-up answers as
// it does for a real stub (so its code is the code a first context runs),
// and the handle's warmLoad runs once, leaving the store's own sessions
// and changes as they were.
func TestWarmLoadRunsAStubsFirstContext(t *testing.T) {
	answers := warmLoadOn(core.New(core.Options{}))
	require.Len(t, answers, 6)
	assert.Equal(t, `{"ok":true,"value":{"stubs":1}}`, answers[0])
	assert.Contains(t, answers[1], `"code":"PAGED_OUT"`)
	assert.Equal(t, `{"ok":true,"value":["warm"]}`, answers[2])
	assert.True(t, strings.HasPrefix(answers[3], `{"ok":true,`), answers[3])
	assert.True(t, strings.HasPrefix(answers[4], `{"ok":true,"columns":`), answers[4])
	assert.Contains(t, answers[4], `"count":3`, "the context runs root → cursor: three messages")
	assert.Contains(t, answers[5], `"nodeCount":4`)

	h := storeHandle(t)
	assert.True(t, strings.HasPrefix(h.Call("call", `{"operation":"create","sessionId":"mine"}`).String(), `{"ok":true,"value":{"sessionId":"mine",`))
	h.Call("drain", true)
	before := h.Call("call", `{"operation":"sessions"}`).String()
	warmedLoad = false
	assert.True(t, h.Call("warmLoad").Bool())
	assert.False(t, h.Call("warmLoad").Bool(), "once a program")
	assert.Equal(t, before, h.Call("call", `{"operation":"sessions"}`).String())
	assert.Equal(t, "", h.Call("drain", true).String(), "no change of the store's own")
}
