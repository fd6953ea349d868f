package core

import (
	"encoding/json"
	"fmt"
	"time"
)

// A text command answers the same envelope as every operation; its value
// carries text to show and data for code.
func ExampleStore_Call_command() {
	seq := 0
	st := New(Options{
		Now:   func() time.Time { return time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC) },
		NewID: func() string { seq++; return fmt.Sprintf("n%d", seq) },
	})
	st.Call([]byte(`{"operation":"create","sessionId":"demo"}`))
	st.Call([]byte(`{"operation":"append","sessionId":"demo","message":{"role":"user","content":"Explore option A"}}`))
	st.Call([]byte(`{"operation":"append","sessionId":"demo","message":{"role":"assistant","content":"Baseline answer"}}`))
	st.Call([]byte(`{"operation":"command","sessionId":"demo","line":"/tree branch n1 option-b"}`))
	st.Call([]byte(`{"operation":"append","sessionId":"demo","message":{"role":"user","content":"Explore option B"}}`))
	st.Call([]byte(`{"operation":"command","sessionId":"demo","line":"/tree label n1 \"the start\""}`))

	var env struct {
		Value CommandResult `json:"value"`
	}
	_ = json.Unmarshal(st.Call([]byte(`{"operation":"command","sessionId":"demo","line":"/tree tree"}`)), &env)
	fmt.Print(env.Value.Text)
	_ = json.Unmarshal(st.Call([]byte(`{"operation":"command","sessionId":"demo","line":"/fork n3"}`)), &env)
	fmt.Print(env.Value.Text)
	fmt.Println(string(st.Call([]byte(`{"operation":"command","sessionId":"demo","line":"/fork n2"}`))))
	// Output:
	// n1 user: Explore option A  [label: the start]
	// ├─ n2 assistant: Baseline answer  [main]
	// └─ n3 user: Explore option B  [option-b*]  ← cursor
	// forked demo before n3 into n4: 1 node, cursor n1
	// draft: Explore option B
	// {"ok":false,"error":{"code":"INVALID_ARGUMENT","message":"/fork needs a user message; node \"n2\" is an assistant message"}}
}
