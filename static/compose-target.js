// What the composer of <session-tree-panel> sends and where it goes
// (panel-composer.js has the DOM): the roles offered, the append request
// for a text, the target of the next message from the panel's rows, and
// the sentence that says it. Pure data, no DOM: run in Node by
// e2e/compose-target.test.mjs.
//
// The rules are the core's (SPEC.md, append): a message goes under the
// cursor on the active branch; under a node that is not the active
// branch's tip the core opens a new, automatically named branch; a branch
// just named by `branch` has no tip, its first message goes under the
// cursor. A previewed path is continued from its end node, as "Continue
// from here" does (the cursor moves there first).

/** The roles offered: the value sent and the label shown. */
export const COMPOSER_ROLES = Object.freeze([
  { value: "user", label: "User" },
  { value: "assistant", label: "Assistant" },
  { value: "note", label: "Note" },
]);

/** The customType of the entries the composer writes as notes. */
export const NOTE_TYPE = "note";

/**
 * The append request for a composed text (pure; no DOM).
 * @param {string} sessionId
 * @param {"user"|"assistant"|"note"} role
 * @param {string} text as typed (kept exactly; never trimmed)
 * @returns {object} `{operation: "append", sessionId, message: {role, content}}`, or for a
 *   note `{operation: "append", sessionId, entry: {kind: "custom", customType: "note", data: {text}}}`
 */
export function appendRequest(sessionId, role, text) {
  if (role === "note") return { operation: "append", sessionId, entry: { kind: "custom", customType: NOTE_TYPE, data: { text } } };
  return { operation: "append", sessionId, message: { role, content: text } };
}

/**
 * Where the next message goes, from the panel's rows (pure; no DOM).
 * @param {{value: {cursor: string|null, activeBranch: string}|null, viewNode: string|null,
 *   rowById: {get(id: string): object|undefined}, pendingBranch: string|null}} model the RowsController
 * @returns {{at: string|null, branch: string, how: "tip"|"empty"|"new"|"root", preview: boolean, leaves?: string|null}|null}
 *   null without a session. `at` the node appended under (null: a root); `branch` the branch it is
 *   recorded on ("tip", "empty": the branch named, "root": an empty session) or continued from
 *   ("new": the core opens a new branch named after it); `preview` whether Send first moves the
 *   cursor to `at` (a previewed path); `leaves` the empty branch that moving the cursor drops.
 */
export function composeTarget(model) {
  const value = model.value;
  if (!value) return null;
  const view = model.viewNode;
  if (view !== null) {
    const row = model.rowById.get(view);
    return { at: view, branch: row?.branch ?? "", how: row?.tipOf === row?.branch ? "tip" : "new", preview: true, leaves: model.pendingBranch };
  }
  if (value.cursor === null) return { at: null, branch: value.activeBranch, how: "root", preview: false };
  if (model.pendingBranch !== null) return { at: value.cursor, branch: model.pendingBranch, how: "empty", preview: false };
  const row = model.rowById.get(value.cursor);
  return { at: value.cursor, branch: value.activeBranch, how: row?.tipOf === value.activeBranch ? "tip" : "new", preview: false };
}

/**
 * The sentence above the text area for a target of composeTarget (pure).
 * @param {ReturnType<typeof composeTarget>} t
 * @returns {string}
 */
export function targetText(t) {
  if (t === null) return "Pick a session to write in it.";
  if (t.how === "root") return `Starts the session, on branch ${t.branch}.`;
  const where = t.how === "tip" ? `on branch ${t.branch}` : t.how === "empty" ? `on the new branch ${t.branch} (no message yet: this one is its first)` : `on a new branch from ${t.branch} (not its newest node)`;
  if (t.preview) {
    const left = t.leaves ? ` The empty branch ${t.leaves} is left (it has no message).` : "";
    return `Previewing: Send continues from ${shortId(t.at)} (the session's cursor moves there), ${where}.${left}`;
  }
  return `Replying at ${shortId(t.at)}, ${where}.`;
}

/**
 * A node id as the composer's sentence names it: whole up to 12
 * characters (sessiontree's own are 8), else its first 8 and "…" (an
 * imported UUID took four lines on a phone).
 * @param {string} id
 */
export function shortId(id) {
  return id.length > 12 ? `${id.slice(0, 8)}…` : id;
}
