// Reading an export ZIP (as ChatGPT and Claude.ai hand them out) where the
// store runs, as bytes: the file is read in chunks through Blob.stream()
// and fed to fflate's Unzip (js/vendor/fflate.js, copied from node_modules
// by make build and loaded with import() only when a ZIP arrives), and
// only the JSON / JSON lines entries are inflated, each into a Uint8Array
// within a memory budget; no entry becomes a JS string. The other entries
// (images, audio, other files) are recorded by name, type and size without
// being inflated, and matched to the conversations that name them
// (zip-attachments.js). tree.importZip (js/zip-import.js) imports the
// texts. No DOM.

import { MATCH_SLICE_MS, basename, describeAttachment, extension, formatSize, matchAttachments, pause } from "./zip-attachments.js";

/** @typedef {import("./zip-attachments.js").Attachment} Attachment */
/** @typedef {import("./zip-attachments.js").ConversationFiles} ConversationFiles */

/** Compressed bytes given to fflate at once (about 40 kB of output for JSON, at most 4 MB at deflate's best ratio). */
const PUSH_BYTES = 4 << 10;

/**
 * The most bytes one ZIP entry may inflate to, and all of a ZIP's text
 * entries together (256 MiB: the texts are held as bytes until they are
 * imported, beside the wasm's import buffer). An entry that declares more
 * is refused before it is inflated; one that inflates past it (its header
 * lied: a ZIP bomb) is stopped there. Either is reported, naming the
 * entry, its declared and actual size and this budget.
 */
export const ZIP_ENTRY_BUDGET = 256 << 20;

/** The most bytes a text entry's buffer starts with, whatever its header declares (16 MiB). */
const FIRST_BUFFER_BYTES = 16 << 20;

/** The file name of an Aider chat history (at a repository's root): read as export text too. */
const AIDER_HISTORY = ".aider.chat.history.md";

/** Extensions of entries that are read as export text. */
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
 * One result of readZip, in the ZIP's order: the ZIP's damage first, then
 * its texts, then what was left out.
 * - `{kind: "text", name, bytes, size, refs}`: an entry to import, its
 *   bytes as inflated (`size` of them); `refs` the attachments of the ZIP
 *   its conversations name.
 * - `{kind: "skip", name, reason}`: an entry (or the ZIP) left out on purpose.
 * - `{kind: "error", name, message}`: the ZIP damaged, or an entry that
 *   could not be read or was refused (a ZIP bomb: "refused: …").
 * Names are "archive.zip › path/inside.json" (the ZIP's own name for the ZIP).
 * @typedef {{kind: "text", name: string, bytes: Uint8Array, size: number, refs: ConversationFiles[]}
 *   | {kind: "skip", name: string, reason: string}
 *   | {kind: "error", name: string, message: string}} ZipPiece
 */

/** What feedUnzip answers when the signal stopped it. */
const ABORTED = Symbol("aborted");

/** Load fflate once, lazily. */
let fflate = null;
function loadFflate() {
  fflate ??= import("./vendor/fflate.js");
  return fflate;
}

/** The skip reason of a ZIP inside the ZIP: left unread, it may hold an export (unlike the other skips). */
export const NESTED_ZIP = "a ZIP inside the ZIP is not opened";

/**
 * What to do with a ZIP entry: "text" (read it), "ignore" (say nothing),
 * a skip reason, or "attachment".
 * @param {string} name the entry's path
 * @returns {string}
 */
function entryRole(name) {
  if (name.endsWith("/")) return "ignore";
  const base = basename(name);
  if (name.startsWith("__MACOSX/") || base.startsWith("._") || base === ".DS_Store") return "ignore";
  const ext = extension(name);
  if (TEXT_EXTENSIONS.has(ext)) return ACCOUNT_FILES.has(base.toLowerCase()) ? "account data, not conversations" : "text";
  if (base === AIDER_HISTORY) return "text"; // a repository's Aider history, as importFiles reads it
  if (ext === "html" || ext === "htm") return "the export's web page view (its JSON holds the same conversations)";
  if (ext === "zip") return NESTED_ZIP;
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
 * Append data to a text entry's bytes (t.bytes, t.size of them used),
 * growing its buffer by doubling, never past limit.
 * @param {{bytes: Uint8Array, size: number}} t @param {Uint8Array} data @param {number} limit bytes
 */
function appendBytes(t, data, limit) {
  const need = t.size + data.length;
  if (need > t.bytes.length) {
    const grown = new Uint8Array(Math.min(limit, Math.max(need, 2 * t.bytes.length)));
    grown.set(t.bytes.subarray(0, t.size));
    t.bytes = grown;
  }
  t.bytes.set(data, t.size);
  t.size = need;
}

/**
 * Inflate one ZIP text entry into t ({bytes, size, done, error}) within
 * the memory budget: an entry whose declared size, or whose inflated bytes
 * with the other text entries' (inflated.text), pass budget is refused
 * (t.error, "refused: …") and the rest of its bytes are skipped, not
 * inflated. Its buffer starts at the declared size (at most
 * FIRST_BUFFER_BYTES: a header may lie) and doubles as needed; a buffer
 * with much room left is cut to size at the end.
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
  t.bytes = new Uint8Array(Math.min(declared ?? 64 << 10, FIRST_BUFFER_BYTES, budget));
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
      t.bytes = null;
      entry.terminate(); // the rest of its bytes are skipped, not inflated
      return;
    }
    appendBytes(t, data, budget);
    if (final) {
      t.done = true;
      if (t.bytes.length - t.size > t.size >> 3) t.bytes = t.bytes.slice(0, t.size);
    }
  };
  try {
    entry.start();
  } catch (err) {
    t.error = err?.message ?? String(err); // a compression method fflate does not read
  }
}

/**
 * An fflate Unzip that sorts the ZIP's entries into state ({texts,
 * attachments, skips, entries}) as they arrive: texts inflated
 * (readTextEntry), attachments recorded, the rest noted.
 * @param {object} lib the fflate module
 * @param {string} zipName
 * @param {number} budget bytes
 * @param {object} state
 * @returns {object} fflate's Unzip
 */
function sortingUnzip(lib, zipName, budget, state) {
  const inflated = { text: 0 }; // inflated bytes of every text entry so far
  const unzip = new lib.Unzip((entry) => {
    state.entries++;
    const role = entryRole(entry.name);
    if (role === "ignore") return;
    if (role === "attachment") {
      const a = { name: entry.name, type: MIME_TYPES[extension(entry.name)] ?? "", size: Number.isFinite(entry.originalSize) ? entry.originalSize : null };
      state.attachments.push(a);
      if (a.size === null) countEntry(entry, a, budget);
      return;
    }
    if (role !== "text") {
      state.skips.push({ kind: "skip", name: `${zipName} › ${entry.name}`, reason: role });
      return;
    }
    const t = { name: entry.name, bytes: null, size: 0, done: false, error: null };
    state.texts.push(t);
    readTextEntry(entry, t, budget, inflated);
  });
  unzip.register(stoppableInflate(lib));
  return unzip;
}

/**
 * Feed a Blob's bytes to an Unzip in pieces of PUSH_BYTES, pausing every
 * MATCH_SLICE_MS (a well compressed chunk can inflate to megabytes).
 * @param {Blob} file @param {object} unzip @param {string} zipName
 * @param {((p: {name: string, read: number, total: number}) => void)|undefined} onProgress
 * @param {AbortSignal|undefined} signal stops the reading (the result is then ABORTED)
 * @returns {Promise<string|null|typeof ABORTED>} null, or why the ZIP could not be read through
 */
async function feedUnzip(file, unzip, zipName, onProgress, signal) {
  let read = 0;
  let since = performance.now();
  let reader = null;
  try {
    reader = file.stream().getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (let at = 0; at < value.length; at += PUSH_BYTES) {
        unzip.push(value.subarray(at, at + PUSH_BYTES), false);
        if (performance.now() - since > MATCH_SLICE_MS) {
          await pause();
          since = performance.now();
          if (signal?.aborted) return ABORTED;
        }
      }
      read += value.length;
      onProgress?.({ name: zipName, read, total: file.size });
    }
    unzip.push(new Uint8Array(0), true);
    return null;
  } catch (err) {
    return err?.message ?? String(err);
  } finally {
    reader?.cancel().catch(() => {});
  }
}

/**
 * Unzip one ZIP, streamed, into its pieces (see ZipPiece): its JSON and
 * JSON lines entries at any depth are texts, named "archive.zip ›
 * path/inside.json"; account files (users.json, projects.json, …) and the
 * export's HTML view are skipped; macOS resource files (__MACOSX/, ._*)
 * are ignored; every other entry is an attachment, matched to the
 * conversations that name it (each text's `refs`), and the ones no
 * conversation names are one "skip" piece. The texts are given after the
 * whole ZIP is read, so that attachments anywhere in it can be matched.
 *
 * Never rejects: a damaged ZIP, an unreadable file or a ZIP bomb is an
 * "error" piece naming it. Aborted (signal) while reading, it resolves to
 * null.
 * @param {Blob} file the ZIP
 * @param {{name?: string, budget?: number, onProgress?: (p: {name: string, read: number, total: number}) => void, signal?: AbortSignal}} [options]
 *   name: the ZIP's name in the pieces' names (default the File's name, else "archive.zip");
 *   budget: the bytes the ZIP's text entries may inflate to (default ZIP_ENTRY_BUDGET);
 *   onProgress: bytes of the ZIP read so far and its size
 * @returns {Promise<ZipPiece[]|null>}
 */
export async function readZip(file, { name, budget = ZIP_ENTRY_BUDGET, onProgress, signal } = {}) {
  const zipName = name ?? (typeof file?.name === "string" && file.name !== "" ? file.name : "archive.zip");
  // A 0-byte file says so, as an empty loose file does (not "a damaged ZIP").
  if (file?.size === 0) return [{ kind: "error", name: zipName, message: "the file is empty: nothing to import" }];
  let lib;
  try {
    lib = await loadFflate();
  } catch (err) {
    return [{ kind: "error", name: zipName, message: `cannot open ZIP files: the unzip library did not load (${err?.message ?? err})` }];
  }
  const state = { texts: [], attachments: [], skips: [], entries: 0 };
  const unzip = sortingUnzip(lib, zipName, budget, state);
  let broken = await feedUnzip(file, unzip, zipName, onProgress, signal);
  if (broken === ABORTED) return null;
  if (state.entries === 0) {
    return [{ kind: "error", name: zipName, message: broken === null ? "not a ZIP file, or a damaged one: no entry found in it" : `not a ZIP file, or a damaged one (${broken}): no entry could be read` }];
  }
  // The streamed reading stops quietly at a local header cut short: a ZIP
  // without its end record is cut off, whatever was read of it.
  if (broken === null && !(await hasEndRecord(file))) broken = "its end record is missing: the file is cut off";
  return piecesOf(state, zipName, broken);
}

/** The end of central directory record's signature, "PK\x05\x06" (APPNOTE.TXT 4.3.16). */
const END_SIGNATURE = [0x50, 0x4b, 0x05, 0x06];

/** The most bytes from a ZIP's end its end record can start at: 22 bytes and a comment of up to 65,535. */
const END_SEARCH_BYTES = 22 + 0xffff;

/**
 * Whether a ZIP ends with its end of central directory record (the PKWARE
 * ZIP format, APPNOTE.TXT 4.3.16): its signature within END_SEARCH_BYTES
 * of the end (a comment length that misses the end, which some writers
 * leave, is let pass). An unreadable file answers true (feedUnzip
 * reports that).
 * @param {Blob} file @returns {Promise<boolean>}
 */
async function hasEndRecord(file) {
  let tail;
  try {
    tail = new Uint8Array(await file.slice(Math.max(0, file.size - END_SEARCH_BYTES)).arrayBuffer());
  } catch {
    return true;
  }
  for (let at = tail.length - 22; at >= 0; at--) {
    if (END_SIGNATURE.every((b, k) => tail[at + k] === b)) return true;
  }
  return false;
}

/**
 * The pieces of a ZIP read through (readZip): the damage, the texts with
 * their attachments matched, the skips, the attachments no conversation
 * names.
 * @param {{texts: object[], attachments: Attachment[], skips: ZipPiece[]}} state
 * @param {string} zipName @param {string|null} broken why the ZIP could not be read through
 * @returns {Promise<ZipPiece[]>}
 */
async function piecesOf({ texts, attachments, skips }, zipName, broken) {
  const out = [];
  // A damaged or cut-off ZIP: the entries read whole before the damage are still imported.
  if (broken !== null) out.push({ kind: "error", name: zipName, message: `the ZIP is damaged or cut off (${broken}); only the entries before the damage were read` });
  const good = [];
  for (const t of texts) {
    const name = `${zipName} › ${t.name}`;
    if (t.error?.startsWith("refused:")) out.push({ kind: "error", name, message: t.error });
    else if (t.error) out.push({ kind: "error", name, message: `the entry is damaged (${t.error}); it was not imported` });
    else if (!t.done) out.push({ kind: "error", name, message: "the ZIP ends inside this entry (cut off); it was not imported" });
    else good.push({ name, bytes: t.bytes.subarray(0, t.size), size: t.size });
  }
  if (skips.length === 0 && attachments.length === 0 && texts.length === 0) {
    out.push({ kind: "skip", name: zipName, reason: "the ZIP holds no file" });
    return out;
  }
  const named = new Set();
  for (const g of good) {
    const refs = attachments.length > 0 ? await matchAttachments(g.bytes, attachments) : [];
    for (const r of refs) for (const f of r.files) named.add(f.file);
    out.push({ kind: "text", name: g.name, bytes: g.bytes, size: g.size, refs });
  }
  out.push(...skips);
  const loose = attachments.filter((a) => !named.has(a));
  if (loose.length > 0) {
    const shown = loose.slice(0, 10).map(describeAttachment).join(", ");
    out.push({ kind: "skip", name: zipName, reason: `${loose.length} ${loose.length === 1 ? "file" : "files"} not stored, named by no conversation read: ${shown}${loose.length > 10 ? `, and ${loose.length - 10} more` : ""}` });
  }
  return out;
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
 * The report of a ZIP entry past the budget: its declared size (null: the
 * header gives none) and the bytes it had inflated to when stopped (null:
 * refused before inflating).
 * @param {number|null} declared @param {number|null} actual @param {number} budget bytes
 * @returns {string}
 */
function overBudget(declared, actual, budget) {
  const said = declared === null ? "declares no size" : `declares ${formatSize(declared)} (${declared.toLocaleString("en")} bytes)`;
  const got = actual === null ? "it was not inflated" : `it inflated past ${formatSize(actual)} (${actual.toLocaleString("en")} bytes) and was stopped`;
  return `refused: the entry ${said}; ${got}: over the memory budget of ${formatSize(budget)} for the ZIP's texts; nothing of it was imported`;
}
