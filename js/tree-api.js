//# allFunctionsCalledOnLoad
// What every SessionTree offers whichever thread runs its store: the
// operations table, the calls built on call() (command, search, the panel
// service), subscribers, and storage() facts. Extended by LocalTree (js/local.js:
// the wasm in this thread) and WorkerTree (the wasm in a module Worker). No wasm, no IndexedDB here.

import { DETACHED_BYTES, byteOrderMark, copyBytes, splicedSnapshotAnswer, spliceJSON, withoutBOM } from "./request-text.js";
import { ERROR, OPERATIONS } from "./protocol.js";
import { chatOps } from "./chat-ops.js";
import { storedOps } from "./stored-ops.js";
import { gatherEntries } from "./folder-entries.js";
import { checkOptions, checkString, errorEnvelope, invalidArgument, isInstance, readOptions, unansweredEnvelope, unreadable } from "./api-errors.js";
import { afterPrepared, begun, loadSnapshotFile, prepared } from "./call-order.js";

const utf8Encoder = new TextEncoder();

export { checkImportArgs, checkInitOptions, checkMemoryBudget, checkName, checkOptions, checkString, closedEnvelope, errorEnvelope, invalidArgument, MAX_MEMORY_BUDGET, restartError, unansweredEnvelope } from "./api-errors.js";

/**
 * How long storage({requestPersist: true}) waits for
 * navigator.storage.persist() to answer, in ms. Chromium answers at once
 * (it decides by site engagement); Firefox 153 opens a permission prompt
 * and resolves only when the user answers it, so the wait is bounded.
 */
const PERSIST_WAIT_MS = 3000;

/**
 * What promise resolves to, or null when it has not settled within ms
 * (it keeps running); rejects as promise does within ms.
 * @template T @param {Promise<T>} promise @param {number} ms
 * @returns {Promise<T|null>}
 */
function answeredWithin(promise, ms) {
  let timer;
  const late = new Promise((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Every operation as the wasm's handle.operations() lists them, from the generated contract: [{name, readOnly, keepsCursor, public}]. */
export const OPERATION_INFOS = Object.freeze(Object.entries(OPERATIONS).map(([name, info]) => Object.freeze({ name, ...info })));

/**
 * The shared part of a session store. Subclasses implement call, callText,
 * importText, _importBytes, _importFiles, _importZip, saveSnapshot,
 * listSnapshots, restoreSnapshot, refresh, flush, close and _storageState.
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
    /** While a method reads what its request needs (see _prepared): a Promise that settles once it was answered, else null. */
    this._preparing = null;
    this._listeners = new Set();
    const remote = (operation, fields) => this.call({ operation: "remote." + operation, ...fields });
    /**
     * The panel service: the four calls the tree panel drives the store with.
     * Each resolves to an envelope whose value is a PanelView
     * `{session, tree}` — the session's status and its tree (rows and
     * text) — so a panel redraws without a second call. fork answers the
     * view of the new session. Changes are reported to subscribers as
     * "jump" and "fork", like the tool calls. Never rejects: an argument
     * that is not an id (undefined, a number, "") is INVALID_ARGUMENT
     * naming its field; after close(), jump and fork are STORAGE_ERROR
     * while list and session keep answering from memory.
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
   * usage line; a wrong argument count INVALID_ARGUMENT, and so is a line
   * that is not a string or options that are not an object. Never rejects.
   * @param {string} line
   * @param {{sessionId?: string}} [options]
   * @returns {Promise<object>} the envelope
   */
  command(line, options = {}) {
    return this._callWith("command", options, () => {
      const sessionId = options?.sessionId;
      return sessionId === undefined ? { operation: "command", line } : { operation: "command", line, sessionId };
    });
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
   *   A query that is not a non-empty string, options that are not an
   *   object, or a bad option is INVALID_ARGUMENT naming it. Never rejects.
   * @returns {Promise<object>} the envelope; value {hits: [{sessionId, nodeId, branch, role, score, snippet, ranges}], total}
   */
  search(query, options = {}) {
    // The options never override the operation or the query.
    return this._callWith("search", options, () => ({ ...(options ?? {}), operation: "search", query }));
  }

  // The thin typed methods: one call() each (sessiontree.d.ts types their
  // requests and values through Operations). Each resolves to call()'s
  // envelope, so a bad argument is INVALID_ARGUMENT, never a throw (options
  // that are not an object, `create(id, "title")`, too: _callWith).

  /**
   * call(request()), or INVALID_ARGUMENT naming method's options when they are not one (checkOptions) or
   * reading them throws (a getter). @param {string} method @param {unknown} options @param {() => object} request
   * @returns {Promise<object>} the envelope
   */
  _callWith(method, options, request) {
    const bad = checkOptions(method, options);
    if (bad) return Promise.resolve(bad);
    let built;
    try {
      built = request();
    } catch (err) {
      return Promise.resolve(unreadable(method, "options", err));
    }
    return this.call(built);
  }

  /**
   * create: a new, empty session.
   * @param {string} sessionId @param {{title?: string}} [options]
   * @returns {Promise<object>} the envelope; value the session status. SESSION_ALREADY_EXISTS for a taken id, INVALID_ARGUMENT for a bad id or title
   */
  create(sessionId, options) {
    return this._callWith("create", options, () => ({ operation: "create", sessionId, title: options?.title }));
  }

  /**
   * append: a chat message `{role, content, …}` under the cursor on the active branch, on
   * `options.branch`'s tip, or (`options.root`) as a new root beside the first message, on a new branch.
   * @param {string} sessionId @param {{role: string, content: any}} message @param {{branch?: string, root?: boolean}} [options]
   * @returns {Promise<object>} the envelope; value the new node. SESSION_NOT_FOUND, NOT_FOUND (unknown branch), INVALID_ARGUMENT (bad message, root with branch)
   */
  append(sessionId, message, options) {
    return this._callWith("append", options, () => ({ operation: "append", sessionId, message, branch: options?.branch, root: options?.root }));
  }

  /**
   * context: the root→cursor path as an LLM messages array; with
   * {ids: true} also each message's node id and that node's siblings
   * (nodeIds[i], siblings[i]: what an edit or regenerate needs).
   * @param {string} sessionId @param {{ids?: boolean}} [options]
   * @returns {Promise<object>} the envelope; value {cursor, messages, state, nodeIds?, siblings?}. SESSION_NOT_FOUND
   */
  context(sessionId, options) {
    return this._callWith("context", options, () => options?.ids ? { operation: "context", sessionId, ids: true } : { operation: "context", sessionId });
  }

  /**
   * jump: the cursor to a node; activeBranch becomes the node's branch.
   * @param {string} sessionId @param {string} nodeId
   * @returns {Promise<object>} the envelope; value the session status. SESSION_NOT_FOUND, NODE_NOT_FOUND
   */
  jump(sessionId, nodeId) {
    return this.call({ operation: "jump", sessionId, nodeId });
  }

  /**
   * branch: the cursor to a node and a new active branch `name` (its first
   * append goes under the node).
   * @param {string} sessionId @param {string} nodeId @param {string} name
   * @returns {Promise<object>} the envelope; value the session status. INVALID_ARGUMENT for a taken name, SESSION_NOT_FOUND, NODE_NOT_FOUND
   */
  branch(sessionId, nodeId, name) {
    return this.call({ operation: "branch", sessionId, nodeId, branch: name });
  }

  /**
   * fork: a NEW session holding the root→node path (ids kept), cursor at the node.
   * @param {string} sessionId @param {string} nodeId @param {{newSessionId?: string, branch?: string}} [options]
   * @returns {Promise<object>} the envelope; value the new session's status. SESSION_ALREADY_EXISTS for a taken newSessionId
   */
  fork(sessionId, nodeId, options) {
    return this._callWith("fork", options, () => ({ operation: "fork", sessionId, nodeId, newSessionId: options?.newSessionId, branch: options?.branch }));
  }

  /**
   * clone: a NEW session copying the whole tree, cursor and branches.
   * @param {string} sessionId @param {{newSessionId?: string}} [options]
   * @returns {Promise<object>} the envelope; value the new session's status. SESSION_ALREADY_EXISTS for a taken newSessionId
   */
  clone(sessionId, options) {
    return this._callWith("clone", options, () => ({ operation: "clone", sessionId, newSessionId: options?.newSessionId }));
  }

  /**
   * tree: the rows a panel draws and `text`, an ASCII rendering.
   * @param {string} sessionId @param {{showHidden?: boolean}} [options]
   * @returns {Promise<object>} the envelope; value {sessionId, cursor, activeBranch, roots, rows, text}. SESSION_NOT_FOUND
   */
  tree(sessionId, options) {
    return this._callWith("tree", options, () => ({ operation: "tree", sessionId, showHidden: options?.showHidden }));
  }

  /**
   * snapshot.save: the session as a version 1 snapshot object (its exact
   * text: callText({operation: "snapshot.save", sessionId})). Not
   * saveSnapshot, which keeps a named restore point.
   * @param {string} sessionId
   * @returns {Promise<object>} the envelope; value {version: 1, sessionId, cursor, activeBranch, nodes, …}. SESSION_NOT_FOUND
   */
  snapshotSave(sessionId) {
    return this.call({ operation: "snapshot.save", sessionId });
  }

  /**
   * snapshot.load from what a page has: a File or Blob, the snapshot
   * JSON's UTF-8 bytes (Uint8Array, ArrayBuffer), its text, or the
   * snapshot object. The request is spliced around the bytes
   * (spliceJSON: `{"operation":"snapshot.load","sessionId":…,"snapshot":`
   * bytes `}`), never parsed or re-encoded here: bytes are copied once
   * into the request, a Blob is read once straight into it (a Blob of the
   * request's head, the file and "}"); in worker mode the request's
   * buffer is then transferred, not copied. A UTF-8 byte order mark is
   * skipped and a UTF-16 file (with its mark) decoded, as import reads
   * files. Core refuses a request that repeats a field, so text after the
   * snapshot's object cannot stand for the request's own fields
   * (INVALID_SNAPSHOT: splicedSnapshotAnswer). The session (created if
   * absent) is replaced by the snapshot.
   * @param {string} sessionId
   * @param {Blob|ArrayBuffer|Uint8Array|string|object} snapshot
   * @param {{signal?: AbortSignal}} [options] an aborted signal, before the file is read through, loads nothing
   * @returns {Promise<object>} the envelope; value the session status. INVALID_SNAPSHOT naming the first fault;
   *   INVALID_ARGUMENT for a sessionId that is not a non-empty string, a snapshot of another type, a file that cannot be read, or an abort
   */
  async loadSnapshot(sessionId, snapshot, options) {
    const read = readOptions("loadSnapshot", options, ["signal"]);
    const bad = checkString("loadSnapshot", "sessionId", sessionId) ?? read.error;
    if (bad) return bad;
    const signal = read.values.signal ?? undefined;
    if (signal !== undefined && !(typeof AbortSignal === "function" && signal instanceof AbortSignal)) return invalidArgument("loadSnapshot", "options.signal", "must be an AbortSignal", signal);
    let raw;
    if (isInstance(snapshot, Blob)) {
      if (snapshot.size === 0) return errorEnvelope(ERROR.INVALID_SNAPSHOT, "snapshot is empty");
      // Read while the calls made after this one wait (_prepared).
      return this._prepared(() => loadSnapshotFile(this, sessionId, snapshot, signal));
    } else if (isInstance(snapshot, Uint8Array) || typeof snapshot === "string") {
      raw = snapshot;
    } else if (isInstance(snapshot, ArrayBuffer)) {
      raw = new Uint8Array(snapshot);
    } else if (snapshot !== null && typeof snapshot === "object" && !ArrayBuffer.isView(snapshot)) {
      try {
        raw = JSON.stringify(snapshot);
      } catch (err) {
        return invalidArgument("loadSnapshot", "snapshot", `cannot be encoded as JSON (${err.message})`, snapshot);
      }
    } else {
      return invalidArgument("loadSnapshot", "snapshot", "must be a File or Blob, a Uint8Array or ArrayBuffer of its JSON, its JSON text, or the snapshot object", snapshot);
    }
    raw = withoutBOM(raw);
    if (raw.length === 0) return errorEnvelope(ERROR.INVALID_SNAPSHOT, "snapshot is empty");
    if (signal?.aborted) return errorEnvelope(ERROR.INVALID_ARGUMENT, "load aborted; nothing was loaded");
    const pieces = spliceJSON({ operation: "snapshot.load", sessionId }, [["snapshot", ""]]);
    const head = utf8Encoder.encode(pieces).length - 1; // the request's bytes before the snapshot
    const request = spliceJSON({ operation: "snapshot.load", sessionId }, [["snapshot", raw]]);
    const size = () => (typeof raw === "string" ? utf8Encoder.encode(raw).length : raw.length);
    return splicedSnapshotAnswer(await (typeof request === "string" ? this.call(request) : this._callOwned(request)), head, size);
  }

  /**
   * Answer a request given as bytes nobody else holds (the shim's own,
   * e.g. a spliced snapshot.load): WorkerTree transfers them without a
   * copy. Here, and in LocalTree, the same as call().
   * @param {Uint8Array} bytes a whole ArrayBuffer's view
   * @returns {Promise<object>} the envelope
   */
  _callOwned(bytes) {
    return this.call(bytes);
  }

  /** See prepared in js/call-order.js: calls made while prepare runs wait for it. @template T @param {() => Promise<T>} prepare @returns {Promise<T>} */
  _prepared(prepare) {
    return prepared(this, prepare);
  }

  /** See afterPrepared in js/call-order.js. @template T @param {() => T|Promise<T>} run @returns {T|Promise<T>} */
  _afterPrepared(run) {
    return afterPrepared(this, run);
  }

  /**
   * call() for a method's own request inside _prepared: made now, not
   * after the method preparing (itself). LocalTree's (_requestNow);
   * WorkerTree defines its own.
   * @param {object|string|Uint8Array} request
   * @returns {Promise<object>} the envelope
   */
  _callNow(request) {
    return this._requestNow(request, false);
  }

  /** _callOwned for a method's own request inside _prepared (see _callNow). @param {Uint8Array} bytes @returns {Promise<object>} */
  _callOwnedNow(bytes) {
    return this._callNow(bytes);
  }

  /**
   * Import an export file from what a page has — a File or Blob, an
   * ArrayBuffer or a Uint8Array — without decoding it to a string: the
   * bytes reach the wasm in slices with a yield between them (a Blob is
   * read in the thread that runs the store, in the worker by default;
   * bytes are copied once and, in worker mode, transferred). The same
   * import as importText (slices, onProgress({read, total}) in bytes of
   * work — total is twice the file's size —, the signal): nothing is
   * stored before the whole file is read and checked, so a failed import,
   * or one aborted while reading, changes nothing. A sessiontree snapshot
   * (starting `{"version":1,"sessionId":…`) of a session the store does not
   * have loads through snapshot.load instead, its bytes spliced into the
   * request as loadSnapshot does (about as fast as that call with the bytes
   * built by hand; the value is the importer's, onProgress is called once
   * at the end, subscribers see a "snapshot.load" change).
   * @param {Blob|ArrayBuffer|Uint8Array} file
   * @param {{format?: string, onProgress?: (p: {read: number, total: number}) => void, signal?: AbortSignal, sliceBytes?: number}} [options]
   *   format: "auto" (default) or a format name
   * @returns {Promise<object>} the envelope; value {format, sessions, skipped, warnings}. INVALID_ARGUMENT for a bad file or option,
   *   an unreadable file, or "import aborted; nothing was imported"
   */
  async importFile(file, options) {
    const read = readOptions("importFile", options, ["format", "onProgress", "signal", "sliceBytes"]);
    if (read.error) return read.error;
    const { format = "auto", onProgress, signal, sliceBytes } = read.values;
    if (typeof format !== "string" || format === "") return invalidArgument("importFile", "options.format", "must be a format name such as \"auto\" or \"chatgpt\"", format);
    if (onProgress !== undefined && onProgress !== null && typeof onProgress !== "function") return invalidArgument("importFile", "options.onProgress", "must be a function", onProgress);
    if (signal !== undefined && signal !== null && !(typeof AbortSignal === "function" && signal instanceof AbortSignal)) return invalidArgument("importFile", "options.signal", "must be an AbortSignal", signal);
    if (sliceBytes !== undefined && !(Number.isInteger(sliceBytes) && sliceBytes > 0)) return invalidArgument("importFile", "options.sliceBytes", "must be a positive integer", sliceBytes);
    let data;
    if (isInstance(file, Blob)) data = file;
    else if (isInstance(file, Uint8Array) || isInstance(file, ArrayBuffer)) data = copyBytes(file); // a copy: the caller's stays theirs
    else return invalidArgument("importFile", "file", "must be a File, Blob, ArrayBuffer or Uint8Array", file);
    if (data === null) return errorEnvelope(ERROR.INVALID_ARGUMENT, `importFile: argument "file" ${DETACHED_BYTES}`);
    if (signal?.aborted) return errorEnvelope(ERROR.INVALID_ARGUMENT, "import aborted; nothing was imported");
    return begun(this, () => this._importBytes(data, format, { onProgress: onProgress ?? undefined, signal: signal ?? undefined, sliceBytes }));
  }
  /**
   * Import a whole folder, or any set of files, at once, as the tools keep them on disk:
   * Claude Code projects/<slug>/*.jsonl (with sub-agent files), Pi sessions/--<cwd>--/, Cline
   * and Roo Code tasks/<id>/, OpenCode's storage tree, Codex and Gemini CLI folders, LobeChat
   * and other exports, each recognised by path and content (core.Store.ImportFiles). Each
   * session comes with its tool, project (the tool's working folder) and title. The same
   * folder again adds only what is new or grown. Bytes go to the store's thread transferred
   * (a directory handle is walked there); onProgress({read, total}) in bytes of work (total:
   * twice the files' size); an abort before the import is stored leaves nothing behind.
   * @param {FileList|Array<File|{path: string, data: Blob|ArrayBuffer|Uint8Array|string}>|FileSystemDirectoryHandle} entries
   *   a FileList from `<input webkitdirectory>`, Files (their webkitRelativePath is the path), {path, data}
   *   entries, or a FileSystemDirectoryHandle
   * @param {{onProgress?: (p: {read: number, total: number}) => void, signal?: AbortSignal}} [options]
   * @returns {Promise<object>} the envelope; value {sessions: [{sessionId, title, tool, project?, path, existing,
   *   added, nodeCount, …}], skipped, warnings (each naming its file), files: [{path, tool?, sessions, skipped?}]}.
   *   INVALID_ARGUMENT for bad entries or options, a folder no file of which gives a session, or
   *   "import aborted; nothing was imported"
   */
  async importFiles(entries, options) {
    const read = readOptions("importFiles", options, ["onProgress", "signal"]);
    if (read.error) return read.error;
    const { onProgress, signal } = read.values;
    if (onProgress !== undefined && onProgress !== null && typeof onProgress !== "function") return invalidArgument("importFiles", "options.onProgress", "must be a function", onProgress);
    if (signal !== undefined && signal !== null && !(typeof AbortSignal === "function" && signal instanceof AbortSignal)) return invalidArgument("importFiles", "options.signal", "must be an AbortSignal", signal);
    const gathered = gatherEntries(entries);
    if (gathered.error) return errorEnvelope(ERROR.INVALID_ARGUMENT, `importFiles: ${gathered.error}`);
    if (signal?.aborted) return errorEnvelope(ERROR.INVALID_ARGUMENT, "import aborted; nothing was imported");
    return begun(this, () => this._importFiles(gathered.files, gathered.dir, { onProgress: onProgress ?? undefined, signal: signal ?? undefined }));
  }

  /**
   * Import an export ZIP as ChatGPT and Claude.ai hand them out (or any ZIP of exports and
   * transcripts) where the store runs, as bytes: the ZIP crosses to the store's worker as
   * the Blob it is (no copy) and is streamed there; its JSON and JSON lines entries are
   * inflated into bytes within `budget` (an entry that declares more is refused before it
   * is inflated, one that inflates past it — a ZIP bomb — is stopped there, each reported
   * naming the entry, its declared and actual size and the budget) and imported one after
   * another as importFile imports a file (format "auto"), each stored on its own. Account
   * files (users.json, projects.json, …) and the HTML view are skipped; other entries
   * (images, audio, files) are attachments, not stored, listed on the conversations that
   * name them (`refs`). No entry becomes a string in the page's thread.
   * With `existingSnapshots: "hold"`, an entry that is a sessiontree
   * snapshot of a session the store has is not merged into it (as
   * importFile would) but held: reported as `{kind: "snapshot", name, size,
   * sessionId, data}` (data: its bytes as a Blob), for the caller to ask
   * and load (loadSnapshot) or import (importFile) as chosen.
   * @param {Blob|ArrayBuffer|Uint8Array} file the ZIP
   * @param {{name?: string, budget?: number, existingSnapshots?: "merge"|"hold", onProgress?: (p: {phase: "read"|"import", name: string, read: number, total: number}) => void, signal?: AbortSignal}} [options]
   *   name: the ZIP's name in the entries' names ("name › path/inside.json"; default the File's
   *   name, else "archive.zip"); budget: bytes all text entries may inflate to (default 256 MiB);
   *   onProgress: bytes of the ZIP read (phase "read"), then each entry's import work (phase
   *   "import", as importFile's); signal: an abort while reading imports nothing, later it stops
   *   the entry being imported and the ones after it; existingSnapshots: "merge" (default) or "hold"
   * @returns {Promise<object>} the envelope; value {entries: [{kind: "text", name, size, refs, envelope}
   *   | {kind: "snapshot", name, size, sessionId, data} | {kind: "skip", name, reason} | {kind: "error", name, message}]} in the ZIP's order (envelope:
   *   the entry's import, as importFile's). INVALID_ARGUMENT for a bad argument or option, "import
   *   aborted; nothing was imported", or, when no entry gave a session (not a ZIP, nothing in it
   *   readable, every entry refused), reason NOTHING_TO_IMPORT with the same `entries` on the error
   *   (as importFiles's `files`); STORAGE_ERROR when the store fails; never rejects
   */
  async importZip(file, options) {
    const read = readOptions("importZip", options, ["name", "budget", "existingSnapshots", "onProgress", "signal"]);
    if (read.error) return read.error;
    const { name, budget, existingSnapshots, onProgress, signal } = read.values;
    if (name !== undefined && (typeof name !== "string" || name === "")) return invalidArgument("importZip", "options.name", "must be a non-empty string", name);
    if (existingSnapshots !== undefined && existingSnapshots !== "merge" && existingSnapshots !== "hold") return invalidArgument("importZip", "options.existingSnapshots", "must be \"merge\" or \"hold\"", existingSnapshots);
    if (budget !== undefined && !(Number.isInteger(budget) && budget > 0)) return invalidArgument("importZip", "options.budget", "must be a positive integer of bytes", budget);
    if (onProgress !== undefined && onProgress !== null && typeof onProgress !== "function") return invalidArgument("importZip", "options.onProgress", "must be a function", onProgress);
    if (signal !== undefined && signal !== null && !(typeof AbortSignal === "function" && signal instanceof AbortSignal)) return invalidArgument("importZip", "options.signal", "must be an AbortSignal", signal);
    let blob;
    if (isInstance(file, Blob)) blob = file;
    else if (isInstance(file, Uint8Array) || isInstance(file, ArrayBuffer)) blob = new Blob([file]); // a copy: the caller's stays theirs
    else return invalidArgument("importZip", "file", "must be a File, Blob, ArrayBuffer or Uint8Array", file);
    if (signal?.aborted) return errorEnvelope(ERROR.INVALID_ARGUMENT, "import aborted; nothing was imported");
    const zipName = name ?? (typeof blob.name === "string" && blob.name !== "" ? blob.name : "archive.zip");
    // A store that fails (its reader did not load, its worker stopped) answers STORAGE_ERROR: never a rejection.
    return begun(this, () => this._importZip(blob, { name: zipName, budget, hold: existingSnapshots === "hold", onProgress: onProgress ?? undefined, signal: signal ?? undefined })).catch(unansweredEnvelope);
  }


  /**
   * Count one more init() that resolved to this tree (js/sessiontree.js
   * init): a second init() of the same dbName resolves to the same tree,
   * and each caller's close() lets go of its own hold (_release), so a
   * component that closes what it opened (React's StrictMode mounts twice)
   * does not close the tree under the others.
   * @returns {this}
   */
  _retain() {
    this._holders = (this._holders ?? 0) + 1;
    return this;
  }

  /**
   * close()'s first step: let go of one init()'s hold. False while another
   * init() still holds the tree (it stays open), true when close() must
   * close it: the last hold, or a tree no init() counted (the worker's own).
   * @returns {boolean}
   */
  _release() {
    if ((this._holders ?? 0) > 1) {
      this._holders--;
      return false;
    }
    this._holders = 0;
    return true;
  }

  /**
   * Subscribe to changes. fn receives `{type, sessionId, nodeId?}` after
   * each change is applied (and, when persisting, committed): type is the
   * operation that made it, nodeId the session's cursor afterwards. Changes
   * another tab stored arrive the same way with `remote: true` (nodeId is
   * then that tab's cursor). When this tab stops saving — another tab
   * opened a newer schema version, or the browser closed the database — fn
   * receives `{type: "storage", state: "closed", reason, message}` with a
   * message to show the user (reload the page). When the store's worker
   * was started again after its Go runtime ended (out of memory), fn
   * receives `{type: "restarted", reason, ms}` once every stored session is
   * back (see init() in js/sessiontree.js); in the page's thread such an
   * end is a storage event with reason "exited".
   *
   * fn that is not a function is a programming error, but it never
   * throws: nothing is subscribed, console.error says so, and the
   * unsubscribe function returned does nothing. A subscriber that throws
   * is logged (console.error) and the other subscribers still run.
   * @param {(event: {type: string, sessionId?: string, nodeId?: string, remote?: boolean, state?: string, reason?: string, message?: string, ms?: number}) => void} fn
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
   * (navigator.storage.estimate(); the site's, so with a service worker's
   * cache of the app), the part of it IndexedDB holds, the sessions
   * (`databaseUsage`, bytes: estimate()'s usageDetails, Chromium only),
   * with whether the storage is persistent
   * (navigator.storage.persisted(): exempt from eviction under storage
   * pressure). With {requestPersist: true} it first asks for persistence
   * (navigator.storage.persist(); browsers may prompt or decide by site
   * engagement), waiting for the answer at most PERSIST_WAIT_MS: Firefox
   * asks the user in a permission prompt and answers only when the prompt
   * is (a headless Firefox never does); persisted then says what the
   * browser holds now, and the prompt's later answer shows in the next
   * storage() call (persistPending is true while it is unanswered). Fields
   * the browser does not offer are null. Never
   * rejects: options that are not an object are taken as {}, and a store
   * that cannot be reached (its worker failed) answers state "closed" with
   * the error as the reason.
   * @param {{requestPersist?: boolean}} [options]
   * @returns {Promise<{persistent: boolean, state: "open"|"closed"|"memory", reason: string|null, usage: number|null, databaseUsage: number|null, quota: number|null, persisted: boolean|null, persistPending: boolean}>}
   */
  async storage(options = {}) {
    const requestPersist = !!readOptions("storage", options, ["requestPersist"]).values.requestPersist;
    const sm = globalThis.navigator?.storage;
    let persisted = null;
    let persistPending = false;
    if (sm && requestPersist && typeof sm.persist === "function") {
      try {
        persisted = await answeredWithin(sm.persist(), PERSIST_WAIT_MS);
        persistPending = persisted === null;
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
    let databaseUsage = null;
    if (sm && typeof sm.estimate === "function") {
      try {
        const e = await sm.estimate();
        usage = e.usage ?? null;
        quota = e.quota ?? null;
        databaseUsage = e.usageDetails?.indexedDB ?? null;
      } catch {
        // leave them null
      }
    }
    const { state, reason } = await this._storageState();
    return { persistent: this._persistent, state, reason, usage, databaseUsage, quota, persisted, persistPending };
  }
}

// leaf, switchTo, rename, delete, trash, restoreSession, emptyTrash, appendMany (js/chat-ops.js) and
// storedContext (js/stored-ops.js), not enumerable, as the class's own methods.
for (const [name, d] of Object.entries(Object.getOwnPropertyDescriptors({ ...chatOps, ...storedOps }))) Object.defineProperty(TreeAPI.prototype, name, { ...d, enumerable: false });
