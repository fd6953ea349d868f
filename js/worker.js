// The module Worker that runs sessiontree's store for a page: the Go
// runtime, the wasm store and the IndexedDB Writer (js/local.js), so the
// page's thread never runs Go. js/sessiontree.js starts one per page and
// talks to it with the messages below; nothing else should.
//
// Page → worker: {id, op, tree?, args}
//   init            args [options, given?] → {tree, infos, persistent, marks, sessions?, same?, listing?}
//                                           (marks: [name, ms since the epoch] of init's User Timing marks);
//                                           a persisted tree answers once IndexedDB is read, before
//                                           its wasm starts, with `sessions` (methods.init), or
//                                           same: true when that list is the one the page read;
//                                           given {list: n}: the page reads the meta records and
//                                           sends them as `metas` messages with list n; given.headed:
//                                           the page answered from their head, so init answers at once
//                                           (listing: true), then posts {tree, listed: {same} | {sessions}}
//   metas           args [n, records|null, end?] records: the next meta records the page read for
//                                           init's list n; end (records null): true when the page read
//                                           them all, false when the worker must read them itself
//   call            args [request, asText] → envelope text, or a context in
//                                           columns (LocalTree._contextWire);
//                                           request: a JSON string or UTF-8 bytes
//   importText      args [text, format, {progress, signal, sliceBytes}]
//                                         → the envelope; {progress: id, value} meanwhile
//   importBytes     args [data, format, {progress, signal, sliceBytes}]
//                                         importFile's import: data a Blob or
//                                         a Uint8Array (its buffer transferred);
//                                         like importText
//   importFiles     args [files, dir, {progress, signal}]
//                                         tree.importFiles: files [{path, data:
//                                         Uint8Array}] (buffers transferred), dir a
//                                         FileSystemDirectoryHandle or null
//   importZip       args [file, {name, budget, hold}, {progress, signal}]
//                                         tree.importZip: file the ZIP's Blob, read
//                                         and inflated here (js/zip-import.js)
//   abort           args [id]             aborts that importText, importBytes, importFiles or importZip
//                                         (also while it waits for its tree's start)
//   saveSnapshot, listSnapshots, restoreSnapshot, refresh, flush, close,
//   storageState, debug                   → what the LocalTree method resolves to
// Worker → page: {id, ok: true, value} | {id, ok: false, error: message},
//   the long lists of a value in parts before it ({id, part, at}, then the
//   value with `split`: postAnswer), a long `call` answer as {envelope},
//   {progress: id, value}, {tree, events} for the subscriber events of a
//   task (at most EVENT_BATCH a message), {tree, event} for a failed start,
//   {tree, ready: true, marks} when a tree whose init answered early has started,
//   {tree, newer: true} before a call of such a tree answered before it started from what
//   IndexedDB holds now (js/first-context.js): the page's list may be older,
//   {exited: reason} when the Go program ended (a fatal error such as out of
//   memory): posted from inside the call that ended it, before that call's
//   answer, so the page answers every call in flight and starts a new
//   worker (js/sessiontree.js, Connection._restart).
// Bytes cross as transferred ArrayBuffers (requests given as bytes, context
// columns); texts as strings (requests given as text or objects, envelope
// texts). Measured in Chromium on this machine, a 16 MB JSON text posted
// as a string reached the page in 21-47 ms with the page's thread blocked
// at most 9-15 ms; encoded here, transferred and decoded there it took
// 56-68 ms with 10-19 ms blocked (32 MB: 42-47 ms / 14-20 ms against
// 118-137 ms / 18-38 ms). The wasm hands out envelopes as strings anyway.

import { initLocal, onRuntimeExit, shared as localTrees } from "./local.js";
import { OPERATION_INFOS } from "./tree-api.js";
import { sessionsFromMetas } from "./store/listing.js";
import { readLongList, splitAnswer } from "./answer-parts.js";
import { begun } from "./call-order.js";
// Every module the store needs, named here too so they are all fetched at
// once when this one is parsed, not level by level (a worker has no
// modulepreload; through a service worker each level costs a round trip).
import "./store.js";
import "./store/schema.js";
import "./store/records.js";
import "./store/writer.js";
import "./store/executor.js";
import "./store/coordinator.js";
import "./store/take-in.js";
import "./store/pager.js";
import "./local-paging.js";
import "./local-context.js";
import "./local-start.js";
import "./first-context.js";
import "./request-text.js";
import "./context-columns.js";
import "./tree-api.js";
import "./folder-import.js";
import "./folder-entries.js";

onRuntimeExit((reason) => postMessage({ exited: reason }));

/** Trees by id, and ids by init promise (init of a shared dbName gets the same promise, so the same id). */
const trees = new Map();
const ids = new Map();
let nextTree = 1;

/** The User Timing marks init() sets (js/local.js), passed on to the page's timeline. */
const INIT_MARKS = ["sessiontree:runtime", "sessiontree:read", "sessiontree:restored"];

/**
 * The meta records pages are reading for an init (its `given`), by list
 * number: {records, done (resolves to records once all came, or to null)}.
 * An entry leaves with its last message.
 */
const givenLists = new Map();

/**
 * The records list n brings, as a Promise that resolves once the page sent
 * them all (to null when it could not read them: the store reads its own).
 * @param {{list: number}|null|undefined} given @returns {Promise<object[]|null>|null}
 */
function givenRecords(given) {
  if (!(given && Number.isInteger(given.list)) || givenLists.has(given.list)) return null; // a list already awaited is not taken twice
  let settle;
  const done = new Promise((resolve) => (settle = resolve));
  givenLists.set(given.list, { records: [], settle });
  return done;
}

/**
 * AbortControllers of imports (importText, importBytes, importFiles,
 * importZip), by request id, from the request's arrival to its answer: an
 * `abort` may come while the import waits for its tree's start (early).
 */
const imports = new Map();

/** The operations an `abort` message can stop: each has a controller in imports while it runs or waits. */
const ABORTABLE = new Set(["importText", "importBytes", "importFiles", "importZip"]);

/** The AbortSignal of import request id when the page gave it a signal (flags.signal), else undefined. */
const importSignal = (id, signal) => (signal ? imports.get(id)?.signal : undefined);

/** onProgress of import request id: posts {progress: id, value} when the page asked for progress, else undefined. */
const progressTo = (id, progress) => (progress ? (value) => postMessage({ progress: id, value }) : undefined);

/**
 * Trees whose init may answer before their wasm started, by id: {listed
 * (Promise of the stored metas), ready (Promise<LocalTree>), failed (the init's error once it failed),
 * dbName, first (js/first-context.js FirstContext, or null), turn (settles when the message before
 * the last one has its turn: inTurn), waiting (messages that wait for ready)}. Calls for them
 * wait on ready, in order, but a context first may answer before (inTurn). A tree leaves when it
 * is ready (then it is in trees).
 */
const early = new Map();


/** The User Timing marks of init so far, as [name, ms since the epoch]. */
function initMarks() {
  return INIT_MARKS.map((name) => [name, performance.getEntriesByName(name, "mark").at(-1)?.startTime]).filter(([, at]) => at !== undefined).map(([name, at]) => [name, performance.timeOrigin + at]);
}

/** The most subscriber events one message to the page carries. */
const EVENT_BATCH = 2000;

/**
 * A subscriber that posts tree id's events to the page in batches,
 * {tree, events}: those of one task together (at its end, before any
 * answer of the calls they belong to), at most EVENT_BATCH a message. One
 * message per event was 60,000 messages for an import of 60,000
 * conversations, each a task of the page's.
 * @param {number} id
 * @returns {(event: object) => void}
 */
function eventPoster(id) {
  let queued = [];
  const post = () => {
    if (queued.length === 0) return;
    const events = queued;
    queued = [];
    postMessage({ tree: id, events });
  };
  return (event) => {
    if (queued.length === 0) queueMicrotask(post);
    queued.push(event);
    if (queued.length >= EVENT_BATCH) post();
  };
}

/** Put a tree that is ready under its id, its events posted to the page, and tell the page (its early list no longer answers). */
function adopt(id, tree) {
  trees.set(id, tree);
  tree.subscribe(eventPoster(id));
  postMessage({ tree: id, ready: true, marks: initMarks() });
}

const methods = {
  /**
   * A persisted tree answers as soon as IndexedDB is read and the wasm's
   * server answered (js/local.js onListed), with `sessions`: the value of
   * core's `sessions` answer (sessionsFromMetas), which the page answers
   * with until the worker posts {tree, ready: true} (js/worker-tree.js);
   * calls that reach the worker before then wait for the runtime in
   * `early`, in order. A failure after that (the wasm does
   * not compile, the Go program does not start, a stored session is
   * corrupt) closes the tree: every call answers STORAGE_ERROR with it
   * and the page's subscribers get {type: "storage", state: "closed",
   * reason: "failed", message}. A failure before it rejects init.
   */
  async init(_, options, given) {
    let listed;
    const metas = new Promise((resolve) => (listed = (m, taken) => resolve({ metas: m, taken })));
    let first = null;
    const ready = initLocal(options, listed, givenRecords(given), (f) => (first = f));
    let id = ids.get(ready);
    if (id === undefined) {
      id = nextTree++;
      ids.set(ready, id);
      const entry = { listed: metas, ready, failed: null, dbName: options?.dbName, first, turn: Promise.resolve(), waiting: 0 };
      early.set(id, entry);
      ready.then((tree) => {
        early.delete(id);
        // What other tabs stored since IndexedDB was read the tree took in
        // itself (js/local.js create listens from before the read).
        adopt(id, tree);
      }, (err) => {
        entry.failed = err;
        postMessage({ tree: id, event: { type: "storage", state: "closed", reason: "failed", message: String(err?.message ?? err) } });
      });
    }
    const entry = early.get(id);
    if (entry && given?.headed === true) {
      // The page answered init() from its list's head: it needs the tree's
      // id now (its calls wait for it), and the list once read, when it is
      // not the one the page read ({tree, listed}, js/sessiontree.js).
      entry.listed.then((first) => early.has(id) && postMessage({ tree: id, listed: first.taken ? { same: true } : { sessions: sessionsFromMetas(first.metas) } }));
      return { tree: id, infos: OPERATION_INFOS, persistent: true, marks: initMarks(), listing: true };
    }
    if (entry) {
      // Whichever comes first: the list (answer now) or the whole start.
      const first = await Promise.race([entry.listed, ready.then(() => ({}))]);
      if (first.metas && early.has(id)) {
        // Made of the records the page read (taken), the list is the one the
        // page answers with: `same` instead (10,000 sessions: ~50-80 ms less here).
        const list = first.taken ? { same: true } : { sessions: sessionsFromMetas(first.metas) };
        return { tree: id, infos: OPERATION_INFOS, persistent: true, marks: initMarks(), ...list };
      }
    }
    const tree = await ready;
    return { tree: id, infos: [...tree._operationInfo.values()], persistent: tree.persistent, marks: initMarks() };
  },
  /** A part of list n's meta records (see givenLists), or its end. */
  metas(_, n, records, end) {
    const entry = givenLists.get(n);
    if (!entry) return false; // an init of a database already open here, or a worker started again
    if (records) for (const r of records) entry.records.push(r);
    else {
      givenLists.delete(n);
      entry.settle(end === true ? entry.records : null);
    }
    return true;
  },
  async call(tree, bytes, asText) {
    const answer = await tree._request(bytes, asText, true);
    return asText ? answer : readLongList(answer);
  },
  importText: (tree, text, format, { progress, signal, sliceBytes }, id) =>
    tree.importText(text, format, { sliceBytes, signal: importSignal(id, signal), onProgress: progressTo(id, progress) }),
  importBytes: (tree, data, format, { progress, signal, sliceBytes }, id) =>
    begun(tree, () => tree._importBytes(data, format, { sliceBytes, signal: importSignal(id, signal), onProgress: progressTo(id, progress) })),
  importFiles: (tree, files, dir, { progress, signal }, id) =>
    begun(tree, () => tree._importFiles(files, dir, { signal: importSignal(id, signal), onProgress: progressTo(id, progress) })),
  importZip: (tree, file, { name, budget, hold }, { progress, signal }, id) =>
    begun(tree, () => tree._importZip(file, { name, budget, hold, signal: importSignal(id, signal), onProgress: progressTo(id, progress) })),
  abort(_, target) {
    imports.get(target)?.abort();
  },
  saveSnapshot: (tree, sessionId, name) => tree.saveSnapshot(sessionId, name),
  listSnapshots: (tree, sessionId) => tree.listSnapshots(sessionId),
  restoreSnapshot: (tree, sessionId, name) => tree.restoreSnapshot(sessionId, name),
  refresh: (tree) => tree.refresh(),
  flush: (tree) => tree.flush(),
  close: (tree) => tree.close(),
  storageState: (tree) => tree._storageState(),
  debug: (tree) => tree._debug(),
};

/**
 * Post answer id's value: its long lists in parts first, each its own
 * message {id, part, at}, then the value without them and `split`
 * naming them (js/answer-parts.js; the page puts them back).
 */
function postAnswer(id, value) {
  const cut = splitAnswer(value);
  if (cut === null) return postMessage({ id, ok: true, value }, transferables(value));
  for (const [at, part] of cut.parts) postMessage({ id, part, at });
  postMessage({ id, ok: true, value: cut.value, split: cut.split });
}

/** The ArrayBuffers of a context answered in columns, to transfer. */
function transferables(value) {
  return value && typeof value === "object" && typeof value.head === "string" ? [value.ascii.buffer, value.wide.buffer, value.rows.buffer] : [];
}

/**
 * A message for tree entry (not started: see `early`), in the order the
 * messages came: once every one before it has answered early or waits for
 * the tree, the envelope text of a context call answered before the start
 * made the stubs (js/first-context.js; only while no call waits for the
 * tree, so that none is passed), else null: then it waits for the tree
 * after those before it.
 * @param {object} entry @param {string|Uint8Array|undefined} request a call's payload, else undefined
 * @returns {Promise<string|null>}
 */
async function inTurn(entry, request) {
  const before = entry.turn;
  let done;
  entry.turn = new Promise((resolve) => (done = resolve));
  try {
    await before;
    const early = request !== undefined && entry.waiting === 0 && entry.first ? await entry.first.answer(request) : null;
    if (early === null) entry.waiting++;
    return early;
  } finally {
    done();
  }
}

self.onmessage = async ({ data }) => {
  const { id, op, args = [] } = data ?? {};
  if (ABORTABLE.has(op)) imports.set(id, new AbortController());
  try {
    const method = Object.hasOwn(methods, op) ? methods[op] : null;
    if (!method) throw new Error(`sessiontree worker: unknown message ${JSON.stringify(op)}`);
    let tree = null;
    if (op !== "init" && op !== "abort" && op !== "metas") {
      tree = trees.get(data.tree) ?? null;
      const entry = tree ? null : early.get(data.tree);
      if (!tree && !entry) throw new Error(`sessiontree worker: no tree ${data.tree}`);
      if (entry) {
        if (entry.failed) throw entry.failed;
        if (op === "close") {
          // Closed before it started: the next init of this database starts
          // a new tree now (this one is closed once it has started).
          ids.delete(entry.ready);
          if (localTrees.get(entry.dbName) === entry.ready) localTrees.delete(entry.dbName);
        }
        const early = await inTurn(entry, op === "call" ? args[0] : undefined);
        if (early !== null) {
          // Read from IndexedDB now: the list the page read before may be
          // older, and answers no more `sessions` (WorkerTree._endEarly).
          postMessage({ tree: data.tree, newer: true });
          return postAnswer(id, early);
        }
        tree = await entry.ready;
      }
    }
    postAnswer(id, await method(tree, ...args, id));
  } catch (err) {
    postMessage({ id, ok: false, error: String(err?.message ?? err) });
  } finally {
    if (ABORTABLE.has(op)) imports.delete(id);
  }
};
