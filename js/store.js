// The IndexedDB store of sessiontree, as the shim (sessiontree.js) uses
// it: open the database and read every stored session at start-up, then
// hand mutating calls to a Writer. Pure storage and synchronisation; the
// tree logic lives in the wasm core. The parts, one job each:
//
//   store/schema.js   object stores, stepwise upgrades, opening the database
//   store/records.js  how nodes, annotations and meta are encoded in
//                     records; reading and writing them
//   store/restore-points.js  the named snapshots saveSnapshot keeps
//   store/writer.js   the Writer: one transaction per batch of calls, the
//                     Web Lock and BroadcastChannel protocol between tabs

import { openDatabase } from "./store/schema.js";
import { readMetas, takeMetas } from "./store/pager.js";
import { missedEvents } from "./store/take-in.js";

export { DB_DEFAULT_NAME, DB_VERSION, openDatabase, upgrades } from "./store/schema.js";
export { CHUNK_SIZE, nodeRange, parseChangeBytes, readAllSessions, restoreRequest } from "./store/records.js";
export { getSnapshot, listSnapshots, putSnapshot } from "./store/restore-points.js";
export { Writer, storageErrorEnvelope } from "./store/writer.js";
export { STORAGE_ERROR } from "./protocol.js";
export { PAGED_OUT_HEAD, Pager, packStubs, readMetas, stubRequest } from "./store/pager.js";

/**
 * Open (creating or upgrading) the database `name` and read the meta
 * record of every stored session (no node record: sessions are paged in
 * on demand, store/pager.js) in one read-only transaction, for init().
 * Rejects, with the database closed again, when either fails (see
 * openDatabase and readMetas); a failed read is never an empty store.
 * @param {string} name
 * @param {{onClose?: (reason: string, message: string) => void, onOpen?: (db: IDBDatabase) => void, given?: Promise<object[]|null>|null}} [options]
 *   onClose: called when the open connection is closed later (see openDatabase); onOpen: called
 *   with the database once open, before its read (js/first-context.js reads a session meanwhile); given: every
 *   record of the "sessions" store as the page read it meanwhile (js/worker.js init), taken
 *   instead of a read of its own when the stored gen still matches (takeMetas); null: read here
 * @returns {Promise<{db: IDBDatabase, stored: {gen: number, metas: object[], trashed: {meta: object, snapshot: Uint8Array}[], keep: {json: string, gen: number, ids: string[]}|null, missed?: object[]}, taken: boolean}>}
 *   stored: as readMetas reads it (keep: the kept list to write, store/list-keep.js);
 *   taken: stored is made of the records given (they were not read again); missed: when records
 *   were given but the store moved on since, the events of what other tabs stored meanwhile (the
 *   page may have answered init() with the records already: its subscribers are told, see Writer)
 */
export async function openStore(name, { onClose, onOpen, given = null } = {}) {
  const db = await openDatabase(name, { onClose });
  onOpen?.(db);
  try {
    const records = await given;
    const took = records && (await takeMetas(db, records));
    if (took) return { db, stored: took, taken: true };
    const stored = await readMetas(db);
    if (records) stored.missed = missedEvents(records, stored.metas);
    return { db, stored, taken: false };
  } catch (err) {
    db.close();
    throw err;
  }
}
