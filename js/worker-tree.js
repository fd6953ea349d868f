//# allFunctionsCalledOnLoad
// The page side of a store that runs in the page's module Worker: a
// WorkerTree has the Promise API of js/tree-api.js, and each of its
// methods is a message to the worker (through the Connection of
// js/sessiontree.js) and its answer; contexts answered in columns are
// built here (js/context-columns.js).

import { TreeAPI, checkImportArgs, checkName, checkString, errorEnvelope, unansweredEnvelope } from "./tree-api.js";
import { nextTask } from "./tasks.js";
import { SLICE_BYTES, SLICE_MESSAGES, TextCaches, contextEnvelope, contextEnvelopeSliced, decodeContent } from "./context-columns.js";
import { ERROR } from "./protocol.js";
import { DETACHED_BYTES, copyBytes, isBytes, requestJSON } from "./request-text.js";
import { closeAfterBegun } from "./call-order.js";
import { headAnswer, sessionsQuery, wholeAnswer } from "./early-list.js";

/** Trees shared per IndexedDB database name within this page (worker mode; local.js keeps its own): init() in js/sessiontree.js fills it, a tree whose storage closed leaves it. */
export const shared = new Map();

/**
 * The latest init() of this page: `tree` is null until one is made, then a
 * Promise of its tree (null when it failed). A <session-tree-panel> given
 * no tree shows that tree while it is open (static/session-tree-panel.js
 * _autoInit), not a default store of its own.
 */
export const latestInit = { tree: null };

/** Databases whose tree was closed while it waited for its worker: a Promise settled once the close was posted (init() in js/sessiontree.js waits for it). */
export const closing = new Map();

/**
 * Blobs up to this many bytes (64 MiB) importFile reads in the page and
 * transfers to the worker as bytes; larger ones cross as Blobs, read in
 * the worker in chunks, so the page never holds them.
 */
const PAGE_READ_BYTES = 64 << 20;

/**
 * What a request crosses to the worker as: bytes the caller passed as a
 * copy (transferred, so theirs stay usable), a JSON text as that string
 * (an object is JSON.stringify'd here, where it lives), or an error
 * envelope for an object JSON cannot encode. A string is not transcoded
 * here: the worker encodes it to the UTF-8 the wasm takes. Measured in
 * Chromium on this machine, a 16 MB string crosses in ~10 ms of the page's
 * thread where TextEncoder alone takes ~50 ms (and ~94 ms for a 25 MB
 * snapshot.load request).
 * @param {object|string|Uint8Array|ArrayBuffer} request
 * @returns {string|Uint8Array|{ok: false, error: object}}
 */
function requestPayload(request) {
  if (typeof request === "string") return request;
  if (isBytes(request)) return copyBytes(request) ?? errorEnvelope(ERROR.INVALID_ARGUMENT, `request ${DETACHED_BYTES}`);
  const json = requestJSON(request);
  return json.error === undefined ? json.text : errorEnvelope(ERROR.INVALID_ARGUMENT, json.error);
}

/**
 * One session store — every session of one IndexedDB database (or of
 * memory, with persist: false) — whose store runs in the page's worker.
 * Obtain it from init(). Every method is the same as LocalTree's
 * (js/local.js) and documented in sessiontree.d.ts; each is a message to
 * the worker and its answer. None rejects: arguments are checked here
 * as LocalTree checks them (so nothing that cannot be cloned is posted),
 * and a request the worker does not answer (it failed) resolves to a
 * STORAGE_ERROR envelope (see unansweredEnvelope).
 */
export class WorkerTree extends TreeAPI {
  /**
   * @param {Connection} connection @param {number} id the worker's tree id
   * @param {object[]} infos the wasm's operations @param {boolean} persistent
   * @param {string|null} dbName the shared database name (null: not shared)
   * @param {object} options what init sent the worker (sent again after a restart)
   */
  constructor(connection, id, infos, persistent, dbName, options) {
    super(infos, persistent);
    this._connection = connection;
    this._id = id;
    this._dbName = dbName;
    this._options = options;
    /** Set by close(): after a restart the tree is closed again. */
    this._closedByCaller = false;
    /** Decoded text caches of contexts answered in columns (see js/context-columns.js). */
    this._texts = new TextCaches();
    /** Settles when the columns answers received so far are built (see _request). */
    this._contexts = Promise.resolve();
    /**
     * The value of `sessions` (its summaries: objects of strings, numbers
     * and null only) while the worker starts the wasm after answering init
     * early (js/worker.js methods.init), else null: a `sessions` call made
     * while no other call of this tree is in flight is answered from a
     * fresh copy of it (js/early-list.js wholeAnswer; a JSON text parsed at
     * each call took 15 ms at 10,000 sessions, and as long again to make).
     */
    this._early = null;
    /**
     * Before that list is read (init answered from the head: Connection.init),
     * the newest sessions {items, complete} (store/listing.js readHead), which
     * answer a page newest first (js/early-list.js headAnswer), and a
     * Promise of the list (never rejecting); null once the tree has started.
     */
    this._head = null;
    this._whole = null;
    /**
     * While the tree waits for its worker's tree to start (it was answered
     * from the page's own list: Connection.init), a Promise that settles
     * then, else null; _waiting counts the calls held on it (see _route).
     */
    this._gate = null;
    this._waiting = 0;
    /** The LocalTree that answers instead once the store fell back to the page's thread (_fallBack), else null. */
    this._local = null;
    /** Why the worker's tree did not start, once it did not (then every call answers STORAGE_ERROR with it). */
    this._failed = null;
  }

  _send(op, args, transfer, progress) {
    if (this._failed) return { id: 0, promise: Promise.reject(this._failed) };
    return this._connection.send(op, this, args, transfer, progress);
  }

  /**
   * Hold the calls that need the worker until started settles: the
   * worker's tree got its id (Connection._adopt), or the store fell back to
   * the page's thread (_fallBack), or it failed (_failed). Held calls run
   * in the order they were made.
   * @param {Promise<unknown>} started
   */
  _hold(started) {
    const gate = started.then(() => {}, () => {});
    this._gate = gate;
    gate.then(() => {
      if (this._gate === gate && this._waiting === 0) this._gate = null;
    });
  }

  /**
   * Run own (the method `name` of this class) with args now, or once the
   * gate opens if the tree is held (a `sessions` call with no other call
   * held is answered from the page's list at once), or the LocalTree's
   * method of the same name after a fall back.
   * @param {Function} own @param {string} name @param {any[]} args
   */
  _route(own, name, args) {
    // A method reads what its request needs (loadSnapshot of a file): calls made meanwhile go after it.
    // Not _route again: a method that began preparing after this call was made must come after it.
    if (this._preparing !== null) return this._preparing.then(() => this._routeNow(own, name, args));
    return this._routeNow(own, name, args);
  }

  /** _route, not waiting for a method preparing its request (TreeAPI._prepared): that method's own request. */
  _routeNow(own, name, args) {
    if (this._local !== null) return this._local[name](...args);
    if (this._gate === null) return own.apply(this, args);
    // A `sessions` call with no other call held: answered from the page's
    // list when it can be (_earlyAnswer), else held as any other call.
    const query = name === "call" && this._head !== null && !this._connection.busy(this) ? sessionsQuery(args[0]) : null;
    this._waiting++;
    const gate = this._gate;
    const held = () =>
      gate.then(() => {
        if (--this._waiting === 0 && this._gate === gate) this._gate = null;
        return this._local !== null ? this._local[name](...args) : own.apply(this, args);
      });
    if (query === null) return held();
    return this._earlyAnswer(query).then((env) => (env === null ? held() : (this._waiting--, env)));
  }

  /**
   * Hold the page's list until the tree has started (see _head): the head
   * read first, and the whole list once read.
   * @param {{items: object[], complete: boolean}} head @param {Promise<object[]|null>} whole
   */
  _listed(head, whole) {
    this._head = head;
    this._whole = whole;
    whole.then((list) => {
      if (this._head !== null && list !== null) this._early ??= list;
    });
  }

  /** The tree has started (or will answer from elsewhere): `sessions` goes to it from now on. */
  _endEarly() {
    this._early = this._head = this._whole = null;
  }

  /**
   * The envelope of `sessions` query q (js/early-list.js sessionsQuery)
   * from the page's list: the whole list when read, else the head when it
   * tells, else the whole list once read; null when neither answers (the
   * tree started meanwhile, or the list could not be read), and then the
   * store answers.
   * @param {{updated: boolean, limit: number, before: object|null}} q
   * @returns {Promise<{ok: true, value: object[]}|null>}
   */
  async _earlyAnswer(q) {
    const now = this._early !== null ? wholeAnswer(this._early, q) : this._head !== null ? headAnswer(this._head, q) : null;
    if (now !== null || this._whole === null) return now === null ? null : { ok: true, value: now };
    await this._whole;
    return this._early !== null ? { ok: true, value: wholeAnswer(this._early, q) } : null;
  }

  /**
   * The store runs in the page's thread after all (the worker could not
   * start: Connection._unstarted): local answers every call from now on,
   * and its events reach this tree's subscribers.
   * @param {import("./local.js").LocalTree} local
   */
  _fallBack(local) {
    this._local = local;
    this._endEarly();
    local.subscribe((event) => this._emit(event));
  }

  /**
   * A new worker took over (Connection._restart): the tree's id there, and
   * fresh text caches (the old worker's cache ids mean nothing to the new
   * one).
   * @param {number} id
   */
  _restarted(id) {
    this._id = id;
    this._endEarly();
    this._texts = new TextCaches();
    this._contexts = Promise.resolve();
  }

  /**
   * Send a request whose answer is an envelope; resolves to a
   * STORAGE_ERROR envelope instead of rejecting when the worker fails.
   * @returns {Promise<object>}
   */
  _sendEnvelope(op, args) {
    return this._send(op, args).promise.catch(unansweredEnvelope);
  }

  /**
   * Answer one request of the tool API; see LocalTree.call. The request
   * crosses as its JSON text, or as a copy of the bytes given
   * (transferred); see requestPayload. The answer crosses as its envelope
   * text (non-ASCII escaped, parsed here: a string crosses faster than
   * UTF-8 bytes decoded here, see js/worker.js) or, for a context, as
   * columns: the new bytes of the session's text cache and the rows,
   * decoded and sliced here (see js/context-columns.js).
   * @param {object|string|Uint8Array|ArrayBuffer} request
   * @returns {Promise<{ok: true, value: any} | {ok: false, error: {code: string, message: string}}>}
   */
  call(request) {
    return this._request(request, false);
  }

  /**
   * Like call(), but resolves to the envelope's exact JSON text; see
   * LocalTree.callText.
   * @param {object|string|Uint8Array|ArrayBuffer} request
   * @returns {Promise<string>} the envelope as JSON text
   */
  callText(request) {
    return this._request(request, true);
  }

  async _request(request, asText) {
    const payload = requestPayload(request);
    if (typeof payload === "object" && !(payload instanceof Uint8Array)) return asText ? JSON.stringify(payload) : payload;
    // callText waits: its bytes are core's, and Go escapes text unlike JSON.stringify.
    if ((this._early !== null || this._head !== null) && !asText && !this._connection.busy(this)) {
      const query = sessionsQuery(payload);
      const env = query === null ? null : await this._earlyAnswer(query);
      if (env !== null) return env;
    }
    let answer;
    try {
      answer = await this._send("call", [payload, asText], payload instanceof Uint8Array ? [payload.buffer] : []).promise;
    } catch (err) {
      const env = unansweredEnvelope(err);
      return asText ? JSON.stringify(env) : env;
    }
    if (typeof answer === "string") return asText ? answer : JSON.parse(answer);
    if (answer.envelope) return answer.envelope; // a long list, read in the worker (js/answer-parts.js)
    // Columns answers are built in the order they arrived: each extends
    // the text caches as the worker's CachePlan expects.
    const built = this._contexts.then(() => this._buildContext(answer));
    this._contexts = built.catch(() => {});
    return built;
  }

  /**
   * The envelope of a context the worker answered in columns. A large one
   * (more than SLICE_MESSAGES messages or SLICE_BYTES of new text) is
   * built in slices with a task between them, so the page's thread is
   * never held for long: at a 100,000-deep path, 10 slices of messages
   * made anew, or one slice when the messages are the last answer's
   * (a chat turn; see contextEnvelope).
   */
  _buildContext({ head, from, ascii, wide, rows }) {
    const c = JSON.parse(head).columns;
    const whole = (a, w) => this._texts.extend(c.cache, from, a, w);
    if (c.count - c.prefix <= SLICE_MESSAGES && ascii.length + wide.length <= SLICE_BYTES) {
      return contextEnvelope(c, whole(decodeContent(ascii), decodeContent(wide)), rows);
    }
    return contextEnvelopeSliced(c, whole, ascii, wide, rows, nextTask);
  }

  /**
   * Import an export file's text; see LocalTree.importText. The text is
   * copied to the worker once (as a string); the slicing, onProgress and
   * the signal work as there, the import itself running in the worker.
   * @param {string} text
   * @param {string} [format]
   * @param {{onProgress?: (p: {read: number, total: number}) => void, sliceBytes?: number, signal?: AbortSignal}} [options]
   * @returns {Promise<object>} the envelope; value {format, sessions, skipped, warnings}
   */
  async importText(text, format = "auto", options = {}) {
    const bad = checkImportArgs(text, format, options);
    if (bad) return bad;
    options = options ?? {};
    const { onProgress, signal } = options;
    const flags = { progress: typeof onProgress === "function", signal: !!signal, sliceBytes: options.sliceBytes };
    return this._sendImport("importText", [text, format, flags], [], onProgress, signal);
  }

  /**
   * importFile's import (TreeAPI.importFile checked the arguments): a
   * Blob of up to PAGE_READ_BYTES is read here and its bytes transferred,
   * a larger one crosses to the worker as a Blob (read there in chunks),
   * bytes as their transferred buffer; the import runs there as
   * LocalTree._importBytes, onProgress and the signal as in importText.
   * @param {Blob|Uint8Array} data bytes no one else holds
   * @param {string} format
   * @param {{onProgress?: Function, signal?: AbortSignal, sliceBytes?: number}} options
   * @returns {Promise<object>} the envelope
   */
  async _importBytes(data, format, { onProgress, signal, sliceBytes }) {
    const flags = { progress: typeof onProgress === "function", signal: !!signal, sliceBytes };
    if (data instanceof Blob && data.size <= PAGE_READ_BYTES) {
      // Read here (an asynchronous read: the page's thread is not held)
      // and transferred: a worker's read of a Blob the page made crosses
      // the browser's blob store, which made importFile of a 25 MB
      // snapshot ~3× the bytes read here and call()ed (bench/perf.mjs).
      try {
        data = new Uint8Array(await data.arrayBuffer());
      } catch {
        // left as a Blob: the worker reads it and says why it cannot
      }
    }
    const transfer = data instanceof Uint8Array ? [data.buffer] : [];
    return this._sendImport("importBytes", [data, format, flags], transfer, onProgress, signal);
  }

  /**
   * importFiles' import (TreeAPI.importFiles gathered the files): each
   * File is read here and its bytes transferred with the rest (a
   * directory handle crosses as it is and is walked in the worker); the
   * import runs there as LocalTree._importFiles.
   * @param {import("./folder-entries.js").FolderFile[]} files
   * @param {FileSystemDirectoryHandle|null} dir
   * @param {{onProgress?: Function, signal?: AbortSignal}} options
   * @returns {Promise<object>} the envelope
   */
  async _importFiles(files, dir, { onProgress, signal }) {
    const sent = [];
    try {
      for (const f of files) sent.push({ path: f.path, data: f.data instanceof Uint8Array ? f.data : new Uint8Array(await f.data.arrayBuffer()) });
    } catch (err) {
      return errorEnvelope("INVALID_ARGUMENT", `a file could not be read: ${err?.message ?? err}`);
    }
    const flags = { progress: typeof onProgress === "function", signal: !!signal };
    return this._sendImport("importFiles", [sent, dir, flags], sent.map((f) => f.data.buffer), onProgress, signal);
  }

  /**
   * importZip's import (TreeAPI.importZip checked the arguments): the ZIP
   * crosses to the worker as the Blob it is (a structured clone of a Blob
   * is a reference to the browser's copy, not its bytes) and is read,
   * inflated and imported there (LocalTree._importZip): no entry of it is
   * read in the page's thread. onProgress and the signal as in importText.
   * @param {Blob} file
   * @param {{name: string, budget?: number, hold?: boolean, onProgress?: Function, signal?: AbortSignal}} options
   * @returns {Promise<object>} the envelope
   */
  _importZip(file, { name, budget, hold, onProgress, signal }) {
    const flags = { progress: typeof onProgress === "function", signal: !!signal };
    return this._sendImport("importZip", [file, { name, budget, hold }, flags], [], onProgress, signal);
  }

  /**
   * Send an import (importText, importBytes, importFiles or importZip) to the worker, with
   * onProgress for its progress messages and an abort message when signal
   * aborts; resolves to its envelope (STORAGE_ERROR when the worker does
   * not answer).
   * @returns {Promise<object>}
   */
  _sendImport(op, args, transfer, onProgress, signal) {
    const { id, promise } = this._send(op, args, transfer, onProgress);
    if (signal) {
      const abort = () => this._connection.send("abort", undefined, [id]).promise.catch(() => {});
      if (signal.aborted) abort();
      else signal.addEventListener("abort", abort, { once: true });
      promise.finally(() => signal.removeEventListener("abort", abort)).catch(() => {});
    }
    return promise.catch(unansweredEnvelope);
  }

  /**
   * Answer a request given as bytes no one else holds (TreeAPI.loadSnapshot's
   * spliced request): their buffer is transferred, not copied as call()
   * copies the caller's bytes.
   * @param {Uint8Array} bytes a view of a whole ArrayBuffer
   * @returns {Promise<object>} the envelope
   */
  async _callOwned(bytes) {
    try {
      return JSON.parse(await this._send("call", [bytes, false], [bytes.buffer]).promise); // a snapshot.load: never columns
    } catch (err) {
      return unansweredEnvelope(err);
    }
  }

  /**
   * Keep a restore point; see LocalTree.saveSnapshot (the snapshot never
   * leaves the worker). Never rejects.
   * @param {string} sessionId @param {string} [name]
   * @returns {Promise<object>} envelope; value {name, createdAt, nodeCount}
   */
  async saveSnapshot(sessionId, name) {
    const bad = checkString("saveSnapshot", "sessionId", sessionId) ?? (name === undefined ? null : checkName("saveSnapshot", "name", name));
    return bad ?? this._sendEnvelope("saveSnapshot", [sessionId, name]);
  }

  /**
   * List a session's restore points; see LocalTree.listSnapshots. Never rejects.
   * @param {string} sessionId
   * @returns {Promise<object>} envelope; value [{name, createdAt, nodeCount}]
   */
  async listSnapshots(sessionId) {
    return checkString("listSnapshots", "sessionId", sessionId) ?? this._sendEnvelope("listSnapshots", [sessionId]);
  }

  /**
   * Bring a restore point back; see LocalTree.restoreSnapshot. Never rejects.
   * @param {string} sessionId @param {string} name
   * @returns {Promise<object>} envelope of snapshot.load; NOT_FOUND for an unknown name
   */
  async restoreSnapshot(sessionId, name) {
    const bad = checkString("restoreSnapshot", "sessionId", sessionId) ?? checkString("restoreSnapshot", "name", name);
    return bad ?? this._sendEnvelope("restoreSnapshot", [sessionId, name]);
  }

  /**
   * Take in now what other tabs stored; see LocalTree.refresh. Never
   * rejects: with a failed worker there is nothing to take in.
   * @returns {Promise<void>}
   */
  async refresh() {
    await this._send("refresh", []).promise.catch(() => {});
  }

  /**
   * Wait until every write started so far is committed. Never rejects:
   * with a failed worker nothing is being written (the calls in flight
   * answered STORAGE_ERROR).
   * @returns {Promise<void>}
   */
  async flush() {
    await this._send("flush", []).promise.catch(() => {});
  }

  /**
   * Let go of this init()'s hold (TreeAPI._release); with the last, close
   * the IndexedDB connection (in the worker); see LocalTree.close.
   * Later calls that would change something, and the restore point
   * helpers, resolve to a STORAGE_ERROR envelope; reads keep answering
   * from memory. Never throws.
   */
  close() {
    if (!this._release()) return;
    this._closedByCaller = true;
    this._unshare();
    const close = () => {
      if (this._local !== null) this._local.close();
      else this._send("close", []).promise.catch(() => {});
    };
    // Posted after the calls made before it (a snapshot file read here,
    // an import's file: closeAfterBegun) and once the worker's tree has
    // its id; a new init() of the database waits until then, so the
    // worker starts a new tree for it.
    const posted = closeAfterBegun(this, () => (this._gate === null ? close() : this._gate.then(close)));
    if (this._dbName !== null) closing.set(this._dbName, posted);
  }

  /** For storage(): the worker's answer, or "closed" with the error when it does not answer. */
  _storageState() {
    return this._send("storageState", []).promise.catch((err) => ({ state: "closed", reason: unansweredEnvelope(err).error.message }));
  }

  /** Internal counters of the worker's tree; see LocalTree._debug. */
  _debug() {
    return this._send("debug", []).promise;
  }

  _unshare() {
    this._endEarly(); // a tree that failed to start answers `sessions` from the worker too (STORAGE_ERROR)
    if (this._dbName !== null && shared.get(this._dbName)) shared.delete(this._dbName);
  }

  /** A subscriber event from the worker. */
  _event(event) {
    if (event.type === "storage") this._unshare();
    this._emit(event);
  }

  /** The worker died: tell subscribers as a closed storage. */
  _storageClosed(reason, message) {
    this._unshare();
    this._emit({ type: "storage", state: "closed", reason, message });
  }
}

/**
 * The methods that reach the worker, held while the tree starts and
 * answered by the LocalTree's method of the same name after a fall back
 * (WorkerTree._route); close() does the same itself.
 */
for (const name of ["call", "callText", "importText", "_importBytes", "_importFiles", "_importZip", "_callOwned", "saveSnapshot", "listSnapshots", "restoreSnapshot", "refresh", "flush", "_storageState", "_debug"]) {
  const own = WorkerTree.prototype[name];
  Object.defineProperty(WorkerTree.prototype, name, {
    value: function (...args) {
      return this._route(own, name, args);
    },
    writable: true,
    configurable: true,
  });
  // TreeAPI._callNow and _callOwnedNow: a preparing method's own request, made now.
  if (name === "call" || name === "_callOwned") {
    Object.defineProperty(WorkerTree.prototype, name === "call" ? "_callNow" : "_callOwnedNow", {
      value: function (...args) {
        return this._routeNow(own, name, args);
      },
      writable: true,
      configurable: true,
    });
  }
}
