package jsonx

import (
	"testing"
)

func TestAppendStringTokens(t *testing.T) {
	cases := []struct {
		name string
		toks []string
	}{
		{"a plain ASCII text is copied", []string{`"hello, world"`}},
		{"two texts are joined", []string{`"one"`, `"two"`}},
		{"the escapes AppendString writes are kept", []string{`"a \"quoted\" line\nand a tab\t, a backslash \\ and \r"`}},
		{"non-ASCII text is copied", []string{`"café — naïve 👍"`}},
		{"an escaped slash is decoded", []string{`"a\/b"`}},
		{"a \\u escape is decoded", []string{`"\u00e9t\u00E9"`}},
		{"backspace and form feed become \\u escapes", []string{`"\b\f"`}},
		{"U+2028 is escaped", []string{"\"line\u2028sep\""}},
		{"invalid UTF-8 becomes U+FFFD", []string{"\"bad \xff byte\""}},
		{"a surrogate pair is decoded", []string{`"\ud83d\ude00"`}},
		{"a lone surrogate becomes U+FFFD", []string{`"\ud83d x"`}},
		{"an empty text", []string{`""`}},
		{"no texts", nil},
		{"one canonical and one not", []string{`"plain"`, `"\u0041"`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var toks [][]byte
			want := ""
			for i, tok := range tc.toks {
				toks = append(toks, []byte(tok))
				if i > 0 {
					want += "\n"
				}
				want += DecodeString([]byte(tok), true)
			}
			got := string(AppendStringTokens([]byte("x"), toks, "\n"))
			if w := "x" + string(AppendString(nil, want)); got != w {
				t.Errorf("AppendStringTokens(%q) = %s, want %s", tc.toks, got, w)
			}
		})
	}
}
