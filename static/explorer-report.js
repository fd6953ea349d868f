// The explorer's import report (#import-report in index.html): the
// sessions made, one line per file or ZIP entry, the conversations skipped
// and the warnings, every text through textContent; and the import's
// progress bar (#import-progress) with its Cancel button. Each list shows
// its first REPORT_ROWS rows and a last row saying how many more there
// are, with a button that shows REPORT_ROWS more: a dataset JSONL of
// 60,000 conversations drew 60,000 rows (seconds of layout, and every
// later layout of the page slower).

import { button, el, isShown } from "./dom.js";
import { changeOf, changedFirst, count, moreLine, reportTitle, reportTitles, shownName, warningView } from "./report-lines.js";
import { projectLabel } from "./session-filter.js";
import { isolate } from "./node-text.js";

/** The rows a list of the report shows at first, and adds at each "Show more". */
export const REPORT_ROWS = 100;

const $ = (id) => document.getElementById(id);

/** The AbortController of the import the progress bar shows (null: none, or no Cancel). */
let shownAbort = null;

/** Whether an import runs: the explorer runs one at a time (see oneImport). */
let importing = false;

/**
 * Run an import (run: the whole of it, its report shown) unless one runs
 * already: then call refused instead. Two at once shared one progress bar
 * (the first to end hid it while the other went on) and one report (the
 * later replaced the earlier, whose sessions were never reported).
 * @param {() => Promise<void>} run @param {() => void} refused
 * @returns {Promise<void>}
 */
export async function oneImport(run, refused) {
  if (importing) return refused();
  importing = true;
  try {
    await run();
  } finally {
    importing = false;
  }
}

/** Show the progress bar at fraction (0–1); its Cancel button aborts abort (an AbortController; none: no button). */
export function showProgress(label, fraction, abort) {
  $("import-progress").hidden = false;
  $("progress-label").textContent = shownName(label);
  $("progress-bar").value = fraction;
  $("import-cancel").hidden = !abort;
  shownAbort = abort ?? null;
}

/** Hide the progress bar. */
export function hideProgress() {
  $("import-progress").hidden = true;
}

/** Cancel the import the progress bar shows (its Cancel button). */
export function cancelImport() {
  shownAbort?.abort();
}

/**
 * The label of the session a warning or a skipped conversation is about:
 * its name (its title, else its id), the id as its tooltip and data.
 * @param {string} id "" when it has none
 * @param {string} name
 */
function sessionLabel(id, name) {
  const label = el(name === id ? "code" : "span", "warning-session", name);
  if (id) {
    label.dataset.sessionId = id;
    if (name !== id) label.title = id;
  }
  return label;
}

/**
 * Show the import report: sessions, one line per file or ZIP entry (when
 * several were read, or a ZIP or folder), skipped conversations, warnings.
 * @param {{sessions: object[], warnings: {sessionId?: string, message: string, file?: string}[], errors: string[], skipped?: object[], files?: {name: string, text: string, kind: "imported" | "skipped" | "error"}[]}} report
 */
export function showReport({ sessions, warnings, errors, skipped = [], files = [] }) {
  $("report-title").textContent = reportTitle(sessions);
  $("report-demo").hidden = true; // the explorer offers it after an import that made sessions (offerDemoTrash)
  $("import-report").classList.toggle("failed", sessions.length === 0);
  // Of several projects (a folder), each session says its own: equal titles of two projects differ.
  const projects = new Set(sessions.map((s) => s.project).filter(Boolean));
  fillList($("report-sessions"), changedFirst(sessions), (s) => {
    const li = el("li");
    const size = `${s.nodeCount} ${s.nodeCount === 1 ? "node" : "nodes"}` + (Number.isInteger(s.branchCount) ? ` · ${s.branchCount} ${s.branchCount === 1 ? "branch" : "branches"}` : "") +
      { replaced: " · replaced", grown: ` · ${s.added} new`, same: " · already here, nothing new", made: "" }[changeOf(s)];
    const title = el("span", "report-session-title", s.title || s.sessionId);
    if (s.title) title.title = s.sessionId;
    const where = projects.size > 1 && s.project ? `${isolate(projectLabel(s.project))} · ` : "";
    li.append(title, el("span", "report-session-size", where + size));
    // Where the state before a replace went, on a line of its own.
    if (typeof s.replaced === "string") li.append(el("span", "report-session-note", `The state before is kept as restore point “${isolate(s.replaced)}”.`));
    return li;
  });
  $("report-files-title").hidden = files.length === 0;
  fillList($("report-files"), files, (f) => {
    const li = el("li", `report-file ${f.kind}`);
    li.append(el("code", "report-file-name", shownName(f.name)), el("span", "report-file-text", shownName(f.text)));
    return li;
  });
  $("report-skipped-title").hidden = skipped.length === 0;
  $("report-skipped-title").textContent = `${count(skipped.length)} skipped`;
  fillList($("report-skipped"), skipped, (k) => {
    const li = el("li", "warning");
    const id = k.sessionId || k.id;
    const reason = String(k.reason ?? k.message ?? JSON.stringify(k));
    // The label names the conversation: the reason's text does not again.
    const text = id ? warningView({ sessionId: String(id), message: reason }, () => k.title || undefined, false).text : reason;
    if (k.title || id) li.append(sessionLabel(id ? String(id) : "", String(k.title || id)));
    li.append(el("span", "warning-text", shownName(text)));
    return li;
  });
  // A skipped conversation is also a warning: list it once, under "skipped".
  const reasons = new Set(skipped.map((k) => k.reason));
  const all = errors.map((message) => ({ message, error: true }));
  for (const w of warnings) if (!reasons.has(w.message)) all.push(w);
  const titleOf = reportTitles({ sessions, skipped });
  $("report-warnings-title").hidden = all.length === 0;
  // Errors (a file that could not be read) and warnings counted apart: "1 error", "1 error, 2 warnings".
  const failed = all.filter((w) => w.error).length;
  const counted = [[failed, "error"], [all.length - failed, "warning"]].filter(([n]) => n > 0);
  $("report-warnings-title").textContent = counted.map(([n, what]) => `${count(n)} ${what}${n === 1 ? "" : "s"}`).join(", ");
  fillList($("report-warnings"), all, (w) => {
    const li = el("li", w.error ? "error" : "warning");
    const { session, text } = warningView(w, titleOf, files.length > 1);
    if (session) li.append(sessionLabel(session.id, session.name));
    li.append(el("span", "warning-text", shownName(text)));
    return li;
  });
  $("import-report").hidden = false;
  // An import from a button the import hides (the first visit's "Import a file…") left focus on
  // <body>: it goes to the report, whose × then takes it back (closeReport). Focus elsewhere stays.
  setTimeout(() => {
    const at = document.activeElement;
    if (!(at instanceof HTMLElement) || at === document.body || !isShown(at)) $("report-close").focus();
  });
}


/**
 * Close the report (its × or Escape inside it). Focus in it goes to the
 * Import… button, or where that is hidden (a phone), the selected
 * session's row; it fell to <body>.
 */
export function closeReport() {
  const report = $("import-report");
  const had = report.contains(document.activeElement);
  report.hidden = true;
  if (!had) return;
  const targets = [$("import-button"), document.querySelector("#session-list .session.selected .session-button"), $("hint-import")];
  targets.find((b) => b && b.offsetParent !== null)?.focus();
}

/**
 * Show the import hint in full, or compact (its text and buttons hidden:
 * the session list needs the room). A button of it that hides with focus
 * (the first visit's "Import a file…", once its import made sessions)
 * gives focus to the report when shown, else to Import…: not to <body>.
 * @param {boolean} compact
 */
export function compactHint(compact) {
  const hint = $("import-hint");
  hint.classList.toggle("compact", compact);
  const at = document.activeElement;
  if (at instanceof HTMLElement && hint.contains(at) && !isShown(at)) ($("import-report").hidden ? $("import-button") : $("report-close")).focus();
}

/** Wire the report's × and Escape (inside the report) to closeReport. */
export function wireReport() {
  $("report-close").addEventListener("click", closeReport);
  $("import-report").addEventListener("keydown", (e) => {
    if (e.key !== "Escape" || e.defaultPrevented) return;
    e.preventDefault();
    closeReport();
  });
}

/**
 * Fill a report list with the rows makeRow makes of items: the first
 * REPORT_ROWS, and while some are left a last row (li.report-more) saying
 * how many ("… and 59,900 more") with a button that makes REPORT_ROWS more
 * (when it makes the last, focus on it goes to the first of them).
 * @template T
 * @param {HTMLElement} list @param {T[]} items @param {(item: T) => HTMLElement} makeRow
 */
function fillList(list, items, makeRow) {
  const more = el("li", "report-more");
  const left = el("span", "report-more-text");
  const next = button("button report-more-button", `Show ${REPORT_ROWS} more`);
  more.append(left, next);
  let made = 0;
  const grow = () => {
    const end = Math.min(items.length, made + REPORT_ROWS);
    const rows = [];
    for (let i = made; i < end; i++) rows.push(makeRow(items[i]));
    made = end;
    return rows;
  };
  const tail = () => {
    if (made < items.length) left.textContent = moreLine(made, items.length);
    else more.remove();
    return made < items.length ? [more] : [];
  };
  next.addEventListener("click", () => {
    const focused = document.activeElement === next;
    const rows = grow();
    more.before(...rows);
    tail();
    // The button went with the last rows: focus to the first of them, never to <body>.
    if (focused && !more.isConnected && rows.length > 0) {
      rows[0].tabIndex = -1;
      rows[0].focus();
    }
  });
  list.replaceChildren(...grow(), ...tail());
}
