// What every SessionTree offers whichever thread runs its store: the
// operations table, the calls built on call() (command, search, the panel
// service), subscribers, and storage() facts. Extended by LocalTree
// (js/local.js: the wasm in this thread) and WorkerTree (js/sessiontree.js:
// the wasm in a module Worker). No wasm, no IndexedDB here.

/**
 * An error envelope.
 * @param {string} code @param {string} message
 * @returns {{ok: false, error: {code: string, message: string}}}
 */
export function errorEnvelope(code, message) {
  return { ok: false, error: { code, message } };
}

/**
 * The shared part of a session store. Subclasses implement call, callText,
 * importText, saveSnapshot, listSnapshots, restoreSnapshot, refresh,
 * flush, close and _storageState.
 */
export class TreeAPI {
  /**
   * @param {{name: string, readOnly: boolean, keepsCursor: boolean, public: boolean}[]} infos every operation of the wasm (handle.operations())
   * @param {boolean} persistent whether changes are written to IndexedDB
   */
  constructor(infos, persistent) {
    /** Every operation of the wasm, public and internal, by name: {name, readOnly, keepsCursor, public}. */
    this._operationInfo = new Map(infos.map((o) => [o.name, o]));
    const operations = Object.create(null);
    for (const o of infos) if (o.public) operations[o.name] = Object.freeze({ readOnly: o.readOnly, keepsCursor: o.keepsCursor });
    /**
     * The operations call() answers, as the wasm reports them: a frozen
     * object (no prototype) mapping each name to `{readOnly, keepsCursor}`.
     * readOnly: the operation never changes anything (the shim answers it
     * from memory, without an IndexedDB transaction, when no write is
     * queued); keepsCursor: a change it makes never moves a cursor (label,
     * hide, prefer). The shim's own operations (restore, sync.merge,
     * sync.forget) are not here, and call() answers them as unknown.
     * @type {Readonly<Record<string, Readonly<{readOnly: boolean, keepsCursor: boolean}>>>}
     */
    this.operations = Object.freeze(operations);
    this._persistent = persistent;
    this._listeners = new Set();
    const remote = (operation, fields) => this.call({ operation: "remote." + operation, ...fields });
    /**
     * The panel service: the four calls the tree panel drives the store with.
     * Each resolves to an envelope whose value is a PanelView
     * `{session, tree}` — the session's status and its tree (rows and
     * text) — so a panel redraws without a second call. fork answers the
     * view of the new session. Changes are reported to subscribers as
     * "jump" and "fork", like the tool calls.
     */
    this.remote = Object.freeze({
      /** @param {string} sessionId */
      list: (sessionId) => remote("list", { sessionId }),
      /** @param {string} sessionId @param {string} nodeId */
      jump: (sessionId, nodeId) => remote("jump", { sessionId, nodeId }),
      /** @param {string} sessionId @param {string} nodeId @param {string} [branch] */
      fork: (sessionId, nodeId, branch) => remote("fork", branch === undefined ? { sessionId, nodeId } : { sessionId, nodeId, branch }),
      /** @param {string} sessionId */
      session: (sessionId) => remote("session", { sessionId }),
    });
  }

  /** True when changes are written to IndexedDB. */
  get persistent() {
    return this._persistent;
  }

  /**
   * Whether call() answers an operation of this name (the wasm's table;
   * see operations). For feature detection: no call is made.
   * @param {string} name e.g. "diff"
   * @returns {boolean} false for an unknown name, a non-string, or an internal operation
   */
  hasOperation(name) {
    return typeof name === "string" && Object.hasOwn(this.operations, name);
  }

  /**
   * Run a text command such as "/tree list" for a session ("/tree help"
   * lists them; it needs no session). Same as call({operation: "command",
   * line, sessionId}). The value is `{command, text, data, draft?}`: text
   * for display, data the value of the operation the command ran, draft the
   * message text /fork returns. An unknown command is NOT_FOUND with the
   * usage line; a wrong argument count INVALID_ARGUMENT.
   * @param {string} line
   * @param {{sessionId?: string}} [options]
   * @returns {Promise<object>} the envelope
   */
  command(line, options = {}) {
    const sessionId = options?.sessionId;
    return this.call(sessionId === undefined ? { operation: "command", line } : { operation: "command", line, sessionId });
  }

  /**
   * Fuzzy search over node text (messages, summaries, entries, labels).
   * Every query word must match a word of the node exactly, as a prefix, or
   * within 1 typo (4–7 letters) or 2 typos (8+ letters); case and accents
   * are ignored; CJK, Thai and emoji match as substrings. Hits come best
   * first: exact before prefix before typo, words close together, then the
   * newest. Each hit's `ranges` are [start, end) offsets in UTF-16 code units
   * of its `snippet`, so `snippet.slice(start, end)` is a matched part.
   * @param {string} query
   * @param {{sessionId?: string, limit?: number, roles?: string[], branch?: string}} [options]
   *   limit: 1–1000 hits (default 20); roles: keep these roles ("summary" for
   *   summary nodes); branch: keep nodes appended on this branch.
   * @returns {Promise<object>} the envelope; value {hits: [{sessionId, nodeId, branch, role, score, snippet, ranges}], total}
   */
  search(query, options = {}) {
    return this.call({ operation: "search", query, ...(options ?? {}) });
  }

  /**
   * Subscribe to changes. fn receives `{type, sessionId, nodeId?}` after
   * each change is applied (and, when persisting, committed): type is the
   * operation that made it, nodeId the session's cursor afterwards. Changes
   * another tab stored arrive the same way with `remote: true` (nodeId is
   * then that tab's cursor). When this tab stops saving — another tab
   * opened a newer schema version, or the browser closed the database — fn
   * receives `{type: "storage", state: "closed", reason, message}` with a
   * message to show the user (reload the page).
   * @param {(event: {type: string, sessionId?: string, nodeId?: string, remote?: boolean, state?: string, reason?: string, message?: string}) => void} fn
   * @returns {() => void} unsubscribe
   */
  subscribe(fn) {
    if (typeof fn !== "function") {
      console.error("sessiontree: subscribe takes a function; nothing was subscribed");
      return () => {};
    }
    this._listeners.add(fn);
    return () => this._listeners.delete(fn);
  }

  /** Call every subscriber with event; one that throws is logged and the others still run. */
  _emit(event) {
    for (const fn of this._listeners) {
      try {
        fn(event);
      } catch (err) {
        console.error("sessiontree: a subscriber threw", err);
      }
    }
  }

  /**
   * Storage facts for the explorer: whether this tree persists, whether it
   * can still write (`state` "open" or "closed", with the reason), and the
   * browser's estimate of the site's usage and quota in bytes
   * (navigator.storage.estimate()) with whether the storage is persistent
   * (navigator.storage.persisted(): exempt from eviction under storage
   * pressure). With {requestPersist: true} it first asks for persistence
   * (navigator.storage.persist(); browsers may prompt or decide by site
   * engagement). Fields the browser does not offer are null.
   * @param {{requestPersist?: boolean}} [options]
   * @returns {Promise<{persistent: boolean, state: "open"|"closed"|"memory", reason: string|null, usage: number|null, quota: number|null, persisted: boolean|null}>}
   */
  async storage({ requestPersist = false } = {}) {
    const sm = globalThis.navigator?.storage;
    let persisted = null;
    if (sm && requestPersist && typeof sm.persist === "function") {
      try {
        persisted = await sm.persist();
      } catch {
        persisted = null;
      }
    }
    if (persisted === null && sm && typeof sm.persisted === "function") {
      try {
        persisted = await sm.persisted();
      } catch {
        persisted = null;
      }
    }
    let usage = null;
    let quota = null;
    if (sm && typeof sm.estimate === "function") {
      try {
        const e = await sm.estimate();
        usage = e.usage ?? null;
        quota = e.quota ?? null;
      } catch {
        // leave them null
      }
    }
    const { state, reason } = await this._storageState();
    return { persistent: this._persistent, state, reason, usage, quota, persisted };
  }
}
