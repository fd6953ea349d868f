package wire_test

import (
	"fmt"
	"strconv"
	"time"

	"github.com/sessiontree/sessiontree/core"
	"github.com/sessiontree/sessiontree/core/wire"
)

// exampleStore returns a store with a fixed clock and ids n1, n2, … and
// one session "s" of two messages.
func exampleStore() *core.Store {
	seq := 0
	st := core.New(core.Options{
		Now:   func() time.Time { return time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC) },
		NewID: func() string { seq++; return "n" + strconv.Itoa(seq) },
	})
	st.Call([]byte(`{"operation":"create","sessionId":"s"}`))
	st.Call([]byte(`{"operation":"append","sessionId":"s","message":{"role":"user","content":"plain"}}`))
	st.Call([]byte(`{"operation":"append","sessionId":"s","message":{"role":"assistant","content":"café"}}`))
	return st
}

func ExampleCallParsed() {
	st := exampleStore()
	fmt.Println(string(wire.CallParsed(st, []byte(`{"operation":"context","sessionId":"s"}`))))
	// Output:
	// {"ok":true,"value":{"cursor":"n2","messages":[{"role":"user","content":"plain"},{"role":"assistant","content":"caf\u00e9"}],"state":{"model":null,"thinkingLevel":null,"activeTools":null,"sessionName":null}}}
}

func ExampleCallColumns() {
	st := exampleStore()
	out, cols := wire.CallColumns(st, []byte(`{"operation":"context","sessionId":"s"}`))
	fmt.Println(out == nil)
	fmt.Println(string(cols.Head))
	fmt.Printf("ascii %q, wide %q, rows %v\n", cols.ASCII, cols.Wide, cols.Rows)
	// A caller that kept the messages of that layout gets only what follows.
	held := wire.Layout{Cache: cols.Cache, Layout: 1}
	st.Call([]byte(`{"operation":"append","sessionId":"s","message":{"role":"user","content":"more"}}`))
	_, cols = wire.CallColumns(st, []byte(`{"operation":"context","sessionId":"s"}`), held)
	fmt.Println(string(cols.Head))
	fmt.Printf("ascii %q, rows %v\n", cols.ASCII, cols.Rows)
	// Any other request answers as CallParsed.
	out, cols = wire.CallColumns(st, []byte(`{"operation":"context","sessionId":"missing"}`))
	fmt.Println(string(out), cols == nil)
	// Output:
	// true
	// {"cursor":"n2","state":{"model":null,"thinkingLevel":null,"activeTools":null,"sessionName":null},"count":2,"roles":["user","assistant"],"other":[],"layout":1,"prefix":0}
	// ascii "plain", wide "café", rows [0 0 5 6 0 4]
	// {"cursor":"n3","state":{"model":null,"thinkingLevel":null,"activeTools":null,"sessionName":null},"count":3,"roles":["user","assistant"],"other":[],"layout":2,"prefix":2}
	// ascii "plainmore", rows [0 5 9]
	// {"ok":false,"error":{"code":"SESSION_NOT_FOUND","message":"session \"missing\" does not exist"}} true
}
