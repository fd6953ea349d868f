// tree.importFiles where the store runs: a whole folder (or any set of
// files) imported at once, as coding agents and chat apps keep their
// histories on disk. The files' bytes go into a wasm import buffer, one
// after another, and core reads them by layout (core.Store.ImportFiles:
// Cline task folders, OpenCode storage trees, every other file by its
// content) in one call inside one IndexedDB transaction, so a failed or
// cancelled import leaves nothing behind; a folder larger than a batch
// (BATCH_BYTES) goes in batches, each stored before the next is read. Here: walking a directory
// handle, and LocalTree's side (importFileList). The page side of a worker
// store sends the files gathered (js/folder-entries.js) as transferred
// bytes.

import { errorEnvelope, closedEnvelope } from "./tree-api.js";
import { ERROR } from "./protocol.js";
import { nextTask } from "./tasks.js";

/** @typedef {import("./folder-entries.js").FolderFile} FolderFile */

/** What a file's data becomes once importBatch copied it into the wasm. */
const COPIED = new Uint8Array(0);

/** Bytes copied into the wasm per call (and between two looks at the abort signal). */
const COPY_BYTES = 1 << 20;

/**
 * Most bytes of files imported together (one batch: read into the wasm,
 * imported and stored before the next is read); a group core reads as
 * one import that is larger is a batch of its own. 64 MiB: with core's
 * growth allowance (core.ImportJobGrowth) a batch stays far inside the
 * default memory budget beside the sessions kept loaded.
 */
export const BATCH_BYTES = 64 << 20;

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
 * LocalTree's importFiles (the arguments gathered by gatherEntries). Core
 * plans the batches (its internal import.batches: groups it reads as one
 * import are never cut, files no format reads are left out with their
 * reason and never copied): files of at most BATCH_BYTES together, each
 * batch imported (importBatch) and stored before the next is read, so a
 * folder of gigabytes never sits in the wasm at once and the sessions of
 * a stored batch can be paged out (store/pager.js) while the next one is
 * read (files it leaves out are never read). onProgress({read, total}) in bytes: total is twice the files'
 * size, moving through each batch as importBatch says. A folder of one
 * batch is stored in one IndexedDB transaction, and an abort before it
 * commits leaves nothing behind; a larger one keeps the batches already
 * stored when it is aborted or one of them cannot be stored (each session
 * whole: a batch is one transaction), and its envelope says how many
 * files were. A batch refused (past the memory budget, nothing readable
 * in it) is reported on its files and the next one goes on; when none
 * gave a session, the failure lists every file with its reason
 * (error.files, as core's ImportFiles gives it).
 * @param {import("./local.js").LocalTree} tree
 * @param {FolderFile[]} files
 * @param {FileSystemDirectoryHandle|null} dir walked here when given
 * @param {{onProgress?: (p: {read: number, total: number}) => void, signal?: AbortSignal}} options
 * @returns {Promise<object>} the envelope; value {sessions, skipped, warnings, files}
 */
export async function importFileList(tree, files, dir, { onProgress, signal } = {}) {
  if (tree._writer?.closedReason) return closedEnvelope(tree._writer.closedReason, "nothing was imported");
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
  const sizeOf = (f) => f.data.size ?? f.data.length;
  const size = files.reduce((n, f) => n + sizeOf(f), 0);
  const plan = JSON.parse(tree._handle.callInternal(JSON.stringify({ operation: "import.batches", files: files.map((f) => ({ path: f.path, size: sizeOf(f) })), bytes: BATCH_BYTES })));
  if (!plan.ok) return plan;
  const { batches, skipped } = plan.value;
  // One batch of every file (or no file: core's import says so): as one import. Files core
  // leaves out (not session files: a repository's node_modules, …) are never copied in.
  if (files.length === 0 || (batches.length === 1 && skipped.length === 0)) return importBatch(tree, files, { progress, signal, total: 2 * size, before: 0, aborted: "import aborted; nothing was imported" });
  const report = { sessions: [], skipped: [], warnings: [] };
  // reports[i] says what became of files[i]: by index, as two files may give one path
  // (core answers a batch's files in the batch's order).
  const reports = [];
  for (const [i, why] of skipped) reports[i] = { path: files[i].path, sessions: 0, skipped: why };
  if (batches.length === 0) return nothingToRead(reports);
  const read = batches.flat().reduce((n, i) => n + sizeOf(files[i]), 0); // the bytes read: the batches'
  let done = 0;
  let before = 0;
  let failed = null;
  const reported = new Map(); // sessionId → its entry in report.sessions
  for (const batch of batches) {
    await tree._pager?.evicting; // the sessions of the batch before, paged out
    const part = batch.map((i) => files[i]);
    const partSize = part.reduce((n, f) => n + sizeOf(f), 0);
    const stored = `the first ${done} of ${files.length} files were imported and stored (${report.sessions.length} sessions), the rest was not`;
    const env = await importBatch(tree, part, { progress, signal, total: 2 * read, before, aborted: done === 0 ? "import aborted; nothing was imported" : `import aborted; ${stored}` });
    before += 2 * partSize;
    if (!env.ok && signal?.aborted) return env; // its message says what was stored
    if (!env.ok && env.error.code !== ERROR.INVALID_ARGUMENT) return done === 0 ? env : { ...env, error: { ...env.error, message: `${env.error.message}; ${stored}` } };
    if (!env.ok) {
      failed ??= env;
      const why = env.error.files ?? []; // each file's reason, as core gave it
      batch.forEach((i, k) => (reports[i] = why[k] ?? { path: files[i].path, sessions: 0, skipped: env.error.message }));
      continue;
    }
    done += part.length;
    joinSessions(report.sessions, env.value.sessions, reported);
    report.skipped.push(...env.value.skipped);
    report.warnings.push(...env.value.warnings);
    batch.forEach((i, k) => (reports[i] = env.value.files[k]));
  }
  const fileReports = files.map((_, i) => reports[i]);
  if (report.sessions.length === 0 && failed) return { ...failed, error: { ...failed.error, files: fileReports } };
  return { ok: true, value: { ...report, files: fileReports } };
}

/**
 * Add a batch's session reports (more) to those of the batches before
 * (sessions), one entry per session: a session an earlier batch reported
 * (a Claude Code sub-agent's file, in a later batch than its parent's; one
 * Aider history in two repositories) is folded into that entry as core
 * folds it within one call (FileSession.joined): whether it was there
 * before as the first batch found it, its nodes added by every batch and
 * its warnings counted together, its file, tool and project the first's
 * (the session keeps the first project), the rest as it now stands.
 * @param {object[]} sessions @param {object[]} more
 * @param {Map<string, number>} reported sessionId → its index in sessions
 */
export function joinSessions(sessions, more, reported) {
  for (const s of more) {
    const at = reported.get(s.sessionId);
    if (at === undefined) {
      reported.set(s.sessionId, sessions.length);
      sessions.push(s);
      continue;
    }
    const first = sessions[at];
    sessions[at] = { ...s, tool: first.tool, path: first.path, project: first.project || s.project, existing: first.existing, added: first.added + s.added, warnings: first.warnings + s.warnings };
  }
}

/** Files a nothing-imported message names, at most; the rest are counted. */
const NAMED_FILES = 5;

/**
 * The envelope of a folder none of whose files is a session file by its
 * name (reports: each file's, with its reason): INVALID_ARGUMENT naming the
 * first files and why, every file in `error.files`, as core's import of
 * them would answer, without reading them.
 * @param {{path: string, sessions: number, skipped: string}[]} reports
 */
function nothingToRead(reports) {
  const why = reports.slice(0, NAMED_FILES).map((r) => `${r.path}: ${r.skipped}`).join("; ");
  const more = reports.length > NAMED_FILES ? `; and ${reports.length - NAMED_FILES} more` : "";
  return { ok: false, error: { code: ERROR.INVALID_ARGUMENT, message: `nothing imported: ${why}${more}`, files: reports } };
}

/**
 * Import one batch of files: their bytes copied into one wasm import
 * buffer in pieces of COPY_BYTES with a yield and a look at the signal
 * between them, then core.Store.ImportFiles in one write
 * (handle.importFiles, made again when it needed paged-out sessions:
 * js/local-paging.js mutatePaged), stored in one IndexedDB transaction; an abort
 * before it commits leaves nothing of the batch behind.
 * @param {import("./local.js").LocalTree} tree
 * @param {FolderFile[]} files
 * @param {{progress: (read: number, total: number) => void, signal?: AbortSignal, total: number, before: number, aborted: string}} options
 *   progress moves from `before` by twice the batch's bytes (read, then stored) of `total`; aborted: the message of an abort
 * @returns {Promise<object>} the envelope of the batch's import
 */
async function importBatch(tree, files, { progress, signal, total, before, aborted: abortMessage }) {
  const aborted = errorEnvelope("INVALID_ARGUMENT", abortMessage);
  const size = files.reduce((n, f) => n + (f.data.size ?? f.data.length), 0);
  const buffer = tree._handle.importBuffer(size);
  if (typeof buffer === "string") return JSON.parse(buffer); // refused: the memory budget
  const manifest = [];
  let read = 0;
  // The next file is read while this one is copied (the browser reads a
  // File off the thread): one read ahead.
  const readFile = (f) => (f.data instanceof Uint8Array ? Promise.resolve(f.data) : f.data.arrayBuffer().then((b) => new Uint8Array(b)));
  let ahead = files.length > 0 ? readFile(files[0]) : null;
  for (let k = 0; k < files.length; k++) {
    const f = files[k];
    let bytes;
    try {
      bytes = await ahead;
      ahead = k + 1 < files.length ? readFile(files[k + 1]) : null;
      ahead?.catch(() => {}); // seen when awaited
    } catch (err) {
      tree._handle.importCancel(buffer);
      return errorEnvelope("INVALID_ARGUMENT", `${f.path}: the file could not be read: ${err?.message ?? err}`);
    }
    for (let i = 0; i < bytes.length; i += COPY_BYTES) {
      const failed = tree._handle.importAppend(buffer, bytes.subarray(i, i + COPY_BYTES));
      if (failed) return (tree._handle.importCancel(buffer), JSON.parse(failed));
    }
    manifest.push({ path: f.path, size: bytes.length });
    f.data = COPIED; // its bytes are in the wasm now: a folder's are never all held here at once
    read += bytes.length;
    progress(before + read, total);
    // The search index's build (LocalTree._warmSearch) waits while calls
    // come: it would take these yields (~1 s over 200 MB), and it catches
    // up once the import is stored.
    tree._lastCallAt = performance.now();
    await nextTask(); // an abort sent meanwhile is seen (a setTimeout chain is clamped to 4 ms a file)
    if (signal?.aborted) return (tree._handle.importCancel(buffer), aborted);
  }
  const text = JSON.stringify(manifest);
  // A session the files grow may be paged out: core then changes nothing
  // and keeps the buffer, and the call is made again once it is loaded.
  const env = await tree._mutatePaged(() => tree._handle.importFiles(text, buffer), { signal, aborted: JSON.stringify(aborted) });
  if (!env.ok) tree._handle.importCancel(buffer); // not run (an abort, a closed Writer): the buffer is still there
  else progress(before + 2 * size, total);
  return env;
}
