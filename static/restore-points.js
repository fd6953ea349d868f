// Restore points in the explorer (issue 17, item 5): a dialog listing the
// selected session's restore points (tree.listSnapshots: name, time, node
// count) with Save (tree.saveSnapshot) and Restore (tree.restoreSnapshot,
// after a confirmation that offers, checked by default, to keep the
// current state as a restore point first), and the choice offered when a
// snapshot file of a session that already exists is imported: replace it
// (snapshot.load over it, the current state kept as a restore point
// first) or import it as a copy (snapshot.load under a new id). Saving
// under a name a restore point already has asks first (tree.saveSnapshot
// replaces a point of the same name): Replace it, or Cancel to keep it.
//
// The dialogs are <dialog> elements of index.html opened with showModal
// (role dialog, modal, Escape closes); focus goes back to what had it.
// Text reaches the DOM only through textContent.

import { el } from "./dom.js";
import { formatTime } from "./tree-model.js";
import { isolate } from "./node-text.js";
import { leadingMembers } from "../js/request-text.js";
import { SNAPSHOT_MEMBERS } from "../js/protocol.js";
import { checkName, MAX_NAME_LENGTH } from "../js/api-errors.js";

/** How much of a file's start is read to tell a snapshot and its session id. */
const HEAD_CHARS = 4096;

/**
 * The session id of a snapshot file's text (the core's snapshot.save
 * writes `{"version":…,"sessionId":"…",…,"nodes":[…]}`), or null when the
 * text does not start like a snapshot. Reads only the first characters.
 * @param {string} text
 * @returns {string|null}
 */
export function snapshotSessionId(text) {
  return snapshotHead(text)?.id ?? null;
}

/**
 * The sessionId of a snapshot's text and where its JSON string sits
 * ([start, end) in UTF-16 units), or null: the first two members read as
 * JSON (leadingMembers), a numeric "version" then a non-empty string
 * "sessionId", the order snapshot.save writes (SNAPSHOT_MEMBERS).
 */
function snapshotHead(text) {
  if (typeof text !== "string") return null;
  const [version, id] = leadingMembers(text.slice(0, HEAD_CHARS), 2);
  if (version?.[0] !== SNAPSHOT_MEMBERS[0] || typeof version[1] !== "number") return null;
  if (id?.[0] !== SNAPSHOT_MEMBERS[1] || typeof id[1] !== "string" || id[1] === "") return null;
  return { id: id[1], start: id[2], end: id[3] };
}

/**
 * The snapshot text with its sessionId replaced (snapshot.load wants the
 * request's id in the snapshot); every other byte as it was.
 * @param {string} text a snapshot's text (snapshotSessionId(text) is not null)
 * @param {string} id
 * @returns {string}
 */
export function withSessionId(text, id) {
  const head = snapshotHead(text);
  return head === null ? text : text.slice(0, head.start) + JSON.stringify(id) + text.slice(head.end);
}

/**
 * A session id not in `taken`: "<id>-copy", then "<id>-copy-2", "-copy-3", ….
 * @param {string} id
 * @param {Set<string>} taken
 * @returns {string}
 */
export function copyId(id, taken) {
  let candidate = `${id}-copy`;
  for (let k = 2; taken.has(candidate); k++) candidate = `${id}-copy-${k}`;
  return candidate;
}

/**
 * A restore point's name from the local time: "Before restoring 2026-12-01 11:58:07" (what, then
 * the time), or the time alone when what is "" (one saved without a name typed).
 */
function autoName(what) {
  const d = new Date();
  const pad = (n) => String(n).padStart(2, "0");
  const time = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  return what === "" ? time : `${what} ${time}`;
}

/**
 * autoName(what), made free in session id: " (2)", " (3)", … added while
 * the session has a restore point of that name (two kept within one
 * second: a ZIP's two snapshots replaced in turn) or `held` holds it (a
 * name chosen for a save still under way: two restores confirmed in one
 * turn listed the same points and took one name, the second save
 * replacing the first), so a name the page chose never replaces a point
 * (saveSnapshot replaces one of the same name).
 * @param {object} tree the SessionTree @param {string} id @param {string} what
 * @param {Set<string>} held "<id>\u0000<name>" of the names being saved;
 *   the name returned is added (the caller deletes it once saved)
 * @returns {Promise<string>}
 */
async function freeName(tree, id, what, held) {
  const name = autoName(what);
  const taken = new Set(((await tree.listSnapshots(id)).value ?? []).map((p) => p.name));
  const used = (n) => taken.has(n) || held.has(`${id}\u0000${n}`);
  let free = name;
  for (let k = 2; used(free); k++) free = `${name} (${k})`;
  held.add(`${id}\u0000${free}`); // in the turn it is chosen: the caller's await resumes later
  return free;
}

/** How long after a save a submit of the field it emptied is the same key or click pressed again (ms): a double Enter or a double click. */
const REPEAT_MS = 500;

/**
 * Open a modal <dialog>, focusing `focus`; resolves with the dialog's
 * returnValue when it closes ("" on Escape), focus given back to what had it.
 * @param {HTMLDialogElement} dialog
 * @param {HTMLElement} [focus]
 * @returns {Promise<string>}
 */
function ask(dialog, focus) {
  const before = document.activeElement;
  dialog.returnValue = "";
  return new Promise((resolve) => {
    dialog.addEventListener(
      "close",
      () => {
        if (before instanceof HTMLElement && before.isConnected) before.focus();
        resolve(dialog.returnValue);
      },
      { once: true },
    );
    dialog.showModal();
    focus?.focus();
  });
}

/**
 * The restore points dialog and the snapshot import choice.
 *
 * The page: `{tree() → SessionTree, sessionId() → string|null,
 * session(id) → {sessionId, title, nodeCount}|undefined, titleOf(session) → string, copyTitle(session) → string (a copy's title),
 * sessionIds() → Set<string>, setTitle(id, title) → Promise (names the session), changed() → Promise (reload the list and the panel),
 * select(id) → Promise, notify(text, isError?)}`.
 */
export class RestorePoints {
  /** @param {object} page see the class comment */
  constructor(page) {
    this.page = page;
    const $ = (id) => document.getElementById(id);
    this.dialog = $("restore-dialog");
    this.list = $("restore-list");
    this.empty = $("restore-empty");
    this.nameInput = $("restore-name");
    this.saveForm = $("restore-save");
    this.title = $("restore-title");
    this.message = $("restore-message");
    this.confirm = $("restore-confirm");
    this.confirmText = $("restore-confirm-text");
    this.keepBox = $("restore-keep");
    this.choice = $("snapshot-choice");
    this.choiceText = $("snapshot-choice-text");
    this.replace = $("replace-point");
    this.replaceText = $("replace-point-text");
    /** The names freeName chose whose saves are under way ("<id>\u0000<name>"). */
    this._held = new Set();
    /** Until when (performance.now()) a submit of the field a save emptied is let go, see REPEAT_MS. */
    this._quietUntil = 0;
    this.saveForm.addEventListener("submit", (e) => {
      e.preventDefault();
      this._save();
    });
    this.list.addEventListener("click", (e) => {
      const b = e.target.closest("button[data-name]");
      if (b) this._restore(b.dataset.name, b);
    });
  }

  /** Open the dialog for the selected session (nothing when none is selected). */
  async open() {
    const id = this.page.sessionId();
    if (id === null) return;
    const s = this.page.session(id);
    this.title.textContent = `Restore points — ${isolate(s ? this.page.titleOf(s) : id)}`;
    this.nameInput.value = "";
    this._quietUntil = 0;
    this._say("");
    const shown = ask(this.dialog, this.nameInput);
    await this._render();
    return shown;
  }

  _say(text, isError = false) {
    this.message.textContent = text;
    this.message.classList.toggle("error", isError);
  }

  /** List the session's restore points, newest first. */
  async _render() {
    const id = this.page.sessionId();
    const env = await this.page.tree().listSnapshots(id);
    if (!env.ok) {
      this._say(env.error.message, true);
      return;
    }
    const points = [...env.value].reverse();
    this.empty.hidden = points.length > 0;
    this.list.replaceChildren(
      ...points.map((p) => {
        const li = el("li", "restore-point");
        li.dataset.name = p.name;
        const text = el("div", "restore-point-text");
        text.append(el("span", "restore-point-name", p.name));
        const meta = el("span", "restore-point-meta");
        const time = el("time", "", formatTime(p.createdAt));
        time.dateTime = p.createdAt;
        meta.append(time, document.createTextNode(` · ${p.nodeCount} ${p.nodeCount === 1 ? "node" : "nodes"}`));
        text.append(meta);
        const b = el("button", "button", "Restore…");
        b.type = "button";
        b.dataset.name = p.name;
        b.setAttribute("aria-label", `Restore ${isolate(p.name)}`);
        li.append(text, b);
        return li;
      }),
    );
  }

  /**
   * Save the current state under the name typed (the time when none, made
   * free), asking first to replace a point of the name typed. A submit
   * while one is saving, or of the field it emptied within REPEAT_MS of
   * its end (Enter or the button pressed twice: a save takes ~10 ms, and
   * the second press saved a time-named point), is let go.
   */
  async _save() {
    if (this._saving || (this.nameInput.value === "" && performance.now() < this._quietUntil)) return;
    this._saving = true;
    try {
      if (await this._saveOnce()) this._quietUntil = performance.now() + REPEAT_MS;
    } finally {
      this._saving = false;
    }
  }

  /**
   * Save the session under autoName(what) made free (freeName), the name
   * held until saved so that a save begun meanwhile takes another.
   * @param {string} id @param {string} what
   * @returns {Promise<object>} saveSnapshot's envelope
   */
  async _saveFree(id, what) {
    const tree = this.page.tree();
    const name = await freeName(tree, id, what, this._held);
    try {
      return await tree.saveSnapshot(id, name);
    } finally {
      this._held.delete(`${id}\u0000${name}`);
    }
  }

  /** _save's work; resolves true when a point was saved. */
  async _saveOnce() {
    const id = this.page.sessionId();
    const typed = this.nameInput.value.trim();
    if (typed !== "" && checkName("saveSnapshot", "name", typed) !== null) {
      // Pasted past the box's maxlength (UTF-16 units), or holding a control character: said in the page's words.
      this._say(`Not saved: a name is at most ${MAX_NAME_LENGTH.toLocaleString("en")} characters, with no control characters. Change it to save.`, true);
      this.nameInput.focus();
      return false;
    }
    if (typed !== "" && !(await this._mayReplace(id, typed))) {
      this._say(`Not saved: “${isolate(typed)}” is kept as it was. Type another name to keep both.`);
      this.nameInput.focus();
      this.nameInput.select();
      return false;
    }
    const env = typed === "" ? await this._saveFree(id, "") : await this.page.tree().saveSnapshot(id, typed);
    if (!env.ok) {
      this._say(env.error.message, true);
      return false;
    }
    this.nameInput.value = "";
    this._say(`Saved “${isolate(env.value.name)}” (${env.value.nodeCount} ${env.value.nodeCount === 1 ? "node" : "nodes"}).`);
    await this._render();
    return true;
  }

  /**
   * Whether saving `name` may go ahead: yes when the session has no
   * restore point of that name, else what the user answers when asked to
   * replace it (its node count and time named; Cancel, the default, keeps it).
   * @param {string} id @param {string} name
   * @returns {Promise<boolean>}
   */
  async _mayReplace(id, name) {
    const old = ((await this.page.tree().listSnapshots(id)).value ?? []).find((p) => p.name === name);
    if (!old) return true;
    const s = this.page.session(id);
    const now = s ? ` with the session as it is now (${s.nodeCount} ${s.nodeCount === 1 ? "node" : "nodes"})` : " with the session as it is now";
    this.replaceText.textContent = `A restore point named “${isolate(name)}” already exists (${old.nodeCount} ${old.nodeCount === 1 ? "node" : "nodes"}, saved ${formatTime(old.createdAt)}). Replace it${now}? The older one is then gone.`;
    return (await ask(this.replace, this.replace.querySelector("button[value=cancel]"))) === "replace";
  }

  /** Confirm, keep the current state first when asked (the default), then restore. */
  async _restore(name, from) {
    this._quietUntil = 0; // something else was done since the last save: a Save now is meant
    const id = this.page.sessionId();
    const s = this.page.session(id);
    const points = (await this.page.tree().listSnapshots(id)).value ?? [];
    const point = points.find((p) => p.name === name);
    this.confirmText.textContent = `Bring back “${isolate(name)}”${point ? ` (${point.nodeCount} ${point.nodeCount === 1 ? "node" : "nodes"})` : ""}? The session${s ? ` (now ${s.nodeCount} ${s.nodeCount === 1 ? "node" : "nodes"})` : ""} becomes what it was then.`;
    this.keepBox.checked = true;
    const answer = await ask(this.confirm, this.confirm.querySelector("button[value=restore]"));
    from?.focus();
    if (answer !== "restore") return;
    let kept = null;
    if (this.keepBox.checked) {
      const saved = await this._saveFree(id, "Before restoring");
      if (!saved.ok) return this._say(`Not restored: the current state could not be kept (${saved.error.message}).`, true);
      kept = saved.value.name;
    }
    const env = await this.page.tree().restoreSnapshot(id, name);
    if (!env.ok) return this._say(env.error.message, true);
    await this.page.changed();
    this._say(`Restored “${isolate(name)}”.${kept ? ` The state before is kept as “${isolate(kept)}”.` : ""}`);
    this.page.notify(`Restored “${isolate(name)}”${kept ? `; the state before is kept as “${isolate(kept)}”` : ""}`);
    await this._render();
    // The button pressed went with the list drawn anew: focus to the restored point's, never to <body>.
    if (from && !from.isConnected) [...this.list.querySelectorAll("button[data-name]")].find((b) => b.dataset.name === name)?.focus();
  }

  /**
   * When `text` is a snapshot of a session that already exists, ask
   * whether to replace it or import it as a copy, do it, and resolve to an
   * import-shaped envelope (`{ok, value: {format: "snapshot", sessions, warnings, skipped}}`;
   * a replaced session has `existing: true` and `replaced`, the name of the
   * restore point keeping the state before);
   * cancelled, an envelope with no session and the reason skipped. Null
   * when the text is not such a snapshot (import it as usual).
   * @param {string} text
   * @returns {Promise<object|null>}
   */
  async importChoice(text) {
    const id = snapshotSessionId(text);
    const existing = id === null ? undefined : this.page.session(id);
    if (!existing) return null;
    let inFile = null;
    try {
      inFile = JSON.parse(text).nodes?.length ?? null;
    } catch {
      return null; // not JSON after all: the import reports it
    }
    const title = this.page.titleOf(existing);
    this.choiceText.textContent = `This snapshot is of “${isolate(title)}” (${id}), already a session here (${existing.nodeCount} ${existing.nodeCount === 1 ? "node" : "nodes"}; ${inFile ?? "?"} in the file).`;
    const answer = await ask(this.choice, this.choice.querySelector("button[value=copy]"));
    const tree = this.page.tree();
    const load = (sessionId) => tree.call(`{"operation":"snapshot.load","sessionId":${JSON.stringify(sessionId)},"snapshot":${withSessionId(text, sessionId)}}`);
    const done = (env) => (env.ok ? { ok: true, value: { format: "snapshot", sessions: [env.value], warnings: [], skipped: [] } } : env);
    if (answer === "replace") {
      const kept = await this._saveFree(id, "Before import");
      if (!kept.ok) return { ok: false, error: { code: kept.error.code, message: `not replaced: the current state could not be kept (${kept.error.message})` } };
      const env = await load(id);
      // The report says it was replaced and where the state before is (report-lines.js reportTitle).
      return done(env.ok ? { ok: true, value: { ...env.value, existing: true, replaced: kept.value.name } } : env);
    }
    if (answer === "copy") {
      const newId = copyId(id, this.page.sessionIds());
      const env = await load(newId);
      if (!env.ok) return env;
      const copyTitle = this.page.copyTitle(existing);
      await this.page.setTitle(newId, copyTitle);
      return done({ ok: true, value: { ...env.value, title: copyTitle } }); // the report names the copy as the list does
    }
    return { ok: true, value: { format: "snapshot", sessions: [], warnings: [], skipped: [{ sessionId: id, title, reason: "already a session here; you chose to import nothing" }] } };
  }
}
