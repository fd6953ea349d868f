package core_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/sessiontree/sessiontree/core"
)

// A Go program keeps a session tree with the typed API, no JSON request:
// a chat, an edited question as a new branch, a fork at the first answer,
// the context the model sees and a typo-tolerant search.
func ExampleStore_typed() {
	seq := 0
	st := core.New(core.Options{
		Now:   func() time.Time { return time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC) },
		NewID: func() string { seq++; return fmt.Sprintf("n%d", seq) },
	})
	msg := func(role, content string) core.RawMessage {
		return core.RawMessage(fmt.Sprintf(`{"role":%q,"content":%q}`, role, content))
	}
	must := func(err error) {
		if err != nil {
			panic(err)
		}
	}
	_, err := st.Create("chat", "Trip")
	must(err)
	q, err := st.Append("chat", msg("user", "Where should I go in Portugal?"), core.AppendOptions{})
	must(err)
	a, err := st.Append("chat", msg("assistant", "Lisbon, then Porto."), core.AppendOptions{})
	must(err)
	_, err = st.Append("chat", msg("user", "And in winter?"), core.AppendOptions{})
	must(err)

	// Ask the first answer again on a new branch: jump back, append.
	_, err = st.Branch("chat", q.ID, "retry")
	must(err)
	_, err = st.Append("chat", msg("assistant", "The Algarve coast."), core.AppendOptions{})
	must(err)
	_, err = st.Label("chat", a.ID, "first answer")
	must(err)

	ctx, err := st.Context("chat")
	must(err)
	fmt.Println("context:", len(ctx.Messages), "messages, cursor", *ctx.Cursor)
	for _, m := range ctx.Messages {
		fmt.Println(" ", string(m))
	}

	f, err := st.Fork("chat", a.ID, core.ForkOptions{NewSessionID: "porto"})
	must(err)
	fmt.Println("fork:", f.SessionID, f.NodeCount, "nodes, cursor", *f.Cursor)

	res, err := st.Search("algrave", core.SearchOptions{}) // a typo
	must(err)
	for _, h := range res.Hits {
		fmt.Println("hit:", h.SessionID, h.NodeID, h.Role)
	}

	_, err = st.Jump("chat", "nope")
	fmt.Println(errors.Is(err, core.ErrNodeNotFound), err)
	// Output:
	// context: 2 messages, cursor n4
	//   {"role":"user","content":"Where should I go in Portugal?"}
	//   {"role":"assistant","content":"The Algarve coast."}
	// fork: porto 2 nodes, cursor n2
	// hit: chat n4 assistant
	// true NODE_NOT_FOUND: node "nope" is not in session "chat"
}
