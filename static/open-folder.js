// The explorer's "Open a folder…": a coding agent's or chat app's folder
// (~/.claude/projects, ~/.codex/sessions, ~/.pi/agent/sessions, Cline's
// tasks, OpenCode's storage, …) imported at once through tree.importFiles,
// with the progress bar and its Cancel, then the report, whose sessions
// are grouped by tool and project with counts (groupByOrigin).

import { hideProgress, showProgress, showReport } from "./explorer-report.js";

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
 * and project with its count, warnings. Pure.
 * @param {object} env the envelope of tree.importFiles
 * @param {boolean} aborted whether the import was cancelled
 */
export function folderReport(env, aborted) {
  if (!env.ok) {
    const message = aborted ? "import cancelled; nothing was imported" : env.error.message;
    return { sessions: [], warnings: [], errors: [message], skipped: [], files: [] };
  }
  const v = env.value;
  const files = v.files.map((f) => ({ name: f.path, text: f.skipped ? `skipped: ${f.skipped}` : `${f.tool}${f.sessions > 0 ? ` · ${f.sessions} ${f.sessions === 1 ? "session" : "sessions"}` : ""}`, kind: f.skipped ? "skipped" : "imported" }));
  const origins = groupByOrigin(v.sessions).map((g) => ({ name: `${g.tool}${g.project ? ` · ${g.project}` : ""}`, text: `${g.count} ${g.count === 1 ? "session" : "sessions"}`, kind: "imported" }));
  return { sessions: v.sessions, warnings: v.warnings, errors: [], skipped: v.skipped, files: [...origins, ...files] };
}

/**
 * Wire the "Open a folder…" button (#open-folder-button) and its
 * `<input webkitdirectory>` (#open-folder): the chosen folder is imported
 * with tree.importFiles, the progress bar showing and Cancel aborting it,
 * then the report is shown and done(report) called.
 * @param {() => object} getTree the explorer's tree
 * @param {(report: object) => Promise<void>} done reloads the session list and selects a session
 */
export function wireOpenFolder(getTree, done) {
  const input = document.getElementById("open-folder");
  const button = document.getElementById("open-folder-button");
  button.title = `Import a whole folder of ${FOLDER_TOOLS.join(", ")} sessions, or of exports`;
  button.addEventListener("click", () => input.click());
  input.addEventListener("change", async () => {
    const files = [...input.files];
    input.value = "";
    if (files.length === 0) return;
    const abort = new AbortController();
    const label = `Opening ${files[0].webkitRelativePath.split("/")[0] || "the folder"}…`;
    showProgress(label, 0, abort);
    const env = await getTree().importFiles(files, { signal: abort.signal, onProgress: ({ read, total }) => showProgress(label, total > 0 ? read / total : 0, abort) });
    hideProgress();
    const report = folderReport(env, abort.signal.aborted);
    showReport(report);
    await done(report);
  });
}
