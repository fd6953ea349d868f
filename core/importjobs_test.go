package core

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// twoOpenWebUIChats is an Open WebUI export of two conversations (716
// bytes of work: read, then store).
const twoOpenWebUIChats = `[{"id":"c","chat":{"history":{"currentId":"b","messages":{"a":{"id":"a","parentId":null,"childrenIds":["b"],"role":"user","content":"q"},"b":{"id":"b","parentId":"a","childrenIds":[],"role":"assistant","content":"r"}}}}},` +
	`{"id":"d","chat":{"history":{"currentId":"x","messages":{"x":{"id":"x","parentId":null,"childrenIds":[],"role":"user","content":"s"}}}}}]`

func TestImportsRunAJobInSteps(t *testing.T) {
	st := testStore(t)
	im := NewImports(st)
	job, total, err := im.Start([]byte(twoOpenWebUIChats), "auto")
	require.Nil(t, err)
	assert.Equal(t, 1, job, "the first id")
	assert.Equal(t, 2*len(twoOpenWebUIChats), total, "reading, then storing")
	var steps []ImportProgress
	for len(steps) < 10 {
		p, known := im.Step(job, 1)
		require.True(t, known)
		steps = append(steps, p)
		if len(steps) == 2 {
			assert.Empty(t, ok[[]Status](t, st, `{"operation":"sessions"}`), "nothing is added while reading")
		}
		if p.Done {
			break
		}
	}
	assert.Equal(t, []ImportProgress{
		{Done: false, Read: 220, Total: 716}, {Done: false, Read: 357, Total: 716}, {Done: false, Read: 358, Total: 716}, // reading
		{Done: false, Read: 600, Total: 716}, {Done: true, Read: 716, Total: 716}, // storing, one session a step
	}, steps)
	res, found, err := im.Finish(job)
	require.True(t, found)
	require.Nil(t, err)
	assert.Equal(t, "openwebui", res.Format)
	require.Len(t, res.Sessions, 2)
	assert.Equal(t, "c", res.Sessions[0].SessionID)

	_, found, err = im.Finish(job)
	assert.False(t, found, "a finished job is gone")
	assert.Nil(t, err)
	_, known := im.Step(job, 1)
	assert.False(t, known)
}

func TestImportsBufferATextInSlices(t *testing.T) {
	st := testStore(t)
	im := NewImports(st)
	buf, berr := im.NewBuffer(10)
	require.Nil(t, berr)
	for i := 0; i < len(twoOpenWebUIChats); i += 100 {
		require.True(t, im.Append(buf, []byte(twoOpenWebUIChats[i:min(i+100, len(twoOpenWebUIChats))])))
	}
	tail, gerr := im.Grow(buf, 0)
	require.Nil(t, gerr)
	assert.Empty(t, tail)
	data, known := im.TakeBuffer(buf)
	require.True(t, known)
	assert.Equal(t, twoOpenWebUIChats, string(data))
	_, known = im.TakeBuffer(buf)
	assert.False(t, known, "a buffer is used once")
	assert.False(t, im.Append(buf, []byte("x")), "a taken buffer takes no more bytes")

	job, _, err := im.Start(data, "openwebui")
	require.Nil(t, err)
	assert.Equal(t, buf+1, job, "buffers and jobs share one counter")
	p, known := im.Step(job, 0)
	require.True(t, known)
	assert.Equal(t, ImportProgress{Done: false, Read: 358, Total: 716}, p, "budget 0: DefaultStepBudget, all of the reading")
	res, found, err := im.Finish(job)
	require.True(t, found)
	require.Nil(t, err)
	assert.Len(t, res.Sessions, 2)
}

func TestImportsGrowBuffersByDoubling(t *testing.T) {
	im := NewImports(testStore(t))
	buf, _ := im.NewBuffer(4)
	caps := []int{} // after 3, 6, 9, 12, 15 bytes
	for i := 0; i < 5; i++ {
		tail, err := im.Grow(buf, 3)
		require.Nil(t, err)
		copy(tail, "abc")
		caps = append(caps, cap(im.Buffers[buf]))
	}
	assert.Equal(t, []int{4, 11, 11, 25, 25}, caps, "a full buffer grows to twice its capacity plus what is added")
	assert.Equal(t, strings.Repeat("abc", 5), string(im.Buffers[buf]))
	_, err := im.Grow(buf, -1)
	assert.ErrorIs(t, err, ErrInvalidArgument, "a negative length is refused")
	assert.Len(t, im.Buffers[buf], 15, "and changes nothing")

	neg, _ := im.NewBuffer(-5)
	assert.Equal(t, 0, cap(im.Buffers[neg]), "a negative hint counts as 0")
}

func TestImportsRefuseIdsThatNameNothing(t *testing.T) {
	st := testStore(t)
	im := NewImports(st)
	buf, _ := im.NewBuffer(0)
	job, _, err := im.Start([]byte(twoOpenWebUIChats), "auto")
	require.Nil(t, err)
	cases := []struct {
		name string
		id   int
	}{
		{"an id never given out", 99},
		{"zero", 0},
		{"a negative id", -1},
		{"a job id used as a buffer", job},
	}
	for _, tc := range cases {
		t.Run(tc.name+" is refused without a panic", func(t *testing.T) {
			assert.False(t, im.Append(tc.id, []byte("x")))
			_, err := im.Grow(tc.id, 1)
			assert.ErrorIs(t, err, ErrInvalidArgument)
			_, known := im.TakeBuffer(tc.id)
			assert.False(t, known)
		})
	}
	for _, id := range []int{99, 0, -1, buf} {
		_, known := im.Step(id, 1)
		assert.False(t, known, "Step(%d)", id)
		res, found, err := im.Finish(id)
		assert.False(t, found, "Finish(%d)", id)
		assert.Nil(t, res)
		assert.Nil(t, err)
	}
}

func TestImportsCancelAJobOrABuffer(t *testing.T) {
	st := testStore(t)
	im := NewImports(st)
	buf, _ := im.NewBuffer(0)
	require.True(t, im.Append(buf, []byte(twoOpenWebUIChats)))
	job, _, err := im.Start([]byte(twoOpenWebUIChats), "auto")
	require.Nil(t, err)
	_, known := im.Step(job, 1)
	require.True(t, known)

	im.Cancel(job)
	im.Cancel(buf)
	im.Cancel(12345) // names nothing: no effect
	_, known = im.Step(job, 1)
	assert.False(t, known, "the job is gone")
	_, known = im.TakeBuffer(buf)
	assert.False(t, known, "the buffer is gone")
	assert.Empty(t, ok[[]Status](t, st, `{"operation":"sessions"}`), "a job cancelled while reading added nothing")
}

func TestImportsReportImportErrors(t *testing.T) {
	st := testStore(t)
	im := NewImports(st)
	_, _, err := im.Start([]byte("  "), "auto")
	require.NotNil(t, err)
	assert.Equal(t, &Error{Code: InvalidArgument, Message: "import data is empty"}, err)
	assert.Equal(t, 0, im.Last, "a refused start uses no id")

	// A ZIP given as an export file is named for what it is.
	for _, zip := range []string{"PK\x03\x04\x14\x00\x00\x00\x08\x00", "PK\x05\x06" + strings.Repeat("\x00", 18)} {
		_, _, err = im.Start([]byte(zip), "auto")
		require.NotNil(t, err)
		assert.Equal(t, InvalidArgument, err.Code)
		assert.Contains(t, err.Message, "import data is a ZIP archive, not an export file: import it with importZip")
	}

	// Every conversation imported before: the job adds nothing, and says so.
	_, err = st.Import([]byte(twoOpenWebUIChats), "auto")
	require.Nil(t, err)
	job, _, err := im.Start([]byte(twoOpenWebUIChats), "auto")
	require.Nil(t, err)
	res, found, err := im.Finish(job)
	require.True(t, found)
	require.Nil(t, err)
	for _, s := range res.Sessions {
		assert.True(t, s.Existing)
		assert.Equal(t, 0, s.Added)
	}
	out, _ := json.Marshal(ImportProgress{Done: true, Read: 1, Total: 2})
	assert.Equal(t, `{"done":true,"read":1,"total":2}`, string(out))
}

func TestAJobOfABufferTheBudgetTookStarts(t *testing.T) {
	held := int64(0)
	st := budgetStore(t, 1<<20, &held)
	im := NewImports(st)
	hint := 1 << 20 / 6 // made with ImportJobGrowth; ImportGrowth would refuse it
	id, err := im.NewBuffer(hint)
	require.Nil(t, err)
	data := `[{"title":"t","mapping":{},"pad":"` + strings.Repeat("x", hint-40) + `"}]`
	require.True(t, im.Append(id, []byte(data)))
	held = int64(len(data)) // the buffer is in memory now
	buf, _ := im.TakeBuffer(id)
	job, _, err := im.Start(buf, "chatgpt")
	require.Nil(t, err, "the job is checked with ImportJobGrowth, as its buffer was")
	assert.NotZero(t, job)
	_, err = st.StartImport(buf, "chatgpt")
	require.NotNil(t, err, "a one-call import of the same bytes is checked with ImportGrowth")
	assert.Contains(t, err.Message, "memory budget")
}
