// The IndexedDB layer of sessiontree: schema, start-up read and the batched
// writer. Pure storage; the tree logic lives in the wasm core.
//
// Schema version 1 (object stores, out-of-line keys):
//   sessions   key sessionId           value meta {sessionId, title, cursor, activeBranch, createdAt, updatedAt, nodeCount}
//   nodes      key [sessionId, seq]    value one node in snapshot form, as a JSON string
//              key [sessionId, "a", seq] value one annotation record (label/hide/prefer), as a JSON string
//   snapshots  key [sessionId, name]   value {sessionId, name, createdAt, nodeCount, snapshot: JSON string}
// An append writes one node record and the meta record; nothing else.

/** The database init() uses when no dbName is given. */
export const DB_DEFAULT_NAME = "sessiontree";

/** The schema version this build creates and reads. */
export const DB_VERSION = 1;

/**
 * The key range of every node record of one session.
 * @param {string} sessionId
 * @returns {IDBKeyRange}
 */
export function nodeRange(sessionId) {
  return IDBKeyRange.bound([sessionId, 0], [sessionId, Infinity]);
}

/**
 * The key range of every annotation record of one session (kept in the
 * nodes store under [sessionId, "a", seq], outside nodeRange).
 * @param {string} sessionId
 * @returns {IDBKeyRange}
 */
export function annotationRange(sessionId) {
  return IDBKeyRange.bound([sessionId, "a", 0], [sessionId, "a", Infinity]);
}

/** Stepwise upgrades: upgrades[v] brings a database from version v to v+1. */
const upgrades = [
  // 0 → 1: the first schema.
  (db) => {
    db.createObjectStore("sessions");
    db.createObjectStore("nodes");
    db.createObjectStore("snapshots");
  },
];

/**
 * Open (creating or upgrading) the database.
 * Rejects with a plain Error when IndexedDB is missing, the open fails, or
 * another tab holds an older version open and blocks the upgrade.
 * @param {string} name
 * @returns {Promise<IDBDatabase>}
 */
export function openDatabase(name) {
  return new Promise((resolve, reject) => {
    if (!globalThis.indexedDB) {
      reject(new Error("sessiontree: IndexedDB is not available in this browser context; use init({persist: false}) for an in-memory tree"));
      return;
    }
    let req;
    try {
      req = indexedDB.open(name, DB_VERSION);
    } catch (err) {
      reject(new Error(`sessiontree: cannot open IndexedDB database ${JSON.stringify(name)}: ${err.message}`));
      return;
    }
    req.onupgradeneeded = (event) => {
      const db = req.result;
      for (let v = event.oldVersion; v < DB_VERSION; v++) upgrades[v](db, req.transaction);
    };
    req.onblocked = () => {
      reject(new Error(`sessiontree: IndexedDB database ${JSON.stringify(name)} is held open at an older version by another tab; close the other tabs and reload`));
    };
    req.onerror = () => {
      reject(new Error(`sessiontree: cannot open IndexedDB database ${JSON.stringify(name)}: ${req.error?.message ?? "unknown error"}`));
    };
    req.onsuccess = () => {
      const db = req.result;
      db.onversionchange = () => db.close();
      resolve(db);
    };
  });
}

function requestPromise(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/**
 * Read every stored session in one read-only transaction.
 * Resolves to [{meta, snapshot}] where snapshot is the session's snapshot
 * text (version 1) rebuilt from its node records. Rejects, naming the
 * database and the session, when a read fails or a session's node records
 * do not match its metadata — a failed read is never an empty store.
 * @param {IDBDatabase} db
 * @returns {Promise<{meta: object, snapshot: string}[]>}
 */
export async function readAllSessions(db) {
  let tx;
  try {
    tx = db.transaction(["sessions", "nodes"], "readonly");
  } catch (err) {
    throw new Error(`sessiontree: cannot read IndexedDB database ${JSON.stringify(db.name)}: ${err.message}`);
  }
  try {
    const sessions = tx.objectStore("sessions");
    const nodes = tx.objectStore("nodes");
    const metas = await requestPromise(sessions.getAll());
    // Restore in creation order, as the sessions were made.
    metas.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.sessionId < b.sessionId ? -1 : 1));
    const lists = await Promise.all(metas.map((m) => requestPromise(nodes.getAll(nodeRange(m.sessionId)))));
    const notes = await Promise.all(metas.map((m) => requestPromise(nodes.getAll(annotationRange(m.sessionId)))));
    return metas.map((meta, i) => {
      const list = lists[i];
      if (list.length !== meta.nodeCount) {
        throw new Error(`session ${JSON.stringify(meta.sessionId)} has ${list.length} node records but its metadata says ${meta.nodeCount}`);
      }
      if (notes[i].length !== (meta.annotationCount ?? 0)) {
        throw new Error(`session ${JSON.stringify(meta.sessionId)} has ${notes[i].length} annotation records but its metadata says ${meta.annotationCount ?? 0}`);
      }
      const head = `{"version":1,"sessionId":${JSON.stringify(meta.sessionId)},"cursor":${JSON.stringify(meta.cursor)},"activeBranch":${JSON.stringify(meta.activeBranch)},"nodes":[`;
      const tail = notes[i].length > 0 ? `],"annotations":[${notes[i].join(",")}]}` : "]}";
      return { meta, snapshot: head + list.join(",") + tail };
    });
  } catch (err) {
    throw new Error(`sessiontree: reading IndexedDB database ${JSON.stringify(db.name)} failed, nothing was changed: ${err?.message ?? err}`);
  }
}

/**
 * Writes change blocks (from core's DrainChanges) to IndexedDB. Calls that
 * arrive while a transaction is committing are batched into the next one;
 * each write() resolves after the transaction holding it completes
 * (durability "strict"), so "resolved" means "on disk".
 */
export class Writer {
  /** @param {IDBDatabase} db */
  constructor(db) {
    this.db = db;
    this.queue = [];
    this.running = null;
  }

  /**
   * Queue change blocks; resolves when they are committed, rejects with the
   * transaction's error.
   * @param {{sessionId: string, reset: boolean, from: number, annotationFrom?: number, meta: object, nodes: string[], annotations?: string[]}[]} blocks
   * @returns {Promise<void>}
   */
  write(blocks) {
    return new Promise((resolve, reject) => {
      this.queue.push({ blocks, resolve, reject });
      if (!this.running) this.running = this._run();
    });
  }

  /** Resolves when every queued write has settled. */
  async flush() {
    while (this.running) await this.running;
  }

  async _run() {
    await Promise.resolve(); // let calls made in the same task join the batch
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0);
      try {
        await this._commit(batch.flatMap((w) => w.blocks));
        for (const w of batch) w.resolve();
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    this.running = null;
  }

  _commit(blocks) {
    return new Promise((resolve, reject) => {
      let tx;
      try {
        tx = this.db.transaction(["sessions", "nodes"], "readwrite", { durability: "strict" });
      } catch (err) {
        reject(new Error(`sessiontree: cannot write to IndexedDB: ${err.message}`));
        return;
      }
      tx.oncomplete = () => resolve();
      tx.onabort = () => reject(new Error(`sessiontree: IndexedDB write failed: ${tx.error?.name ?? "aborted"}: ${tx.error?.message ?? ""}`));
      const sessions = tx.objectStore("sessions");
      const nodes = tx.objectStore("nodes");
      for (const b of blocks) {
        if (b.reset) {
          nodes.delete(nodeRange(b.sessionId));
          nodes.delete(annotationRange(b.sessionId));
        }
        for (let k = 0; k < b.nodes.length; k++) nodes.put(b.nodes[k], [b.sessionId, b.from + k]);
        const notes = b.annotations ?? [];
        for (let k = 0; k < notes.length; k++) nodes.put(notes[k], [b.sessionId, "a", b.annotationFrom + k]);
        sessions.put(b.meta, b.sessionId);
      }
    });
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
