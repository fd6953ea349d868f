// The Writer of sessiontree's IndexedDB store: every mutating call of a
// tree runs inside one IndexedDB transaction together with the records it
// changes, under the Web Lock / BroadcastChannel protocol that keeps tabs
// on one database from overwriting each other (see the class doc). Its
// parts: what to write is planned by store/plan.js and encoded by
// store/records.js; store/executor.js runs the transaction (commit, abort,
// its failure); store/coordinator.js holds the gen, the lock and the
// channel; store/take-in.js takes in what other tabs stored.

import { STORES } from "./schema.js";
import { pullSessions, pullTails, readBack } from "./take-in.js";
import { STORAGE_ERROR, storageErrorEnvelope } from "./storage-error.js";
import { diskState, parseChangeBytes, requestPromise, writeChanges } from "./records.js";
import { flushRecords } from "./plan.js";
import { envelopeFailed } from "../envelope.js";
import { WRITE_STORES } from "./erase.js";
import { ChangeLog, forgetErased } from "../change-events.js";
import { ABORTED, Transaction, applyPlan } from "./executor.js";
import { ANNOUNCE_MS, Coordinator, openChannel } from "./coordinator.js";

/**
 * Bytes of core's drain a Writer takes per piece (the handle's
 * drainBytes(limit), core's DrainChangesUpTo): the wasm holds one piece
 * (and 1.25× its size of buffer) at a time beside the sessions. 2 MiB,
 * measured on a persisted ChatGPT import: 200 MB took 499, 500, 503 MB
 * of wasm memory in pieces of 1, 2, 4 MiB (4.07× the file drained whole)
 * in 17.6, 14.9, 13.2 s (a loaded machine), 20 MB 56, 57, 60 MB; a piece
 * costs a wasm call and a wait for the backend (see _batch).
 */
const DRAIN_BYTES = 2 << 20;

export { STORAGE_ERROR, storageErrorEnvelope } from "./storage-error.js";

/**
 * Runs every mutating call of one tree inside an IndexedDB readwrite
 * transaction, so that memory (the wasm core) and disk move together and
 * several tabs on one database never overwrite each other:
 *
 * 1. The transaction reads the highest stored gen. When it differs from the
 *    one this tab last saw, another tab wrote: the sessions stamped with a
 *    newer gen are read and taken into core first (new nodes through
 *    "sync.merge", a replaced or unknown session through "restore": core's
 *    internal operations, which only the handle's callInternal answers).
 * 2. The queued calls run in core, in order; their changes are drained,
 *    in pieces of about DRAIN_BYTES (a large import or load is never
 *    serialised whole beside its sessions).
 * 3. The changed records are written in the same transaction (durability
 *    "strict"), each piece before the next is drained, and every written
 *    session is stamped with gen + 1.
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
 * Writer of schema version 3 or later writes only while it holds the exclusive Web
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
 *
 * One record per append. Under the held, verified lock every meta record
 * is written with `tail: true` ("node records may follow nodeCount"), and
 * an append whose new meta follows from its node alone (count, cursor =
 * the node, branch and updatedAt = the node's; see deriveTail in
 * store/records.js) writes only its node record, unless the session's
 * meta was last written ANNOUNCE_MS ago or more (so other tabs, which find
 * changes by the gen, hear of them as often as before). ANNOUNCE_MS after
 * the calls pause, a flush writes those sessions' metas as they are now,
 * without tail. Every reader brings a tail: true meta up to date from the
 * node records after it (init's restore, a pull, a rollback), and every
 * transaction that reads the gen counts those records for each session
 * whose stored meta says tail (pullTails, store/take-in.js): so a tab killed, or made to let
 * go of the lock, before its flush loses no acknowledged append, and the
 * next writer never writes over one.
 *
 * Without navigator.locks every transaction reads the gen, as above; where
 * the lock manager refuses the request, the calls waiting for the lock
 * resolve to a STORAGE_ERROR envelope and change nothing (writing without
 * the lock could overwrite what the holder's tab writes without reading).
 */
export class Writer {
  /**
   * @param {IDBDatabase} db
   * @param {{callInternal: (request: string|Uint8Array) => string, drain: (withNodes: boolean) => string, drainBytes: (limit?: number) => Uint8Array}} handle the wasm store handle
   *   (its internal operations restore, sync.merge and sync.forget take in what other tabs stored)
   * @param {{gen: number, metas: object[], missed?: object[], emit: (event: object) => void, keepsCursor: (operation: string) => boolean, locks?: {request: Function}|null, channel?: BroadcastChannel|null}} options
   *   gen and metas as read by readAllSessions; missed: events of changes taken in with them unheard
   *   (openStore), emitted with the first transaction's; emit is called for every committed change, local or remote;
   *   keepsCursor tells the operations whose changes never move a cursor (the wasm's operations());
   *   locks: the Web Locks manager (default navigator.locks; null: none, every write reads the gen)
   *   channel: the BroadcastChannel "sessiontree:" + db.name, opened by the caller (default: one
   *   opened here; null: none)
   */
  constructor(db, handle, { gen, metas, missed = [], emit, keepsCursor, locks, channel }) {
    this.db = db;
    this.handle = handle;
    this.keepsCursor = keepsCursor;
    /** @type {Map<string, {epoch: number, count: number, folded: number, acount: number}>} disk state per session as this tab last saw it */
    this.known = new Map();
    for (const m of metas) this.known.set(m.sessionId, diskState(m));
    this.pager = null; // the tree's Pager (store/pager.js), set by its LocalTree: take-in.js asks it which sessions are stubs
    /** Sessions whose cursor this tab moved itself: it keeps its own; the others follow the stored one. */
    this.owned = new Set();
    this.emit = emit;
    this.queue = [];
    this.running = null;
    this.pullQueued = null;
    /** Events of changes taken in at start unheard (see the constructor), sent with the next transaction's. */
    this.missed = missed;
    /** Why this tab no longer writes (null while it does). */
    this.closedReason = null;
    /** Why this tab takes no more calls while those queued before close(reason, true) run (null: it takes them). */
    this.closing = null;
    /** performance.now() when the queue last emptied (the lock's linger and the flush count from there). */
    this.lastBusy = 0;
    /**
     * Sessions whose stored meta this Writer wrote with tail: true under
     * the held lock, with the meta they are to have (newer than the stored
     * one when appends left it unwritten): the flush writes them without
     * tail, ANNOUNCE_MS after the queue empties. Forgotten when the lock
     * is let go (another tab may write next; readers derive, see deriveTail).
     * @type {Map<string, object>}
     */
    this.tailed = new Map();
    /** performance.now() when this Writer last wrote each session's meta under the held lock (appends within ANNOUNCE_MS of it write none). */
    this.metaAt = new Map();
    this.flushTimer = null;
    /** Appends whose meta record was left unwritten (for benchmarks). */
    this.metaDeferred = 0;
    /** Write transactions of calls that read the gen and those that skipped it under the lock, waits for the lock, and pulls of what other tabs stored (for tests and benchmarks). */
    this.stats = { genReads: 0, genSkipped: 0, lockWaits: 0, pulls: 0 };
    /** The gen, the write lock and the channel to other tabs (store/coordinator.js). */
    this.coord = new Coordinator(db.name, {
      gen,
      locks: locks !== undefined ? locks : globalThis.navigator?.locks ?? null,
      channel: channel !== undefined ? channel : openChannel(db.name),
      idle: () => this.idle,
      lastBusy: () => this.lastBusy,
      onWrite: () => this.pull(),
      onLetGo: () => {
        this.tailed.clear(); // stored with tail: true; whoever writes next reads the nodes after it
        this.metaAt.clear();
      },
      stats: this.stats,
    });
  }

  /** The highest gen this tab knows stored (see Coordinator.gen). */
  get gen() {
    return this.coord.gen;
  }

  /** True when no call is queued or running. */
  get idle() {
    return this.running === null && this.queue.length === 0;
  }

  /**
   * Queue a call: fn runs the core call (returning its envelope text) inside
   * the next transaction. Resolves to the envelope's JSON text.
   *
   * A call whose changes are large (an import's importFinish) can be
   * followed and stopped while they are stored: `onStored(text, nodes)`
   * is called after each piece of them is written (see DRAIN_BYTES), with
   * the call's envelope text and the nodes written so far; an abort of
   * `signal` before fn ran (the call waiting in the queue, for the write
   * lock, or for the calls before it in its transaction) resolves the call
   * to `aborted` without running fn (the others are stored); one after fn
   * ran (and changed something) and before the transaction commits aborts it
   * (the calls of its batch are undone and memory is read back from disk,
   * as for a failed write), and the call resolves to `aborted` (an
   * envelope's text) instead. An abort that comes once the commit has
   * begun is too late: the call resolves to its own answer. Such a
   * transaction is left to commit by itself (no IDBTransaction.commit()),
   * so an abort is honoured until its last request is done. While a
   * close waits for the calls queued before it (close(reason, true)), a
   * call that may change something (not `readOnly`) answers STORAGE_ERROR
   * at once; a read is answered in its turn.
   * @param {() => string} fn
   * @param {{signal?: AbortSignal, aborted?: string, onStored?: (text: string, nodes: number) => void, readOnly?: boolean}} [options]
   * @returns {Promise<string>}
   */
  run(fn, options = {}) {
    if (this.closing && !this.closedReason && !options.readOnly) return Promise.resolve(JSON.stringify({ ok: false, error: { code: STORAGE_ERROR, message: `storage error: ${this.closing}; the change was not made` } }));
    const { signal, aborted } = options;
    const abortable = signal !== undefined && aborted !== undefined;
    if (abortable && signal.aborted) return Promise.resolve(aborted);
    return new Promise((resolve) => {
      const entry = { fn, resolve, signal, aborted, onStored: options.onStored, unwatch: null };
      if (abortable) {
        // Aborted while it waits (for the write lock, behind other batches):
        // out of the queue, answered at once.
        const leave = () => {
          const k = this.queue.indexOf(entry);
          if (k < 0) return;
          this.queue.splice(k, 1);
          resolve(aborted);
        };
        signal.addEventListener("abort", leave, { once: true });
        entry.unwatch = () => signal.removeEventListener("abort", leave);
      }
      this.queue.push(entry);
      this._kick();
    });
  }

  /** Take in what other tabs stored (queued like a call). @returns {Promise<void>} */
  pull() {
    if (this.closedReason || this.closing) return Promise.resolve();
    if (!this.pullQueued) {
      this.pullQueued = new Promise((resolve) => {
        this.queue.push({ fn: null, resolve });
        this._kick();
      });
    }
    return this.pullQueued;
  }

  /**
   * Resolves when every queued call has settled and the meta records left
   * unwritten by appends under the lock (tail: true, see _batch) are
   * written: what is stored then reads the same with or without tails.
   */
  async flush() {
    while (this.running) await this.running;
    if (this.tailed.size === 0 || this.closedReason) return;
    clearTimeout(this.flushTimer);
    this.flushTimer = null;
    await new Promise((resolve) => {
      this.queue.push({ fn: null, flush: true, resolve });
      this._kick();
    });
    while (this.running) await this.running;
  }

  /**
   * Stop writing: later calls that change something resolve to a
   * STORAGE_ERROR envelope naming reason; nothing is changed in memory.
   * With afterQueued (the caller's close()), calls still queued run and
   * are stored first, and only calls made after it are refused. With none
   * queued it closes at once, as without: a page closed right after
   * close() still announces what it stored (the coordinator's close).
   * @param {string} reason @param {boolean} [afterQueued]
   * @returns {Promise<void>} resolves once closed
   */
  async close(reason, afterQueued = false) {
    if (afterQueued && !this.closedReason && !this.closing && (this.running || this.queue.length > 0)) {
      this.closing = reason;
      while (this.running) await this.running;
    }
    if (!this.closedReason) this.closedReason = reason;
    this.coord.close();
  }

  /** Why calls that change something are refused now (close, or a close waiting for the queued calls), else null. */
  get refusing() {
    return this.closedReason ?? this.closing;
  }

  _kick() {
    if (!this.running) this.running = this._loop();
  }

  /**
   * Run task between transactions, in turn with the queued calls: what it puts into core from disk
   * (store/pager.js) is what the next transaction finds stored. Settles as task does.
   * @template T @param {() => Promise<T>} task @returns {Promise<T>}
   */
  between(task) {
    return new Promise((resolve, reject) => {
      this.queue.push({ fn: null, task, resolve, reject });
      this._kick();
    });
  }

  async _loop() {
    await Promise.resolve(); // let calls made in the same task join the batch
    while (this.queue.length > 0) {
      if (this.queue[0].task) {
        const j = this.queue.shift();
        await j.task().then(j.resolve, j.reject);
        continue;
      }
      let refused = null;
      if (this.coord.mustTake && !this.closedReason && this.queue.some((j) => j.fn)) refused = await this.coord.takeLock();
      const until = this.queue.findIndex((j) => j.task);
      let batch = this.queue.splice(0, until < 0 ? this.queue.length : until);
      for (const j of batch) j.unwatch?.(); // from now on the transaction hears an abort (see _drainCalls)
      if (batch.some((j) => j.fn === null && !j.flush)) (this.pullQueued = null), this.stats.pulls++;
      if (refused) {
        // Never write without the lock: the tab holding it skips the gen
        // read, and would write over what this one stored.
        const env = JSON.stringify({ ok: false, error: { code: STORAGE_ERROR, message: `storage error: the lock for writing could not be taken (${refused}); the change was not made` } });
        for (const j of batch) if (j.fn) j.resolve(env);
        batch = batch.filter((j) => j.fn === null);
      }
      if (batch.length > 0) await this._batch(batch);
      this.coord.afterBatch(this.closedReason !== null);
    }
    this.running = null;
    this.lastBusy = performance.now();
    this.coord.rested();
    if (this.tailed.size > 0 && this.flushTimer === null) this.flushTimer = setTimeout(() => this._flush(), ANNOUNCE_MS);
  }

  /**
   * Write the meta records of the sessions in tailed as they are now,
   * without tail: a transaction of its own, queued like a call, once no
   * call has run for ANNOUNCE_MS (when the lock was let go meanwhile,
   * tailed is empty and nothing is written).
   */
  _flush() {
    this.flushTimer = null;
    if (this.tailed.size === 0 || this.closedReason) return;
    const left = ANNOUNCE_MS - (performance.now() - this.lastBusy);
    if (!this.idle || left > 1) {
      // Appends go on: flush once they pause (their metas are written every ANNOUNCE_MS meanwhile).
      this.flushTimer = setTimeout(() => this._flush(), Math.max(left, 1));
      return;
    }
    this.queue.push({ fn: null, flush: true, resolve: () => {} });
    this._kick();
  }

  /**
   * One transaction for a batch of queued calls, pulls and flushes (steps
   * 1–3 of the class doc): run by the executor (store/executor.js), then
   * committed into this tab's state, or rolled back.
   * @param {object[]} batch the queued entries
   */
  async _batch(batch) {
    if (this.closedReason) {
      for (const j of batch) {
        if (j.fn) j.resolve(JSON.stringify({ ok: false, error: { code: STORAGE_ERROR, message: `storage error: ${this.closedReason}; the change was not made` } }));
        else j.resolve();
      }
      return;
    }
    // A flush writes only under the held, verified lock (else tailed is empty).
    const flush = batch.some((j) => j.flush) && this.tailed.size > 0 && this.coord.unread;
    if (!flush && batch.every((j) => j.flush)) {
      for (const j of batch) j.resolve();
      return; // nothing left to flush
    }
    const writes = flush || batch.some((j) => j.fn !== null);
    const b = {
      batch,
      flush,
      writes,
      pulled: new Map(), // sessionId → disk state, once committed
      written: new Map(), // sessionId → disk state, once committed
      remote: [],
      local: new ChangeLog(), // the events of what this tab changed
      flushed: [], // [sessionId, meta] written by a flush
      drained: new Set(), // every session whose changes were drained, for a rollback
      newGen: this.gen,
      stamped: false, // a meta record was written: gen + 1, announced
    };
    // A call's signal aborts the transaction once the call ran (_drainCalls).
    const t = new Transaction(this.db, { stores: writes ? WRITE_STORES : STORES, writes });
    const failure = await t.run((tx) => this._write(t, tx, b));
    if (failure) await this._rollback(b, failure);
    else this._commit(b);
  }

  /**
   * The body of a batch's transaction: read the gen (unless the held,
   * verified lock says it is this tab's), pull what other tabs wrote, run
   * and store the calls, write the flush's metas.
   * @param {Transaction} t @param {IDBTransaction} tx @param {object} b the batch's state (see _batch)
   */
  async _write(t, tx, b) {
    // Under the held, verified lock no other tab has written since this
    // tab's last commit: the stored gen is this.gen (see the class doc).
    const skip = b.writes && this.coord.unread;
    const diskGen = await this.coord.diskGen(tx, skip);
    if (b.batch.some((j) => j.fn !== null)) this.stats[skip ? "genSkipped" : "genReads"]++;
    if (diskGen !== this.gen) await pullSessions(this, tx, b.pulled, b.remote);
    if (!skip) await pullTails(this, tx, b.pulled, b.remote);
    b.newGen = diskGen;
    // Under the held, verified lock an append may leave its session's
    // meta unwritten (one record per append): see writeChanges and
    // deriveTail. Never longer than ANNOUNCE_MS after the last meta
    // written, so other tabs hear of it as often as before.
    const now = performance.now();
    const defer = skip ? (id) => now - (this.metaAt.get(id) ?? -Infinity) < ANNOUNCE_MS : null;
    await this._drainCalls(t, tx, b, diskGen + 1, defer);
    for (const state of b.written.values()) b.stamped ||= !state.deferred;
    if (b.flush) {
      // One meta record per session written by the flush, as it is in memory, without tail.
      const records = flushRecords(this.tailed, b.written, diskGen + 1);
      applyPlan(tx, { put: records.map(([id, record]) => ["sessions", id, record]) });
      b.flushed.push(...records);
      if (records.length > 0) b.stamped = true;
    }
    if (b.stamped) b.newGen = diskGen + 1;
  }

  /**
   * Run each call of the batch in core and store its changes: drained in
   * pieces of about DRAIN_BYTES, written as they come (the small ones of a
   * batch together), so the wasm holds one piece beside the sessions, never
   * all of a large import again (see DrainChangesUpTo); b.local keeps only
   * what the events need.
   * @param {Transaction} t @param {IDBTransaction} tx @param {object} b
   * @param {number} gen the gen the records are stamped with
   * @param {((id: string) => boolean)|null} defer see writeChanges
   */
  async _drainCalls(t, tx, b, gen, defer) {
    const stored = (id) => b.pulled.get(id) ?? this.known.get(id);
    let pending = [];
    let pendingBytes = 0;
    let behind = null; // a request made after the piece before the last, awaited before the next
    const write = async () => {
      const blocks = pending;
      pending = [];
      pendingBytes = 0;
      if (blocks.length > 0) await writeChanges(tx, blocks, gen, stored, defer, b.written);
    };
    for (const j of b.batch) {
      if (!j.fn) continue;
      // Aborted before it ran (as the transaction began, or while the calls
      // before it were stored): it never runs, and the others are stored.
      j.skipped = j.signal?.aborted === true && j.aborted !== undefined;
      if (j.skipped) continue;
      j.text = j.fn();
      j.changed = false;
      let nodes = 0;
      for (;;) {
        const bytes = this.handle.drainBytes(DRAIN_BYTES);
        if (bytes.length === 0) break;
        // A call that changed something is undone by its abort until the
        // commit (with the batch); one that changed nothing (a try a paged-out
        // session held back) leaves the others be.
        if (!j.changed && j.signal) t.watch(j.signal);
        j.changed = true;
        for (const block of parseChangeBytes(bytes)) {
          pending.push(block);
          b.drained.add(block.sessionId);
          nodes += block.count;
          b.local.add(block);
        }
        pendingBytes += bytes.length;
        if (pendingBytes < DRAIN_BYTES) continue;
        await write();
        // Between pieces the transaction waits for the backend to take
        // the piece before the last (a count, answered after the puts
        // before it): what is queued stays about two pieces, and
        // messages (an abort) are heard in between.
        const next = requestPromise(tx.objectStore("sessions").count(""));
        next.catch(() => {}); // the last one is not awaited: an abort rejects it unheard
        if (behind) await behind;
        behind = next;
        if (t.aborted) throw ABORTED;
        try {
          j.onStored?.(j.text, nodes);
        } catch (err) {
          console.error("sessiontree: an onStored callback threw", err);
        }
      }
    }
    await write();
  }

  /**
   * After a failed transaction: read the touched sessions back from disk
   * (store/take-in.js readBack) and resolve each call — to its own answer
   * when it failed or changed nothing, to `aborted` when its own signal
   * aborted it, else to a STORAGE_ERROR envelope naming the failure.
   * @param {object} b the batch's state (see _batch) @param {unknown} failure
   */
  async _rollback(b, failure) {
    // Changes left undrained (a failure between pieces) are undone too.
    for (const line of this.handle.drain(false).split("\n")) if (line !== "") b.drained.add(JSON.parse(line).sessionId);
    const touched = new Set([...b.pulled.keys(), ...b.drained]);
    await readBack(this, touched);
    for (const e of this.missed.splice(0)) this.emit(e);
    const env = JSON.stringify(storageErrorEnvelope(failure === ABORTED ? new DOMException("a call stored in the same transaction was cancelled", "AbortError") : failure));
    for (const j of b.batch) {
      if (!j.fn) j.resolve();
      else if (j.skipped) j.resolve(j.aborted);
      else if (j.text !== undefined && (envelopeFailed(j.text) || j.changed === false)) j.resolve(j.text); // failed or changed nothing: its own answer
      else if (failure === ABORTED && j.signal?.aborted && j.aborted !== undefined) j.resolve(j.aborted);
      else j.resolve(env);
    }
    if (!(failure instanceof DOMException) && failure !== ABORTED) console.error("sessiontree: write failed", failure);
    this.coord.failed();
  }

  /**
   * After a committed transaction: take its gen and disk states, keep
   * track of the metas left with tail, send the events (other tabs'
   * first) and resolve the calls to their answers.
   * @param {object} b the batch's state (see _batch)
   */
  _commit(b) {
    this.coord.committed(b.newGen, b.writes);
    for (const [id, k] of b.pulled) this.known.set(id, k);
    const now = performance.now();
    forgetErased(this, b.written);
    for (const [id, k] of b.written) {
      this.known.set(id, k);
      if (k.deferred) {
        this.metaDeferred++;
        this.tailed.set(id, k.pending);
      } else if (k.tail) {
        this.metaAt.set(id, now);
        this.tailed.set(id, k.meta);
      } else this.tailed.delete(id);
    }
    for (const [id, meta] of b.flushed) {
      this.tailed.delete(id);
      this.known.set(id, { ...this.known.get(id), tail: false, meta });
    }
    for (const id of b.pulled.keys()) this.tailed.delete(id); // another tab wrote it
    for (const e of b.local.events) if (!this.keepsCursor(e.operation) && !e.erased) this.owned.add(e.sessionId);
    for (const e of this.missed.splice(0)) this.emit(e);
    for (const e of b.remote) this.emit(e);
    this.onSizes?.(b.local.sizes); // before the events: the Pager weighs what they make it touch
    for (const e of b.local.events) this.emit(e);
    if (b.stamped) this.coord.announce(b.newGen);
    for (const j of b.batch) j.resolve(!j.fn ? undefined : j.skipped ? j.aborted : j.text);
  }
}
