// The folder "Open a folder…" last read through a directory handle
// (showDirectoryPicker, the File System Access API), remembered in
// IndexedDB so "Refresh folder" re-reads it after a reload: a returning
// user re-grants read access and refreshes in one click. A handle is kept
// as IndexedDB keeps any structured-cloneable value (Chromium; no other
// engine has showDirectoryPicker today). Its own small database, apart
// from the store's.

/** The database and object store holding the remembered handle. */
const DB = "sessiontree-folders";
const STORE = "handles";
const KEY = "last";

/** Open the database (version 1: one object store). Rejects when IndexedDB is unavailable. */
function open() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** Run one request on the object store in a transaction of mode; resolve to its result. */
async function request(mode, make) {
  const db = await open();
  try {
    return await new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const req = make(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(req.result);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}

/**
 * Remember dir as the last folder opened (replacing the one before).
 * Rejects when IndexedDB cannot store it.
 * @param {FileSystemDirectoryHandle} dir
 * @returns {Promise<void>}
 */
export async function rememberFolder(dir) {
  await request("readwrite", (s) => s.put(dir, KEY));
}

/**
 * The folder remembered by rememberFolder, or null (none, or IndexedDB
 * unavailable: never rejects).
 * @returns {Promise<FileSystemDirectoryHandle|null>}
 */
export async function recallFolder() {
  try {
    return (await request("readonly", (s) => s.get(KEY))) ?? null;
  } catch {
    return null;
  }
}

/**
 * Whether the page may read dir, asking the user when the browser wants
 * to (call it from a click: asking needs a user gesture). A handle
 * without the permission methods (an origin-private folder) is readable.
 * @param {FileSystemDirectoryHandle} dir
 * @returns {Promise<boolean>} false when the user (or the browser) said no
 */
export async function mayRead(dir) {
  try {
    if (typeof dir.queryPermission !== "function") return true;
    if ((await dir.queryPermission({ mode: "read" })) === "granted") return true;
    return (await dir.requestPermission({ mode: "read" })) === "granted";
  } catch {
    return false;
  }
}
