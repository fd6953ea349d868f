package core

import (
	"fmt"
	"time"
)

// Run answers as Call does but leaves the encoding to the caller: here the
// context's Go value, and Call's bytes from the same answer.
func ExampleStore_Run() {
	seq := 0
	st := New(Options{
		Now:   func() time.Time { return time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC) },
		NewID: func() string { seq++; return fmt.Sprintf("n%d", seq) },
	})
	st.Call([]byte(`{"operation":"create","sessionId":"demo"}`))
	st.Call([]byte(`{"operation":"append","sessionId":"demo","message":{"role":"user","content":"hello"}}`))

	a := st.Run([]byte(`{"operation":"context","sessionId":"demo"}`))
	c := a.Value.(ContextView).Context()
	fmt.Println(a.Operation, *c.Cursor, len(c.Messages), string(c.Messages[0]))
	fmt.Println(string(a.Envelope()))

	a = st.Run([]byte(`{"operation":"context","sessionId":"nope"}`))
	fmt.Printf("%q %v %s\n", a.Operation, a.Value, a.Err)
	// Output:
	// context n1 1 {"role":"user","content":"hello"}
	// {"ok":true,"value":{"cursor":"n1","messages":[{"role":"user","content":"hello"}],"state":{"model":null,"thinkingLevel":null,"activeTools":null,"sessionName":null}}}
	// "context" <nil> SESSION_NOT_FOUND: session "nope" does not exist
}
