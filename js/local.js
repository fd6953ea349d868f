// The store in the thread that runs it: the Go runtime (wasm_exec.js and
// sessiontree.wasm), the wasm store handle, and its IndexedDB Writer. By
// default this runs inside the module Worker of js/worker.js, and the page
// talks to it through js/sessiontree.js; with init({worker: false}), or
// where there is no Worker, js/sessiontree.js hands out a LocalTree in the
// page's own thread. Both keep the Promise API of js/tree-api.js.

import { Writer, DB_DEFAULT_NAME } from "./store.js";
import { Pager } from "./store/pager.js";
import { callPaged, held, keepSearchSoon, mutatePaged, requestSession, retryPaged } from "./local-paging.js";
import { listRestorePoints, restoreSnapshot, saveSnapshot } from "./local-snapshots.js";
import { DETACHED_BYTES, escapeLoneSurrogates, isBytes, requestJSON, requestOperation } from "./request-text.js";
import { CachePlan, TextCaches } from "./context-columns.js";
import { contextAnswer, contextWire } from "./local-context.js";
import { TreeAPI, checkMemoryBudget, errorEnvelope } from "./tree-api.js";
import { begun, closeAfterBegun, closeWaitsFor } from "./call-order.js";
import { ERROR } from "./protocol.js";
import { answeredInColumns, envelopeFailed } from "./envelope.js";
import { IN_WORKER, exitedMessage } from "./runtime.js";
export { onRuntimeExit } from "./runtime.js";
import { startStore } from "./local-start.js";
import { hasSession, importBytes, importJob, importSnapshot, importText } from "./local-import.js";
import { importFileList } from "./folder-import.js";
import { nextTask } from "./tasks.js";
import { ChangeLog } from "./change-events.js";
import { parseChangeBytes, readCounts } from "./store/records.js";

/** Bytes of core's drain taken per piece without storage (see _finish; the Writer's DRAIN_BYTES). */
const EVENT_DRAIN_BYTES = 2 << 20;

const utf8Encoder = new TextEncoder();

/** Nodes the search index takes in per slice while the page is idle (see _warmSearch). */
const WARM_NODES = 500;

/**
 * Milliseconds without a call before the search index is warmed: a slice
 * run between calls made one after another (appends awaited in turn) would
 * delay the next one by its ~5 ms.
 */
const WARM_QUIET_MS = 100;

/** Milliseconds of search-index warm-up per task in a worker (see _warmSearch). */
const WORKER_WARM_MS = 20;

/** The wasm store's memory budget when init() is given none, in bytes (core.DefaultMemoryBudget). */
const DEFAULT_MEMORY_BUDGET = 2 ** 31;

/** Trees shared per IndexedDB database name within this thread: dbName → Promise<LocalTree> (js/worker.js unshares one closed before it started). */
export const shared = new Map();

/**
 * Start a store in this thread: what init() of js/sessiontree.js does with
 * {worker: false}, and what js/worker.js does for the page. Same options
 * and sharing: the same dbName in the same thread resolves to the same
 * tree; another dbName, or `persist: false`, gives an independent one.
 *
 * Rejects (never resolves to an empty store) when the wasm cannot be loaded, IndexedDB cannot be
 * opened or read, or a stored session is corrupt (nothing stored is written then), and for a
 * memoryBudget that is not a positive integer up to 2^32 bytes.
 *
 * If the Go program exits (a fatal error: out of memory), every later call
 * of the trees it ran answers STORAGE_ERROR (exitedMessage) and
 * subscribers get `{type: "storage", state: "closed", reason: "exited",
 * message}`; init() again loads a new Go program and restores what
 * IndexedDB holds (js/sessiontree.js does that by itself for the worker).
 *
 * @param {{wasmURL?: string|URL, dbName?: string, persist?: boolean, memoryBudget?: number}} [options]
 *   wasmURL (required; init() in js/sessiontree.js passes its default, the
 *   package's sessiontree.wasm) is resolved against the thread's location.
 *   memoryBudget: see init() in js/sessiontree.js (bytes; default 2 GiB)
 * @param {((metas: object[], taken: boolean) => void)|null} [onListed] for a persisted tree this call
 *   creates: called with the stored metas (no trash, in core's order) once IndexedDB is read
 *   and the wasm's server answered, before the tree is made (js/worker.js answers early); taken: they are the records given
 * @param {Promise<object[]|null>|null} [given] for a persisted tree this call creates: the records of
 *   the "sessions" store as the page read them (see openStore), or null to read them here
 * @param {((first: import("./first-context.js").FirstContext|null) => void)|null} [onFirst] for a persisted tree this call creates:
 *   called at once with what answers a context before the start makes the stubs (js/first-context.js)
 * @returns {Promise<LocalTree>}
 */
export function initLocal(options = {}, onListed = null, given = null, onFirst = null) {
  options = options ?? {};
  const bad = checkMemoryBudget(options.memoryBudget);
  if (bad) return Promise.reject(new Error(`sessiontree: init: ${bad}`));
  // The wasm's default URL is written once, in js/sessiontree.js: a second
  // new URL("./sessiontree.wasm", import.meta.url) here would make a
  // bundler emit the wasm again for the worker's bundle.
  if (!options.wasmURL) return Promise.reject(new Error("sessiontree: init: wasmURL is required"));
  const wasmURL = new URL(options.wasmURL, globalThis.location?.href);
  const persist = options.persist !== false;
  const dbName = options.dbName ?? DB_DEFAULT_NAME;
  const budget = options.memoryBudget;
  const pageBudget = options.pageBudget ?? Math.floor((budget ?? DEFAULT_MEMORY_BUDGET) / 8);
  if (!(Number.isInteger(pageBudget) && pageBudget >= 0)) return Promise.reject(new Error(`sessiontree: init: option "pageBudget" must be a non-negative integer of bytes; got ${JSON.stringify(options.pageBudget)}`));
  if (!persist) return startStore(wasmURL, null, budget, 0, { makeTree });
  if (!shared.has(dbName)) {
    const p = startStore(wasmURL, dbName, budget, pageBudget, { onListed, given, onFirst, makeTree });
    shared.set(dbName, p);
    p.catch(() => shared.delete(dbName));
  }
  return shared.get(dbName);
}

/** A LocalTree of startStore's arguments. */
const makeTree = (...args) => new LocalTree(...args);

/**
 * One session store in this thread: every session of one IndexedDB
 * database (or of memory, with persist: false). Obtain it from init() with
 * {worker: false}, or initLocal().
 */
export class LocalTree extends TreeAPI {
  /**
   * @param {object} handle the wasm store handle (sessiontreeWasm.newStore())
   * @param {IDBDatabase|null} db @param {string|null} dbName
   * @param {{gen: number, metas: object[]}} stored what init read from the database (the sessions core holds as stubs)
   * @param {WebAssembly.Memory} memory the wasm memory, for context answered in columns
   * @param {number} [pageBudget] bytes of stored sessions kept loaded (see Pager)
   * @param {BroadcastChannel|null} [channel] the channel to other tabs, opened before the database was read (see create); by default the Writer opens its own
   */
  constructor(handle, db, dbName, stored, memory, pageBudget = 0, channel = undefined) {
    super(JSON.parse(handle.operations()), db !== null);
    this._handle = handle;
    this._memory = memory;
    /** What the answering side holds of each text cache (see _context; in a worker the page holds the strings). */
    this._plan = new CachePlan();
    /** The decoded text caches, when this thread builds the answers itself (see _context). */
    this._texts = new TextCaches();
    /** Context answers given in columns (for tests). */
    this._columnAnswers = 0;
    /** Contexts answered before the start made the stubs (js/first-context.js; for tests). */
    this._firstContexts = 0;
    this._db = db;
    this._dbName = dbName;
    this._writer = db
      ? new Writer(db, handle, { gen: stored.gen, metas: stored.metas, missed: stored.missed, channel, emit: (e) => this._emit(e), keepsCursor: (op) => this._operationInfo.get(op)?.keepsCursor === true })
      : null;
    /** The paged-out sessions (store/pager.js); null without a Writer (every session stays in memory). */
    this._pager = this._writer ? new Pager(db, handle, this._writer, { metas: stored.metas.filter((m) => !m.deletedAt), budget: pageBudget, onLoaded: () => this._warmSearch() }) : null;
    /** The call waiting for its paged-out sessions, which holds back those made after it (see held in js/local-paging.js); null for none. */
    this._pageHold = null;
    if (this._writer) this._writer.pager = this._pager;
    this._memorySnapshots = new Map(); // for persist: false
    this._warmTask = null;
    /** Milliseconds spent building the search index so far, slices only (for benchmarks, see _debug). */
    this._warmMs = 0;
    /** The wasm memory in bytes when the last sliced import was stored (its peak: the memory never shrinks), 0 before one (see _debug). */
    this._importWasmBytes = 0;
    /** performance.now() of the last call made or answered, and the calls not answered yet: the search index is warmed only after a quiet spell with none. */
    this._lastCallAt = 0;
    this._calls = 0;
    this._closed = false;
    Object.assign(this, { _keepTimer: null, _keptTried: false, _keptTaking: null, _keptSaves: 0, _keptRefused: 0, _keptRead: null }); // the kept search index (local-paging.js)
    this._warmSearch();
    setTimeout(() => this._closed || this._handle.settle(), 2000); // the collection create() held runs within 2 s, quiet or not
  }

  /**
   * Answer one request of the tool API: `{operation, ...fields}` as an
   * object, a JSON string, or the JSON's UTF-8 bytes (a Uint8Array or
   * ArrayBuffer, e.g. a snapshot file read with `file.arrayBuffer()`
   * wrapped in a request). Bytes cross to the wasm with one copy; a string
   * is transcoded to UTF-8 first (for 25 MB of non-ASCII text about as
   * long as JSON.parse of it), an object is JSON.stringify'd and then
   * transcoded. The request is what its JSON text says (for an object,
   * what JSON.stringify makes of it, toJSON included; a key given twice is
   * refused): the shim routes it by the operation that text names, exactly
   * as core runs it. Resolves to the envelope; never rejects for a
   * domain error (bad input gets an INVALID_ARGUMENT envelope). A mutating
   * call resolves only after its change is committed to IndexedDB (and after
   * what other tabs stored was taken in first, so ids never collide and
   * appends under one node in two tabs make a fork). If the commit fails
   * (quota exceeded, connection closed) it resolves to
   * `{ok: false, error: {code: "STORAGE_ERROR", message}}` and memory is
   * brought back to what is stored: the change is wholly undone.
   * @param {object|string|Uint8Array|ArrayBuffer} request
   * @returns {Promise<{ok: true, value: any} | {ok: false, error: {code: string, message: string}}>}
   */
  call(request) {
    return this._request(request, false);
  }

  /**
   * Like call(), but resolves to the envelope's exact JSON text instead of a
   * parsed object. JSON.parse turns numbers into doubles (digits past 2^53
   * are lost), so code that must hand messages on byte for byte — exports,
   * proxies to a model API — reads them from this text.
   * @param {object|string|Uint8Array|ArrayBuffer} request
   * @returns {Promise<string>} the envelope as JSON text
   */
  callText(request) {
    return this._request(request, true);
  }

  /**
   * Whether `name` is a public operation that never changes anything (the
   * wasm's readOnly): call() answers it from memory when no write is
   * queued. Every other name, internal and unknown ones included, goes
   * through the Writer, which stores whatever the call changed (nothing,
   * for a call that fails).
   * @param {string} name
   * @returns {boolean}
   */
  _readOnly(name) {
    return this.operations[name]?.readOnly === true;
  }

  /**
   * call() and callText(): encode the request once, read its operation
   * from that text (requestOperation), and run it on the path it needs:
   * a context from wasm memory in columns, a read at once, anything else
   * through the Writer.
   * @param {object|string|Uint8Array|ArrayBuffer} request
   * @param {boolean} asText resolve to the envelope's text instead of the object
   * @param {boolean} [wire] for js/worker.js: resolve to what crosses to the
   *   page instead of the object — the envelope's text (with non-ASCII
   *   escaped unless asText) or, for a context, the columns of _contextWire
   * @returns {Promise<object|string|{columns: object}>}
   */
  _request(request, asText, wire = false) {
    return this._afterPrepared(() => this._requestNow(request, asText, wire));
  }

  /** _request made now, not after a method preparing its request (TreeAPI._prepared): that method's own. */
  _requestNow(request, asText, wire = false) {
    if (!this._pager) return this._requestOnce(request, asText, wire, null);
    const keepText = asText || wire;
    // Counted until answered: a call waiting for its session's load (100,000 nodes: a second) is not a quiet spell,
    // and the search index warmed meanwhile (_warmSearch) came between the load and the answer.
    this._calls++;
    const answered = () => ((this._calls -= 1), (this._lastCallAt = performance.now()));
    const p = Promise.resolve(this._retryPaged((fault) => this._requestOnce(request, asText, wire, fault), (env) => (keepText ? JSON.stringify(env) : env)));
    p.then(answered, answered);
    // A call made before close() that waits for its session's load is answered before the tree closes.
    return closeWaitsFor(this, p);
  }

  /** See retryPaged in js/local-paging.js. */
  _retryPaged(attempt, failed) {
    return retryPaged(this, attempt, failed);
  }

  /**
   * One try of _request: fault is where core's PAGED_OUT answer leaves
   * the sessions to load (null with no Pager) and the request's sessionId.
   */
  _requestOnce(request, asText, wire, fault) {
    const keepText = asText || wire;
    const answer = (env) => Promise.resolve(keepText ? JSON.stringify(env) : env);
    if (held(this, fault)) return Promise.resolve(null);
    let text;
    if (typeof request === "string") {
      text = escapeLoneSurrogates(request); // TextEncoder would make a lone surrogate U+FFFD without a word
    } else if (isBytes(request)) {
      if ((request.buffer ?? request).detached) return answer(errorEnvelope(ERROR.INVALID_ARGUMENT, `request ${DETACHED_BYTES}`));
      text = request instanceof ArrayBuffer ? new Uint8Array(request) : request; // the handle takes bytes as they are
    } else {
      const json = requestJSON(request);
      if (json.error !== undefined) return answer(errorEnvelope(ERROR.INVALID_ARGUMENT, json.error));
      text = json.text;
    }
    // Routed by the text that is sent (the object may have a toJSON, or
    // repeat "operation"): a read-only name is confirmed by parsing.
    const op = requestOperation(text, (name) => this._readOnly(name));
    this._lastCallAt = performance.now();
    if (fault) [fault.op, fault.sessionId] = [op, typeof text === "string" ? requestSession(text) : null];
    // Requests cross as UTF-8 bytes: the wasm copies them once, where a
    // string is copied twice (see argBytes in wasm/convert.go); measured, an
    // append costs the wasm call about half as much this way.
    if (typeof text === "string") text = utf8Encoder.encode(text);
    // An answer parsed here may come back with non-ASCII escaped (the
    // handle's second argument; see Store.CallParsed): the same value,
    // decoded from wasm memory several times faster. callText keeps the bytes.
    const parsed = !asText;
    if (parsed && op === "context" && (!this._writer || this._writer.idle)) {
      return Promise.resolve(wire ? this._contextWire(text, fault) : this._context(text, fault));
    }
    if (this._writer) {
      if (this._readOnly(op) && (this._writer.idle || this._writer.closedReason)) return this._finish(callPaged(this, text, parsed, fault), keepText);
      return this._writer.run(() => callPaged(this, text, parsed, fault), { readOnly: this._readOnly(op) }).then((t) => (keepText ? t : JSON.parse(t)));
    }
    return this._finish(this._handle.call(text, parsed), keepText);
  }

  /** See contextAnswer in js/local-context.js. */
  _context(request, fault = null) {
    return contextAnswer(this, request, fault);
  }

  /** See contextWire in js/local-context.js. */
  _contextWire(request, fault = null) {
    return contextWire(this, request, fault);
  }

  /**
   * Import an export file's text without re-encoding it into a request:
   * the same as call({operation: "import", data: text, format}).
   *
   * Large files are read in slices with a yield to the page between them: a slice is sized
   * to take about 50 ms and holds at most `sliceBytes` (default 1 MiB), so the page keeps
   * painting and `onProgress({read, total})` can drive a progress bar (`read` and `total`
   * count work in bytes: total is twice the text's UTF-8 size — reading it, then storing
   * the sessions; the last call has read === total). Slices are whole array elements or
   * JSON lines, so one huge conversation is still one slice. Nothing is stored until the
   * whole text is read and checked, so an import that fails changes nothing; then the
   * sessions are added and written to IndexedDB in one transaction, in pieces (onProgress
   * goes on meanwhile). An abort through `signal` before that transaction commits stores
   * nothing and leaves memory as it was. Files smaller than one slice, with no
   * onProgress, are imported in one call.
   *
   * Never rejects: a text that is not a non-empty string, a format that is not a non-empty
   * string, options that are not an object or a bad option (onProgress not a function,
   * signal not an AbortSignal, sliceBytes not a positive integer) is INVALID_ARGUMENT naming
   * it; on a tree that no longer writes (after close()) it is STORAGE_ERROR and nothing is
   * read. An onProgress that throws is logged and the import goes on.
   *
   * @param {string} text the file's contents
   * @param {string} [format] "auto" (default) or a format name
   * @param {{onProgress?: (p: {read: number, total: number}) => void, sliceBytes?: number, signal?: AbortSignal}} [options]
   * @returns {Promise<object>} the envelope; value {format, sessions, skipped, warnings}
   */
  importText(text, format = "auto", options = {}) {
    return begun(this, () => importText(this, text, format, options));
  }

  /** See importBytes in js/local-import.js. */
  _importBytes(data, format, options) {
    return importBytes(this, data, format, options);
  }

  /** See importFileList in js/folder-import.js. */
  _importFiles(files, dir, options) {
    return importFileList(this, files, dir, options);
  }

  /** See importZipFile in js/zip-import.js (loaded with import() the first time a ZIP is imported). */
  async _importZip(file, options) {
    return (await import("./zip-import.js")).importZipFile(this, file, options);
  }

  /** See importSnapshot in js/local-import.js. */
  _importSnapshot(data, room, signal) {
    return importSnapshot(this, data, room, signal);
  }

  /** See hasSession in js/local-import.js. */
  _hasSession(id) {
    return hasSession(this, id);
  }

  /** See importJob in js/local-import.js. */
  _importJob(buffer, format, onProgress, signal, sliceBytes) {
    return importJob(this, buffer, format, onProgress, signal, sliceBytes);
  }

  /**
   * Keep the session's current snapshot as a named restore point (in
   * IndexedDB, or in memory with persist: false). The name defaults to the
   * current time; an existing name is replaced. Never rejects: a
   * sessionId or name that is not a non-empty string is INVALID_ARGUMENT
   * naming it; a tree that no longer writes (after close()) or a failed
   * IndexedDB write (quota) is STORAGE_ERROR with the browser's reason.
   * @param {string} sessionId
   * @param {string} [name]
   * @returns {Promise<object>} envelope; value {name, createdAt, nodeCount}
   */
  saveSnapshot(sessionId, name) {
    return saveSnapshot(this, sessionId, name);
  }

  /**
   * List a session's restore points, oldest first (none for a session
   * that has none, or that does not exist). Never rejects: a sessionId
   * that is not a non-empty string is INVALID_ARGUMENT; a tree that no
   * longer writes (after close(): the restore points are not in memory)
   * or a failed IndexedDB read is STORAGE_ERROR with the browser's reason.
   * @param {string} sessionId
   * @returns {Promise<object>} envelope; value [{name, createdAt, nodeCount}]
   */
  listSnapshots(sessionId) {
    return listRestorePoints(this, sessionId);
  }

  /**
   * Bring a restore point back through snapshot.load. Never rejects: a
   * sessionId or name that is not a non-empty string is INVALID_ARGUMENT
   * naming it; a tree that no longer writes (after close()) or a failed
   * IndexedDB read or write is STORAGE_ERROR with the browser's reason.
   * Calls made meanwhile wait for it (TreeAPI._prepared).
   * @param {string} sessionId @param {string} name
   * @returns {Promise<object>} envelope of snapshot.load; NOT_FOUND for an unknown name
   */
  restoreSnapshot(sessionId, name) {
    return this._prepared(() => restoreSnapshot(this, sessionId, name));
  }

  /** Take in now what other tabs stored (it happens by itself on their BroadcastChannel message; this is for callers that cannot wait). @returns {Promise<void>} */
  refresh() {
    return this._writer ? this._writer.pull() : Promise.resolve();
  }

  /** Wait until every write started so far is committed (a restore point or file being read, TreeAPI._prepared, too). @returns {Promise<void>} */
  flush() {
    return this._afterPrepared(() => (this._writer ? this._writer.flush() : Promise.resolve()));
  }

  /**
   * Let go of this init()'s hold (TreeAPI._release); with the last, close the IndexedDB
   * connection. Later calls that would change something, and the restore point helpers,
   * resolve to a STORAGE_ERROR envelope ("the tree was closed"); reads keep answering from
   * memory. With persist: false there is no connection and every call keeps answering.
   * Never throws, also when called again.
   */
  close() {
    if (!this._release()) return;
    if (this._dbName !== null && shared.get(this._dbName)) shared.delete(this._dbName);
    // The calls made before close() are stored first, an import's later
    // steps too (closeAfterBegun); later ones answer STORAGE_ERROR.
    closeAfterBegun(this, () => {
      this._closed = true;
      const db = this._db, drained = this._writer?.close("the tree was closed", true);
      if (this._writer?.closedReason !== null) db?.close(); else drained.then(() => db.close(), () => db.close());
    });
  }

  /** The connection was closed under us (versionchange, browser). */
  _storageClosed(reason, message) {
    if (this._writer?.closedReason) return;
    this._writer?.close(message);
    if (this._dbName !== null && shared.get(this._dbName)) shared.delete(this._dbName);
    this._emit({ type: "storage", state: "closed", reason, message });
  }

  /**
   * The Go program exited: nothing more runs in it. The Writer stops
   * (later changes answer STORAGE_ERROR), the tree is no longer shared (a
   * new init() starts a new program), subscribers hear of it.
   * @param {string} reason the runtime's exited reason
   */
  _exited(reason) {
    const message = exitedMessage(reason);
    this._closed = true;
    this._writer?.close(message.replace(/^storage error: /, ""));
    this._db?.close();
    if (this._dbName !== null && shared.get(this._dbName)) shared.delete(this._dbName);
    this._emit({ type: "storage", state: "closed", reason: "exited", message });
  }

  /**
   * Run a core call that may change something: through the Writer (in a
   * transaction, after taking in other tabs' changes) when persisting,
   * directly otherwise. Resolves to the envelope object.
   * @param {() => string} fn the core call, returning envelope text
   * @param {{signal?: AbortSignal, aborted?: string, onStored?: (text: string, nodes: number) => void}} [options]
   *   for a call with large changes: followed and stopped while they are stored (see Writer.run; ignored without a Writer)
   */
  _mutate(fn, options) {
    if (this._writer) return this._writer.run(fn, options).then((t) => JSON.parse(t));
    return this._finish(fn());
  }

  /** See mutatePaged in js/local-paging.js. */
  _mutatePaged(fn, options) {
    return mutatePaged(this, fn, options);
  }

  async _finish(envText, asText = false) {
    // Only the head decides whether anything changed; parse the whole
    // envelope only for callers that want the object. With a Writer the
    // only calls that come here are reads (they record no change).
    const failed = envelopeFailed(envText);
    const env = asText ? null : JSON.parse(envText);
    if (failed) return asText ? envText : env;
    // In pieces, as the Writer drains (a large import is never one string
    // beside its sessions); the blocks give the events what changed.
    const log = new ChangeLog();
    for (let bytes; (bytes = this._handle.drainBytes(EVENT_DRAIN_BYTES)).length > 0; ) for (const b of parseChangeBytes(bytes)) log.add(b);
    for (const e of log.events) this._emit(e);
    return asText ? envText : env;
  }

  /**
   * Build the search index in the background as sessions load, restore or
   * import: slices of WARM_NODES nodes (about 5 ms of wasm each) while the
   * idle period lasts, then again at the next idle period until the core
   * reports the index complete. Started at init and after every change,
   * and put off while calls keep coming (less than WARM_QUIET_MS apart) or
   * one waits for its answer (its session loading: see _requestNow).
   * A search before it is done is answered exactly all the same (the core
   * indexes a few thousand nodes and scans the rest). In a worker (no
   * requestIdleCallback, and no page to keep painting) the slices run back
   * to back for up to WORKER_WARM_MS at a time, each in a task of its own
   * (nextTask) so calls are answered in between.
   */
  _warmSearch() {
    if (this._warmTask !== null || this._closed) return;
    const idle = globalThis.requestIdleCallback
      ? (fn) => globalThis.requestIdleCallback(fn, { timeout: 2000 })
      : IN_WORKER
        ? (fn) => nextTask().then(() => { const end = performance.now() + WORKER_WARM_MS; fn({ didTimeout: false, timeRemaining: () => end - performance.now() + 8 }); })
        : (fn) => setTimeout(() => fn(null), 50);
    const step = (deadline) => {
      this._warmTask = null;
      if (this._closed) return;
      // A transaction running (a large import stored in pieces, waiting
      // on the backend between them) is not quiet either.
      const quiet = (this._writer && !this._writer.idle) || this._calls > 0 ? 0 : performance.now() - this._lastCallAt;
      if (quiet < WARM_QUIET_MS) {
        this._warmTask = setTimeout(() => (this._warmTask = idle(step)), WARM_QUIET_MS - quiet);
        return;
      }
      this._handle.settle(); // the collection create() held (pageStub's hold) runs now, while quiet
      const t0 = performance.now();
      let done = this._handle.warm(WARM_NODES);
      while (!done && deadline !== null && !deadline.didTimeout && deadline.timeRemaining() > 8) done = this._handle.warm(WARM_NODES);
      this._warmMs += performance.now() - t0;
      if (!done) this._warmTask = idle(step);
      else keepSearchSoon(this);
    };
    this._warmTask = idle(step);
  }

  _emit(event) {
    // A change this tab made is to a session core holds whole.
    if (this._pager && event.sessionId !== undefined && !event.remote) this._pager.changed(event.sessionId);
    this._warmSearch();
    super._emit(event);
  }

  /** For storage(): whether this tree still writes. @returns {Promise<{state: "open"|"closed"|"memory", reason: string|null}>} */
  async _storageState() {
    return { state: !this._writer ? "memory" : this._writer.refusing ? "closed" : "open", reason: this._writer?.refusing ?? null };
  }

  /**
   * Internal counters for tests and benchmarks, the same in both threads
   * (WorkerTree asks the worker): the Writer's stats (null without one),
   * context answers given in columns, the search index's bytes kept and
   * not written (writeKeptIndex), whether the search index is complete
   * and the milliseconds its build took so far (in slices, not counting
   * the time between them), the wasm's operation table (its JSON text),
   * the size of the wasm memory in bytes, its size when the last sliced
   * import (importText, importFile) was stored or failed (the import's
   * peak, before the search index is built for it; 0 before one), and the
   * Go runtime's memory in use and this store's budget in bytes (memory: the handle's
   * memory(); after the Go program exited, its STORAGE_ERROR envelope
   * instead).
   * @returns {Promise<{writer: object|null, columnAnswers: number, keptSaves: number, keptRefused: number, indexComplete: boolean, indexMs: number, operations: string, wasmBytes: number, importWasmBytes: number, memory: {inUse: number, budget: number}}>}
   */
  async _debug() {
    const pager = this._pager ? { ...this._pager.stats, paged: this._pager.paged.size, inMemory: this._pager.lru.size, bytes: this._pager.bytes, budget: this._pager.budget } : null;
    return { writer: this._writer ? { ...this._writer.stats } : null, pager, readCounts: { ...readCounts }, columnAnswers: this._columnAnswers, firstContexts: this._firstContexts, keptSaves: this._keptSaves, keptRefused: this._keptRefused, keptRead: this._keptRead, indexComplete: this._handle.warm(0), indexMs: this._warmMs, operations: this._handle.operations(), wasmBytes: this._memory.buffer.byteLength, importWasmBytes: this._importWasmBytes, memory: JSON.parse(this._handle.memory()) };
  }
}
