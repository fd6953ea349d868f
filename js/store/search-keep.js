// The search index kept between pages (core/internal/store/search_save.go): once the
// index holds every session and the tab has been quiet a while, the
// Worker writes core's bytes of it to the "search" store; a fresh page's
// first search across every session reads them back into core before it
// loads any session, and then loads only the sessions its hits show (and
// those changed since the bytes were written). The record is a cache:
// missing, damaged or out of date, the index is built as without it.
// Erasing a session deletes it (store/erase.js), since it holds the
// session's words.

import { maxGen } from "./records.js";

/** The object store and key of the kept index (store/schema.js). */
const STORE = "search";
const KEY = "index";

/**
 * The kept index's bytes, or null when there are none (or the read
 * failed: a cache only).
 * @param {IDBDatabase} db
 * @returns {Promise<Uint8Array|null>}
 */
export function readKeptIndex(db) {
  return new Promise((resolve) => {
    try {
      const req = db.transaction(STORE, "readonly").objectStore(STORE).get(KEY);
      req.onsuccess = () => resolve(req.result?.bytes instanceof Uint8Array ? req.result.bytes : null);
      req.onerror = () => resolve(null);
    } catch {
      resolve(null); // a database of an older schema, or closed
    }
  });
}

/**
 * Write the kept index's bytes, made from the sessions as this tab knows
 * them at gen (the highest gen it has taken in). Resolves to whether they
 * were stored: not when another tab wrote since (its change not heard
 * yet: an erasure there deleted the kept index, and these bytes would put
 * the erased session's words back), nor on a full disk or a closed
 * database; the next page then builds the index as without them.
 * @param {IDBDatabase} db
 * @param {Uint8Array} bytes
 * @param {number} gen
 * @returns {Promise<boolean>}
 */
export function writeKeptIndex(db, bytes, gen) {
  return writeCache(db, ["sessions", STORE], async (tx) => (await maxGen(tx.objectStore("sessions"))) <= gen, (tx) => {
    tx.objectStore(STORE).put({ bytes, savedAt: new Date().toISOString() }, KEY);
  });
}

/**
 * Write a cache record (the kept index, the kept list: store/list-keep.js)
 * in a readwrite transaction over stores: write(tx) runs once check(tx)
 * resolves true. Resolves to whether the transaction committed with the
 * write made: false when check said no or failed, on a full disk, or on a
 * closed database (a cache: the next page does without it). Never rejects.
 * @param {IDBDatabase} db @param {string[]} stores
 * @param {(tx: IDBTransaction) => Promise<boolean>} check
 * @param {(tx: IDBTransaction) => void} write
 * @returns {Promise<boolean>}
 */
export function writeCache(db, stores, check, write) {
  return new Promise((resolve) => {
    try {
      const tx = db.transaction(stores, "readwrite");
      let stored = false;
      check(tx)
        .then((ok) => {
          if (!ok) return;
          write(tx);
          stored = true;
        })
        .catch(() => {
          try {
            tx.abort(); // the check or the write failed: nothing of it is stored
          } catch {
            // finished already
          }
        });
      tx.oncomplete = () => resolve(stored);
      tx.onabort = tx.onerror = () => resolve(false);
    } catch {
      resolve(false);
    }
  });
}
