// The IndexedDB layer of sessiontree: schema and its upgrades, the start-up
// read, and the Writer that runs every mutating call inside one IndexedDB
// transaction together with the records it changes. Pure storage and
// synchronisation; the tree logic lives in the wasm core.
//
// Schema version 3 (object stores, out-of-line keys; version 3 has the
// records of version 2 and differs only in the write protocol: writers
// hold the Web Lock "sessiontree-write:" + dbName, see Writer):
//   sessions   key sessionId        value meta {sessionId, title, cursor, activeBranch, createdAt,
//                                    updatedAt, nodeCount, annotationCount, folded, epoch, gen, op};
//                                    index "gen" on gen
//   chunks     key [sessionId, start]  value CHUNK_SIZE nodes (snapshot form) joined by ",\n",
//                                    as UTF-8 bytes (a Uint8Array; older records are the same
//                                    text as a string, and both are read);
//                                    start = 0, CHUNK_SIZE, … < folded
//   nodes      key [sessionId, seq]  value one node JSON string, folded ≤ seq < nodeCount
//   annotations key [sessionId, seq] value one annotation record (label, hide, prefer) as a JSON
//                                    string, 0 ≤ seq < annotationCount (see core/annotate.go)
//   snapshots  key [sessionId, name] value {sessionId, name, createdAt, nodeCount, snapshot: JSON string}
// seq is a node's position in append order, the same in every tab (see
// Writer). An append writes one node record and the meta record; every
// CHUNK_SIZE appends the small records are folded into one chunk record, so
// a restore reads ~nodeCount/CHUNK_SIZE records (structured clone per record
// dominates reads: TOOLCHAIN.md measures 100,000 nodes as single records
// 2.3 s, as 100 chunk records 0.53 s). gen is a database-wide counter: each
// committed write transaction stamps the sessions it wrote with the highest
// stored gen + 1, so a tab finds what other tabs wrote since it last looked
// by one index read. epoch counts the times a session was replaced as a
// whole (snapshot.load, a fork or clone target, an import).
//
// Version 1 (the foundation release): sessions (meta without folded, epoch,
// gen, op), nodes [sessionId, seq] for every node and [sessionId, "a", seq]
// for every annotation record (added by issue 3 within version 1), snapshots.

/** The database init() uses when no dbName is given. */
export const DB_DEFAULT_NAME = "sessiontree";

/** The schema version this build creates and reads. */
export const DB_VERSION = 3;

/**
 * Milliseconds a Writer keeps the write lock after its queue empties, so
 * that calls made one after another skip the gen read (see Writer). A tab
 * that wants to write asks for it on the BroadcastChannel and gets it at
 * once; the linger only bounds the wait where no channel exists.
 */
const LOCK_LINGER_MS = 250;

/**
 * Milliseconds over which a Writer's commits are announced to other tabs
 * with one BroadcastChannel message (the newest gen): posting after every
 * commit was 6 % of the time of appends made one after another.
 */
const ANNOUNCE_MS = 16;

/** Nodes per chunk record. */
export const CHUNK_SIZE = 1000;

/** The object stores holding sessions (every read and write of them takes all four). */
const STORES = ["sessions", "chunks", "nodes", "annotations"];

/** Separator of the nodes inside a chunk record (node JSON never holds a raw newline). */
const SEP = ",\n";

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();

/**
 * A chunk record's value from its node texts: UTF-8 bytes, so a restore
 * hands the stored bytes to the wasm as they are (a string would be
 * transcoded by TextEncoder on every start-up; for 100,000 nodes of
 * non-ASCII text that took longer than reading the records).
 * @param {string[]} nodes
 * @returns {Uint8Array}
 */
function chunkValue(nodes) {
  return utf8Encoder.encode(nodes.join(SEP));
}

/**
 * The text of a chunk record (a Uint8Array, or a string as written before
 * chunks were bytes).
 * @param {Uint8Array|string} chunk
 * @returns {string}
 */
function chunkText(chunk) {
  return typeof chunk === "string" ? chunk : utf8Decoder.decode(chunk);
}

/**
 * Concatenate texts and byte arrays into one UTF-8 byte array.
 * @param {(string|Uint8Array)[]} parts
 * @returns {Uint8Array}
 */
function concatUTF8(parts) {
  const bytes = parts.map((p) => (typeof p === "string" ? utf8Encoder.encode(p) : p));
  let length = 0;
  for (const b of bytes) length += b.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const b of bytes) {
    out.set(b, at);
    at += b.length;
  }
  return out;
}

/**
 * The key range of every record of one session in "nodes" or "chunks".
 * @param {string} sessionId
 * @param {number} [from] first seq (or chunk start), default 0
 * @returns {IDBKeyRange}
 */
export function nodeRange(sessionId, from = 0) {
  return IDBKeyRange.bound([sessionId, from], [sessionId, Infinity]);
}

/**
 * Stepwise upgrades: upgrades[v](db, tx) brings a database from version v
 * to v+1 inside the versionchange transaction tx.
 */
export const upgrades = [
  // 0 → 1: the first schema.
  (db) => {
    db.createObjectStore("sessions");
    db.createObjectStore("nodes");
    db.createObjectStore("snapshots");
  },
  // 1 → 2: chunk and annotation stores, and gen/epoch/folded on every
  // meta record. The v1 node records stay as they are: they are the tail of
  // a session with folded = 0, and the next write to the session folds them.
  // v1 annotation records ([sessionId, "a", seq] in "nodes") move to the
  // "annotations" store under [sessionId, seq].
  (db, tx) => {
    db.createObjectStore("chunks");
    const annotations = db.createObjectStore("annotations");
    const nodes = tx.objectStore("nodes");
    const sessions = tx.objectStore("sessions");
    sessions.createIndex("gen", "gen");
    sessions.openCursor().onsuccess = (event) => {
      const cursor = event.target.result;
      if (!cursor) return;
      const id = cursor.value.sessionId;
      const v1notes = IDBKeyRange.bound([id, "a", 0], [id, "a", Infinity]);
      nodes.getAll(v1notes).onsuccess = (e) => {
        e.target.result.forEach((a, i) => annotations.put(a, [id, i]));
        nodes.delete(v1notes);
      };
      cursor.update({ annotationCount: 0, ...cursor.value, folded: 0, epoch: 0, gen: 0, op: "upgrade" });
      cursor.continue();
    };
  },
  // 2 → 3: the records stay as they are. Version 3 writers hold a Web Lock
  // while they write and skip the gen read while they hold it; raising the
  // version closes every tab of an earlier build (onversionchange), which
  // would write without taking the lock.
  () => {},
];

const quote = JSON.stringify;

/**
 * Open (creating or upgrading) the database.
 *
 * Rejects with a plain Error when IndexedDB is missing, the open fails, or
 * another tab holds an older version open and blocks the upgrade (reported
 * at once; if that tab lets go later, the late connection is closed again).
 * Once open, a versionchange from a newer tab, or the browser closing the
 * connection, closes it and calls onClose with a message for the user.
 * @param {string} name
 * @param {{onClose?: (reason: string, message: string) => void, version?: number}} [options]
 * @returns {Promise<IDBDatabase>}
 */
export function openDatabase(name, { onClose, version = DB_VERSION } = {}) {
  return new Promise((resolve, reject) => {
    if (!globalThis.indexedDB) {
      reject(new Error("sessiontree: IndexedDB is not available in this browser context; use init({persist: false}) for an in-memory tree"));
      return;
    }
    let req;
    let settled = false;
    const fail = (err) => {
      settled = true;
      reject(err);
    };
    try {
      req = indexedDB.open(name, version);
    } catch (err) {
      fail(new Error(`sessiontree: cannot open IndexedDB database ${quote(name)}: ${err?.message ?? err}`));
      return;
    }
    req.onupgradeneeded = (event) => {
      const db = req.result;
      for (let v = event.oldVersion; v < version; v++) upgrades[v](db, req.transaction);
    };
    req.onblocked = (event) => {
      fail(new Error(`sessiontree: IndexedDB database ${quote(name)} is held open at version ${event.oldVersion} by another tab, which blocks the upgrade to version ${version}; close the other tabs of this site and reload`));
    };
    req.onerror = (event) => {
      event.preventDefault?.();
      if (req.error?.name === "VersionError") {
        fail(new Error(`sessiontree: IndexedDB database ${quote(name)} was stored by a newer version of this site (schema above ${version}); reload the page to get that version`));
        return;
      }
      fail(new Error(`sessiontree: cannot open IndexedDB database ${quote(name)}: ${req.error?.name ?? "Error"}: ${req.error?.message ?? "unknown error"}`));
    };
    req.onsuccess = () => {
      const db = req.result;
      if (settled) {
        db.close(); // the blocked open went through after we gave up on it
        return;
      }
      settled = true;
      db.onversionchange = (event) => {
        db.close();
        onClose?.("versionchange", `a newer version of this site (IndexedDB schema ${event.newVersion ?? "deleted"}) was opened in another tab; this tab no longer saves changes: reload it`);
      };
      db.onclose = () => {
        onClose?.("closed", "the browser closed the IndexedDB database (storage cleared or failing); this tab no longer saves changes: reload it");
      };
      resolve(db);
    };
  });
}

/**
 * Parse the bytes of core's DrainChanges(true) (the handle's drainBytes):
 * per changed session a header line `{sessionId, operation, reset, from,
 * count, annotationFrom, annotationCount, meta}`, then `count` node lines
 * (each but the last ending in ",") and `annotationCount` annotation lines.
 * The node lines stay bytes: `node(i)` decodes node i for its own record,
 * and `chunk(s, e)` copies nodes s to e-1 joined by ",\n" — a chunk
 * record's value — straight out of the drained bytes (a 100,000-node load
 * no longer decodes, splits, joins and encodes 25 MB again).
 * Annotations are decoded (JSON strings, stored as they are).
 * @param {Uint8Array} bytes
 * @returns {{sessionId: string, operation: string, reset: boolean, from: number, count: number, annotationFrom: number, annotationCount: number, meta: object, annotations: string[], node: (i: number) => string, chunk: (s: number, e: number) => Uint8Array}[]}
 */
export function parseChangeBytes(bytes) {
  const blocks = [];
  let pos = 0;
  const lineEnd = () => {
    const end = bytes.indexOf(10, pos);
    if (end < 0) throw new Error("sessiontree: truncated change record");
    return end;
  };
  while (pos < bytes.length) {
    let end = lineEnd();
    const head = JSON.parse(utf8Decoder.decode(bytes.subarray(pos, end)));
    pos = end + 1;
    head.annotationFrom ??= 0;
    head.annotationCount ??= 0;
    const n = head.count;
    const starts = new Int32Array(n);
    const ends = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      end = lineEnd();
      const last = i === n - 1;
      if (!last && bytes[end - 1] !== 44) throw new Error(`sessiontree: change record for session ${quote(head.sessionId)}: node line ${i} does not end in ","`);
      starts[i] = pos;
      ends[i] = last ? end : end - 1;
      pos = end + 1;
    }
    head.annotations = [];
    for (let i = 0; i < head.annotationCount; i++) {
      end = lineEnd();
      head.annotations.push(utf8Decoder.decode(bytes.subarray(pos, end)));
      pos = end + 1;
    }
    head.node = (i) => utf8Decoder.decode(bytes.subarray(starts[i], ends[i]));
    head.chunk = (s, e) => bytes.slice(starts[s], ends[e - 1]);
    blocks.push(head);
  }
  return blocks;
}

/**
 * Wrap a request in a promise. Awaiting it keeps the transaction active:
 * the continuation runs in the microtask checkpoint of the success event.
 * @param {IDBRequest} req
 * @returns {Promise<any>}
 */
function requestPromise(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/**
 * The highest gen stored (0 for none).
 * @param {IDBObjectStore} sessions
 * @returns {Promise<number>}
 */
async function maxGen(sessions) {
  const cursor = await requestPromise(sessions.index("gen").openKeyCursor(null, "prev"));
  return cursor ? cursor.key : 0;
}

/**
 * Read the node records of one session from seq `from` to its end and
 * return them as one string per node.
 * @param {IDBTransaction} tx
 * @param {object} meta
 * @param {number} from
 * @returns {Promise<string[]>}
 */
async function readNodes(tx, meta, from) {
  const id = meta.sessionId;
  const folded = meta.folded ?? 0;
  const out = [];
  if (from < folded) {
    const start = Math.floor(from / CHUNK_SIZE) * CHUNK_SIZE;
    const chunks = await requestPromise(tx.objectStore("chunks").getAll(IDBKeyRange.bound([id, start], [id, folded - 1])));
    for (const c of chunks) for (const n of chunkText(c).split(SEP)) out.push(n);
    out.splice(0, from - start);
  }
  const tail = await requestPromise(tx.objectStore("nodes").getAll(nodeRange(id, Math.max(from, folded))));
  for (const n of tail) out.push(n);
  if (out.length !== meta.nodeCount - from) {
    throw new Error(`session ${quote(id)} has ${out.length + from} stored nodes but its metadata says ${meta.nodeCount}`);
  }
  return out;
}

/**
 * Read the annotation records of one session from seq `from` to its end.
 * @param {IDBTransaction} tx
 * @param {object} meta
 * @param {number} from
 * @returns {Promise<string[]>}
 */
async function readAnnotations(tx, meta, from) {
  const want = (meta.annotationCount ?? 0) - from;
  const out = want > 0 ? await requestPromise(tx.objectStore("annotations").getAll(nodeRange(meta.sessionId, from))) : [];
  if (out.length !== Math.max(want, 0)) {
    throw new Error(`session ${quote(meta.sessionId)} has ${out.length + from} stored annotations but its metadata says ${meta.annotationCount}`);
  }
  return out;
}

/**
 * Read one session whole: its snapshot (version 1) as UTF-8 bytes, rebuilt
 * from its chunk and node records without splitting the chunks.
 * @param {IDBTransaction} tx
 * @param {object} meta
 * @returns {Promise<Uint8Array>}
 */
async function readSnapshot(tx, meta) {
  const id = meta.sessionId;
  const folded = meta.folded ?? 0;
  const [chunks, tail, annotations] = await Promise.all([
    folded > 0 ? requestPromise(tx.objectStore("chunks").getAll(nodeRange(id))) : [],
    requestPromise(tx.objectStore("nodes").getAll(nodeRange(id))),
    readAnnotations(tx, meta, 0),
  ]);
  if (chunks.length * CHUNK_SIZE !== folded || folded + tail.length !== meta.nodeCount) {
    throw new Error(`session ${quote(id)} has ${chunks.length} chunk and ${tail.length} node records but its metadata says ${meta.nodeCount} nodes, ${folded} of them in chunks`);
  }
  const parts = [`{"version":1,"sessionId":${quote(id)},"cursor":${quote(meta.cursor)},"activeBranch":${quote(meta.activeBranch)},"nodes":[`];
  chunks.forEach((c, i) => {
    if (i > 0) parts.push(SEP);
    parts.push(c);
  });
  if (tail.length > 0) parts.push((chunks.length > 0 ? SEP : "") + tail.join(SEP));
  parts.push(annotations.length > 0 ? `],"annotations":[${annotations.join(",")}]}` : "]}");
  return concatUTF8(parts);
}

/**
 * Read every stored session in one read-only transaction.
 * Resolves to {gen, sessions: [{meta, snapshot}]} where snapshot is the
 * session's snapshot (version 1) as UTF-8 bytes and gen the highest stored gen.
 * Rejects, naming the database and the session, when a read fails or a
 * session's records do not match its metadata — a failed read is never
 * an empty store.
 * @param {IDBDatabase} db
 * @returns {Promise<{gen: number, sessions: {meta: object, snapshot: Uint8Array}[]}>}
 */
export async function readAllSessions(db) {
  let tx;
  try {
    tx = db.transaction(STORES, "readonly");
  } catch (err) {
    throw new Error(`sessiontree: cannot read IndexedDB database ${quote(db.name)}: ${err.message}`);
  }
  try {
    const metas = await requestPromise(tx.objectStore("sessions").getAll());
    // Restore in creation order, as the sessions were made.
    metas.sort(byCreation);
    const snapshots = await Promise.all(metas.map((m) => readSnapshot(tx, m)));
    let gen = 0;
    for (const m of metas) gen = Math.max(gen, m.gen ?? 0);
    return { gen, sessions: metas.map((meta, i) => ({ meta, snapshot: snapshots[i] })) };
  } catch (err) {
    throw new Error(`sessiontree: reading IndexedDB database ${quote(db.name)} failed, nothing was changed: ${err?.message ?? err}`);
  }
}

/** What a tab remembers of a stored session, from its meta record. */
function diskState(meta) {
  return { epoch: meta.epoch ?? 0, count: meta.nodeCount, folded: meta.folded ?? 0, acount: meta.annotationCount ?? 0 };
}

function byCreation(a, b) {
  return a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0;
}

/**
 * Build the request of core's "restore" for a stored session, as UTF-8
 * bytes around the snapshot's bytes (never re-encoding the snapshot).
 * @param {object} meta
 * @param {Uint8Array} snapshot the snapshot's UTF-8 bytes (see readSnapshot)
 * @returns {Uint8Array}
 */
export function restoreRequest(meta, snapshot) {
  const head = JSON.stringify({ operation: "restore", title: meta.title, createdAt: meta.createdAt, updatedAt: meta.updatedAt });
  return concatUTF8([head.slice(0, -1) + ',"snapshot":', snapshot, "}"]);
}

/** Operations that record something without moving the cursor. */
const KEEPS_CURSOR = new Set(["label", "hide", "prefer"]);

/** The error code of envelopes for a change that could not be stored. */
export const STORAGE_ERROR = "STORAGE_ERROR";

/**
 * The envelope a mutating call resolves to when its transaction failed.
 * @param {unknown} err the transaction's error (a DOMException) or an Error
 * @returns {{ok: false, error: {code: string, message: string}}}
 */
export function storageErrorEnvelope(err) {
  const name = err?.name ?? "Error";
  const detail = err?.message ? `: ${err.message}` : "";
  const what = name === "QuotaExceededError"
    ? "storage full: the browser's storage quota for this site is used up (QuotaExceededError)"
    : `storage error: IndexedDB failed (${name}${detail})`;
  return { ok: false, error: { code: STORAGE_ERROR, message: `${what}; the change was not saved and was undone` } };
}

/**
 * Runs every mutating call of one tree inside an IndexedDB readwrite
 * transaction, so that memory (the wasm core) and disk move together and
 * several tabs on one database never overwrite each other:
 *
 * 1. The transaction reads the highest stored gen. When it differs from the
 *    one this tab last saw, another tab wrote: the sessions stamped with a
 *    newer gen are read and taken into core first (new nodes through
 *    "sync.merge", a replaced or unknown session through "restore").
 * 2. The queued calls run in core, in order; their changes are drained.
 * 3. The changed records are written in the same transaction (durability
 *    "strict") and every written session is stamped with gen + 1.
 *
 * Readwrite transactions on overlapping stores run one at a time across
 * every tab of the origin (IndexedDB's own locking), so step 1–3 is atomic:
 * a node's seq is the same in memory and on disk in every tab, and ids are
 * drawn knowing every stored node. Calls that arrive while a transaction
 * runs are batched into the next one; each resolves after the transaction
 * holding it commits ("resolved" means "on disk"). If it aborts (quota,
 * closed connection), each call that changed something resolves to a
 * STORAGE_ERROR envelope and the sessions it touched are read back from
 * disk into core, so memory again equals what is stored.
 *
 * After commits the tab posts {gen} (the newest, at most one message per
 * ANNOUNCE_MS, and at close) on the BroadcastChannel "sessiontree:" +
 * dbName; the other tabs then pull the changes (a read-only transaction
 * doing step 1) and report them to subscribers.
 *
 * The write lock. Step 1's read costs a round trip to the IndexedDB
 * backend per transaction — a third of an append awaited in turn. Every
 * Writer of schema version 3 writes only while it holds the exclusive Web
 * Lock "sessiontree-write:" + dbName (navigator.locks; earlier builds are
 * shut out by the schema version). Once a transaction under the lock has
 * read the gen, no other tab can write until this one lets go, so the
 * following transactions under the same hold skip the read and write
 * gen + 1 straight away (and call IDBTransaction.commit() after their
 * last request instead of waiting for the auto-commit). The lock is kept
 * LOCK_LINGER_MS after the queue empties; a tab that wants to write posts
 * {want: true} on the channel before asking for the lock, and the holder
 * lets go after its current transaction. A want can reach a tab that is
 * itself still waiting for the lock (it keeps it for when it is granted),
 * or be used up by a holder that lets go to a third request: so a waiting
 * tab asks again whenever another tab reports a write, and every
 * LOCK_LINGER_MS. Without that, a tab calling more often than every
 * LOCK_LINGER_MS kept the lock until it stopped (745 appends to 2).
 * Without navigator.locks every transaction reads the gen, as above; where
 * the lock manager refuses the request, the calls waiting for the lock
 * resolve to a STORAGE_ERROR envelope and change nothing (writing without
 * the lock could overwrite what the holder's tab writes without reading).
 */
export class Writer {
  /**
   * @param {IDBDatabase} db
   * @param {{call: (text: string) => string, importText?: Function, drain: (withNodes: boolean) => string}} handle the wasm store handle
   * @param {{gen: number, metas: object[], emit: (event: object) => void}} options
   *   gen and metas as read by readAllSessions; emit is called for every committed change, local or remote
   */
  constructor(db, handle, { gen, metas, emit }) {
    this.db = db;
    this.handle = handle;
    this.gen = gen;
    /** @type {Map<string, {epoch: number, count: number, folded: number, acount: number}>} disk state per session as this tab last saw it */
    this.known = new Map();
    for (const m of metas) this.known.set(m.sessionId, diskState(m));
    /** Sessions whose cursor this tab moved itself: it keeps its own; the others follow the stored one. */
    this.owned = new Set();
    this.emit = emit;
    this.queue = [];
    this.running = null;
    this.pullQueued = null;
    /** Why this tab no longer writes (null while it does). */
    this.closedReason = null;
    this.channel = null;
    if (typeof BroadcastChannel === "function") {
      this.channel = new BroadcastChannel("sessiontree:" + db.name);
      this.channel.onmessage = (event) => {
        if (event.data?.want) return this._wanted();
        // Another tab wrote while this one waits for the lock: it holds the
        // lock, perhaps without having heard this tab ask (see _takeLock).
        if (this.taking) this._askForLock();
        this.pull();
      };
    }
    /** The Web Locks manager, or null where there is none (every transaction then reads the gen). */
    this.locks = globalThis.navigator?.locks ?? null;
    this.lockName = "sessiontree-write:" + db.name;
    /** Resolves the held lock's callback (lets go of it); null while the lock is not held. */
    this.releaseLock = null;
    /** True once a transaction under the held lock read the gen: later ones skip the read. */
    this.verified = false;
    /** Another tab asked for the lock: let go after the current transaction. */
    this.wantedByOther = false;
    /** True while this tab waits for the lock (a want heard then is kept for when it is granted). */
    this.taking = false;
    this.lingerTimer = null;
    /** performance.now() when the queue last emptied (the linger counts from there). */
    this.lastBusy = 0;
    this.announceTimer = null;
    this.announceGen = 0;
    /** Write transactions that read the gen and those that skipped it under the lock, and waits for the lock (for tests and benchmarks). */
    this.stats = { genReads: 0, genSkipped: 0, lockWaits: 0 };
  }

  /** True when no call is queued or running. */
  get idle() {
    return this.running === null && this.queue.length === 0;
  }

  /**
   * Queue a call: fn runs the core call (returning its envelope text) inside
   * the next transaction. Resolves to the envelope's JSON text.
   * @param {() => string} fn
   * @returns {Promise<string>}
   */
  run(fn) {
    return new Promise((resolve) => {
      this.queue.push({ fn, resolve });
      this._kick();
    });
  }

  /** Take in what other tabs stored (queued like a call). @returns {Promise<void>} */
  pull() {
    if (this.closedReason) return Promise.resolve();
    if (!this.pullQueued) {
      this.pullQueued = new Promise((resolve) => {
        this.queue.push({ fn: null, resolve });
        this._kick();
      });
    }
    return this.pullQueued;
  }

  /** Resolves when every queued call has settled. */
  async flush() {
    while (this.running) await this.running;
  }

  /**
   * Stop writing: later calls that change something resolve to a
   * STORAGE_ERROR envelope naming reason; nothing is changed in memory.
   * @param {string} reason
   */
  close(reason) {
    if (!this.closedReason) this.closedReason = reason;
    this._announceNow();
    this.channel?.close();
    this.channel = null;
    if (this.idle) this._letGo();
  }

  _kick() {
    if (!this.running) this.running = this._loop();
  }

  async _loop() {
    await Promise.resolve(); // let calls made in the same task join the batch
    while (this.queue.length > 0) {
      let refused = null;
      if (!this.releaseLock && this.locks && !this.closedReason && this.queue.some((j) => j.fn !== null)) refused = await this._takeLock();
      let batch = this.queue.splice(0);
      if (batch.some((j) => j.fn === null)) this.pullQueued = null;
      if (refused) {
        // Never write without the lock: the tab holding it skips the gen
        // read, and would write over what this one stored.
        const env = JSON.stringify({ ok: false, error: { code: STORAGE_ERROR, message: `storage error: the lock for writing could not be taken (${refused}); the change was not made` } });
        for (const j of batch) if (j.fn) j.resolve(env);
        batch = batch.filter((j) => j.fn === null);
      }
      if (batch.length > 0) await this._batch(batch);
      if (this.wantedByOther || this.closedReason) this._letGo();
    }
    this.running = null;
    this.lastBusy = performance.now();
    if (this.releaseLock && this.lingerTimer === null) this.lingerTimer = setTimeout(() => this._linger(), LOCK_LINGER_MS);
  }

  /**
   * The linger timer: let go of the lock once the queue has been empty for
   * LOCK_LINGER_MS. One timer per linger period, not one per call: calls
   * made one after another only move lastBusy.
   */
  _linger() {
    this.lingerTimer = null;
    if (!this.releaseLock || !this.idle) return; // let go already, or busy: _loop arms it again
    const left = LOCK_LINGER_MS - (performance.now() - this.lastBusy);
    if (left > 1) this.lingerTimer = setTimeout(() => this._linger(), left);
    else this._letGo();
  }

  /** Tell other tabs, within ANNOUNCE_MS, that this one committed gen. */
  _announce(gen) {
    this.announceGen = gen;
    if (this.announceTimer === null) this.announceTimer = setTimeout(() => this._announceNow(), ANNOUNCE_MS);
  }

  /** Post the pending announcement now (if any). */
  _announceNow() {
    if (this.announceTimer === null) return;
    clearTimeout(this.announceTimer);
    this.announceTimer = null;
    this.channel?.postMessage({ gen: this.announceGen });
  }

  /**
   * Wait for the write lock (asking its holder to let go, again every
   * LOCK_LINGER_MS while waiting); unverified until a transaction reads the
   * gen. Another tab's want heard while waiting is kept: that tab may have
   * asked while this one was not yet holding, and is queued behind it.
   * Resolves to null, or to the reason when the lock manager refused the
   * request (the calls waiting for the lock are then refused; the next
   * ones ask again).
   * @returns {Promise<string|null>}
   */
  async _takeLock() {
    let refused = null;
    this.stats.lockWaits++;
    this.wantedByOther = false;
    this.taking = true;
    this._askForLock();
    const again = setInterval(() => this._askForLock(), LOCK_LINGER_MS);
    try {
      await new Promise((granted, refused) => {
        this.locks
          .request(this.lockName, () => new Promise((letGo) => {
            this.releaseLock = letGo;
            granted();
          }))
          .catch(refused);
      });
    } catch (err) {
      console.warn("sessiontree: the Web Lock for writing could not be taken; the calls waiting for it are refused", err);
      refused = `${err?.name ?? "Error"}: ${err?.message ?? err}`;
    } finally {
      clearInterval(again);
      this.taking = false;
    }
    this.verified = false;
    return refused;
  }

  /** Ask the tab holding the write lock to let go of it. */
  _askForLock() {
    this.channel?.postMessage({ want: true });
  }

  /** Let go of the write lock (if held). */
  _letGo() {
    clearTimeout(this.lingerTimer);
    this.lingerTimer = null;
    const letGo = this.releaseLock;
    this.releaseLock = null;
    this.verified = false;
    this.wantedByOther = false;
    letGo?.();
  }

  /** Another tab asked for the write lock: let go now when idle, else after the current transaction (or after the first one under the lock this tab waits for). */
  _wanted() {
    if (this.taking) {
      this.wantedByOther = true;
      return;
    }
    if (!this.releaseLock) return;
    if (this.idle) this._letGo();
    else this.wantedByOther = true;
  }

  async _batch(batch) {
    if (this.closedReason) {
      for (const j of batch) {
        if (j.fn) j.resolve(JSON.stringify({ ok: false, error: { code: STORAGE_ERROR, message: `storage error: ${this.closedReason}; the change was not made` } }));
        else j.resolve();
      }
      return;
    }
    const writes = batch.some((j) => j.fn !== null);
    const pulled = new Map(); // sessionId → disk state, once committed
    const written = new Map();
    const remote = [];
    const local = [];
    let failure = null;
    let tx;
    try {
      tx = this.db.transaction(STORES, writes ? "readwrite" : "readonly", writes ? { durability: "strict" } : undefined);
    } catch (err) {
      failure = err;
    }
    let newGen = this.gen;
    if (tx) {
      const done = new Promise((resolve, reject) => {
        tx.oncomplete = () => resolve();
        tx.onabort = () => reject(tx.error); // null when we aborted it ourselves
      });
      done.catch(() => {});
      try {
        const sessions = tx.objectStore("sessions");
        // Under the held, verified lock no other tab has written since this
        // tab's last commit: the stored gen is this.gen (see the class doc).
        const skip = writes && this.releaseLock !== null && this.verified;
        const diskGen = skip ? this.gen : await maxGen(sessions);
        if (writes) this.stats[skip ? "genSkipped" : "genReads"]++;
        if (diskGen !== this.gen) await this._pull(tx, pulled, remote);
        newGen = diskGen;
        for (const j of batch) {
          if (!j.fn) continue;
          j.text = j.fn();
          j.blocks = parseChangeBytes(this.handle.drainBytes());
          for (const b of j.blocks) local.push(b);
        }
        if (local.length > 0) {
          newGen = diskGen + 1;
          await this._write(tx, local, newGen, pulled, written);
        }
        // Every request is made: commit now rather than after their results
        // come back (IndexedDB 3; older browsers auto-commit as before).
        if (writes && typeof tx.commit === "function") tx.commit();
      } catch (err) {
        failure = err;
        try {
          tx.abort();
        } catch {
          // already finished
        }
      }
      try {
        await done;
      } catch (err) {
        // The transaction's own error (QuotaExceededError) says most; null
        // when we aborted it after an error of ours.
        failure = err ?? failure ?? new DOMException("the transaction was aborted", "AbortError");
      }
    }
    if (failure) {
      const touched = new Set([...pulled.keys(), ...local.map((b) => b.sessionId)]);
      await this._rollback(touched);
      const env = JSON.stringify(storageErrorEnvelope(failure));
      for (const j of batch) {
        if (!j.fn) j.resolve();
        else if (j.text !== undefined && (j.text.startsWith('{"ok":false') || j.blocks?.length === 0)) j.resolve(j.text); // failed or changed nothing: its own answer
        else j.resolve(env);
      }
      if (!(failure instanceof DOMException)) console.error("sessiontree: write failed", failure);
      this.verified = false;
      return;
    }
    this.gen = newGen;
    if (writes && this.releaseLock !== null) this.verified = true;
    for (const [id, k] of pulled) this.known.set(id, k);
    for (const [id, k] of written) this.known.set(id, k);
    for (const b of local) if (!KEEPS_CURSOR.has(b.operation)) this.owned.add(b.sessionId);
    for (const e of remote) this.emit(e);
    for (const b of local) this.emit({ type: b.operation, sessionId: b.sessionId, nodeId: b.meta.cursor ?? undefined });
    if (local.length > 0) this._announce(newGen);
    for (const j of batch) j.resolve(j.fn ? j.text : undefined);
  }

  /** Step 1: take into core every session another tab wrote since this.gen. */
  async _pull(tx, pulled, remote) {
    const metas = await requestPromise(tx.objectStore("sessions").index("gen").getAll(IDBKeyRange.lowerBound(this.gen, true)));
    metas.sort(byCreation);
    for (const meta of metas) {
      const id = meta.sessionId;
      const k = this.known.get(id);
      const state = diskState(meta);
      if (k && k.epoch === state.epoch && k.count === state.count && k.acount === state.acount) {
        pulled.set(id, state);
        continue; // only the other tab's cursor moved: each tab keeps its own
      }
      let env;
      if (k && k.epoch === state.epoch && k.count <= state.count && k.acount <= state.acount) {
        const nodes = await readNodes(tx, meta, k.count);
        const annotations = await readAnnotations(tx, meta, k.acount);
        const follow = this.owned.has(id) ? {} : { cursor: meta.cursor ?? "", activeBranch: meta.activeBranch };
        const req = JSON.stringify({ operation: "sync.merge", sessionId: id, nodes: "__N__", annotations: "__A__", title: meta.title, updatedAt: meta.updatedAt, ...follow })
          .replace('"__N__"', () => "[" + nodes.join(",") + "]")
          .replace('"__A__"', () => "[" + annotations.join(",") + "]");
        env = JSON.parse(this.handle.call(req));
      } else {
        env = JSON.parse(this.handle.call(restoreRequest(meta, await readSnapshot(tx, meta))));
        this.owned.delete(id); // replaced as a whole: start from the writer's cursor
      }
      if (!env.ok) throw new Error(`stored session ${quote(id)} written by another tab could not be taken in (${env.error.code}: ${env.error.message})`);
      pulled.set(id, state);
      remote.push({ type: meta.op ?? "sync", sessionId: id, nodeId: meta.cursor ?? undefined, remote: true });
    }
  }

  /** Step 3: write the drained change blocks. */
  async _write(tx, blocks, gen, pulled, written) {
    const sessions = tx.objectStore("sessions");
    const chunks = tx.objectStore("chunks");
    const nodes = tx.objectStore("nodes");
    const notes = tx.objectStore("annotations");
    const metas = new Map(); // sessionId → its meta record: one put per session, the last block's
    for (const b of blocks) {
      const id = b.sessionId;
      const k = written.get(id) ?? pulled.get(id) ?? this.known.get(id);
      let state;
      if (b.reset || !k) {
        if (b.from !== 0) throw new Error(`internal: a new session ${quote(id)} starts at node ${b.from}`);
        chunks.delete(nodeRange(id));
        nodes.delete(nodeRange(id));
        notes.delete(nodeRange(id));
        b.annotations.forEach((a, i) => notes.put(a, [id, i]));
        const folded = Math.floor(b.count / CHUNK_SIZE) * CHUNK_SIZE;
        for (let s = 0; s < folded; s += CHUNK_SIZE) chunks.put(b.chunk(s, s + CHUNK_SIZE), [id, s]);
        for (let s = folded; s < b.count; s++) nodes.put(b.node(s), [id, s]);
        state = { epoch: (k?.epoch ?? 0) + (b.reset ? 1 : 0), count: b.count, folded, acount: b.annotations.length };
      } else {
        if (b.from !== k.count) throw new Error(`internal: session ${quote(id)} has ${k.count} stored nodes but the change starts at ${b.from}`);
        if (b.annotationFrom !== k.acount) throw new Error(`internal: session ${quote(id)} has ${k.acount} stored annotations but the change starts at ${b.annotationFrom}`);
        for (let i = 0; i < b.count; i++) nodes.put(b.node(i), [id, b.from + i]);
        b.annotations.forEach((a, i) => notes.put(a, [id, b.annotationFrom + i]));
        state = { epoch: k.epoch, count: b.from + b.count, folded: k.folded, acount: b.annotationFrom + b.annotations.length };
        while (state.count - state.folded >= CHUNK_SIZE) {
          const range = IDBKeyRange.bound([id, state.folded], [id, state.folded + CHUNK_SIZE - 1]);
          const list = await requestPromise(nodes.getAll(range));
          if (list.length !== CHUNK_SIZE) throw new Error(`session ${quote(id)}: folding nodes ${state.folded}… found ${list.length} records`);
          chunks.put(chunkValue(list), [id, state.folded]);
          nodes.delete(range);
          state.folded += CHUNK_SIZE;
        }
      }
      if (b.meta.nodeCount !== state.count || (b.meta.annotationCount ?? 0) !== state.acount) {
        throw new Error(`internal: session ${quote(id)} has ${b.meta.nodeCount} nodes and ${b.meta.annotationCount} annotations in memory but ${state.count} and ${state.acount} stored`);
      }
      metas.set(id, { ...b.meta, folded: state.folded, epoch: state.epoch, gen, op: b.operation });
      written.set(id, state);
    }
    for (const [id, meta] of metas) sessions.put(meta, id);
  }

  /**
   * After a failed transaction: read the touched sessions back from disk
   * and put them into core as stored (forgetting those not stored), so
   * memory equals disk again. If even that read fails the tree stops
   * writing.
   */
  async _rollback(ids) {
    if (ids.size === 0) return;
    try {
      const tx = this.db.transaction(STORES, "readonly");
      const sessions = tx.objectStore("sessions");
      for (const id of ids) {
        const meta = await requestPromise(sessions.get(id));
        let env;
        if (!meta) {
          env = JSON.parse(this.handle.call(JSON.stringify({ operation: "sync.forget", sessionId: id })));
          if (!env.ok && env.error.code === "SESSION_NOT_FOUND") env = { ok: true };
          this.known.delete(id);
        } else {
          env = JSON.parse(this.handle.call(restoreRequest(meta, await readSnapshot(tx, meta))));
          this.known.set(id, diskState(meta));
        }
        if (!env.ok) throw new Error(`${env.error.code}: ${env.error.message}`);
      }
      this.handle.drain(false);
    } catch (err) {
      this.close(`memory could not be brought back to what is stored after a failed write (${err?.message ?? err}); reload the page`);
      this.emit({ type: "storage", state: "closed", reason: "rollback", message: this.closedReason });
    }
  }

  /** @param {object} record @returns {Promise<void>} */
  putSnapshot(record) {
    return this._simple("readwrite", (store) => store.put(record, [record.sessionId, record.name]));
  }

  /** @param {string} sessionId @returns {Promise<object[]>} */
  listSnapshots(sessionId) {
    return this._simple("readonly", (store) => store.getAll(IDBKeyRange.bound([sessionId, ""], [sessionId, []])));
  }

  /** @param {string} sessionId @param {string} name @returns {Promise<object|undefined>} */
  getSnapshot(sessionId, name) {
    return this._simple("readonly", (store) => store.get([sessionId, name]));
  }

  _simple(mode, fn) {
    return new Promise((resolve, reject) => {
      const tx = this.db.transaction(["snapshots"], mode, mode === "readwrite" ? { durability: "strict" } : undefined);
      const req = fn(tx.objectStore("snapshots"));
      let result;
      req.onsuccess = () => {
        result = req.result;
      };
      tx.oncomplete = () => resolve(result);
      tx.onabort = () => reject(new Error(`sessiontree: IndexedDB snapshot store: ${tx.error?.message ?? "aborted"}`));
    });
  }
}
