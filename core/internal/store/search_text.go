package store

import (
	"time"

	"github.com/sessiontree/sessiontree/core/internal/cite"
	"github.com/sessiontree/sessiontree/core/internal/formats"
	"github.com/sessiontree/sessiontree/core/internal/msgtext"
	"github.com/sessiontree/sessiontree/core/internal/tree"
)

// searchText returns the text search sees for node i of s: the message
// text (string content, text parts, tool-call names and arguments), the
// summary or the entry's text, then the node's label on a line of its
// own. When a node's label changes, the next search or WarmSearch
// indexes it again (catchUp, search.Index.Replace).
func searchText(s *tree.Session, i int32) string {
	n := s.Nodes[i]
	text, ok := "", false
	if n.Kind == formats.KindMessage && n.Message != nil {
		text, ok = msgtext.Plain(n.Message)
	}
	if !ok {
		text = tree.NodeText(n)
	}
	text = cite.Strip(text) // citation markers: nothing to find, nothing to show in a snippet
	if label := s.Labels[i]; label != "" {
		text += "\n" + label
	}
	return text
}

// timestampMillis reads a node timestamp as Unix milliseconds; the layout
// sessiontree writes is read without time.Parse.
func timestampMillis(ts string) int64 {
	if len(ts) == len(formats.TimeLayout) && ts[4] == '-' && ts[10] == 'T' && ts[19] == '.' && ts[23] == 'Z' {
		num := func(from, to int) (int, bool) {
			v := 0
			for i := from; i < to; i++ {
				c := ts[i]
				if c < '0' || c > '9' {
					return 0, false
				}
				v = v*10 + int(c-'0')
			}
			return v, true
		}
		y, ok1 := num(0, 4)
		mo, ok2 := num(5, 7)
		dd, ok3 := num(8, 10)
		h, ok4 := num(11, 13)
		mi, ok5 := num(14, 16)
		se, ok6 := num(17, 19)
		ms, ok7 := num(20, 23)
		if ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && ok7 {
			return time.Date(y, time.Month(mo), dd, h, mi, se, ms*1e6, time.UTC).UnixMilli()
		}
	}
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return 0
	}
	return t.UnixMilli()
}
