//# allFunctionsCalledOnLoad
// (V8's compile hint, Chrome 136+: compiled as it loads, as init()'s other modules; DECISIONS.md, Performance.)
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
// application/wasm for streaming compilation) and wasm_exec.js, and the
// modules they import: worker-tree.js, local.js, tree-api.js, api-errors.js,
// context-columns.js, request-text.js, protocol.js, envelope.js, store.js
// and store/*.js.

import { DB_DEFAULT_NAME } from "./store/schema.js";
import { LIST_BATCH, readList } from "./store/listing.js";
import { ERROR, STORAGE_ERROR } from "./protocol.js";
import { OPERATION_INFOS, TreeAPI, checkInitOptions, restartError } from "./tree-api.js";
import { WorkerTree, closing, latestInit, shared } from "./worker-tree.js";
import { joinParts } from "./answer-parts.js";
import { nextTask } from "./tasks.js";

export { ERROR, STORAGE_ERROR };

/**
 * The class every tree init() resolves to extends (in either thread), for
 * `instanceof`; its API is the SessionTree interface of sessiontree.d.ts.
 */
export { TreeAPI as SessionTree };


/** The page's store worker per worker URL (one per page in practice). */
const workers = new Map();

/**
 * Start sessiontree.
 *
 * With no options it starts the store in a module Worker (js/worker.js
 * next to this module, or the worker an earlier init() of this page
 * started: one per page), loads `sessiontree.wasm` from this module's
 * folder there, and persists to the IndexedDB database "sessiontree". It
 * resolves as soon as the newest 50 stored sessions are read, before the
 * rest of the list and before the wasm is fetched, compiled and started:
 * `sessions` answers from the stored records, exactly as core would (a
 * page newest first at once, the whole list once read); every other call
 * waits for the wasm, in order. If the rest of the list then cannot be
 * read, or the wasm cannot be fetched (the message names the HTTP
 * status), compile or start (or a stored session cannot be listed in it), the tree closes:
 * every call answers STORAGE_ERROR naming the cause and subscribers get
 * `{type: "storage", state: "closed", reason: "failed", message}`. With
 * `worker: false` or `persist: false` init() resolves when the wasm has
 * started. The page reads that list itself and makes the worker once it
 * is read (at most LIST_FIRST_MS, 150 ms, later), so the worker's start
 * does not slow the read. Sessions stay in IndexedDB until a call names them
 * (js/store/pager.js). If that
 * default worker cannot start at all, it warns on the console and runs the
 * store in the page's thread. Calling init() again in
 * the same page with the same dbName resolves to the same shared tree;
 * another dbName, or `persist: false`, gives an independent one. Each
 * init() holds the tree: `tree.close()` lets go of one hold and closes
 * the tree with the last, so a component may close what it opened (React's
 * StrictMode runs an effect and its cleanup twice) without closing the
 * tree under another init()'s caller.
 *
 * Rejects (never resolves to an empty store) when IndexedDB cannot be
 * opened or read, or, without the early answer (no session stored, as on a
 * first visit, or `worker: false`, `persist: false`), when the worker
 * cannot be started, the wasm cannot be fetched (a server that does not
 * answer 2xx: the message names the status), does not start or a stored
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
 * @param {{wasmURL?: string|URL, workerURL?: string|URL, worker?: boolean, dbName?: string, persist?: boolean, memoryBudget?: number, pageBudget?: number}} [options]
 *   wasmURL: the wasm (of the same Go build as the package's wasm_exec.js, which is imported from this folder); workerURL:
 *   the worker module (it must import js/worker.js; a page served with a
 *   service worker starts it from inside that worker's scope to work
 *   offline); both resolved against the page's URL. worker: false runs the
 *   store in this thread (also the case where `Worker` is undefined):
 *   every call then runs Go on the page's thread. memoryBudget: bytes
 *   (default 2147483648, see above). pageBudget: bytes of stored sessions
 *   (their records' size) kept in the wasm memory; past it the least
 *   recently used are paged out and read again when a call needs them
 *   (default memoryBudget / 8; see js/store/pager.js). Options of another
 *   type (a dbName that is not a non-empty string, persist or worker not a
 *   boolean, …) or of an unknown name ("persits") reject naming it (checkInitOptions).
 * @returns {Promise<SessionTree>}
 */
export function init(options = {}) {
  const opened = openTree(options).then((tree) => tree._retain());
  latestInit.tree = opened.catch(() => null); // a panel given no tree shows it (static/session-tree-panel.js)
  return opened;
}

/** init()'s work, before the caller's hold on the tree is counted (TreeAPI._retain). */
function openTree(options) {
  const bad = checkInitOptions(options);
  if (bad) return Promise.reject(new Error(`sessiontree: init: ${bad}`));
  options = options ?? {};
  const base = globalThis.location?.href;
  // The one place the wasm's default URL is written: a literal
  // new URL(…, import.meta.url), which every bundler emits as an asset.
  const wasmURL = options.wasmURL ? new URL(options.wasmURL, base) : new URL("./sessiontree.wasm", import.meta.url);
  options = { ...options, wasmURL: wasmURL.href };
  if (options.worker === false || typeof globalThis.Worker !== "function") {
    return import("./local.js").then(({ initLocal }) => initLocal(options));
  }
  const persist = options.persist !== false;
  const dbName = options.dbName ?? DB_DEFAULT_NAME;
  const start = async () => {
    let connection = null;
    // Begun before the worker is made: reading the list is what the first
    // screen waits for. The records read go to the worker as they come
    // (it reads them only when the page could not).
    const list = nextList++;
    const pending = []; // the parts read before the worker was made
    const send = (args) => connection.send("metas", undefined, [list, ...args]).promise.catch(() => {});
    let partRead;
    const firstPart = new Promise((resolve) => (partRead = resolve));
    const give = (...args) => (args[0]?.length === LIST_BATCH && partRead(), queueMicrotask(() => (connection ? send(args) : pending.push(args))));
    const listed = persist ? pageList({ dbName }, give) : null;
    const workerURL = options.workerURL ? new URL(options.workerURL, base) : null;
    // A worker's start (its script fetched and parsed, its database
    // opened) takes the cores the list's read needs: a worker not yet
    // running is made once the list is read, or its first LIST_BATCH of
    // more, or after LIST_FIRST_MS, in a task after that (Connection
    // `later`): off the path of the list's answer. init() may answer from
    // the list's head meanwhile (Connection.init).
    const later = listed !== null && !workerRunning(workerURL) && Promise.race([firstPart, listed.whole, new Promise((resolve) => setTimeout(resolve, LIST_FIRST_MS))]);
    try {
      connection = workerURL ? connect(workerURL, undefined, later) : pageWorker(later);
      const started = connection.init({ wasmURL: wasmURL.href, dbName, persist, memoryBudget: options.memoryBudget, pageBudget: options.pageBudget }, listed, persist ? { list } : null);
      for (const args of pending.splice(0)) send(args);
      return await started;
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
    const closed = closing.get(dbName);
    closing.delete(dbName);
    const p = closed ? closed.then(start) : start();
    shared.set(dbName, p);
    p.catch(() => shared.delete(dbName));
  }
  return shared.get(dbName);
}

/**
 * The session list of a persisted tree, read in this thread while its
 * worker starts (readList): `head`, the newest sessions, read first
 * (store/listing.js readHead), then `whole`, the list; each null when the
 * worker's start must answer instead (no database yet, or one this page
 * cannot read as it stands). Nothing waits for the wasm's server: a
 * missing wasm then closes the tree that answered (see init). Neither
 * rejects. give(records) is called with each part of the meta records
 * read, then give(null, whole) once: whole false when they were not all
 * read (the worker reads them itself).
 * @param {{dbName: string}} options
 * @param {(records: object[]|null, whole?: boolean) => void} give
 * @returns {{head: Promise<{items: object[], complete: boolean}|null>, whole: Promise<object[]|null>}}
 */
function pageList({ dbName }, give) {
  if (!globalThis.indexedDB) return (give(null, false), { head: Promise.resolve(null), whole: Promise.resolve(null) });
  let whole = false;
  let headRead;
  const head = new Promise((resolve) => (headRead = resolve));
  const list = readList(dbName, (part) => (part ? give(part) : (whole = true)), headRead).then((sessions) => (give(null, whole), headRead(null), sessions));
  return { head, whole: list };
}

/** Numbers the session lists pages read for the worker (js/worker.js `metas`). */
let nextList = 1;

/**
 * Milliseconds init() waits at most for the page's read of the session list (or its first
 * store/listing.js LIST_BATCH records of more) before it makes the store's worker (see openTree):
 * on 2 cores the worker's start beside the read made the list of 1,000
 * sessions 78 ms instead of 54 (bench/RESULTS.md). A longer list is read
 * on beside the worker's start, whose wasm a first context needs: waiting
 * for all 10,000 put that ~100 ms later.
 */
const LIST_FIRST_MS = 150;

/**
 * Whether the worker init() would use is running already (this page
 * started it, or static/boot.js did before this module loaded), so there
 * is no start to put off.
 * @param {URL|null} url the workerURL asked for, null for the package's own
 */
function workerRunning(url) {
  if (url === null) return [...workers.values()].some((c) => !c.failed);
  const c = workers.get(url.href);
  return (c !== undefined && !c.failed) || globalThis.sessiontreeStartedWorker?.url === url.href;
}

/**
 * The worker for an init() that names none: the one this page already
 * started (the first init() chooses it, so a page keeps one worker),
 * else js/worker.bundle.js next to this module (js/worker.js bundled).
 * @param {boolean|Promise<unknown>} [later] see connect
 */
function pageWorker(later = false) {
  for (const c of workers.values()) if (!c.failed) return c;
  // One `new Worker(new URL("literal", import.meta.url), {type: "module"})`
  // expression, and no other URL of the worker: the form Vite, webpack 5,
  // Rollup and Parcel recognise to bundle the worker with its imports (a
  // second new URL("./worker.js", …) would be emitted again as an asset).
  // The worker's URL is known once it started (connect keys by it).
  // worker.bundle.js is worker.js with its modules, one file (make build):
  // unbundled, their ~30 fetches were most of init()'s start.
  return connect(null, () => new Worker(new URL("./worker.bundle.js", import.meta.url), { type: "module", name: "sessiontree-worker" }), later);
}

/**
 * The connection to the store worker at url (null: the package's own
 * worker.js), started on first use.
 * @param {URL|null} url
 * @param {() => Worker} [start] makes the Worker (default: a module Worker of url)
 * @param {boolean|Promise<unknown>} [later] a new connection makes its Worker after this task, or that promise (see Connection)
 */
function connect(url, start = () => new Worker(url, { type: "module", name: "sessiontree-worker" }), later = false) {
  const key = url?.href ?? "";
  let c = workers.get(key);
  if (!c || c.failed) {
    c = new Connection(url?.href ?? "(the package's own: js/worker.bundle.js, or the name your bundler gave it)", url ? adoptStarted(url, start) : start, url === null, later);
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
 * Set init's User Timing marks (the wasm started, IndexedDB read, sessions
 * restored), stamped in the worker's timeline, on the page's for its
 * performance panel and benchmarks.
 * @param {[string, number][]} marks [name, ms since the epoch]
 */
function setMarks(marks) {
  for (const [name, at] of marks) {
    try {
      globalThis.performance?.mark?.(name, { startTime: at - performance.timeOrigin });
    } catch {
      // a time before this page's origin: leave it out
    }
  }
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
   * @param {string} url the worker's script (for messages)
   * @param {() => Worker} start makes a Worker (again at each restart)
   * @param {boolean} [own] the package's default worker: when it cannot start, the store runs in the page's thread
   * @param {boolean|Promise<unknown>} [later] make the Worker after this task, or after the task in which
   *   this promise settles (init() may answer from the page's list first; `new Worker` takes 0.3–4 ms):
   *   requests wait for it; one that cannot be made fails the connection (_fail)
   */
  constructor(url, start, own = false, later = false) {
    this.url = url;
    this.own = own;
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
    /** While a Worker made `later` is not made yet: a Promise (never rejecting) that requests wait for. */
    this.starting = null;
    if (!later) {
      this._start();
      return;
    }
    this.starting = new Promise((resolve) =>
      // A MessageChannel task (nextTask): a background tab throttles setTimeout.
      Promise.resolve(later).then(nextTask).then(() => {
        this.starting = null;
        try {
          this._start();
        } catch (err) {
          this._fail(err);
        }
        resolve();
      }),
    );
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
      this._fail(new Error(`sessiontree: the store worker ${this.url} failed${event.message ? ": " + event.message : " to load"}`));
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
      const wait = (!now && this.restarting) || this.starting;
      if (wait) wait.then(post);
      else post();
    });
    return { id, promise };
  }

  /**
   * Start a tree in the worker. When listed.head (the newest sessions of
   * a persisted tree, read in this thread meanwhile: pageList) comes
   * first, resolve at once with a tree that answers `sessions` from it,
   * and from listed.whole once read, and holds every other call until the
   * worker's tree has started (WorkerTree._hold).
   * @param {object} options
   * @param {{head: Promise<{items: object[], complete: boolean}|null>, whole: Promise<object[]|null>}|null} [listed]
   * @param {{list: number, headed?: boolean}|null} [given] the page sends the meta records it reads as list n
   *   (js/worker.js `metas`); headed is set when the head answered init() before the init message is posted
   * @returns {Promise<WorkerTree>}
   */
  async init(options, listed = null, given = null) {
    const answer = this.send("init", undefined, given ? [options, given] : [options]).promise;
    if (listed) {
      const first = await Promise.race([answer.then(() => null, () => null), listed.head]);
      // No session stored (a database a failed first visit made): the start answers, and a missing wasm rejects.
      if (first !== null && first.items.length > 0) {
        if (given) given.headed = true; // the worker need not wait for the list to answer (js/worker.js init)
        const t = new WorkerTree(this, null, OPERATION_INFOS, true, options.dbName, options);
        t._listed(first, listed.whole);
        t._hold(answer.then((value) => this._adopt(value, options, t), (err) => this._unstarted(t, err, options)));
        return t;
      }
    }
    return this._adopt(await answer, options);
  }

  /**
   * The tree of the worker's init answer: t (a tree answered from the
   * page's list) given its id, else a new tree; the one already known when
   * an init of the same database answered before.
   * @param {{tree: number, infos: object[], persistent: boolean, marks: [string, number][], sessions?: object[], same?: boolean, listing?: boolean}} answer
   *   same: the worker's list is the one this page read (it took those records); listing: not read yet
   * @param {object} options @param {WorkerTree} [t]
   * @returns {WorkerTree}
   */
  _adopt({ tree, infos, persistent, marks, sessions, same, listing }, options, t = undefined) {
    setMarks(marks);
    const known = this.trees.get(tree);
    if (t) {
      t._id = tree;
      // The worker's list, read after the page's, answers instead (or the
      // page's own, when the worker took its records, or until its list comes
      // as {tree, listed}: listing); none when its tree has started already.
      if (same !== true && sessions) t._early = sessions;
      else if (same !== true && listing !== true) t._endEarly();
      if (known) return t; // the same database's tree, reached through two objects
    } else if (known) {
      return known;
    } else {
      t = new WorkerTree(this, tree, infos, persistent, options.persist ? options.dbName : null, options);
      // Answered before the wasm started: the list answers `sessions`
      // here until the worker says the tree is ready (WorkerTree._early).
      if (sessions) t._early = sessions;
    }
    this.trees.set(tree, t);
    return t;
  }

  /**
   * The worker's init of t, a tree answered from the page's list, failed.
   * When the worker itself could not start (the package's default worker,
   * before any tree started in it), the store runs in this thread instead,
   * as init() does when it finds that out first; otherwise the tree
   * closes: its subscribers get {type: "storage", state: "closed",
   * reason: "failed", message} and its calls answer STORAGE_ERROR.
   * @param {WorkerTree} t @param {Error} err @param {object} options
   */
  async _unstarted(t, err, options) {
    if (this.own && this.failed && this.trees.size === 0) {
      console.warn(`${err.message}; running the store in the page's thread`);
      try {
        const { initLocal } = await import("./local.js");
        t._fallBack(await initLocal(options));
        return;
      } catch (failed) {
        err = failed;
      }
    }
    t._failed = err;
    t._storageClosed("failed", String(err?.message ?? err));
  }

  /** Whether a request of tree is in flight (then a `sessions` call must wait behind it in the worker). @param {WorkerTree} tree */
  busy(tree) {
    if (tree._waiting > 0) return true;
    for (const p of this.pending.values()) if (p.tree === tree) return true;
    return false;
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
    if (data.events !== undefined) {
      const t = this.trees.get(data.tree);
      if (t) for (const event of data.events) t._event(event);
      return;
    }
    if (data.ready !== undefined || data.newer !== undefined || data.listed !== undefined) {
      const t = this.trees.get(data.tree);
      if (data.listed === undefined) t?._endEarly(); // the worker's store answers `sessions` from now on (js/worker.js)
      else if (t && data.listed.sessions && (t._head !== null || t._early !== null)) t._early = data.listed.sessions; // another list than this page's (_adopt)
      setMarks(data.marks ?? []); // the wasm started, the sessions restored
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
    if (data.part !== undefined) {
      ((p.parts ??= [])[data.at] ??= []).push(data.part);
      return;
    }
    this.pending.delete(data.id);
    if (data.ok) p.resolve(data.split ? joinParts(data.value, data.split, p.parts ?? []) : data.value);
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
      // Without its `given`: the new worker reads the meta records itself.
      if (p.op === "init") this.send("init", undefined, p.args.slice(0, 1)).promise.then(p.resolve, p.reject);
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
