// What tree.importFiles takes, gathered into files with paths: pure
// checks of the entries a page passes (js/tree-api.js), no store.

import { DETACHED_BYTES, copyBytes } from "./request-text.js";

/**
 * One file of a folder import: its path relative to the folder chosen
 * ("/" between names) and its bytes, or a Blob not read yet.
 * @typedef {{path: string, data: Blob|Uint8Array}} FolderFile
 */

const utf8 = new TextEncoder();

/**
 * Gather what importFiles was given into files: a FileList (an `<input
 * webkitdirectory>`'s), an array of Files (their webkitRelativePath, else
 * their name, is the path), or of `{path, data}` entries (data a Blob,
 * ArrayBuffer, Uint8Array or string, a string encoded as UTF-8); a
 * FileSystemDirectoryHandle is passed on as it is, to be walked where the
 * store runs (walkDirectory).
 * @param {FileList|Array<File|{path: string, data: Blob|ArrayBuffer|Uint8Array|string}>|FileSystemDirectoryHandle} entries
 * @returns {{files: FolderFile[], dir: FileSystemDirectoryHandle|null} | {error: string}}
 *   error: a plain message naming the entry that is not one of these
 */
export function gatherEntries(entries) {
  try {
    return gather(entries);
  } catch (err) {
    // A getter that throws, a revoked Proxy: the entries cannot be read.
    return { error: `entries cannot be read: ${err?.message ?? err}` };
  }
}

/** gatherEntries, throwing where reading the entries throws. @param {unknown} entries @returns {{files: {path: string, data: Blob|Uint8Array}[], dir: FileSystemDirectoryHandle|null}|{error: string}} */
function gather(entries) {
  if (isDirectoryHandle(entries)) return { files: [], dir: entries };
  if (entries === null || typeof entries !== "object" || typeof entries.length !== "number") {
    return { error: "entries must be a FileList, an array of Files or {path, data} entries, or a FileSystemDirectoryHandle" };
  }
  const files = [];
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    if (typeof File === "function" && e instanceof File) {
      files.push({ path: e.webkitRelativePath || e.name, data: e });
      continue;
    }
    if (e === null || typeof e !== "object" || typeof e.path !== "string" || e.path === "") return { error: `entries[${i}] must be a File or {path, data} with a non-empty path` };
    const { data } = e;
    if (typeof data === "string") files.push({ path: e.path, data: utf8.encode(data) });
    else if (data instanceof Uint8Array || data instanceof ArrayBuffer) {
      const copy = copyBytes(data);
      if (copy === null) return { error: `entries[${i}].data ${DETACHED_BYTES}` };
      files.push({ path: e.path, data: copy });
    }
    else if (typeof Blob === "function" && data instanceof Blob) files.push({ path: e.path, data });
    else return { error: `entries[${i}].data must be a Blob, ArrayBuffer, Uint8Array or string` };
  }
  return { files, dir: null };
}

/**
 * Whether v is a FileSystemDirectoryHandle (the File System Access API's;
 * absent in some browsers).
 * @param {unknown} v
 */
export function isDirectoryHandle(v) {
  return typeof FileSystemDirectoryHandle === "function" && v instanceof FileSystemDirectoryHandle;
}
