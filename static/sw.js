// Service worker of the sessiontree explorer: after one visit the explorer,
// the embedding demo, the shim and the wasm open with the network off.
//
// Pages are network first with the kept copy as fallback; the files they
// load (scripts, styles, the wasm) are served from the kept copy at once
// and refreshed in the background (see keptFirst). The files are also
// fetched at install, so the very first visit is enough.

const CACHE = "sessiontree-v3";

/** Files cached at install, relative to this worker (the static folder). */
const PRECACHE = [
  "./",
  "./index.html",
  "./explorer.js",
  "./explorer-panes.js",
  "./explorer-map.js",
  "./panel-map.js",
  "./map-view.js",
  "./map-colours.js",
  "./map-model.js",
  "./map-family.js",
  "./map-forks.js",
  "./list-minimap.js",
  "./map.css",
  "./import-files.js",
  "./explorer-storage.js",
  "./explorer-report.js",
  "./report-lines.js",
  "./explorer-search.js",
  "./title-search.js",
  "./open-folder.js",
  "./folder-handle.js",
  "./explorer-import.js",
  "./session-filter.js",
  "./session-actions.js",
  "./session-list-pages.js",
  "./session-dates.js",
  "./session-titles.js",
  "./restore-points.js",
  "./explorer-export.js",
  "./explorer-route.js",
  "./citations.js",
  "./render-citations.js",
  "./tool-diff.js",
  "./map-svg.js",
  // The share file's builder, and the viewer and styles it inlines.
  "./share-export.js",
  "./share-viewer.js",
  "./share-viewer.css",
  "./store-worker.js",
  "./store-worker.bundle.js",
  "./boot.js",
  "./explorer.css",
  "./theme.css",
  "./tree-model.js",
  "./node-text.js",
  "./demo.js",
  "./session-tree-panel.js",
  "./dom.js",
  "./rows-controller.js",
  "./panel-rows-view.js",
  "./panel-loader.js",
  "./panel-search.js",
  "./panel-actions.js",
  "./panel-context.js",
  "./panel-composer.js",
  "./panel-frame.js",
  "./panel-attributes.js",
  "./panel-styles.js",
  "./compose-target.js",
  "./render-message.js",
  "./vendor/markdown-it.js",
  "./vendor/purify.js",
  "./vendor/highlight/core.js",
  // The grammars of CODE_LANGUAGES (render-message.js), as the Makefile copies them.
  ...["bash", "c", "cpp", "csharp", "css", "diff", "go", "java", "javascript", "json", "markdown", "php", "python", "ruby", "rust", "shell", "sql", "typescript", "xml", "yaml"].map((l) => `./vendor/highlight/languages/${l}.js`),
  "./session-tree-panel.css",
  "./icon.svg",
  "./chat-demo.html",
  "./chat-demo.js",
  "./chat-demo.css",
  "./chat-history.js",
  "../js/sessiontree.js",
  "../js/worker-tree.js",
  "../js/answer-parts.js",
  "../js/worker.js",
  "../js/worker.bundle.js",
  "../js/local.js",
  "../js/runtime.js",
  "../js/local-import.js",
  "../js/folder-import.js",
  "../js/folder-entries.js",
  // tree.importZip's, loaded when a ZIP is imported (the worker bundle holds them too).
  "../js/zip-import.js",
  "../js/zip-read.js",
  "../js/zip-attachments.js",
  "../js/vendor/fflate.js",
  "../js/local-snapshots.js",
  "../js/local-paging.js",
  "../js/local-context.js",
  "../js/local-start.js",
  "../js/first-context.js",
  "../js/tasks.js",
  "../js/tree-api.js",
  "../js/api-errors.js",
  "../js/call-order.js",
  "../js/context-columns.js",
  "../js/store.js",
  "../js/store/schema.js",
  "../js/store/records.js",
  "../js/store/restore-points.js",
  "../js/store/writer.js",
  "../js/store/take-in.js",
  "../js/store/plan.js",
  "../js/store/executor.js",
  "../js/store/coordinator.js",
  "../js/store/pager.js",
  "../js/store/listing.js",
  "../js/store/search-keep.js",
  "../js/store/list-keep.js",
  "../js/store/erase.js",
  "../js/change-events.js",
  "../js/early-list.js",
  "../js/chat-ops.js",
  "../js/stored-ops.js",
  "../js/store/stored-context.js",
  "../js/completion-fn.js",
  "../js/store/storage-error.js",
  "../js/request-text.js",
  "../js/protocol.js",
  "../js/envelope.js",
  "../js/openai.js",
  "../js/openai-wire.js",
  "../js/wasm_exec.js",
  "../js/sessiontree.wasm",
];

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // One missing file must not keep the others out of the cache.
      await Promise.allSettled(PRECACHE.map((path) => cache.add(new Request(new URL(path, self.location).href, { cache: "no-cache" }))));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) if (key !== CACHE) await caches.delete(key);
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (new URL(request.url).origin !== self.location.origin) return;
  if (request.method === "GET") event.respondWith(request.mode === "navigate" ? networkFirst(event) : keptFirst(event));
});

/** Fetch from the network and keep a copy in the background. */
async function fetchAndKeep(event) {
  const response = await fetch(event.request);
  if (response.ok && response.type === "basic") {
    const copy = response.clone();
    event.waitUntil(caches.open(CACHE).then((cache) => cache.put(event.request, copy)).catch(() => {}));
  }
  return response;
}

/** Pages: the network's answer, the kept one when the network fails. */
async function networkFirst(event) {
  try {
    return await fetchAndKeep(event);
  } catch (err) {
    const kept = await caches.match(event.request, { ignoreSearch: true });
    if (kept) return kept;
    throw err;
  }
}

/**
 * Scripts, styles and the wasm: the kept answer at once, fetched again in
 * the background for the next visit (stale-while-revalidate). Passing the
 * network's 5 MB wasm answer through the worker made every start-up about
 * 200 ms slower than with no worker at all. After a rebuild, the first
 * reload still runs the previous build and the next one the new build
 * (Shift+Reload bypasses the worker).
 */
async function keptFirst(event) {
  const kept = await caches.match(event.request, { ignoreSearch: true });
  if (!kept) return fetchAndKeep(event);
  event.waitUntil(refresh(event.request, kept).catch(() => {}));
  return kept;
}

/** Fetch a kept file again and keep the answer unless it is the same version (ETag). */
async function refresh(request, kept) {
  const response = await fetch(request);
  const tag = response.headers.get("ETag");
  if (!response.ok || response.type !== "basic" || (tag !== null && tag === kept.headers.get("ETag"))) {
    await response.body?.cancel();
    return;
  }
  await (await caches.open(CACHE)).put(request, response);
}
