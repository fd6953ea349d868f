// The words of the explorer's import report (explorer-report.js shows
// them): a skipped file's line, and each warning's session named by its
// title. Pure, no DOM.

/**
 * A file's report line when nothing was read from it: "skipped: " and the
 * reason, without the "; skipped" many of core's reasons end with already
 * ("… could be used; skipped"), which would say it twice.
 * @param {string} reason
 * @returns {string}
 */
export function skippedLine(reason) {
  return `skipped: ${String(reason).replace(/;\s*skipped\s*$/, "")}`;
}

/**
 * The title each session an import report names is shown by: of the
 * sessions imported and the conversations skipped, theirs when they have
 * one (every warning of an import names one of these).
 * @param {{sessions?: {sessionId: string, title?: string}[], skipped?: {sessionId?: string, title?: string}[]}} report
 * @returns {(id: string) => string | undefined}
 */
export function reportTitles({ sessions = [], skipped = [] }) {
  const titles = new Map();
  for (const s of [...sessions, ...skipped]) if (s.sessionId && s.title && !titles.has(s.sessionId)) titles.set(s.sessionId, s.title);
  return (id) => titles.get(id);
}

/**
 * How a warning reads in the report: the session it is about, by title
 * where known (`name`; its id stays in `id`), and its text, less the
 * `session "<id>": ` core begins it with when it names that session (the
 * label says which); of several files, a warning that names no session
 * says its file first.
 * @param {{sessionId?: string, message: string, file?: string}} w
 * @param {(id: string) => string | undefined} titleOf of reportTitles
 * @param {boolean} manyFiles whether the report is of several files
 * @returns {{session: {id: string, name: string} | null, text: string}}
 */
export function warningView(w, titleOf, manyFiles) {
  if (!w.sessionId) return { session: null, text: w.file && manyFiles ? `${w.file}: ${w.message}` : w.message };
  const prefix = `session ${JSON.stringify(w.sessionId)}: `;
  const text = w.message.startsWith(prefix) ? w.message.slice(prefix.length) : w.message;
  return { session: { id: w.sessionId, name: titleOf(w.sessionId) || w.sessionId }, text };
}
