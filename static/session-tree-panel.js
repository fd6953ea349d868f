// <session-tree-panel>: a dependency-free custom element that shows one
// session of sessiontree as a tree, with its context, search and actions.
//
//   <script type="module" src="/static/session-tree-panel.js"></script>
//   <session-tree-panel session-id="demo" mode="panel"></session-tree-panel>
//
// Attributes: `session-id`, `mode` ("panel": fills its box; "overlay": a
// toggle button and a drawer with a focus trap, Escape closes), `theme`
// ("light", "dark"; absent follows prefers-color-scheme).
// Properties: `tree` (a SessionTree; when not set before the element
// connects, the page's shared tree from init() is used), `sessionId`,
// `mode`, `theme`, `selectedNodeId`.
// Methods: `open()`, `close()`, `focusNode(id)`, `refresh()`; the promise
// `updateComplete` resolves once a reload in progress is done.
// Events (CustomEvent, bubbling, composed; detail {sessionId, nodeId, …}):
// `jump` after the cursor moved to nodeId; `select` when the highlighted
// row changes; `branch` after a branch was made ({branch}); `fork` after a
// fork or clone ({newSessionId}); `open`/`close` in overlay mode.
//
// Rows are virtualised (only the rows in view are in the DOM), so 100,000
// nodes open and scroll smoothly. Every text — messages, ids, titles,
// labels, branch names — reaches the DOM through textContent; nothing is
// fetched but the element's own stylesheet. Shaped after
// github/details-dialog-element (guarded define, listeners added in
// connectedCallback and removed in disconnectedCallback, CustomEvents out).

import { FILTERS, indexRows, indexSlice, layoutRows, rowsFromColumns, visibleWindow, contentParts, contentText, highlightPieces, searchRows, localDiff, branchStarts } from "./tree-model.js";

/** Height of one tree row in pixels (must match .row in session-tree-panel.css). */
export const ROW_HEIGHT = 30;

/** Messages rendered at first in the context pane (older ones on demand). */
const CONTEXT_PAGE = 60;

/** Sessions with more rows than this take appends incrementally (no full `tree` call). */
export const INCREMENTAL_ROWS = 2000;

/**
 * Sessions with more nodes than this paint the rows around the cursor
 * first (a `tree.rows` window of FIRST_WINDOW rows) and take the whole
 * rows afterwards in slices of about FILL_TASK_MS each, the page
 * answering input between slices (see _load).
 */
export const WINDOW_NODES = 50000;

/** Rows of the first window, centred on the cursor (and of the windows fetched on scroll). */
export const FIRST_WINDOW = 400;

/**
 * While the whole rows of a large session load: the time one slice (its
 * `tree.rows` call and the panel's work on it) should take, in ms; each
 * slice's row count is set from the last one's rate, starting at
 * FILL_FIRST rows, within FILL_MIN … FILL_MAX.
 */
export const FILL_TASK_MS = 50;
/** Rows of the first slice (see FILL_TASK_MS). */
export const FILL_FIRST = 5000;
/** Fewest rows of a slice (see FILL_TASK_MS). */
export const FILL_MIN = 1000;
/** Most rows of a slice (see FILL_TASK_MS). */
export const FILL_MAX = 100000;

/** Paths longer than this (nodes) skip the `context` call (see _load). */
export const CONTEXT_MAX_PATH = 5000;

/** Characters after which a message is collapsed behind "Show more". */
const LONG_MESSAGE = 700;

const FILTER_LABELS = { default: "Default", "no-tools": "No tools", user: "User only", labeled: "Labeled", all: "All" };

function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

function button(className, text, title) {
  const b = el("button", className, text);
  b.type = "button";
  if (title) {
    b.title = title;
    b.setAttribute("aria-label", title);
  }
  return b;
}

function isUnknownOperation(env) {
  return !env.ok && env.error.code === "INVALID_ARGUMENT" && /unknown operation/.test(env.error.message);
}

/**
 * Resolves once the browser had a chance to paint: after the next frame,
 * or after 50 ms when no frame comes (a hidden tab).
 * @returns {Promise<void>}
 */
function afterPaint() {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 50);
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(timer);
        resolve();
      }, 0),
    );
  });
}

/**
 * Resolves in a new task, so that input and rendering due meanwhile come
 * first: `scheduler.yield()` where the browser has it, else a 0 ms timer.
 * @returns {Promise<void>}
 */
function nextTask() {
  return globalThis.scheduler?.yield ? globalThis.scheduler.yield() : new Promise((resolve) => setTimeout(resolve, 0));
}

let panelCount = 0;

/**
 * The session tree panel element. See the file comment for its API.
 */
export class SessionTreePanel extends HTMLElement {
  static get observedAttributes() {
    return ["session-id", "mode", "theme"];
  }

  constructor() {
    super();
    this._uid = `stp${++panelCount}`;
    this._tree = null;
    this._unsubscribe = null;
    this._value = null; // value of tree
    this._partial = null; // while a large session's rows load: {count, offset, loaded} (whole row count, window's first row, rows filled)
    this._layout = { items: [], shown: 0 };
    this._indexOf = new Map(); // node id → index in the tree rows
    this._rowById = new Map(); // {get, has}: id → tree row
    this._parentOf = new Map(); // {get}: id → parent id
    this._itemIndex = new Map(); // {get, has}: node id or "gap:<id>" → index in items
    this._filter = "default";
    this._folded = new Set();
    this._expandedRuns = new Set();
    this._compactRuns = false;
    this._active = null; // highlighted node id (or "gap:<id>")
    this._compareFrom = null;
    this._hits = new Map(); // node id → ranges in its preview
    this._searchSeq = 0;
    this._refreshSeq = 0;
    this._ops = new Map(); // operation → false once it answered "unknown operation"
    this._contextShown = CONTEXT_PAGE;
    this._open = false;
    this._listeners = [];
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
    if (tree && this.isConnected) this._subscribe();
    this.refresh();
  }

  /** The session shown (attribute session-id). */
  get sessionId() {
    return this.getAttribute("session-id");
  }
  set sessionId(id) {
    if (id === null || id === undefined) this.removeAttribute("session-id");
    else this.setAttribute("session-id", id);
  }

  /** "panel" (default) or "overlay" (attribute mode). */
  get mode() {
    return this.getAttribute("mode") === "overlay" ? "overlay" : "panel";
  }
  set mode(m) {
    this.setAttribute("mode", m);
  }

  /** "light", "dark" or "" (follow the system; attribute theme). */
  get theme() {
    return this.getAttribute("theme") ?? "";
  }
  set theme(t) {
    if (!t) this.removeAttribute("theme");
    else this.setAttribute("theme", t);
  }

  /** The id of the highlighted (selected) node, or null. */
  get selectedNodeId() {
    return this._active && !this._active.startsWith("gap:") ? this._active : null;
  }

  /** Whether the overlay drawer is open (always true in panel mode). */
  get isOpen() {
    return this.mode === "panel" || this._open;
  }

  // ------------------------------------------------------------- lifecycle

  connectedCallback() {
    this._on(this._scroller, "scroll", () => this._scheduleRows());
    this._on(this._scroller, "keydown", (e) => this._onTreeKey(e));
    this._on(this._scroller, "click", (e) => this._onTreeClick(e));
    this._on(this._shadow, "keydown", (e) => this._onKey(e));
    this._on(this._toggle, "click", () => (this._open ? this.close() : this.open()));
    this._on(this._backdrop, "click", () => this.close());
    this._on(this._closeButton, "click", () => this.close());
    this._on(this._search, "input", () => this._onSearchInput());
    this._on(this._search, "keydown", (e) => this._onSearchKey(e));
    this._on(this._filterSelect, "change", () => {
      this._filter = this._filterSelect.value;
      this._relayout();
    });
    this._on(this._compactBox, "change", () => {
      this._compactRuns = this._compactBox.checked;
      this._expandedRuns.clear();
      this._relayout();
    });
    this._resize = new ResizeObserver(() => this._renderRows());
    this._resize.observe(this._scroller);
    this._applyMode();
    if (this._tree) {
      this._subscribe();
      this.refresh();
    } else {
      this._autoInit();
    }
  }

  disconnectedCallback() {
    for (const [target, type, fn] of this._listeners) target.removeEventListener(type, fn);
    this._listeners = [];
    this._resize?.disconnect();
    this._unsubscribe?.();
    this._unsubscribe = null;
  }

  attributeChangedCallback(name, old, value) {
    if (old === value) return;
    if (name === "session-id") {
      this._folded.clear();
      this._expandedRuns.clear();
      this._active = null;
      this._compareFrom = null;
      this._contextShown = CONTEXT_PAGE;
      this._clearSearch();
      this._scroller.scrollTop = 0;
      this.refresh();
    } else if (name === "mode") {
      this._applyMode();
    }
  }

  _on(target, type, fn) {
    target.addEventListener(type, fn);
    this._listeners.push([target, type, fn]);
  }

  async _autoInit() {
    try {
      const { init } = await import("../js/sessiontree.js");
      const tree = await init();
      if (!this._tree) this.tree = tree;
    } catch (err) {
      this._setStatus(`sessiontree could not start: ${err.message}`);
    }
  }

  _subscribe() {
    this._unsubscribe = this._tree.subscribe((event) => {
      if (event.sessionId !== this.sessionId) return;
      const big = (this._value?.rows.length ?? 0) > INCREMENTAL_ROWS;
      if (big && event.type === "append" && typeof event.nodeId === "string" && !this._refreshing) this._queueAppend(event.nodeId);
      else this._scheduleRefresh();
    });
  }

  /** Apply appends to a large session one after the other, in order. */
  _queueAppend(nodeId) {
    this._appendChain = (this._appendChain ?? Promise.resolve()).then(() => this._applyAppend(nodeId)).catch(() => this._scheduleRefresh());
  }

  /**
   * Add one appended node to the rows of a large session without asking
   * the core for the whole tree again (which costs seconds at 100,000
   * nodes): the node goes after its parent's subtree (children are in
   * append order), becomes the cursor and its branch's tip, and the path
   * flags move. Anything unexpected falls back to a full refresh.
   */
  async _applyAppend(nodeId) {
    const value = this._value;
    const sessionId = this.sessionId;
    if (!value || this._rowById.has(nodeId)) return;
    const node = await this._node(nodeId);
    if (!node || value !== this._value || sessionId !== this.sessionId) return this._scheduleRefresh();
    const rows = value.rows;
    const p = node.parentId === null ? -1 : this._indexOf.get(node.parentId);
    if (p === undefined || (node.kind !== "message" && node.kind !== "summary")) return this._scheduleRefresh();
    let at = rows.length;
    if (p >= 0) {
      at = p + 1;
      const d = rows[p].depth;
      while (at < rows.length && rows[at].depth > d) at++;
    }
    const parent = p >= 0 ? rows[p] : null;
    const text = node.kind === "summary" ? node.summary ?? "" : contentText(node.message?.content);
    const row = {
      id: node.id,
      parentId: node.parentId,
      branch: node.branch,
      kind: node.kind,
      role: node.kind === "summary" ? "user" : typeof node.message?.role === "string" ? node.message.role : "",
      preview: previewOf(text),
      depth: parent ? parent.depth + 1 : 1,
      indent: parent ? parent.indent + (parent.childCount >= 1 ? 1 : 0) : 0,
      childCount: 0,
      onPath: true,
      cursor: true,
      tipOf: node.branch,
      hidden: parent?.hidden ?? false,
      preferred: false,
    };
    for (const r of rows) {
      r.onPath = false;
      r.cursor = false;
      if (r.tipOf === node.branch) delete r.tipOf;
    }
    if (parent) parent.childCount++;
    rows.splice(at, 0, row);
    value.cursor = node.id;
    value.activeBranch = node.branch;
    this._setRows(rows);
    for (let id = node.parentId; id !== null && id !== undefined; ) {
      const r = this._rowById.get(id);
      if (!r) break;
      r.onPath = true;
      id = r.parentId;
    }
    if (this._active === null || this._active === parent?.id) this._active = node.id;
    this._relayout();
    if (this._ctx?.messages) this._ctx = { ...this._ctx, messages: { length: this._ctx.messages.length + 1 } };
    await this._renderContext(this._ctx);
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
    this._scroller.focus();
    this._emit("open", {});
  }

  /** Close the overlay drawer and give focus back (no-op in panel mode). */
  close() {
    if (this.mode !== "overlay" || !this._open) return;
    this._open = false;
    this._applyMode();
    const back = this._returnFocus;
    this._returnFocus = null;
    if (back && back !== document.body && typeof back.focus === "function") back.focus();
    else this._toggle.focus();
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
    if (!this._rowById.has(id)) return false;
    let changed = false;
    for (let at = this._parentOf.get(id); at !== null && at !== undefined; at = this._parentOf.get(at)) {
      if (this._folded.delete(at)) changed = true;
    }
    if (!this._itemIndex.has(id) && this._filter !== "all") {
      this._filter = "all";
      this._filterSelect.value = "all";
      changed = true;
    }
    if (changed || !this._itemIndex.has(id)) {
      if (this._compactRuns && !this._itemIndex.has(id)) {
        for (const item of this._layout.items) if (item.type === "gap") this._expandedRuns.add(item.id);
      }
      this._relayout();
    }
    this._setActive(id, { scroll: true });
    this._scroller.focus({ preventScroll: true });
    return true;
  }

  /** Reload the session from the tree and redraw. */
  refresh() {
    return this._scheduleRefresh();
  }

  /** Resolves when no reload is in progress (without starting one). */
  get updateComplete() {
    return (this._refreshing ?? Promise.resolve()).then(() => this._appendChain);
  }

  // ----------------------------------------------------------------- build

  _build() {
    const shadow = this.attachShadow({ mode: "open" });
    this._shadow = shadow;
    const sheet = (name) => {
      const link = el("link");
      link.rel = "stylesheet";
      link.href = new URL(name, import.meta.url).href;
      return link;
    };

    this._toggle = button("toggle", "Tree", "Open the session tree");
    this._toggle.setAttribute("aria-expanded", "false");
    this._toggle.setAttribute("aria-controls", `${this._uid}-drawer`);
    const icon = el("img", "toggle-icon");
    icon.src = new URL("./icon.svg", import.meta.url).href;
    icon.alt = "";
    icon.width = 16;
    icon.height = 16;
    this._toggle.prepend(icon);
    this._backdrop = el("div", "backdrop");

    const frame = el("div", "frame");
    frame.id = `${this._uid}-drawer`;
    frame.setAttribute("part", "frame");
    this._frame = frame;

    // Header: title, stats, close (overlay).
    const head = el("div", "head");
    this._title = el("h2", "title", "No session");
    this._stats = el("span", "stats");
    this._closeButton = button("icon close", "×", "Close the session tree");
    head.append(this._title, this._stats, this._closeButton);

    // Toolbar: search, filter, compact runs.
    const tools = el("div", "tools");
    const searchWrap = el("div", "search-wrap");
    this._search = el("input", "search");
    this._search.type = "search";
    this._search.placeholder = "Search this session  ( / )";
    this._search.setAttribute("aria-label", "Search this session");
    this._search.setAttribute("aria-controls", `${this._uid}-hits`);
    this._search.autocomplete = "off";
    this._hitList = el("ul", "hits");
    this._hitList.id = `${this._uid}-hits`;
    this._hitList.setAttribute("role", "listbox");
    this._hitList.setAttribute("aria-label", "Search results");
    this._hitList.hidden = true;
    searchWrap.append(this._search, this._hitList);
    this._filterSelect = el("select", "filter");
    this._filterSelect.setAttribute("aria-label", "Filter");
    for (const f of FILTERS) {
      const o = el("option", "", FILTER_LABELS[f]);
      o.value = f;
      this._filterSelect.append(o);
    }
    const compact = el("label", "compact");
    this._compactBox = el("input");
    this._compactBox.type = "checkbox";
    compact.append(this._compactBox, document.createTextNode(" Compact runs"));
    tools.append(searchWrap, this._filterSelect, compact);

    // Body: tree and context side by side (stacked when narrow).
    const body = el("div", "body");
    const treeCol = el("div", "tree-col");
    this._scroller = el("div", "scroller");
    this._scroller.tabIndex = 0;
    this._scroller.setAttribute("role", "tree");
    this._scroller.setAttribute("aria-label", "Session tree");
    this._spacer = el("div", "spacer");
    this._rows = el("div", "rows");
    this._rows.setAttribute("role", "presentation");
    this._spacer.append(this._rows);
    this._empty = el("p", "empty-tree", "No nodes yet. Messages appended to this session appear here.");
    this._empty.hidden = true;
    this._scroller.append(this._spacer, this._empty);
    this._actions = el("div", "actions");
    this._actions.setAttribute("role", "toolbar");
    this._actions.setAttribute("aria-label", "Node actions");
    this._prompt = el("form", "prompt");
    this._prompt.hidden = true;
    treeCol.append(this._scroller, this._prompt, this._actions);

    const ctxCol = el("div", "context-col");
    const ctxHead = el("div", "context-head");
    ctxHead.append(el("h3", "", "Context"), (this._ctxStats = el("span", "stats")));
    this._state = el("div", "state");
    this._messages = el("ol", "messages");
    this._messages.setAttribute("aria-label", "Messages from the root to the cursor");
    this._diffView = el("div", "diff");
    this._diffView.hidden = true;
    ctxCol.append(ctxHead, this._state, this._diffView, this._messages);
    body.append(treeCol, ctxCol);

    this._status = el("p", "status");
    this._status.setAttribute("role", "status");
    this._status.hidden = true;

    frame.append(head, tools, body, this._status);
    shadow.append(sheet("./theme.css"), sheet("./session-tree-panel.css"), this._toggle, this._backdrop, frame);
    this._buildActions();
  }

  _buildActions() {
    const a = (name, text, title, fn) => {
      const b = button(`action act-${name}`, text, title);
      b.dataset.action = name;
      b.addEventListener("click", () => fn());
      this._actions.append(b);
      return b;
    };
    this._actionButtons = {
      jump: a("jump", "Jump", "Move the cursor here (Enter)", () => this._jumpSelected()),
      branch: a("branch", "Branch…", "Start a named branch at this node", () => this._askBranch(false)),
      summary: a("summary", "Branch + summary…", "Start a branch here with a summary of what came before", () => this._askBranch(true)),
      fork: a("fork", "Fork", "Copy the path to this node into a new session", () => this._fork()),
      clone: a("clone", "Clone", "Copy the whole session", () => this._clone()),
      label: a("label", "Label…", "Label this node", () => this._askLabel()),
      hide: a("hide", "Hide", "Hide this subtree from the default view", () => this._toggleHidden()),
      prefer: a("prefer", "Prefer", "Mark the path to this node as preferred", () => this._prefer()),
      compare: a("compare", "Compare…", "Compare this node with another one", () => this._startCompare()),
    };
    this._updateActions();
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

  _setStatus(text, isError = true) {
    this._status.textContent = text;
    this._status.classList.toggle("error", isError);
    this._status.hidden = text === "";
    clearTimeout(this._statusTimer);
    if (text !== "" && !isError) this._statusTimer = setTimeout(() => (this._status.hidden = true), 3000);
  }

  /** Call an operation; remember operations the core does not know. */
  async _call(request) {
    if (this._ops.get(request.operation) === false) return { ok: false, error: { code: "INVALID_ARGUMENT", message: `unknown operation "${request.operation}"` } };
    const env = await this._tree.call(request);
    if (isUnknownOperation(env)) this._ops.set(request.operation, false);
    return env;
  }

  // --------------------------------------------------------------- refresh

  _scheduleRefresh() {
    if (this._refreshing) {
      this._again = true;
      return this._refreshing;
    }
    this._refreshing = (async () => {
      do {
        this._again = false;
        await this._load();
      } while (this._again);
    })().finally(() => (this._refreshing = null));
    return this._refreshing;
  }

  async _load() {
    const id = this.sessionId;
    const seq = ++this._refreshSeq;
    if (!this._tree || id === null) {
      this._partial = null;
      this._value = null;
      this._setRows([]);
      this._renderHead(null);
      this._renderContext(null);
      return;
    }
    // The tree is drawn first; the context (a second pass over the path)
    // follows after the browser had a chance to paint.
    const t0 = performance.now();
    const sessEnv = await this._tree.call({ operation: "session", sessionId: id });
    const windowed = sessEnv.ok && sessEnv.value.nodeCount > WINDOW_NODES;
    const treeEnv = (windowed && (await this._firstWindow(id, sessEnv.value.cursor))) || (await this._treeValue(id));
    const t1 = performance.now();
    if (seq !== this._refreshSeq || id !== this.sessionId) return;
    if (!treeEnv.ok) {
      this._partial = null;
      this._value = null;
      this._setRows([]);
      this._renderHead(null);
      this._renderContext(null);
      this._setStatus(treeEnv.error.code === "SESSION_NOT_FOUND" ? `No session ${JSON.stringify(id)}` : treeEnv.error.message);
      return;
    }
    this._setStatus("");
    const anchor = this._screenOffset(this._active);
    const partial = treeEnv.value.rows.length < treeEnv.value.count;
    this._partial = partial ? { count: treeEnv.value.count, offset: treeEnv.value.offset, loaded: 0 } : null;
    this._value = treeEnv.value;
    this._session = sessEnv.ok ? sessEnv.value : null;
    this._setRows(treeEnv.value.rows);
    if (this._active === null || (!this._active.startsWith("gap:") && !this._rowById.has(this._active) && !partial)) this._active = treeEnv.value.cursor;
    // A large session shows the window around the cursor: the highlighted
    // row stays where it was on screen, else the cursor is centred.
    this._placing = partial; // no window fetched for the scroll position before it is set
    this._relayout();
    if (partial && !this._scrollRowTo(this._active, anchor)) this._scrollRowTo(treeEnv.value.cursor, null);
    this._placing = false;
    this._renderHead(treeEnv.value);
    /**
     * Where the last load spent its time, in ms: `tree` (the session and
     * tree.rows calls — for a large session the first window only), `layout`
     * (the panel's own work until the first paint), `context`, and for a
     * large session `allRows` (from the start until every row is in and laid
     * out), `slices` (the tree.rows calls that took them), `sliceCount` and
     * `longestSlice` (one slice's call and the panel's work on it).
     */
    this.lastTimings = { startedAt: t0, tree: t1 - t0, layout: performance.now() - t1 };
    await (partial ? afterPaint() : new Promise((resolve) => setTimeout(resolve, 0)));
    if (seq !== this._refreshSeq || id !== this.sessionId) return;
    // `context` of a very deep path is megabytes of messages the pane does
    // not show: past CONTEXT_MAX_PATH nodes the pane counts nodes instead.
    const t2 = performance.now();
    const deep = (this._session?.depth ?? 0) > CONTEXT_MAX_PATH;
    const ctxEnv = deep ? null : await this._tree.call({ operation: "context", sessionId: id });
    if (seq !== this._refreshSeq || id !== this.sessionId) return;
    this._ctx = ctxEnv?.ok ? { messages: { length: ctxEnv.value.messages.length }, state: ctxEnv.value.state } : { messages: null, state: null };
    this.lastTimings.context = performance.now() - t2;
    await this._renderContext(this._ctx);
    if (this._partial) await this._fillRows(seq, id, t0);
  }

  /**
   * The first window of a large session: FIRST_WINDOW rows around the
   * cursor (or the first rows), as an envelope shaped like _treeValue's
   * with `count` and `offset`; null when the core cannot answer a window
   * (an older core), so the caller takes the whole rows.
   */
  async _firstWindow(sessionId, cursor) {
    if (this._ops.get("tree.rows") === false) return null;
    const where = typeof cursor === "string" ? { around: cursor } : { offset: 0 };
    const env = await this._call({ operation: "tree.rows", sessionId, ...where, limit: FIRST_WINDOW });
    if (env.ok && typeof env.value.offset === "number") return { ok: true, value: rowsFromColumns(env.value) };
    if (!env.ok && env.error.code === "SESSION_NOT_FOUND") return env;
    return null;
  }

  /**
   * Take every row of a large session in slices of about FILL_TASK_MS, one
   * per task (scrolling, keys and clicks stay live between them), then lay out the whole tree as for a small session, the
   * highlighted row kept where it was on screen. Stops, leaving the window,
   * when the session changes meanwhile (the load starts again) or another
   * session is shown.
   */
  async _fillRows(seq, id, t0) {
    const count = this._partial.count;
    const rows = new Array(count);
    const index = { indexOf: new Map(), starts: new Set(), names: new Set() };
    const stale = () => seq !== this._refreshSeq || id !== this.sessionId || this._again;
    let value = null;
    let slices = 0;
    let sliceCount = 0;
    let longest = 0;
    let size = FILL_FIRST;
    for (let offset = 0; offset < count; ) {
      // The window is painted before the first slice; between slices the
      // page renders, scrolls and answers input.
      await (offset === 0 ? afterPaint() : nextTask());
      if (stale()) return;
      const t = performance.now();
      const env = await this._call({ operation: "tree.rows", sessionId: id, offset, limit: size });
      slices += performance.now() - t;
      if (stale()) return;
      if (!env.ok || env.value.count !== count || env.value.id.length === 0) {
        this._again = true; // the session changed under the slices: load it again
        return;
      }
      value = rowsFromColumns(env.value, rows);
      indexSlice(env.value, rows, index);
      const got = env.value.id.length;
      const took = performance.now() - t;
      offset += got;
      sliceCount++;
      longest = Math.max(longest, took);
      // The next slice takes about FILL_TASK_MS at this slice's rate.
      size = Math.max(FILL_MIN, Math.min(FILL_MAX, Math.round((got * FILL_TASK_MS) / Math.max(1, took))));
      this._partial.loaded = offset;
      this._renderHead(this._value);
    }
    // Keep the highlighted row where it is on screen.
    const screen = this._screenOffset(this._active);
    this._partial = null;
    this._value = { sessionId: value.sessionId, cursor: value.cursor, activeBranch: value.activeBranch, rows, count, offset: 0 };
    this._setRows(rows, index);
    this._relayout();
    if (screen !== null) this._scrollRowTo(this._active, screen);
    this.lastTimings.allRows = performance.now() - t0;
    this.lastTimings.slices = slices;
    this.lastTimings.sliceCount = sliceCount;
    this.lastTimings.longestSlice = longest;
    await this._renderContext(this._ctx);
    if (this._search.value.trim() !== "") {
      // Highlight the hits among every row now; the hit list stays as the user left it.
      const hidden = this._hitList.hidden;
      await this._runSearch();
      this._hitList.hidden = hidden;
    }
  }

  /** While a large session's rows load: whether rows in view lie outside the window. */
  _outsideWindow() {
    const first = Math.floor(this._scroller.scrollTop / ROW_HEIGHT);
    const last = Math.min(this._partial.count, Math.ceil((this._scroller.scrollTop + (this._scroller.clientHeight || 600)) / ROW_HEIGHT));
    return first < this._partial.offset || last > this._partial.offset + (this._value?.rows.length ?? 0);
  }

  /**
   * While a large session's rows load: fetch the window around the rows
   * scrolled into view while they lie outside it (one call at a time, each
   * for where the view is when it starts).
   */
  async _moveWindow() {
    if (this._moving) return;
    this._moving = true;
    try {
      while (this._partial && this._outsideWindow()) {
        const want = Math.floor(this._scroller.scrollTop / ROW_HEIGHT);
        const seq = this._refreshSeq;
        const id = this.sessionId;
        const offset = Math.max(0, Math.min(want - FIRST_WINDOW / 2, this._partial.count - FIRST_WINDOW));
        if (offset === this._partial.offset) return;
        const env = await this._call({ operation: "tree.rows", sessionId: id, offset, limit: FIRST_WINDOW });
        if (seq !== this._refreshSeq || id !== this.sessionId || !this._partial || !env.ok || env.value.count !== this._partial.count) return;
        const value = rowsFromColumns(env.value);
        this._partial.offset = value.offset;
        this._value = { ...this._value, rows: value.rows };
        this._setRows(value.rows);
        this._relayout();
      }
    } finally {
      this._moving = false;
    }
  }

  /**
   * The session's rows: the compact `tree.rows` when the core has it (half
   * the bytes, no reflection), else `tree`. Resolves to an envelope whose
   * value is shaped like tree's.
   */
  async _treeValue(sessionId) {
    if (this._ops.get("tree.rows") !== false) {
      const env = await this._call({ operation: "tree.rows", sessionId });
      if (env.ok) return { ok: true, value: rowsFromColumns(env.value) };
      if (!isUnknownOperation(env)) return env;
    }
    return this._tree.call({ operation: "tree", sessionId });
  }

  /**
   * Take rows as the panel's rows and make their lookups; `index` (from
   * indexSlice) gives them already made.
   */
  _setRows(rows, index = null) {
    // Lookups by id over one id → index map (no per-row Map entries twice).
    const indexOf = index?.indexOf ?? indexRows(rows);
    this._indexOf = indexOf;
    const row = (id) => {
      const i = indexOf.get(id);
      return i === undefined ? undefined : rows[i];
    };
    this._rowById = { get: row, has: (id) => indexOf.has(id) };
    this._parentOf = { get: (id) => row(id)?.parentId };
    this._starts = index?.starts ?? branchStarts(rows);
    let names = index?.names;
    if (!names) {
      names = new Set();
      for (const r of rows) names.add(r.branch);
    }
    this._branchNames = names;
    if (rows.length === 0) {
      this._layout = { items: [], shown: 0, itemOfRow: new Int32Array(0) };
      this._itemIndex = new Map();
      this._renderRows();
    }
  }

  _relayout() {
    const rows = this._value?.rows ?? [];
    this._layout = layoutRows(rows, { filter: this._filter, folded: this._folded, compactRuns: this._compactRuns, expandedRuns: this._expandedRuns, indexOf: this._indexOf });
    const { items, itemOfRow } = this._layout;
    const gaps = new Map();
    if (this._compactRuns) items.forEach((item, i) => item.type === "gap" && gaps.set(`gap:${item.id}`, i));
    const indexOf = this._indexOf;
    const get = (key) => {
      if (key.startsWith("gap:")) return gaps.get(key);
      const i = indexOf.get(key);
      return i === undefined || itemOfRow[i] < 0 ? undefined : itemOfRow[i];
    };
    this._itemIndex = { get, has: (key) => get(key) !== undefined };
    // While a large session loads, the spacer is as tall as all its rows
    // and the window's items sit at the window's rows.
    this._spacer.style.height = `${(this._partial ? this._partial.count : this._layout.items.length) * ROW_HEIGHT}px`;
    if (this._active !== null && !this._itemIndex.has(this._active) && !this._partial) {
      // The highlighted node went out of view: highlight its nearest shown ancestor.
      let at = this._active.startsWith("gap:") ? null : this._parentOf.get(this._active);
      while (at !== null && at !== undefined && !this._itemIndex.has(at)) at = this._parentOf.get(at);
      this._active = at ?? null;
    }
    this._renderRows();
    this._updateActions();
    this._renderHead(this._value);
  }

  _renderHead(value) {
    if (!value) {
      this._title.textContent = this.sessionId === null ? "No session" : this.sessionId;
      this._stats.textContent = "";
      return;
    }
    const title = this._session?.title || value.sessionId;
    this._title.textContent = title;
    this._title.title = value.sessionId;
    const partial = this._partial;
    const n = partial ? partial.count : value.rows.length;
    const b = partial ? this._session?.branchCount ?? this._branchNames.size : this._branchNames.size;
    const shown = this._layout.shown;
    const parts = [`${n.toLocaleString("en")} ${n === 1 ? "node" : "nodes"}`, `${b} ${b === 1 ? "branch" : "branches"}`, `on ${value.activeBranch}`];
    if (partial) parts.push(`loading rows ${Math.floor((100 * partial.loaded) / n)}%`);
    else if (shown !== n) parts.splice(1, 0, `${shown.toLocaleString("en")} shown`);
    this._stats.textContent = parts.join(" · ");
  }

  // ------------------------------------------------------------------ rows

  _scheduleRows() {
    if (this._frameReq) return;
    this._frameReq = requestAnimationFrame(() => {
      this._frameReq = 0;
      this._renderRows();
    });
  }

  _renderRows() {
    const items = this._layout.items;
    const base = this._partial?.offset ?? 0; // rows above the first item (a window of a large session)
    const viewport = this._scroller.clientHeight || 600;
    const top = this._scroller.scrollTop - base * ROW_HEIGHT;
    let { start, end } = visibleWindow(items.length, top, viewport, ROW_HEIGHT);
    if (top + viewport < 0) start = end = 0;
    if (this._partial && !this._placing && this._outsideWindow()) this._moveWindow();
    this._rows.style.transform = `translateY(${(base + start) * ROW_HEIGHT}px)`;
    const out = [];
    for (let i = start; i < end; i++) out.push(this._rowElement(items[i], i));
    this._rows.replaceChildren(...out);
    this._empty.hidden = items.length > 0 || this._value === null;
    const activeIndex = this._active === null ? -1 : this._itemIndex.get(this._active) ?? -1;
    if (activeIndex >= start && activeIndex < end) this._scroller.setAttribute("aria-activedescendant", `${this._uid}-r${activeIndex}`);
    else this._scroller.removeAttribute("aria-activedescendant");
  }

  _rowElement(item, i) {
    const r = el("div", "row");
    r.id = `${this._uid}-r${i}`;
    r.setAttribute("role", "treeitem");
    r.dataset.index = String(i);
    r.append(this._guides(item.guide));
    if (item.type === "gap") {
      const key = `gap:${item.id}`;
      r.classList.add("gap");
      r.dataset.gap = item.id;
      r.setAttribute("aria-level", String(item.guide.length / 3 + 1));
      r.setAttribute("aria-selected", String(this._active === key));
      if (this._active === key) r.classList.add("active");
      r.append(el("span", "gap-text", `⋯ ${item.count.toLocaleString("en")} more ${item.count === 1 ? "node" : "nodes"} — expand`));
      return r;
    }
    const row = item.row;
    r.dataset.nodeId = row.id;
    r.setAttribute("aria-level", String(item.guide.length / 3 + 1));
    r.setAttribute("aria-selected", String(this._active === row.id));
    if (item.childCount > 1 || item.folded) r.setAttribute("aria-expanded", String(!item.folded));
    if (this._active === row.id) r.classList.add("active");
    if (row.onPath) r.classList.add("on-path");
    if (row.cursor) r.classList.add("cursor");
    if (row.hidden) r.classList.add("hidden-node");
    if (row.preferred) r.classList.add("preferred");
    if (row.kind !== "message") r.classList.add("entry");
    if (this._compareFrom === row.id) r.classList.add("compare-from");
    r.title = `${row.id} · ${row.branch}`;

    const foldable = item.childCount > 1 || item.folded;
    const twist = el("span", "twist", foldable ? (item.folded ? "▸" : "▾") : "");
    twist.setAttribute("aria-hidden", "true");
    if (foldable) twist.dataset.twist = "1";
    r.append(twist);
    const role = row.kind === "message" ? row.role || "?" : row.kind === "summary" ? "summary" : row.kind.replace(/_/g, " ");
    const badge = el("span", "role", role);
    badge.dataset.role = row.kind === "message" ? row.role : row.kind;
    r.append(badge);
    const preview = el("span", "preview");
    const ranges = this._hits.get(row.id);
    const text = row.preview || (row.kind === "message" ? "(no text)" : "");
    if (ranges) {
      r.classList.add("hit");
      for (const p of highlightPieces(text, ranges)) preview.append(p.hit ? el("mark", "", p.text) : document.createTextNode(p.text));
    } else {
      preview.textContent = text;
    }
    r.append(preview);
    if (item.folded) r.append(el("span", "folded-count", "folded"));
    if (row.label) r.append(el("span", "node-label", row.label));
    if (this._starts?.has(row.id) || row.tipOf) {
      const chip = el("span", "branch", row.branch);
      if (row.branch === this._value?.activeBranch) chip.classList.add("active");
      r.append(chip);
    }
    if (row.preferred && row.tipOf === undefined && item.childCount === 0) r.append(el("span", "pref-mark", "★"));
    if (row.hiddenRoot) r.append(el("span", "hidden-mark", "hidden"));
    if (row.cursor) r.append(el("span", "cursor-mark", "● cursor"));
    return r;
  }

  _guides(guide) {
    const g = el("span", "guides");
    g.setAttribute("aria-hidden", "true");
    for (let k = 0; k < guide.length; k += 3) {
      const cell = guide.slice(k, k + 3);
      g.append(el("span", cell === "│  " ? "g-line" : cell === "├─ " ? "g-tee" : cell === "└─ " ? "g-elbow" : "g-blank"));
    }
    return g;
  }

  _setActive(key, { scroll = false, emit = true } = {}) {
    const changed = key !== this._active;
    this._active = key;
    const i = this._itemIndex.get(key);
    if (scroll && i !== undefined) {
      const top = ((this._partial?.offset ?? 0) + i) * ROW_HEIGHT;
      const h = this._scroller.clientHeight || 600;
      if (top < this._scroller.scrollTop) this._scroller.scrollTop = top;
      else if (top + ROW_HEIGHT > this._scroller.scrollTop + h) this._scroller.scrollTop = top + ROW_HEIGHT - h;
    }
    this._renderRows();
    this._updateActions();
    if (changed && emit && key !== null && !key.startsWith("gap:")) this._emit("select", { nodeId: key });
  }

  /** Pixels from the top of the view to the row of key; null when it is not laid out. */
  _screenOffset(key) {
    const i = key === null ? undefined : this._itemIndex.get(key);
    return i === undefined ? null : ((this._partial?.offset ?? 0) + i) * ROW_HEIGHT - this._scroller.scrollTop;
  }

  /**
   * Scroll so that the row of key is `screen` pixels below the top of the
   * view (centred when screen is null). False when key is not laid out.
   */
  _scrollRowTo(key, screen) {
    const i = key === null ? undefined : this._itemIndex.get(key);
    if (i === undefined) return false;
    const h = this._scroller.clientHeight || 600;
    const top = ((this._partial?.offset ?? 0) + i) * ROW_HEIGHT;
    this._scroller.scrollTop = Math.max(0, top - (screen ?? Math.floor((h - ROW_HEIGHT) / 2)));
    this._renderRows();
    return true;
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
    if (this._compareFrom !== null) {
      const from = this._compareFrom;
      this._compareFrom = null;
      this._setActive(id);
      this._compare(from, id);
      return;
    }
    this._setActive(id);
    this._jump(id);
  }

  _expandRun(gapId) {
    this._expandedRuns.add(gapId);
    this._active = null;
    this._relayout();
    this._setActive(gapId, { scroll: true });
  }

  _toggleFold(id) {
    if (this._folded.has(id)) this._folded.delete(id);
    else this._folded.add(id);
    this._relayout();
    this._setActive(id, { scroll: true });
  }

  _onTreeKey(e) {
    const items = this._layout.items;
    if (items.length === 0) return;
    let i = this._active === null ? -1 : this._itemIndex.get(this._active) ?? -1;
    const item = i >= 0 ? items[i] : null;
    const page = Math.max(1, Math.floor((this._scroller.clientHeight || 600) / ROW_HEIGHT) - 1);
    const keyOf = (it) => (it.type === "node" ? it.row.id : `gap:${it.id}`);
    const go = (j) => {
      e.preventDefault();
      j = Math.max(0, Math.min(items.length - 1, j));
      this._setActive(keyOf(items[j]), { scroll: true });
    };
    switch (e.key) {
      case "ArrowDown":
        return go(i + 1);
      case "ArrowUp":
        return go(i < 0 ? 0 : i - 1);
      case "PageDown":
        return go(i + page);
      case "PageUp":
        return go(i - page);
      case "Home":
        return go(0);
      case "End":
        return go(items.length - 1);
      case "ArrowLeft":
        e.preventDefault();
        if (!item || item.type !== "node") return;
        if (item.childCount > 1 && !item.folded) return this._toggleFold(item.row.id);
        if (item.parentId !== null && this._itemIndex.has(item.parentId)) this._setActive(item.parentId, { scroll: true });
        return;
      case "ArrowRight":
        e.preventDefault();
        if (!item) return;
        if (item.type === "gap") return this._expandRun(item.id);
        if (item.folded) return this._toggleFold(item.row.id);
        if (item.childCount > 0) go(i + 1);
        return;
      case "Enter":
      case " ":
        e.preventDefault();
        if (!item) return;
        if (item.type === "gap") return this._expandRun(item.id);
        if (this._compareFrom !== null) {
          const from = this._compareFrom;
          this._compareFrom = null;
          this._compare(from, item.row.id);
          return;
        }
        this._jump(item.row.id);
        return;
      default:
    }
  }

  _onKey(e) {
    if (e.key === "/" && !e.ctrlKey && !e.metaKey && !e.altKey && !(e.composedPath()[0] instanceof HTMLInputElement) && !(e.composedPath()[0] instanceof HTMLTextAreaElement)) {
      e.preventDefault();
      this._search.focus();
      this._search.select();
      return;
    }
    if (e.key === "Escape") {
      if (!this._prompt.hidden) {
        e.preventDefault();
        this._closePrompt();
        return;
      }
      if (this._compareFrom !== null) {
        this._compareFrom = null;
        this._renderRows();
        this._setStatus("");
        return;
      }
      if (this.mode === "overlay" && this._open) {
        e.preventDefault();
        this.close();
      }
      return;
    }
    if (e.key === "Tab" && this.mode === "overlay" && this._open) this._trapFocus(e);
  }

  /** Keep Tab and Shift+Tab inside the open drawer. */
  _trapFocus(e) {
    const focusables = [...this._frame.querySelectorAll("button, input, select, [tabindex='0'], summary")].filter((n) => !n.disabled && !n.closest("[hidden]") && n.getClientRects().length > 0);
    if (focusables.length === 0) return;
    const first = focusables[0];
    const last = focusables[focusables.length - 1];
    const current = this._shadow.activeElement;
    if (e.shiftKey && (current === first || !this._frame.contains(current))) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (current === last || !this._frame.contains(current))) {
      e.preventDefault();
      first.focus();
    }
  }

  // --------------------------------------------------------------- actions

  _updateActions() {
    const id = this.selectedNodeId;
    const row = id === null ? null : this._rowById.get(id);
    for (const b of Object.values(this._actionButtons)) b.disabled = row === null || row === undefined;
    if (!row) return;
    this._actionButtons.jump.disabled = row.cursor;
    this._actionButtons.hide.textContent = row.hiddenRoot ? "Unhide" : "Hide";
    this._actionButtons.label.textContent = row.label ? "Relabel…" : "Label…";
    for (const op of ["label", "hide", "prefer"]) if (this._ops.get(op) === false) this._actionButtons[op].hidden = true;
    this._actionButtons.clone.disabled = false;
  }

  async _jumpSelected() {
    const id = this.selectedNodeId;
    if (id !== null) await this._jump(id);
  }

  async _jump(nodeId) {
    const sessionId = this.sessionId;
    const env = await this._tree.call({ operation: "jump", sessionId, nodeId });
    if (!env.ok) return this._setStatus(env.error.message);
    this._active = nodeId;
    await this.refresh();
    this._emit("jump", { nodeId });
  }

  /**
   * Ask for a text in the panel itself (never window.prompt): resolves to
   * the text, or null when cancelled.
   */
  _ask(labelText, { value = "", multiline = false, okText = "OK", second = null } = {}) {
    return new Promise((resolve) => {
      const form = this._prompt;
      form.replaceChildren();
      const fields = [];
      const add = (text, v, multi) => {
        const label = el("label", "prompt-label", text);
        const input = el(multi ? "textarea" : "input", "prompt-input");
        if (!multi) input.type = "text";
        else input.rows = 3;
        input.value = v;
        label.append(input);
        form.append(label);
        fields.push(input);
      };
      add(labelText, value, false);
      if (second) add(second.label, second.value ?? "", multiline);
      const row = el("div", "prompt-buttons");
      const ok = button("primary", okText);
      ok.type = "submit";
      const cancel = button("", "Cancel");
      row.append(ok, cancel);
      form.append(row);
      form.hidden = false;
      const done = (result) => {
        form.hidden = true;
        form.onsubmit = null;
        cancel.onclick = null;
        this._promptDone = null;
        resolve(result);
        this._scroller.focus({ preventScroll: true });
      };
      this._promptDone = done;
      form.onsubmit = (e) => {
        e.preventDefault();
        done(second ? fields.map((f) => f.value) : fields[0].value);
      };
      cancel.onclick = () => done(null);
      fields[0].focus();
      fields[0].select();
    });
  }

  _closePrompt() {
    this._promptDone?.(null);
  }

  async _askBranch(withSummary) {
    const nodeId = this.selectedNodeId;
    if (nodeId === null) return;
    const suggestion = this._freeBranchName();
    const answer = withSummary
      ? await this._ask("New branch name", { value: suggestion, multiline: true, okText: "Create branch", second: { label: "Summary of what came before", value: this._defaultSummary(nodeId) } })
      : await this._ask("New branch name", { value: suggestion, okText: "Create branch" });
    if (answer === null) return;
    const [branch, summary] = withSummary ? answer : [answer, undefined];
    const request = withSummary ? { operation: "branch.summary", sessionId: this.sessionId, nodeId, branch, summary } : { operation: "branch", sessionId: this.sessionId, nodeId, branch };
    const env = await this._tree.call(request);
    if (!env.ok) return this._setStatus(env.error.message);
    this._active = withSummary ? env.value.id : nodeId;
    await this.refresh();
    this._emit("branch", { nodeId, branch, summaryNodeId: withSummary ? env.value.id : undefined });
    this._setStatus(`Branch ${branch} created; the next message goes there.`, false);
  }

  _freeBranchName() {
    for (let k = 1; ; k++) {
      const name = `branch-${k}`;
      if (!this._branchNames.has(name)) return name;
    }
  }

  _defaultSummary(nodeId) {
    const row = this._rowById.get(nodeId);
    return row ? `Branched from: ${row.preview}` : "";
  }

  async _fork() {
    const nodeId = this.selectedNodeId;
    if (nodeId === null) return;
    const env = await this._tree.call({ operation: "fork", sessionId: this.sessionId, nodeId });
    if (!env.ok) return this._setStatus(env.error.message);
    this._emit("fork", { nodeId, newSessionId: env.value.sessionId });
    this._setStatus(`Forked into session ${env.value.sessionId}.`, false);
  }

  async _clone() {
    const env = await this._tree.call({ operation: "clone", sessionId: this.sessionId });
    if (!env.ok) return this._setStatus(env.error.message);
    this._emit("fork", { nodeId: null, newSessionId: env.value.sessionId, clone: true });
    this._setStatus(`Cloned into session ${env.value.sessionId}.`, false);
  }

  async _askLabel() {
    const nodeId = this.selectedNodeId;
    if (nodeId === null) return;
    const label = await this._ask("Label (empty clears it)", { value: this._rowById.get(nodeId)?.label ?? "", okText: "Save label" });
    if (label === null) return;
    const env = await this._call({ operation: "label", sessionId: this.sessionId, nodeId, label });
    if (!env.ok) {
      this._updateActions();
      return this._setStatus(isUnknownOperation(env) ? "Labels are not available in this build." : env.error.message);
    }
    await this.refresh();
  }

  async _toggleHidden() {
    const nodeId = this.selectedNodeId;
    if (nodeId === null) return;
    const hidden = !this._rowById.get(nodeId)?.hiddenRoot;
    const env = await this._call({ operation: "hide", sessionId: this.sessionId, nodeId, hidden });
    if (!env.ok) {
      this._updateActions();
      return this._setStatus(isUnknownOperation(env) ? "Hiding is not available in this build." : env.error.message);
    }
    await this.refresh();
    if (hidden && this._filter !== "all") this._setStatus("Hidden. Choose the “All” filter to see hidden nodes.", false);
  }

  async _prefer() {
    const nodeId = this.selectedNodeId;
    if (nodeId === null) return;
    const env = await this._call({ operation: "prefer", sessionId: this.sessionId, nodeId });
    if (!env.ok) {
      this._updateActions();
      return this._setStatus(isUnknownOperation(env) ? "Preferred paths are not available in this build." : env.error.message);
    }
    await this.refresh();
  }

  _startCompare() {
    const nodeId = this.selectedNodeId;
    if (nodeId === null) return;
    this._compareFrom = nodeId;
    this._renderRows();
    this._setStatus("Choose the node to compare with (Escape cancels).", false);
  }

  async _compare(from, to) {
    this._setStatus("");
    let sides;
    const env = await this._call({ operation: "diff", sessionId: this.sessionId, from, to });
    if (env.ok && Array.isArray(env.value.fromOnly) && Array.isArray(env.value.toOnly)) {
      const v = env.value;
      sides = { ancestor: v.ancestor ?? null, from: v.fromOnly, to: v.toOnly };
    } else {
      const d = localDiff(this._parentOf, from, to);
      sides = { ancestor: d.ancestor, from: d.from.map((id) => ({ id })), to: d.to.map((id) => ({ id })) };
    }
    await this._renderDiff(from, to, sides);
    this._renderRows();
  }

  async _renderDiff(from, to, sides) {
    const view = this._diffView;
    view.replaceChildren();
    const head = el("div", "diff-head");
    const anc = sides.ancestor ? this._rowById.get(sides.ancestor) : null;
    head.append(el("h4", "", "Compare"), el("span", "stats", anc ? `common ancestor: ${anc.preview || anc.id}` : "no common ancestor"));
    const closer = button("icon", "×", "Close the comparison");
    closer.addEventListener("click", () => (view.hidden = true));
    head.append(closer);
    const cols = el("div", "diff-cols");
    for (const [name, id, list] of [
      ["from", from, sides.from],
      ["to", to, sides.to],
    ]) {
      const col = el("div", `diff-col ${name}`);
      const row = this._rowById.get(id);
      col.append(el("h5", "", `${row?.branch ?? ""} · ${list.length} only here`));
      const ol = el("ol", "diff-list");
      // The core's diff carries each node's text; the local one reads the nodes.
      const texts = await Promise.all(list.map(async (n) => (typeof n.text === "string" ? n.text : this._nodeText((await this._node(n.id)) ?? {}))));
      list.forEach((n, k) => {
        const li = el("li", "diff-item");
        li.dataset.nodeId = n.id;
        const r = this._rowById.get(n.id);
        const role = el("span", "role", r?.kind === "message" ? r.role : r?.kind ?? "?");
        role.dataset.role = r?.kind === "message" ? r.role : r?.kind ?? "";
        li.append(role, el("span", "diff-text", texts[k] || r?.preview || ""));
        ol.append(li);
      });
      if (list.length === 0) ol.append(el("li", "diff-empty", "(nothing — this side is an ancestor of the other)"));
      col.append(ol);
      cols.append(col);
    }
    view.append(head, cols);
    view.hidden = false;
  }

  async _node(nodeId) {
    const env = await this._tree.call({ operation: "node", sessionId: this.sessionId, nodeId });
    return env.ok ? env.value : null;
  }

  _nodeText(node) {
    if (node.message) return contentText(node.message.content) || (Array.isArray(node.message.tool_calls) ? `[tool calls: ${node.message.tool_calls.map((c) => c?.function?.name ?? c?.name ?? "?").join(", ")}]` : "");
    if (typeof node.summary === "string") return node.summary;
    if (node.entry) return describeEntry(node.entry);
    return "";
  }

  // --------------------------------------------------------------- context

  async _renderContext(ctx) {
    const list = this._messages;
    if (!ctx || !this._value) {
      list.replaceChildren();
      this._ctxStats.textContent = "";
      this._state.replaceChildren();
      return;
    }
    const seq = this._refreshSeq;
    const pathRows = this._value.rows.filter((r) => r.onPath);
    // While a large session's rows load, the window holds only the end of
    // the path: the session's depth counts it whole.
    const total = this._partial ? Math.max(pathRows.length, this._session?.depth ?? 0) : pathRows.length;
    const from = Math.max(0, total - this._contextShown);
    const shownRows = pathRows.slice(Math.max(0, from - (total - pathRows.length)));
    const nodes = await Promise.all(shownRows.map((r) => this._node(r.id)));
    if (seq !== this._refreshSeq) return;
    const m = ctx.messages?.length;
    const nodesText = `${total.toLocaleString("en")} ${total === 1 ? "node" : "nodes"} root → cursor`;
    this._ctxStats.textContent = m === undefined ? nodesText : `${m.toLocaleString("en")} ${m === 1 ? "message" : "messages"} to the model · ${nodesText}`;
    this._renderState(ctx, nodes);
    const items = [];
    if (from > 0) {
      const more = button("more-context", `Show ${Math.min(CONTEXT_PAGE, from)} earlier of ${from} hidden`);
      more.addEventListener("click", () => {
        this._contextShown += CONTEXT_PAGE;
        this.refresh();
      });
      const li = el("li", "more-item");
      li.append(more);
      items.push(li);
    }
    nodes.forEach((node, k) => items.push(this._messageElement(node, shownRows[k])));
    list.replaceChildren(...items);
    list.lastElementChild?.scrollIntoView?.({ block: "nearest" });
  }

  _renderState(ctx, nodes) {
    const chips = [];
    const st = ctx.state;
    let model = st?.model ? [st.model.provider, st.model.model].filter(Boolean).join("/") : "";
    if (!model) {
      for (let k = nodes.length - 1; k >= 0; k--) {
        const mm = nodes[k]?.message?.model ?? nodes[k]?.source?.message?.metadata?.model_slug;
        if (typeof mm === "string") {
          model = mm;
          break;
        }
      }
    }
    const chip = (name, value) => {
      const c = el("span", "chip");
      c.append(el("span", "chip-name", name), el("span", "chip-value", value));
      chips.push(c);
    };
    if (model) chip("model", model);
    if (typeof st?.thinkingLevel === "string") chip("thinking", st.thinkingLevel);
    if (Array.isArray(st?.activeTools)) chip("tools", st.activeTools.length === 0 ? "none" : st.activeTools.join(", "));
    if (typeof st?.sessionName === "string") chip("name", st.sessionName);
    this._state.replaceChildren(...chips);
    this._state.hidden = chips.length === 0;
  }

  _messageElement(node, row) {
    const li = el("li", "message");
    if (!node) {
      li.append(el("p", "empty", `(node ${row?.id ?? "?"} could not be read)`));
      return li;
    }
    li.dataset.nodeId = node.id;
    const kind = node.kind;
    const role = kind === "message" ? node.message?.role ?? "?" : kind;
    li.dataset.role = kind === "message" ? role : kind;
    if (kind !== "message" && kind !== "summary") li.classList.add("entry");
    const head = el("div", "message-head");
    const badge = el("span", "role", kind === "message" ? role : kind.replace(/_/g, " "));
    badge.dataset.role = li.dataset.role;
    head.append(badge);
    head.append(el("span", "meta branch-name", node.branch));
    const model = node.message?.model ?? node.source?.message?.metadata?.model_slug;
    if (typeof model === "string") head.append(el("span", "meta model", model));
    const time = el("time", "meta time", formatTime(node.timestamp));
    time.dateTime = node.timestamp;
    head.append(time);
    if (row?.label) head.append(el("span", "node-label", row.label));
    const copy = button("copy", "Copy", "Copy this message");
    copy.addEventListener("click", () => this._copy(node, copy));
    head.append(copy);
    li.append(head);

    const body = el("div", "message-body");
    if (kind === "message") this._renderMessage(body, node.message);
    else if (typeof node.summary === "string") body.append(el("p", "text", node.summary));
    else if (node.entry) body.append(el("p", "entry-text", describeEntry(node.entry)));
    const size = contentText(node.message?.content ?? node.summary ?? "").length;
    if (size > LONG_MESSAGE) {
      body.classList.add("collapsed");
      const more = button("show-more", "Show more");
      more.setAttribute("aria-expanded", "false");
      more.addEventListener("click", () => {
        const open = body.classList.toggle("collapsed") === false;
        more.textContent = open ? "Show less" : "Show more";
        more.setAttribute("aria-expanded", String(open));
      });
      li.append(body, more);
    } else {
      li.append(body);
    }
    return li;
  }

  _renderMessage(body, message) {
    const parts = contentParts(message?.content);
    const isTool = message?.role === "tool" || message?.role === "toolResult" || message?.role === "function";
    if (isTool) {
      const d = el("details", "tool");
      d.append(el("summary", "", `Tool result${typeof message.name === "string" ? `: ${message.name}` : ""}`));
      for (const p of parts) d.append(el("pre", "", p.type === "text" ? p.text : p.json ?? p.label));
      body.append(d);
      return;
    }
    if (parts.length === 0 && !Array.isArray(message?.tool_calls)) body.append(el("p", "empty", "(no content)"));
    for (const part of parts) {
      if (part.type === "text") body.append(el("p", "text", part.text));
      else if (part.type === "image") body.append(el("p", "placeholder image", `[${part.label} — not loaded]`));
      else if (/tool/.test(part.label)) {
        const d = el("details", "tool");
        d.append(el("summary", "", part.label.replace(/_/g, " ")), el("pre", "", part.json));
        body.append(d);
      } else body.append(el("p", "placeholder", `[${part.label}]`));
    }
    if (Array.isArray(message?.tool_calls)) {
      for (const call of message.tool_calls) {
        const d = el("details", "tool");
        const name = call?.function?.name ?? call?.name ?? "tool";
        d.append(el("summary", "", `Tool call: ${name}`));
        const args = call?.function?.arguments ?? call?.arguments ?? call;
        d.append(el("pre", "", typeof args === "string" ? args : JSON.stringify(args, null, 2)));
        body.append(d);
      }
    }
  }

  async _copy(node, b) {
    const text = this._nodeText(node);
    try {
      await navigator.clipboard.writeText(text);
      b.textContent = "Copied";
      b.classList.add("copied");
      setTimeout(() => {
        b.textContent = "Copy";
        b.classList.remove("copied");
      }, 1200);
      this._emit("copy", { nodeId: node.id, text });
    } catch {
      this._setStatus("Copying needs clipboard permission.");
    }
  }

  // ---------------------------------------------------------------- search

  _clearSearch() {
    this._search.value = "";
    this._hits = new Map();
    this._hitList.hidden = true;
    this._hitList.replaceChildren();
  }

  _onSearchInput() {
    clearTimeout(this._searchTimer);
    this._searchTimer = setTimeout(() => this._runSearch(), 120);
  }

  async _runSearch() {
    const query = this._search.value.trim();
    const seq = ++this._searchSeq;
    if (query === "" || !this._value) {
      this._hits = new Map();
      this._hitList.hidden = true;
      this._renderRows();
      return;
    }
    let result = null;
    if (this._ops.get("search") !== false) {
      const env = await this._call({ operation: "search", query, sessionId: this.sessionId, limit: 50 });
      if (env.ok) result = env.value;
      else if (!isUnknownOperation(env)) return this._setStatus(env.error.message);
    }
    if (result === null) result = searchRows(this._value.rows, query, 50);
    if (seq !== this._searchSeq) return;
    this._hits = new Map();
    for (const hit of result.hits) {
      const row = this._rowById.get(hit.nodeId);
      // Highlight in the row too when the snippet is the row's preview.
      if (row && row.preview === hit.snippet) this._hits.set(hit.nodeId, hit.ranges);
      else if (row) this._hits.set(hit.nodeId, []);
    }
    this._renderHits(result);
    this._renderRows();
  }

  _renderHits(result) {
    const items = result.hits.map((hit, k) => {
      const li = el("li", "hit-item");
      li.setAttribute("role", "option");
      li.id = `${this._uid}-h${k}`;
      li.dataset.nodeId = hit.nodeId;
      li.tabIndex = -1;
      const role = el("span", "role", hit.role || "?");
      role.dataset.role = hit.role ?? "";
      const snip = el("span", "snippet");
      for (const p of highlightPieces(hit.snippet ?? "", hit.ranges ?? [])) snip.append(p.hit ? el("mark", "", p.text) : document.createTextNode(p.text));
      li.append(role, snip, el("span", "branch", hit.branch ?? ""));
      li.addEventListener("click", () => this._openHit(hit.nodeId));
      li.addEventListener("keydown", (e) => {
        if (e.key === "Enter") {
          e.preventDefault();
          this._openHit(hit.nodeId);
        } else if (e.key === "ArrowDown") {
          e.preventDefault();
          (li.nextElementSibling ?? li).focus();
        } else if (e.key === "ArrowUp") {
          e.preventDefault();
          (li.previousElementSibling ?? this._search).focus();
        }
      });
      return li;
    });
    const n = result.total;
    const head = el("li", "hits-head", n === 0 ? "No matches" : `${n} ${n === 1 ? "match" : "matches"}${n > result.hits.length ? ` (first ${result.hits.length})` : ""}`);
    head.setAttribute("role", "presentation");
    this._hitList.replaceChildren(head, ...items);
    this._hitList.hidden = false;
  }

  _onSearchKey(e) {
    if (e.key === "ArrowDown") {
      const first = this._hitList.querySelector(".hit-item");
      if (first) {
        e.preventDefault();
        first.focus();
      }
    } else if (e.key === "Enter") {
      e.preventDefault();
      clearTimeout(this._searchTimer);
      this._runSearch().then(() => {
        const first = this._hitList.querySelector(".hit-item");
        if (first) this._openHit(first.dataset.nodeId);
      });
    } else if (e.key === "Escape" && this._search.value !== "") {
      e.stopPropagation();
      e.preventDefault();
      this._clearSearch();
      this._renderRows();
      this._scroller.focus();
    }
  }

  _openHit(nodeId) {
    this._hitList.hidden = true;
    // While a large session's rows load, a hit outside the window is
    // focused once they are in.
    if (!this.focusNode(nodeId) && this._partial) this.updateComplete.then(() => this.focusNode(nodeId));
  }
}

/**
 * A node preview like the core's (white space collapsed, at most 80
 * characters, "…" when cut), for rows the panel adds by itself.
 * @param {string} text
 * @returns {string}
 */
export function previewOf(text) {
  const chars = [...text.replace(/\s+/g, " ").trim()];
  return chars.length > 80 ? chars.slice(0, 80).join("") + "…" : chars.join("");
}

/**
 * A one-line description of a Pi entry (model change, tools, …).
 * @param {object} entry the node's `entry` object
 * @returns {string}
 */
export function describeEntry(entry) {
  switch (entry?.kind) {
    case "model_change":
      return `Model → ${[entry.provider, entry.model].filter(Boolean).join("/")}`;
    case "thinking_level_change":
      return `Thinking level → ${entry.level}`;
    case "active_tools_change":
      return `Tools → ${Array.isArray(entry.tools) && entry.tools.length > 0 ? entry.tools.join(", ") : "none"}`;
    case "compaction":
      return `Compaction: ${entry.summary ?? ""}`;
    case "custom":
      return `Custom (${entry.customType ?? "?"})`;
    case "custom_message":
      return contentText(entry.content) || `Custom message (${entry.customType ?? "?"})`;
    case "session_info":
      return `Session name → ${entry.name ?? ""}`;
    default:
      return JSON.stringify(entry);
  }
}

/**
 * A compact local time for a node: "14:05" today, else "2025-08-24 14:05".
 * @param {string} iso
 * @returns {string}
 */
export function formatTime(iso) {
  const t = new Date(iso);
  if (Number.isNaN(t.getTime())) return "";
  const pad = (n) => String(n).padStart(2, "0");
  const hm = `${pad(t.getHours())}:${pad(t.getMinutes())}`;
  const today = new Date();
  if (t.toDateString() === today.toDateString()) return hm;
  return `${t.getFullYear()}-${pad(t.getMonth() + 1)}-${pad(t.getDate())} ${hm}`;
}

if (!customElements.get("session-tree-panel")) customElements.define("session-tree-panel", SessionTreePanel);
