package core

import (
	"encoding/binary"
	"os"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// utf16Bytes writes s as UTF-16 with its byte order mark.
func utf16Bytes(s string, big bool) []byte {
	var b []byte
	var order binary.AppendByteOrder = binary.LittleEndian
	b = append(b, 0xFF, 0xFE)
	if big {
		order = binary.BigEndian
		b = []byte{0xFE, 0xFF}
	}
	for _, u := range utf16.Encode([]rune(s)) {
		b = order.AppendUint16(b, u)
	}
	return b
}

func TestImportReadsAUTF16OrBOMExport(t *testing.T) {
	pi := "{\"type\":\"session\",\"version\":3,\"id\":\"enc\",\"timestamp\":\"2025-10-09T08:53:20.000Z\",\"cwd\":\"/w\"}\n" +
		"{\"type\":\"message\",\"id\":\"a1\",\"parentId\":null,\"timestamp\":\"2025-10-09T08:53:26.649Z\",\"message\":{\"role\":\"user\",\"content\":\"héllo 🎉\"}}\n"
	plain, err := New(Options{}).Import([]byte(pi), "auto")
	require.Nil(t, err)
	for _, tc := range []struct {
		name string
		data []byte
		note string
	}{
		{"UTF-8 with a BOM", append([]byte{0xEF, 0xBB, 0xBF}, pi...), ""},
		{"UTF-16 LE", utf16Bytes(pi, false), "the file is UTF-16 (little-endian); it was read as such"},
		{"UTF-16 BE", utf16Bytes(pi, true), "the file is UTF-16 (big-endian); it was read as such"},
		// A copy cut one byte into a character after its last line: the
		// lines import whole, and the note names the byte left out.
		{"UTF-16 LE without a BOM", utf16Bytes(pi, false)[2:], "the file is UTF-16 (little-endian, without a byte order mark); it was read as such"},
		{"UTF-16 BE without a BOM", utf16Bytes(pi, true)[2:], "the file is UTF-16 (big-endian, without a byte order mark); it was read as such"},
		{"UTF-16 LE with an odd last byte", append(utf16Bytes(pi, false), '{'), "the file is UTF-16 (little-endian); it was read as such, but for its last byte, which is half a character (the file may be cut off)"},
	} {
		st := New(Options{})
		res, err := st.Import(tc.data, "auto")
		require.Nil(t, err, tc.name)
		assert.Equal(t, "pi", res.Format, tc.name)
		assert.Equal(t, plain.Sessions, res.Sessions, tc.name)
		var notes []string
		for _, w := range res.Warnings {
			notes = append(notes, w.Message)
		}
		if tc.note == "" {
			assert.Equal(t, len(plain.Warnings), len(res.Warnings), tc.name)
		} else {
			assert.Equal(t, tc.note, notes[0], tc.name)
		}
		ctx := string(st.Call([]byte(`{"operation":"context","sessionId":"enc"}`)))
		assert.Contains(t, ctx, `"content":"héllo 🎉"`, tc.name)
	}
}

// TestImportReadsBytesThatAreNotUTF8AsReplacementCharacters imports a file
// whose strings hold bytes that are not UTF-8, alone and inside a Cline
// task folder: each byte is read as U+FFFD, a warning counts them and
// names the line, and the sessions' snapshots load back (a byte kept as it
// was would make a snapshot no request can carry).
func TestImportReadsBytesThatAreNotUTF8AsReplacementCharacters(t *testing.T) {
	st := testStore(t)
	data := []byte("[{\"role\":\"user\",\"content\":\"first\"},\n{\"role\":\"assistant\",\"content\":\"caf\xe9 \xff\xfe bad\"}]")
	res, err := st.Import(data, "auto")
	require.Nil(t, err)
	assert.Equal(t, []string{"the file is not valid UTF-8: 3 bytes (the first on line 2) read as U+FFFD"}, warningTexts(res))
	id := res.Sessions[0].SessionID
	ctx := ok[map[string]any](t, st, obj{"operation": "context", "sessionId": id})
	assert.Equal(t, "caf\ufffd \ufffd\ufffd bad", ctx["messages"].([]any)[1].(map[string]any)["content"])
	snap := snapshot(t, st, id)
	other := testStore(t)
	ok[Status](t, other, `{"operation":"snapshot.load","sessionId":"`+id+`","snapshot":`+snap+`}`)

	// Inside a task folder: the file is named.
	dir := "testdata/folders/cline/tasks/"
	entries, rerr := os.ReadDir(dir)
	require.NoError(t, rerr)
	task := dir + entries[0].Name() + "/"
	api, rerr := os.ReadFile(task + "api_conversation_history.json")
	require.NoError(t, rerr)
	k := strings.Index(string(api), `"text": "`) + len(`"text": "`)
	bad := append(append(append([]byte{}, api[:k]...), 0xff), api[k:]...)
	fres, ferr := testStore(t).ImportFiles([]ImportFile{{Path: "tasks/t1/api_conversation_history.json", Data: bad}})
	require.Nil(t, ferr)
	require.Len(t, fres.Sessions, 1)
	var texts []string
	for _, w := range fres.Warnings {
		texts = append(texts, w.Message)
	}
	assert.Equal(t, []string{"tasks/t1: api_conversation_history.json: the file is not valid UTF-8: 1 byte (the first on line 1) read as U+FFFD"}, texts)
}

// TestStoredBytesThatAreNotUTF8StillRestore: records an earlier build
// stored with bytes that are not UTF-8 (it kept an import's bytes as they
// were) restore through the shim's CallInternal, each byte as U+FFFD; the
// public Call still refuses such a request.
func TestStoredBytesThatAreNotUTF8StillRestore(t *testing.T) {
	snap := "{\"version\":1,\"sessionId\":\"old\",\"cursor\":\"a\",\"activeBranch\":\"main\",\"nodes\":[{\"id\":\"a\",\"parentId\":null,\"branch\":\"main\",\"kind\":\"message\",\"timestamp\":\"2026-01-02T03:04:05.006Z\",\"message\":{\"role\":\"user\",\"content\":\"caf\xe9\"}}]}"
	st := testStore(t)
	restore := `{"operation":"restore","title":"Old","createdAt":"2026-01-02T03:04:05.006Z","updatedAt":"2026-01-02T03:04:05.006Z","snapshot":` + snap + `}`
	env := st.Call([]byte(restore))
	assert.Contains(t, string(env), "request is not valid UTF-8")
	out := st.CallInternal([]byte(restore))
	require.True(t, strings.HasPrefix(string(out), `{"ok":true`), string(out))
	ctx := ok[map[string]any](t, st, obj{"operation": "context", "sessionId": "old"})
	assert.Equal(t, "caf\ufffd", ctx["messages"].([]any)[0].(map[string]any)["content"])
}

// Bytes that read as no text are not called empty: the answer says what
// they were read as.
func TestImportOfABOMAndHalfACharacterSaysSo(t *testing.T) {
	_, err := testStore(t).Import([]byte{0xFF, 0xFE, 0xFD}, "auto")
	require.NotNil(t, err)
	assert.Equal(t, "import data holds no text: 3 bytes, read as nothing (the file is UTF-16 (little-endian); it was read as such, but for its last byte, which is half a character (the file may be cut off))", err.Message)
	_, err = testStore(t).Import([]byte{0xEF, 0xBB, 0xBF, ' ', '\n'}, "auto")
	require.NotNil(t, err)
	assert.Equal(t, "import data is empty", err.Message, "a UTF-8 BOM and white space: empty, as the text is")
	_, err = testStore(t).Import(nil, "auto")
	require.NotNil(t, err)
	assert.Equal(t, "import data is empty", err.Message)
}

func TestImportReadsLinesEndedByCRAlone(t *testing.T) {
	claude, err := os.ReadFile("testdata/fixtures/claude-code/dag_compact_after_rewind.jsonl")
	require.NoError(t, err)
	for _, tc := range []struct{ name, lf string }{
		{"Claude Code JSON lines", string(claude)},
		{"an Aider history", string(sample(t, aiderSample))},
	} {
		lf := strings.ReplaceAll(tc.lf, "\r\n", "\n")
		cr := strings.ReplaceAll(lf, "\n", "\r")
		lfStore, crStore := New(Options{}), New(Options{})
		want, ierr := lfStore.Import([]byte(lf), "auto")
		require.Nil(t, ierr, tc.name)
		res, ierr := crStore.Import([]byte(cr), "auto")
		require.Nil(t, ierr, tc.name)
		assert.Equal(t, want.Format, res.Format, tc.name)
		require.Len(t, res.Sessions, len(want.Sessions), tc.name)
		require.NotEmpty(t, want.Sessions, tc.name)
		for i := range want.Sessions {
			save := `{"operation":"snapshot.save","sessionId":"` + want.Sessions[i].SessionID + `"}`
			assert.Equal(t, string(lfStore.Call([]byte(save))), string(crStore.Call([]byte(save))), tc.name)
		}
		note := "the file's lines end in a carriage return alone (CR, as classic Mac OS and some converters write them); each was read as a line end"
		assert.Equal(t, append([]string{note}, warningTexts(want)...), warningTexts(res), tc.name, "the note first, then the same warnings, naming the same lines")
	}
	// One JSON document with CR line ends reads as it stands (a CR there is white space), no note.
	doc, err := os.ReadFile("testdata/fixtures/librechat/chatgpt-tree.json")
	require.NoError(t, err)
	require.Contains(t, string(doc), "\n")
	lf, ierr := New(Options{}).Import(doc, "auto")
	require.Nil(t, ierr)
	cr, ierr := New(Options{}).Import([]byte(strings.ReplaceAll(string(doc), "\n", "\r")), "auto")
	require.Nil(t, ierr)
	assert.Equal(t, warningTexts(lf), warningTexts(cr))
	// Two documents on CR lines are no JSON lines (each must be one line): refused as before.
	_, ierr = New(Options{}).Import([]byte(strings.ReplaceAll(string(doc)+string(doc), "\n", "\r")), "auto")
	require.NotNil(t, ierr)
	assert.Contains(t, ierr.Message, "not valid JSON")
}
