// The "lazy floor" of bench/paging.mjs (issue 24): the least a page can do
// to list stored chat sessions and open one, in plain JS on IndexedDB with
// no library, measured beside sessiontree in the same run. It lists the
// sessions from a metadata store (one small record per session) and, when
// one is opened, reads that session's message records and parses them.
// It reads sessiontree's own records (the "sessions" meta store, the
// "nodes" and "chunks" stores), so both read the same bytes from disk.

const req = (r) => new Promise((resolve, reject) => ((r.onsuccess = () => resolve(r.result)), (r.onerror = () => reject(r.error))));

/**
 * Open the database and list its sessions, newest first.
 * @param {string} name the IndexedDB database
 * @returns {Promise<{db: IDBDatabase, sessions: {id: string, title: string, count: number, updatedAt: string}[]}>}
 */
export async function openList(name) {
  const db = await req(indexedDB.open(name));
  const metas = await req(db.transaction("sessions").objectStore("sessions").getAll());
  const sessions = metas.map((m) => ({ id: m.sessionId, title: m.title, count: m.nodeCount, updatedAt: m.updatedAt }));
  sessions.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : -1));
  return { db, sessions };
}

/**
 * Open one session: read its records and parse its messages, in order.
 * @param {IDBDatabase} db @param {string} id
 * @returns {Promise<{role: string, content: string}[]>}
 */
export async function openSession(db, id) {
  const tx = db.transaction(["chunks", "nodes"]);
  const range = IDBKeyRange.bound([id, 0], [id, Infinity]);
  const [chunks, nodes] = await Promise.all([req(tx.objectStore("chunks").getAll(range)), req(tx.objectStore("nodes").getAll(range))]);
  const decoder = new TextDecoder();
  const texts = chunks.map((c) => (typeof c === "string" ? c : decoder.decode(c)));
  const all = JSON.parse("[" + [...texts, ...nodes].join(",") + "]");
  return all.map((n) => n.message).filter(Boolean);
}

/**
 * The floor's whole run: list, then open session `open`.
 * @param {string} name @param {string} open
 * @returns {Promise<{listMs: number, openMs: number, sessions: number, messages: number}>}
 */
export async function run(name, open) {
  const t0 = performance.now();
  const { db, sessions } = await openList(name);
  const listMs = performance.now() - t0;
  const t1 = performance.now();
  const messages = await openSession(db, open);
  const openMs = performance.now() - t1;
  db.close();
  return { listMs, openMs, sessions: sessions.length, messages: messages.length };
}

/**
 * The floor of a list shown a page at a time: open the database and read
 * the newest `limit` sessions from the "updated" index ([updatedAt,
 * sessionId], schema 7) backwards, with nothing else read: in one
 * getAllRecords request where the browser has it, else with a cursor.
 * @param {string} name @param {number} limit
 * @returns {Promise<{pageMs: number, sessions: number}>}
 */
export async function runPage(name, limit) {
  const t0 = performance.now();
  const db = await req(indexedDB.open(name));
  const index = db.transaction("sessions").objectStore("sessions").index("updated");
  const summary = (m) => ({ id: m.sessionId, title: m.title, count: m.nodeCount, updatedAt: m.updatedAt });
  // One request where the browser has getAllRecords (Chromium 141+), else a cursor.
  const sessions = typeof index.getAllRecords === "function" ? (await req(index.getAllRecords({ count: limit, direction: "prev" }))).map((r) => summary(r.value)) : await new Promise((resolve, reject) => {
    const out = [];
    const cursor = index.openCursor(null, "prev");
    cursor.onerror = () => reject(cursor.error);
    cursor.onsuccess = () => {
      const c = cursor.result;
      if (c) out.push(summary(c.value));
      if (!c || out.length === limit) resolve(out);
      else c.continue();
    };
  });
  const pageMs = performance.now() - t0;
  db.close();
  return { pageMs, sessions: sessions.length };
}

/**
 * What any search without an index on disk must do once: read every
 * stored node record (chunks and single nodes) and the text of each, in
 * one read-only transaction; the figure printed beside sessiontree's
 * search across a paged store.
 * @param {string} name the IndexedDB database
 * @returns {Promise<{readMs: number, records: number}>}
 */
export async function readEverything(name) {
  const t0 = performance.now();
  const db = await req(indexedDB.open(name));
  const tx = db.transaction(["chunks", "nodes"]);
  const [chunks, nodes] = await Promise.all([req(tx.objectStore("chunks").getAll()), req(tx.objectStore("nodes").getAll())]);
  const decoder = new TextDecoder();
  let chars = 0;
  for (const c of chunks) chars += (typeof c === "string" ? c : decoder.decode(c)).length;
  for (const n of nodes) chars += n.length;
  db.close();
  return { readMs: performance.now() - t0, records: chunks.length + nodes.length, chars };
}

/**
 * The floor of a store that runs in a Worker, as sessiontree's does: start
 * a module worker (bench/lazy-floor-worker.js), have it open the database
 * and list the sessions as openList does, and receive the list. What it
 * adds to run's listMs is the worker's start and one round trip.
 * @param {string} name the IndexedDB database
 * @returns {Promise<{listMs: number, sessions: number}>}
 */
export async function runInWorker(name) {
  const t0 = performance.now();
  const worker = new Worker(new URL("./lazy-floor-worker.js", import.meta.url), { type: "module" });
  const sessions = await new Promise((resolve, reject) => {
    worker.onmessage = ({ data }) => resolve(data);
    worker.onerror = (e) => reject(new Error(e.message));
    worker.postMessage(name);
  });
  const listMs = performance.now() - t0;
  worker.terminate();
  return { listMs, sessions: sessions.length };
}

/**
 * The wasm start floor: from a new module worker to the first answer of
 * sessiontree's wasm started in it, with nothing stored (see
 * wasm-start-worker.js). A first call of any store in a worker that runs
 * this wasm cannot come sooner.
 * @param {string} wasmURL
 * @returns {Promise<{startMs: number}>} milliseconds
 */
export async function runWasmStart(wasmURL) {
  const t0 = performance.now();
  const worker = new Worker(new URL("./wasm-start-worker.js", import.meta.url), { type: "module" });
  const ok = await new Promise((resolve, reject) => {
    worker.onmessage = ({ data }) => resolve(data);
    worker.onerror = (e) => reject(new Error(e.message));
    worker.postMessage(String(new URL(wasmURL, location.href)));
  });
  const startMs = performance.now() - t0;
  worker.terminate();
  if (ok !== true) throw new Error("bench: the wasm's first call failed");
  return { startMs };
}
