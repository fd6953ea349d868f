package importplan

import (
	"errors"
	"testing"

	"github.com/sessiontree/sessiontree/core/internal/formats"
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// roleOf is a Validate for tests: a message is `{"role":…}` with a
// non-empty role; anything else is refused.
func roleOf(raw jsonx.RawMessage, what string, _ bool) (jsonx.RawMessage, string, error) {
	var role string
	ok := jsonx.ReadObject(raw, []string{"role"}, func(_ int, v []byte) { jsonx.ReadString(v, &role) })
	if !ok || role == "" {
		return nil, "", errors.New(what + " has no role")
	}
	return raw, role, nil
}

// rec is a message record with id, parent and time.
func rec(id, parent string, time float64) formats.Record {
	return formats.Record{ID: id, ParentID: parent, Time: time, Message: jsonx.RawMessage(`{"role":"user"}`)}
}

// index returns the index of the record with id id, −1 for none.
func index(t *Tree, id string) int32 {
	for i := range t.Records {
		if t.Records[i].ID == id {
			return int32(i)
		}
	}
	return -1
}

func ids(t *Tree, idx []int32) []string {
	out := make([]string, len(idx))
	for k, i := range idx {
		out[k] = t.Records[i].ID
	}
	return out
}

func TestPlanSkipsWhatCannotBeUsedAndCutsCycles(t *testing.T) {
	bad := rec("bad", "a", 2)
	bad.Message = jsonx.RawMessage(`{"content":"no role"}`)
	c := &formats.Conversation{ID: "conv", Current: "d", Records: []formats.Record{
		rec("a", "", 1),
		bad,
		rec("c", "bad", 3), // attaches to a once bad is dropped
		rec("a", "", 9),    // a repeated id
		rec("d", "c", 4),
		rec("e", "nowhere", 5),             // a missing parent: a root
		rec("x", "y", 6), rec("y", "x", 7), // a cycle: y's link is cut
		{ParentID: "a"}, // no id
	}}
	tr := &Tree{ID: "s"}
	order, cursor, ok := tr.Plan(c, roleOf)
	require.True(t, ok)
	assert.Equal(t, []string{"a", "c", "d", "e", "y", "x"}, ids(tr, order))
	assert.Equal(t, "d", tr.Records[cursor].ID)
	assert.Equal(t, index(tr, "a"), tr.Par[index(tr, "c")], "c attaches to its dropped parent's parent")
	assert.Equal(t, int32(-1), tr.Par[index(tr, "y")], "the cycle's last record becomes a root")
	assert.Len(t, tr.Warnings, 5, "the bad message, the repeat, the missing parent, the cycle and the record without an id")
	for _, w := range tr.Warnings {
		assert.Equal(t, "s", w.SessionID)
	}
}

func TestPlanRefusesAConversationWithNoUsableRecord(t *testing.T) {
	c := &formats.Conversation{ID: "conv", Records: []formats.Record{{ParentID: "x"}}}
	tr := &Tree{ID: "s"}
	_, _, ok := tr.Plan(c, roleOf)
	assert.False(t, ok)
	assert.Len(t, tr.Warnings, 1)
}

func TestPlanChainsALinearConversationAndStandsAtItsEnd(t *testing.T) {
	c := &formats.Conversation{ID: "conv", Linear: true, Records: []formats.Record{rec("", "", 1), rec("", "", 1), rec("", "", 1)}}
	tr := &Tree{ID: "s"}
	order, cursor, ok := tr.Plan(c, roleOf)
	require.True(t, ok)
	assert.Equal(t, []int32{0, 1, 2}, order)
	assert.Equal(t, int32(2), cursor)
	assert.Equal(t, []int32{-1, 0, 1}, tr.Par)
	assert.NotEmpty(t, tr.Records[0].ID, "a derived id")
}

func TestBranchesKeepThePathToTheCursorAndOpenOneForEachOtherChild(t *testing.T) {
	// a → b → (d, e), a → c; the cursor on c.
	c := &formats.Conversation{ID: "conv", Current: "c", Records: []formats.Record{
		rec("a", "", 1), rec("b", "a", 2), rec("c", "a", 3), rec("d", "b", 4), rec("e", "b", 5), rec("r", "", 6),
	}}
	tr := &Tree{ID: "s"}
	order, cursor, ok := tr.Plan(c, roleOf)
	require.True(t, ok)
	got := map[string]Branching{}
	for i, b := range tr.Branches(order, cursor, nil) {
		got[tr.Records[i].ID] = b
	}
	assert.Equal(t, map[string]Branching{
		"a": BranchMain, "c": BranchParent, "b": BranchOpen, "d": BranchParent, "e": BranchOpen, "r": BranchRoot,
	}, got)
	kept := tr.Branches(order, cursor, func(name string) bool { return name == "" })
	assert.Equal(t, []Branching{BranchKept, BranchKept, BranchKept, BranchKept, BranchKept, BranchKept}, kept)
}

func TestBatchesKeepGroupsWhole(t *testing.T) {
	groups := []formats.FileGroup{{Files: []int{3, 0}}, {Files: []int{1}}, {Files: []int{2}}}
	sizes := []int64{5, 10, 1, 5}
	assert.Equal(t, [][]int{{0, 3}, {1}, {2}}, Batches(groups, sizes, 10), "a group of 10 bytes, then 10 that does not fit with it")
	assert.Equal(t, [][]int{{0, 1, 2, 3}}, Batches(groups, sizes, 100))
	assert.Equal(t, [][]int{}, Batches(nil, nil, 10))
}
