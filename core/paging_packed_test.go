package core

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/sessiontree/sessiontree/core/internal/store"
	"github.com/sessiontree/sessiontree/core/internal/tree"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// packStubs writes entries in PageStubPacked's form, as the shim's
// packStubs (js/store/pager.js) does.
func packStubs(entries []store.StubEntry) []byte {
	b := binary.LittleEndian.AppendUint32(nil, uint32(len(entries)))
	str := func(s string) { b = append(binary.LittleEndian.AppendUint32(b, uint32(len(s))), s...) }
	for _, e := range entries {
		nodes := uint32(e.NodeCount)
		if e.NodeCount < 0 {
			nodes = 0xFFFFFFFF
		}
		b = binary.LittleEndian.AppendUint32(b, nodes)
		var flags byte
		for bit, set := range map[byte]bool{store.StubHasTitle: e.Has&store.HasTitle != 0, store.StubHasCursor: e.Has&store.HasCursor != 0, store.StubHasActiveBranch: e.Has&store.HasActiveBranch != 0,
			store.StubHasSource: e.Source != nil, store.StubHasSourceNodeID: e.Source != nil && e.Source.NodeID != nil} {
			if set {
				flags |= bit
			}
		}
		b = append(b, flags)
		str(e.SessionID)
		if e.Has&store.HasTitle != 0 {
			str(e.Title)
		}
		str(e.CreatedAt)
		str(e.UpdatedAt)
		if e.Has&store.HasCursor != 0 {
			str(e.Cursor)
		}
		if e.Has&store.HasActiveBranch != 0 {
			str(e.ActiveBranch)
		}
		str(e.Tool)
		str(e.Project)
		if e.Source != nil {
			str(e.Source.SessionID)
			if e.Source.NodeID != nil {
				str(*e.Source.NodeID)
			}
			str(e.Source.Via)
		}
	}
	return b
}

// TestPageStubPackedAnswersAsPageStub gives the same summaries to two
// stores, as JSON through page.stub and packed through PageStubPacked,
// and holds every answer that reads stubs equal: sessions, family, and a
// second round that updates the stubs (keeping a cursor where none is given).
func TestPageStubPackedAnswersAsPageStub(t *testing.T) {
	node := "n0002"
	rounds := [][]store.StubEntry{{
		{SessionID: "a", Title: "First", CreatedAt: "2026-01-02T03:04:05.000Z", UpdatedAt: "2026-01-02T03:05:05.000Z", NodeCount: 4, Cursor: "n0004", ActiveBranch: "main", Tool: "codex", Project: "/home/me/p", Has: store.HasTitle | store.HasCursor | store.HasActiveBranch},
		{SessionID: "b-é", Title: "Forked \"quoted\"", CreatedAt: "2026-01-03T00:00:00.000Z", UpdatedAt: "2026-01-03T00:00:00.000Z", NodeCount: 6, Cursor: "", ActiveBranch: "side", Has: store.HasTitle | store.HasCursor | store.HasActiveBranch,
			Source: &tree.StubSource{SessionID: "a", NodeID: &node, Via: "fork"}},
		{SessionID: "c", UpdatedAt: "2026-01-04T00:00:00.000Z", NodeCount: 0},
	}, {
		{SessionID: "a", Title: "First, renamed", UpdatedAt: "2026-01-05T00:00:00.000Z", NodeCount: 5, Has: store.HasTitle},
		{SessionID: "d", Title: "New", UpdatedAt: "2026-01-06T00:00:00.000Z", NodeCount: 1, Cursor: "n0001", Has: store.HasTitle | store.HasCursor, Source: &tree.StubSource{SessionID: "c", Via: "clone"}},
	}, nil}
	// A third round of 1,300 new ones and an update: several of the chunks
	// the reader and page.stub take in one call (512).
	for i := 0; i < 1300; i++ {
		rounds[2] = append(rounds[2], store.StubEntry{SessionID: fmt.Sprintf("m%04d", i), Title: fmt.Sprint("many ", i), UpdatedAt: fmt.Sprintf("2026-02-01T00:%02d:%02d.000Z", i/60%60, i%60), NodeCount: i % 7, Has: store.HasTitle})
	}
	rounds[2] = append(rounds[2], store.StubEntry{SessionID: "c", Title: "C at last", UpdatedAt: "2026-03-01T00:00:00.000Z", NodeCount: 2, Has: store.HasTitle})
	viaJSON, packed := New(Options{}), New(Options{})
	for r, list := range rounds {
		var sessions []map[string]any
		for _, e := range list {
			m := map[string]any{"sessionId": e.SessionID, "createdAt": e.CreatedAt, "updatedAt": e.UpdatedAt, "nodeCount": e.NodeCount, "tool": e.Tool, "project": e.Project}
			if e.Has&store.HasTitle != 0 {
				m["title"] = e.Title
			}
			if e.Has&store.HasCursor != 0 {
				m["cursor"] = e.Cursor
			}
			if e.Has&store.HasActiveBranch != 0 {
				m["activeBranch"] = e.ActiveBranch
			}
			if e.Source != nil {
				m["source"] = e.Source
			}
			sessions = append(sessions, m)
		}
		want := ok[map[string]int](t, viaJSON, map[string]any{"operation": "page.stub", "sessions": sessions})
		n, err := packed.PageStubPacked(packStubs(list))
		require.NoError(t, err, "round %d", r)
		assert.Equal(t, want["stubs"], n, "round %d", r)
		for _, req := range []string{`{"operation":"sessions"}`, `{"operation":"family","sessionId":"b-é"}`, `{"operation":"family","sessionId":"d"}`} {
			assert.Equal(t, string(viaJSON.CallInternal([]byte(req))), string(packed.CallInternal([]byte(req))), "round %d: %s", r, req)
		}
	}
	assert.Equal(t, 1304, packed.s.Stubs)
}

// TestPageStubPackedRefusesBadDataAndChangesNothing cuts, pads and
// damages a packed list: each is INVALID_ARGUMENT naming what is wrong,
// and the store keeps what it had.
func TestPageStubPackedRefusesBadDataAndChangesNothing(t *testing.T) {
	good := packStubs([]store.StubEntry{{SessionID: "a", Title: "A", NodeCount: 2, Has: store.HasTitle}, {SessionID: "b", NodeCount: 1}})
	badUTF8 := packStubs([]store.StubEntry{{SessionID: "a\xff", NodeCount: 1}})
	// Past the chunks the reader takes in one call (512): summary 1100 is bad.
	many := make([]store.StubEntry, 1300)
	for i := range many {
		many[i] = store.StubEntry{SessionID: fmt.Sprintf("s%04d", i), NodeCount: 1}
	}
	many[1100].SessionID = "s\xff"
	manyBad := fmt.Sprintf("packed summary 1100 (from byte %d) is a string that is not UTF-8", len(packStubs(many[:1100])))
	many[1100].SessionID, many[1200].NodeCount = "s1100", -1
	for name, c := range map[string]struct {
		data []byte
		want string
	}{
		"empty":          {nil, "the packed summaries are cut short"},
		"cut":            {good[:len(good)-3], "packed summary 1 (from byte 35) is cut short"},
		"trailing":       {append(append([]byte{}, good...), 0), "1 bytes follow the last packed summary"},
		"count too high": {binary.LittleEndian.AppendUint32(nil, 1<<30), "1073741824 packed summaries cannot fit in 4 bytes"},
		"not UTF-8":      {badUTF8, "packed summary 0 (from byte 4) is a string that is not UTF-8"},
		"no id":          {packStubs([]store.StubEntry{{NodeCount: 1}}), "session 0 has no sessionId or a negative nodeCount"},
		"bad node count": {packStubs([]store.StubEntry{{SessionID: "a", NodeCount: -1}}), "session 0 has no sessionId or a negative nodeCount"},
		"many, one not UTF-8": {func() []byte {
			bad := append([]store.StubEntry{}, many...)
			bad[1100].SessionID, bad[1200].NodeCount = "s\xff", 1
			return packStubs(bad)
		}(), manyBad},
		"many, one bad node count": {packStubs(many), "session 1200 has no sessionId or a negative nodeCount"},
	} {
		t.Run(name, func(t *testing.T) {
			st := New(Options{})
			_, err := st.PageStubPacked(packStubs([]store.StubEntry{{SessionID: "kept", NodeCount: 3}}))
			require.NoError(t, err)
			before := string(st.CallInternal([]byte(`{"operation":"sessions"}`)))
			_, err = st.PageStubPacked(c.data)
			var e *Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, InvalidArgument, e.Code)
			assert.Contains(t, e.Message, c.want)
			assert.Equal(t, before, string(st.CallInternal([]byte(`{"operation":"sessions"}`))))
		})
	}
}

// FuzzPageStubPacked: no packed list panics the reader, and a list it
// takes makes a store whose sessions answer is well-formed.
func FuzzPageStubPacked(f *testing.F) {
	node := "n1"
	f.Add(packStubs([]store.StubEntry{{SessionID: "a", Title: "A", NodeCount: 2, Cursor: "n2", Has: store.HasTitle | store.HasCursor, Source: &tree.StubSource{SessionID: "b", NodeID: &node, Via: "fork"}}}))
	f.Add([]byte{1, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		st := New(Options{})
		if _, err := st.PageStubPacked(data); err != nil {
			var e *Error
			require.ErrorAs(t, err, &e)
			require.Equal(t, InvalidArgument, e.Code)
			require.Equal(t, 0, st.s.Stubs)
			return
		}
		require.True(t, json.Valid(st.CallInternal([]byte(`{"operation":"sessions"}`))))
	})
}
