package tree

import (
	"errors"
	"strings"
	"testing"

	"github.com/sessiontree/sessiontree/core/internal/formats"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tree is used here as the store uses it, without a store or JSON
// requests: Place and Add for an append, CheckBranchTarget and BranchAt,
// ForkAt, the context, the snapshot codec.

const at = "2026-12-03T09:00:00.000Z"

// add appends a message node with id to s on branch ("" for the active
// one), as Store.AppendNode does.
func add(t *testing.T, s *Session, id, role, content, branch string) {
	t.Helper()
	raw := RawMessage(`{"role":"` + role + `","content":"` + content + `"}`)
	msg, r, err := ValidateMessage(raw, "message")
	require.Nil(t, err)
	p, err := s.Place(branch)
	require.Nil(t, err)
	s.Add(&Node{ID: id, Kind: formats.KindMessage, Timestamp: at, Message: msg, MessageRole: r}, p)
}

// contents returns the content of each message of s's context.
func contents(s *Session) []string {
	var out []string
	for _, m := range s.Context().Messages {
		out = append(out, contentOf(m))
	}
	return out
}

// contentOf reads a test message's string content back.
func contentOf(m RawMessage) string {
	_, after, _ := strings.Cut(string(m), `"content":"`)
	return strings.TrimSuffix(after, `"}`)
}

// chat returns a session of four turns: u1, a1, u2, a2.
func chat(t *testing.T) *Session {
	s := NewSession("s", "Arithmetic", at)
	add(t, s, "u1", "user", "hi", "")
	add(t, s, "a1", "assistant", "hello", "")
	add(t, s, "u2", "user", "2+2?", "")
	add(t, s, "a2", "assistant", "4", "")
	return s
}

func TestABranchAtAnEarlierNodeLeavesTheOtherTipAndMovesTheContext(t *testing.T) {
	s := chat(t)
	assert.Equal(t, []string{"hi", "hello", "2+2?", "4"}, contents(s))

	a1, err := s.Lookup("a1")
	require.Nil(t, err)
	require.Nil(t, s.CheckBranchTarget(a1, "retry"))
	s.BranchAt(a1, "retry")
	add(t, s, "u3", "user", "3+3?", "retry")

	st := s.Status()
	assert.Equal(t, 5, st.NodeCount)
	assert.Equal(t, 2, st.BranchCount)
	assert.Equal(t, 2, st.LeafCount)
	assert.Equal(t, "retry", st.ActiveBranch)
	require.NotNil(t, st.Cursor)
	assert.Equal(t, "u3", *st.Cursor)
	assert.Equal(t, []string{"hi", "hello", "3+3?"}, contents(s))

	byName := map[string]string{}
	for _, b := range s.BranchList() {
		byName[b.Name] = *b.Tip
	}
	assert.Equal(t, map[string]string{formats.DefaultBranch: "a2", "retry": "u3"}, byName)

	// A name in use by another branch is refused, and changes nothing.
	err = s.CheckBranchTarget(a1, formats.DefaultBranch)
	require.NotNil(t, err)
	assert.Equal(t, InvalidArgument, err.Code)
	assert.Equal(t, "retry", s.Active)
}

func TestAnAppendAwayFromTheTipOpensANamedBranch(t *testing.T) {
	s := chat(t)
	u2, _ := s.Lookup("u2")
	s.Cursor = u2 // a jump: the active branch's tip is a2
	add(t, s, "a2b", "assistant", "four", "")
	assert.Equal(t, "main-2", s.Active, "the new branch is named after the one it leaves")
	assert.Equal(t, []string{"hi", "hello", "2+2?", "four"}, contents(s))
	assert.Equal(t, 2, s.Status().LeafCount)
}

func TestAForkHoldsThePathAndRecordsItsSource(t *testing.T) {
	s := chat(t)
	u2, _ := s.Lookup("u2")
	f := s.ForkAt(u2, "f", at)
	assert.Equal(t, "f", f.ID())
	assert.Equal(t, 3, f.Len())
	assert.Equal(t, []string{"hi", "hello", "2+2?"}, contents(f))
	require.NotNil(t, f.Source)
	assert.Equal(t, "s", f.Source.SessionID)
	assert.Equal(t, 4, s.Len(), "the session forked from is unchanged")
}

func TestASnapshotRoundTripsByteForByte(t *testing.T) {
	s := chat(t)
	a1, _ := s.Lookup("a1")
	s.BranchAt(a1, "retry")
	add(t, s, "u3", "user", "3+3?", "retry")
	saved := s.AppendSnapshot(nil)

	back, hasTitle, err := ParseSnapshot(saved, "s")
	require.Nil(t, err)
	assert.True(t, hasTitle)
	assert.Equal(t, string(saved), string(back.AppendSnapshot(nil)))
	assert.Equal(t, contents(s), contents(back))

	_, _, err = ParseSnapshot(saved, "other")
	require.NotNil(t, err)
	assert.Equal(t, InvalidSnapshot, err.Code)
}

func TestLookupOfAMissingNodeIsNodeNotFound(t *testing.T) {
	s := chat(t)
	_, err := s.Lookup("nope")
	require.NotNil(t, err)
	assert.True(t, errors.Is(err, ErrNodeNotFound))
	assert.Equal(t, `node "nope" is not in session "s"`, err.Message)
}

// TestStubsMakesStubsAsNewStubDoes: each stub of a slab is what NewStub
// makes, its own session and page (writing one changes no other), and past
// the slab's room New still makes them.
func TestStubsMakesStubsAsNewStubDoes(t *testing.T) {
	m := NewStubs(2)
	var made []*Session
	for _, id := range []string{"a", "b", "c"} {
		made = append(made, m.New(id))
	}
	for i, s := range made {
		want := NewStub(s.ID(), &PageStub{})
		assert.Equal(t, want, s, "stub %d", i)
	}
	assert.Equal(t, []string{"a", "b", "c"}, []string{made[0].ID(), made[1].ID(), made[2].ID()})
	made[0].Title, made[0].Paged.NodeCount = "changed", 7
	assert.Equal(t, "", made[1].Title)
	assert.Equal(t, 0, made[1].Paged.NodeCount)
	assert.NotSame(t, made[0].Paged, made[1].Paged)
	assert.Equal(t, 0, len(m.sessions), "the slab is used up; c was made alone")
}
