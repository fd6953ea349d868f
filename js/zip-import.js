// tree.importZip where the store runs (in its worker by default): an
// export ZIP read as bytes (js/zip-read.js: streamed, its text entries
// inflated within a memory budget, a ZIP bomb refused) and each text entry
// imported as importFile imports a file (LocalTree._importBytes, format
// "auto"), one after another, each stored on its own; a snapshot of a
// session the store has held back for the caller to ask about, when asked
// to. Loaded with import() the first time a ZIP is imported.

import { closedEnvelope, errorEnvelope } from "./api-errors.js";
import { ERROR, REASON } from "./protocol.js";
import { snapshotSessionId } from "./request-text.js";
import { NESTED_ZIP, readZip } from "./zip-read.js";

/** @typedef {import("./zip-attachments.js").ConversationFiles} ConversationFiles */

/**
 * One entry of an importZip report, in the ZIP's order: `{kind: "text",
 * name, size, refs, envelope}` an entry imported (envelope: its import's,
 * as importFile's; size: its inflated bytes; refs: the ZIP's attachments
 * its conversations name), `{kind: "snapshot", name, size, sessionId,
 * data}` a sessiontree snapshot of a session the store has, held (not
 * imported; data: its bytes as a Blob), or the skip and error pieces of
 * readZip (`{kind: "skip", name, reason}`, `{kind: "error", name, message}`).
 * @typedef {{kind: "text", name: string, size: number, refs: ConversationFiles[], envelope: object}
 *   | {kind: "snapshot", name: string, size: number, sessionId: string, data: Blob}
 *   | {kind: "skip", name: string, reason: string}
 *   | {kind: "error", name: string, message: string}} ZipEntryReport
 */

/** The envelope of an entry not imported because the import was aborted. */
const abortedEnvelope = () => errorEnvelope(ERROR.INVALID_ARGUMENT, "import aborted; nothing was imported");

/**
 * Import an export ZIP (TreeAPI.importZip checked the arguments): read it
 * (readZip), then import its text entries one after another through
 * tree._importBytes (format "auto"), each stored on its own; an entry's
 * bytes are let go once it is imported. onProgress gets `{phase: "read",
 * name, read, total}` (bytes of the ZIP) while it is read and `{phase:
 * "import", name, read, total}` (an entry's work, as importFile's) while
 * an entry is imported. An abort while reading imports nothing; during an
 * entry, that entry and the ones after it are not imported (their
 * envelopes say so) and the ones before stay. With hold, an entry whose
 * start names a snapshot of a session the store has (snapshotSessionId,
 * as importFile's route to snapshot.load reads it; the session asked of
 * core) is not imported but reported with its bytes (heldSnapshot).
 * @param {import("./local.js").LocalTree} tree
 * @param {Blob} file the ZIP
 * @param {{name?: string, budget?: number, hold?: boolean, onProgress?: (p: {phase: "read"|"import", name: string, read: number, total: number}) => void, signal?: AbortSignal}} options
 * @returns {Promise<object>} the envelope; value {entries: ZipEntryReport[]}; INVALID_ARGUMENT
 *   "import aborted; nothing was imported" for an abort while reading, INVALID_ARGUMENT with reason
 *   NOTHING_TO_IMPORT and the same `entries` on the error when no entry gave a session (see
 *   nothingImported), STORAGE_ERROR after close()
 */
export async function importZipFile(tree, file, { name, budget, hold = false, onProgress, signal } = {}) {
  if (tree._writer?.closedReason) return closedEnvelope(tree._writer.closedReason, "nothing was imported");
  const progress = (p) => {
    try {
      onProgress?.(p);
    } catch (err) {
      console.error("sessiontree: an onProgress callback threw", err);
    }
  };
  const pieces = await readZip(file, { name, budget, signal, onProgress: (p) => progress({ phase: "read", ...p }) });
  if (pieces === null || signal?.aborted) return abortedEnvelope();
  const entries = [];
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i];
    pieces[i] = null; // its bytes go once it is imported
    if (p.kind !== "text") {
      entries.push(p);
      continue;
    }
    const held = hold && !signal?.aborted ? heldSnapshot(tree, p) : null;
    if (held !== null) {
      entries.push(held);
      continue;
    }
    let envelope;
    if (signal?.aborted) envelope = abortedEnvelope();
    else if (p.size === 0) envelope = { ok: false, error: { code: ERROR.INVALID_ARGUMENT, message: "the file is empty: nothing to import", reason: REASON.NOTHING_TO_IMPORT } };
    else envelope = await tree._importBytes(p.bytes, "auto", { signal, onProgress: ({ read, total }) => progress({ phase: "import", name: p.name, read, total }) });
    entries.push({ kind: "text", name: p.name, size: p.size, refs: p.refs, envelope });
  }
  if (!entries.some((e) => e.kind === "snapshot" || (e.kind === "text" && e.envelope.ok))) return signal?.aborted ? abortedEnvelope() : nothingImported(name, entries);
  return { ok: true, value: { entries } };
}

/** Entries a nothing-imported message names, at most; the rest are counted. */
const NAMED_ENTRIES = 5;

/**
 * The envelope of a ZIP from which nothing was imported (no entry gave a
 * session or was held; not an abort): INVALID_ARGUMENT (or the one code
 * of every entry, all texts refused alike, as SESSION_ALREADY_EXISTS for
 * sessions in the trash), reason NOTHING_TO_IMPORT, as
 * importFiles answers a folder that gave nothing (entries skipped as no
 * export do not count for the code), its message naming why
 * for the first entries and its `entries` the whole report (an app that
 * checks `ok` does not report a success).
 * @param {string} name the ZIP's @param {ZipEntryReport[]} entries
 */
function nothingImported(name, entries) {
  const why = entries.map((e) => `${e.name}: ${e.kind === "text" ? e.envelope.error.message : (e.message ?? e.reason)}`);
  const more = why.length > NAMED_ENTRIES ? `; and ${why.length - NAMED_ENTRIES} more` : "";
  const message = `nothing imported from ${name}: ${why.length === 0 ? "it holds no entry" : why.slice(0, NAMED_ENTRIES).join("; ") + more}`;
  // Every export in it refused for one reason (each session in the trash: SESSION_ALREADY_EXISTS): that
  // code, as importFile's. Entries left out as no export (a ChatGPT ZIP's user.json, chat.html, images)
  // do not count; a damaged one, or a ZIP inside it (unread: it may hold an export), does (INVALID_ARGUMENT).
  const counted = entries.filter((e) => e.kind !== "skip" || e.reason === NESTED_ZIP);
  const codes = new Set(counted.map((e) => (e.kind === "text" ? e.envelope.error.code : ERROR.INVALID_ARGUMENT)));
  const code = codes.size === 1 ? [...codes][0] : ERROR.INVALID_ARGUMENT;
  return { ok: false, error: { code, reason: REASON.NOTHING_TO_IMPORT, message, entries } };
}

/**
 * An entry's report as a held snapshot (`{kind: "snapshot", name, size,
 * sessionId, data}`, data a Blob of its bytes) when its start is a
 * sessiontree snapshot of a session the store has, else null (import it).
 * @param {import("./local.js").LocalTree} tree
 * @param {{name: string, size: number, bytes: Uint8Array}} p a text piece of readZip
 * @returns {ZipEntryReport|null}
 */
function heldSnapshot(tree, p) {
  const sessionId = snapshotSessionId(p.bytes);
  if (sessionId === null || !tree._hasSession(sessionId)) return null;
  return { kind: "snapshot", name: p.name, size: p.size, sessionId, data: new Blob([p.bytes], { type: "application/json" }) };
}
