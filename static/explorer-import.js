// The explorer's import of chosen or dropped files, folders and ZIP
// archives (import-files.js reads them into pieces): one piece after
// another through the tree's importFile or importText, each large one with
// the progress bar and its Cancel, into one report (explorer-report.js
// shows it). Also the ZIP files of a folder "Open a folder…" reads
// (open-folder.js).

import { describeAttachment, readImports } from "./import-files.js";
import { snapshotSessionId } from "./restore-points.js";
import { hideProgress, showProgress } from "./explorer-report.js";
import { ERROR, REASON } from "../js/protocol.js";

/** Files larger than this (bytes) show a progress bar while importing. */
const PROGRESS_BYTES = 512 * 1024;

/**
 * Import sources one after another (as importFiles) into a report, shown
 * by the caller: its per-file lines only when several were read, or a ZIP
 * or folder.
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
  const pieces = readImports(sources, {
    onProgress: ({ name, read, total }) => {
      if (total > PROGRESS_BYTES) showProgress(`Reading ${name}…`, total > 0 ? read / total : 0);
    },
  });
  for await (const piece of pieces) {
    hideProgress();
    if (piece.name.includes(" › ")) fromArchive = true;
    if (piece.kind === "error") {
      report.errors.push(`${piece.name}: ${piece.message}`);
      report.files.push({ name: piece.name, text: piece.message, kind: "error" });
      continue;
    }
    if (piece.kind === "skip") {
      report.files.push({ name: piece.name, text: `skipped: ${piece.reason}`, kind: "skipped" });
      continue;
    }
    await importPiece(ctx, piece, report);
  }
  hideProgress();
  return { ...report, files: report.files.length > 1 || fromArchive ? report.files : [] };
}

/**
 * Import one text or file of readImports into the report. A large one
 * shows the progress bar, whose Cancel button aborts it (nothing of it is
 * stored then). A file piece is read by the store (tree.importFile), unless
 * it is a snapshot of a session already here: then its text goes through
 * importText, which asks whether to replace the session or add a copy.
 */
async function importPiece(ctx, { name, text, file, size, refs }, report) {
  ctx.setStatus(`Importing ${name}…`);
  const big = size > PROGRESS_BYTES;
  const abort = new AbortController();
  if (big) showProgress(`Importing ${name}…`, 0, abort);
  const options = big ? { onProgress: ({ read, total }) => showProgress(`Importing ${name}…`, total > 0 ? read / total : 0, abort), signal: abort.signal } : undefined;
  let env;
  if ((file ? file.size : text.length) === 0) env = { ok: false, error: { code: ERROR.INVALID_ARGUMENT, message: "the file is empty: nothing to import", reason: REASON.NOTHING_TO_IMPORT } };
  else if (file && !snapshotOfSession(ctx, await file.slice(0, 4096).text())) env = await ctx.tree.importFile(file, options);
  else env = await ctx.tree.importText(text ?? (await file.text()), "auto", options);
  hideProgress();
  if (!env.ok && abort.signal.aborted) {
    report.files.push({ name, text: "cancelled: nothing was imported", kind: "skipped" });
    report.warnings.push({ message: `${name}: import cancelled; nothing was imported` });
    return;
  }
  if (!env.ok) {
    // Inside a ZIP or a folder, a JSON file no format reads is not a failure: it is left out.
    const undetected = env.error.reason === REASON.NOTHING_TO_IMPORT;
    if (undetected && (name.includes(" › ") || name.includes("/"))) {
      report.files.push({ name, text: `skipped: not a conversation export (${env.error.message.replace(/; tried: .*$/, "")})`, kind: "skipped" });
    } else {
      report.errors.push(`${name}: ${env.error.message}`);
      report.files.push({ name, text: env.error.message, kind: "error" });
    }
    return;
  }
  const v = env.value;
  report.sessions.push(...v.sessions);
  report.warnings.push(...v.warnings.map((w) => ({ ...w, file: name })));
  if (Array.isArray(v.skipped)) report.skipped.push(...v.skipped);
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
