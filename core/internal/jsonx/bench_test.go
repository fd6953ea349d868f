package jsonx

import (
	"bytes"
	"os"
	"testing"
)

// benchText is the entries snapshot of core's testdata, indented (so
// there is white space to check and remove) and repeated in an array.
func benchText(b *testing.B) []byte {
	b.Helper()
	data, err := os.ReadFile("../../testdata/entries.snapshot.json")
	if err != nil {
		b.Fatal(err)
	}
	one := bytes.ReplaceAll(data, []byte(`,"`), []byte(",\n  \""))
	out := []byte{'['}
	for i := 0; i < 200; i++ {
		if i > 0 {
			out = append(out, ",\n"...)
		}
		out = append(out, one...)
	}
	return append(out, ']')
}

var benchSink any

// BenchmarkSyntax checks and compacts the same text: Valid and
// CompactRaw, the syntax check alone and with the copy.
func BenchmarkSyntax(b *testing.B) {
	data := benchText(b)
	b.Run("Valid", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for i := 0; i < b.N; i++ {
			if !Valid(data) {
				b.Fatal("not valid")
			}
		}
	})
	b.Run("CompactRaw", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for i := 0; i < b.N; i++ {
			out, err := CompactRaw(data)
			if err != nil {
				b.Fatal(err)
			}
			benchSink = out
		}
	})
}
