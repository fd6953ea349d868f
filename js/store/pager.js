// Sessions paged on demand (issue 24). At start-up the store reads only
// the meta record of each stored session (readMetas, or takeMetas of the
// records the page read for its list) and hands core a
// stub per session (core's internal page.stub: id, title, times, node
// count, cursor, active branch), so `sessions` is answered before any node
// record is read. A call that needs a stub's nodes fails inside core with
// the internal code PAGED_OUT having changed nothing; the shim (js/local.js)
// asks core which sessions it needed (page.faults), loads them (Pager.load:
// the records read as today's restore reads them, handed to core's
// restore) and runs the call again. Sessions not used recently go back to
// being stubs (page.out) once the loaded ones pass the budget. Loads and
// evictions run between the Writer's transactions (Writer.between), so a
// paged-in session is exactly what the next transaction finds stored; what
// other tabs store for a stub only updates its summary (take-in.js).

import { STORES } from "./schema.js";
import { ENVELOPE_FAILED_HEAD, PAGED_OUT } from "../protocol.js";
import { diskState, maxGen, mergeRequest, readCounts, readNodes, readSnapshot, requestPromise, restoreRequest } from "./records.js";
import { liveMetas, readRecords } from "./listing.js";
import { keptListOf, keptListStale } from "./list-keep.js";
import { loadedEvent } from "./take-in.js";

const utf8Encoder = new TextEncoder();

/** Bytes a stored node is taken to hold when a session's size is not known from a load (see Pager.touch). */
const NODE_BYTES = 400;

/** The head of an envelope of a call that needed a paged-out session (core.PagedOut), from the contract. */
export const PAGED_OUT_HEAD = ENVELOPE_FAILED_HEAD + JSON.stringify(PAGED_OUT);

/**
 * Read the meta record of every stored session (no node record: from the
 * kept list and the records written since when there is one,
 * store/listing.js readRecords), in creation order, and the highest stored gen; erased sessions' tombstones
 * are left out (their gen counts), and sessions in the trash are read
 * whole (`trashed: [{meta, snapshot}]`, core restores them into its trash). A meta written with tail:
 * true is brought up to date from the node records stored after its
 * nodeCount (deriveTail; the only node records read, and only for a tab
 * killed before its meta flush).
 * keep: the JSON of every record read, their gen and their sessionIds when
 * the kept list is to be written again (store/list-keep.js keptListStale,
 * keptListOf), else null.
 * Rejects, naming the database, when the read fails.
 * @param {IDBDatabase} db
 * @returns {Promise<{gen: number, metas: object[], trashed: {meta: object, snapshot: Uint8Array}[], keep: {json: string, gen: number, ids: string[]}|null}>}
 */
export function readMetas(db) {
  return startRead(db, null);
}

/**
 * What readMetas would read, from the meta records `all` that the page
 * read in its own thread (js/store/listing.js readList) while this one
 * started: the store is read once, not twice at the same time. Only the
 * gen is read again (and the sessions in the trash, whole, and the node
 * records after a meta with `tail: true`, as readMetas does), in one
 * read-only transaction. Resolves to null, having read nothing else,
 * when the stored gen is no longer the one of `all` (another tab wrote
 * since the page read them): then readMetas reads the store itself. The
 * caller listens to other tabs from before this call (js/local.js
 * create), so nothing written after it goes unheard. Rejects, naming the
 * database, when the read fails.
 * @param {IDBDatabase} db @param {object[]} all every record of the "sessions" store, as stored
 * @returns {Promise<{gen: number, metas: object[], trashed: {meta: object, snapshot: Uint8Array}[], keep: {json: string, gen: number, ids: string[]}|null}|null>}
 */
export function takeMetas(db, all) {
  return startRead(db, all);
}

/**
 * readMetas (all null) and takeMetas: one read-only transaction.
 * @param {IDBDatabase} db @param {object[]|null} all
 */
async function startRead(db, all) {
  const tx = readTransaction(db);
  try {
    const records = all ?? (await readRecords(tx, null));
    const { gen, metas } = liveMetas(records);
    if (all && (await maxGen(tx.objectStore("sessions"))) !== gen) return null;
    readCounts[all ? "given" : "metas"]++;
    // Taken before a tail is brought up to date in place, and before the Writer holds the records.
    const keep = (await keptListStale(tx, records.length)) ? keptListOf(records, gen) : null;
    await Promise.all(metas.filter((m) => m.tail === true).map((m) => readNodes(tx, m, m.nodeCount)));
    // Sessions in the trash are read whole: core keeps them in its trash, never as stubs.
    // One whose records disagree stays on disk, out of the trash core shows, not failing the start.
    const inTrash = metas.filter((m) => m.deletedAt);
    const snapshots = await Promise.all(inTrash.map((m) => readSnapshot(tx, m).catch(() => null)));
    return { gen, metas, trashed: inTrash.map((meta, i) => ({ meta, snapshot: snapshots[i] })).filter((t) => t.snapshot !== null), keep };
  } catch (err) {
    throw new Error(`sessiontree: reading IndexedDB database ${JSON.stringify(db.name)} failed, nothing was changed: ${err?.message ?? err}`);
  }
}

/** A read-only transaction over every session store and the kept list's, or the error naming the database. @param {IDBDatabase} db */
function readTransaction(db) {
  try {
    return db.transaction([...STORES, "search"], "readonly");
  } catch (err) {
    throw new Error(`sessiontree: cannot read IndexedDB database ${JSON.stringify(db.name)}: ${err.message}`);
  }
}

/**
 * The summary core's page.stub takes for a stored meta record: its id,
 * title, times, node count, tool, project and source, and its cursor and
 * branch when followed (a tab that moved the cursor keeps its own).
 * @param {object} m @param {boolean} follow
 * @returns {object}
 */
function stubSummary(m, follow) {
  const e = { sessionId: m.sessionId, title: m.title ?? "", createdAt: m.createdAt, updatedAt: m.updatedAt, nodeCount: m.nodeCount };
  if (m.tool) e.tool = m.tool; // the import's tool and project (core/internal/tree/origin.go)
  if (m.project) e.project = m.project;
  if (m.source) e.source = m.source; // the family of a stub needs no load
  if (follow) {
    e.cursor = m.cursor ?? "";
    e.activeBranch = m.activeBranch;
  }
  return e;
}

/**
 * The request of core's internal page.stub for stored meta records: each
 * session's summary (stubSummary), its cursor and branch unless follow
 * says to keep the stub's own. For one or a few sessions (another tab's);
 * start-up sends every session packed (packStubs).
 * @param {object[]} metas
 * @param {(meta: object) => boolean} [follow] default: take every stored cursor
 * @returns {Uint8Array}
 */
export function stubRequest(metas, follow = () => true) {
  return utf8Encoder.encode(JSON.stringify({ operation: "page.stub", sessions: metas.map((m) => stubSummary(m, follow(m))) }));
}

/** Flags of a packed summary: which optional members follow (core/internal/store/paging_packed.go StubHas…). */
const HAS_TITLE = 1, HAS_CURSOR = 2, HAS_BRANCH = 4, HAS_SOURCE = 8, HAS_SOURCE_NODE = 16;

/**
 * Stored meta records as the packed summaries of the handle's pageStub
 * (core.Store.PageStubPacked, whose doc gives the layout: little-endian
 * uint32 counts and byte lengths, UTF-8 strings), the same summaries
 * stubRequest writes as JSON, every cursor taken. At 10,000 sessions a
 * fresh wasm reads this in a fraction of the JSON's time. A member that is
 * not a string is written as JSON would leave it for core to refuse: a
 * node count that is not a non-negative integer as 0xFFFFFFFF; any other
 * non-string as if absent (JSON.stringify drops undefined too).
 * @param {object[]} metas
 * @returns {Uint8Array}
 */
export function packStubs(metas) {
  const entries = metas.map((m) => stubSummary(m, true));
  // Room for the worst case (3 bytes per UTF-16 unit), filled in one pass.
  const len = (v) => (typeof v === "string" ? v.length : 0);
  let room = 4;
  for (const e of entries) {
    const src = e.source && typeof e.source === "object" ? e.source : null;
    room += 5 + 4 * 11 + 3 * (len(e.sessionId) + len(e.title) + len(e.createdAt) + len(e.updatedAt) + len(e.cursor) + len(e.activeBranch) + len(e.tool) + len(e.project));
    if (src) room += 3 * (len(src.sessionId) + len(src.nodeId) + len(src.via));
  }
  const out = new Uint8Array(room);
  const view = new DataView(out.buffer);
  let at = 4;
  /** Write v (not a string: "") as its UTF-8 length and bytes; ASCII by hand, as encodeInto per short string costs more. */
  const str = (v) => {
    const s = typeof v === "string" ? v : "";
    let i = 0, p = at + 4;
    for (; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) break;
      out[p++] = c;
    }
    if (i < s.length) p += utf8Encoder.encodeInto(s.slice(i), out.subarray(p)).written;
    view.setUint32(at, p - at - 4, true);
    at = p;
  };
  view.setUint32(0, entries.length, true);
  for (const e of entries) {
    const n = e.nodeCount == null ? 0 : Number.isInteger(e.nodeCount) && e.nodeCount >= 0 && e.nodeCount < 0xffffffff ? e.nodeCount : 0xffffffff;
    const src = e.source && typeof e.source === "object" ? e.source : null;
    const flags = HAS_TITLE | HAS_CURSOR | (typeof e.activeBranch === "string" ? HAS_BRANCH : 0) | (src ? HAS_SOURCE : 0) | (typeof src?.nodeId === "string" ? HAS_SOURCE_NODE : 0);
    view.setUint32(at, n, true);
    out[at + 4] = flags;
    at += 5;
    str(e.sessionId);
    str(e.title);
    str(e.createdAt);
    str(e.updatedAt);
    str(e.cursor);
    if (flags & HAS_BRANCH) str(e.activeBranch);
    str(e.tool);
    str(e.project);
    if (src) {
      str(src.sessionId);
      if (flags & HAS_SOURCE_NODE) str(src.nodeId);
      str(src.via);
    }
  }
  return out.subarray(0, at);
}

/**
 * Nodes read into core at a time by Pager.indexThrough (~2.5 KB of wasm
 * memory each while loaded), fewer when the page budget holds fewer
 * (pageBudget / NODE_BYTES).
 */
const INDEX_BATCH_NODES = 50_000;

/**
 * Which sessions of one tree are stubs in core, which are loaded (least
 * recently used first) and how many bytes the loaded ones weigh; loads and
 * evicts them. One per LocalTree with a Writer.
 */
export class Pager {
  /**
   * @param {IDBDatabase} db
   * @param {{callInternal: (request: string|Uint8Array) => string}} handle the wasm store handle
   * @param {import("./writer.js").Writer} writer
   * @param {{metas: object[], budget: number, onLoaded?: () => void}} options metas: the sessions core holds as stubs;
   *   budget: bytes of stored session records (their snapshot's size) kept loaded before the least recently used are paged out;
   *   onLoaded: called after sessions were loaded (LocalTree builds their search index then)
   */
  constructor(db, handle, writer, { metas, budget, onLoaded = null }) {
    this.db = db;
    this.onLoaded = onLoaded;
    this.handle = handle;
    this.writer = writer;
    this.budget = budget;
    /** Ids of the sessions core holds as stubs. */
    this.paged = new Set(metas.map((m) => m.sessionId));
    /** @type {Map<string, number>} loaded session → its bytes, least recently used first */
    this.lru = new Map();
    this.bytes = 0;
    /** @type {Map<string, Promise<void>>} loads under way: calls naming the same session wait on the same one */
    this.loading = new Map();
    /** Sessions loaded for calls that have not run again yet: never paged out meanwhile. */
    this.pinned = new Map();
    /** The cursor and branch this tab had in a session it moved the cursor of, when it was paged out. */
    this.own = new Map();
    this.evicting = null;
    /** Whether the wasm compiled the code of a load ahead (handle.warmLoad, at the first). */
    this.warmed = false;
    /** Bytes drained for sessions not weighed yet (the Writer's onSizes), taken by touch. */
    this.sizes = new Map();
    writer.onSizes = (sizes) => this._sized(sizes);
    /**
     * Loads, sessions loaded, sessions paged out, the milliseconds loads
     * took and the part of them core took to restore what was read, indexThrough's batches, the most sessions loaded at the end of
     * one and the milliseconds their page-outs took (core indexes them
     * then), for tests and benchmarks.
     */
    this.stats = { loads: 0, loaded: 0, evictions: 0, loadMs: 0, takeMs: 0, batches: 0, batchPeak: 0, batchOutMs: 0 };
  }

  /** @param {string} id @returns {boolean} whether core holds session id as a stub */
  isPaged(id) {
    return this.paged.has(id);
  }

  /**
   * A call used session id, or changed it (then it is in core, whole): it
   * becomes the most recently used. Its weight is what its load read,
   * else what was drained for it (_sized), else NODE_BYTES a stored node.
   * @param {string} id
   */
  touch(id) {
    if (this.paged.has(id)) return;
    const had = this.lru.get(id);
    const bytes = had ?? this.sizes.get(id) ?? (this.writer.known.get(id)?.count ?? 0) * NODE_BYTES;
    this.sizes.delete(id);
    this.lru.delete(id);
    this.lru.set(id, bytes);
    if (had === undefined) this.bytes += bytes;
    this._evictSoon();
  }

  /**
   * A committed write drained `sizes` (bytes of node lines per session):
   * a session loaded weighs that much more; one not weighed yet takes it
   * when it is touched. An import's sessions are weighed by what they
   * hold, not by NODE_BYTES a node (a coding agent's node, its source
   * kept, is several kilobytes).
   * @param {Map<string, number>} sizes
   */
  _sized(sizes) {
    for (const [id, n] of sizes) {
      const had = this.lru.get(id);
      if (had === undefined) {
        if (!this.paged.has(id)) this.sizes.set(id, (this.sizes.get(id) ?? 0) + n);
        continue;
      }
      this.lru.set(id, had + n);
      this.bytes += n;
    }
    this._evictSoon();
  }

  /** A local change made session id whole in core (a snapshot.load over a stub, an import). @param {string} id */
  changed(id) {
    if (this.paged.delete(id)) this.own.delete(id);
    this.touch(id);
  }

  /** Session id left core (sync.forget). @param {string} id */
  forget(id) {
    this.paged.delete(id);
    this.own.delete(id);
    this.bytes -= this.lru.get(id) ?? 0;
    this.lru.delete(id);
  }

  /**
   * Update the stub of a session another tab wrote from its stored meta
   * (see take-in.js): its nodes stay on disk until a call needs them.
   * @param {object} meta @param {boolean} follow take the stored cursor (false: this tab keeps its own)
   */
  restub(meta, follow) {
    const env = JSON.parse(this.handle.callInternal(stubRequest([meta], () => follow)));
    if (!env.ok) throw new Error(`stored session ${JSON.stringify(meta.sessionId)} could not be taken in (${env.error.code}: ${env.error.message})`);
  }

  /**
   * Load the stubs among ids into core (between the Writer's
   * transactions, all in one read-only transaction), and pin them until
   * unpin(ids). Calls naming a session already being loaded wait on that
   * load. Rejects when a session cannot be read or restored (core and the
   * Writer are as they were for it).
   * @param {string[]} ids
   * @returns {Promise<void>}
   */
  load(ids) {
    for (const id of ids) this.pinned.set(id, (this.pinned.get(id) ?? 0) + 1);
    const fresh = ids.filter((id) => this.paged.has(id) && !this.loading.has(id));
    if (fresh.length > 0) {
      const p = this.writer.between(() => this._read(fresh));
      for (const id of fresh) this.loading.set(id, p);
      p.finally(() => fresh.forEach((id) => this.loading.delete(id))).catch(() => {});
    }
    return Promise.all(ids.map((id) => this.loading.get(id))).then(() => {});
  }

  /** The calls that loaded ids have run again: they may be paged out. @param {string[]} ids */
  unpin(ids) {
    for (const id of ids) {
      const n = (this.pinned.get(id) ?? 1) - 1;
      if (n > 0) this.pinned.set(id, n);
      else this.pinned.delete(id);
    }
    this._evictSoon();
  }

  async _read(ids) {
    ids = ids.filter((id) => this.paged.has(id)); // another load, or a change, took it in meanwhile
    if (ids.length === 0) return;
    const t0 = performance.now();
    const tx = this.db.transaction(STORES, "readonly");
    const reading = Promise.all(ids.map((id) => requestPromise(tx.objectStore("sessions").get(id))));
    if (!this.warmed) this.handle.warmLoad?.(); // compiles the code of what follows, while IndexedDB reads (wasm/warm.go)
    this.warmed = true;
    const metas = await reading;
    // A session whose records disagree fails alone (see _unreadable): the others of the load go on.
    const snapshots = await Promise.all(metas.map((m) => (m ? readSnapshot(tx, m).catch((err) => err) : null)));
    this.stats.loads++;
    const t1 = performance.now();
    const unreadable = [];
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i];
      const meta = metas[i];
      const heard = loadedEvent(id, this.writer.known.get(id), meta);
      if (!meta) {
        // Deleted by another tab since the stub was made.
        this.handle.callInternal(JSON.stringify({ operation: "sync.forget", sessionId: id }));
        this.writer.known.delete(id);
        this.forget(id);
        this._heard(heard);
        continue;
      }
      try {
        if (snapshots[i] instanceof Error) throw snapshots[i];
        this._take(id, restoreRequest(meta, snapshots[i]));
      } catch (err) {
        unreadable.push({ sessionId: id, message: String(err?.message ?? err) });
        continue;
      }
      const own = this.own.get(id);
      if (own && this.writer.owned.has(id)) this._take(id, mergeRequest(meta, [], [], own));
      this.writer.known.set(id, diskState(meta));
      this._heard(heard);
      this.paged.delete(id);
      this.own.delete(id);
      this.lru.set(id, snapshots[i].length);
      this.bytes += snapshots[i].length;
      this.stats.loaded++;
    }
    this.stats.loadMs += performance.now() - t0;
    this.stats.takeMs += performance.now() - t1;
    this.onLoaded?.();
    if (unreadable.length > 0) this._unreadable(unreadable);
  }

  /**
   * Sessions of a load whose stored records could not be read or restored
   * (damaged outside sessiontree): each stays a stub, marked in core
   * (page.damaged) so that a search across every session passes over it
   * and names it in `skipped`; the load then rejects with an Error whose
   * message names them and whose `unreadable` is the list (Pager.indexThrough
   * and a search go on without them; any other call fails as before).
   * @param {{sessionId: string, message: string}[]} list
   */
  _unreadable(list) {
    for (const u of list) this.handle.callInternal(JSON.stringify({ operation: "page.damaged", ...u }));
    const err = new Error(list.map((u) => u.message).join("; "));
    err.unreadable = list;
    throw err;
  }

  /**
   * Send the event of another tab's change a load took in unheard
   * (take-in.js loadedEvent): with the next transaction's, a pull queued
   * here (which finds the session as loaded and sends nothing of its own).
   * @param {object|null} event
   */
  _heard(event) {
    if (!event) return;
    this.writer.missed.push(event);
    this.writer.pull();
  }

  _take(id, request) {
    const env = JSON.parse(this.handle.callInternal(request));
    if (!env.ok) throw new Error(`stored session ${JSON.stringify(id)} could not be loaded (${env.error.code}: ${env.error.message})`);
  }

  /** Page out the least recently used sessions, between transactions, while the loaded ones pass the budget. */
  _evictSoon() {
    if (this.evicting || this.bytes <= this.budget || this.writer.closedReason) return;
    this.evicting = this.writer.between(async () => this._evict()).finally(() => (this.evicting = null));
  }

  _evict() {
    for (const id of this.lru.keys()) {
      if (this.bytes <= this.budget) break;
      if (!this.pinned.has(id)) this._pageOut(id);
    }
  }

  /** Page loaded session id out (core's page.out); not when core refuses (changes not stored yet). */
  _pageOut(id) {
    let status = null;
    if (this.writer.owned.has(id)) status = JSON.parse(this.handle.callInternal(JSON.stringify({ operation: "session", sessionId: id }))).value;
    const env = JSON.parse(this.handle.callInternal(JSON.stringify({ operation: "page.out", sessionId: id })));
    if (!env.ok) return; // changes not stored yet: it stays
    if (status) this.own.set(id, { cursor: status.cursor ?? "", activeBranch: status.activeBranch });
    this.bytes -= this.lru.get(id);
    this.lru.delete(id);
    this.paged.add(id);
    this.stats.evictions++;
  }

  /** How many batches of indexThrough the stubs among ids take (0 for none). @param {string[]} ids @returns {number} */
  batches(ids) {
    let nodes = 0;
    for (const id of ids) if (this.paged.has(id)) nodes += this.writer.known.get(id)?.count ?? 0;
    return Math.ceil(nodes / this._batchNodes());
  }

  _batchNodes() {
    return Math.max(1, Math.min(INDEX_BATCH_NODES, Math.floor(this.budget / NODE_BYTES)));
  }

  /**
   * For a search across every session (see Store.Searchable in
   * core/internal/store/search.go): read the stubs among ids into core
   * about INDEX_BATCH_NODES nodes at a time, and page each batch out again
   * at once, unless a call pinned a session of it meanwhile. Core indexes a
   * session in full as it leaves and keeps its documents (SearchIndex.retain),
   * so the search then needs loaded only the sessions its hits show, and
   * the wasm holds one batch at a time, never the whole history (which
   * grows its memory for good: a Go heap never gives it back).
   * Rejects as load does.
   * @param {string[]} ids
   * @returns {Promise<void>}
   */
  async indexThrough(ids) {
    const paged = ids.filter((id) => this.paged.has(id));
    const most = this._batchNodes();
    for (let at = 0; at < paged.length; ) {
      const batch = [];
      for (let nodes = 0; at < paged.length && nodes < most; at++) {
        batch.push(paged[at]);
        nodes += this.writer.known.get(paged[at])?.count ?? 0;
      }
      try {
        await this.load(batch);
      } catch (err) {
        if (!err?.unreadable) throw err; // a damaged session is passed over (see _unreadable); the rest of its batch loaded
      } finally {
        this.unpin(batch);
      }
      this.stats.batchPeak = Math.max(this.stats.batchPeak, this.lru.size);
      await this.writer.between(async () => {
        const t0 = performance.now();
        for (const id of batch) if (!this.pinned.has(id) && this.lru.has(id)) this._pageOut(id);
        this.stats.batchOutMs += performance.now() - t0;
      });
      this.stats.batches++;
    }
  }
}
