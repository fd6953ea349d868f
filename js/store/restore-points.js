// Restore points of sessiontree's IndexedDB store: the "snapshots" object
// store (see store/schema.js), each a named snapshot of one session kept
// by saveSnapshot and read back by listSnapshots and restoreSnapshot. They
// take no Web Lock: each is one record in a transaction of its own.

/**
 * Keep a restore point: record {sessionId, name, createdAt, nodeCount,
 * snapshot} (snapshot: the session's snapshot as JSON text) under
 * [sessionId, name], replacing one of the same name. Resolves once
 * committed (durability "strict"); rejects with the browser's error.
 * @param {IDBDatabase} db
 * @param {{sessionId: string, name: string, createdAt: string, nodeCount: number, snapshot: string}} record
 * @returns {Promise<void>}
 */
export function putSnapshot(db, record) {
  return snapshotRequest(db, "readwrite", (store) => store.put(record, [record.sessionId, record.name]));
}

/**
 * Every restore point of a session, in name order.
 * @param {IDBDatabase} db @param {string} sessionId
 * @returns {Promise<object[]>} records as putSnapshot stored them
 */
export function listSnapshots(db, sessionId) {
  return snapshotRequest(db, "readonly", (store) => store.getAll(IDBKeyRange.bound([sessionId, ""], [sessionId, []])));
}

/**
 * One restore point.
 * @param {IDBDatabase} db @param {string} sessionId @param {string} name
 * @returns {Promise<object|undefined>} the record, undefined when there is none of that name
 */
export function getSnapshot(db, sessionId, name) {
  return snapshotRequest(db, "readonly", (store) => store.get([sessionId, name]));
}

/**
 * One request on the "snapshots" store in a transaction of its own;
 * resolves to its result once the transaction completes. Rejects with the
 * browser's own error (a DOMException: InvalidStateError for a closed
 * connection, DataError for a bad key, the transaction's error, e.g.
 * QuotaExceededError, when it aborts), so callers can name it.
 */
function snapshotRequest(db, mode, fn) {
  return new Promise((resolve, reject) => {
    const tx = db.transaction(["snapshots"], mode, mode === "readwrite" ? { durability: "strict" } : undefined);
    const req = fn(tx.objectStore("snapshots"));
    let result;
    req.onsuccess = () => {
      result = req.result;
    };
    tx.oncomplete = () => resolve(result);
    tx.onabort = () => reject(tx.error ?? new DOMException("the snapshot transaction was aborted", "AbortError"));
  });
}
