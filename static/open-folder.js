// The explorer's "Open a folder…" (the top bar) and "Import a folder…"
// (the sessions pane, the phone's way: the top bar's button is hidden
// under 360 px), one code path: a coding agent's or chat app's folder
// (~/.claude/projects, ~/.codex/sessions, ~/.pi/agent/sessions, Cline's
// tasks, OpenCode's storage, …) imported at once through tree.importFiles,
// with the progress bar and its Cancel, then the report, whose sessions
// are grouped by tool and project with counts (groupByOrigin). Where the
// browser has showDirectoryPicker the folder comes as a directory handle,
// remembered (folder-handle.js) for "Refresh folder"; elsewhere from the
// <input webkitdirectory>, whose ZIP files (a folder of downloaded
// exports) go through the explorer's archive reader.

import { hideProgress, oneImport, showProgress, showReport } from "./explorer-report.js";
import { mayRead, recallFolder, rememberFolder } from "./folder-handle.js";
import { skippedLine } from "./report-lines.js";
import { toolLabel } from "./session-filter.js";
import { isolate } from "./node-text.js";

/** The tools whose folders "Open a folder…" reads, as its title names them. */
export const FOLDER_TOOLS = ["Claude Code", "Codex", "Gemini CLI", "Pi", "Cline / Roo Code", "OpenCode", "Aider", "LobeChat"];

/**
 * Group the sessions of an importFiles report by tool and project: one
 * group per (tool, project) pair, in first-seen order, with its count.
 * Pure.
 * @param {{tool: string, project?: string}[]} sessions
 * @returns {{tool: string, project: string, count: number}[]}
 */
export function groupByOrigin(sessions) {
  const groups = new Map();
  for (const s of sessions) {
    const key = `${s.tool}\u0000${s.project ?? ""}`;
    const g = groups.get(key) ?? { tool: s.tool, project: s.project ?? "", count: 0 };
    g.count++;
    groups.set(key, g);
  }
  return [...groups.values()];
}

/**
 * The explorer's report of an importFiles envelope: sessions, one line per
 * file (its tool and sessions, or why it was skipped), one line per tool
 * and project with its count, warnings; of a folder that gave nothing, one
 * line per file with its reason. Pure.
 * @param {object} env the envelope of tree.importFiles
 * @param {boolean} aborted whether the import was cancelled
 */
export function folderReport(env, aborted) {
  const fileLine = (f) => ({ name: f.path, text: f.skipped ? skippedLine(f.skipped) : `${toolLabel(f.tool)}${f.sessions > 0 ? ` · ${f.sessions} ${f.sessions === 1 ? "session" : "sessions"}` : ""}`, kind: f.skipped ? "skipped" : "imported" });
  if (!env.ok) {
    // A folder where no file gave a session: each file on its line with its reason (core's error.files), said once.
    const files = aborted || !Array.isArray(env.error.files) ? [] : env.error.files.map(fileLine);
    const message = aborted ? "import cancelled; nothing was imported" : env.error.message;
    return { sessions: [], warnings: [], errors: files.length > 0 ? [] : [message], skipped: [], files };
  }
  const v = env.value;
  const files = groupLines(v.files, v.sessions, fileLine);
  const origins = groupByOrigin(v.sessions).map((g) => ({ name: `${toolLabel(g.tool)}${g.project ? ` · ${g.project}` : ""}`, text: `${g.count} ${g.count === 1 ? "session" : "sessions"}`, kind: "imported" }));
  return { sessions: v.sessions, warnings: saidOnce(v), errors: [], skipped: v.skipped, files: [...origins, ...files] };
}

/**
 * The file lines of a folder report: a tool's folder read as one (an
 * OpenCode storage tree, a Cline task folder: a session's `path` that is
 * a folder of the files) is one line, "<folder>: OpenCode · 25 files · 2
 * sessions", in place of one per file (an OpenCode storage tree is
 * thousands of part files, and its sessions were counted on its first);
 * a file of it that was skipped keeps its own line, saying why. Pure.
 * @param {{path: string, tool?: string, sessions: number, skipped?: string}[]} files
 * @param {{path: string, tool: string}[]} sessions
 * @param {(f: object) => {name: string, text: string, kind: string}} fileLine
 */
export function groupLines(files, sessions, fileLine) {
  const folders = new Map(); // a folder read as one → its line
  for (const s of sessions) if (!folders.has(s.path) && !files.some((f) => f.path === s.path)) folders.set(s.path, { tool: s.tool, files: 0, sessions: 0 });
  const out = [];
  for (const f of files) {
    // A file of the folder's own tool (an export lying inside a task folder is a file of its own).
    const folder = f.skipped ? null : [...folders.keys()].find((p) => f.path.startsWith(`${p}/`) && folders.get(p).tool === f.tool);
    if (folder === undefined || folder === null) {
      out.push(fileLine(f));
      continue;
    }
    const g = folders.get(folder);
    if (g.files++ === 0) out.push(g.line = { name: folder, text: "", kind: "imported" });
    g.sessions += f.sessions;
    g.line.text = `${toolLabel(g.tool)} · ${g.files} ${g.files === 1 ? "file" : "files"} · ${g.sessions} ${g.sessions === 1 ? "session" : "sessions"}`;
  }
  return out;
}

/**
 * The warnings of an importFiles value less those its other lists say
 * already: a file skipped (core warns "<path>: <reason>" too; a folder's
 * package.json files gave thousands) or a conversation skipped (its
 * reason, after its file's path). Pure.
 * @param {{warnings: {sessionId?: string, message: string}[], files: {path: string, skipped?: string}[], skipped: {sessionId?: string, reason: string}[]}} v
 */
export function saidOnce(v) {
  const said = new Set(v.files.filter((f) => f.skipped).map((f) => `${f.path}: ${f.skipped}`));
  const reasons = new Set(v.skipped.map((k) => k.reason));
  return v.warnings.filter((w) => {
    if (said.has(w.message)) return false;
    const at = w.message.indexOf(": ");
    return !(reasons.has(w.message) || at > 0 && reasons.has(w.message.slice(at + 2)));
  });
}

/**
 * One report of two (a folder's and its ZIP files'): every list joined.
 * A folder that held only ZIP files failed with "nothing imported": that
 * error is left out when the ZIP files gave sessions. Pure.
 * @param {object} a the folder's report (folderReport)
 * @param {object} b the ZIP files' report
 */
export function joinReports(a, b) {
  const errors = b.sessions.length > 0 && a.sessions.length === 0 ? b.errors : [...a.errors, ...b.errors];
  return {
    sessions: [...a.sessions, ...b.sessions],
    warnings: [...a.warnings, ...b.warnings],
    errors,
    skipped: [...a.skipped, ...b.skipped],
    files: [...a.files, ...b.files],
  };
}

/** A size in bytes as the progress bar says it: "0.4 MB", "120 MB". */
export const megabytes = (bytes) => `${(bytes / 1e6).toFixed(bytes < 1e7 ? 1 : 0)} MB`;

/** Whether a file is a ZIP archive, by its name. */
const isZip = (f) => /\.zip$/i.test(f.name);

/**
 * Wire the folder buttons (#open-folder-button in the top bar,
 * #import-folder-button in the sessions pane), the `<input
 * webkitdirectory>` (#open-folder) and "Refresh folder"
 * (#refresh-folder): the chosen folder is imported with tree.importFiles,
 * the progress bar showing and Cancel aborting it, then the report is
 * shown and done(report) called. readArchives(files) reads the ZIP files
 * of an input's folder (the explorer's archive path) into a report of the
 * same shape.
 * @param {() => object} getTree the explorer's tree
 * @param {{done: (report: object) => Promise<void>, readArchives: (files: File[]) => Promise<object>, refused: () => void}} hooks
 *   refused: called instead of an import while another one runs (oneImport)
 */
export function wireOpenFolder(getTree, { done, readArchives, refused }) {
  const input = document.getElementById("open-folder");
  const title = `Import a whole folder of ${FOLDER_TOOLS.join(", ")} sessions, or of exports`;
  let handle = null; // the folder Refresh re-reads
  const run = async (source, name, archives = []) => {
    let report = null;
    await oneImport(async () => {
      report = await readFolder(source, name, archives);
      showReport(report);
    }, refused);
    if (report !== null) await done(report); // after the import: the next one may start
  };
  /** Import a folder (source: a directory handle or its files) and its ZIP files into one report. */
  const readFolder = async (source, name, archives) => {
    const abort = new AbortController();
    showProgress(`Opening ${name}…`, 0, abort);
    // The folder's size says how long to expect (total is twice it: read, then stored).
    const onProgress = ({ read, total }) => showProgress(`Opening ${name} · ${megabytes(total / 2)}…`, total > 0 ? read / total : 0, abort);
    const empty = { ok: false, error: { message: "no file besides ZIP archives" } };
    const env = Array.isArray(source) && source.length === 0 ? empty : await getTree().importFiles(source, { signal: abort.signal, onProgress });
    hideProgress();
    const report = folderReport(env, abort.signal.aborted);
    return archives.length > 0 && !abort.signal.aborted ? joinReports(report, await readArchives(archives)) : report;
  };
  const showRefresh = (dir) => {
    handle = dir;
    const b = document.getElementById("refresh-folder");
    b.hidden = false;
    b.textContent = `Refresh folder ${isolate(dir.name)}`; // "Refresh projects" read as a list of projects (~/.claude/projects)
    b.title = `Import the folder ${isolate(dir.name)} again: only what is new or grown is added`;
  };
  const pick = async () => {
    if (typeof window.showDirectoryPicker !== "function") return input.click();
    let dir;
    try {
      dir = await window.showDirectoryPicker({ id: "sessiontree-folder", mode: "read" });
    } catch (err) {
      if (err?.name !== "AbortError") input.click(); // refused (a policy, a sandbox): the input still works
      return;
    }
    showRefresh(dir);
    rememberFolder(dir).catch(() => {}); // not remembered: Refresh still works until a reload
    await run(dir, dir.name);
  };
  for (const id of ["open-folder-button", "import-folder-button"]) {
    const button = document.getElementById(id);
    button.title = title;
    button.addEventListener("click", pick);
  }
  document.getElementById("refresh-folder").addEventListener("click", async () => {
    if (!handle) return;
    if (await mayRead(handle)) return run(handle, handle.name);
    showReport({ sessions: [], warnings: [], errors: [`reading ${handle.name} was not allowed; choose it again with "Open a folder…"`] });
  });
  if (typeof window.showDirectoryPicker === "function") recallFolder().then((dir) => dir && !handle && showRefresh(dir));
  input.addEventListener("change", async () => {
    const files = [...input.files];
    input.value = "";
    if (files.length === 0) return;
    await run(files.filter((f) => !isZip(f)), files[0].webkitRelativePath.split("/")[0] || "the folder", files.filter(isZip));
  });
}
