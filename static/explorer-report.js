// The explorer's import report (#import-report in index.html): the
// sessions made, one line per file or ZIP entry, the conversations skipped
// and the warnings, every text through textContent; and the import's
// progress bar (#import-progress) with its Cancel button.

import { el } from "./dom.js";
import { reportTitles, warningView } from "./report-lines.js";

const $ = (id) => document.getElementById(id);

/** The AbortController of the import the progress bar shows (null: none, or no Cancel). */
let shownAbort = null;

/** Show the progress bar at fraction (0–1); its Cancel button aborts abort (an AbortController; none: no button). */
export function showProgress(label, fraction, abort) {
  $("import-progress").hidden = false;
  $("progress-label").textContent = label;
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
  const n = sessions.length;
  // A session already here that gained nothing: "already here", not "imported".
  const fresh = sessions.filter((s) => !(s.existing && s.added === 0)).length;
  $("report-title").textContent = n === 0 ? "Nothing imported" : fresh === 0 ? `Already here: ${n} ${n === 1 ? "session" : "sessions"}, nothing new` : `Imported ${fresh} ${fresh === 1 ? "session" : "sessions"}${fresh < n ? ` · ${n - fresh} already here` : ""}`;
  $("import-report").classList.toggle("failed", n === 0);
  $("report-sessions").replaceChildren(
    ...sessions.map((s) => {
      const li = el("li");
      const size = `${s.nodeCount} ${s.nodeCount === 1 ? "node" : "nodes"}` + (Number.isInteger(s.branchCount) ? ` · ${s.branchCount} ${s.branchCount === 1 ? "branch" : "branches"}` : "") +
        (s.existing ? (s.added > 0 ? ` · ${s.added} new` : " · already here, nothing new") : "");
      const title = el("span", "report-session-title", s.title || s.sessionId);
      if (s.title) title.title = s.sessionId;
      li.append(title, el("span", "report-session-size", size));
      return li;
    }),
  );
  $("report-files-title").hidden = files.length === 0;
  $("report-files").replaceChildren(
    ...files.map((f) => {
      const li = el("li", `report-file ${f.kind}`);
      li.append(el("code", "report-file-name", f.name), el("span", "report-file-text", f.text));
      return li;
    }),
  );
  $("report-skipped-title").hidden = skipped.length === 0;
  $("report-skipped-title").textContent = `${skipped.length} skipped`;
  $("report-skipped").replaceChildren(
    ...skipped.map((k) => {
      const li = el("li", "warning");
      const id = k.sessionId || k.id;
      const reason = String(k.reason ?? k.message ?? JSON.stringify(k));
      // The label names the conversation: the reason's text does not again.
      const text = id ? warningView({ sessionId: String(id), message: reason }, () => k.title || undefined, false).text : reason;
      if (k.title || id) li.append(sessionLabel(id ? String(id) : "", String(k.title || id)));
      li.append(el("span", "warning-text", text));
      return li;
    }),
  );
  // A skipped conversation is also a warning: list it once, under "skipped".
  const reasons = new Set(skipped.map((k) => k.reason));
  const all = [...errors.map((message) => ({ message, error: true })), ...warnings.filter((w) => !reasons.has(w.message))];
  const titleOf = reportTitles({ sessions, skipped });
  $("report-warnings-title").hidden = all.length === 0;
  $("report-warnings-title").textContent = `${all.length} ${all.length === 1 ? "warning" : "warnings"}`;
  $("report-warnings").replaceChildren(
    ...all.map((w) => {
      const li = el("li", w.error ? "error" : "warning");
      const { session, text } = warningView(w, titleOf, files.length > 1);
      if (session) li.append(sessionLabel(session.id, session.name));
      li.append(el("span", "warning-text", text));
      return li;
    }),
  );
  $("import-report").hidden = false;
}

