// The IndexedDB schema of sessiontree: its object stores, the stepwise
// upgrades from every earlier version, and opening the database. How the
// records are encoded is store/records.js; who writes them, and when, is
// store/writer.js.
//
// Schema version 7 (object stores, out-of-line keys):
//   sessions   key sessionId        value meta {sessionId, title, cursor, activeBranch, createdAt,
//                                    updatedAt, nodeCount, annotationCount, folded, epoch, gen, op,
//                                    tail?, tailMark? (1 when tail is true, else absent)};
//                                    index "gen" on gen; index "updated" on [updatedAt, sessionId]
//                                    (the list newest first, read backwards); index "tail" on tailMark
//   chunks     key [sessionId, start]  value the nodes start… (snapshot form) joined by ",\n", as
//                                    UTF-8 bytes (a Uint8Array; older records are the same text as
//                                    a string, and both are read); the chunks of a session cover
//                                    nodes 0 … folded-1 one after another, each up to CHUNK_SIZE
//                                    nodes long (a chunk's length is its newlines plus one)
//   nodes      key [sessionId, seq]  value one node JSON string, folded ≤ seq < nodeCount
//   annotations key [sessionId, seq] value one annotation record (label, hide, prefer) as a JSON
//                                    string, 0 ≤ seq < annotationCount (see core/internal/tree/annotate.go)
//   snapshots  key [sessionId, name] value {sessionId, name, createdAt, nodeCount, snapshot: JSON string}
//   search     key "index"           value {bytes: Uint8Array, savedAt}: the search index kept
//                                    between pages (store/search-keep.js, core/internal/store/search_save.go), a
//                                    cache: deleted with any erased session, rebuilt when missing;
//              key ["list", gen]     value the kept list: the JSON of every record of "sessions" as
//                                    stored when gen was the highest (store/list-keep.js), a cache
//                                    read with the records stamped above gen since; deleted with
//                                    any erased session (since version 6, no upgrade: older
//                                    version 6 builds leave it be, and their writes stamp gens;
//                                    the next start writes it again after their erasures, unless
//                                    the erased id was made again since)
// seq is a node's position in append order, the same in every tab (see
// store/writer.js). A session written whole (an import, a load, a fork or
// clone target) is stored as chunk records only, the last one shorter; an
// append writes one node record and the meta record (a meta written with
// tail: true may be followed by node records it does not count, which
// readers take in), and once CHUNK_SIZE node records follow the chunks
// they are folded into one more chunk. So a restore reads
// ~nodeCount/CHUNK_SIZE records (structured clone per record dominates
// reads: TOOLCHAIN.md measures 100,000 nodes as single records 2.3 s, as
// 100 chunk records 0.53 s), and a folder of 2,000 imported sessions is
// ~2,000 node-bearing records, not one per node. gen is a database-wide
// counter: each committed write transaction stamps the sessions it wrote
// with the highest stored gen + 1, so a tab finds what other tabs wrote
// since it last looked by one index read. epoch is the gen of the
// transaction that last wrote a session as a whole (made it, or replaced
// it: snapshot.load, a fork or clone target, an import), so a tab tells a
// session replaced, or erased and made again under its id, from one that
// only grew (records.js replaceRecords; earlier builds counted the
// replacements from 0, which a session made again started over).
//
// Version 6 had no "updated" and "tail" indexes (metas with tail: true had
// no tailMark). Version 5 had no search store. Versions 2 to 4 had the same records, but every chunk held exactly
// CHUNK_SIZE nodes (start = 0, CHUNK_SIZE, …): a session under CHUNK_SIZE
// nodes was one node record per node. Version 3 writers hold the Web Lock
// "sessiontree-write:" + dbName (see store/writer.js); version 4 added
// the meta's `tail`.
// Version 1 (the foundation release): sessions (meta without folded, epoch,
// gen, op), nodes [sessionId, seq] for every node and [sessionId, "a", seq]
// for every annotation record (added by issue 3 within version 1), snapshots.

/** The database init() uses when no dbName is given. */
export const DB_DEFAULT_NAME = "sessiontree";

/** The schema version this build creates and reads. */
export const DB_VERSION = 7;

/** The object stores holding sessions (every read and write of them takes all four). */
export const STORES = ["sessions", "chunks", "nodes", "annotations"];

/**
 * Stepwise upgrades: upgrades[v](db, tx) brings a database from version v
 * to v+1 inside the versionchange transaction tx.
 */
export const upgrades = [
  // 0 → 1: the first schema.
  (db) => {
    db.createObjectStore("sessions");
    db.createObjectStore("nodes");
    db.createObjectStore("snapshots");
  },
  // 1 → 2: chunk and annotation stores, and gen/epoch/folded on every
  // meta record. The v1 node records stay as they are: they are the tail of
  // a session with folded = 0, and the next write to the session folds them.
  // v1 annotation records ([sessionId, "a", seq] in "nodes") move to the
  // "annotations" store under [sessionId, seq].
  (db, tx) => {
    db.createObjectStore("chunks");
    const annotations = db.createObjectStore("annotations");
    const nodes = tx.objectStore("nodes");
    const sessions = tx.objectStore("sessions");
    sessions.createIndex("gen", "gen");
    sessions.openCursor().onsuccess = (event) => {
      const cursor = event.target.result;
      if (!cursor) return;
      const id = cursor.value.sessionId;
      const v1notes = IDBKeyRange.bound([id, "a", 0], [id, "a", Infinity]);
      nodes.getAll(v1notes).onsuccess = (e) => {
        e.target.result.forEach((a, i) => annotations.put(a, [id, i]));
        nodes.delete(v1notes);
      };
      cursor.update({ annotationCount: 0, ...cursor.value, folded: 0, epoch: 0, gen: 0, op: "upgrade" });
      cursor.continue();
    };
  },
  // 2 → 3: the records stay as they are. Version 3 writers hold a Web Lock
  // while they write and skip the gen read while they hold it; raising the
  // version closes every tab of an earlier build (onversionchange), which
  // would write without taking the lock.
  () => {},
  // 3 → 4: the records stay as they are. Version 4 writers may leave an
  // append's meta unwritten (tail: true, see store/writer.js), which a
  // version 3 tab would read as a corrupt session: raising the version
  // closes those tabs.
  () => {},
  // 4 → 5: the records stay as they are (chunks of exactly CHUNK_SIZE
  // nodes are version 5 chunks). Version 5 writers store a session written
  // whole in chunks of any length, which a version 4 tab would read as a
  // corrupt session: raising the version closes those tabs.
  () => {},
  // 5 → 6: the search index kept between pages, in a store of its own.
  (db) => {
    db.createObjectStore("search");
  },
  // 6 → 7: the indexes a page of the list newest first is read from
  // (store/listing.js readHead): "updated" on [updatedAt, sessionId], and
  // "tail" on tailMark, which every meta written with tail: true gets (a
  // boolean is no IndexedDB key), so the few metas whose stored updatedAt
  // lags their node records are found without reading the others.
  (db, tx) => {
    const sessions = tx.objectStore("sessions");
    sessions.createIndex("updated", ["updatedAt", "sessionId"]);
    sessions.createIndex("tail", "tailMark");
    sessions.openCursor().onsuccess = (event) => {
      const cursor = event.target.result;
      if (!cursor) return;
      if (cursor.value?.tail === true) cursor.update({ ...cursor.value, tailMark: 1 });
      cursor.continue();
    };
  },
];

const quote = JSON.stringify;

/**
 * Open (creating or upgrading) the database.
 *
 * Rejects with a plain Error when IndexedDB is missing, the open fails, or
 * another tab holds an older version open and blocks the upgrade (reported
 * at once; if that tab lets go later, the late connection is closed again).
 * Once open, a versionchange from a newer tab, or the browser closing the
 * connection, closes it and calls onClose with a message for the user.
 * @param {string} name
 * @param {{onClose?: (reason: string, message: string) => void, version?: number}} [options]
 * @returns {Promise<IDBDatabase>}
 */
export function openDatabase(name, { onClose, version = DB_VERSION } = {}) {
  return new Promise((resolve, reject) => {
    if (!globalThis.indexedDB) {
      reject(new Error("sessiontree: IndexedDB is not available in this browser context; use init({persist: false}) for an in-memory tree"));
      return;
    }
    let req;
    let settled = false;
    const fail = (err) => {
      settled = true;
      reject(err);
    };
    try {
      req = indexedDB.open(name, version);
    } catch (err) {
      fail(new Error(`sessiontree: cannot open IndexedDB database ${quote(name)}: ${err?.message ?? err}`));
      return;
    }
    req.onupgradeneeded = (event) => {
      const db = req.result;
      for (let v = event.oldVersion; v < version; v++) upgrades[v](db, req.transaction);
    };
    req.onblocked = (event) => {
      fail(new Error(`sessiontree: IndexedDB database ${quote(name)} is held open at version ${event.oldVersion} by another tab, which blocks the upgrade to version ${version}; close the other tabs of this site and reload`));
    };
    req.onerror = (event) => {
      event.preventDefault?.();
      if (req.error?.name === "VersionError") {
        fail(new Error(`sessiontree: IndexedDB database ${quote(name)} was stored by a newer version of this site (schema above ${version}); reload the page to get that version`));
        return;
      }
      fail(new Error(`sessiontree: cannot open IndexedDB database ${quote(name)}: ${req.error?.name ?? "Error"}: ${req.error?.message ?? "unknown error"}`));
    };
    req.onsuccess = () => {
      const db = req.result;
      if (settled) {
        db.close(); // the blocked open went through after we gave up on it
        return;
      }
      settled = true;
      db.onversionchange = (event) => {
        db.close();
        onClose?.("versionchange", `a newer version of this site (IndexedDB schema ${event.newVersion ?? "deleted"}) was opened in another tab; this tab no longer saves changes: reload it`);
      };
      db.onclose = () => {
        onClose?.("closed", "the browser closed the IndexedDB database (storage cleared or failing); this tab no longer saves changes: reload it");
      };
      resolve(db);
    };
  });
}
