//# allFunctionsCalledOnLoad
// The list of stored sessions, read from IndexedDB's meta records alone
// (from the kept list and the few written since, when there is one:
// store/list-keep.js). The page reads it in its own thread while the
// worker and its wasm start (readList, js/sessiontree.js Connection.init):
// a page that lists sessions first pays that read, as a plain IndexedDB
// page would pay its own, not the start of a worker as well. The worker takes the
// records the page read (pager.js takeMetas), or reads them itself
// (readMetas) when the page could not. It imports only schema.js and
// early-list.js, which the page has loaded already.

import { newestFirst } from "../early-list.js";
import { DB_VERSION } from "./schema.js";

/**
 * Wrap a request in a promise. Awaiting it keeps the transaction active:
 * the continuation runs in the microtask checkpoint of the success event.
 * @param {IDBRequest} req
 * @returns {Promise<any>}
 */
export function requestPromise(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/**
 * Bring a meta record with `tail: true` up to date with the node records
 * stored after its nodeCount, in place: appends made under a writer's
 * held lock write only their node record (see writeChanges), so the
 * session's node count, cursor, branch and updatedAt are those of its
 * last stored node, and its last operation an append. A last record that
 * is not JSON changes nothing (the session's load then reports it).
 * @param {object} meta the record as read (changed in place)
 * @param {string} last the session's last node record (JSON)
 * @param {number} count the stored node count
 */
export function deriveTail(meta, last, count) {
  let node;
  try {
    node = JSON.parse(last);
  } catch {
    return; // a damaged record: the meta stays, and the session's load finds it (readSnapshot)
  }
  if (node === null || typeof node !== "object") return;
  meta.nodeCount = count;
  meta.cursor = node.id;
  meta.activeBranch = node.branch;
  meta.updatedAt = node.timestamp;
  meta.op = "append";
}

/** Orders meta records by createdAt, then sessionId: the order sessions are restored in. */
export function byCreation(a, b) {
  return a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0;
}

/**
 * The meta records among all that name a session (an object with a
 * sessionId string), each nodeCount that is not a non-negative safe
 * integer set to 0 in place (see liveMetas): what the start and a pull of
 * another tab's writes (store/take-in.js) take, so that a record damaged
 * outside sessiontree fails its own session only.
 * @param {any[]} all
 * @returns {object[]}
 */
export function usableMetas(all) {
  const named = all.filter((m) => m !== null && typeof m === "object" && typeof m.sessionId === "string" && m.sessionId !== "");
  for (const m of named) if (!Number.isSafeInteger(m.nodeCount) || m.nodeCount < 0) m.nodeCount = 0;
  return named;
}

/**
 * The live meta records among all those of the sessions store (erased
 * sessions' tombstones left out: they hold nothing, store/erase.js), in
 * creation order, and the highest gen stored (a tombstone's counts too).
 * A record damaged outside sessiontree fails its own session, never the
 * list: one that is not an object or has no sessionId string names no
 * session and is left out; a gen that is not a safe integer counts as 0;
 * a nodeCount that is not a non-negative safe integer is taken as 0, so
 * the session is listed and its load finds its records disagree
 * (STORAGE_ERROR naming it, store/records.js readSnapshot), where core's
 * page.stub would refuse every session's stub for it.
 * @param {object[]} all
 * @returns {{gen: number, metas: object[]}}
 */
export function liveMetas(all) {
  let gen = 0;
  const named = usableMetas(all);
  for (const m of named) if (Number.isSafeInteger(m.gen)) gen = Math.max(gen, m.gen);
  const metas = named.filter((m) => m.erased !== true);
  metas.sort(byCreation);
  return { gen, metas };
}

/**
 * Every record of store (whose keys are its records' sessionId) read
 * `batch` at a time, in key order, after `first` (the first `batch`
 * records, read already): each read's records are decoded in a task of
 * their own, and handed to onPart (when given) as they come.
 * @param {IDBObjectStore} store @param {number} batch
 * @param {((records: object[]) => void)|null} onPart
 * @param {object[]} first
 * @returns {Promise<object[]>}
 */
async function readBatched(store, batch, onPart, first) {
  const all = [];
  for (let part = first; ; ) {
    onPart?.(part);
    for (const m of part) all.push(m);
    if (part.length < batch) return all;
    part = await requestPromise(store.getAll(IDBKeyRange.lowerBound(part[part.length - 1].sessionId, true), batch));
  }
}

/**
 * The value of core's `sessions` answer for a store that holds exactly
 * these stubs (what pager.js stubRequest(metas) makes of them; core/ops.go
 * opSessions, core/internal/store/paging.go): one summary per meta in order,
 * `{sessionId, title, nodeCount, cursor (null when none), activeBranch
 * ("main" when the meta has none), updatedAt, tool?, project?}`, tool
 * left out when unknown or "snapshot" (core/internal/tree/origin.go); a
 * member that is no string (a record damaged outside sessiontree) is ""
 * there, as store/pager.js packStubs gives it to core. The
 * page answers `sessions` with it while the wasm starts (readList, and
 * js/worker.js init's early answer); e2e/paging.test.mjs compares it with
 * core's.
 * @param {object[]} metas the stored sessions' meta records (no trash)
 * @returns {object[]}
 */
export function sessionsFromMetas(metas) {
  const str = (v) => (typeof v === "string" ? v : "");
  return metas.map((m) => {
    const s = {
      sessionId: m.sessionId,
      title: str(m.title),
      nodeCount: m.nodeCount ?? 0,
      cursor: str(m.cursor) || null,
      activeBranch: typeof m.activeBranch === "string" ? m.activeBranch : "main",
      updatedAt: str(m.updatedAt),
    };
    if (str(m.tool) && m.tool !== "snapshot") s.tool = m.tool;
    if (str(m.project)) s.project = m.project;
    return s;
  });
}

/**
 * Bring each meta with `tail: true` (a tab killed, or closed, before its
 * meta flush: store/writer.js) up to date from the node records stored
 * after its nodeCount, as the worker's own read does (store/records.js
 * readNodes): metas[k] is replaced by an updated copy, so the record read
 * stays as stored (readList hands it to the worker, which may post it
 * only now). Such metas are few: those of the sessions a tab appended to last.
 * @param {IDBTransaction} tx over "sessions" and "nodes" @param {object[]} metas
 * @returns {Promise<void>}
 */
async function readTails(tx, metas) {
  const at = [];
  metas.forEach((m, k) => m.tail === true && at.push(k));
  const after = await Promise.all(at.map((k) => requestPromise(tx.objectStore("nodes").getAll(IDBKeyRange.bound([metas[k].sessionId, metas[k].nodeCount], [metas[k].sessionId, Infinity])))));
  at.forEach((k, i) => {
    if (after[i].length === 0) return;
    const m = { ...metas[k] };
    deriveTail(m, after[i].at(-1), m.nodeCount + after[i].length);
    metas[k] = m;
  });
}

/** Sessions the page reads first, newest first, before the rest of the list (readHead): a first screen (a read of 100 took twice as long as one of 50 in Chromium: bench/RESULTS.md). */
export const HEAD_SIZE = 50;

/**
 * Whether a meta record is one of a stored session out of the trash: it
 * names a session, is no erased session's tombstone, and has no deletedAt.
 * @param {any} m
 */
function listed(m) {
  return m !== null && typeof m === "object" && typeof m.sessionId === "string" && m.sessionId !== "" && m.erased !== true && !m.deletedAt;
}

/**
 * Up to `size` records of an index read backwards (newest first), those
 * keep() takes, and whether the index ended before `size` were taken:
 * `size` at a time with getAllRecords where the browser has it (Chromium
 * 141+: one request, where a cursor's steps at 100 sessions took longer
 * than a getAll of the whole store), else one cursor step at a time.
 * @param {IDBIndex} index @param {number} size @param {(m: object) => boolean} keep
 * @returns {Promise<{records: object[], ended: boolean}>}
 */
async function readBackwards(index, size, keep) {
  if (typeof index.getAllRecords !== "function") return cursorBackwards(index, size, keep);
  const records = [];
  for (let query = null; ; ) {
    const part = await requestPromise(index.getAllRecords({ query, count: size, direction: "prev" }));
    for (const r of part) if (records.length < size && keep(r.value)) records.push(r.value);
    if (records.length === size) return { records, ended: false };
    if (part.length < size) return { records, ended: true };
    query = IDBKeyRange.upperBound(part[part.length - 1].key, true);
  }
}

/** readBackwards, one cursor step at a time (Firefox, Safari). */
function cursorBackwards(index, size, keep) {
  return new Promise((resolve, reject) => {
    const records = [];
    const req = index.openCursor(null, "prev");
    req.onerror = () => reject(req.error);
    req.onsuccess = () => {
      const cursor = req.result;
      if (!cursor) return resolve({ records, ended: true });
      if (keep(cursor.value)) records.push(cursor.value);
      if (records.length === size) return resolve({ records, ended: false });
      cursor.continue();
    };
  });
}

/**
 * The newest `size` stored sessions out of the trash, newest first (the
 * order of core's `sessions` with order "updated": js/early-list.js
 * newestFirst), read from the "updated" index backwards without the rest
 * of the list, and whether they are all there are. A meta with `tail:
 * true` may have node records after its updatedAt: those metas (few, the
 * "tail" index's) are read first, brought up to date (readTails) and put
 * in their place, so a session a tab appended to without writing its meta
 * is where its last node puts it. Every other record stands where its
 * stored updatedAt puts it. A record with no updatedAt (a meta damaged
 * outside sessiontree, an erased session's tombstone) is not in the
 * index: the head says it holds every session only when the index holds
 * every record, so a page past it waits for the whole list, which lists
 * such a session as core does (updatedAt "").
 * @param {IDBTransaction} tx over "sessions" and "nodes", schema 7
 * @param {number} size
 * @returns {Promise<{items: object[], complete: boolean}>} items: sessionsFromMetas, newest first
 */
export async function readHead(tx, size) {
  const sessions = tx.objectStore("sessions");
  // Both asked at once: the tails are few, and the newest are rarely among them.
  const [stored, newest] = await Promise.all([requestPromise(sessions.index("tail").getAll()), readBackwards(sessions.index("updated"), size, listed)]);
  const tails = usableMetas(stored).filter(listed);
  const tailed = new Set(tails.map((m) => m.sessionId));
  let { records, ended } = newest;
  if (records.some((m) => tailed.has(m.sessionId))) {
    records = records.filter((m) => !tailed.has(m.sessionId));
    if (!ended) ({ records, ended } = await readBackwards(sessions.index("updated"), size, (m) => listed(m) && !tailed.has(m.sessionId)));
  }
  await readTails(tx, tails);
  const items = sessionsFromMetas(usableMetas(records).concat(tails)).sort(newestFirst);
  let complete = ended && items.length <= size;
  // Every record in the index? One with no updatedAt string (damaged outside sessiontree, or an erased session's tombstone) is not, and core may list it.
  if (complete) {
    const [inIndex, all] = await Promise.all([requestPromise(sessions.index("updated").count()), requestPromise(sessions.count())]);
    complete = inIndex === all;
  }
  return { items: items.slice(0, size), complete };
}

/**
 * The keys of the kept list in the "search" store: ["list", gen]
 * (store/schema.js, store/list-keep.js).
 * @returns {IDBKeyRange}
 */
export function keptListRange() {
  return IDBKeyRange.bound(["list"], ["list", []]);
}

/**
 * The gen of the kept list whose keys are `keys` (its store's keys in
 * keptListRange, in order: the last one's), undefined when there is none.
 * @param {IDBValidKey[]} keys @returns {number|undefined}
 */
export function keptListGen(keys) {
  return keys.at(-1)?.[1];
}

/**
 * The records of the "sessions" store stamped with a gen above `gen`
 * (from its "gen" index, in gen order), at most `limit` of them.
 * @param {IDBTransaction} tx over "sessions" @param {number} gen @param {number} [limit]
 * @returns {Promise<object[]>}
 */
export function recordsAbove(tx, gen, limit) {
  return requestPromise(tx.objectStore("sessions").index("gen").getAll(IDBKeyRange.lowerBound(gen, true), limit));
}

/**
 * Every record of the "sessions" store, read from the kept list (the JSON
 * of every record as stored when the highest gen was its key's, written
 * by store/list-keep.js) and the records stamped with a higher gen since,
 * which replace their session's or join the list: every write stamps the
 * records it puts with a gen above every stored one (store/writer.js), and
 * none is ever deleted, so the two say what a read of the whole store
 * would. At 10,000 sessions one 3 MB record and a JSON.parse take about a
 * quarter of the time of 10,000 records (bench/RESULTS.md). null when there
 * is no kept list, it is not a JSON array, or the records it makes are not
 * as many as the store holds (a kept list damaged outside sessiontree): it
 * is a cache, and the store is then read whole.
 * @param {IDBTransaction} tx over "sessions" and "search"
 * @returns {Promise<object[]|null>}
 */
async function readKeptList(tx) {
  // getAll, not a "prev" cursor, which costs ~3 ms more on a history with none (100 sessions: 8.8 ms against 5.2).
  const search = tx.objectStore("search");
  const [keys, values] = await Promise.all([requestPromise(search.getAllKeys(keptListRange())), requestPromise(search.getAll(keptListRange()))]);
  const gen = keptListGen(keys);
  if (!Number.isSafeInteger(gen) || typeof values.at(-1) !== "string") return null;
  let all;
  try {
    all = JSON.parse(values.at(-1));
  } catch {
    return null;
  }
  if (!Array.isArray(all)) return null;
  const [since, count] = await Promise.all([recordsAbove(tx, gen), requestPromise(tx.objectStore("sessions").count())]);
  const place = new Map();
  all.forEach((m, k) => place.set(m?.sessionId, k));
  for (const m of since) {
    const k = place.get(m.sessionId);
    if (k === undefined) all.push(m);
    else all[k] = m;
  }
  return all.length === count ? all : null;
}

/**
 * Every record of the "sessions" store: the kept list's when there is one
 * (readKeptList, handed to onPart in one part), else read in parts of
 * LIST_BATCH records handed to onPart as they come (readBatched; the
 * first part is what the page makes its worker after, js/sessiontree.js
 * LIST_FIRST_MS), or, with no onPart, in one request. Tried and not kept:
 * posting the kept list's JSON to the worker instead of its records
 * (10,000 sessions: the list and the first context within the runs' noise
 * of each other).
 * @param {IDBTransaction} tx over "sessions" and "search"
 * @param {((records: object[]) => void)|null} onPart
 * @returns {Promise<object[]>}
 */
export async function readRecords(tx, onPart) {
  // Asked at once with the kept list: a history under LIST_KEEP_MIN
  // sessions (never kept) waits for no more round trips than before it
  // (100 sessions: 7.6 ms against 5.8 with the kept list asked first);
  // one with a kept list reads LIST_KEEP_MIN records more.
  const sessions = tx.objectStore("sessions");
  const [kept, first] = await Promise.all([readKeptList(tx), requestPromise(sessions.getAll(null, LIST_KEEP_MIN))]);
  if (kept !== null || first.length < LIST_KEEP_MIN) {
    onPart?.(kept ?? first);
    return kept ?? first;
  }
  if (!onPart) return requestPromise(sessions.getAll());
  const rest = await requestPromise(sessions.getAll(IDBKeyRange.lowerBound(first[first.length - 1].sessionId, true), LIST_BATCH - LIST_KEEP_MIN));
  return readBatched(sessions, LIST_BATCH, onPart, first.concat(rest));
}

/** Records of the "sessions" store below which no kept list is written (store/list-keep.js: the store's own read is as quick); the first part read beside the kept list. */
export const LIST_KEEP_MIN = 256;

/** Meta records the page decodes in one task (see readBatched): a part of this many has more after it. */
export const LIST_BATCH = 1000;

/**
 * Read the value of `sessions` from IndexedDB database `name` in this
 * thread, without creating or upgrading it: the database is opened at the
 * version it has and closed again once read (at once when another tab asks
 * for a new version). Resolves to null, having changed nothing, whenever
 * the worker's own start must answer instead: no IndexedDB, no such
 * database (the open's upgrade is aborted, so none is made), a schema
 * other than DB_VERSION (the worker upgrades it), or a failed read. A
 * meta that lags its node records (tail: true) is brought up to date from
 * them (readTails). The records come from the kept list and those
 * written since when there is one (readKeptList), else from the store
 * itself. Never rejects.
 *
 * The worker takes the records read here instead of reading them again
 * (js/worker.js `metas`, store/pager.js takeMetas): two reads of one
 * object store at once take about twice as long as one, in Chromium as
 * in its IndexedDB backend, since it serves them in turn
 * (bench/RESULTS.md). onPart is called with each part read, as it
 * comes: every record of the store, trash and tombstones too, as stored
 * (a tail's node records the worker reads itself), in key order, or all
 * of them in one part in the kept list's order when they come from it
 * (readRecords); then with null once every record was read. Before
 * any of that, onHead (when given) is called with the head: the newest
 * HEAD_SIZE sessions (readHead), which init() answers with first.
 * @param {string} name
 * @param {((records: object[]|null) => void)|null} [onPart]
 * @param {((head: {items: object[], complete: boolean}) => void)|null} [onHead]
 * @returns {Promise<object[]|null>} sessionsFromMetas of the stored sessions not in the trash
 */
export function readList(name, onPart = null, onHead = null) {
  return readExisting(name, async (db) => {
    const tx = db.transaction(["sessions", "nodes", "search"], "readonly");
    if (onHead) onHead(await readHead(tx, HEAD_SIZE));
    const { metas } = liveMetas(await readRecords(tx, onPart));
    onPart?.(null);
    await readTails(tx, metas);
    return sessionsFromMetas(metas.filter((m) => !m.deletedAt));
  });
}

/**
 * What read(db) resolves to, db being IndexedDB database `name` opened in
 * this thread at the version it has, without creating or upgrading it,
 * and closed once read answered (at once when another tab asks for a new
 * version). null, having changed nothing, when there is no IndexedDB, no
 * such database (the open's upgrade is aborted, so none is made), its
 * schema is not DB_VERSION, or read throws or rejects. Never rejects.
 * @template T
 * @param {string} name @param {(db: IDBDatabase) => Promise<T>} read
 * @returns {Promise<T|null>}
 */
export function readExisting(name, read) {
  return new Promise((resolve) => {
    let req;
    try {
      req = globalThis.indexedDB.open(name);
    } catch {
      resolve(null);
      return;
    }
    req.onupgradeneeded = () => req.transaction.abort(); // no such database: the worker makes it
    req.onerror = (event) => {
      event.preventDefault?.();
      resolve(null);
    };
    req.onsuccess = async () => {
      const db = req.result;
      db.onversionchange = () => db.close();
      try {
        resolve(db.version === DB_VERSION ? await read(db) : null);
      } catch {
        resolve(null);
      } finally {
        db.close();
      }
    };
  });
}
