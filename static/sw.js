// Service worker of the sessiontree explorer: after one visit the explorer,
// the embedding demo, the shim and the wasm open with the network off.
//
// Network first, cache as fallback: online, every same-origin GET goes to
// the server (so a rebuilt wasm is picked up at once) and the answer is
// kept; offline, the kept answer is served. The files the pages need are
// also fetched at install, so the very first visit is enough.

const CACHE = "sessiontree-v1";

/** Files cached at install, relative to this worker (the static folder). */
const PRECACHE = [
  "./",
  "./index.html",
  "./explorer.js",
  "./explorer.css",
  "./tree-model.js",
  "./demo.js",
  "./session-tree-panel.js",
  "./session-tree-panel.css",
  "./icon.svg",
  "./chat-demo.html",
  "./chat-demo.js",
  "./chat-demo.css",
  "../js/sessiontree.js",
  "../js/store.js",
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
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      try {
        const response = await fetch(request);
        if (response.ok && response.type === "basic") await cache.put(request, response.clone());
        return response;
      } catch (err) {
        const kept = await cache.match(request, { ignoreSearch: true });
        if (kept) return kept;
        throw err;
      }
    })(),
  );
});
