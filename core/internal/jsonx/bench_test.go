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

// BenchmarkUnmarshal decodes about 500 KB of snapshots into any and into
// raw members, the two ways the importers read records.
func BenchmarkUnmarshal(b *testing.B) {
	data := benchText(b)
	b.Run("any", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for i := 0; i < b.N; i++ {
			var v any
			if err := Unmarshal(data, &v); err != nil {
				b.Fatal(err)
			}
			benchSink = v
		}
	})
	b.Run("raw-elements", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for i := 0; i < b.N; i++ {
			var v []RawMessage
			if err := Unmarshal(data, &v); err != nil {
				b.Fatal(err)
			}
			benchSink = v
		}
	})
}

// BenchmarkUnmarshalSyntax checks and compacts the same text: Valid and
// CompactRaw, the syntax check alone and with the copy.
func BenchmarkUnmarshalSyntax(b *testing.B) {
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
