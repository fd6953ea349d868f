package core

import (
	"fmt"
	"time"
)

// A chat app's turn of operations: a history migrated in one call, the
// context with node ids (to edit the assistant's answer), the edit as a
// sibling, a switch back to the first version's newest leaf, a rename,
// and a delete with its undo.
func ExampleStore_Call_chatApp() {
	seq := 0
	st := New(Options{
		Now:   func() time.Time { return time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC) },
		NewID: func() string { seq++; return fmt.Sprintf("n%d", seq) },
	})
	call := func(req string) { fmt.Println(string(st.Call([]byte(req)))) }
	call(`{"operation":"append.many","sessionId":"chat","create":true,"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]}`)
	call(`{"operation":"jump","sessionId":"chat","nodeId":"n1"}`)
	call(`{"operation":"append","sessionId":"chat","message":{"role":"assistant","content":"hey"}}`)
	call(`{"operation":"context","sessionId":"chat","ids":true}`)
	call(`{"operation":"switch","sessionId":"chat","nodeId":"n2"}`)
	call(`{"operation":"rename","sessionId":"chat","title":"Greetings"}`)
	call(`{"operation":"delete","sessionId":"chat"}`)
	call(`{"operation":"trash.restore","sessionId":"chat"}`)
	// Output:
	// {"ok":true,"value":{"nodeIds":["n1","n2"],"session":{"sessionId":"chat","title":"","cursor":"n2","activeBranch":"main","nodeCount":2,"branchCount":1,"leafCount":1,"depth":2,"createdAt":"2026-11-29T12:00:00.000Z","updatedAt":"2026-11-29T12:00:00.000Z"}}}
	// {"ok":true,"value":{"sessionId":"chat","title":"","cursor":"n1","activeBranch":"main","nodeCount":2,"branchCount":1,"leafCount":1,"depth":1,"createdAt":"2026-11-29T12:00:00.000Z","updatedAt":"2026-11-29T12:00:00.000Z"}}
	// {"ok":true,"value":{"id":"n3","parentId":"n1","branch":"main-2","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{"role":"assistant","content":"hey"}}}
	// {"ok":true,"value":{"cursor":"n3","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"hey"}],"state":{"model":null,"thinkingLevel":null,"activeTools":null,"sessionName":null},"nodeIds":["n1","n3"],"siblings":[["n1"],["n2","n3"]]}}
	// {"ok":true,"value":{"sessionId":"chat","title":"","cursor":"n2","activeBranch":"main","nodeCount":3,"branchCount":2,"leafCount":2,"depth":2,"createdAt":"2026-11-29T12:00:00.000Z","updatedAt":"2026-11-29T12:00:00.000Z"}}
	// {"ok":true,"value":{"sessionId":"chat","title":"Greetings","cursor":"n2","activeBranch":"main","nodeCount":3,"branchCount":2,"leafCount":2,"depth":2,"createdAt":"2026-11-29T12:00:00.000Z","updatedAt":"2026-11-29T12:00:00.000Z"}}
	// {"ok":true,"value":{"sessionId":"chat","title":"Greetings","nodeCount":3,"deletedAt":"2026-11-29T12:00:00.000Z","updatedAt":"2026-11-29T12:00:00.000Z"}}
	// {"ok":true,"value":{"sessionId":"chat","title":"Greetings","cursor":"n2","activeBranch":"main","nodeCount":3,"branchCount":2,"leafCount":2,"depth":2,"createdAt":"2026-11-29T12:00:00.000Z","updatedAt":"2026-11-29T12:00:00.000Z"}}
}
