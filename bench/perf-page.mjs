// The performance benchmark's page (bench/perf.html), driven by
// bench/perf.mjs in headless Chromium. It exposes window.perf with one
// function per group of figures; each returns plain numbers (ms, counts,
// bytes) and the floor or peer measured beside it in the same page.
//
// With ?startup the page only starts the wasm runtime (wasm_exec.js +
// instantiateStreaming + go.run) and records the time: the floor of the
// explorer's start-up.

import { buildSnapshot, median } from "./perf-data.mjs";
import { importFigure } from "./perf-imports.mjs";

// Keep the Go instance's memory to report the wasm heap.
const instantiate = WebAssembly.instantiateStreaming;
WebAssembly.instantiateStreaming = async (...args) => {
  const result = await instantiate(...args);
  window.__wasmMemory = result.instance.exports.mem;
  return result;
};

const status = document.getElementById("status");

/** Heap of the tab in MB: JS heap (after a GC when exposed) plus wasm memory. */
function heapMB() {
  window.gc?.();
  const js = performance.memory ? performance.memory.usedJSHeapSize : NaN;
  const wasm = window.__wasmMemory?.buffer.byteLength ?? 0;
  return { jsMB: js / 1e6, wasmMB: wasm / 1e6 };
}

async function timed(runs, fn) {
  const times = [];
  let last;
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    last = await fn(r);
    times.push(performance.now() - t);
  }
  return { ms: median(times), runs: times, last };
}

function must(env, what) {
  if (!env.ok) throw new Error(`${what}: ${env.error.code}: ${env.error.message}`);
  return env.value;
}

function requestPromise(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function txDone(tx) {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

function deleteDatabase(name) {
  return new Promise((resolve, reject) => {
    const req = indexedDB.deleteDatabase(name);
    req.onsuccess = () => resolve();
    req.onerror = () => reject(req.error);
    req.onblocked = () => reject(new Error(`deleting database ${name} is blocked`));
  });
}

let corpusCache = null;

/** The snapshot of n messages as one chain (built once per page). */
function snapshotOf(n) {
  if (corpusCache?.n !== n) corpusCache = { n, ...buildSnapshot({ messages: n }) };
  return corpusCache;
}

const shim = () => import("../js/sessiontree.js");

window.perf = {
  /** One import of a generated export (see bench/perf-imports.mjs); run it in a fresh page. */
  importOne: (options) => importFigure({ ...options, shimURL: new URL("../js/sessiontree.js", import.meta.url).href, status }),

  /**
   * snapshot.load, snapshot.save and context of a path n deep, through the
   * JS API of a tree with persist: false, against JSON.parse and
   * JSON.stringify of the same text.
   */
  async core({ messages, runs }) {
    status.textContent = "building the snapshot";
    const { snapshot, text } = snapshotOf(messages);
    const { init } = await shim();
    const tree = await init({ persist: false });
    const out = { messages, snapshotBytes: new TextEncoder().encode(text).length };
    status.textContent = "measuring";
    out.parse = (await timed(runs, () => JSON.parse(text))).ms;
    out.stringify = (await timed(runs, () => JSON.stringify(snapshot))).ms;
    must(await tree.call({ operation: "snapshot.load", sessionId: "perf", snapshot }), "snapshot.load"); // warm-up, not counted
    out.loadObject = (await timed(runs, async () => must(await tree.call({ operation: "snapshot.load", sessionId: "perf", snapshot }), "snapshot.load"))).ms;
    const requestText = '{"operation":"snapshot.load","sessionId":"perf","snapshot":' + text + "}";
    out.loadText = (await timed(runs, async () => must(await tree.call(requestText), "snapshot.load"))).ms;
    const requestBytes = new TextEncoder().encode(requestText);
    out.encode = (await timed(runs, () => new TextEncoder().encode(requestText))).ms;
    out.loadBytes = (await timed(runs, async () => must(await tree.call(requestBytes), "snapshot.load"))).ms;
    // The first search after a load: the index is still being built in the
    // background, so it scans the nodes not yet indexed (issue 15 item 4).
    out.firstSearch = (await timed(1, async () => must(await tree.call({ operation: "search", query: "zebra" }), "search"))).ms;
    const save = await timed(runs, async () => must(await tree.call({ operation: "snapshot.save", sessionId: "perf" }), "snapshot.save"));
    if (save.last.nodes.length !== messages) throw new Error(`snapshot.save gave ${save.last.nodes.length} nodes`);
    out.save = save.ms;
    const saveText = await timed(runs, () => tree.callText({ operation: "snapshot.save", sessionId: "perf" }));
    out.saveText = saveText.ms;
    out.saveIdentical = saveText.last === '{"ok":true,"value":' + text + "}";
    // The first context after a load also fills the session's text cache
    // (core/internal/views/contextcols.go); later ones read the cache.
    out.contextFirst = (await timed(1, async () => must(await tree.call({ operation: "context", sessionId: "perf" }), "context"))).ms;
    const ctx = await timed(runs, async () => must(await tree.call({ operation: "context", sessionId: "perf" }), "context"));
    if (ctx.last.messages.length !== messages) throw new Error(`context gave ${ctx.last.messages.length} messages`);
    out.context = ctx.ms;
    const ctxTimed = await timed(runs, () => tree.callText({ operation: "context", sessionId: "perf" }));
    out.contextText = ctxTimed.ms;
    const ctxText = ctxTimed.last;
    out.contextBytes = ctxText.length;
    out.contextParse = (await timed(runs, () => JSON.parse(ctxText))).ms;
    Object.assign(out, heapMB());
    status.textContent = "done";
    return out;
  },

  /**
   * importFile of a snapshot file (a Blob) against the raw-bytes path an
   * embedder wrote before importFile existed (the README's old example):
   * read the same kind of Blob's bytes, splice a snapshot.load request
   * around them by hand, call() it. Each run of either makes a new session
   * of the same size (named in the file), so both meet the same growing
   * store. Same page, same tree (in its worker, persist: false), the two
   * interleaved run by run.
   */
  async files({ messages, runs }) {
    status.textContent = "building the snapshot files";
    const { text } = snapshotOf(messages);
    const { init } = await shim();
    const tree = await init({ persist: false });
    const enc = new TextEncoder();
    const named = (id) => text.replace('"sessionId":"perf"', `"sessionId":${JSON.stringify(id)}`);
    // The raw-bytes path: the file's bytes read, the request built by hand around them.
    const rawCall = async (id, blob) => {
      const head = enc.encode(`{"operation":"snapshot.load","sessionId":${JSON.stringify(id)},"snapshot":`);
      const bytes = new Uint8Array(await blob.arrayBuffer());
      const raw = new Uint8Array(head.length + bytes.length + 1);
      raw.set(head);
      raw.set(bytes, head.length);
      raw[raw.length - 1] = 0x7d; // }
      return tree.call(raw);
    };
    const raws = Array.from({ length: runs + 1 }, (_, r) => new Blob([named(`perf-raw-${r}`)]));
    const files = Array.from({ length: runs + 1 }, (_, r) => new Blob([named(`perf-file-${r}`)]));
    status.textContent = "measuring";
    must(await rawCall(`perf-raw-${runs}`, raws[runs]), "snapshot.load"); // warm-up, not counted
    must(await tree.importFile(files[runs]), "importFile");
    const rawRuns = [];
    const fileRuns = [];
    for (let r = 0; r < runs; r++) {
      const pair = [
        [rawRuns, () => rawCall(`perf-raw-${r}`, raws[r])],
        [fileRuns, () => tree.importFile(files[r])],
      ];
      if (r % 2) pair.reverse(); // neither always first
      for (const [into, fn] of pair) {
        const t = performance.now();
        const v = must(await fn(), "files");
        into.push(performance.now() - t);
        const count = v.sessions ? v.sessions[0].nodeCount : v.nodeCount;
        if (count !== messages) throw new Error(`files: ${count} nodes loaded, not ${messages}`);
      }
    }
    status.textContent = "done";
    return { messages, fileBytes: files[0].size, raw: median(rawRuns), importFile: median(fileRuns), rawRuns, fileRuns };
  },

  /**
   * Durable appends at each size: `appends` calls awaited one after another,
   * then `appends` calls issued together, on a persisted session of `size`
   * nodes; the peer is raw IndexedDB (one transaction per record, durability
   * "strict" as the store's own, issue 15's peer) in the same page, and
   * memorySeqPerSec the same appends in turn on a tree in memory.
   */
  async appends({ sizes, appends, runs, dbName }) {
    const { init } = await shim();
    const tree = await init({ dbName });
    const out = { appends, sizes: [] };
    for (const size of sizes) {
      status.textContent = `appends at ${size}`;
      const id = `appends-${size}`;
      const { snapshot } = buildSnapshot({ messages: size, sessionId: id });
      let t = performance.now();
      must(await tree.call({ operation: "snapshot.load", sessionId: id, snapshot }), "snapshot.load");
      const loadMs = performance.now() - t;
      const msg = (k) => ({ operation: "append", sessionId: id, message: { role: "user", content: `appended message ${k}, about as long as a short chat turn in the corpus of this benchmark` } });
      for (let k = 0; k < 10; k++) must(await tree.call(msg(k)), "append"); // warm up
      const seq = [];
      const together = [];
      for (let r = 0; r < runs; r++) {
        t = performance.now();
        for (let k = 0; k < appends; k++) must(await tree.call(msg(k)), "append");
        seq.push((appends * 1000) / (performance.now() - t));
        t = performance.now();
        const all = [];
        for (let k = 0; k < appends; k++) all.push(tree.call(msg(k)));
        for (const env of await Promise.all(all)) must(env, "append");
        together.push((appends * 1000) / (performance.now() - t));
      }
      out.sizes.push({ size, loadMs, seqPerSec: median(seq), togetherPerSec: median(together) });
    }
    tree.close();
    // The same appends awaited in turn on a tree in memory (persist: false,
    // the store in its worker as above): what the core and the worker's
    // round trip cost before any IndexedDB work.
    const memory = await init({ persist: false });
    must(await memory.call({ operation: "create", sessionId: "appends-memory" }), "create");
    const memMsg = (k) => ({ operation: "append", sessionId: "appends-memory", message: { role: "user", content: `appended message ${k}, about as long as a short chat turn in the corpus of this benchmark` } });
    for (let k = 0; k < 10; k++) must(await memory.call(memMsg(k)), "append");
    const mem = [];
    for (let r = 0; r < runs; r++) {
      const t = performance.now();
      for (let k = 0; k < appends; k++) must(await memory.call(memMsg(k)), "append");
      mem.push((appends * 1000) / (performance.now() - t));
    }
    out.memorySeqPerSec = median(mem);
    memory.close();
    // The peer: raw IndexedDB, one readwrite transaction per record, strict.
    status.textContent = "raw IndexedDB";
    const rawName = dbName + "-raw";
    await deleteDatabase(rawName);
    const open = indexedDB.open(rawName, 1);
    open.onupgradeneeded = () => open.result.createObjectStore("nodes");
    const db = await requestPromise(open);
    const record = JSON.stringify({ id: "x", parentId: "y", branch: "main", kind: "message", timestamp: new Date().toISOString(), message: { role: "user", content: "x".repeat(120) } });
    const put = (k) => {
      const tx = db.transaction(["nodes"], "readwrite", { durability: "strict" });
      tx.objectStore("nodes").put(record, k);
      return txDone(tx);
    };
    for (let k = 0; k < 10; k++) await put(-k - 1);
    const seq = [];
    const together = [];
    for (let r = 0; r < runs; r++) {
      let t = performance.now();
      for (let k = 0; k < appends; k++) await put(k);
      seq.push((appends * 1000) / (performance.now() - t));
      t = performance.now();
      const all = [];
      for (let k = 0; k < appends; k++) all.push(put(appends + k));
      await Promise.all(all);
      together.push((appends * 1000) / (performance.now() - t));
    }
    out.rawSeqPerSec = median(seq);
    out.rawTogetherPerSec = median(together);
    db.close();
    await deleteDatabase(rawName);
    status.textContent = "done";
    return out;
  },

  /** Store a session of n messages in dbName (through the API, persisted). */
  async restorePrepare({ messages, dbName }) {
    const { init } = await shim();
    await deleteDatabase(dbName);
    const tree = await init({ dbName });
    const { snapshot } = snapshotOf(messages);
    const t = performance.now();
    must(await tree.call({ operation: "snapshot.load", sessionId: "perf", snapshot }), "snapshot.load");
    await tree.flush();
    const ms = performance.now() - t;
    tree.close();
    return { loadPersistedMs: ms };
  },

  /**
   * In a freshly loaded page: init() until the first answered context, then
   * the floor: reading every record of the database with one getAll per
   * object store.
   */
  async restoreMeasure({ messages, dbName }) {
    const { init } = await shim();
    const t = performance.now();
    const tree = await init({ dbName });
    // The session's last messages as stored (what the panel shows while it opens), asked for beside its context.
    const ts = performance.now();
    const storedAt = tree.storedContext("perf").then((env) => ({ storedMs: performance.now() - ts, storedNodes: env.value?.nodes.length ?? 0 }));
    const ctx = must(await tree.call({ operation: "context", sessionId: "perf" }), "context");
    const end = performance.now();
    const ms = end - t;
    const stored = await storedAt;
    stored.storedContextMs = end - ts;
    if (ctx.messages.length !== messages) throw new Error(`restored context has ${ctx.messages.length} messages`);
    // init()'s own marks: when the wasm had started, IndexedDB was read and the sessions restored.
    const at = (name) => (performance.getEntriesByName(name, "mark").at(-1)?.startTime ?? NaN) - t;
    const phases = { runtimeMs: at("sessiontree:runtime"), readMs: at("sessiontree:read"), restoredMs: at("sessiontree:restored"), contextMs: end - t - at("sessiontree:restored") };
    tree.close();
    const t2 = performance.now();
    const db = await requestPromise(indexedDB.open(dbName));
    const tx = db.transaction([...db.objectStoreNames], "readonly");
    let records = 0;
    for (const name of db.objectStoreNames) records += (await requestPromise(tx.objectStore(name).getAll())).length;
    const rawMs = performance.now() - t2;
    // The floor of storedContext: its meta record and its newest chunk record, read raw.
    const t3 = performance.now();
    const tx2 = db.transaction(["sessions", "chunks"], "readonly");
    await requestPromise(tx2.objectStore("sessions").get("perf"));
    await requestPromise(tx2.objectStore("chunks").openCursor(IDBKeyRange.bound(["perf", 0], ["perf", Infinity]), "prev"));
    const storedRawMs = performance.now() - t3;
    db.close();
    return { ms, rawMs, records, ...phases, ...stored, storedRawMs };
  },
};

/** ?startup: start the wasm runtime alone; window.startupMs is the time since navigation start. */
async function startupFloor() {
  await import("../js/wasm_exec.js");
  const go = new globalThis.Go();
  const result = await WebAssembly.instantiateStreaming(fetch("../js/sessiontree.wasm"), go.importObject);
  go.run(result.instance);
  globalThis.sessiontreeWasm.newStore();
  window.startupMs = performance.now();
}

if (new URLSearchParams(location.search).has("startup")) {
  startupFloor().then(() => (status.textContent = "ready"), (err) => (status.textContent = `failed: ${err}`));
} else {
  status.textContent = "ready";
}
