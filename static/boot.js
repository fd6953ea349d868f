// The explorer's first script, a classic one (async) so that it runs as
// soon as it is fetched, before any module of the page: it starts the
// store's Worker at once — its thread, its modules — and leaves it on
// globalThis.sessiontreeStartedWorker, where js/sessiontree.js's init()
// for the same workerURL adopts it. Then it calls init() as soon as the
// shim's modules are in, so the worker gets its init message (and fetches
// the wasm) while the explorer's own modules are still loading.
// explorer.js's init() with the same options gets this same tree: init()
// shares one per database.
(() => {
  performance.mark("explorer-boot");
  const here = document.currentScript.src;
  // store-worker.js bundled with its modules (make build): one fetch, not ~30.
  const workerURL = new URL("./store-worker.bundle.js", here);
  if (typeof Worker === "function") {
    try {
      const worker = new Worker(workerURL, { type: "module", name: "sessiontree-worker" });
      const started = { url: workerURL.href, worker, error: null };
      // A failure before init() adopts it is kept for init() to report.
      worker.addEventListener("error", (event) => (started.error = event.message || "it did not load"));
      globalThis.sessiontreeStartedWorker = started;
    } catch {
      // init() starts its own, or runs the store in the page's thread.
    }
  }
  import(new URL("../js/sessiontree.js", here).href)
    .then(({ init }) => init({ workerURL }))
    .catch(() => {
      // explorer.js calls init() again and shows the error.
    });
})();
