// Erasing a session from IndexedDB for good (trash.empty, delete with
// permanent: see core/internal/store/trash.go), in the Writer's transaction. A session
// in the trash keeps its records (its meta record says deletedAt); an
// erased one keeps none: its chunk, node and annotation records and its
// restore points are deleted, and its meta record becomes a tombstone
// {sessionId, erased: true, gen, createdAt: ""} — no title, no content —
// so that other tabs, which find changes by the gen (store/writer.js),
// learn of the erasure and drop the session from memory too, and so that
// the database's highest gen never goes down.
//
// One function: whatever else is stored per session (a later schema's
// metadata records, a search index) is deleted here as well.

import { STORES } from "./schema.js";
import { keptListRange } from "./listing.js";

/** The stores a write transaction takes: the session stores, and the restore points, kept search index and kept list an erasure deletes. */
export const WRITE_STORES = [...STORES, "snapshots", "search"];

/**
 * Delete every record of session `sessionId` inside the readwrite
 * transaction tx (which holds WRITE_STORES) and leave its tombstone,
 * stamped gen.
 * @param {IDBTransaction} tx
 * @param {string} sessionId
 * @param {number} gen the gen the transaction stamps
 */
export function eraseSession(tx, sessionId, gen) {
  // Keys [sessionId, seq] (store/records.js nodeRange).
  const records = IDBKeyRange.bound([sessionId, 0], [sessionId, Infinity]);
  for (const name of ["chunks", "nodes", "annotations"]) tx.objectStore(name).delete(records);
  tx.objectStore("snapshots").delete(IDBKeyRange.bound([sessionId, ""], [sessionId, []]));
  tx.objectStore("search").delete("index"); // it holds the session's words: built again without them
  tx.objectStore("search").delete(keptListRange()); // it holds the session's title (store/list-keep.js)
  tx.objectStore("sessions").put(tombstone(sessionId, gen), sessionId);
}

/**
 * The meta record left for an erased session.
 * @param {string} sessionId @param {number} gen
 * @returns {{sessionId: string, erased: true, gen: number, createdAt: string, nodeCount: number, annotationCount: number, op: string}}
 */
export function tombstone(sessionId, gen) {
  return { sessionId, erased: true, gen, createdAt: "", nodeCount: 0, annotationCount: 0, op: "trash.empty" };
}

/**
 * Whether a meta record is an erased session's tombstone (readers skip it).
 * @param {object} meta
 * @returns {boolean}
 */
export function isErased(meta) {
  return meta?.erased === true;
}
