// The node actions of <session-tree-panel> and their dialogs: the toolbar
// (Jump, Branch…, Branch + summary…, Fork, Clone, Label…, Hide, Prefer,
// Compare…), the panel's own prompt (a modal <dialog>, never
// window.prompt) for branch names, summaries and labels, and the
// comparison of two nodes (the core's `diff`) shown above the context.
// Every failed call is shown as the core's error. Label, Hide and Prefer are offered only when the tree has
// those operations (tree.hasOperation).

import { button, el } from "./dom.js";
import { isolate } from "./node-text.js";

/** The actions a narrow panel keeps behind its "More" button. */
const SECONDARY = ["summary", "fork", "clone", "label", "hide", "prefer", "compare"];

/** Characters of a node's text a dialog's title names it by (see _nodeName). */
const NAME_CHARS = 48;

/**
 * Make Ctrl+Enter (Cmd+Enter) in a multiline field submit its form, as in
 * the composer: Enter there is a new line.
 * @param {HTMLTextAreaElement} input @param {HTMLFormElement} form
 */
function submitOnCtrlEnter(input, form) {
  input.setAttribute("aria-keyshortcuts", "Control+Enter Meta+Enter");
  input.addEventListener("keydown", (e) => {
    if (e.key !== "Enter" || !(e.ctrlKey || e.metaKey)) return;
    e.preventDefault();
    form.requestSubmit();
  });
}

/**
 * The toolbar, the prompt and the comparison view: `toolbar`, `prompt`
 * and `diffView` are elements for the caller to place.
 *
 * The host: `{model, uid (a prefix for element ids), tree() → SessionTree,
 * sessionId() → string|null, status(text, isError?, action?) (action:
 * {label, run}, a button in the toast), refresh() → Promise,
 * emit(type, detail), renderRows(), focusTree(focusOptions), focusNode(id),
 * composerSay?(text) (a line in the composer, kept until the next send)}`.
 */
export class PanelActions {
  /** @param {object} host see the class comment */
  constructor(host) {
    this.host = host;
    this._promptDone = null;
    this.toolbar = el("div", "actions");
    this.toolbar.setAttribute("role", "toolbar");
    this.toolbar.setAttribute("aria-label", "Node actions");
    // The prompt: a modal <dialog> (showModal: the rest of the page is
    // inert, so Tab stays in it or passes through the browser's own UI;
    // Escape cancels), labelled by its heading.
    this.prompt = el("dialog", "prompt-dialog");
    this.prompt.setAttribute("aria-modal", "true");
    this.prompt.setAttribute("aria-labelledby", `${host.uid}-prompt-title`);
    this.prompt.addEventListener("cancel", (e) => {
      e.preventDefault();
      this.closePrompt();
    });
    this._form = el("form", "prompt");
    this.diffView = el("div", "diff");
    this.diffView.hidden = true;
    const a = (name, text, title, fn) => {
      const b = button(`action act-${name}`, text, title);
      b.dataset.action = name;
      b.addEventListener("click", () => fn());
      this.toolbar.append(b);
      return b;
    };
    this.buttons = {
      jump: a("jump", "Continue from here", "Move the session's cursor here: what is appended next continues this path (Shift+Enter)", () => this._jumpSelected()),
      branch: a("branch", "Branch…", "Start a named branch at this node", () => this._askBranch(false)),
      summary: a("summary", "Branch + summary…", "Start a branch here with a summary of what came before", () => this._askBranch(true)),
      fork: a("fork", "Fork", "Copy the path to this node into a new session", () => this._fork()),
      clone: a("clone", "Clone", "Copy the whole session", () => this._clone()),
      label: a("label", "Label…", "Label this node", () => this._askLabel()),
      hide: a("hide", "Hide", "Hide this subtree from the default view", () => this._toggleHidden()),
      prefer: a("prefer", "Prefer", "Mark the path to this node as preferred", () => this._prefer()),
      compare: a("compare", "Compare…", "Compare this node with another one", () => this._startCompare()),
    };
    this._addMore();
    this.update();
  }

  /**
   * The "More" disclosure of a narrow panel (a phone): the less-used
   * actions (SECONDARY) hide behind it and show on rows of their own when
   * it is pressed (aria-expanded); a wide panel shows every action and
   * hides the button (session-tree-panel.css).
   */
  _addMore() {
    for (const name of SECONDARY) this.buttons[name].classList.add("secondary");
    this.moreButton = button("action act-more", "More", "Show the other actions: Branch + summary, Fork, Clone, Label, Hide, Prefer, Compare");
    this.moreButton.setAttribute("aria-expanded", "false");
    this.moreButton.addEventListener("click", () => this.showMore(!this.toolbar.classList.contains("more-open")));
    this.buttons.branch.after(this.moreButton); // in place whether open or not; what it shows follows it
  }

  /** Show or hide the less-used actions behind "More" (a narrow panel). @param {boolean} open */
  showMore(open) {
    this.toolbar.classList.toggle("more-open", open);
    this.moreButton.setAttribute("aria-expanded", String(open));
    this.moreButton.textContent = open ? "Less" : "More";
  }

  /** Whether the prompt dialog is open. */
  get prompting() {
    return this.prompt.open;
  }

  /** Enable and name the buttons for the selected node. */
  update() {
    const row = this.host.model.selectedRow;
    for (const b of Object.values(this.buttons)) b.disabled = row === null;
    if (!row) return;
    const tree = this.host.tree();
    this.buttons.jump.disabled = row.cursor;
    this.buttons.hide.textContent = row.hiddenRoot ? "Unhide" : "Hide";
    this.buttons.label.textContent = row.label ? "Relabel…" : "Label…";
    for (const op of ["label", "hide", "prefer"]) this.buttons[op].hidden = !tree?.hasOperation(op);
    this.buttons.clone.disabled = false;
  }

  /**
   * Move the cursor to a node, reload, and tell (event `jump`); a failed
   * jump is shown as its error. Leaving an empty branch (made by Branch…,
   * no node yet: the core drops it) is said in the toast and the
   * composer's line.
   * @param {string} nodeId
   * @returns {Promise<boolean>} whether the cursor moved
   */
  async jump(nodeId) {
    const { host } = this;
    // A branch just made by Branch… has no node; the core drops it when the cursor moves: say so.
    const empty = host.model.pendingBranch;
    const env = await host.tree().call({ operation: "jump", sessionId: host.sessionId(), nodeId });
    if (!env.ok) {
      host.status(env.error.message);
      return false;
    }
    host.model.active = nodeId;
    host.model.view = null;
    await host.refresh();
    host.emit("jump", { nodeId });
    if (empty !== null && env.value.activeBranch !== empty) {
      const text = `The empty branch ${empty} was left: it had no message yet.`;
      host.status(text, false);
      host.composerSay?.(text); // kept there: a reload that follows clears the toast
    }
    return true;
  }

  /** Cancel the prompt form, when open. */
  closePrompt() {
    this._promptDone?.(null);
  }

  /** End a comparison being chosen (Escape). False when none was. */
  cancelCompare() {
    if (this.host.model.compareFrom === null) return false;
    this.host.model.compareFrom = null;
    this.host.renderRows();
    this.host.status("");
    return true;
  }

  /**
   * Close the comparison shown (its ×, Escape): focus inside it goes back
   * to the tree's rows. False when none was shown.
   */
  closeComparison() {
    const view = this.diffView;
    if (view.hidden) return false;
    const focused = view.contains(view.getRootNode().activeElement);
    view.hidden = true;
    view.replaceChildren();
    if (focused) this.host.focusTree({ preventScroll: true });
    return true;
  }

  async _jumpSelected() {
    const id = this.host.model.selectedNodeId;
    if (id !== null) await this.jump(id);
  }

  /**
   * Ask for a text in the panel's modal dialog: resolves to the text (or
   * both texts with `second`), or null when cancelled (Cancel, Escape).
   * Focus goes to the first field, and back on close to what had it (the
   * tree when that is gone). Enter in the first field and Ctrl+Enter (or
   * Cmd+Enter) in a multiline second one submit, as OK does. With `submit`, the answer is first given to
   * it: an error message it resolves to is shown in the dialog (an alert
   * line under the fields), which stays open with the text as typed; null
   * closes it and resolves to the answer.
   * @param {string} labelText
   * @param {{title?: string, value?: string, multiline?: boolean, okText?: string, second?: {label: string, value?: string}|null, submit?: ((answer: string|string[]) => Promise<string|null>)|null}} [options]
   * @returns {Promise<string|string[]|null>}
   */
  _ask(labelText, { title = labelText, value = "", multiline = false, okText = "OK", second = null, submit = null } = {}) {
    return new Promise((resolve) => {
      const dialog = this.prompt;
      const form = this._form;
      const root = dialog.getRootNode();
      const before = root.activeElement ?? document.activeElement;
      form.replaceChildren();
      const heading = el("h3", "prompt-title", title);
      heading.id = `${this.host.uid}-prompt-title`;
      form.append(heading);
      const fields = [];
      const add = (text, v, multi) => {
        const label = el("label", "prompt-label", text);
        const input = el(multi ? "textarea" : "input", "prompt-input");
        if (!multi) input.type = "text";
        else {
          input.rows = 3;
          submitOnCtrlEnter(input, form);
        }
        input.value = v;
        label.append(input);
        form.append(label);
        fields.push(input);
      };
      add(labelText, value, false);
      if (second) add(second.label, second.value ?? "", multiline);
      const error = el("p", "prompt-error");
      error.setAttribute("role", "alert");
      error.hidden = true;
      form.append(error);
      const row = el("div", "prompt-buttons");
      const ok = button("primary", okText);
      ok.type = "submit";
      const cancel = button("", "Cancel");
      row.append(ok, cancel);
      form.append(row);
      dialog.replaceChildren(form);
      const done = (result) => {
        if (dialog.open) dialog.close();
        form.onsubmit = null;
        cancel.onclick = null;
        this._promptDone = null;
        resolve(result);
        if (before instanceof HTMLElement && before.isConnected && !before.disabled && before !== document.body) before.focus({ preventScroll: true });
        else this.host.focusTree({ preventScroll: true });
      };
      this._promptDone = done;
      form.onsubmit = async (e) => {
        e.preventDefault();
        if (ok.disabled) return; // a submit is being checked
        const answer = second ? fields.map((f) => f.value) : fields[0].value;
        if (submit === null) return done(answer);
        ok.disabled = true;
        const refused = await submit(answer);
        ok.disabled = false;
        if (this._promptDone !== done) return; // cancelled meanwhile
        if (refused === null) return done(answer);
        error.textContent = refused;
        error.hidden = false;
        fields[0].setAttribute("aria-invalid", "true");
        fields[0].focus();
      };
      cancel.onclick = () => done(null);
      try {
        dialog.showModal();
      } catch {
        done(null); // not in a document (the panel was removed): nothing to ask
        return;
      }
      fields[0].focus();
      fields[0].select();
    });
  }

  async _askBranch(withSummary) {
    const { host } = this;
    const { model } = host;
    const nodeId = model.selectedNodeId;
    if (nodeId === null) return;
    const suggestion = model.freeBranchName();
    // The branch is made from the dialog: a refused name (taken, empty)
    // keeps it open with the text as typed and the reason under it.
    let env = null;
    const sessionId = host.sessionId(); // the node's, whatever the panel shows by the answer
    const submit = async (answer) => {
      const [branch, summary] = withSummary ? answer : [answer, undefined];
      if (sessionId !== host.sessionId()) return "The panel shows another session now.";
      env = await host.tree().call(withSummary ? { operation: "branch.summary", sessionId, nodeId, branch, summary } : { operation: "branch", sessionId, nodeId, branch });
      // The dialog is about this session: a taken name's reason need not name it by id.
      return env.ok ? null : env.error.message.replace(/ already exists in session "(?:[^"\\]|\\.)*"/, " already exists");
    };
    const answer = withSummary
      ? await this._ask("New branch name", { title: `Branch + summary at ${this._nodeName(nodeId)}`, value: suggestion, multiline: true, okText: "Create branch", second: { label: "Summary of what came before", value: model.defaultSummary(nodeId) }, submit })
      : await this._ask("New branch name", { title: `New branch at ${this._nodeName(nodeId)}`, value: suggestion, okText: "Create branch", submit });
    if (answer === null || env === null || !env.ok) return;
    const branch = withSummary ? answer[0] : answer;
    // Another session shown by now (Back, another tab's trash): its rows are not this branch's.
    const made = { sessionId, nodeId, branch, summaryNodeId: withSummary ? env.value.id : undefined };
    if (host.sessionId() !== sessionId) {
      host.emit("branch", made);
      return;
    }
    model.active = withSummary ? env.value.id : nodeId;
    model.view = null; // the cursor moved to the new branch: its path shows (a summary node is past a previewed node)
    await host.refresh();
    host.emit("branch", made);
    host.status(`Branch ${branch} created at ${this._nodeName(nodeId)}; the next message goes there.`, false);
    // After the status line, which may make the head taller: the new
    // summary node may sit below the fold (a phone).
    host.revealActive();
  }

  async _fork() {
    const { host } = this;
    const nodeId = host.model.selectedNodeId;
    if (nodeId === null) return;
    const env = await host.tree().call({ operation: "fork", sessionId: host.sessionId(), nodeId });
    if (!env.ok) return host.status(env.error.message);
    host.emit("fork", { nodeId, newSessionId: env.value.sessionId });
    host.status(`Forked into session ${env.value.sessionId}.`, false);
  }

  async _clone() {
    const { host } = this;
    const env = await host.tree().call({ operation: "clone", sessionId: host.sessionId() });
    if (!env.ok) return host.status(env.error.message);
    host.emit("fork", { nodeId: null, newSessionId: env.value.sessionId, clone: true });
    host.status(`Cloned into session ${env.value.sessionId}.`, false);
  }

  /** Call a change of the selected node's annotations and reload; false when it failed (shown). */
  async _annotate(request) {
    const env = await this.host.tree().call(request);
    if (!env.ok) {
      this.update();
      this.host.status(env.error.message);
      return false;
    }
    await this.host.refresh();
    return true;
  }

  /**
   * How a dialog's title names a node: its role (or kind) and the start of
   * its text, `user “What is 15 * 17?”` (at most NAME_CHARS characters of
   * it), else its id.
   * @param {string} nodeId
   * @returns {string}
   */
  _nodeName(nodeId) {
    const row = this.host.model.rowById.get(nodeId);
    const text = (row?.preview ?? "").replace(/\s+/g, " ").trim();
    if (text === "") return nodeId;
    const start = text.length > NAME_CHARS ? `${text.slice(0, NAME_CHARS - 1)}…` : text;
    return `${row.kind === "message" ? row.role : row.kind.replace(/_/g, " ")} “${isolate(start)}”`;
  }

  async _askLabel() {
    const { host } = this;
    const nodeId = host.model.selectedNodeId;
    if (nodeId === null) return;
    const sessionId = host.sessionId(); // the node's: the panel may show another session by the answer
    const label = await this._ask("Label (empty clears it)", { title: `Label ${this._nodeName(nodeId)}`, value: host.model.rowById.get(nodeId)?.label ?? "", okText: "Save label" });
    if (label === null || sessionId !== host.sessionId()) return;
    await this._annotate({ operation: "label", sessionId, nodeId, label });
  }

  async _toggleHidden() {
    const { host } = this;
    const nodeId = host.model.selectedNodeId;
    if (nodeId === null) return;
    const hidden = !host.model.rowById.get(nodeId)?.hiddenRoot;
    if (!(await this._annotate({ operation: "hide", sessionId: host.sessionId(), nodeId, hidden }))) return;
    // Gone from the default view: Undo shows it again, selected as it was.
    if (hidden && host.model.filter !== "all") host.status("Hidden. Choose the “All” filter to see hidden nodes.", false, { label: "Undo", run: () => this._unhide(nodeId) });
  }

  /** Undo of a Hide: show the subtree at nodeId again and select it. */
  async _unhide(nodeId) {
    const { host } = this;
    if (!(await this._annotate({ operation: "hide", sessionId: host.sessionId(), nodeId, hidden: false }))) return;
    host.focusNode(nodeId);
  }

  async _prefer() {
    const { host } = this;
    const nodeId = host.model.selectedNodeId;
    if (nodeId === null) return;
    await this._annotate({ operation: "prefer", sessionId: host.sessionId(), nodeId });
  }

  _startCompare() {
    const { host } = this;
    const nodeId = host.model.selectedNodeId;
    if (nodeId === null) return;
    host.model.compareFrom = nodeId;
    host.renderRows();
    host.status("Choose the node to compare with (Escape cancels).", false);
  }

  /**
   * Compare two nodes with the core's `diff` and show the sides (a failed
   * diff is shown as its error).
   * @param {string} from
   * @param {string} to
   */
  async compare(from, to) {
    const { host } = this;
    host.status("");
    const env = await host.tree().call({ operation: "diff", sessionId: host.sessionId(), from, to });
    if (env.ok) {
      this._renderDiff(from, to, env.value);
      host.emit("compare", { nodeId: to, from, to });
    } else host.status(env.error.message);
    host.renderRows();
  }

  /**
   * Show the answer of `diff`: the common ancestor and, side by side, the
   * nodes only on each side (root first).
   * @param {{ancestor?: string|null, fromOnly: {id: string, text: string}[], toOnly: {id: string, text: string}[]}} diff
   */
  _renderDiff(from, to, diff) {
    const { model } = this.host;
    const view = this.diffView;
    view.replaceChildren();
    const head = el("div", "diff-head");
    const anc = diff.ancestor ? model.rowById.get(diff.ancestor) : null;
    head.append(el("h4", "", "Compare"), el("span", "stats", anc ? `common ancestor: ${anc.preview || anc.id}` : "no common ancestor"));
    const closer = button("icon", "×", "Close the comparison (Escape)");
    closer.addEventListener("click", () => this.closeComparison());
    head.append(closer);
    const cols = el("div", "diff-cols");
    for (const [name, id, list] of [
      ["from", from, diff.fromOnly],
      ["to", to, diff.toOnly],
    ]) {
      const col = el("div", `diff-col ${name}`);
      const row = model.rowById.get(id);
      col.append(el("h5", "", `${row?.branch ?? ""} · ${list.length} only here`));
      const ol = el("ol", "diff-list");
      for (const n of list) {
        const li = el("li", "diff-item");
        li.dataset.nodeId = n.id;
        const r = model.rowById.get(n.id);
        const role = el("span", "role", r?.kind === "message" ? r.role : r?.kind ?? "?");
        role.dataset.role = r?.kind === "message" ? r.role : r?.kind ?? "";
        li.append(role, el("span", "diff-text", n.text || r?.preview || ""));
        ol.append(li);
      }
      if (list.length === 0) ol.append(el("li", "diff-empty", "(nothing — this side is an ancestor of the other)"));
      col.append(ol);
      cols.append(col);
    }
    view.append(head, cols);
    view.hidden = false;
  }
}
