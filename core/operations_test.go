package core

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// internalOps are the operations only CallInternal answers.
var internalOps = []string{"import.batches", "import.report", "page.faults", "page.out", "page.stub", "page.damaged", "restore", "sync.forget", "sync.merge", "sync.trash"}

func TestOperationInfosDescribeTheDispatchTable(t *testing.T) {
	infos := OperationInfos()
	names := make([]string, len(infos))
	for i, info := range infos {
		names[i] = info.Name
	}
	assert.Equal(t, slices.Sorted(maps.Keys(operations)), names, "every operation of the table, once, sorted by name")

	byName := map[string]OperationInfo{}
	for _, info := range infos {
		byName[info.Name] = info
	}
	cases := []OperationInfo{
		{Name: "append"},
		{Name: "command"}, // some lines change a session
		{Name: "context", ReadOnly: true, Public: true},
		{Name: "export", ReadOnly: true, Public: true},
		{Name: "hide", KeepsCursor: true, Public: true},
		{Name: "import"},
		{Name: "jump"},
		{Name: "label", KeepsCursor: true, Public: true},
		{Name: "prefer", KeepsCursor: true, Public: true},
		{Name: "remote.jump"},
		{Name: "remote.list", ReadOnly: true, Public: true},
		{Name: "restore"},
		{Name: "search", ReadOnly: true, Public: true},
		{Name: "snapshot.save", ReadOnly: true, Public: true},
		{Name: "sync.forget"},
		{Name: "sync.merge"},
		{Name: "sync.trash"},
		{Name: "rename", KeepsCursor: true, Public: true},
		{Name: "leaf", ReadOnly: true, Public: true},
		{Name: "trash.list", ReadOnly: true, Public: true},
		{Name: "switch"},
		{Name: "delete"},
		{Name: "trash.restore"},
		{Name: "trash.empty"},
		{Name: "append.many"},
		{Name: "tree.rows", ReadOnly: true, Public: true},
	}
	for _, want := range cases {
		if !slices.Contains(internalOps, want.Name) && !want.ReadOnly && !want.KeepsCursor {
			want.Public = true
		}
		t.Run(want.Name+" has its flags", func(t *testing.T) {
			assert.Equal(t, want, byName[want.Name])
		})
	}
	for _, info := range infos {
		assert.False(t, info.ReadOnly && info.KeepsCursor, "%s: keepsCursor is for changes only", info.Name)
		assert.Equal(t, !slices.Contains(internalOps, info.Name), info.Public, "%s: public", info.Name)
	}

	out, err := json.Marshal(byName["label"])
	require.NoError(t, err)
	assert.Equal(t, `{"name":"label","readOnly":false,"keepsCursor":true,"public":true}`, string(out))
	assert.NotContains(t, Operations(), "restore", "Operations lists public names only")
	assert.Len(t, Operations(), len(infos)-len(internalOps))
}

// readOnlyRequests has one request for every read-only operation, against
// the store that opsStore builds.
var readOnlyRequests = map[string]string{
	"list":           `{"operation":"list","sessionId":"s"}`,
	"import.report":  `{"operation":"import.report","sessionId":"s"}`,
	"import.batches": `{"operation":"import.batches","files":[{"path":"a.jsonl","size":5}],"bytes":10}`,
	"node":           `{"operation":"node","sessionId":"s","nodeId":"n0001"}`,
	"branches":       `{"operation":"branches","sessionId":"s"}`,
	"tree":           `{"operation":"tree","sessionId":"s","showHidden":true}`,
	"tree.rows":      `{"operation":"tree.rows","sessionId":"s","around":"n0001","limit":5}`,
	"map":            `{"operation":"map","sessionId":"s"}`,
	"family":         `{"operation":"family","sessionId":"s"}`,
	"context":        `{"operation":"context","sessionId":"s"}`,
	"session":        `{"operation":"session","sessionId":"s"}`,
	"snapshot.save":  `{"operation":"snapshot.save","sessionId":"s"}`,
	"sessions":       `{"operation":"sessions"}`,
	"diff":           `{"operation":"diff","sessionId":"s","from":"n0001","to":"n0002"}`,
	"remote.list":    `{"operation":"remote.list","sessionId":"s"}`,
	"remote.session": `{"operation":"remote.session","sessionId":"s"}`,
	"export":         `{"operation":"export","sessionId":"s","format":"markdown"}`,
	"search":         `{"operation":"search","query":"hello"}`,
	"leaf":           `{"operation":"leaf","sessionId":"s","nodeId":"n0001"}`,
	"trash.list":     `{"operation":"trash.list"}`,
}

// opsStore returns a store that tracks changes, holding session "s" with
// nodes n0001 (user) and n0002 (assistant), and a branch "side" started at
// n0001.
func opsStore(t *testing.T) *Store {
	t.Helper()
	st := testStore(t)
	st.TrackChanges(true)
	ok[Status](t, st, `{"operation":"create","sessionId":"s"}`)
	ok[obj](t, st, `{"operation":"append","sessionId":"s","message":{"role":"user","content":"hello"}}`)
	ok[obj](t, st, `{"operation":"append","sessionId":"s","message":{"role":"assistant","content":"hello back"}}`)
	ok[Status](t, st, `{"operation":"branch","sessionId":"s","nodeId":"n0001","branch":"side"}`)
	st.DrainChanges(true)
	return st
}

func TestReadOnlyOperationsChangeNothing(t *testing.T) {
	for _, info := range OperationInfos() {
		if !info.ReadOnly {
			continue
		}
		req, found := readOnlyRequests[info.Name]
		if !assert.True(t, found, "no request for read-only operation %q in readOnlyRequests", info.Name) {
			continue
		}
		t.Run(info.Name+" succeeds and records no change", func(t *testing.T) {
			st := opsStore(t)
			before := snapshot(t, st, "s")
			env := do(t, st, req)
			require.True(t, env.OK, "%s: %+v", req, env.Error)
			assert.Equal(t, before, snapshot(t, st, "s"))
			assert.Empty(t, string(st.DrainChanges(true)))
		})
	}
}

func TestKeepsCursorOperationsChangeButKeepTheCursor(t *testing.T) {
	reqs := map[string]string{
		"label":  `{"operation":"label","sessionId":"s","nodeId":"n0001","label":"L"}`,
		"hide":   `{"operation":"hide","sessionId":"s","nodeId":"n0001"}`, // the cursor's own subtree,
		"prefer": `{"operation":"prefer","sessionId":"s","nodeId":"n0002"}`,
		"rename": `{"operation":"rename","sessionId":"s","title":"Renamed"}`,
	}
	for _, info := range OperationInfos() {
		if !info.KeepsCursor {
			continue
		}
		req, found := reqs[info.Name]
		if !assert.True(t, found, "no request for %q", info.Name) {
			continue
		}
		t.Run(info.Name+" records a change and leaves the cursor", func(t *testing.T) {
			st := opsStore(t)
			before := ok[Status](t, st, `{"operation":"session","sessionId":"s"}`)
			ok[obj](t, st, req)
			assert.NotEmpty(t, string(st.DrainChanges(true)))
			after := ok[Status](t, st, `{"operation":"session","sessionId":"s"}`)
			assert.Equal(t, before.Cursor, after.Cursor)
			assert.Equal(t, before.ActiveBranch, after.ActiveBranch)
		})
	}
}

func TestCallRefusesInternalOperationsAsUnknown(t *testing.T) {
	misspelled := func(st *Store) string {
		return string(st.Call([]byte(`{"operation":"restroe"}`)))
	}
	requests := map[string]func(st *Store) string{
		"restore": func(st *Store) string {
			snap := strings.Replace(snapshot(t, st, "s"), `"sessionId":"s"`, `"sessionId":"r"`, 1)
			return `{"operation":"restore","snapshot":` + snap + `}`
		},
		"sync.merge": func(st *Store) string {
			return `{"operation":"sync.merge","sessionId":"s","nodes":[{"id":"m1","parentId":"n0002","branch":"main","kind":"message","timestamp":"2026-11-29T12:00:01.000Z","message":{"role":"user","content":"merged"}}]}`
		},
		"sync.forget": func(*Store) string { return `{"operation":"sync.forget","sessionId":"s"}` },
		"sync.trash": func(*Store) string {
			return `{"operation":"sync.trash","sessionId":"s","deletedAt":"2026-11-29T12:00:01.000Z"}`
		},
		"page.stub":   func(*Store) string { return `{"operation":"page.stub","sessions":[{"sessionId":"p","nodeCount":3}]}` },
		"page.out":    func(*Store) string { return `{"operation":"page.out","sessionId":"s"}` },
		"page.faults": func(*Store) string { return `{"operation":"page.faults"}` },
		"page.damaged": func(st *Store) string {
			st.CallInternal([]byte(`{"operation":"page.stub","sessions":[{"sessionId":"p","nodeCount":3}]}`))
			return `{"operation":"page.damaged","sessionId":"p","message":"damaged"}`
		},
		"import.report": func(*Store) string { return `{"operation":"import.report","sessionId":"s"}` },
		"import.batches": func(*Store) string {
			return `{"operation":"import.batches","files":[{"path":"a.jsonl","size":5}],"bytes":10}`
		},
	}
	require.ElementsMatch(t, internalOps, slices.Collect(maps.Keys(requests)))
	// (package wire's CallParsed and CallColumns, which go through Run,
	// are tested in wire.)
	calls := map[string]func(st *Store, req []byte) []byte{
		"Call": (*Store).Call,
		"Run": func(st *Store, req []byte) []byte {
			a := st.Run(req)
			require.Nil(t, a.Value)
			require.Empty(t, a.Operation)
			return a.Envelope()
		},
	}
	for _, name := range internalOps {
		for callName, call := range calls {
			t.Run(callName+" refuses "+name+" like a misspelled name and changes nothing", func(t *testing.T) {
				st := opsStore(t)
				req := requests[name](st)
				sessions := string(st.Call([]byte(`{"operation":"sessions"}`)))
				before := snapshot(t, st, "s")

				out := string(call(st, []byte(req)))
				want := strings.Replace(misspelled(st), `\"restroe\"`, `\"`+name+`\"`, 1)
				assert.Equal(t, want, out)
				assert.Contains(t, out, `{"ok":false,"error":{"code":"INVALID_ARGUMENT","message":"unknown operation \"`+name+`\" (known: `)
				known := out[strings.Index(out, "(known: "):]
				for _, other := range internalOps {
					assert.NotContains(t, known, `, `+other+`,`, "the list of known operations")
					assert.NotContains(t, known, ` `+other+`,`)
				}
				assert.Contains(t, known, "append, append.many, branch,")
				assert.Equal(t, sessions, string(st.Call([]byte(`{"operation":"sessions"}`))))
				assert.Equal(t, before, snapshot(t, st, "s"))
				assert.Empty(t, string(st.DrainChanges(true)))
			})
		}
		t.Run("CallInternal answers "+name, func(t *testing.T) {
			st := opsStore(t)
			env := envelope{}
			require.NoError(t, json.Unmarshal(st.CallInternal([]byte(requests[name](st))), &env))
			assert.True(t, env.OK, "%+v", env.Error)
		})
	}
}

func TestCallInternalAnswersPublicOperationsAsCallDoes(t *testing.T) {
	for name, req := range readOnlyRequests {
		if slices.Contains(internalOps, name) {
			continue // Call refuses it (TestCallRefusesInternalOperationsAsUnknown)
		}
		t.Run(name, func(t *testing.T) {
			st := opsStore(t)
			assert.Equal(t, string(st.Call([]byte(req))), string(st.CallInternal([]byte(req))))
		})
	}
	st := testStore(t)
	assert.Equal(t, string(st.Call([]byte(`{"operation":"nope"}`))), string(st.CallInternal([]byte(`{"operation":"nope"}`))))
	assert.Contains(t, string(st.CallInternal([]byte(`{"operation":"nope"}`))), "sessions, snapshot.load, snapshot.save, switch, trash.empty, trash.list, trash.restore, tree, tree.rows)",
		"the unknown-operation error of CallInternal names the public operations only too")
}

func TestOperationInfosJSONIsTheArrayOfOperationInfos(t *testing.T) {
	var got []OperationInfo
	require.NoError(t, json.Unmarshal(OperationInfosJSON(), &got))
	assert.Equal(t, OperationInfos(), got)
	assert.True(t, strings.HasPrefix(string(OperationInfosJSON()), `[{"name":"append","readOnly":false,"keepsCursor":false,"public":true},`), "%s", OperationInfosJSON())
	want, err := json.Marshal(OperationInfos())
	require.NoError(t, err)
	assert.Equal(t, string(want), string(OperationInfosJSON()), "the bytes encoding/json makes of OperationInfos")
}

func TestEveryOperationHasOneLineInTheTable(t *testing.T) {
	// operationList is not a map literal, so the compiler no longer
	// refuses a name written twice: the later line would hide the earlier.
	assert.Len(t, operations, len(operationList))
}
