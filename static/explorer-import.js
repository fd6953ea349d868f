// The explorer's import of chosen or dropped files, folders and ZIP
// archives (import-files.js sorts them into pieces): one piece after
// another through the tree's importFile or importZip (each read by the
// store, in its worker: the page never holds an export's text), each large
// one with the progress bar and its Cancel, into one report
// (explorer-report.js shows it). A sessiontree snapshot of a session
// already here, a loose file or a ZIP entry, goes through importText
// instead, which the explorer wraps to ask whether to replace the session
// or add a copy (restore-points.js). Also the ZIP files of a folder "Open a
// folder…" reads (open-folder.js).

import { readImports } from "./import-files.js";
import { describeAttachment } from "../js/zip-attachments.js";
import { snapshotSessionId } from "./restore-points.js";
import { SNAPSHOT_HEAD_BYTES } from "../js/request-text.js";
import { hideProgress, showProgress } from "./explorer-report.js";
import { ERROR, REASON } from "../js/protocol.js";
import { changeOf, skippedLine } from "./report-lines.js";
import { DEMO_SESSION_ID } from "./demo.js";
import { isolate } from "./node-text.js";

/**
 * After an import that made sessions, offer in its report to move the demo
 * session (made on a first visit) to the trash: it stayed among the
 * user's own histories, counted as "Made here". Undo as for any session.
 * @param {{hasSession: (id: string) => boolean}} ctx
 * @param {{sessionId: string, existing?: boolean}[]} sessions the import's
 */
export function offerDemoTrash(ctx, sessions) {
  const made = sessions.some((s) => s.sessionId !== DEMO_SESSION_ID && changeOf(s) === "made");
  document.getElementById("report-demo").hidden = !(made && ctx.hasSession(DEMO_SESSION_ID));
}

/** Files larger than this (bytes) show a progress bar while importing. */
const PROGRESS_BYTES = 512 * 1024;

/**
 * Import sources one after another (as importFiles) into a report, shown
 * by the caller: its per-file lines only when several were read, or a ZIP
 * or folder; then each failure is said on its file's line only (errors
 * empty), else once among the errors.
 * @param {{tree: object, setStatus: (text: string) => void, hasSession: (id: string) => boolean}} ctx
 * @param {import("./import-files.js").Source[]} sources
 * @param {{name: string, reason: string}[]} [unreadable] folders a drop could not read
 * @returns {Promise<{sessions: object[], warnings: object[], errors: string[], skipped: object[], files: object[]}>}
 */
export async function readSources(ctx, sources, unreadable = []) {
  const report = { sessions: [], warnings: [], errors: [], skipped: [], files: [] };
  for (const u of unreadable) {
    report.errors.push(`${u.name}: ${u.reason}`);
    report.files.push({ name: u.name, text: u.reason, kind: "error" });
  }
  let fromArchive = sources.some((s) => s.inFolder);
  for await (const piece of readImports(sources)) {
    if (piece.kind === "zip") {
      fromArchive = true;
      await importZip(ctx, piece, report);
    } else if (!notePiece(piece, report)) await importPiece(ctx, piece, report);
  }
  hideProgress();
  if (report.files.length <= 1 && !fromArchive) return { ...report, files: [] };
  // Each failure and cancellation is on its file's line, with its reason: said once, not again as a warning.
  return { ...report, errors: [], warnings: report.warnings.filter((w) => !w.cancelled) };
}

/**
 * Put an error or skip piece (of readImports, or an entry of importZip's
 * report) into the report.
 * @returns {boolean} whether it was one
 */
function notePiece(piece, report) {
  if (piece.kind === "error") {
    report.errors.push(`${piece.name}: ${piece.message}`);
    report.files.push({ name: piece.name, text: piece.message, kind: "error" });
    return true;
  }
  if (piece.kind === "skip") {
    report.files.push({ name: piece.name, text: skippedLine(piece.reason), kind: "skipped" });
    return true;
  }
  return false;
}

/**
 * Import a ZIP through tree.importZip (read, inflated and imported in the
 * store's worker) into the report, entry by entry as a file piece's: the
 * progress bar (reading the ZIP, then each large entry) and its Cancel,
 * which stops the entry being imported and the ones after it. An entry
 * that is a snapshot of a session here is held by the store
 * (existingSnapshots "hold") and imported afterwards as a loose one is
 * (importSnapshot), so the replace-or-copy question is asked for it too.
 */
async function importZip(ctx, { name, file }, report) {
  ctx.setStatus(`Reading ${isolate(name)}…`);
  const abort = new AbortController();
  const onProgress = ({ phase, name: at, read, total }) => {
    if (total > PROGRESS_BYTES) showProgress(`${phase === "read" ? "Reading" : "Importing"} ${at}…`, total > 0 ? read / total : 0, abort);
    else hideProgress();
    if (phase === "import") ctx.setStatus(`Importing ${isolate(at)}…`);
  };
  const env = await ctx.tree.importZip(file, { name, onProgress, signal: abort.signal, existingSnapshots: "hold" });
  hideProgress();
  // Nothing imported from it: the error carries the entries' report, said entry by entry as ever.
  const entries = env.ok ? env.value.entries : env.error.entries;
  if (!entries) return recordImport(name, env, [], abort.signal.aborted, report);
  for (const entry of entries) {
    if (entry.kind === "snapshot") await importSnapshot(ctx, entry.name, entry.data, report);
    else if (!notePiece(entry, report)) recordImport(entry.name, entry.envelope, entry.refs, abort.signal.aborted, report);
  }
}

/**
 * Import one file of readImports into the report: read by the store
 * (tree.importFile), whatever its size. A large one shows the progress
 * bar, whose Cancel button aborts it (nothing of it is stored then). A
 * snapshot of a session already here goes to importSnapshot instead.
 */
async function importPiece(ctx, { name, file, size }, report) {
  if (size === 0) {
    const error = { code: ERROR.INVALID_ARGUMENT, message: "the file is empty: nothing to import", reason: REASON.NOTHING_TO_IMPORT };
    return recordImport(name, { ok: false, error }, [], false, report);
  }
  let head;
  try {
    head = await file.slice(0, SNAPSHOT_HEAD_BYTES).text();
  } catch (err) {
    return notePiece({ kind: "error", name, message: `cannot be read (${err?.message ?? err})` }, report);
  }
  if (snapshotOfSession(ctx, head)) return importSnapshot(ctx, name, file, report);
  ctx.setStatus(`Importing ${isolate(name)}…`);
  const big = size > PROGRESS_BYTES;
  const abort = new AbortController();
  if (big) showProgress(`Importing ${name}…`, 0, abort);
  const options = big ? { onProgress: ({ read, total }) => showProgress(`Importing ${name}…`, total > 0 ? read / total : 0, abort), signal: abort.signal } : undefined;
  const env = await ctx.tree.importFile(file, options);
  hideProgress();
  recordImport(name, env, [], abort.signal.aborted, report);
}

/**
 * Import a sessiontree snapshot of a session already here (a loose file,
 * or a ZIP entry the store held) into the report: its text goes through
 * importText, which the explorer wraps to ask whether to replace the
 * session or add a copy (the one import whose text the page reads: the
 * question needs the file's node count, and a copy its id changed).
 * @param {object} ctx @param {string} name @param {Blob} data @param {object} report
 */
async function importSnapshot(ctx, name, data, report) {
  ctx.setStatus(`Importing ${isolate(name)}…`);
  let text;
  try {
    text = await data.text();
  } catch (err) {
    return notePiece({ kind: "error", name, message: `cannot be read (${err?.message ?? err})` }, report);
  }
  recordImport(name, await ctx.tree.importText(text, "auto"), [], false, report);
}

/**
 * What the report says of a file no format reads: core's reason without
 * the description of every format it tried ("; tried: snapshot (…);
 * chatgpt (…); …", ~1,500 characters), then only their names.
 * @param {string} message core's NOTHING_TO_IMPORT message
 * @returns {string}
 */
function undetectedText(message) {
  const at = message.indexOf("; tried: ");
  if (at < 0) return message;
  const names = message.slice(at + 9).split(/\); /).map((f) => f.split(" (")[0].trim()).filter(Boolean);
  return `${message.slice(0, at)}. The formats read: ${names.join(", ")}.`;
}

/**
 * Put one import's envelope into the report: its sessions, warnings (each
 * naming the file) and a line for the file; a cancelled one as cancelled;
 * inside a ZIP or folder, a file no format reads as skipped; and the
 * attachments of a ZIP its conversations name (refs), not stored.
 * @param {string} name @param {object} env @param {object[]} refs
 * @param {boolean} aborted whether the import was cancelled
 * @param {object} report
 */
function recordImport(name, env, refs, aborted, report) {
  if (!env.ok && aborted) {
    report.files.push({ name, text: "cancelled: nothing was imported", kind: "skipped" });
    report.warnings.push({ message: `${name}: import cancelled; nothing was imported`, cancelled: true });
    return;
  }
  if (!env.ok) {
    // Inside a ZIP or a folder, a JSON file no format reads is not a failure: it is left out.
    const undetected = env.error.reason === REASON.NOTHING_TO_IMPORT;
    if (undetected && (name.includes(" › ") || name.includes("/"))) {
      report.files.push({ name, text: `skipped: not a conversation export (${env.error.message.replace(/; tried: .*$/, "")})`, kind: "skipped" });
    } else if (undetected) {
      const text = undetectedText(env.error.message);
      report.errors.push(`${name}: ${text}`);
      report.files.push({ name, text, kind: "error" });
    } else {
      report.errors.push(`${name}: ${env.error.message}`);
      report.files.push({ name, text: env.error.message, kind: "error" });
    }
    return;
  }
  const v = env.value;
  // A loop, not push(...list): a dataset JSONL's 60,000 sessions (or a warning a line) as arguments can overflow the stack.
  for (const s of v.sessions) report.sessions.push(s);
  for (const w of v.warnings) report.warnings.push({ ...w, file: name });
  if (Array.isArray(v.skipped)) for (const k of v.skipped) report.skipped.push(k);
  const n = v.sessions.length;
  const k = Array.isArray(v.skipped) ? v.skipped.length : 0;
  report.files.push({ name, text: `${n} ${n === 1 ? "session" : "sessions"} (${v.format})${k > 0 ? `, ${k} skipped` : ""}`, kind: n === 0 ? "skipped" : "imported" });
  // Attachments are not stored: each conversation's are listed, with the message naming them.
  for (const r of refs) {
    const files = r.files.map(({ file, messageId }) => describeAttachment(file) + (messageId ? ` on message ${messageId}` : "")).join("; ");
    report.warnings.push({ sessionId: r.conversationId || undefined, message: `${r.files.length} ${r.files.length === 1 ? "attachment" : "attachments"} in the ZIP, recorded here but not stored: ${files}` });
  }
}

/** Whether text (a file's head) starts a snapshot of a session already here. */
function snapshotOfSession(ctx, text) {
  const id = snapshotSessionId(text);
  return id !== null && ctx.hasSession(id);
}
