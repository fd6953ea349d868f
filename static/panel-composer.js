// The composer of <session-tree-panel> (attribute `composer`): a text area,
// a role choice (user, assistant, note) and Send (Ctrl+Enter or Cmd+Enter)
// under the context column, appending at the session's cursor. What it
// appends to is said above the text area, and after each send the line
// under it names the branch and the node the message went to.
//
// Where a message goes (issue 17, item 4):
// - at the cursor, on the active branch (a branch just made by Branch… has
//   no node yet: the first message is its first node);
// - when the cursor is not the tip of the active branch, the core opens a
//   new, automatically named branch (SPEC.md, append): the line says so;
// - while another path is previewed, Send continues from the previewed
//   node, as "Continue from here" does: the cursor moves there first, then
//   the message is appended. The line says that too.
//
// A note is a `custom` entry (customType "note", data {text}): recorded in
// the tree, never sent to the model (`context` leaves it out). Every text
// reaches the DOM through textContent.

import { COMPOSER_ROLES, appendRequest, composeTarget, targetText } from "./compose-target.js";
import { button, el } from "./dom.js";

/**
 * The composer. `element` goes in the page (the panel places it under the
 * context column).
 *
 * The host: `{model, tree() → SessionTree, sessionId() → string|null,
 * jump(nodeId) → Promise<boolean> (move the cursor, reload; false when it
 * failed, shown), refresh() → Promise, emit(type, detail), uid}`.
 * Event `append` ({nodeId, branch, role}) after a message was appended.
 */
export class Composer {
  /** @param {object} host see the class comment */
  constructor(host) {
    this.host = host;
    this._busy = false;
    const form = el("form", "composer");
    form.setAttribute("aria-label", "Write a message");
    this.element = form;
    this.target = el("p", "composer-target");
    this.target.id = `${host.uid}-compose-target`;
    this.text = el("textarea", "composer-text");
    this.text.rows = 2;
    // A touch screen has no Ctrl key to speak of: its Send button is the way.
    this.text.placeholder = globalThis.matchMedia?.("(any-pointer: fine)").matches === false ? "Message…" : "Message… (Ctrl+Enter sends)";
    this.text.setAttribute("aria-label", "Message");
    this.text.setAttribute("aria-describedby", this.target.id);
    this.text.setAttribute("aria-keyshortcuts", "Control+Enter Meta+Enter");
    this.role = el("select", "composer-role");
    this.role.setAttribute("aria-label", "Role of the message");
    for (const r of COMPOSER_ROLES) {
      const o = el("option", "", r.label);
      o.value = r.value;
      this.role.append(o);
    }
    this.send = button("composer-send", "Send");
    this.send.type = "submit";
    this.send.title = "Append this message (Ctrl+Enter)";
    this.send.setAttribute("aria-describedby", this.target.id);
    this.result = el("p", "composer-result");
    this.result.setAttribute("role", "status");
    this.result.setAttribute("aria-live", "polite");
    const row = el("div", "composer-row");
    const controls = el("div", "composer-controls");
    controls.append(this.role, this.send);
    row.append(this.text, controls);
    form.append(this.target, row, this.result);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.submit();
    });
    this.text.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        this.submit();
      }
    });
    this.role.addEventListener("change", () => this.update());
    this.text.addEventListener("input", () => {
      if (this.result.classList.contains("error")) this.say("");
    });
    this.update();
  }

  /** Say again where the next message goes (after each load or preview). */
  update() {
    const t = composeTarget(this.host.model);
    // A note is said to be one: it stays in the tree and never reaches the model.
    const loading = this.host.model.partial !== null;
    const note = t !== null && this.role.value === "note" ? " A note is kept in the tree, never sent to the model." : "";
    // Another session being opened (RowsLoader._showOpening) has no target yet, but is picked.
    const opening = t === null && this.host.model.opening === true;
    this.target.textContent = opening ? "Opening the session…" : targetText(t) + note + (t !== null && loading ? " Send waits until every row is loaded." : "");
    const off = t === null || loading;
    this.text.disabled = t === null;
    this.send.disabled = off || this._busy;
    this.role.disabled = t === null;
  }

  /** Forget the last result (another session shows). */
  reset() {
    this.say("");
    this.update();
  }

  /**
   * Say something in the line under the text area (role status, polite);
   * "" clears it.
   * @param {string} text
   * @param {boolean} [isError]
   */
  say(text, isError = false) {
    this.result.textContent = text;
    this.result.classList.toggle("error", isError);
  }

  /**
   * Append the text: after moving the cursor to a previewed node, at the
   * cursor. Empty text is refused with a message (nothing is appended).
   * The text area empties as the message goes, so what is typed while it
   * is sent is the next draft; a message not sent (a failed call, shown as
   * the core's error, or a cursor that could not move) comes back, before
   * whatever was typed since, on a line of its own: nothing typed is lost.
   */
  async submit() {
    const { host } = this;
    if (this._busy) return;
    const text = this.text.value;
    const sessionId = host.sessionId();
    const t = composeTarget(host.model);
    if (sessionId === null || t === null) return this.say("Pick a session first.", true);
    if (text.trim() === "") {
      this.say("Nothing to send: write a message first.", true);
      this.text.focus();
      return;
    }
    const role = this.role.value;
    this._busy = true;
    this.update();
    this.text.value = "";
    let sent = false;
    try {
      if (t.preview && !(await host.jump(t.at))) return this.say(`Not sent: the cursor could not move to ${t.at}.`, true);
      const env = await host.tree().call(appendRequest(sessionId, role, text));
      if (!env.ok) return this.say(`Not sent: ${env.error.message}`, true);
      sent = true;
      const node = env.value;
      const what = role === "note" ? "Note" : role === "user" ? "User message" : "Assistant message";
      const fresh = t.how === "new" ? " (a new branch)" : t.how === "empty" ? " (its first message)" : "";
      this.say(`${what} ${node.id} sent to branch ${node.branch}${fresh}.`);
      host.emit("append", { sessionId, nodeId: node.id, branch: node.branch, role });
      // Another session opened while it was sent: that one's rows are not this node's.
      if (host.sessionId() !== sessionId) return;
      host.model.active = node.id;
      await host.refresh();
    } finally {
      if (!sent) this.text.value = this.text.value === "" ? text : `${text}\n${this.text.value}`;
      this._busy = false;
      this.update();
      this.text.focus();
    }
  }
}
