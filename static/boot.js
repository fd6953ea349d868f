// The explorer's first module: it starts the store (its Worker, the wasm
// and the IndexedDB read) as soon as the page is parsed, while the
// explorer's own modules are still loading. explorer.js's init() with the
// same options then gets this same tree: init() shares one per database.
import { init } from "../js/sessiontree.js";

init({ workerURL: new URL("./store-worker.js", import.meta.url) }).catch(() => {
  // explorer.js calls init() again and shows the error.
});
