//go:build js && wasm

package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"

	"github.com/sessiontree/sessiontree/core"
)

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

// holdHeadroom is how far, in bytes, the heap may grow while
// holdCollector holds the collector: after a handle call that left it
// grown more, the hold ends (settleIfGrown); within one call the soft
// memory limit, 4× as far above memory in use, makes the collector run
// all the same. The start's first calls (a context of 1,000 nodes, a few
// loads) need a few megabytes; a first search of a store never indexed
// reads batches of 50,000 nodes.
const holdHeadroom = 64 << 20

var (
	heldGCPercent = 0   // the collector's percentage from before holdCollector paused it, 0 when it is not held
	heldHeap      int64 // the heap's object bytes then, live or not yet collected (heapObjects)
)

// heapObjects is the bytes of the heap's objects, live or not yet
// collected.
func heapObjects() int64 { return heapMetric("/memory/classes/heap/objects:bytes") }

// settleIfGrown ends the hold once the heap grew holdHeadroom beyond
// where it was when the hold began (guardedFunc asks after each call
// while one is held).
func settleIfGrown() {
	if heapObjects() > heldHeap+holdHeadroom {
		settleCollector()
	}
}

// holdCollector pauses the collector after the stored sessions' stubs
// were taken at start (pageStub with hold), until settleCollector or until
// the heap grows holdHeadroom (settleIfGrown). pageStub runs
// paused (bulk), so the first allocation after it collected the heap it
// made: at 10,000 stubs 80–110 ms in wasm, on the path of the page's
// first context (measured in the Worker, bench/RESULTS.md). Held, that
// collection runs when the shim settles, once the tree is quiet. Not
// while an import job runs or drains (it has its own limit).
func holdCollector() {
	if heldGCPercent != 0 || len(importJobs) > 0 || importDrain {
		return
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	prev := debug.SetGCPercent(-1)
	if prev < 0 {
		return // paused already: nothing to give back
	}
	heldGCPercent, heldHeap = prev, heapObjects()
	debug.SetMemoryLimit(min(memoryLimit, int64(m.Sys-m.HeapReleased)+4*holdHeadroom))
}

// settleCollector gives back the percentage and the memory limit
// holdCollector held; nothing when it holds none.
func settleCollector() {
	if heldGCPercent == 0 {
		return
	}
	debug.SetGCPercent(heldGCPercent)
	heldGCPercent = 0
	debug.SetMemoryLimit(memoryLimit)
}

// importHeadroom bounds the Go heap while import jobs run: the soft memory
// limit is lowered to the memory in use when the first job started (which
// holds the jobs' data, already copied in) plus importHeadroom times the
// bytes of every running job, so wasm memory stays near 3× a large file
// (issue 15: 825 MB for a 200 MB ChatGPT export with the collector's
// default goal of twice the live heap). The imported sessions hold about
// the file again (the nodes' sources share the file's bytes, see
// formats.Record.Source) plus their messages; the collector runs more
// often as the heap nears the limit, and a live heap above it only costs
// collector time (Go caps it at half the CPU), never an error.
const importHeadroom = 1.5

// importHeadroomMin is the least headroom, in bytes, the lowered limit
// gives above the memory in use at the start: 1.5× a small file is less
// than the import's own working memory, and the limit then made the
// collector run again and again (a 1 MB ChatGPT import in the worker: 46
// collections, 286 ms; with the floor none, and 1.5× the file still
// bounds every file from 22 MB on).
const importHeadroomMin = 32 << 20

// importSlack is what the lowered limit leaves free above the heap an
// import has made live, as a share of it (see setImportLimit): a file of
// many small conversations (a fine-tuning dataset JSONL: 20,000 lines of
// 17 MB grew the live heap by 35 MB, twice the file) holds more than
// importHeadroom times its bytes, and a limit below its live heap made
// the collector run again and again (3 of the wasm's 4.7 s on that file,
// more the larger it was). Like GOGC=50, on what the import added only.
const importSlack = 0.5

// liveHeap is the heap the last collection found live, in bytes.
func liveHeap() int64 { return heapMetric("/gc/heap/live:bytes") }

// heapMetric reads one runtime/metrics value in bytes (0 when the
// runtime does not have it).
func heapMetric(name string) int64 {
	sample := []metrics.Sample{{Name: name}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(sample[0].Value.Uint64())
}

// importJob names one running import job of one handle.
type importJob struct {
	im  *core.Imports
	job int
}

var (
	importJobs = map[importJob]int{} // running jobs and their data's size in bytes
	importBase int64                 // memory in use when the first of them started
	importLive int64                 // the live heap then (liveHeap)
	// importDrain says the last job ended and the limit stays lowered
	// until the changes it made are drained (the Writer's drainBytes
	// writes every imported node again: 808 MB of wasm memory for a
	// 200 MB import when the limit went back up before it).
	importDrain bool
)

// importBegan notes that job started on data of size bytes and lowers the
// memory limit (see importHeadroom).
func importBegan(j importJob, size int) {
	settleCollector() // an import sets its own limit
	if len(importJobs) == 0 {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		importBase = int64(m.Sys - m.HeapReleased) // what the memory limit counts
		importLive = liveHeap()
	}
	importJobs[j] = size
	setImportLimit()
}

// importEnded notes that job finished or was cancelled (a job id that
// names no running job is ignored); with none left the limit is
// memoryLimit again once the changes are drained (importDrained).
func importEnded(j importJob) {
	if _, ok := importJobs[j]; !ok {
		return
	}
	delete(importJobs, j)
	if len(importJobs) == 0 {
		importDrain = true
		return
	}
	setImportLimit()
}

// importDrained notes that the store's changes were drained: after the
// last import job ended, the memory limit is memoryLimit again.
func importDrained() {
	if importDrain && len(importJobs) == 0 {
		importDrain = false
		setImportLimit()
	}
}

// importsFreed forgets every running job of im (its handle was freed).
func importsFreed(im *core.Imports) {
	for j := range importJobs {
		if j.im == im {
			delete(importJobs, j)
		}
	}
	setImportLimit()
}

// importGCPercent is the collector's percentage from before the running
// import jobs paused it, 0 when none did.
var importGCPercent = 0

// setImportLimit sets the memory limit for the running import jobs (see
// importHeadroom) and, while any run, pauses the collector's percentage
// trigger, so the limit alone starts a collection: most of what an import
// allocates stays live (its sessions), and marking the growing heap again
// at each doubling paid little (a 20 MB ChatGPT import in the worker, five
// pages each: median 2,139 → 1,475 ms, wasm memory 56 → 59 MB; 200 MB:
// 512 MB either way). With no job left both are restored.
func setImportLimit() {
	if len(importJobs) == 0 {
		debug.SetMemoryLimit(memoryLimit)
		if importGCPercent != 0 {
			debug.SetGCPercent(importGCPercent)
			importGCPercent = 0
		}
		return
	}
	if importGCPercent == 0 {
		importGCPercent = debug.SetGCPercent(-1)
	}
	total := int64(0)
	for _, size := range importJobs {
		total += int64(size)
	}
	limit := importBase + max(int64(importHeadroom*float64(total)), importHeadroomMin)
	// Never below what the import made live and importSlack of it again.
	if grown := liveHeap() - importLive; grown > 0 {
		limit = max(limit, importBase+grown+int64(importSlack*float64(grown)))
	}
	debug.SetMemoryLimit(min(memoryLimit, limit))
}

// importGrew raises the lowered limit of the running import jobs when
// what they made live needs it (see importSlack); the handle calls it
// after each step.
func importGrew() {
	if len(importJobs) > 0 {
		setImportLimit()
	}
}
