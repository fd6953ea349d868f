package core

import (
	"testing"

	"github.com/sessiontree/sessiontree/core/internal/importer"
	"github.com/stretchr/testify/require"
)

func TestImportBatchesKeepGroupsWholeAndLeaveOutWhatNoFormatReads(t *testing.T) {
	st := testStore(t)
	req := `{"operation":"import.batches","bytes":100,"files":[` +
		`{"path":"codex/a.jsonl","size":60},` + // 0
		`{"path":"codex/b.jsonl","size":60},` + // 1: does not fit beside a, nor the task beside it
		`{"path":"pics/cat.png","size":5000},` + // 2: no format reads it
		`{"path":"tasks/t1/api_conversation_history.json","size":30},` + // 3: one Cline task …
		`{"path":"codex/c.jsonl","size":20},` + // 4
		`{"path":"tasks/t1/ui_messages.json","size":30},` + // 5: … the same task
		`{"path":"huge.jsonl","size":500}` + // 6: alone, larger than a batch
		`]}`
	v := ok[importer.Batches](t, st, req)
	require.Equal(t, [][]int{{0}, {1}, {3, 4, 5}, {6}}, v.Batches)
	require.Len(t, v.Skipped, 1)
	require.Equal(t, float64(2), v.Skipped[0][0])
	require.Contains(t, v.Skipped[0][1], "not a session file")
}

func TestImportBatchesRefusesBadFields(t *testing.T) {
	st := testStore(t)
	for _, req := range []string{
		`{"operation":"import.batches","bytes":10}`,
		`{"operation":"import.batches","files":{},"bytes":10}`,
		`{"operation":"import.batches","files":[{"path":"a","size":-1}],"bytes":10}`,
		`{"operation":"import.batches","files":[],"bytes":0}`,
		`{"operation":"import.batches","files":[],"bytes":"x"}`,
	} {
		fails(t, st, req, InvalidArgument)
	}
	require.Equal(t, [][]int{}, ok[importer.Batches](t, st, `{"operation":"import.batches","files":[],"bytes":10}`).Batches)
}
