// The transaction executor of sessiontree's IndexedDB store: one
// IndexedDB transaction, its body run inside it, committed or aborted as
// a whole, with the reason it failed. It knows nothing of sessions, gens
// or tabs: the Writer (store/writer.js) decides what goes into a
// transaction (with store/plan.js and store/records.js), the coordinator
// (store/coordinator.js) when it may write unread. Node tests run it on
// fake-indexeddb (test/executor.test.mjs).

/** The failure of a transaction aborted because a caller's signal was. */
export const ABORTED = new Error("aborted by the caller's signal");

/**
 * One IndexedDB transaction run to its end. `run(body)` calls
 * `body(tx)` (which makes its requests and may await them), then lets
 * the transaction commit — at once by IDBTransaction.commit() when it
 * writes and no signal can still abort it, else by the auto-commit — and
 * resolves to null once it committed, or to why it did not:
 *
 * - the error body threw or rejected with (the transaction is aborted:
 *   nothing it wrote stays);
 * - the transaction's own error (a QuotaExceededError, a ConstraintError
 *   of a request) when it aborted by itself;
 * - ABORTED when one of `signals` aborted before the commit began (later
 *   it is too late: the transaction keeps its writes);
 * - the error of opening it (a closed connection), body then never runs;
 * - an AbortError DOMException when it aborted with no error given.
 *
 * While body runs, `aborted` tells whether a signal already aborted the
 * transaction (a long body checks it between its pieces).
 */
export class Transaction {
  /**
   * @param {IDBDatabase} db
   * @param {{stores: string[], writes: boolean, signals?: AbortSignal[]}} options the object
   *   stores it takes; writes: readwrite with durability "strict", else readonly
   */
  constructor(db, { stores, writes, signals = [] }) {
    this.db = db;
    this.stores = stores;
    this.writes = writes;
    this.signals = signals;
    /** @type {IDBTransaction|null} */
    this.tx = null;
    /** Why the transaction failed so far (null while it has not). */
    this.failure = null;
    this._onAbort = () => this._abortBy(ABORTED);
    /** True once run() has resolved (the transaction committed or aborted). */
    this.ended = false;
  }

  /**
   * Let signal abort the transaction too, from now until its commit
   * begins (at once when it has aborted already): for a caller's signal
   * known only once the body runs (store/writer.js, a call as it runs).
   * @param {AbortSignal} signal
   */
  watch(signal) {
    if (this.ended) return; // committed or aborted: too late, nothing to undo
    this.signals.push(signal);
    if (this.tx === null) return; // run() listens to it
    if (signal.aborted) this._abortBy(ABORTED);
    else signal.addEventListener("abort", this._onAbort);
  }

  /** True once a signal aborted the transaction. */
  get aborted() {
    return this.failure === ABORTED;
  }

  /**
   * Run body inside the transaction and wait for its end.
   * @param {(tx: IDBTransaction) => (void|Promise<void>)} body
   * @returns {Promise<unknown>} null when committed, else the failure (see the class doc)
   */
  async run(body) {
    try {
      this.tx = this.db.transaction(this.stores, this.writes ? "readwrite" : "readonly", this.writes ? { durability: "strict" } : undefined);
    } catch (err) {
      return err;
    }
    const tx = this.tx;
    const done = new Promise((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onabort = () => reject(tx.error); // null when we aborted it ourselves
    });
    done.catch(() => {});
    for (const signal of this.signals) signal.addEventListener("abort", this._onAbort);
    if (this.signals.some((signal) => signal.aborted)) this._abortBy(ABORTED);
    try {
      await body(tx);
      // Every request is made: commit now rather than after their results
      // come back (IndexedDB 3; older browsers auto-commit as before).
      if (this.writes && this.signals.length === 0 && typeof tx.commit === "function") tx.commit();
    } catch (err) {
      this.failure ??= err;
      this._abortBy(null);
    }
    try {
      await done;
    } catch (err) {
      // The transaction's own error (QuotaExceededError) says most; null
      // when we aborted it after an error of ours (or a signal).
      this.failure = err ?? this.failure ?? new DOMException("the transaction was aborted", "AbortError");
    }
    for (const signal of this.signals) signal.removeEventListener("abort", this._onAbort);
    this.ended = true;
    return this.failure;
  }

  /**
   * Abort the transaction; reason (when not null) becomes the failure
   * unless one is known. Too late once it commits: then nothing changes.
   * @param {unknown} reason
   */
  _abortBy(reason) {
    try {
      this.tx.abort();
      if (reason !== null) this.failure ??= reason;
    } catch {
      // committing or done: too late, the writes stay
    }
  }
}

/**
 * Put a plan's records into the readwrite transaction tx: `put` entries
 * as [store, key, value], `delete` entries as [store, key or
 * IDBKeyRange]. The requests are made, not awaited: the transaction's
 * commit or abort tells whether they were written (a failed request
 * aborts it, and then none was).
 * @param {IDBTransaction} tx
 * @param {{put?: [string, IDBValidKey, unknown][], delete?: [string, IDBValidKey|IDBKeyRange][]}} plan
 * @returns {number} the records put and the deletions made
 */
export function applyPlan(tx, plan) {
  let n = 0;
  for (const [store, key] of plan.delete ?? []) {
    tx.objectStore(store).delete(key);
    n++;
  }
  for (const [store, key, value] of plan.put ?? []) {
    tx.objectStore(store).put(value, key);
    n++;
  }
  return n;
}

/**
 * Write a plan (see applyPlan) in one transaction of its own: all of it
 * or, when a request fails or a signal aborts, none.
 * @param {IDBDatabase} db
 * @param {{put?: [string, IDBValidKey, unknown][], delete?: [string, IDBValidKey|IDBKeyRange][]}} plan
 * @param {{signal?: AbortSignal}} [options]
 * @returns {Promise<{written: number, failure: unknown}>} written: the requests committed (0 on a failure)
 */
export async function executePlan(db, plan, { signal } = {}) {
  const stores = [...new Set([...(plan.put ?? []), ...(plan.delete ?? [])].map((e) => e[0]))];
  if (stores.length === 0) return { written: 0, failure: null };
  let n = 0;
  const t = new Transaction(db, { stores, writes: true, signals: signal ? [signal] : [] });
  const failure = await t.run((tx) => {
    n = applyPlan(tx, plan);
  });
  return { written: failure ? 0 : n, failure };
}
