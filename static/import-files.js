// Reading what a person gives the explorer to import: files chosen or
// dropped, folders (a dropped directory, or <input webkitdirectory>), and
// ZIP archives as ChatGPT and Claude.ai hand them out. Each becomes one or
// more texts for tree.importText, plus notes on what was left out.
//
// ZIPs are read with fflate (static/vendor/fflate.js, loaded with import()
// only when a ZIP arrives), streamed: the file is read in chunks through
// Blob.stream() and fed to fflate's Unzip, and only the JSON / JSON lines
// entries are inflated. The other entries (images, audio, other files) are
// recorded by name, type and size without being inflated, and matched to
// the conversations that name them (see matchAttachments).
//
// No DOM here beyond the File and DataTransfer objects the page passes in.

import { MATCH_SLICE_MS, basename, extension, matchAttachments, pause } from "./zip-attachments.js";

export { matchAttachments };

/** Where fflate's ES module build is served (copied by the Makefile's vendor rule). */
const FFLATE_URL = "./vendor/fflate.js";

/** Compressed bytes given to fflate at once (about 40 kB of output for JSON, at most 4 MB at deflate's best ratio). */
const PUSH_BYTES = 4 << 10;

/**
 * A file outside a ZIP this large (bytes) is not read as text here: its
 * piece is the File, which the store reads itself (tree.importFile, in its
 * worker), so a 200 MB export never becomes a string on the page.
 */
export const FILE_PIECE_BYTES = 16 * 1024 * 1024;

/**
 * The most bytes one ZIP entry may inflate to, and all of a ZIP's text
 * entries together (256 MiB: a JS string of an entry stays far below V8's
 * ~512 M character limit, and a page holds a few of them). An entry that
 * declares more is refused before it is inflated; one that inflates past
 * it (its header lied: a ZIP bomb) is stopped there. Either is reported,
 * naming the entry, its declared and actual size and this budget.
 */
export const ZIP_ENTRY_BUDGET = 256 << 20;

/** Extensions of entries and folder files that are read as export text. */
const TEXT_EXTENSIONS = new Set(["json", "jsonl", "ndjson"]);

/**
 * JSON files of the ChatGPT and Claude.ai exports that hold account data,
 * not conversations: skipped by name (no format reads them).
 */
const ACCOUNT_FILES = new Set(["users.json", "user.json", "projects.json", "message_feedback.json", "model_comparisons.json", "shared_conversations.json", "memories.json", "user_settings.json"]);

/** MIME types of the attachment extensions seen in exports ("" for others). */
const MIME_TYPES = {
  png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", gif: "image/gif", webp: "image/webp", svg: "image/svg+xml", heic: "image/heic", bmp: "image/bmp",
  wav: "audio/wav", mp3: "audio/mpeg", m4a: "audio/mp4", ogg: "audio/ogg", webm: "audio/webm", mp4: "video/mp4",
  pdf: "application/pdf", txt: "text/plain", md: "text/markdown", csv: "text/csv", html: "text/html", htm: "text/html",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  zip: "application/zip", py: "text/x-python", js: "text/javascript",
};

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
 * A file of a ZIP that is not read as text (an image, audio, another file).
 * @typedef {object} Attachment
 * @property {string} name  path inside the ZIP
 * @property {string} type  MIME type guessed from the extension, "" when unknown
 * @property {number | null} size  uncompressed size in bytes, null when the ZIP's entry header does not say
 */

/**
 * The attachments one conversation names.
 * @typedef {object} ConversationFiles
 * @property {string} conversationId  the conversation's id in the export (its session id)
 * @property {string} title
 * @property {{file: Attachment, messageId: string | null}[]} files  messageId: the message naming it (null: found by the conversation's folder)
 */

/**
 * One result of readImports.
 * - `{kind: "text", name, text, size, refs}`: a text to import; `size` in
 *   bytes; `refs` the attachments of its ZIP that its conversations name
 *   (empty outside ZIPs).
 * - `{kind: "file", name, file, size, refs}`: a file of FILE_PIECE_BYTES
 *   or more, not read (refs empty).
 * - `{kind: "skip", name, reason}`: a file or entry left out on purpose.
 * - `{kind: "error", name, message}`: a file that could not be read (a
 *   damaged ZIP, an unreadable file).
 * @typedef {{kind: "text", name: string, text: string, size: number, refs: ConversationFiles[]}
 *   | {kind: "file", name: string, file: File, size: number, refs: ConversationFiles[]}
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
 * Read sources into texts to import, one at a time, with notes on what was
 * left out. A ZIP (by its signature or a .zip name) is unzipped: its JSON
 * and JSON lines entries at any depth become texts, named
 * "archive.zip › path/inside.json"; account files (users.json,
 * projects.json, …) and the export's HTML view are skipped; macOS
 * resource files (__MACOSX/, ._*) are ignored; every other entry is an
 * attachment, matched to the conversations that name it (each text's
 * `refs`), and the ones no conversation names are one "skip" note. Outside
 * ZIPs, a chosen file is read as text whatever its name; a file inside a
 * folder only when it is JSON, JSON lines or a ZIP; one of
 * FILE_PIECE_BYTES or more, or one in UTF-16 (a byte order mark first),
 * is not read but handed on as a "file" piece (the store converts UTF-16
 * and says so); a ZIP entry in UTF-16 is decoded as such.
 *
 * Never throws: a file that cannot be read is an "error" piece.
 * @param {Source[]} sources
 * @param {{onProgress?: (p: {name: string, read: number, total: number}) => void, budget?: number}} [options]
 *   onProgress: while a file is read (a ZIP, or a file read as text),
 *   bytes read so far and the file's size; budget: the bytes a ZIP's text
 *   entries may inflate to (default ZIP_ENTRY_BUDGET)
 * @returns {AsyncGenerator<ImportPiece>}
 */
export async function* readImports(sources, { onProgress, budget = ZIP_ENTRY_BUDGET } = {}) {
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
      yield* readZip(file, path, onProgress, budget);
      continue;
    }
    if (inFolder && !TEXT_EXTENSIONS.has(ext)) {
      yield { kind: "skip", name: path, reason: ext === "" ? "not an export file" : `not an export file (.${ext})` };
      continue;
    }
    // UTF-16 (its byte order mark first) is the store's to convert: it says so in the report.
    if (file.size >= FILE_PIECE_BYTES || (await utf16BOM(file)) !== null) {
      yield { kind: "file", name: path, file, size: file.size, refs: [] };
      continue;
    }
    let text;
    try {
      text = await readText(file, path, onProgress);
    } catch (err) {
      yield { kind: "error", name: path, message: `cannot be read (${err?.message ?? err})` };
      continue;
    }
    yield { kind: "text", name: path, text, size: file.size, refs: [] };
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

/** utf16BOM of the first bytes of a text: the decoder's label, or null. */
function utf16Order(bytes) {
  if (bytes.length < 2) return null;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return null;
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

/** Load fflate once, lazily. */
let fflate = null;
function loadFflate() {
  fflate ??= import(new URL(FFLATE_URL, import.meta.url).href);
  return fflate;
}

/**
 * What to do with a ZIP entry: "text" (read it), "ignore" (say nothing),
 * a skip reason, or "attachment".
 */
function entryRole(name) {
  if (name.endsWith("/")) return "ignore";
  const base = basename(name);
  if (name.startsWith("__MACOSX/") || base.startsWith("._") || base === ".DS_Store") return "ignore";
  const ext = extension(name);
  if (TEXT_EXTENSIONS.has(ext)) return ACCOUNT_FILES.has(base.toLowerCase()) ? "account data, not conversations" : "text";
  if (ext === "html" || ext === "htm") return "the export's web page view (its JSON holds the same conversations)";
  if (ext === "zip") return "a ZIP inside the ZIP is not opened";
  return "attachment";
}

/**
 * Count the inflated bytes of a ZIP attachment entry whose header gives no
 * size (a ZIP written as a stream), dropping them; a.size is set when the
 * entry ends within budget (bytes), else stays null (a bomb is counted no
 * further). A compression method fflate does not read leaves it null.
 * @param {object} entry fflate's UnzipFile
 * @param {{size: number|null}} a the attachment
 * @param {number} budget bytes
 */
function countEntry(entry, a, budget) {
  let n = 0;
  entry.ondata = (err, data, final) => {
    if (err) return;
    n += data.length;
    if (n > budget) entry.terminate();
    else if (final) a.size = n;
  };
  try {
    entry.start();
  } catch {
    // the size stays unknown
  }
}

/**
 * Inflate and decode one ZIP text entry into t ({parts, decoder, size,
 * done, error}) within the memory budget: an entry whose declared size, or
 * whose inflated bytes with the other text entries' (inflated.text), pass
 * budget is refused (t.error, "refused: …") and the rest of its bytes are
 * skipped, not inflated. A UTF-16 entry (its byte order mark first) is
 * decoded as such.
 * @param {object} entry fflate's UnzipFile
 * @param {object} t the text entry's state
 * @param {number} budget bytes
 * @param {{text: number}} inflated bytes inflated so far by every text entry
 */
function readTextEntry(entry, t, budget, inflated) {
  const declared = Number.isFinite(entry.originalSize) ? entry.originalSize : null;
  if (declared !== null && (declared > budget || inflated.text + declared > budget)) {
    t.error = overBudget(declared, null, budget);
    return; // never inflated
  }
  entry.ondata = (err, data, final) => {
    if (err) {
      t.error = err.message ?? String(err);
      return;
    }
    if (t.refused) return;
    inflated.text += data.length;
    if (t.size + data.length > budget || inflated.text > budget) {
      t.error = overBudget(declared, t.size + data.length, budget);
      t.refused = true;
      inflated.text -= t.size + data.length; // what the other entries may still use
      t.parts = [];
      entry.terminate(); // the rest of its bytes are skipped, not inflated
      return;
    }
    // An entry saved as UTF-16 (its byte order mark first) is decoded as such.
    if (t.size === 0 && utf16Order(data) !== null) t.decoder = new TextDecoder(utf16Order(data));
    t.size += data.length;
    t.parts.push(t.decoder.decode(data, { stream: !final }));
    if (final) t.done = true;
  };
  try {
    entry.start();
  } catch (err) {
    t.error = err?.message ?? String(err); // a compression method fflate does not read
  }
}

/**
 * Unzip one ZIP file, streamed. Yields its texts (after the whole ZIP is
 * read, so that attachments anywhere in it can be matched), then its notes.
 */
async function* readZip(file, zipName, onProgress, budget) {
  let lib;
  try {
    lib = await loadFflate();
  } catch (err) {
    yield { kind: "error", name: zipName, message: `cannot open ZIP files: the unzip library did not load (${err?.message ?? err})` };
    return;
  }
  const texts = []; // {name, parts, decoder, size, done, error}
  const inflated = { text: 0 }; // inflated bytes of every text entry so far
  const attachments = [];
  const skips = [];
  let entries = 0;
  const unzip = new lib.Unzip((entry) => {
    entries++;
    const role = entryRole(entry.name);
    if (role === "ignore") return;
    if (role === "attachment") {
      const a = { name: entry.name, type: MIME_TYPES[extension(entry.name)] ?? "", size: Number.isFinite(entry.originalSize) ? entry.originalSize : null };
      attachments.push(a);
      if (a.size === null) countEntry(entry, a, budget);
      return;
    }
    if (role !== "text") {
      skips.push({ kind: "skip", name: `${zipName} › ${entry.name}`, reason: role });
      return;
    }
    const t = { name: entry.name, parts: [], decoder: new TextDecoder(), size: 0, done: false, error: null };
    texts.push(t);
    readTextEntry(entry, t, budget, inflated);
  });
  unzip.register(stoppableInflate(lib));

  let read = 0;
  let broken = null;
  let since = performance.now();
  try {
    const reader = file.stream().getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      // Fed in small pieces, pausing now and then: a well compressed
      // chunk can inflate to megabytes.
      for (let at = 0; at < value.length; at += PUSH_BYTES) {
        unzip.push(value.subarray(at, at + PUSH_BYTES), false);
        if (performance.now() - since > MATCH_SLICE_MS) {
          await pause();
          since = performance.now();
        }
      }
      read += value.length;
      onProgress?.({ name: zipName, read, total: file.size });
    }
    unzip.push(new Uint8Array(0), true);
  } catch (err) {
    broken = err?.message ?? String(err);
  }
  if (entries === 0) {
    yield { kind: "error", name: zipName, message: broken === null ? "not a ZIP file, or a damaged one: no entry found in it" : `not a ZIP file, or a damaged one (${broken}): no entry could be read` };
    return;
  }
  // A damaged or cut-off ZIP: the entries read whole before the damage are still imported.
  if (broken !== null) yield { kind: "error", name: zipName, message: `the ZIP is damaged or cut off (${broken}); only the entries before the damage were read` };
  const good = [];
  for (const t of texts) {
    const name = `${zipName} › ${t.name}`;
    if (t.error?.startsWith("refused:")) yield { kind: "error", name, message: t.error };
    else if (t.error) yield { kind: "error", name, message: `the entry is damaged (${t.error}); it was not imported` };
    else if (!t.done) yield { kind: "error", name, message: "the ZIP ends inside this entry (cut off); it was not imported" };
    else good.push({ name, text: t.parts.join(""), size: t.size });
  }
  if (good.length === 0 && skips.length === 0 && attachments.length === 0 && texts.length === 0) {
    yield { kind: "skip", name: zipName, reason: "the ZIP holds no file" };
    return;
  }
  const named = new Set();
  for (const g of good) {
    const refs = attachments.length > 0 ? await matchAttachments(g.text, attachments) : [];
    for (const r of refs) for (const f of r.files) named.add(f.file);
    yield { kind: "text", name: g.name, text: g.text, size: g.size, refs };
  }
  yield* skips;
  const loose = attachments.filter((a) => !named.has(a));
  if (loose.length > 0) {
    const shown = loose.slice(0, 10).map(describeAttachment).join(", ");
    yield { kind: "skip", name: zipName, reason: `${loose.length} ${loose.length === 1 ? "file" : "files"} not stored, named by no conversation read: ${shown}${loose.length > 10 ? `, and ${loose.length - 10} more` : ""}` };
  }
}

/**
 * fflate's ZIP deflate decoder (UnzipInflate: compression 8, an Inflate
 * that reports to ondata) with a terminate() that stops it: the entry's
 * remaining bytes are then passed over, not inflated (fflate's own
 * synchronous decoder has no terminate, so a stopped ZIP bomb went on
 * inflating its gigabytes, only to drop them).
 * @param {object} lib the fflate module
 */
function stoppableInflate(lib) {
  return class StoppableInflate {
    static compression = 8;
    constructor() {
      this.stopped = false;
      this.i = new lib.Inflate((dat, final) => this.ondata(null, dat, final));
    }
    push(chunk, final) {
      if (this.stopped) return;
      try {
        this.i.push(chunk, final);
      } catch (e) {
        this.ondata(e, null, final);
      }
    }
    terminate() {
      this.stopped = true;
    }
  };
}

/**
 * The report of a ZIP entry past ZIP_ENTRY_BUDGET: its declared size (null:
 * the header gives none) and the bytes it had inflated to when stopped
 * (null: refused before inflating).
 * @param {number|null} declared @param {number|null} actual @param {number} budget bytes
 * @returns {string}
 */
function overBudget(declared, actual, budget) {
  const said = declared === null ? "declares no size" : `declares ${formatSize(declared)} (${declared.toLocaleString("en")} bytes)`;
  const got = actual === null ? "it was not inflated" : `it inflated past ${formatSize(actual)} (${actual.toLocaleString("en")} bytes) and was stopped`;
  return `refused: the entry ${said}; ${got}: over the memory budget of ${formatSize(budget)} for the ZIP's texts; nothing of it was imported`;
}

/**
 * An attachment as "photo.png (image/png, 12.3 kB)".
 * @param {Attachment} a
 * @returns {string}
 */
export function describeAttachment(a) {
  const facts = [a.type || "unknown type", a.size === null ? "size unknown" : formatSize(a.size)];
  return `${basename(a.name)} (${facts.join(", ")})`;
}

/** Bytes as "820 B", "12.3 kB", "4.1 MB" (decimal units). */
function formatSize(n) {
  if (n < 1000) return `${n} B`;
  if (n < 1e6) return `${(n / 1e3).toFixed(1)} kB`;
  return `${(n / 1e6).toFixed(1)} MB`;
}
