package core

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkImportFile imports the export files bench/gen-exports.mjs
// writes, found in the folder $SESSIONTREE_IMPORT_FILES (chatgpt.json,
// claude-code.jsonl, pi.jsonl; a missing file skips its case), e.g.
//
//	node bench/gen-exports.mjs chatgpt > /tmp/imp/chatgpt.json
//	SESSIONTREE_IMPORT_FILES=/tmp/imp go test ./core -run '^$' -bench ImportFile -cpuprofile cpu.out
func BenchmarkImportFile(b *testing.B) {
	dir := os.Getenv("SESSIONTREE_IMPORT_FILES")
	if dir == "" {
		b.Skip("SESSIONTREE_IMPORT_FILES is not set (a folder of files from bench/gen-exports.mjs)")
	}
	for _, name := range []string{"chatgpt.json", "claude-code.jsonl", "pi.jsonl"} {
		b.Run(name, func(b *testing.B) {
			data, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				b.Skip(err)
			}
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				res, err := New(Options{}).Import(data, "auto")
				if err != nil {
					b.Fatal(err)
				}
				importSink = res
			}
		})
	}
}
