// The cross-tab coordinator of sessiontree's IndexedDB store: the gen
// this tab last saw, the Web Lock for writing, and the BroadcastChannel
// on which tabs of one database announce their commits and ask each other
// for the lock. The protocol is the Writer's (store/writer.js, its class
// doc); this module holds its state and timers, and nothing of sessions
// or records. The lock manager and the channel are given to it, so Node
// tests run two coordinators with a fake lock (test/coordinator.test.mjs).

import { maxGen } from "./records.js";

/**
 * Milliseconds the write lock is kept after the Writer's queue empties,
 * so that calls made one after another skip the gen read (see Writer). A
 * tab that wants to write asks for it on the BroadcastChannel and gets it
 * at once; the linger only bounds the wait where no channel exists.
 */
export const LOCK_LINGER_MS = 250;

/**
 * Milliseconds over which a tab's commits are announced to other tabs
 * with one BroadcastChannel message (the newest gen): posting after every
 * commit was 6 % of the time of appends made one after another.
 */
export const ANNOUNCE_MS = 16;

/**
 * One tab's side of the cross-tab protocol on database dbName (see the
 * Writer's class doc): the channel "sessiontree:" + dbName carries
 * `{gen}` (a commit) and `{want: true}` (a request for the lock); the
 * lock is the exclusive Web Lock "sessiontree-write:" + dbName.
 *
 * Its owner tells it when it is idle and when it was last busy (the
 * linger counts from there), hears of other tabs' commits by onWrite and
 * of the lock let go by onLetGo (what was written under the lock unread
 * is then forgotten).
 */
export class Coordinator {
  /**
   * @param {string} dbName
   * @param {{gen: number, locks: {request: Function}|null, channel: BroadcastChannel|null,
   *   idle: () => boolean, lastBusy: () => number, onWrite: () => void, onLetGo: () => void,
   *   stats: {lockWaits: number}}} options
   *   gen: the highest stored gen as read at start; locks: the Web Locks manager
   *   (navigator.locks) or one that serializes alike, null where there is none (every
   *   write then reads the gen); channel: open on "sessiontree:" + dbName, or null
   */
  constructor(dbName, { gen, locks, channel, idle, lastBusy, onWrite, onLetGo, stats }) {
    /** The highest gen this tab knows stored (its own commits and what it pulled). */
    this.gen = gen;
    this.locks = locks;
    this.lockName = "sessiontree-write:" + dbName;
    this.channel = channel;
    this.idle = idle;
    this.lastBusy = lastBusy;
    this.onLetGo = onLetGo;
    this.stats = stats;
    if (channel) {
      channel.onmessage = (event) => {
        if (event.data?.want) return this._wanted();
        // Another tab wrote while this one waits for the lock: it holds the
        // lock, perhaps without having heard this tab ask (see takeLock).
        if (this.taking) this._askForLock();
        onWrite();
      };
    }
    /** Resolves the held lock's callback (lets go of it); null while the lock is not held. */
    this.releaseLock = null;
    /** True once a transaction under the held lock read the gen: later ones skip the read. */
    this.verified = false;
    /** Another tab asked for the lock: let go after the current transaction. */
    this.wantedByOther = false;
    /** True while this tab waits for the lock (a want heard then is kept for when it is granted). */
    this.taking = false;
    this.lingerTimer = null;
    this.announceTimer = null;
    this.announceGen = 0;
  }

  /** Whether the write lock must be asked for before writing (a lock manager exists and it is not held). */
  get mustTake() {
    return this.locks !== null && this.releaseLock === null;
  }

  /** Whether this tab holds the lock and a transaction under it read the gen: no other tab can have written since. */
  get unread() {
    return this.releaseLock !== null && this.verified;
  }

  /**
   * The highest stored gen as a transaction sees it: this.gen unread when
   * skip (see unread), else read from tx's "sessions" store.
   * @param {IDBTransaction} tx @param {boolean} skip
   * @returns {Promise<number>}
   */
  async diskGen(tx, skip) {
    return skip ? this.gen : maxGen(tx.objectStore("sessions"));
  }

  /**
   * A transaction committed: gen is now the stored one; a write under the
   * lock verifies it (the next ones under the same hold skip the read).
   * @param {number} gen @param {boolean} writes whether it was a readwrite transaction
   */
  committed(gen, writes) {
    this.gen = gen;
    if (writes && this.releaseLock !== null) this.verified = true;
  }

  /** A transaction failed: the next one under the lock reads the gen again. */
  failed() {
    this.verified = false;
  }

  /** The owner's queue emptied: let go of the lock LOCK_LINGER_MS later unless calls come. */
  rested() {
    if (this.releaseLock && this.lingerTimer === null) this.lingerTimer = setTimeout(() => this._linger(), LOCK_LINGER_MS);
  }

  /** After a transaction: let go when another tab asked for the lock, or when closing. @param {boolean} closing */
  afterBatch(closing) {
    if (this.wantedByOther || closing) this.letGo();
  }

  /** Stop: post the pending announcement, close the channel, and let go when idle. */
  close() {
    this._announceNow();
    this.channel?.close();
    this.channel = null;
    if (this.idle()) this.letGo();
  }

  /**
   * The linger timer: let go of the lock once the queue has been empty for
   * LOCK_LINGER_MS. One timer per linger period, not one per call: calls
   * made one after another only move lastBusy.
   */
  _linger() {
    this.lingerTimer = null;
    if (!this.releaseLock || !this.idle()) return; // let go already, or busy: rested arms it again
    const left = LOCK_LINGER_MS - (performance.now() - this.lastBusy());
    if (left > 1) this.lingerTimer = setTimeout(() => this._linger(), left);
    else this.letGo();
  }

  /** Tell other tabs, within ANNOUNCE_MS, that this one committed gen (a transaction that stamped it). @param {number} gen */
  announce(gen) {
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
  async takeLock() {
    let refused = null;
    this.stats.lockWaits++;
    this.wantedByOther = false;
    this.taking = true;
    this._askForLock();
    const again = setInterval(() => this._askForLock(), LOCK_LINGER_MS);
    try {
      await new Promise((granted, refuse) => {
        this.locks
          .request(this.lockName, () => new Promise((letGo) => {
            this.releaseLock = letGo;
            granted();
          }))
          .catch(refuse);
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
  letGo() {
    clearTimeout(this.lingerTimer);
    this.lingerTimer = null;
    const letGo = this.releaseLock;
    this.releaseLock = null;
    this.verified = false;
    this.wantedByOther = false;
    this.onLetGo();
    letGo?.();
  }

  /** Another tab asked for the write lock: let go now when idle, else after the current transaction (or after the first one under the lock this tab waits for). */
  _wanted() {
    if (this.taking) {
      this.wantedByOther = true;
      return;
    }
    if (!this.releaseLock) return;
    if (this.idle()) this.letGo();
    else this.wantedByOther = true;
  }
}

/**
 * The BroadcastChannel tabs announce their commits on for database
 * dbName ("sessiontree:" + dbName), or null where there is none.
 * @param {string} dbName
 * @returns {BroadcastChannel|null}
 */
export function openChannel(dbName) {
  return typeof BroadcastChannel === "function" ? new BroadcastChannel("sessiontree:" + dbName) : null;
}

/**
 * Open the channel for dbName before the database is read and note
 * whether another tab announced a commit before a Coordinator takes the
 * channel over (`heard`; a request for the lock is no commit): what that
 * read may have missed. channel is null where there is no BroadcastChannel.
 * @param {string} dbName
 * @returns {{channel: BroadcastChannel|null, heard: boolean}}
 */
export function listenFromStart(dbName) {
  const state = { channel: openChannel(dbName), heard: false };
  if (state.channel) state.channel.onmessage = (event) => (state.heard ||= !event.data?.want);
  return state;
}
