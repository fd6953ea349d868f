// Reading what a person gives the explorer to import: files chosen or
// dropped, folders (a dropped directory, or <input webkitdirectory>), and
// ZIP archives as ChatGPT and Claude.ai hand them out. Each becomes a file
// the store reads itself (tree.importFile, in its worker: the page never
// reads an export's text, whatever its size) or a ZIP the store reads
// itself (tree.importZip: streamed, inflated and imported in the store's
// worker, so no entry of it becomes a string on the page), plus notes on
// what was left out.
//
// No DOM here beyond the File and DataTransfer objects the page passes in.

import { extension } from "../js/zip-attachments.js";

/** Extensions of folder files that are imported as exports. */
const TEXT_EXTENSIONS = new Set(["json", "jsonl", "ndjson"]);

/**
 * A file to read: a File with the path it was found under (its name, the
 * path inside a chosen or dropped folder).
 * @typedef {object} Source
 * @property {File} file
 * @property {string} path  "conversations.json", "project/session.jsonl"
 * @property {boolean} inFolder  found inside a folder: files that are not
 *   JSON, JSON lines or ZIP are skipped instead of tried
 */

/**
 * One result of readImports.
 * - `{kind: "file", name, file, size}`: a file, not read: the store reads
 *   it (tree.importFile); `size` in bytes.
 * - `{kind: "zip", name, file, size}`: a ZIP, not read: the store reads
 *   it (tree.importZip).
 * - `{kind: "skip", name, reason}`: a file left out on purpose.
 * - `{kind: "error", name, message}`: a file that could not be read.
 * @typedef {{kind: "file" | "zip", name: string, file: File, size: number}
 *   | {kind: "skip", name: string, reason: string}
 *   | {kind: "error", name: string, message: string}} ImportPiece
 */

/**
 * Sources from a FileList (a file input, with or without webkitdirectory).
 * @param {FileList | File[]} files
 * @returns {Source[]} in the list's order
 */
export function sourcesFromFiles(files) {
  return [...files].map((file) => ({ file, path: file.webkitRelativePath || file.name, inFolder: Boolean(file.webkitRelativePath) }));
}

/**
 * Sources from a drop: every file dropped, and every file inside a dropped
 * folder (walked with FileSystemDirectoryEntry, as a loop), sorted by path
 * within each folder. Call it during the drop event: the items are read at
 * once, before the first await. Never rejects; a folder that cannot be
 * read is left out and named in `unreadable`.
 * @param {DataTransfer} dataTransfer
 * @returns {Promise<{sources: Source[], unreadable: {name: string, reason: string}[]}>}
 */
export async function sourcesFromDrop(dataTransfer) {
  const items = [...(dataTransfer?.items ?? [])].filter((item) => item.kind === "file");
  if (items.length === 0) return { sources: sourcesFromFiles(dataTransfer?.files ?? []), unreadable: [] };
  // Both must be taken synchronously: the items are emptied after the event.
  const picked = items.map((item) => ({ entry: typeof item.webkitGetAsEntry === "function" ? item.webkitGetAsEntry() : null, file: item.getAsFile() }));
  const sources = [];
  const unreadable = [];
  for (const { entry, file } of picked) {
    if (entry?.isDirectory) {
      try {
        sources.push(...(await walkDirectory(entry)));
      } catch (err) {
        unreadable.push({ name: entry.name, reason: `the folder cannot be read (${err?.message ?? err})` });
      }
    } else if (file) {
      sources.push({ file, path: file.name, inFolder: false });
    }
  }
  return { sources, unreadable };
}

/** Every file under a directory entry, as Sources with paths from the folder's name. */
async function walkDirectory(root) {
  const out = [];
  const stack = [root];
  while (stack.length > 0) {
    const dir = stack.pop();
    const reader = dir.createReader();
    const children = [];
    // readEntries answers in batches (100 in Chromium) until an empty one.
    for (;;) {
      const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
      if (batch.length === 0) break;
      children.push(...batch);
    }
    children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const child of children) {
      if (child.isDirectory) stack.push(child);
      else out.push({ file: await new Promise((resolve, reject) => child.file(resolve, reject)), path: child.fullPath.replace(/^\//, ""), inFolder: true });
    }
  }
  return out;
}

/** Whether a file starts with a ZIP signature (PK\3\4, or PK\5\6 for an empty ZIP). */
async function looksLikeZip(file) {
  if (file.size < 4) return false;
  const b = new Uint8Array(await file.slice(0, 4).arrayBuffer());
  return b[0] === 0x50 && b[1] === 0x4b && ((b[2] === 3 && b[3] === 4) || (b[2] === 5 && b[3] === 6));
}

/**
 * Sort sources into pieces to import, one at a time, with notes on what
 * was left out; no file is read here beyond its first 4 bytes. A ZIP (by
 * its signature or a .zip name) is a "zip" piece for tree.importZip; any
 * other chosen file, whatever its name, and a JSON or JSON lines file
 * inside a folder, is a "file" piece for tree.importFile (the store reads
 * it in its worker, converts UTF-16 and says so, and reports an empty or
 * unreadable file).
 *
 * Never throws: a file whose start cannot be read is an "error" piece.
 * @param {Source[]} sources
 * @returns {AsyncGenerator<ImportPiece>}
 */
export async function* readImports(sources) {
  for (const { file, path, inFolder } of sources) {
    const ext = extension(path);
    let zip = ext === "zip";
    try {
      if (!zip) zip = await looksLikeZip(file);
    } catch (err) {
      yield { kind: "error", name: path, message: `cannot be read (${err?.message ?? err})` };
      continue;
    }
    if (zip) yield { kind: "zip", name: path, file, size: file.size };
    else if (inFolder && !TEXT_EXTENSIONS.has(ext)) yield { kind: "skip", name: path, reason: ext === "" ? "not an export file" : `not an export file (.${ext})` };
    else yield { kind: "file", name: path, file, size: file.size };
  }
}
