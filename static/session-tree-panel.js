// <session-tree-panel>: a dependency-free custom element that shows one
// session of sessiontree as a tree, with its context, search and actions.
//
//   <script type="module" src="/static/session-tree-panel.js"></script>
//   <session-tree-panel session-id="demo" mode="panel"></session-tree-panel>
//
// Attributes: `session-id`, `mode` ("panel": fills its box; "overlay": a
// toggle button and a drawer with a focus trap, Escape closes), `theme`
// ("light", "dark"; absent follows prefers-color-scheme), `pane` ("tree" or
// "context": show that column alone; absent: both), `composer` (present: a
// composer under the context appends messages at the cursor, see
// panel-composer.js), `view` ("list", the default, or "map": the session
// drawn as a tidy tree on a canvas, see panel-map.js).
// Properties: `tree` (a SessionTree, of which the panel uses call,
// subscribe and hasOperation; when not set before the element connects,
// the page's shared tree from init() is used), `sessionId`, `mode`,
// `theme`, `pane`, `composer`, `view`, `selectedNodeId`.
// Methods: `open()`, `close()`, `focusNode(id)`, `previewNode(id)`, `focusSearch()`, `refresh()`; the promise
// `updateComplete` resolves once a reload in progress is done.
// Events (CustomEvent, bubbling, composed; detail {sessionId, nodeId, …}):
// `jump` after the cursor moved to nodeId ("Continue from here", Shift+Enter);
// `select` when the highlighted row changes; `preview` when the context
// pane shows another path ({nodeId, cursor: whether it is the cursor's});
// `branch` after a branch was made ({branch}); `fork` after a fork or
// clone ({newSessionId}); `compare` when a comparison shows in the context
// column ({from, to}); `append` after the composer appended a message
// ({nodeId, branch, role}); `view` when the List / Map switch is used
// ({view}); `open`/`close` in overlay mode.
// Clicking a row (or Enter) previews its path in the context pane; the
// session's cursor moves only by "Continue from here" (Shift+Enter).
// A highlight on the cursor's row (nothing else previewed) follows the
// cursor when the app or another tab moves it, its row scrolled to when
// the old one was in view (panel-loader.js _followPlan); no `select`.
//
// Rows are virtualised (only the rows in view are in the DOM), so 100,000
// nodes open and scroll smoothly. Every text — messages, ids, titles,
// labels, branch names — reaches the DOM through textContent; nothing is
// fetched but its icon and, on first use, the highlight.js grammars (its
// stylesheets are constructed from panel-styles.js).
// Shaped after
// github/details-dialog-element (guarded define, listeners added in
// connectedCallback and removed in disconnectedCallback, CustomEvents out).

// The element wires its parts together: RowsController (rows-controller.js,
// the DOM-free state of rows, layout, selection and hits), RowsView
// (panel-rows-view.js, the virtualised rows), SearchBox (panel-search.js),
// PanelActions (panel-actions.js, the toolbar, prompts and comparison),
// ContextPane (panel-context.js) and RowsLoader (panel-loader.js, loading a
// session's rows). It holds the attributes, properties, events, lifecycle,
// the overlay and the keys.
//
// Optional features are asked of the tree (`tree.hasOperation(name)`),
// never guessed from error text; `search`, `diff` and `tree.rows` always
// ship with the core, and their errors are shown as errors.

import { PanelActions } from "./panel-actions.js";
import { Composer } from "./panel-composer.js";
import { ContextPane } from "./panel-context.js";
import { RowsLoader } from "./panel-loader.js";
import { RowsView } from "./panel-rows-view.js";
import { SearchBox } from "./panel-search.js";
import { RowsController } from "./rows-controller.js";
import { buildFrame, onPanelKey, showToast } from "./panel-frame.js";
import { PanelAttributes, adoptEarlyProperties } from "./panel-attributes.js";
import { PanelMap } from "./panel-map.js";

export { ROW_HEIGHT } from "./panel-rows-view.js";
export { previewOf } from "./rows-controller.js";
export { describeEntry, formatTime } from "./tree-model.js";
export { CONTEXT_MAX_PATH, FILL_FIRST, FILL_MAX, FILL_MIN, FILL_TASK_MS, FIRST_WINDOW, INCREMENTAL_ROWS, WINDOW_NODES } from "./panel-loader.js";

let panelCount = 0;

/**
 * The session tree panel element. See the file comment for its API.
 */
export class SessionTreePanel extends PanelAttributes {
  static get observedAttributes() {
    return ["session-id", "mode", "theme", "pane", "composer", "view"];
  }

  constructor() {
    super();
    this._uid = `stp${++panelCount}`;
    /** A row to scroll into view once it is laid out ({key, sessionId}; see revealActive), or null. */
    this._reveal = null;
    this._tree = null;
    this._unsubscribe = null;
    /** The rows' state (see rows-controller.js). */
    this._model = new RowsController();
    this._open = false;
    this._listeners = [];
    this._displayTitle = null;
    const host = {
      model: this._model,
      uid: this._uid,
      tree: () => this._tree,
      sessionId: () => this.sessionId,
      status: (text, isError, action) => this._setStatus(text, isError, action),
      refresh: () => this.refresh(),
      emit: (type, detail) => this._emit(type, detail),
      node: (id) => this._node(id),
      seq: () => this._loader.seq,
      renderRows: () => this._view.render(),
      revealActive: () => {
        // Scrolled to once it is laid out: now, or after the load that
        // brings it (a change's own reload may still be on its way).
        this._reveal = { key: this._model.active, sessionId: this.sessionId };
        this._afterLayout();
      },
      focusTree: (options) => this._view.scroller.focus(options),
      focusNode: (id) => this.focusNode(id),
      openHit: (id) => this._openHit(id),
      stepSibling: (id, delta) => this._stepSibling(id, delta),
      continueHere: () => this._model.viewNode !== null && this._actions.jump(this._model.viewNode),
      backToCursor: () => this._preview(null),
      branchHere: () => this._actions.buttons.branch.click(), // as the tree's Branch… (disabled there: nothing)
      composerSay: (text) => this._composer.say(text),
    };
    this._view = new RowsView(this._model, this._uid);
    this._searchBox = new SearchBox(host);
    this._actions = new PanelActions(host);
    this._context = new ContextPane(host, this._actions.diffView);
    this._composer = new Composer({ ...host, jump: (id) => this._actions.jump(id) });
    this._loader = new RowsLoader({
      ...host,
      view: this._view,
      context: this._context,
      searchBox: this._searchBox,
      relayout: () => this._relayout(),
      afterLayout: () => this._afterLayout(),
      renderHead: () => this._renderHead(),
      deferRows: () => this._map?.view === "map",
    });
    this._view.onOutsideWindow = () => this._loader.moveWindow();
    this._build();
  }

  // ------------------------------------------------------------ properties

  /** The SessionTree the panel reads and changes. */
  get tree() {
    return this._tree;
  }
  set tree(tree) {
    if (tree === this._tree) return;
    this._unsubscribe?.();
    this._unsubscribe = null;
    this._tree = tree;
    if (tree && this.isConnected) this._unsubscribe = this._loader.subscribe();
    this.refresh();
  }

  /** The id of the highlighted (selected) node, or null. */
  get selectedNodeId() {
    return this._model.selectedNodeId;
  }

  /**
   * The tree value shown, `{sessionId, cursor, activeBranch, rows, count,
   * offset}` or null (RowsController.value; read by bench/perf.mjs and the
   * page tests, not an API).
   */
  get _value() {
    return this._model.value;
  }

  /** While a large session's rows load, `{count, offset, loaded}`, else null (as _value). */
  get _partial() {
    return this._model.partial;
  }

  /** Whether the overlay drawer is open (always true in panel mode). */
  get isOpen() {
    return this.mode === "panel" || this._open;
  }

  // ------------------------------------------------------------- lifecycle

  connectedCallback() {
    adoptEarlyProperties(this);
    const scroller = this._view.scroller;
    const on = (target, type, fn) => this._on(target, type, fn);
    on(scroller, "scroll", () => this._view.schedule());
    on(scroller, "keydown", (e) => this._onTreeKey(e));
    on(scroller, "click", (e) => this._onTreeClick(e));
    // A redraw between a press and its release (a reload, a scroll frame) replaces the pressed
    // row, and the browser then sends no click (no element holds both): a release on the row of
    // the same node, where the press was, stands for it.
    on(scroller, "pointerdown", (e) => (this._pressed = e.button === 0 ? { el: e.target, key: rowKey(e.target), x: e.clientX, y: e.clientY } : null));
    on(scroller, "pointerup", (e) => {
      const p = this._pressed;
      this._pressed = null;
      if (p && p.key !== null && !p.el.isConnected && rowKey(e.target) === p.key && Math.hypot(e.clientX - p.x, e.clientY - p.y) < 6) this._onTreeClick(e);
    });
    on(this._shadow, "keydown", (e) => this._onKey(e));
    on(this._toggle, "click", () => (this._open ? this.close() : this.open()));
    on(this._backdrop, "click", () => this.close());
    on(this._closeButton, "click", () => this.close());
    this._searchBox.connect(on);
    // One dropdown at a time: a press outside the search box closes its hits.
    on(document, "pointerdown", (e) => {
      if (!e.composedPath().includes(this._searchBox.element)) this.closeDropdowns();
    });
    on(this._filterSelect, "change", () => {
      this._model.setFilter(this._filterSelect.value);
      this._afterLayout();
    });
    on(this._compactBox, "change", () => {
      this._model.setCompactRuns(this._compactBox.checked);
      this._afterLayout();
    });
    this._resize = new ResizeObserver(() => {
      this._view.measure();
      this._view.render();
    });
    this._resize.observe(scroller);
    this._applyMode();
    if (this._tree) {
      this._unsubscribe ??= this._loader.subscribe(); // a tree set before the element was defined subscribed as it was adopted
      this.refresh();
    } else {
      this._autoInit();
    }
  }

  disconnectedCallback() {
    if (this._open) this._shut(); // put back in the page, it starts closed; focus goes back where it was
    for (const [target, type, fn] of this._listeners) target.removeEventListener(type, fn);
    this._listeners = [];
    this._resize?.disconnect();
    this._unsubscribe?.();
    this._unsubscribe = null;
  }

  attributeChangedCallback(name, old, value) {
    if (old === value) return;
    if (name === "session-id") {
      // A prompt or comparison opened on the session shown before is not this one's: its OK would act here.
      this._actions.closePrompt();
      this._actions.closeComparison();
      this._model.resetView();
      this._context.reset();
      this._composer.reset();
      this._searchBox.clear();
      this._view.scroller.scrollTop = 0;
      this.refresh();
    } else if (name === "mode") {
      if (this._open) this._shut(); // an overlay made again starts closed
      else this._applyMode();
    } else if (name === "view") {
      this._map.setView(this.view);
    } else if (name === "composer") {
      this._composer.element.hidden = value === null;
    } else if (name === "pane" && this.pane === "context") {
      // Drawn while hidden, the list could not scroll: show its end, the cursor's message.
      requestAnimationFrame(() => this._context.showEnd());
    }
  }

  _on(target, type, fn) {
    target.addEventListener(type, fn);
    this._listeners.push([target, type, fn]);
  }

  /** No tree given: the tree of the page's latest init() while it is open (not closed, not failed), a task after connecting (an app's init() made as its module runs comes first), else the default one. */
  async _autoInit() {
    try {
      const [{ init }, { latestInit }] = await Promise.all([import("../js/sessiontree.js"), import("../js/worker-tree.js")]);
      await new Promise((resolve) => setTimeout(resolve));
      if (this._tree) return;
      const latest = await latestInit.tree;
      const tree = latest !== null && latest._holders > 0 ? latest : await init();
      if (!this._tree) this.tree = tree;
    } catch (err) {
      this._setStatus(`sessiontree could not start: ${err.message}`);
    }
  }

  // ---------------------------------------------------------------- public

  /** Open the overlay drawer and focus the tree (no-op in panel mode). */
  open() {
    if (this.mode !== "overlay" || this._open) return;
    this._open = true;
    // Focus goes back where it was on close (the toggle when it was clicked).
    const outer = document.activeElement;
    this._returnFocus = outer === this ? this._shadow.activeElement : outer;
    this._applyMode();
    this._view.scroller.focus();
    this._emit("open", {});
  }

  /** Close the overlay drawer and give focus back (no-op in panel mode). */
  close() {
    if (this.mode !== "overlay" || !this._open) return;
    this._shut();
  }

  /** Close the open drawer, whatever the mode now: focus back where it was, event `close`. */
  _shut() {
    this._open = false;
    this._applyMode();
    const back = this._returnFocus;
    this._returnFocus = null;
    if (back && back !== document.body && back.isConnected && typeof back.focus === "function") back.focus();
    else if (this.isConnected) this._toggle.focus();
    this._emit("close", {});
  }

  /**
   * Select a node, unfold what hides it, scroll it into view and focus the
   * tree. Returns false when the node is not in the session — or, while a
   * large session's rows load, not yet among the rows the panel has (the
   * search hits wait for them).
   * @param {string} id
   * @returns {boolean}
   */
  focusNode(id) {
    if (!this._model.reveal(id)) return false;
    this._filterSelect.value = this._model.filter;
    this._afterLayout();
    this._setActive(id, { scroll: true });
    this._view.scroller.focus({ preventScroll: true });
    return true;
  }

  /**
   * Show the path to a node in the context pane without moving the
   * session's cursor (null: the cursor's path), as a click on its row
   * does; event `preview`.
   * @param {string|null} id
   */
  previewNode(id) {
    this._preview(id);
  }

  /**
   * The title the head shows instead of the session's own (a page's name
   * for a fork or a clone, say); null or "" shows the session's title.
   * @type {string|null}
   */
  get displayTitle() {
    return this._displayTitle ?? null;
  }

  set displayTitle(text) {
    this._displayTitle = typeof text === "string" && text !== "" ? text : null;
    this._renderHead();
  }

  /**
   * Show a short confirmation in the panel's toast (at the foot of the
   * tree, over no control; announced politely; gone after 3 s).
   * @param {string} text
   */
  notify(text) {
    this._setStatus(String(text ?? ""), false);
  }

  /**
   * Show the cursor's path again in the context pane and drop the
   * "viewing" marker of a previewed row (event `preview` with cursor: true
   * when something was previewed; nothing otherwise).
   */
  clearPreview() {
    this._preview(null);
  }

  /** Focus the search box over this session and select its text (what "/" does inside the panel). */
  focusSearch() {
    this._searchBox.focus();
  }

  /** Close the search dropdown (the query and the highlighted hits stay). */
  closeDropdowns() {
    this._searchBox.list.hidden = true;
  }

  /** Reload the session from the tree and redraw. */
  refresh() {
    return this._loader.schedule();
  }

  /** Resolves when no reload is in progress (without starting one). */
  get updateComplete() {
    return this._loader.idle;
  }

  /** Where the last load spent its time, in ms (see panel-loader.js). */
  get lastTimings() {
    return this._loader.lastTimings;
  }

  // ----------------------------------------------------------------- build

  _build() {
    buildFrame(this);
    this._map = new PanelMap(this);
  }

  _applyMode() {
    const overlay = this.mode === "overlay";
    this.toggleAttribute("data-open", overlay && this._open);
    this._toggle.hidden = !overlay;
    this._closeButton.hidden = !overlay;
    this._backdrop.hidden = !(overlay && this._open);
    this._toggle.setAttribute("aria-expanded", String(overlay && this._open));
    if (overlay) {
      this._frame.setAttribute("role", "dialog");
      this._frame.setAttribute("aria-modal", "true");
      this._frame.setAttribute("aria-label", "Session tree");
      this._frame.hidden = !this._open;
    } else {
      this._frame.removeAttribute("role");
      this._frame.removeAttribute("aria-modal");
      this._frame.hidden = false;
    }
  }

  _emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail: { sessionId: this.sessionId, ...detail }, bubbles: true, composed: true }));
  }

  _setStatus(text, isError = true, action = null) {
    showToast(this, text, isError, action);
  }

  async _node(nodeId) {
    const env = await this._tree.call({ operation: "node", sessionId: this.sessionId, nodeId });
    return env.ok ? env.value : null;
  }

  // --------------------------------------------------------------- refresh

  /** Lay the rows out again and draw them. */
  _relayout() {
    this._model.relayout();
    this._afterLayout();
  }

  /** Draw what a new layout changed: the spacer, the rows, the actions, the head. */
  _afterLayout() {
    this._view.sizeSpacer();
    const r = this._reveal;
    if (r && (r.sessionId !== this.sessionId || this._model.itemIndex.has(r.key))) {
      this._reveal = null;
      if (r.sessionId === this.sessionId) this._view.scrollIntoView(r.key);
    }
    this._view.render();
    this._actions.update();
    this._composer.update();
    this._renderHead();
    this._map.update();
  }

  _renderHead() {
    const h = this._model.head(this.sessionId);
    this._title.textContent = this._displayTitle ?? h.title;
    if (h.tooltip !== null) this._title.title = h.tooltip;
    this._stats.textContent = h.stats;
  }

  // ------------------------------------------------------------------ rows

  _setActive(key, { scroll = false, emit = true } = {}) {
    const changed = key !== this._model.active;
    this._model.active = key;
    if (scroll) this._view.scrollIntoView(key);
    this._view.render();
    this._actions.update();
    if (changed && emit && key !== null && !key.startsWith("gap:")) this._emit("select", { nodeId: key });
  }

  _onTreeClick(e) {
    const row = e.target.closest(".row");
    if (!row) return;
    if (row.dataset.gap) {
      this._expandRun(row.dataset.gap);
      return;
    }
    const id = row.dataset.nodeId;
    if (e.target.closest("[data-twist]")) {
      this._toggleFold(id);
      return;
    }
    const from = this._model.compareFrom;
    if (from !== null) {
      this._model.compareFrom = null;
      this._setActive(id);
      this._actions.compare(from, id);
      return;
    }
    this._setActive(id);
    this._activate(id);
  }

  /** A row clicked or Enter pressed: preview it, or jump with row-click="jump". */
  _activate(id) {
    return this.rowClick === "jump" ? this._actions.jump(id) : this._preview(id);
  }

  /**
   * Look at the path to a node in the context pane without moving the
   * session's cursor (null: back to the cursor's path); event `preview`.
   * While a large session's rows load (its paths are not all in), the
   * cursor moves there instead, as a jump.
   */
  async _preview(id) {
    if (id !== null && this._model.partial) {
      if (this._map.view !== "map") return this._actions.jump(id);
      // The map shows a large session whose rows are a window: preview from the window around the node.
      if (!(await this._loader.windowAround(id))) return;
    }
    const before = this._model.viewNode;
    this._model.setView(id);
    if (this._model.viewNode === before) return;
    this._view.render();
    this._context.scrollToEnd = true;
    this._loader.renderContext();
    this._composer.update();
    this._emit("preview", { nodeId: this._model.viewNode ?? this._model.value?.cursor ?? null, cursor: this._model.viewNode === null });
    this._map.update();
  }

  _expandRun(gapId) {
    this._model.expandRun(gapId);
    this._afterLayout();
    this._setActive(gapId, { scroll: true });
  }

  _toggleFold(id) {
    this._model.toggleFold(id);
    this._afterLayout();
    this._setActive(id, { scroll: true });
  }

  _onTreeKey(e) {
    const action = this._model.keyAction(e.key, this._view.page);
    if (action === null) return;
    e.preventDefault();
    switch (action.type) {
      case "select":
        return this._setActive(action.key, { scroll: true });
      case "fold":
        return this._toggleFold(action.id);
      case "expand":
        return this._expandRun(action.id);
      case "activate": {
        const from = this._model.compareFrom;
        if (from === null) return e.shiftKey ? this._actions.jump(action.id) : this._activate(action.id);
        this._model.compareFrom = null;
        return this._actions.compare(from, action.id);
      }
      default:
    }
  }

  _onKey(e) {
    onPanelKey(this, e);
  }

  /**
   * The context pane's sibling arrows: preview the newest path (preferred,
   * else last appended children) of the sibling `delta` places from id
   * (the session's cursor stays).
   */
  async _stepSibling(id, delta) {
    const sib = this._model.siblings(id);
    const target = sib?.ids[sib.index + delta];
    if (target === undefined) return;
    const leaf = this._model.newestLeaf(target);
    this._context.focusAfter = { nodeId: target, dir: delta < 0 ? "prev" : "next" };
    this._model.active = leaf;
    this._view.scrollIntoView(leaf);
    this._actions.update();
    this._model.setView(leaf);
    this._view.render();
    this._composer.update();
    await this._loader.renderContext();
    this._emit("preview", { nodeId: leaf, cursor: this._model.viewNode === null });
  }

  /** Open a search hit: its row focused and its path previewed in the context pane (its message shown). */
  _openHit(nodeId) {
    const open = () => this.focusNode(nodeId) && (this._preview(nodeId), true);
    // While a large session's rows load, a hit outside the window is
    // opened once they are in.
    if (!open() && this._model.partial) this.updateComplete.then(open);
  }
}

// Defined where there are custom elements (not in a server render).
if (globalThis.customElements && !customElements.get("session-tree-panel")) customElements.define("session-tree-panel", SessionTreePanel);

/** The node id (or folded run) of the tree row holding target; null outside a row. */
function rowKey(target) {
  const row = target instanceof Element ? target.closest(".row") : null;
  return row ? (row.dataset.nodeId ?? `gap:${row.dataset.gap}`) : null;
}
