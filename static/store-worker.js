// The store worker of the explorer and the demos: js/worker.js, started
// from this folder so that it is inside the service worker's scope
// (static/sw.js controls /static/ only, and a worker is controlled by the
// service worker whose scope holds the worker's own URL). Its imports and
// the wasm then come from the kept copy, and the pages work offline. The
// pages load it bundled with its modules (store-worker.bundle.js, made by
// make build with esbuild): a worker has no modulepreload, and ~30 modules
// fetched one level at a time were most of the explorer's start-up.
import "../js/worker.js";
