// The words of the explorer's import report (explorer-report.js shows
// them): a skipped file's line, and each warning's session named by its
// title. Pure, no DOM.

/** A count as the report writes it: 60000 → "60,000". @param {number} n */
export function count(n) {
  return n.toLocaleString("en-US");
}

/**
 * The last line of a report list that shows `shown` of `total` rows:
 * "… and 59,950 more".
 * @param {number} shown @param {number} total
 * @returns {string}
 */
export function moreLine(shown, total) {
  return `… and ${count(total - shown)} more`;
}

/**
 * The report's sessions as listed: those the import made, then those it
 * updated or replaced, then those already here unchanged, each group in
 * the import's order, so that a refresh of a large folder shows what
 * changed at the top, not after hundreds of "already here" lines.
 * @param {{existing?: boolean, added?: number, replaced?: string}[]} sessions
 * @returns {object[]} a new array (sessions is left as it is)
 */
export function changedFirst(sessions) {
  const made = [];
  const changed = [];
  const same = [];
  for (const s of sessions) {
    const c = changeOf(s);
    (c === "made" ? made : c === "same" ? same : changed).push(s);
  }
  return same.length === 0 || made.length + changed.length === 0 ? sessions.slice() : made.concat(changed, same);
}

/**
 * What an import did to one of its sessions: "replaced" (a snapshot loaded
 * over it as asked: `replaced` names the restore point), "made", "grown"
 * (it gained nodes) or "same" (already here, nothing new).
 * @param {{existing?: boolean, added?: number, replaced?: string}} s
 * @returns {"replaced"|"made"|"grown"|"same"}
 */
export function changeOf(s) {
  if (typeof s.replaced === "string") return "replaced";
  if (!s.existing) return "made";
  return s.added > 0 ? "grown" : "same";
}

/**
 * The report's title, its one summary line: how many sessions an import
 * made, how many it updated (sessions here that gained nodes: a file that
 * grew) and by how many nodes, how many it replaced (a snapshot of a
 * session here, loaded over it as asked: `replaced` names the restore
 * point keeping the state before), how many were here already and gained
 * nothing, or that it made none: "Imported 2 sessions · updated 1 session
 * (+12 nodes) · 8 already here".
 * @param {{existing?: boolean, added?: number, replaced?: string}[]} sessions the import's sessions
 * @returns {string}
 */
export function reportTitle(sessions) {
  const n = sessions.length;
  let fresh = 0;
  let grown = 0;
  let added = 0;
  let replaced = 0;
  for (const s of sessions) {
    const c = changeOf(s);
    if (c === "replaced") replaced++;
    else if (c === "made") fresh++;
    else if (c === "grown") [grown, added] = [grown + 1, added + s.added];
  }
  const of = (k) => `${count(k)} ${k === 1 ? "session" : "sessions"}`;
  if (n === 0) return "Nothing imported";
  if (fresh + grown + replaced === 0) return `Already here: ${of(n)}, nothing new`;
  const parts = [];
  if (fresh > 0) parts.push(`Imported ${of(fresh)}`);
  if (grown > 0) parts.push(`${parts.length > 0 ? "updated" : "Updated"} ${of(grown)} (+${count(added)} ${added === 1 ? "node" : "nodes"})`);
  if (replaced > 0) parts.push(`${parts.length > 0 ? "replaced" : "Replaced"} ${of(replaced)}`);
  if (n > fresh + grown + replaced) parts.push(`${count(n - fresh - grown - replaced)} already here`);
  return parts.join(" · ");
}

/**
 * text with what could disguise a file name shown as visible escapes: C0
 * and C1 control characters, DEL, and the Unicode
 * bidirectional embedding, override and isolate controls (U+202A–U+202E,
 * U+2066–U+2069, which can show "gpj.exe" as "exe.jpg"), each as
 * "\u{202e}". A ZIP entry's or a folder file's name is any string its
 * maker chose; the report says what it is. (The marks U+200E, U+200F and
 * U+061C, found in ordinary right-to-left text, are kept.)
 * @param {string} text
 * @returns {string}
 */
export function shownName(text) {
  return String(text).replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u{${c.codePointAt(0).toString(16).padStart(4, "0")}}`);
}

/**
 * A file's report line when nothing was read from it: "skipped: " and the
 * reason, without the "; skipped" many of core's reasons end with already
 * ("… could be used; skipped"), which would say it twice.
 * @param {string} reason
 * @returns {string}
 */
export function skippedLine(reason) {
  // A format not detected lists every format tried (a paragraph on a file
  // of a folder that is simply not a conversation): its first words say it.
  return `skipped: ${String(reason).replace(/; tried: [\s\S]*$/, "").replace(/;\s*skipped\s*$/, "")}`;
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
 * words core names that session by (`session "<id>"`, `conversation
 * "<title>"`, `chat "<id>"`…; the label says which), also after a
 * folder's `<file>: `; of several files, a warning that names no session
 * says its file first. A skipped conversation's reason reads the same way.
 * @param {{sessionId?: string, message: string, file?: string}} w
 * @param {(id: string) => string | undefined} titleOf of reportTitles
 * @param {boolean} manyFiles whether the report is of several files
 * @returns {{session: {id: string, name: string} | null, text: string}}
 */
export function warningView(w, titleOf, manyFiles) {
  if (!w.sessionId) return { session: null, text: w.file && manyFiles ? `${w.file}: ${w.message}` : w.message };
  const title = titleOf(w.sessionId);
  return { session: { id: w.sessionId, name: title || w.sessionId }, text: unnamed(w.message, w.sessionId, title) };
}

/**
 * message less the words naming its own session, which the label says:
 * `session`, `conversation` or `chat` and its id or title quoted (core
 * names a conversation once, by title, else by id), with the `: ` after
 * them, at its start or after the `<file>: ` a folder's warnings begin
 * with (the file is kept): `conversation "Trip" has no messages` → `has
 * no messages`.
 * @param {string} message @param {string} id @param {string} [title]
 */
function unnamed(message, id, title) {
  for (const noun of ["session", "conversation", "chat"]) {
    for (const name of title ? [id, title] : [id]) {
      const words = `${noun} ${JSON.stringify(name)}`;
      const at = message.indexOf(words);
      if (at !== 0 && !(at > 2 && message.startsWith(": ", at - 2))) continue;
      const rest = message.slice(at + words.length);
      const sep = rest.startsWith(": ") ? 2 : rest.startsWith(" ") ? 1 : -1;
      if (sep > 0) return message.slice(0, at) + rest.slice(sep);
    }
  }
  return message;
}
