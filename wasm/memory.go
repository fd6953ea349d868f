//go:build js && wasm

package main

import "runtime/debug"

// memoryLimit is the Go heap's soft limit in bytes: near it the collector
// runs more often instead of letting the heap double. wasm32 memory ends
// at 4 GiB and never shrinks, so a tab holding 1,000,000 nodes must not
// let one peak (a 250 MB request next to its parsed session) grow it to
// the end.
const memoryLimit = 3 << 30

// limitMemory sets the soft memory limit (memoryLimit); main calls it once.
func limitMemory() {
	debug.SetMemoryLimit(memoryLimit)
}

// bulkBytes is the request size, in bytes, from which a call runs with
// the collector paused (see bulk).
const bulkBytes = 1 << 20

// bulk runs f, the answer to a request of size bytes. From bulkBytes on
// (a snapshot.load, a restore, an import in one importText call; not the
// steps of a sliced import) the collector is paused for the
// call and its percentage restored afterwards, even when f panics; the
// soft memory limit (memoryLimit) still starts a collection if the heap
// nears it. What such a call allocates is mostly the session it builds,
// which stays live, so collections during it marked a growing heap again
// and again for little garbage. Measured on a 100,000-message
// snapshot.load (25.4 MB, in one page, alternating builds): 413 → 339 ms,
// and wasm memory after ten loads 225 → 124 MB, since the heap goal no
// longer doubles a heap that holds both the old and the new session.
func bulk(size int, f func() string) string {
	if size >= bulkBytes {
		defer debug.SetGCPercent(debug.SetGCPercent(-1))
	}
	return f()
}
