// tree.importFiles where the store runs: a whole folder (or any set of
// files) imported at once, as coding agents and chat apps keep their
// histories on disk. The files' bytes go into one wasm import buffer, one
// after another, and core reads them by layout (core.Store.ImportFiles:
// Cline task folders, OpenCode storage trees, every other file by its
// content) in one call inside one IndexedDB transaction, so a failed or
// cancelled import leaves nothing behind. Here: walking a directory
// handle, and LocalTree's side (importFileList). The page side of a worker
// store sends the files gathered (js/folder-entries.js) as transferred
// bytes.

import { errorEnvelope, closedEnvelope } from "./tree-api.js";

/** @typedef {import("./folder-entries.js").FolderFile} FolderFile */

/** Bytes copied into the wasm per call (and between two looks at the abort signal). */
const COPY_BYTES = 1 << 20;

/**
 * Every file under a directory handle, as FolderFiles whose paths start
 * with the handle's name (as a webkitdirectory input gives them). A loop
 * over a stack of folders, not recursion; folders and files in name order.
 * @param {FileSystemDirectoryHandle} dir
 * @returns {Promise<FolderFile[]>}
 */
export async function walkDirectory(dir) {
  const files = [];
  const stack = [[dir, dir.name]];
  while (stack.length > 0) {
    const [folder, prefix] = stack.pop();
    const children = [];
    for await (const [name, handle] of folder.entries()) children.push([name, handle]);
    children.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [name, handle] of children.reverse()) {
      if (handle.kind === "directory") stack.push([handle, `${prefix}/${name}`]);
      else files.push({ path: `${prefix}/${name}`, data: await handle.getFile() });
    }
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * LocalTree's importFiles (the arguments gathered by gatherEntries): the
 * files' bytes are copied into one wasm import buffer in pieces of
 * COPY_BYTES with a yield and a look at the signal between them, then
 * core.Store.ImportFiles runs in one write (handle.importFiles), stored
 * in one IndexedDB transaction. onProgress({read, total}) in bytes: total
 * is twice the files' size, the first half moving as the bytes are read,
 * the second when the import is stored. An abort before the transaction
 * commits leaves nothing behind.
 * @param {import("./local.js").LocalTree} tree
 * @param {FolderFile[]} files
 * @param {FileSystemDirectoryHandle|null} dir walked here when given
 * @param {{onProgress?: (p: {read: number, total: number}) => void, signal?: AbortSignal}} options
 * @returns {Promise<object>} the envelope; value {sessions, skipped, warnings, files}
 */
export async function importFileList(tree, files, dir, { onProgress, signal } = {}) {
  if (tree._writer?.closedReason) return closedEnvelope(tree._writer.closedReason, "nothing was imported");
  const aborted = errorEnvelope("INVALID_ARGUMENT", "import aborted; nothing was imported");
  const progress = (read, total) => {
    try {
      onProgress?.({ read, total });
    } catch (err) {
      console.error("sessiontree: an onProgress callback threw", err);
    }
  };
  try {
    if (dir) files = files.concat(await walkDirectory(dir));
  } catch (err) {
    return errorEnvelope("INVALID_ARGUMENT", `the folder could not be read: ${err?.message ?? err}`);
  }
  const size = files.reduce((n, f) => n + (f.data.size ?? f.data.length), 0);
  const buffer = tree._handle.importBuffer(size);
  if (typeof buffer === "string") return JSON.parse(buffer); // refused: the memory budget
  const manifest = [];
  let read = 0;
  for (const f of files) {
    let bytes;
    try {
      bytes = f.data instanceof Uint8Array ? f.data : new Uint8Array(await f.data.arrayBuffer());
    } catch (err) {
      tree._handle.importCancel(buffer);
      return errorEnvelope("INVALID_ARGUMENT", `${f.path}: the file could not be read: ${err?.message ?? err}`);
    }
    for (let i = 0; i < bytes.length; i += COPY_BYTES) {
      const failed = tree._handle.importAppend(buffer, bytes.subarray(i, i + COPY_BYTES));
      if (failed) return (tree._handle.importCancel(buffer), JSON.parse(failed));
    }
    manifest.push({ path: f.path, size: bytes.length });
    read += bytes.length;
    progress(read, 2 * size);
    await new Promise((resolve) => setTimeout(resolve, 0)); // an abort sent meanwhile is seen
    if (signal?.aborted) return (tree._handle.importCancel(buffer), aborted);
  }
  const text = JSON.stringify(manifest);
  const env = await tree._mutate(() => tree._handle.importFiles(text, buffer), { signal, aborted: JSON.stringify(aborted) });
  if (!env.ok) tree._handle.importCancel(buffer); // not run (an abort, a closed Writer): the buffer is still there
  else progress(2 * size, 2 * size);
  return env;
}
