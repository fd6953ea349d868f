// The explorer's search over every session (#global-search in index.html)
// and its dropdown: first the sessions whose title matches (title-search.js,
// over the session list the page holds, shown at once), then the messages
// the core's `search` finds across every session (when the core has it;
// over many sessions it takes a while, said meanwhile). Each item opens
// its session, a message's at its node. Typed queries are debounced, Enter
// opens the first item, arrows walk the items, Escape closes. Text reaches
// the DOM only through textContent.

import { el, keepInView } from "./dom.js";
import { highlightPieces, isolate, queryTooLong } from "./node-text.js";
import { MAX_QUERY_LENGTH } from "../js/protocol.js";
import { updatedText } from "./session-dates.js";
import { matchTitles } from "./title-search.js";
import { toolLabel } from "./session-filter.js";

/** Sessions shown by title, at most. */
const TITLE_LIMIT = 5;

/** Message hits asked of the core per query. */
const HIT_LIMIT = 30;

/** Quiet time after typing before the query runs, in ms. */
const DELAY_MS = 120;

/** `text` with the ranges marked, as nodes for a parent's append. */
function marked(text, ranges) {
  return highlightPieces(text, ranges).map((p) => (p.hit ? el("mark", "", p.text) : document.createTextNode(p.text)));
}

/** A dropdown item (role option) that opens sessionId, at nodeId when given. */
function option(sessionId, nodeId) {
  const li = el("li");
  li.setAttribute("role", "option");
  li.tabIndex = -1;
  li.dataset.sessionId = sessionId;
  if (nodeId) li.dataset.nodeId = nodeId;
  return li;
}

/** A group's heading in the dropdown (not an item). */
function heading(text, className = "") {
  const li = el("li", `hits-head${className ? ` ${className}` : ""}`, text);
  li.setAttribute("role", "presentation");
  return li;
}

/**
 * The item of a session found by its title: the title, matches marked,
 * over its tool, size and time (and its id when the id was what matched).
 * @param {{session: object, ranges: [number, number][], byId: boolean}} m of matchTitles
 * @param {number} now ms, what "updated" is relative to
 */
function sessionItem({ session: s, ranges, byId }, now) {
  const li = option(s.sessionId);
  li.classList.add("title-hit");
  const title = el("span", "hit-title");
  title.append(...marked(s.title, ranges));
  const meta = [s.tool ? toolLabel(s.tool) : null, `${s.nodeCount} ${s.nodeCount === 1 ? "node" : "nodes"}`, updatedText(s.updatedAt, now)];
  if (byId && s.title !== s.sessionId) meta.unshift(s.sessionId);
  li.append(title, el("span", "hit-session", meta.filter(Boolean).join(" · ")));
  li.title = s.sessionId;
  return li;
}

/** The item of a message hit of the core's search: its session, role and branch over the snippet, matches marked. */
function messageItem(hit, titles) {
  const li = option(hit.sessionId, hit.nodeId);
  li.append(el("span", "hit-session", `${isolate(titles.get(hit.sessionId) ?? hit.sessionId)} · ${hit.role} · ${hit.branch}`));
  const snip = el("span", "hit-snippet");
  snip.append(...marked(hit.snippet, hit.ranges));
  li.append(snip);
  return li;
}

/**
 * The line over the hits naming the sessions the search passed over
 * (search's `skipped`: their stored records cannot be read), null for
 * none; each session's message in the tooltip.
 * @param {{sessionId: string, message: string}[]|undefined} skipped
 * @param {Map<string, string>} titles
 */
function skippedItem(skipped, titles) {
  if (!skipped?.length) return null;
  const names = skipped.map((s) => `“${isolate(titles.get(s.sessionId) || s.sessionId)}”`);
  const shown = names.length > 3 ? `${names.slice(0, 3).join(", ")} and ${names.length - 3} more` : names.join(", ");
  const li = heading(`Not searched: ${shown}: ${skipped.length === 1 ? "its" : "their"} stored records cannot be read (open ${skipped.length === 1 ? "it" : "one"} to see why, or move ${skipped.length === 1 ? "it" : "them"} to the trash)`, "error");
  li.title = skipped.map((s) => s.message).join("\n");
  return li;
}

/** The message part's heading: how many hits, "in messages" when sessions are listed above it. */
function messagesHead(total, shown, afterTitles) {
  const where = afterTitles ? " in messages" : "";
  if (total === 0) return `No matches${where}`;
  return `${total} ${total === 1 ? "match" : "matches"}${where}${total > shown ? ` (first ${shown})` : ""}`;
}

/**
 * The search box over every session.
 *
 * The host: `{tree() → SessionTree, sessions() → the session list (each
 * with its shown title as `title`), open(sessionId, nodeId|null) →
 * Promise, opened() (the page closes its other dropdowns), focusOpened()
 * → whether it focused the session just opened (optional)}`.
 */
export class GlobalSearch {
  /**
   * @param {HTMLInputElement} input
   * @param {HTMLUListElement} list the dropdown (role listbox)
   * @param {object} host see the class comment
   */
  constructor(input, list, host) {
    this.input = input;
    this.list = list;
    this.host = host;
    this._seq = 0;
    this._timer = 0;
    input.maxLength = MAX_QUERY_LENGTH; // search refuses a longer query
  }

  /** Listen to the box, the dropdown and presses elsewhere (which close it). */
  connect() {
    this.input.addEventListener("input", () => {
      clearTimeout(this._timer);
      this._timer = setTimeout(() => this.run(), DELAY_MS);
    });
    this.input.addEventListener("keydown", (e) => this._onInputKey(e));
    this.list.addEventListener("click", (e) => {
      const li = e.target.closest("li[role=option]");
      if (li) this._open(li);
    });
    this.list.addEventListener("keydown", (e) => this._onListKey(e));
    document.addEventListener("click", (e) => {
      if (!e.target.closest(".global-search")) this.list.hidden = true;
    });
    // Wider than the box (explorer.css): kept inside the window as it changes size.
    window.addEventListener("resize", () => this.list.hidden || keepInView(this.list));
    // The box is the list's combobox: whether the list shows, however it was hidden.
    new MutationObserver(() => this.input.setAttribute("aria-expanded", String(!this.list.hidden))).observe(this.list, { attributes: true, attributeFilter: ["hidden"] });
  }

  /**
   * Search for the query typed: the sessions by title at once, then the
   * messages when the core answers. Resolves when both are shown (a newer
   * query started meanwhile wins); an empty query closes the dropdown.
   */
  async run() {
    const query = this.input.value.trim();
    const seq = ++this._seq;
    if (query === "") {
      this.list.hidden = true;
      return;
    }
    const long = queryTooLong(query); // set by a script past the box's maxlength
    if (long !== null) return this._show([heading(long)]);
    const now = Date.now();
    const found = matchTitles(this.host.sessions(), query, { limit: TITLE_LIMIT });
    const titles = this._titleItems(found, now);
    const tree = this.host.tree();
    if (!tree.hasOperation("search")) return this._show(titles.length > 0 ? titles : [heading("No matches")]);
    this._show([...titles, heading("Searching messages…", "pending")], true);
    const res = await tree.search(query, { limit: HIT_LIMIT });
    if (seq !== this._seq) return;
    if (!res.ok) return this._show([...titles, heading(res.error.message, "error")]);
    const names = new Map(this.host.sessions().map((s) => [s.sessionId, s.title]));
    const hits = res.value.hits.map((hit) => messageItem(hit, names));
    const skipped = skippedItem(res.value.skipped, names);
    this._show([...titles, heading(messagesHead(res.value.total, hits.length, titles.length > 0), titles.length > 0 ? "group" : ""), ...(skipped ? [skipped] : []), ...hits]);
  }

  /** The sessions part: a heading and an item per session found by title (none: nothing). */
  _titleItems({ total, matches }, now) {
    if (total === 0) return [];
    const head = `${total} ${total === 1 ? "session" : "sessions"} by title${total > matches.length ? ` (first ${matches.length})` : ""}`;
    return [heading(head), ...matches.map((m) => sessionItem(m, now))];
  }

  /** Put items into the dropdown and open it; busy: the messages are still being searched. Its headings are said (the status). */
  _show(items, busy = false) {
    this.list.replaceChildren(...items);
    const status = document.getElementById("global-search-status");
    if (status && !busy) status.textContent = items.filter((li) => li.getAttribute("role") === "presentation").map((li) => li.textContent).join("; ");
    this.list.setAttribute("aria-busy", String(busy));
    this.host.opened();
    this.list.hidden = false;
    keepInView(this.list);
  }

  /** The dropdown's items, in order. */
  _options() {
    return [...this.list.querySelectorAll("li[role=option]")];
  }

  /**
   * Close the dropdown and open the item's session (at its node). Focus on
   * the item goes with the list: when nothing took it by then (a message's
   * row does), it goes to what opened (host.focusOpened), else to the box,
   * never to <body>.
   */
  async _open(li) {
    const hadFocus = this.list.contains(document.activeElement);
    this.list.hidden = true;
    await this.host.open(li.dataset.sessionId, li.dataset.nodeId ?? null);
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (hadFocus && lost && !this.host.focusOpened?.()) this.input.focus();
  }

  /** The box's keys: ArrowDown to the first item, Escape closes, Enter opens the first item. */
  _onInputKey(e) {
    if (e.key === "ArrowDown") {
      e.preventDefault();
      this._options()[0]?.focus();
    } else if (e.key === "Escape") {
      this.list.hidden = true;
    } else if (e.key === "Enter") {
      e.preventDefault();
      clearTimeout(this._timer);
      this.run().then(() => {
        const first = this._options()[0];
        if (first) this._open(first);
      });
    }
  }

  /** An item's keys: Enter opens it, arrows walk the items (up from the first: the box), Escape closes. */
  _onListKey(e) {
    const li = e.target.closest("li[role=option]");
    if (!li) return;
    const items = this._options();
    const i = items.indexOf(li);
    if (e.key === "Enter") this._open(li);
    else if (e.key === "ArrowDown") {
      e.preventDefault();
      (items[i + 1] ?? li).focus();
    } else if (e.key === "ArrowUp") {
      e.preventDefault();
      (items[i - 1] ?? this.input).focus();
    } else if (e.key === "Escape") {
      this.list.hidden = true;
      this.input.focus();
    }
  }
}
