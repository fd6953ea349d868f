// Reading what a person gives the explorer to import: files chosen or
// dropped, folders (a dropped directory, or <input webkitdirectory>), and
// ZIP archives as ChatGPT and Claude.ai hand them out. Each becomes a text
// for tree.importText, a file the store reads itself (tree.importFile), or
// a ZIP the store reads itself (tree.importZip: streamed, inflated and
// imported in the store's worker, so no entry of it becomes a string on
// the page), plus notes on what was left out.
//
// No DOM here beyond the File and DataTransfer objects the page passes in.

import { extension, utf16Order } from "../js/zip-attachments.js";

/**
 * A file outside a ZIP this large (bytes) is not read as text here: its
 * piece is the File, which the store reads itself (tree.importFile, in its
 * worker), so a 200 MB export never becomes a string on the page.
 */
export const FILE_PIECE_BYTES = 16 * 1024 * 1024;

/** Extensions of folder files that are read as export text. */
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
 * - `{kind: "text", name, text, size}`: a text to import; `size` in bytes.
 * - `{kind: "file", name, file, size}`: a file of FILE_PIECE_BYTES or more
 *   (or in UTF-16), not read: the store reads it (tree.importFile).
 * - `{kind: "zip", name, file, size}`: a ZIP, not read: the store reads
 *   it (tree.importZip).
 * - `{kind: "skip", name, reason}`: a file left out on purpose.
 * - `{kind: "error", name, message}`: a file that could not be read.
 * @typedef {{kind: "text", name: string, text: string, size: number}
 *   | {kind: "file" | "zip", name: string, file: File, size: number}
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
 * Read sources into pieces to import, one at a time, with notes on what
 * was left out. A ZIP (by its signature or a .zip name) is not read here:
 * it is a "zip" piece for tree.importZip. Outside ZIPs, a chosen file is
 * read as text whatever its name; a file inside a folder only when it is
 * JSON, JSON lines or a ZIP; one of FILE_PIECE_BYTES or more, or one in
 * UTF-16 (a byte order mark first), is not read but handed on as a "file"
 * piece (the store converts UTF-16 and says so).
 *
 * Never throws: a file that cannot be read is an "error" piece.
 * @param {Source[]} sources
 * @param {{onProgress?: (p: {name: string, read: number, total: number}) => void}} [options]
 *   onProgress: while a file is read as text, bytes read so far and the file's size
 * @returns {AsyncGenerator<ImportPiece>}
 */
export async function* readImports(sources, { onProgress } = {}) {
  for (const { file, path, inFolder } of sources) {
    const ext = extension(path);
    let zip = ext === "zip";
    try {
      if (!zip) zip = await looksLikeZip(file);
    } catch (err) {
      yield { kind: "error", name: path, message: `cannot be read (${err?.message ?? err})` };
      continue;
    }
    if (zip) {
      yield { kind: "zip", name: path, file, size: file.size };
      continue;
    }
    if (inFolder && !TEXT_EXTENSIONS.has(ext)) {
      yield { kind: "skip", name: path, reason: ext === "" ? "not an export file" : `not an export file (.${ext})` };
      continue;
    }
    // UTF-16 (its byte order mark first) is the store's to convert: it says so in the report.
    if (file.size >= FILE_PIECE_BYTES || (await utf16BOM(file)) !== null) {
      yield { kind: "file", name: path, file, size: file.size };
      continue;
    }
    let text;
    try {
      text = await readText(file, path, onProgress);
    } catch (err) {
      yield { kind: "error", name: path, message: `cannot be read (${err?.message ?? err})` };
      continue;
    }
    yield { kind: "text", name: path, text, size: file.size };
  }
}

/**
 * The UTF-16 byte order a Blob's byte order mark names ("utf-16le" for
 * FF FE, "utf-16be" for FE FF), or null for any other start (UTF-8, with
 * or without its own mark).
 * @param {Blob} blob
 * @returns {Promise<"utf-16le"|"utf-16be"|null>}
 */
async function utf16BOM(blob) {
  if (blob.size < 2) return null;
  return utf16Order(new Uint8Array(await blob.slice(0, 2).arrayBuffer()));
}

/** A file's text (UTF-8), read in chunks with progress. */
async function readText(file, name, onProgress) {
  const reader = file.stream().getReader();
  const decoder = new TextDecoder();
  const parts = [];
  let read = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    read += value.length;
    parts.push(decoder.decode(value, { stream: true }));
    onProgress?.({ name, read, total: file.size });
  }
  parts.push(decoder.decode());
  return parts.join("");
}
