package core

import (
	"strconv"
	"strings"
	"testing"
)

// datasetJSONL is a fine-tuning dataset of n lines in OpenAI chat format,
// one two-message conversation a line, each ~900 bytes.
func datasetJSONL(n int) []byte {
	var b strings.Builder
	pad := strings.Repeat(" pad", 200)
	for i := 0; i < n; i++ {
		b.WriteString(`{"messages":[{"role":"user","content":"question `)
		b.WriteString(strconv.Itoa(i))
		b.WriteString(pad)
		b.WriteString(`"},{"role":"assistant","content":"answer `)
		b.WriteString(strconv.Itoa(i))
		b.WriteString("\"}]}\n")
	}
	return []byte(b.String())
}

// BenchmarkImportDataset imports a fine-tuning dataset JSONL (one
// conversation a line) through Imports as the browser runs it: read in
// 64 KiB steps, finished in one call, its changes drained in 4 MiB
// pieces; then the same bytes again, which add nothing. An import of n
// new sessions once spent O(n²) in markDirty.
func BenchmarkImportDataset(b *testing.B) {
	for _, n := range []int{10000, 20000, 40000} {
		data := datasetJSONL(n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(2 * len(data)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				st := New(Options{})
				st.TrackChanges(true)
				im := NewImports(st)
				for round := 0; round < 2; round++ {
					importSink = importJobRun(b, im, data)
					for more := true; more; {
						_, more = st.DrainChangesUpTo(4 << 20)
					}
				}
			}
		})
	}
}

// importJobRun runs an import job of data to its end as the shim does.
func importJobRun(tb testing.TB, im *Imports, data []byte) *ImportResult {
	tb.Helper()
	job, _, err := im.Start(data, "auto")
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if p, _ := im.Step(job, 64<<10); p.Done || p.Read*2 >= p.Total {
			break
		}
	}
	res, _, err := im.Finish(job)
	if err != nil {
		tb.Fatal(err)
	}
	return res
}
