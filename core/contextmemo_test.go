package core

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestContextColumnsAlongARandomWalk: contexts in columns laid out from the
// last one (textsMemo: a chat turn) are those of the whole path, in a
// seeded walk of appends (plain, wide, tool-shaped), entries that change
// the state, custom messages, compactions (whose added part makes Texts
// lay the path out whole again), summaries, jumps back (the memo's path is
// then no prefix) and a clone, every context compared with the parsed
// one, state included.
func TestContextColumnsAlongARandomWalk(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 99))
			st := testStore(t)
			session := "w"
			mustCall(t, st, `{"operation":"create","sessionId":"w"}`)
			var ids []string
			memoUsed := 0
			for step := 0; step < 160; step++ {
				req := ""
				switch r := rng.IntN(20); {
				case r < 9:
					content := fmt.Sprintf("turn %d", step)
					if rng.IntN(3) == 0 {
						content += " é 🎉"
					}
					req = `{"operation":"append","sessionId":"` + session + `","message":{"role":"` + []string{"user", "assistant"}[step%2] + `","content":"` + content + `"}}`
				case r == 9:
					req = `{"operation":"append","sessionId":"` + session + `","message":{"role":"assistant","content":[{"type":"text","text":"parts"}],"tool_calls":[]}}`
				case r == 10:
					req = `{"operation":"append","sessionId":"` + session + `","entry":{"kind":"model_change","provider":"p","model":"m` + fmt.Sprint(step) + `"}}`
				case r == 11:
					req = `{"operation":"append","sessionId":"` + session + `","entry":{"kind":"custom_message","customType":"note","content":"custom ` + fmt.Sprint(step) + `","display":true}}`
				case r == 12 && len(ids) > 2:
					kept := ids[rng.IntN(len(ids))]
					if !onPath(t, st, session, kept) {
						continue
					}
					req = `{"operation":"append","sessionId":"` + session + `","entry":{"kind":"compaction","summary":"so far","firstKeptNodeId":"` + kept + `"}}`
				case r == 13 && len(ids) > 0:
					req = `{"operation":"branch.summary","sessionId":"` + session + `","nodeId":"` + ids[rng.IntN(len(ids))] + `","branch":"b` + fmt.Sprint(step) + `","summary":"summed"}`
				case r < 17 && len(ids) > 0:
					req = `{"operation":"jump","sessionId":"` + session + `","nodeId":"` + ids[rng.IntN(len(ids))] + `"}`
				case r == 17 && step > 80 && session == "w":
					mustCall(t, st, `{"operation":"clone","sessionId":"w","newSessionId":"w2"}`)
					session = "w2"
					continue
				default:
					req = `{"operation":"context","sessionId":"` + session + `"}`
				}
				out := string(st.Call([]byte(req)))
				require.True(t, strings.HasPrefix(out, `{"ok":true`), "%s: %s", req, out)
				if strings.Contains(req, `"operation":"append"`) || strings.Contains(req, "branch.summary") {
					var v struct {
						Value struct {
							ID string `json:"id"`
						} `json:"value"`
					}
					require.NoError(t, json.Unmarshal([]byte(out), &v))
					if v.Value.ID != "" {
						ids = append(ids, v.Value.ID)
					}
				}
				s := st.s.ByID[session]
				if m := st.views.TextsOf(s).Last; m.Depth > 0 && s.IsAncestor(m.Last, s.Cursor) {
					memoUsed++ // the path goes on from the memo's (compactions aside)
				}
				want, got, _ := contextBothWays(t, st, session)
				require.Len(t, got, len(want), "step %d (%s)", step, req)
				for i := range want {
					assert.JSONEq(t, string(want[i]), got[i], "step %d (%s), message %d", step, req, i)
				}
			}
			assert.Greater(t, memoUsed, 10, "contexts that could start from the memo")
		})
	}
}

// onPath reports whether node id is on the path to the session's cursor.
func onPath(t *testing.T, st *Store, session, id string) bool {
	t.Helper()
	s := st.s.ByID[session]
	i, ok := s.Index[id]
	return ok && s.Cursor >= 0 && s.IsAncestor(i, s.Cursor)
}
