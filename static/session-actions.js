// A session's actions in the explorer: each row of the session list has a
// "⋯" button whose menu renames the session (core's `rename`, kept in
// IndexedDB, so every tab and a reload show it) or moves it to the trash
// (`delete`, with Undo: `trash.restore`); the Trash link under the list
// opens a dialog of the sessions in the trash (`trash.list`) to restore
// one, erase one, or erase them all (`trash.empty`, after a confirmation).
//
// The menu is one <ul role="menu"> of index.html placed under the button
// that opened it (arrow keys move, Escape closes, focus goes back); the
// dialogs are <dialog> elements opened with showModal. Text reaches the
// DOM only through textContent.

import { afterFrame, button, el, keepInView, keyTakenElsewhere, menuKey } from "./dom.js";
import { formatTime } from "./tree-model.js";
import { isolate } from "./node-text.js";
import { ERROR } from "../js/protocol.js";

/** Milliseconds the Undo bar stays after a session went to the trash. */
const UNDO_MS = 10_000;

const $ = (id) => document.getElementById(id);

/**
 * The explorer's session actions. One per page; wire() once the tree is up.
 */
export class SessionActions {
  /**
   * @param {object} page what the actions need of the page
   * @param {() => object} page.tree the page's shared tree (init())
   * @param {(s: object) => string} page.titleOf the title the page shows for a session entry
   * @param {(id: string) => object|undefined} page.session the `sessions` entry of an id
   * @param {(id: string) => void} page.renamed the session got a title in core: the page drops one it kept itself
   * @param {(id: string) => string|null} page.neighbour the session to select when id leaves the list (null: none)
   * @param {() => string|null} page.selected the selected session's id
   * @param {(id: string|null) => Promise<void>} page.select select a session (null: none)
   * @param {() => Promise<void>} page.changed the sessions changed: reload the list and the trash (trashChanged: the Trash link, an open Trash dialog)
   * @param {() => void} page.opened the menu opens: the page closes its other dropdowns
   * @param {(text: string, isError?: boolean) => void} page.setStatus the page's status line ("" hides it)
   */
  constructor(page) {
    this.page = page;
    this.menu = $("session-menu");
    this.menuFor = null; // {sessionId, anchor, bottom: the anchor's bottom when the menu was placed (px)} while the menu is open
    this.undoTimer = 0;
  }

  /** Wire the menu, the dialogs, the Trash link and the Undo bar; then count the trash. */
  wire() {
    this.menu.addEventListener("click", (e) => {
      const b = e.target.closest("button[data-action]");
      if (b) this._run(b.dataset.action);
    });
    this.menu.addEventListener("keydown", (e) => this._menuKey(e));
    document.addEventListener("click", (e) => {
      if (this.menuFor && !e.target.closest("#session-menu, .session-more")) this.closeMenu(false);
    });
    // The menu is placed under its row once: when the list scrolls the row away or the window changes,
    // it closes (left open, it sat beside another row, and acted on one scrolled out of view). A scroll
    // that leaves the row where it was (the browser keeping the view as the rows are made again) does not.
    document.addEventListener("scroll", (e) => this.menuFor && !this.menu.contains(e.target) && this._rowMoved() && this.closeMenu(false), true);
    this._settling = 0; // frames after the rows were made again, while the browser lays them out (rowsMade)
    window.addEventListener("resize", () => this.closeMenu(false));
    $("rename-dialog").addEventListener("close", () => this._renamed());
    $("rename-cancel").addEventListener("click", () => $("rename-dialog").close("cancel"));
    $("trash-button").addEventListener("click", () => this.openTrash());
    // Closed, the dialog gives focus back to Trash, which hides once the trash is empty (a restore
    // or erasure of the last): then to the selected session's row, else the first row, else the filter.
    // Lost: on <body>, or still on a button of the closed dialog (the browser had nowhere to put it back).
    const lost = () => [null, document.body, $("trash-button")].includes(document.activeElement) || $("trash-dialog").contains(document.activeElement);
    $("trash-dialog").addEventListener("close", () =>
      setTimeout(() => {
        if (!$("trash-button").hidden || !lost()) return;
        this._focusRow(this.page.selected());
        if (lost()) (document.querySelector("#session-list .session-more") ?? $("session-filter")).focus();
      }),
    );
    $("trash-erase-all").addEventListener("click", () => this._eraseAll());
    $("undo-button").addEventListener("click", () => this._undo());
    // The bar waits while it holds focus or the pointer (it went, focus and all, under a reader's hand).
    for (const type of ["focusin", "mouseenter"]) $("undo-bar").addEventListener(type, () => clearTimeout(this.undoTimer));
    for (const type of ["focusout", "mouseleave"]) $("undo-bar").addEventListener(type, () => setTimeout(() => this._armUndo()));
    // Ctrl+Z (⌘Z) while the Undo bar shows, outside a text field (whose own undo it is): Undo.
    document.addEventListener("keydown", (e) => {
      if (e.key.toLowerCase() !== "z" || !(e.ctrlKey || e.metaKey) || e.shiftKey || e.altKey || e.defaultPrevented || !this._undoShown()) return;
      if (keyTakenElsewhere(e)) return;
      e.preventDefault();
      this._undo();
    });
    return this.countTrash();
  }

  /**
   * The "⋯" button of a session list row, which opens the session's menu.
   * @param {{sessionId: string}} s the row's `sessions` entry
   * @param {string} title the title the row shows
   * @returns {HTMLButtonElement}
   */
  rowButton(s, title) {
    const b = button("session-more", "⋯", `Actions for “${isolate(title)}”`);
    b.setAttribute("aria-haspopup", "menu");
    b.setAttribute("aria-expanded", "false");
    b.addEventListener("click", (e) => {
      e.stopPropagation();
      if (this.menuFor?.anchor === b) this.closeMenu(true);
      else this.openMenu(s.sessionId, b);
    });
    // As a menu button does (WAI-ARIA APG): ArrowDown opens at the first item, ArrowUp at the last.
    b.addEventListener("keydown", (e) => {
      if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
      e.preventDefault();
      this.openMenu(s.sessionId, b, e.key === "ArrowUp");
    });
    return b;
  }

  /**
   * Open the menu of session id under anchor, its first item focused (its
   * last with last).
   * @param {string} id @param {HTMLElement} anchor @param {boolean} [last]
   */
  openMenu(id, anchor, last = false) {
    this.closeMenu(false);
    this.page.opened();
    this._place(id, anchor);
    const items = this.menu.querySelectorAll("button");
    items[last ? items.length - 1 : 0]?.focus();
  }

  /** Show session id's menu under anchor, its "⋯" button, which says it is open. @param {string} id @param {HTMLElement} anchor */
  _place(id, anchor) {
    anchor.setAttribute("aria-expanded", "true");
    const r = anchor.getBoundingClientRect();
    this.menuFor = { sessionId: id, anchor, bottom: r.bottom };
    this.menu.style.left = "";
    this.menu.style.top = `${r.bottom + 4}px`;
    this.menu.style.right = `${Math.max(8, document.documentElement.clientWidth - r.right)}px`;
    this.menu.hidden = false;
    keepInView(this.menu);
  }

  /** Whether the open menu's "⋯" button left the place the menu was put under (or the page). */
  _rowMoved() {
    const { sessionId, anchor, bottom } = this.menuFor;
    if (!anchor.isConnected) return true;
    if (Math.abs(anchor.getBoundingClientRect().bottom - bottom) <= 2) return false;
    // Just after the rows were made, a row moves as the browser sizes the rows around it (and scrolls to
    // keep the view): the menu follows it. Later, the user scrolled it away.
    if (this._settling === 0) return true;
    this._place(sessionId, anchor);
    return false;
  }

  /**
   * The list's rows were made again (the sessions changed: a new one, an
   * append moving one to the top): an open menu moves under its session's
   * new "⋯" button, or closes when that row is not made or not in view
   * (inView) — left where it was, it sat beside another row.
   * @param {(row: HTMLElement) => boolean} inView
   */
  rowsMade(inView) {
    const open = this.menuFor;
    if (!open || open.anchor.isConnected) return;
    const row = [...document.querySelectorAll("#session-list .session")].find((r) => r.dataset.sessionId === open.sessionId);
    const anchor = row?.querySelector(".session-more");
    if (!anchor || !inView(row)) {
      const focused = this.menu.contains(document.activeElement);
      this.closeMenu(false);
      if (focused) anchor?.focus({ preventScroll: true }); // keyboard users go on from the row, the list stays where it is
      return;
    }
    this._place(open.sessionId, anchor);
    // For the next frames the browser sizes the rows around it (content-visibility), which can move
    // it with no scroll event: the menu follows at each frame, then settles.
    const settle = ++this._settling;
    const follow = (frames) =>
      requestAnimationFrame(() => {
        if (settle !== this._settling || this.menuFor?.anchor !== anchor) return;
        if (Math.abs(anchor.getBoundingClientRect().bottom - this.menuFor.bottom) > 0.5) this._place(open.sessionId, anchor);
        if (frames > 1) follow(frames - 1);
        else this._settling = 0;
      });
    follow(2);
  }

  /** Close the menu; with refocus, focus goes back to the button that opened it. @param {boolean} refocus */
  closeMenu(refocus) {
    const open = this.menuFor;
    if (!open) return;
    this.menuFor = null;
    this.menu.hidden = true;
    open.anchor.setAttribute("aria-expanded", "false");
    if (refocus && open.anchor.isConnected) open.anchor.focus();
  }

  _menuKey(e) {
    menuKey(e, this.menu, () => this.closeMenu(true));
  }

  _run(action) {
    const id = this.menuFor?.sessionId;
    this.closeMenu(action !== "rename");
    if (id === undefined) return;
    if (action === "rename") this.openRename(id);
    else if (action === "delete") this.moveToTrash(id);
  }

  /** The title the page shows for session id (its id when it is not listed). */
  _title(id) {
    const s = this.page.session(id);
    return s ? this.page.titleOf(s) : id;
  }

  /**
   * Open the rename dialog of session id, its title selected.
   * @param {string} id
   */
  openRename(id) {
    this.renaming = id;
    this.renamingTitle = this._title(id); // named so in a message even once it left the list
    const input = $("rename-input");
    input.value = this.renamingTitle;
    $("rename-message").textContent = "";
    $("rename-message").classList.remove("error");
    $("rename-dialog").returnValue = "";
    $("rename-dialog").showModal();
    input.select();
  }

  /** The rename dialog closed: rename when its Rename button (or Enter) closed it with a new title. */
  async _renamed() {
    const id = this.renaming;
    const dialog = $("rename-dialog");
    const typed = $("rename-input").value;
    const title = typed.trim();
    // The field as it was filled (a title kept as given, spaces and all) renames nothing.
    const same = id !== undefined && (title === this._title(id) || typed === this._title(id));
    if (dialog.returnValue === "rename" && title === "" && !same) {
      // Spaces alone: asked again, with the reason.
      dialog.showModal();
      this._renameError("Type a title: spaces alone are none");
      return;
    }
    if (dialog.returnValue !== "rename" || id === undefined || same) return this._focusRow(id);
    const env = await this.page.tree().call({ operation: "rename", sessionId: id, title });
    if (!env.ok && env.error.code === ERROR.SESSION_NOT_FOUND) {
      // Moved to the trash or erased meanwhile, in another tab: nothing to rename here.
      this.page.setStatus(`Cannot rename “${isolate(short(this.renamingTitle))}”: it is no longer in the list (moved to the trash or erased, perhaps in another tab)`, true);
      await this.page.changed();
      return;
    }
    if (!env.ok) {
      // Shown in the dialog again, the title kept, so a fix is one edit away.
      dialog.showModal();
      this._renameError(`Cannot rename: ${env.error.message}`);
      return;
    }
    this.page.renamed(id);
    await this.page.changed(); // the row shows the new title
    this._focusRow(id);
  }

  _renameError(text) {
    $("rename-message").textContent = text;
    $("rename-message").classList.add("error");
  }

  /** Focus the "⋯" of session id's row, if it is drawn (where focus was before its menu opened). */
  _focusRow(id) {
    for (const b of document.querySelectorAll("#session-list .session-more")) if (b.closest(".session")?.dataset.sessionId === id) return b.focus();
  }

  /**
   * Move session id to the trash, select the session beside it when it was
   * selected, and offer Undo for UNDO_MS.
   * @param {string} id
   */
  async moveToTrash(id) {
    const title = this._title(id);
    const next = this.page.selected() === id ? this.page.neighbour(id) : undefined;
    const env = await this.page.tree().call({ operation: "delete", sessionId: id });
    if (!env.ok) {
      this.page.setStatus(`Cannot move “${isolate(title)}” to the trash: ${env.error.message}`, true);
      return;
    }
    await this.page.changed(); // the list and the Trash link
    if (next !== undefined) await this.page.select(next);
    this._offerUndo(id, `Moved “${isolate(short(title))}” to the trash`);
    $("undo-button").focus(); // the menu it came from is gone: Enter undoes, Tab goes on
  }

  _offerUndo(id, text) {
    clearTimeout(this.undoTimer);
    this.page.setStatus(""); // the bar takes the status line's place
    this.undoId = id;
    this._setUndo(text);
    this._armUndo();
  }

  /** Whether the Undo bar offers an Undo. */
  _undoShown() {
    return !$("undo-button").hidden;
  }

  /**
   * Show the Undo bar saying text, or put it away (""): it is then empty
   * and takes no room, but stays in the page, for its text (#undo-text, a
   * live region) is announced only when the region was there before the
   * text came. The text is set a frame after the bar shows.
   * @param {string} text
   */
  _setUndo(text) {
    this.undoSoon?.();
    $("undo-bar").classList.toggle("idle", text === "");
    $("undo-button").hidden = text === "";
    if (text === "") $("undo-text").textContent = "";
    else this.undoSoon = afterFrame(() => ($("undo-text").textContent = text));
  }

  /** Hide the Undo bar UNDO_MS from now; while it holds focus or the pointer, once it no longer does (WCAG 2.2.1). */
  _armUndo() {
    clearTimeout(this.undoTimer);
    const bar = $("undo-bar");
    if (!this._undoShown() || bar.contains(document.activeElement) || bar.matches(":hover")) return; // armed again as they leave
    this.undoTimer = setTimeout(() => this._setUndo(""), UNDO_MS);
  }

  async _undo() {
    clearTimeout(this.undoTimer);
    this._setUndo("");
    if (this.undoId !== undefined && (await this.restore(this.undoId, true))) this._focusRow(this.undoId);
  }

  /**
   * Bring session id back from the trash; with select, open it.
   * @param {string} id @param {boolean} select
   * @returns {Promise<boolean>} whether it came back
   */
  async restore(id, select) {
    const env = await this.page.tree().call({ operation: "trash.restore", sessionId: id });
    if (!env.ok) {
      const text = `Cannot restore the session: ${env.error.message}`;
      if ($("trash-dialog").open) this._trashMessage(text, true);
      else this.page.setStatus(text, true);
      return false;
    }
    await this.page.changed(); // the list, the Trash link and an open Trash dialog
    if (select) await this.page.select(id);
    return true;
  }

  /** The trash changed (here or in another tab): count it again, and list it again while its dialog is open. */
  async trashChanged() {
    if ($("trash-dialog").open) await this._fillTrash();
    else await this.countTrash();
  }

  _trashMessage(text, isError = false) {
    $("trash-message").textContent = text;
    $("trash-message").classList.toggle("error", isError);
  }

  /** Show the Trash link with the number of sessions in the trash (hidden when none). */
  async countTrash() {
    const env = await this.page.tree().call({ operation: "trash.list" });
    const n = env.ok ? env.value.length : 0;
    $("trash-button").textContent = `Trash (${n.toLocaleString("en")})`;
    $("trash-button").hidden = n === 0;
    // The session the Undo bar offers left the trash (restored or erased, here or in another tab): nothing to undo.
    if (env.ok && this._undoShown() && !env.value.some((t) => t.sessionId === this.undoId)) this._dropUndo();
    return env.ok ? env.value : [];
  }

  /** Hide the Undo bar and forget what it offered. */
  _dropUndo() {
    clearTimeout(this.undoTimer);
    this._setUndo("");
    this.undoId = undefined;
  }

  /** Open the trash dialog: every session in the trash, newest deletion first. */
  async openTrash() {
    this._trashMessage("");
    await this._fillTrash();
    if (!$("trash-dialog").open) $("trash-dialog").showModal();
  }

  async _fillTrash() {
    const items = (await this.countTrash()).slice().sort((a, b) => (a.deletedAt < b.deletedAt ? 1 : a.deletedAt > b.deletedAt ? -1 : 0));
    const list = $("trash-list");
    // Focus in the list (a row's button, whose row may go) stays at the same place in it.
    const at = [...list.querySelectorAll("button")].indexOf(document.activeElement);
    list.replaceChildren(...items.map((t) => this._trashRow(t)));
    $("trash-empty-note").hidden = items.length > 0;
    $("trash-erase-all").hidden = items.length === 0;
    if (at >= 0 || document.activeElement === document.body) {
      const buttons = list.querySelectorAll("button");
      (buttons[Math.min(Math.max(at, 0), buttons.length - 1)] ?? $("trash-dialog").querySelector(".icon-button"))?.focus();
    }
  }

  _trashRow(t) {
    const li = el("li", "restore-point");
    const text = el("div", "restore-point-text");
    const name = el("span", "restore-point-name", t.title || t.sessionId);
    name.dir = "auto";
    name.title = t.title || t.sessionId; // cut with an ellipsis when long
    text.append(name, el("span", "restore-point-meta", `${t.nodeCount.toLocaleString("en")} ${t.nodeCount === 1 ? "node" : "nodes"} · deleted ${formatTime(t.deletedAt)}`));
    const actions = el("div", "trash-actions");
    const shown = isolate(short(t.title || t.sessionId));
    const restore = button("button", "Restore");
    restore.setAttribute("aria-label", `Restore “${shown}”`); // one of many rows: named by its session
    restore.addEventListener("click", async () => {
      if (await this.restore(t.sessionId, false)) this._trashMessage(`Restored “${shown}”`);
      else await this._fillTrash(); // another tab may have restored or erased it
    });
    const erase = button("button danger", "Erase…");
    erase.setAttribute("aria-label", `Erase “${shown}”…`);
    erase.addEventListener("click", () => this._erase([t]));
    actions.append(restore, erase);
    li.append(text, actions);
    return li;
  }

  async _eraseAll() {
    const items = await this.countTrash();
    if (items.length > 0) await this._erase(items);
  }

  /** Erase sessions of the trash for good, once the confirmation says so. @param {object[]} items */
  async _erase(items) {
    const one = items.length === 1;
    const name = one ? `“${isolate(short(items[0].title || items[0].sessionId))}”` : `the ${items.length.toLocaleString("en")} sessions in the trash`;
    if (!(await confirmErase(`Erase ${name} for good? This cannot be undone.`))) return;
    const env = await this.page.tree().call(one ? { operation: "trash.empty", sessionId: items[0].sessionId } : { operation: "trash.empty" });
    await this._fillTrash();
    this._trashMessage(env.ok ? `Erased ${name}` : `Cannot erase: ${env.error.message}`, !env.ok);
  }
}

/** A title as a message quotes it: at most 80 characters, cut with "…". @param {string} title */
function short(title) {
  return title.length > 80 ? `${title.slice(0, 79)}…` : title;
}

/**
 * Ask in the erase confirmation dialog; resolves to whether Erase was chosen.
 * @param {string} text @returns {Promise<boolean>}
 */
function confirmErase(text) {
  const dialog = $("erase-confirm");
  $("erase-confirm-text").textContent = text;
  dialog.returnValue = "";
  dialog.showModal();
  return new Promise((resolve) => dialog.addEventListener("close", () => resolve(dialog.returnValue === "erase"), { once: true }));
}
