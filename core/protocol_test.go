package core

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEveryPublicOperationHasAContract(t *testing.T) {
	contracts, types := opContracts(), fieldTypes()
	for name, op := range operations {
		c, ok := contracts[name]
		if op.flags&internal != 0 {
			assert.False(t, ok, "internal operation %q has no contract (it is not in the .d.ts)", name)
			continue
		}
		if !assert.True(t, ok, "operation %q needs its line in opContracts (core/protocol.go), then go generate ./...", name) {
			continue
		}
		assert.NotEmpty(t, c.value, "operation %q: the value's type", name)
		for _, f := range c.required {
			assert.Contains(t, op.fields, f, "operation %q: required field %q is one of its fields", name, f)
		}
		for f := range c.types {
			assert.Contains(t, op.fields, f, "operation %q: typed field %q is one of its fields", name, f)
		}
		if c.request == "" {
			for _, f := range op.fields {
				_, typed := c.types[f]
				assert.True(t, typed || types[f] != "", "operation %q: field %q has a type in fieldTypes or its contract", name, f)
			}
		}
	}
	for name := range contracts {
		_, ok := operations[name]
		assert.True(t, ok, "opContracts names %q, which is not in the operation table", name)
	}
}

func TestProtocolSaysWhatCoreDoes(t *testing.T) {
	p := Protocol()
	t.Run("every operation of the table is listed once, sorted, with its flags", func(t *testing.T) {
		require.Len(t, p.Operations, len(operations))
		names := make([]string, len(p.Operations))
		for i, o := range p.Operations {
			names[i] = o.Name
			assert.Len(t, o.Types, len(o.Fields), "operation %q", o.Name)
		}
		assert.True(t, slices.IsSorted(names))
		jump := p.Operations[slices.Index(names, "jump")]
		assert.Equal(t, []string{"nodeId: string", "sessionId: string"}, slices.Sorted(slices.Values(jump.Types)))
		assert.False(t, jump.ReadOnly)
		create := p.Operations[slices.Index(names, "create")]
		assert.Equal(t, []string{"sessionId: string", "title?: string"}, create.Types)
		restore := p.Operations[slices.Index(names, "restore")]
		assert.False(t, restore.Public)
	})
	t.Run("the codes are the six of errors.go and the shim's own", func(t *testing.T) {
		assert.Equal(t, []Code{"INVALID_ARGUMENT", "SESSION_NOT_FOUND", "SESSION_ALREADY_EXISTS", "NODE_NOT_FOUND", "INVALID_SNAPSHOT", "NOT_FOUND"}, p.Codes)
		assert.Equal(t, []Code{"STORAGE_ERROR"}, p.ShimCodes)
	})
	t.Run("answers start with the envelope heads", func(t *testing.T) {
		st := testStore(t)
		okAnswer := string(st.Call([]byte(`{"operation":"create","sessionId":"s"}`)))
		failed := string(st.Call([]byte(`{"operation":"session","sessionId":"nope"}`)))
		assert.True(t, strings.HasPrefix(okAnswer, p.EnvelopeOKHead), okAnswer)
		assert.True(t, strings.HasPrefix(failed, p.EnvelopeFailedHead+`"SESSION_NOT_FOUND"`), failed)
	})
	t.Run("a snapshot's members come in SnapshotMembers' order", func(t *testing.T) {
		st := testStore(t)
		st.Call([]byte(`{"operation":"create","sessionId":"s","title":"t"}`))
		st.Call([]byte(`{"operation":"append","sessionId":"s","message":{"role":"user","content":"hi"}}`))
		st.Call([]byte(`{"operation":"label","sessionId":"s","nodeId":"` + *ok[Status](t, st, obj{"operation": "session", "sessionId": "s"}).Cursor + `","label":"x"}`))
		snap := string(st.Call([]byte(`{"operation":"snapshot.save","sessionId":"s"}`)))
		at := -1
		for _, m := range p.SnapshotMembers {
			i := strings.Index(snap, `"`+m+`":`)
			require.Greater(t, i, at, "member %q after the one before it in %.120s", m, snap)
			at = i
		}
		assert.True(t, strings.HasPrefix(snap, p.EnvelopeOKHead+`{"version":1,"sessionId":`))
		assert.Equal(t, DrainGroupNodes, p.ChunkSize)
	})
}
