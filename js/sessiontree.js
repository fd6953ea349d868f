// sessiontree — the ES-module shim around the WebAssembly core.
//
// It gives every operation of the core a Promise API, keeps sessions in
// IndexedDB and restores them on the next init(). The store — the Go
// runtime, the wasm, the IndexedDB writer — runs in one module Worker per
// page (js/worker.js), so no call ever blocks the page: this module is a
// thin RPC over postMessage. With init({worker: false}), or where there is
// no Worker, the same store runs in the page's own thread (js/local.js).
// No bundler, no runtime dependency.
//
//   import { init } from "/js/sessiontree.js";
//   const tree = await init();
//   await tree.call({ operation: "create", sessionId: "demo" });
//
// The contract is SPEC.md; every call resolves to an envelope
// {ok: true, value} or {ok: false, error: {code, message}}.
//
// What an embedder serves, next to this module unless init's options say
// otherwise: worker.js (workerURL), sessiontree.wasm (wasmURL; served as
// application/wasm for streaming compilation) and wasm_exec.js (next to the
// wasm), and the modules they import: local.js, tree-api.js,
// context-columns.js, request-text.js, store.js and store/*.js.

import { DB_DEFAULT_NAME } from "./store/schema.js";
import { STORAGE_ERROR } from "./store/writer.js";
import { TreeAPI, checkImportArgs, checkMemoryBudget, checkString, errorEnvelope, restartError, unansweredEnvelope } from "./tree-api.js";
import { SLICE_BYTES, SLICE_MESSAGES, TextCaches, contextEnvelope, contextEnvelopeSliced, decodeContent } from "./context-columns.js";

export { STORAGE_ERROR };

/**
 * The class every tree init() resolves to extends (in either thread), for
 * `instanceof`; its API is the SessionTree interface of sessiontree.d.ts.
 */
export { TreeAPI as SessionTree };

/**
 * Blobs up to this many bytes (64 MiB) importFile reads in the page and
 * transfers to the worker as bytes; larger ones cross as Blobs, read in
 * the worker in chunks, so the page never holds them.
 */
const PAGE_READ_BYTES = 64 << 20;

/** Trees shared per IndexedDB database name within this page (worker mode; local.js keeps its own). */
const shared = new Map();

/** The page's store worker per worker URL (one per page in practice). */
const workers = new Map();

/**
 * Start sessiontree.
 *
 * With no options it starts the store in a module Worker (js/worker.js
 * next to this module, or the worker an earlier init() of this page
 * started: one per page), loads `sessiontree.wasm` from this module's
 * folder there, and persists to the IndexedDB database "sessiontree",
 * restoring every session stored there before it resolves. If that
 * default worker cannot start at all, it warns on the console and runs the
 * store in the page's thread. Calling init() again in
 * the same page with the same dbName resolves to the same shared tree;
 * another dbName, or `persist: false`, gives an independent one.
 *
 * Rejects (never resolves to an empty store) when the worker or the wasm
 * cannot be loaded, IndexedDB cannot be opened or read, or a stored
 * session is corrupt; nothing stored is written in that case. Rejects too
 * for a memoryBudget that is not a positive integer up to 2^32.
 *
 * The memory budget: a call that may change the store (snapshot.load,
 * import, importText/importFile, restoreSnapshot, append, clone, …) whose
 * estimated memory (its bytes × 3, an import's × 8, measured in
 * core/memory_test.go) on top of what the Go runtime holds would pass
 * `memoryBudget` bytes (default 2 GiB, half of wasm32's 4 GiB: the other
 * half is the collector's room, and wasm memory never shrinks) answers
 * INVALID_ARGUMENT naming its size and the limit, and changes nothing;
 * read-only calls are always answered, so a full store still reads. The
 * budget is this tree's; the memory counted is the whole Go runtime's,
 * which every tree of the page's worker (or thread) shares. A second
 * init() of a shared tree keeps the first one's budget.
 *
 * If the Go runtime still ends (fatal error: out of memory), the page
 * notices: every call in flight answers STORAGE_ERROR "the store
 * restarted; nothing acknowledged was lost", a new worker starts (the old
 * one's memory is given back) and restores every tree from IndexedDB as
 * init() does, and subscribers get `{type: "restarted", reason, ms}`; calls
 * made meanwhile wait for it. A tree with `persist: false` comes back
 * empty (its calls in flight say so). With the store in the page's thread
 * there is no restart: every later call answers STORAGE_ERROR, subscribers
 * get `{type: "storage", state: "closed", reason: "exited"}`, and init()
 * again starts a new Go program.
 *
 * @param {{wasmURL?: string|URL, workerURL?: string|URL, worker?: boolean, dbName?: string, persist?: boolean, memoryBudget?: number}} [options]
 *   wasmURL: the wasm (wasm_exec.js is loaded from its folder); workerURL:
 *   the worker module (it must import js/worker.js; a page served with a
 *   service worker starts it from inside that worker's scope to work
 *   offline); both resolved against the page's URL. worker: false runs the
 *   store in this thread (also the case where `Worker` is undefined):
 *   every call then runs Go on the page's thread. memoryBudget: bytes
 *   (default 2147483648, see above).
 * @returns {Promise<SessionTree>}
 */
export function init(options = {}) {
  options = options ?? {};
  const bad = checkMemoryBudget(options.memoryBudget);
  if (bad) return Promise.reject(new Error(`sessiontree: init: ${bad}`));
  if (options.worker === false || typeof globalThis.Worker !== "function") {
    return import("./local.js").then(({ initLocal }) => initLocal(options));
  }
  const base = globalThis.location?.href;
  const wasmURL = options.wasmURL ? new URL(options.wasmURL, base) : new URL("./sessiontree.wasm", import.meta.url);
  const persist = options.persist !== false;
  const dbName = options.dbName ?? DB_DEFAULT_NAME;
  const start = async () => {
    let connection = null;
    try {
      connection = options.workerURL ? connect(new URL(options.workerURL, base)) : pageWorker();
      return await connection.init({ wasmURL: wasmURL.href, dbName, persist, memoryBudget: options.memoryBudget });
    } catch (err) {
      // The default worker could not start at all (module workers
      // unsupported, a policy forbidding workers, offline outside a
      // service worker's scope): run in this thread instead. A workerURL
      // that was asked for and fails is an error, and so is a failure of
      // the store itself (IndexedDB, the wasm) in a worker that started.
      if (options.workerURL || (connection !== null && (!connection.failed || connection.trees.size > 0))) throw err;
      console.warn(`${err.message}; running the store in the page's thread`);
      const { initLocal } = await import("./local.js");
      return initLocal(options);
    }
  };
  if (!persist) return start();
  if (!shared.has(dbName)) {
    const p = start();
    shared.set(dbName, p);
    p.catch(() => shared.delete(dbName));
  }
  return shared.get(dbName);
}

/**
 * The worker for an init() that names none: the one this page already
 * started (the first init() chooses it, so a page keeps one worker),
 * else js/worker.js next to this module.
 */
function pageWorker() {
  for (const c of workers.values()) if (!c.failed) return c;
  // One `new Worker(new URL("literal", import.meta.url), {type: "module"})`
  // expression: the form Vite and webpack 5 recognise to bundle the worker
  // with its imports (esbuild leaves it as is: see docs/EMBED.md).
  return connect(new URL("./worker.js", import.meta.url), () => new Worker(new URL("./worker.js", import.meta.url), { type: "module", name: "sessiontree" }));
}

/**
 * The connection to the store worker at url, started on first use.
 * @param {URL} url
 * @param {() => Worker} [start] makes the Worker (default: a module Worker of url)
 */
function connect(url, start = () => new Worker(url, { type: "module", name: "sessiontree" })) {
  const key = url.href;
  let c = workers.get(key);
  if (!c || c.failed) {
    c = new Connection(url, adoptStarted(url, start));
    workers.set(key, c);
  }
  return c;
}

/**
 * start, except that its first call hands over the Worker for url that
 * the page's first script started before this module loaded (static/boot.js
 * leaves {url, worker, error} on globalThis.sessiontreeStartedWorker;
 * error is set when it failed before now: then it is let go and a new one
 * started, which reports the failure itself). Taken once.
 * @param {URL} url @param {() => Worker} start
 * @returns {() => Worker}
 */
function adoptStarted(url, start) {
  const started = globalThis.sessiontreeStartedWorker;
  if (!started || started.url !== url.href) return start;
  delete globalThis.sessiontreeStartedWorker;
  let first = true;
  return () => {
    const adopt = first && !started.error;
    if (first && started.error) started.worker.terminate();
    first = false;
    return adopt ? started.worker : start();
  };
}

/**
 * One module Worker and its requests in flight. When its Go program ends
 * (the worker says {exited}), the connection starts a new worker in its
 * place (_restart): the page's trees keep their objects and are restored
 * there. When the worker itself fails (it cannot load, or its own code
 * throws uncaught), the connection fails for good (_fail).
 */
class Connection {
  /**
   * @param {URL} url the worker's script (for messages)
   * @param {() => Worker} start makes a Worker (again at each restart)
   */
  constructor(url, start) {
    this.url = url;
    this.startWorker = start;
    this.next = 1;
    /** Requests in flight by id: {resolve, reject, progress?, tree?, op, args}. */
    this.pending = new Map();
    /** WorkerTrees by the worker's tree id. */
    this.trees = new Map();
    /** Set when the worker could not start, or could not be started again: every request rejects with it. */
    this.failed = null;
    /** While a new worker restores the trees: a Promise (never rejecting) that requests wait for. */
    this.restarting = null;
    /** Restarts so far, and how long the last one took in ms (exit seen → every tree restored). */
    this.restarts = 0;
    this.restartMs = null;
    this._start();
  }

  /** Start a worker and listen to it; messages of a worker replaced since are dropped. */
  _start() {
    const w = this.startWorker();
    this.worker = w;
    w.onmessage = ({ data }) => {
      if (w === this.worker) this._receive(data);
    };
    w.onerror = (event) => {
      event.preventDefault?.();
      if (w !== this.worker) return;
      // An uncaught error of the worker's own code (not the Go runtime's
      // end, which _restart answers): the connection fails for good.
      this._fail(new Error(`sessiontree: the store worker ${this.url.href} failed${event.message ? ": " + event.message : " to load"}`));
    };
    w.onmessageerror = () => console.error("sessiontree: a message from the store worker could not be read");
  }

  /**
   * Send one request; resolves to its value, rejects with the worker's error.
   * While the worker restarts, the request waits and goes to the new one.
   * @param {string} op @param {WorkerTree|undefined} tree the tree it is for (its id is read when it is posted)
   * @param {any[]} args @param {Transferable[]} [transfer] @param {(value: any) => void} [progress]
   * @param {boolean} [now] post even while restarting (the restart's own inits)
   * @returns {{id: number, promise: Promise<any>}}
   */
  send(op, tree, args, transfer = [], progress, now = false) {
    const id = this.next++;
    const promise = new Promise((resolve, reject) => {
      const post = () => {
        if (this.failed) return reject(this.failed);
        this.pending.set(id, { resolve, reject, progress, tree, op, args });
        try {
          this.worker.postMessage({ id, op, tree: tree?._id, args }, transfer);
        } catch (err) {
          this.pending.delete(id); // DataCloneError: never sent
          reject(err);
        }
      };
      if (this.restarting && !now) this.restarting.then(post);
      else post();
    });
    return { id, promise };
  }

  /** Start a tree in the worker. @returns {Promise<WorkerTree>} */
  async init(options) {
    const { tree, infos, persistent, marks } = await this.send("init", undefined, [options]).promise;
    // init's marks (the wasm started, IndexedDB read, sessions restored),
    // set in the worker's timeline, go on the page's for its performance
    // panel and benchmarks.
    for (const [name, at] of marks) {
      try {
        globalThis.performance?.mark?.(name, { startTime: at - performance.timeOrigin });
      } catch {
        // a time before this page's origin: leave it out
      }
    }
    let t = this.trees.get(tree);
    if (!t) {
      t = new WorkerTree(this, tree, infos, persistent, options.persist ? options.dbName : null, options);
      this.trees.set(tree, t);
    }
    return t;
  }

  _receive(data) {
    if (data.exited !== undefined) {
      this._restart(data.exited);
      return;
    }
    if (data.event !== undefined) {
      this.trees.get(data.tree)?._event(data.event);
      return;
    }
    if (data.progress !== undefined) {
      const p = this.pending.get(data.progress)?.progress;
      try {
        p?.(data.value);
      } catch (err) {
        console.error("sessiontree: an onProgress callback threw", err);
      }
      return;
    }
    const p = this.pending.get(data.id);
    if (!p) return;
    this.pending.delete(data.id);
    if (data.ok) p.resolve(data.value);
    else p.reject(new Error(data.error));
  }

  /**
   * The worker's Go program ended: end that worker
   * (its memory is given back), answer every request in flight with a
   * restartError (an init in flight is sent again instead), start a new
   * worker and init every tree there with its own options (IndexedDB
   * restores it, as at init()), then tell each tree's subscribers
   * {type: "restarted", reason, ms}. Requests made meanwhile wait. If the
   * new worker fails too, the connection fails for good (_fail).
   * @param {string} reason
   */
  _restart(reason) {
    if (this.failed) return;
    if (this.restarting) {
      this._fail(new Error(`sessiontree: the store failed again while it restarted (${reason}); reload the page`));
      return;
    }
    const t0 = performance.now();
    this.restarts++;
    this.worker.terminate();
    const trees = [...this.trees.values()];
    const inflight = [...this.pending.values()];
    this.pending.clear();
    let done;
    this.restarting = new Promise((resolve) => (done = resolve));
    this._start();
    for (const p of inflight) {
      if (p.op === "init") this.send("init", undefined, p.args).promise.then(p.resolve, p.reject);
      else p.reject(restartError(reason, p.tree ? p.tree.persistent : true));
    }
    (async () => {
      const fresh = new Map();
      try {
        for (const t of trees) {
          const { tree } = await this.send("init", undefined, [t._options], [], undefined, true).promise;
          t._restarted(tree);
          fresh.set(tree, t);
          if (t._closedByCaller) this.send("close", t, [], [], undefined, true).promise.catch(() => {});
        }
      } catch (err) {
        this._fail(new Error(`sessiontree: the store could not be restarted after ${reason} (${err?.message ?? err}); reload the page`));
        return;
      } finally {
        this.restarting = null;
        done();
      }
      this.trees = fresh;
      this.restartMs = performance.now() - t0;
      for (const t of trees) t._emit({ type: "restarted", reason, ms: this.restartMs });
    })();
  }

  _fail(err) {
    this.failed = err;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    for (const t of this.trees.values()) t._storageClosed("closed", err.message);
  }
}

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
  if (request instanceof Uint8Array) return request.slice();
  if (request instanceof ArrayBuffer) return new Uint8Array(request.slice(0));
  let text;
  try {
    text = JSON.stringify(request);
  } catch (err) {
    return errorEnvelope("INVALID_ARGUMENT", `request cannot be encoded as JSON: ${err.message}`);
  }
  if (typeof text !== "string") {
    return errorEnvelope("INVALID_ARGUMENT", "request must be an object like {operation: \"session\", sessionId: \"demo\"}");
  }
  return text;
}

/** A channel whose messages are tasks: nextTask() resumes after the page could paint and take input, without the 4 ms clamp of nested timers. */
let taskChannel = null;

/**
 * Resolve in a new task.
 * @returns {Promise<void>}
 */
function nextTask() {
  if (taskChannel === null) {
    taskChannel = new MessageChannel();
    taskChannel.waiting = [];
    taskChannel.port1.onmessage = () => taskChannel.waiting.shift()?.();
  }
  return new Promise((resolve) => {
    taskChannel.waiting.push(resolve);
    taskChannel.port2.postMessage(null);
  });
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
class WorkerTree extends TreeAPI {
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
  }

  _send(op, args, transfer, progress) {
    return this._connection.send(op, this, args, transfer, progress);
  }

  /**
   * A new worker took over (Connection._restart): the tree's id there, and
   * fresh text caches (the old worker's cache ids mean nothing to the new
   * one).
   * @param {number} id
   */
  _restarted(id) {
    this._id = id;
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
    let answer;
    try {
      answer = await this._send("call", [payload, asText], payload instanceof Uint8Array ? [payload.buffer] : []).promise;
    } catch (err) {
      const env = unansweredEnvelope(err);
      return asText ? JSON.stringify(env) : env;
    }
    if (typeof answer === "string") return asText ? answer : JSON.parse(answer);
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
  _buildContext({ columns: c, from, ascii, wide, rows }) {
    const whole = (a, w) => this._texts.extend(c.cache, from, a, w);
    if (c.count <= SLICE_MESSAGES && ascii.length + wide.length <= SLICE_BYTES) {
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
    const { id, promise } = this._send("importText", [text, format, flags], [], onProgress);
    if (signal) {
      const abort = () => this._connection.send("abort", undefined, [id]).promise.catch(() => {});
      if (signal.aborted) abort();
      else signal.addEventListener("abort", abort, { once: true });
      promise.finally(() => signal.removeEventListener("abort", abort)).catch(() => {});
    }
    return promise.catch(unansweredEnvelope);
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
    const { id, promise } = this._send("importBytes", [data, format, flags], transfer, onProgress);
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
    const bad = checkString("saveSnapshot", "sessionId", sessionId) ?? (name === undefined ? null : checkString("saveSnapshot", "name", name));
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
   * Close the IndexedDB connection (in the worker); see LocalTree.close.
   * Later calls that would change something, and the restore point
   * helpers, resolve to a STORAGE_ERROR envelope; reads keep answering
   * from memory. Never throws.
   */
  close() {
    this._closedByCaller = true;
    this._send("close", []).promise.catch(() => {});
    this._unshare();
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
