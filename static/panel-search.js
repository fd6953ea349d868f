// The search box of <session-tree-panel> and its dropdown of hits: the
// core's `search` over the session shown (typed queries debounced, Enter
// opens the first hit: its row focused, its path previewed; arrows walk the list, Escape clears), the hits put
// into the RowsController for the rows to highlight. An error of `search`
// is shown as an error.

import { el } from "./dom.js";
import { leadTrimmed, queryTooLong } from "./node-text.js";
import { MAX_QUERY_LENGTH } from "../js/protocol.js";
import { markedText } from "./panel-rows-view.js";

/** Hits asked of the core per query. */
const SEARCH_LIMIT = 50;

/** Quiet time after typing before the query runs, in ms. */
const SEARCH_DELAY_MS = 120;

/**
 * The search box. `element` goes in the toolbar; `input` is the text field.
 *
 * The host: `{model, uid, tree() → SessionTree, sessionId() → string|null,
 * status(text), renderRows(), openHit(nodeId), focusTree(focusOptions),
 * emit(type, detail)}` (event `dropdown` when the hits list opens).
 */
export class SearchBox {
  /** @param {object} host see the class comment */
  constructor(host) {
    this.host = host;
    this._seq = 0;
    this._timer = 0;
    this.element = el("div", "search-wrap");
    this.input = el("input", "search");
    this.input.type = "search";
    this.input.placeholder = "Search this session  ( / )";
    this.input.setAttribute("aria-label", "Search this session");
    this.input.setAttribute("aria-controls", `${host.uid}-hits`);
    this.input.setAttribute("role", "combobox");
    this.input.setAttribute("aria-autocomplete", "list");
    this.input.setAttribute("aria-expanded", "false");
    this.input.autocomplete = "off";
    this.input.maxLength = MAX_QUERY_LENGTH; // search refuses a longer query
    this.list = el("ul", "hits");
    this.list.id = `${host.uid}-hits`;
    this.list.setAttribute("role", "listbox");
    this.list.setAttribute("aria-label", "Search results");
    this.list.hidden = true;
    // The box is the list's combobox (whether the list shows, however it was hidden); the heading is said.
    new MutationObserver(() => this.input.setAttribute("aria-expanded", String(!this.list.hidden))).observe(this.list, { attributes: true, attributeFilter: ["hidden"] });
    this.status = el("p", "visually-hidden");
    this.status.setAttribute("role", "status");
    this.element.append(this.input, this.list, this.status);
  }

  /** The query typed, trimmed. */
  get query() {
    return this.input.value.trim();
  }

  /** Listen to the input (the element's `on` adds and later removes the listeners). */
  connect(on) {
    on(this.input, "input", () => {
      clearTimeout(this._timer);
      this._timer = setTimeout(() => this.run(), SEARCH_DELAY_MS);
    });
    on(this.input, "keydown", (e) => this._onKey(e));
  }

  /** Focus the box and select its text (the "/" key). */
  focus() {
    this.input.focus();
    this.input.select();
  }

  /** Empty the box, the hits and the dropdown. */
  clear() {
    this.input.value = "";
    this.host.model.setHits(null);
    this.list.hidden = true;
    this.list.replaceChildren();
  }

  /**
   * Search the session for the query typed and show the hits (the list
   * and the rows); an empty query clears them. Resolves when done (a newer
   * search started meanwhile wins).
   */
  async run() {
    const { model } = this.host;
    const query = this.query;
    const seq = ++this._seq;
    if (query === "" || !model.value) {
      model.setHits(null);
      this.list.hidden = true;
      this.host.renderRows();
      return;
    }
    const long = queryTooLong(query); // set by a script past the box's maxlength: said once, in place of hits
    if (long !== null) {
      model.setHits(null);
      this.host.status(""); // an earlier search's error is not left beside it
      this._showHead(long);
      this.host.renderRows();
      return;
    }
    const env = await this.host.tree().call({ operation: "search", query, sessionId: this.host.sessionId(), limit: SEARCH_LIMIT });
    if (seq !== this._seq) return;
    if (!env.ok) return this.host.status(env.error.message);
    model.setHits(env.value);
    this._renderHits(env.value);
    this.host.renderRows();
  }

  /** Search again among every row (a large session's rows came in), leaving the dropdown as it was. */
  async rerun() {
    if (this.query === "") return;
    const hidden = this.list.hidden;
    await this.run();
    this.list.hidden = hidden;
  }

  _renderHits(result) {
    const items = result.hits.map((hit, k) => {
      const li = el("li", "hit-item");
      li.setAttribute("role", "option");
      li.id = `${this.host.uid}-h${k}`;
      li.dataset.nodeId = hit.nodeId;
      li.tabIndex = -1;
      const role = el("span", "role", hit.role || "?");
      role.dataset.role = hit.role ?? "";
      const snip = el("span", "snippet");
      const { text, ranges } = leadTrimmed(hit.snippet ?? "", hit.ranges ?? []); // the match in sight in a narrow list
      snip.append(...markedText(text, ranges));
      li.append(role, snip, el("span", "branch", hit.branch ?? ""));
      li.addEventListener("click", () => this._open(hit.nodeId));
      li.addEventListener("keydown", (e) => {
        if (e.key === "Enter") {
          e.preventDefault();
          this._open(hit.nodeId);
        } else if (e.key === "ArrowDown") {
          e.preventDefault();
          (li.nextElementSibling ?? li).focus();
        } else if (e.key === "ArrowUp") {
          e.preventDefault();
          (li.previousElementSibling ?? this.input).focus();
        }
      });
      return li;
    });
    const n = result.total;
    this._showHead(n === 0 ? "No matches" : `${n} ${n === 1 ? "match" : "matches"}${n > result.hits.length ? ` (first ${result.hits.length})` : ""}`, items);
  }

  /**
   * Open the dropdown on a heading line and the hits' items under it.
   * @param {string} text @param {HTMLElement[]} [items]
   */
  _showHead(text, items = []) {
    const head = el("li", "hits-head", text);
    head.setAttribute("role", "presentation");
    this.list.replaceChildren(head, ...items);
    this.status.textContent = text;
    const opening = this.list.hidden;
    this.list.hidden = false;
    // The page closes its other dropdowns (one open at a time).
    if (opening) this.host.emit("dropdown", { open: true });
  }

  _onKey(e) {
    if (e.key === "ArrowDown") {
      const first = this.list.querySelector(".hit-item");
      if (first) {
        e.preventDefault();
        first.focus();
      }
    } else if (e.key === "Enter") {
      e.preventDefault();
      clearTimeout(this._timer);
      this.run().then(() => {
        const first = this.list.querySelector(".hit-item");
        if (first) this._open(first.dataset.nodeId);
      });
    } else if (e.key === "Escape" && this.input.value !== "") {
      e.stopPropagation();
      e.preventDefault();
      this.clear();
      this.host.renderRows();
      this.host.focusTree();
    }
  }

  _open(nodeId) {
    this.list.hidden = true;
    this.host.openHit(nodeId);
  }
}
