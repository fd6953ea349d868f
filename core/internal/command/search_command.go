package command

import (
	"strings"
	"unicode/utf16"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/sessiontree/sessiontree/core/internal/store"
	"github.com/sessiontree/sessiontree/core/internal/tree"
)

// cmdSearch answers `/tree search <query>`: the search operation within the
// command's session; text is one line per hit, the matched characters
// between « and ».
func cmdSearch(st *store.Store, c *Call) (*Result, *tree.Error) {
	res, err := st.Search(c.args[0], store.SearchOptions{SessionID: c.SessionID})
	if err != nil {
		return nil, typedErr(err)
	}
	var b strings.Builder
	for _, h := range res.Hits {
		jsonx.Fprintf(&b, "%s [%s] %s: %s\n", h.NodeID, h.Branch, h.Role, markRanges(h.Snippet, h.Ranges))
	}
	switch {
	case res.Total == 0:
		b.WriteString("(no hits)\n")
	case res.Total > len(res.Hits):
		jsonx.Fprintf(&b, "(%d of %d hits)\n", len(res.Hits), res.Total)
	}
	return &Result{Text: b.String(), Data: res}, nil
}

// markRanges returns snippet with each [start, end) range (UTF-16 code
// units) wrapped in « ».
func markRanges(snippet string, ranges [][2]int) string {
	units := utf16.Encode([]rune(snippet))
	var b strings.Builder
	at := 0
	for _, r := range ranges {
		b.WriteString(string(utf16.Decode(units[at:r[0]])))
		b.WriteString("«" + string(utf16.Decode(units[r[0]:r[1]])) + "»")
		at = r[1]
	}
	b.WriteString(string(utf16.Decode(units[at:])))
	return b.String()
}
