package core

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sessiontree/sessiontree/core/internal/formats"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestImportDeepRecursiveLibreChat imports a recursive LibreChat export
// nested 20,000 messages deep (40,000 JSON levels): encoding/json stops at
// 10,000 levels; the importer's token walk has no depth limit and reads
// each byte once.
func TestImportDeepRecursiveLibreChat(t *testing.T) {
	const depth = 20000
	var b strings.Builder
	b.WriteString(`{"conversationId":"deep","recursive":true,"messages":[`)
	for i := 0; i < depth; i++ {
		parent := formats.LibreRoot
		if i > 0 {
			parent = fmt.Sprintf("m%d", i-1)
		}
		fmt.Fprintf(&b, `{"messageId":"m%d","parentMessageId":%q,"isCreatedByUser":%t,"text":"t%d","children":[`, i, parent, i%2 == 0, i)
	}
	for i := 0; i < depth; i++ {
		b.WriteString(`]}`)
	}
	b.WriteString(`]}`)
	st := testStore(t)
	res := mustImport(t, st, []byte(b.String()), "auto")
	require.Len(t, res.Sessions, 1)
	assert.Equal(t, depth, res.Sessions[0].NodeCount)
	assert.Equal(t, fmt.Sprintf("m%d", depth-1), *res.Sessions[0].Cursor)
	status := ok[Status](t, st, obj{"operation": "session", "sessionId": "deep"})
	assert.Equal(t, depth, status.Depth)
}
