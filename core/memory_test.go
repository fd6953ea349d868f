package core

import (
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/sessiontree/sessiontree/core/internal/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// budgetStore is testStore with a memory budget of limit bytes and a gauge
// that reports *held bytes in use.
func budgetStore(tb testing.TB, limit int64, held *int64) *Store {
	tb.Helper()
	st := testStore(tb)
	st.SetMemoryBudget(limit)
	st.s.InUse = func() int64 { return *held }
	return st
}

func TestMemoryBudgetRefusesWhatWouldPassIt(t *testing.T) {
	held := int64(1000)
	snap := chainSnapshot("big", 20)
	load := `{"operation":"snapshot.load","sessionId":"big","snapshot":` + snap + `}`
	limit := int64(1000 + len(load)*RequestGrowth - 1) // one byte short
	st := budgetStore(t, limit, &held)
	ok[json.RawMessage](t, st, map[string]any{"operation": "create", "sessionId": "small"})
	before := ok[json.RawMessage](t, st, map[string]any{"operation": "sessions"})

	t.Run("a snapshot.load is refused naming its size and the limit", func(t *testing.T) {
		msg := fails(t, st, load, InvalidArgument)
		assert.Contains(t, msg, fmt.Sprintf("request of %d bytes refused", len(load)))
		assert.Contains(t, msg, fmt.Sprintf("memory budget of %d bytes", limit))
		assert.Contains(t, msg, "1000 bytes in use")
		assert.JSONEq(t, string(before), string(ok[json.RawMessage](t, st, map[string]any{"operation": "sessions"})), "nothing changed")
	})
	t.Run("an import is refused the same way", func(t *testing.T) {
		data := bigOpenWebUI(2, 5)
		if int64(len(data))*ImportGrowth+held <= limit {
			t.Fatalf("the fixture is too small for the test: %d bytes", len(data))
		}
		_, err := st.Import(data, "auto")
		require.NotNil(t, err)
		assert.Equal(t, InvalidArgument, err.Code)
		assert.Contains(t, err.Message, fmt.Sprintf("import of %d bytes refused", len(data)))
		assert.JSONEq(t, string(before), string(ok[json.RawMessage](t, st, map[string]any{"operation": "sessions"})), "nothing changed")
	})
	t.Run("the same request fits a budget one byte larger", func(t *testing.T) {
		st.SetMemoryBudget(limit + 1)
		ok[json.RawMessage](t, st, load)
		assert.NotNil(t, st.Session("big"))
		st.SetMemoryBudget(limit)
	})
	t.Run("small requests keep working under the budget", func(t *testing.T) {
		ok[json.RawMessage](t, st, map[string]any{"operation": "append", "sessionId": "small", "message": map[string]any{"role": "user", "content": "hi"}})
	})
	t.Run("once the memory in use is past the budget, changes are refused within rereadCalls calls and reads still answer", func(t *testing.T) {
		held = limit + 1
		defer func() { held = 1000 }()
		req := []byte(`{"operation":"append","sessionId":"small","message":{"role":"user","content":"x"}}`)
		calls := 0
		for ; calls <= store.RereadCalls; calls++ {
			if e := do(t, st, req); !e.OK {
				assert.Contains(t, e.Error.Message, "memory budget")
				break
			}
		}
		assert.LessOrEqual(t, calls, store.RereadCalls)
		assert.Contains(t, fails(t, st, req, InvalidArgument), "memory budget", "and every change after, while it lasts")
		ok[json.RawMessage](t, st, map[string]any{"operation": "context", "sessionId": "small"})
		ok[json.RawMessage](t, st, map[string]any{"operation": "snapshot.save", "sessionId": "small"})
	})
	t.Run("the shim's own restore is never refused", func(t *testing.T) {
		held = limit + 1
		defer func() { held = 1000 }()
		e := do(t, st, `{"operation":"restore","sessionId":"big","snapshot":`+snap+`,"meta":{"title":"","createdAt":"2026-11-29T12:00:00.000Z","updatedAt":"2026-11-29T12:00:00.000Z"}}`)
		if !e.OK {
			assert.NotContains(t, e.Error.Message, "memory budget", "restore failed for another reason, not the budget")
		}
	})
}

func TestMemoryBudgetCollectsOnceBeforeRefusing(t *testing.T) {
	reads := 0
	st := testStore(t)
	st.SetMemoryBudget(10_000)
	st.s.InUse = func() int64 { // garbage until a collection: the second read is lower
		reads++
		if reads == 1 {
			return 9_990
		}
		return 100
	}
	ok[json.RawMessage](t, st, map[string]any{"operation": "create", "sessionId": "a"})
	assert.Equal(t, 2, reads, "over the budget, the gauge is read again after runtime.GC")
}

func TestMemoryBudgetReadsTheGaugeOnlyWhenItMatters(t *testing.T) {
	reads := 0
	st := testStore(t)
	st.SetMemoryBudget(1 << 20)
	st.s.InUse = func() int64 { reads++; return 1000 }
	small := []byte(`{"operation":"jump","sessionId":"a","nodeId":"n0001"}`) // changes the cursor: checked
	ok[json.RawMessage](t, st, map[string]any{"operation": "create", "sessionId": "a"})
	ok[json.RawMessage](t, st, map[string]any{"operation": "append", "sessionId": "a", "message": map[string]any{"role": "user", "content": "x"}})
	reads = 0
	for i := 0; i < 2*store.RereadCalls; i++ {
		ok[json.RawMessage](t, st, small)
	}
	assert.Equal(t, 1, reads, "small calls: once after rereadCalls calls")
	big := []byte(`{"operation":"jump","sessionId":"a","nodeId":"n0001"` + strings.Repeat(" ", 100_000) + `}`)
	ok[json.RawMessage](t, st, big)
	assert.Equal(t, 2, reads, "a call that needs more than a quarter of the room reads it again")
	st.SetMemoryBudget(2 << 20)
	ok[json.RawMessage](t, st, small)
	assert.Equal(t, 3, reads, "a new budget reads it again")
}

func TestMemoryBudgetReadsTheGaugeAgainWhenTheMappedMemoryGrew(t *testing.T) {
	reads, mapped := 0, int64(64<<20)
	st := New(Options{MemoryBudget: 1 << 30, MemoryInUse: func() int64 { reads++; return 1000 }, MemoryMapped: func() int64 { return mapped }})
	small := []byte(`{"operation":"create","sessionId":"a"}`) // checked, then SESSION_ALREADY_EXISTS
	do(t, st, small)
	do(t, st, small)
	assert.Equal(t, 1, reads, "the mapped memory did not grow")
	mapped += 1 << 20 // a call grew the heap (a clone, say)
	do(t, st, small)
	assert.Equal(t, 2, reads, "it grew: read again")
}

func TestMemoryBudgetChecksImportBuffers(t *testing.T) {
	held := int64(0)
	st := budgetStore(t, 1<<20, &held)
	im := NewImports(st)
	cases := []struct {
		name string
		hint int
		ok   bool
	}{
		{"a buffer whose import fits is made", 1 << 10, true},
		{"a buffer whose import would pass the budget is refused", 1 << 19, false},
		// An import job's growth (ImportJobGrowth), not a one-call import's.
		{"a buffer of a sixth of the budget is made", 1 << 20 / 6, true},
		{"a buffer of a fifth of the budget and a byte is refused", 1<<20/(1+ImportJobGrowth) + 1, false},
		{"a 3.6 GB file is refused before anything is allocated", 3_600_000_000, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			id, err := im.NewBuffer(tc.hint)
			if tc.ok {
				require.Nil(t, err)
				assert.NotZero(t, id)
				return
			}
			require.NotNil(t, err)
			assert.Equal(t, InvalidArgument, err.Code)
			assert.Contains(t, err.Message, fmt.Sprintf("import buffer of %d bytes refused", tc.hint))
			assert.Contains(t, err.Message, "memory budget of 1048576 bytes")
		})
	}
	t.Run("a buffer that would grow past the budget is refused and keeps its bytes", func(t *testing.T) {
		id, err := im.NewBuffer(0)
		require.Nil(t, err)
		require.True(t, im.Append(id, []byte("abc")))
		_, err = im.Grow(id, 1<<20)
		require.NotNil(t, err)
		assert.Contains(t, err.Message, "memory budget")
		data, _ := im.TakeBuffer(id)
		assert.Equal(t, "abc", string(data))
	})
}

func TestCheckMemoryCountsTheCopyOfARequest(t *testing.T) {
	held := int64(0)
	n := 1000
	st := budgetStore(t, int64(n*RequestGrowth), &held)
	assert.Nil(t, st.s.Reserve("request", 0, n, RequestGrowth), "in memory already: n × RequestGrowth fits")
	err := st.CheckMemory(n)
	require.NotNil(t, err, "not yet copied: n more bytes do not")
	assert.Contains(t, err.Message, "request of 1000 bytes refused: it needs about 4000 bytes")
}

func TestNoMemoryBudgetRefusesNothing(t *testing.T) {
	held := int64(1 << 40)
	st := budgetStore(t, 0, &held)
	assert.Nil(t, st.CheckMemory(1<<40))
	ok[json.RawMessage](t, st, map[string]any{"operation": "create", "sessionId": "a"})
	assert.Positive(t, MemoryInUse(), "the real gauge reads runtime/metrics")
}

// allocated returns the bytes f allocates with the collector off.
func allocated(f func()) uint64 {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// TestGrowthFactorsCoverLoadAndImport measures what the bulk requests
// allocate per byte of request (the collector off, as in the binding's
// bulk calls) and holds RequestGrowth and ImportGrowth above it.
func TestGrowthFactorsCoverLoadAndImport(t *testing.T) {
	if testing.Short() {
		t.Skip("builds tens of MB")
	}
	load := []byte(`{"operation":"snapshot.load","sessionId":"big","snapshot":` + chainSnapshot("big", 100_000) + `}`)
	owui := bigOpenWebUI(200, 60)
	claude := bigClaudeCode(20_000)
	cases := []struct {
		name   string
		size   int
		growth int
		run    func(st *Store)
	}{
		{"snapshot.load of a 100,000-message chain", len(load), RequestGrowth, func(st *Store) { st.Call(load) }},
		{"import of an Open WebUI export", len(owui), ImportGrowth, func(st *Store) { _, _ = st.Import(owui, "auto") }},
		{"import of a Claude Code transcript", len(claude), ImportGrowth, func(st *Store) { _, _ = st.Import(claude, "auto") }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st := New(Options{})
			got := float64(allocated(func() { tc.run(st) })) / float64(tc.size)
			t.Logf("%s: %d bytes of request, %.2f bytes allocated per byte", tc.name, tc.size, got)
			assert.Less(t, got, float64(tc.growth))
		})
	}
}
