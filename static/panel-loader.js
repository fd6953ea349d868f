// Loading a session's rows into <session-tree-panel>: the session and its
// rows (`tree.rows`), then the context; for a session of more than
// WINDOW_NODES nodes, first a window of rows around the cursor, the whole
// rows following in slices between which the page stays live, and windows
// fetched where the user scrolls meanwhile; appends to a large session
// taken one node at a time. Reloads asked for during a load run once after
// it. The loader fills the RowsController and asks the host to draw.

import { contentText, indexSlice, rowsFromColumns } from "./tree-model.js";
import { nextSliceSize } from "./rows-controller.js";
import { ERROR } from "../js/protocol.js";

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

/**
 * Milliseconds another session may take to open before the one shown
 * goes (see _load): a session paged out of the store is read from
 * IndexedDB first (100,000 nodes: a second or more), and its rows,
 * context, actions and composer are not the one shown before's. Under it,
 * a quick open does not flash an empty panel.
 */
export const OPENING_MS = 150;

/** The messages of a session's stored path shown while it opens (see _showOpening). */
export const STORED_MESSAGES = 20;

/** Paths longer than this (nodes) skip the `context` call (see _load). */
export const CONTEXT_MAX_PATH = 5000;

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

/**
 * Loads the session shown and keeps it current.
 *
 * The host: `{model: RowsController, view: RowsView, context: ContextPane,
 * searchBox: SearchBox, tree() → SessionTree, sessionId() → string|null,
 * status(text), node(id) → Promise<node|null>, relayout(), afterLayout(),
 * renderHead(), deferRows?() → boolean, composerSay?(text)}`: deferRows says the rows are not
 * shown (the map is), so a large session's fill waits for resumeRows.
 */
export class RowsLoader {
  /** @param {object} host see the class comment */
  constructor(host) {
    this.host = host;
    this.model = host.model;
    this.view = host.view;
    /** Counts loads: a load (or a context render) that sees it change stops. */
    this.seq = 0;
    this._running = null; // the load in progress
    this._again = false; // a reload was asked for during it
    this._appendChain = null;
    this._moving = false;
    this._ctx = null; // what the last `context` said: {messages: {length}|null, state}
    this._contextOf = null; // the session whose context the pane shows
    this._deferred = null; // a large session's fill left for later: {seq, id, t0} (resumeRows)
    /** See _load. */
    this.lastTimings = undefined;
  }

  /** Resolves when no load (and no append) is in progress, without starting one. */
  get idle() {
    return (this._running ?? Promise.resolve()).then(() => this._appendChain);
  }

  /**
   * Follow the tree's changes to the session shown (one that replaces it
   * whole clears the composer's line: host.composerSay); returns the
   * unsubscribe function.
   */
  subscribe() {
    return this.host.tree().subscribe((event) => {
      if (event.sessionId !== this.host.sessionId()) return;
      // Replaced whole (a restore point restored, a snapshot loaded over it): the composer's
      // last "sent" line named a node of the session before.
      if (event.reset) this.host.composerSay?.("");
      const big = (this.model.value?.rows.length ?? 0) > INCREMENTAL_ROWS;
      if (big && event.type === "append" && typeof event.nodeId === "string" && !this._running) this._queueAppend(event.nodeId);
      else this.schedule();
    });
  }

  /** Apply appends to a large session one after the other, in order. */
  _queueAppend(nodeId) {
    this._appendChain = (this._appendChain ?? Promise.resolve()).then(() => this._applyAppend(nodeId)).catch(() => this.schedule());
  }

  /**
   * Add one appended node to the rows of a large session without asking
   * the core for the whole tree again (RowsController.insertAppended).
   * Anything unexpected falls back to a full refresh.
   */
  async _applyAppend(nodeId) {
    const model = this.model;
    const value = model.value;
    const sessionId = this.host.sessionId();
    if (!value || model.rowById.has(nodeId)) return;
    const node = await this.host.node(nodeId);
    if (!node || value !== model.value || sessionId !== this.host.sessionId()) return this.schedule();
    const text = node.kind === "summary" ? node.summary ?? "" : contentText(node.message?.content);
    const follow = this._followPlan();
    if (!model.insertAppended(node, text)) return this.schedule();
    this.host.afterLayout();
    this._scrollFollowed(follow);
    if (this._ctx?.messages) this._ctx = { ...this._ctx, messages: { length: this._ctx.messages.length + 1 } };
    await this.host.context.render(this._ctx);
  }

  /**
   * Before a change to the session shown is taken in: null when the
   * highlight does not follow the cursor (RowsController.following), else
   * whether the highlighted row was (partly) in view and whether the list
   * was scrolled to its end, for _scrollFollowed.
   * @returns {{inView: boolean, atEnd: boolean}|null}
   */
  _followPlan() {
    if (!this.model.following) return null;
    return { inView: this.view.inView(this.model.active), atEnd: this.view.atEnd };
  }

  /**
   * After a change was laid out with the highlight moved to the new cursor
   * (plan from _followPlan): scroll its row into view when the old
   * cursor's row was in view, or when the list was at its end and the row
   * is its last (a list growing at the bottom stays there). A list the user
   * scrolled elsewhere stays where it is; so does a large session's window
   * while its rows load (_load places it).
   * @param {{inView: boolean, atEnd: boolean}|null} plan
   */
  _scrollFollowed(plan) {
    const { model, view } = this;
    const key = model.active;
    if (plan === null || key === null || model.partial) return;
    const last = model.itemIndex.get(key) === model.layout.items.length - 1;
    if (!plan.inView && !(plan.atEnd && last)) return;
    view.scrollIntoView(key);
    view.render();
  }

  /**
   * Load the session shown (again); asked for during a load, it runs once
   * after it. Resolves when the loads are done.
   * @returns {Promise<void>}
   */
  schedule() {
    if (this._running) {
      this._again = true;
      return this._running;
    }
    this._running = (async () => {
      do {
        this._again = false;
        await this._load();
      } while (this._again);
    })().finally(() => (this._running = null));
    return this._running;
  }

  /**
   * Show no rows: no session, or it could not be read. Everything drawn
   * from the rows follows (afterLayout): the actions disabled, the
   * composer, the head, the map and its minimap emptied. With opening,
   * another session is being opened (_showOpening): the head and the
   * composer say so.
   * @param {boolean} [opening]
   */
  _showNothing(opening = false) {
    this._ctx = null;
    this._contextOf = null;
    this.model.clear();
    this.model.opening = opening;
    this.host.afterLayout();
    this.host.context.render(null);
  }

  /**
   * Another session is being opened and has not answered within
   * OPENING_MS: show no rows (_showNothing: the actions and the composer
   * disabled, the context emptied), the head and the composer saying it
   * opens; then, once `stored` (tree.storedContext, asked for when the
   * load began: tens of ms where the store's load of a large session
   * takes seconds) answers, its title and node count in the head and the
   * last STORED_MESSAGES messages of its path in the context pane, until
   * the session answers.
   * @param {string} id @param {number} seq the load's
   * @param {Promise<object|null>|null} stored tree.storedContext's envelope (null: the tree has no such method)
   */
  _showOpening(id, seq, stored) {
    this._showNothing(true);
    const shown = () => seq === this.seq && this.model.opening && this.model.value === null;
    stored?.then((env) => {
      if (!shown() || !env?.ok || !env.value) return;
      this.model.stored = env.value;
      this.host.afterLayout(); // the head, the rows pane's note and its stored rows
      if (env.value.nodes.length > 0) this._contextOf = this.host.context.renderStored(env.value) ? id : null;
    });
  }

  /**
   * tree.storedContext of another session being opened (see _showOpening),
   * or null when the tree has no such method (a tree of the caller's own).
   * A preview only: a method that throws or rejects gives null (the
   * session's own answer follows), never an unhandled rejection.
   * @param {object} tree @param {string} id
   * @returns {Promise<object|null>|null}
   */
  _readStored(tree, id) {
    if (typeof tree.storedContext !== "function") return null;
    try {
      return Promise.resolve(tree.storedContext(id, { limit: STORED_MESSAGES })).catch(() => null);
    } catch {
      return null;
    }
  }

  /** Draw the context pane again from what the last `context` said (the previewed path changed). */
  renderContext() {
    return this.host.context.render(this._ctx);
  }

  async _load() {
    const id = this.host.sessionId();
    const seq = ++this.seq;
    const model = this.model;
    const view = this.view;
    if (!this.host.tree() || id === null) {
      this.host.status(""); // an error of the session shown before (moved to the trash meanwhile) is not this one's
      return this._showNothing();
    }
    // The tree is drawn first; the context (a second pass over the path)
    // follows after the browser had a chance to paint.
    const t0 = performance.now();
    const another = model.value?.sessionId !== id;
    const stored = another ? this._readStored(this.host.tree(), id) : null;
    const opening = another ? setTimeout(() => seq === this.seq && this._showOpening(id, seq, stored), OPENING_MS) : null;
    const sessEnv = await this.host.tree().call({ operation: "session", sessionId: id });
    const windowed = sessEnv.ok && sessEnv.value.nodeCount > WINDOW_NODES;
    const treeEnv = await this._rows(id, windowed ? sessEnv.value.cursor : undefined);
    clearTimeout(opening);
    const t1 = performance.now();
    if (seq !== this.seq || id !== this.host.sessionId()) return;
    if (!treeEnv.ok) {
      this._showNothing();
      this.host.status(treeEnv.error.code === ERROR.SESSION_NOT_FOUND ? `No session ${JSON.stringify(id)}` : treeEnv.error.message);
      return;
    }
    this.host.status("");
    const value = treeEnv.value;
    const anchor = view.screenOffset(model.active);
    // The session shown changed (not another one opened): a highlight on its cursor follows the cursor.
    const follow = model.value?.sessionId === id ? this._followPlan() : null;
    const partial = value.rows.length < value.count;
    model.partial = partial ? { count: value.count, offset: value.offset, loaded: 0 } : null;
    model.value = value;
    model.opening = false;
    model.stored = null;
    model.session = sessEnv.ok ? sessEnv.value : null;
    model.setRows(value.rows);
    if (follow || model.active === null || (!model.active.startsWith("gap:") && !model.rowById.has(model.active) && !partial)) model.active = value.cursor;
    // A large session shows the window around the cursor: the highlighted
    // row stays where it was on screen, else the cursor is centred. Another
    // session opened shows its highlighted row (the cursor, or a search
    // hit), centred, as its context pane shows the path's end.
    view.placing = partial; // no window fetched for the scroll position before it is set
    this.host.relayout();
    if (partial && !view.scrollRowTo(model.active, anchor)) view.scrollRowTo(value.cursor, null);
    else if (!partial && another) view.scrollRowTo(model.active, null);
    view.placing = false;
    this._scrollFollowed(follow);
    this.host.renderHead();
    // Another session's messages are not left beside these rows while this one's context is read.
    if (this._contextOf !== id) this.host.context.render(null);
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
    if (seq !== this.seq || id !== this.host.sessionId()) return;
    // `context` of a very deep path is megabytes of messages the pane does
    // not show: past CONTEXT_MAX_PATH nodes the pane counts nodes instead.
    const t2 = performance.now();
    const deep = (model.session?.depth ?? 0) > CONTEXT_MAX_PATH;
    const ctxEnv = deep ? null : await this.host.tree().call({ operation: "context", sessionId: id });
    if (seq !== this.seq || id !== this.host.sessionId()) return;
    this._ctx = ctxEnv?.ok ? { messages: { length: ctxEnv.value.messages.length }, state: ctxEnv.value.state } : { messages: null, state: null };
    this.lastTimings.context = performance.now() - t2;
    this._contextOf = id;
    await this.host.context.render(this._ctx);
    if (!model.partial) return;
    // The map shows no rows: their fill waits until the list is shown (resumeRows).
    if (this.host.deferRows?.()) this._deferred = { seq, id, t0 };
    else await this._fillRows(seq, id, t0);
  }

  /**
   * Take the rows a load of a large session left for later while the map
   * was shown (see _load): run its fill now, unless a newer load or
   * another session made it stale. Resolves when the rows are in.
   * @returns {Promise<void>}
   */
  resumeRows() {
    const d = this._deferred;
    this._deferred = null;
    if (!d) return Promise.resolve();
    if (this._running) {
      this._again = true; // the load in progress runs again and fills them (the list is shown now)
      return this._running;
    }
    this._running = (async () => {
      await this._fillRows(d.seq, d.id, d.t0);
      while (this._again) {
        this._again = false;
        await this._load();
      }
    })().finally(() => (this._running = null));
    return this._running;
  }

  /**
   * A session's rows from `tree.rows`, as an envelope whose value is
   * shaped like tree's (rowsFromColumns: with `count` and `offset`). With
   * `around` (a large session's cursor, or null for none), the first
   * window: FIRST_WINDOW rows around it (or the first rows).
   * @param {string} sessionId
   * @param {string|null} [around] undefined: every row
   */
  async _rows(sessionId, around) {
    const where = around === undefined ? {} : typeof around === "string" ? { around, limit: FIRST_WINDOW } : { offset: 0, limit: FIRST_WINDOW };
    const env = await this.host.tree().call({ operation: "tree.rows", sessionId, ...where });
    return env.ok ? { ok: true, value: rowsFromColumns(env.value) } : env;
  }

  /**
   * Take every row of a large session in slices of about FILL_TASK_MS, one
   * per task (scrolling, keys and clicks stay live between them), then lay
   * out the whole tree as for a small session, the highlighted row kept
   * where it was on screen. Stops, leaving the window, when the session
   * changes meanwhile (the load starts again) or another session is shown.
   */
  async _fillRows(seq, id, t0) {
    const model = this.model;
    const count = model.partial.count;
    const rows = new Array(count);
    const index = { indexOf: new Map(), starts: new Set(), names: new Set() };
    const stale = () => seq !== this.seq || id !== this.host.sessionId() || this._again;
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
      const env = await this.host.tree().call({ operation: "tree.rows", sessionId: id, offset, limit: size });
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
      size = nextSliceSize(got, took, { taskMs: FILL_TASK_MS, min: FILL_MIN, max: FILL_MAX });
      model.partial.loaded = offset;
      this.host.renderHead();
    }
    // Keep the highlighted row where it is on screen.
    const screen = this.view.screenOffset(model.active);
    model.partial = null;
    model.value = { sessionId: value.sessionId, cursor: value.cursor, activeBranch: value.activeBranch, rows, count, offset: 0 };
    model.setRows(rows, index);
    this.host.relayout();
    if (screen !== null) this.view.scrollRowTo(model.active, screen);
    this.lastTimings.allRows = performance.now() - t0;
    this.lastTimings.slices = slices;
    this.lastTimings.sliceCount = sliceCount;
    this.lastTimings.longestSlice = longest;
    await this.host.context.render(this._ctx);
    // Highlight the hits among every row now; the hit list stays as the user left it.
    await this.host.searchBox.rerun();
  }

  /**
   * While a large session's rows are a window (loading, or left unread
   * while the map shows): make the window the FIRST_WINDOW rows around node
   * `id` when it is not in it. Resolves true when the node's row is in.
   * @param {string} id
   * @returns {Promise<boolean>}
   */
  async windowAround(id) {
    const model = this.model;
    if (model.rowById.has(id)) return true;
    const seq = this.seq;
    const sessionId = this.host.sessionId();
    const env = await this.host.tree().call({ operation: "tree.rows", sessionId, around: id, limit: FIRST_WINDOW });
    if (seq !== this.seq || sessionId !== this.host.sessionId() || !model.partial || !env.ok || env.value.count !== model.partial.count) return false;
    const value = rowsFromColumns(env.value);
    model.partial.offset = value.offset;
    model.value = { ...model.value, rows: value.rows };
    model.setRows(value.rows);
    this.host.relayout();
    return model.rowById.has(id);
  }

  /**
   * While a large session's rows load: fetch the window around the rows
   * scrolled into view while they lie outside it (one call at a time, each
   * for where the view is when it starts).
   */
  async moveWindow() {
    if (this._moving) return;
    this._moving = true;
    const model = this.model;
    try {
      while (model.partial && this.view.outsideWindow()) {
        const want = this.view.topRow;
        const seq = this.seq;
        const id = this.host.sessionId();
        const offset = Math.max(0, Math.min(want - FIRST_WINDOW / 2, model.partial.count - FIRST_WINDOW));
        if (offset === model.partial.offset) return;
        const env = await this.host.tree().call({ operation: "tree.rows", sessionId: id, offset, limit: FIRST_WINDOW });
        if (seq !== this.seq || id !== this.host.sessionId() || !model.partial || !env.ok || env.value.count !== model.partial.count) return;
        const value = rowsFromColumns(env.value);
        model.partial.offset = value.offset;
        model.value = { ...model.value, rows: value.rows };
        model.setRows(value.rows);
        this.host.relayout();
      }
    } finally {
      this._moving = false;
    }
  }
}
