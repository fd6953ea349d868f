// The kept list: every record of the "sessions" store as one JSON string,
// in the "search" store under ["list", gen] (store/schema.js), so that a
// fresh page reads one record and the few written since instead of one
// record per session (store/listing.js readKeptList): at 10,000 sessions
// ~30 ms against ~120 ms (bench/RESULTS.md). The store (in its worker, or
// in the page's thread with worker: false) writes it again after a start
// that found none, LIST_KEEP_CHANGES records written since it, or a
// tombstone newer than it (an erasure by a build before the kept list);
// a history under LIST_KEEP_MIN sessions is not worth its write. It is a
// cache: missing or damaged, the store is read whole; erasing a session
// deletes it (store/erase.js), since it holds the session's title. Left:
// an erasure by such a build of a session whose id is then made again
// leaves its title in the list until the list is next written.

import { LIST_KEEP_MIN, keptListGen, keptListRange, recordsAbove, requestPromise } from "./listing.js";
import { writeCache } from "./search-keep.js";

export { LIST_KEEP_MIN };

/** Records written since the kept list at which the store writes it again. */
export const LIST_KEEP_CHANGES = 32;

/**
 * Whether the kept list is to be written again, for a store of `count`
 * records: none is kept, LIST_KEEP_CHANGES or more records were stamped
 * with a gen above its own, or one of them is an erased session's
 * tombstone (the kept list holds its title: a build before the kept list
 * erased it, leaving the list; written again, it holds the tombstone).
 * Reads the keys and at most LIST_KEEP_CHANGES records. Its JSON is made
 * at the start (keptListOf), before a tail's meta is brought up to date
 * in place and the Writer holds the records: 8–11 ms at 10,000 sessions,
 * after a start that finds it stale only.
 * @param {IDBTransaction} tx over "sessions" and "search"
 * @param {number} count the records of the "sessions" store
 * @returns {Promise<boolean>}
 */
export async function keptListStale(tx, count) {
  if (count < LIST_KEEP_MIN) return false;
  const gen = keptListGen(await requestPromise(tx.objectStore("search").getAllKeys(keptListRange())));
  if (!Number.isSafeInteger(gen)) return true;
  const since = await recordsAbove(tx, gen, LIST_KEEP_CHANGES);
  return since.length >= LIST_KEEP_CHANGES || since.some((m) => m?.erased === true);
}

/**
 * Write the kept list: json, every record of the "sessions" store as read
 * in one transaction whose highest gen was gen, replacing any kept
 * before. Records written after that read have higher gens, so the list
 * stays true however late it is written; but not after a session was
 * erased since: its title would be on disk again. An erasure since leaves
 * a tombstone above gen, or, once the id was made again, a record whose
 * epoch is above gen (store/records.js replaceRecords) of a session the
 * list holds (ids): either refuses (a session of the list replaced whole
 * too, which is rare). Resolves to whether it was stored (not then, nor
 * on a full disk or a closed database: a cache only).
 * @param {IDBDatabase} db @param {string} json @param {number} gen
 * @param {Iterable<string>} ids the sessionId of every record json holds
 * @returns {Promise<boolean>}
 */
export function writeKeptList(db, json, gen, ids) {
  const held = new Set(ids);
  const erased = (m) => m?.erased === true || (m?.epoch > gen && held.has(m.sessionId));
  const sinceErased = (tx) => recordsAbove(tx, gen).then((since) => !since.some(erased));
  return writeCache(db, ["sessions", "search"], sinceErased, (tx) => {
    tx.objectStore("search").delete(keptListRange());
    tx.objectStore("search").put(json, ["list", gen]);
  });
}

/**
 * What keepListLater writes of a start's records read at gen: their JSON,
 * gen and sessionIds; null when JSON cannot hold one of them (a BigInt, a
 * cycle: a record damaged outside sessiontree, which fails its own
 * session only, never the start), so no list is kept.
 * @param {any[]} records every record of the "sessions" store, as stored @param {number} gen
 * @returns {{json: string, gen: number, ids: string[]}|null}
 */
export function keptListOf(records, gen) {
  try {
    return { json: JSON.stringify(records), gen, ids: records.map((m) => m?.sessionId) };
  } catch {
    return null;
  }
}

/** Milliseconds after the start at which the kept list is written (off the first calls' path). */
const KEEP_LIST_MS = 2000;

/**
 * Write the kept list that stored.keep holds (a start's read: store/pager.js
 * readMetas) once the start's first calls are answered, and let go of it
 * there. A database closed by then writes nothing.
 * @param {IDBDatabase} db @param {{keep: {json: string, gen: number, ids: string[]}|null}} stored
 */
export function keepListLater(db, stored) {
  const { json, gen, ids } = stored.keep;
  stored.keep = null;
  setTimeout(() => writeKeptList(db, json, gen, ids), KEEP_LIST_MS);
}
