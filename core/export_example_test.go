package core

import (
	"fmt"
	"strings"
	"time"
)

// An export writes the path to the cursor or, with "scope":"tree", every
// node; the value's scope says which, and so does the Markdown file's
// first line after its title.
func ExampleStore_Call_export() {
	seq := 0
	st := New(Options{
		Now:   func() time.Time { return time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC) },
		NewID: func() string { seq++; return fmt.Sprintf("n%d", seq) },
	})
	st.Call([]byte(`{"operation":"create","sessionId":"demo","title":"Demo"}`))
	st.Call([]byte(`{"operation":"append","sessionId":"demo","message":{"role":"user","content":"hello"}}`))
	st.Call([]byte(`{"operation":"append","sessionId":"demo","message":{"role":"assistant","content":"hi"}}`))
	st.Call([]byte(`{"operation":"jump","sessionId":"demo","nodeId":"n1"}`))
	st.Call([]byte(`{"operation":"append","sessionId":"demo","message":{"role":"assistant","content":"hey"}}`))

	for _, scope := range []string{"path", "tree"} {
		a := st.Run([]byte(`{"operation":"export","sessionId":"demo","format":"markdown","scope":"` + scope + `"}`))
		ex := a.Value.(Export)
		fmt.Println(ex.Scope, ex.Filename, strings.Split(ex.Text, "\n")[2])
	}
	fmt.Println(string(st.Call([]byte(`{"operation":"export","sessionId":"demo","format":"pi","scope":"path"}`))))
	// Output:
	// path demo.md Scope: this path, root → cursor (2 of 3 nodes) · session `demo` · cursor `n3` · branch `main-2`
	// tree demo.md Scope: the whole tree (3 nodes, 1 root, depth first; ● marks the path to the cursor) · session `demo` · cursor `n3` · branch `main-2`
	// {"ok":false,"error":{"code":"INVALID_ARGUMENT","message":"field \"scope\": export format \"pi\" writes scope tree, not \"path\""}}
}
