//go:build js && wasm

package main

import (
	"strconv"
	"syscall/js"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestBindingImportsFilesFromOneBuffer(t *testing.T) {
	h := storeHandle(t)
	files := []string{
		"{\"type\":\"session\",\"version\":3,\"id\":\"p\",\"timestamp\":\"2026-01-02T03:04:05.000Z\",\"cwd\":\"/w\"}\n{\"type\":\"message\",\"id\":\"m\",\"parentId\":null,\"timestamp\":\"2026-01-02T03:04:06.000Z\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n",
		"not a session",
	}
	buf := h.Call("importBuffer", 10)
	for _, f := range files {
		arr := js.Global().Get("Uint8Array").New(len(f))
		js.CopyBytesToJS(arr, []byte(f))
		assert.Equal(t, "", h.Call("importAppend", buf, arr).String())
	}
	manifest := `[{"path":"sessions/--w--/a.jsonl","size":` + strconv.Itoa(len(files[0])) + `},{"path":"notes.txt","size":` + strconv.Itoa(len(files[1])) + `}]`
	out := h.Call("importFiles", manifest, buf).String()
	assert.Equal(t, `{"ok":true,"value":{"sessions":[{"sessionId":"p","title":"hi","existing":false,"added":2,"nodeCount":2,"cursor":"m","branchCount":1,"rootCount":1,"warnings":0,"project":"/w","tool":"pi","path":"sessions/--w--/a.jsonl"}],"skipped":[],"warnings":[],"files":[{"path":"sessions/--w--/a.jsonl","tool":"pi","sessions":1},{"path":"notes.txt","sessions":0,"skipped":"not a session file (JSON, JSON lines or an Aider history); skipped"}]}}`, out)
	assert.Contains(t, h.Call("importFiles", manifest, buf).String(), "no such import buffer", "a buffer is used once")
	assert.Contains(t, h.Call("importFiles", 7, buf).String(), "takes the file list as a JSON string")
}
