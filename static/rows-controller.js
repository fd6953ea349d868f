// The rows of <session-tree-panel> without a DOM: the session's rows and
// their lookups, the laid-out items (filter, folds, compact runs), the
// highlighted row, the node a comparison starts from, the search hits, and
// what a key or an appended node does to them. The element draws what this
// holds and turns what its methods answer into DOM changes and calls; all
// of it runs (and is tested) in Node.
//
//   const rows = new RowsController();
//   rows.setValue(treeValue);           // the value of `tree` / rowsFromColumns
//   rows.relayout();                    // items for the current filter and folds
//   rows.layout.items, rows.active, rows.itemIndex.get(id)

import { branchStarts, indexRows, layoutRows, rowPasses } from "./tree-model.js";

/**
 * The row count of the next slice of a large session's rows: the rows that
 * take about `taskMs` at the last slice's rate (`got` rows in `tookMs`),
 * within [min, max].
 * @param {number} got rows of the last slice
 * @param {number} tookMs what the last slice took, in ms
 * @param {{taskMs: number, min: number, max: number}} limits
 * @returns {number}
 */
export function nextSliceSize(got, tookMs, { taskMs, min, max }) {
  return Math.max(min, Math.min(max, Math.round((got * taskMs) / Math.max(1, tookMs))));
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

const EMPTY_SET = new Set();

/** The key of a laid-out item: a node's id, or "gap:<id>" for a folded run. */
export function itemKey(item) {
  return item.type === "node" ? item.row.id : `gap:${item.id}`;
}

/**
 * State of a panel's rows. Fields the element reads (treat them as
 * read-only outside this class):
 * - `value` the session's tree value `{sessionId, cursor, activeBranch, rows, count?, offset?}`, or null
 * - `partial` while a large session's rows load: `{count, offset, loaded}` (whole row count, the window's first row, rows filled), else null
 * - `opening` true while another session is opened and no value is shown yet (panel-loader.js OPENING_MS)
 * - `stored` while it opens, what its stored records said (tree.storedContext's value: title, nodeCount, the path's last nodes), else null
 * - `session` the value of `session` for it, or null
 * - `layout` `{items, shown, itemOfRow}` from layoutRows
 * - `itemIndex` `{get(key) → item index | undefined, has(key)}` over node ids and "gap:<id>"
 * - `rowById` `{get(id) → row | undefined, has(id)}`, `parentOf` `{get(id) → parent id}`
 * - `starts` ids of the first row of each branch, `branchNames` the session's branch names
 * - `filter` one of FILTERS, `folded` / `expandedRuns` sets of node ids, `compactRuns`
 * - `active` the highlighted key (node id or "gap:<id>") or null, `compareFrom` a node id or null
 * - `hits` node id → highlight ranges in its preview (empty: hit, but no highlight)
 */
export class RowsController {
  constructor() {
    this.value = null;
    this.partial = null;
    this.opening = false;
    this.stored = null;
    this.session = null;
    this.filter = "default";
    this.folded = new Set();
    this.expandedRuns = new Set();
    this.compactRuns = false;
    this.active = null;
    this.compareFrom = null;
    /** The node whose path the context pane previews, or null for the cursor's (see viewPath). */
    this.view = null;
    this.hits = new Map();
    this.setRows([]);
  }

  /** Forget the view state of the session shown (another session is coming). */
  resetView() {
    this.folded.clear();
    this.expandedRuns.clear();
    this.active = null;
    this.compareFrom = null;
    this.view = null;
    this.hits = new Map();
  }

  /**
   * Preview the path to a node in the context pane without moving the
   * session's cursor ("look without moving"). The cursor itself, an unknown
   * node, or null go back to the cursor's path.
   * @param {string|null} id
   * @returns {boolean} whether a path other than the cursor's is previewed now
   */
  setView(id) {
    const row = id === null ? undefined : this.rowById.get(id);
    this.view = row && !row.cursor ? id : null;
    return this.view !== null;
  }

  /**
   * The previewed node, when it is still a row that is not the cursor (a
   * reload may have moved the cursor onto it or dropped it), else null.
   */
  get viewNode() {
    const row = this.view === null ? undefined : this.rowById.get(this.view);
    return row && !row.cursor ? this.view : null;
  }

  /**
   * The rows from the root to a node, following parent links (a loop);
   * null when a parent is not among the rows — but while a large session's
   * rows are a window, the end of the path the window holds (its last row's
   * depth counts the whole path).
   * @param {string} id
   * @returns {object[]|null}
   */
  viewPath(id) {
    const path = [];
    for (let at = id; at !== null && at !== undefined; at = this.parentOf.get(at)) {
      const row = this.rowById.get(at);
      if (!row) {
        if (!this.partial || path.length === 0) return null;
        break;
      }
      path.push(row);
      if (path.length > this.rowsCount) return null; // a cycle cannot be, but never loop forever
    }
    return path.reverse();
  }

  /** Ids on the previewed path (empty when the cursor's path shows). */
  get viewIds() {
    const id = this.viewNode;
    if (id === null) return EMPTY_SET;
    if (this._viewIds?.id !== id || this._viewIds.rows !== this.value?.rows || this._viewIds.length !== this.rowsCount) {
      this._viewIds = { id, rows: this.value?.rows, length: this.rowsCount, set: new Set((this.viewPath(id) ?? []).map((r) => r.id)) };
    }
    return this._viewIds.set;
  }

  /**
   * The active branch when it has no node yet (just made by `branch`: the
   * next append is its first node; moving the cursor away drops it), else
   * null. Null while a large session's rows load (its branches are not all in).
   * @returns {string|null}
   */
  get pendingBranch() {
    const b = this.value?.activeBranch;
    if (!b || this.partial || this.value.cursor === null) return null;
    return this.branchNames.has(b) ? null : b;
  }

  /**
   * Whether the highlight follows the session's cursor: it is on the
   * cursor's row (or on nothing) and no other path is previewed. A change
   * that moves the cursor without the panel (the app's append, jump or
   * branch, another tab's write) moves such a highlight with it (see
   * RowsLoader); a row the user highlighted or previews stays.
   * @returns {boolean}
   */
  get following() {
    return (this.active === null || this.active === (this.value?.cursor ?? null)) && this.viewNode === null;
  }

  /** How many rows the panel has. */
  get rowsCount() {
    return this.value?.rows?.length ?? 0;
  }

  /** The highlighted node's id (not a gap's key), or null. */
  get selectedNodeId() {
    return this.active && !this.active.startsWith("gap:") ? this.active : null;
  }

  /** The row of the selected node, or null. */
  get selectedRow() {
    const id = this.selectedNodeId;
    return id === null ? null : this.rowById.get(id) ?? null;
  }

  /** Rows the view is as tall as: every row of a loading session, else the items. */
  get extent() {
    return this.partial ? this.partial.count : this.layout.items.length;
  }

  /** Rows above the first item (the window's first row of a loading session, else 0). */
  get base() {
    return this.partial?.offset ?? 0;
  }

  /** The item index of the highlighted row, or -1. */
  get activeIndex() {
    return this.active === null ? -1 : this.itemIndex.get(this.active) ?? -1;
  }

  /** Drop the rows (no session, or it could not be read). */
  clear() {
    this.partial = null;
    this.value = null;
    this.opening = false;
    this.stored = null;
    this.setRows([]);
  }

  /**
   * Take rows as the panel's rows and make their lookups; `index` (from
   * indexSlice) gives them already made. With no rows the layout is empty
   * at once (otherwise relayout makes it).
   * @param {object[]} rows
   * @param {{indexOf: Map<string, number>, starts: Set<string>, names: Set<string>}|null} [index]
   */
  setRows(rows, index = null) {
    // Lookups by id over one id → index map (no per-row Map entries twice).
    const indexOf = index?.indexOf ?? indexRows(rows);
    this.indexOf = indexOf;
    const row = (id) => {
      const i = indexOf.get(id);
      return i === undefined ? undefined : rows[i];
    };
    this.rowById = { get: row, has: (id) => indexOf.has(id) };
    this.parentOf = { get: (id) => row(id)?.parentId };
    this.starts = index?.starts ?? branchStarts(rows);
    let names = index?.names;
    if (!names) {
      names = new Set();
      for (const r of rows) names.add(r.branch);
    }
    this.branchNames = names;
    if (rows.length === 0) {
      this.layout = { items: [], shown: 0, itemOfRow: new Int32Array(0) };
      this.itemIndex = { get: () => undefined, has: () => false };
    }
  }

  /**
   * Lay the rows out again for the filter, folds and runs; a highlighted
   * node that went out of view, and a previewed node hidden out of view,
   * pass to their nearest shown ancestor (not while a large session's rows
   * load: the window holds only some rows).
   */
  relayout() {
    const rows = this.value?.rows ?? [];
    this.layout = layoutRows(rows, { filter: this.filter, folded: this.folded, compactRuns: this.compactRuns, expandedRuns: this.expandedRuns, indexOf: this.indexOf });
    const { items, itemOfRow } = this.layout;
    const gaps = new Map();
    if (this.compactRuns || this.layout.hiddenGaps > 0) items.forEach((item, i) => item.type === "gap" && gaps.set(`gap:${item.id}`, i));
    const indexOf = this.indexOf;
    const get = (key) => {
      if (key.startsWith("gap:")) return gaps.get(key);
      const i = indexOf.get(key);
      return i === undefined || itemOfRow[i] < 0 ? undefined : itemOfRow[i];
    };
    this.itemIndex = { get, has: (key) => get(key) !== undefined };
    if (this.partial) return;
    if (this.active !== null && !this.itemIndex.has(this.active)) this.active = this.active.startsWith("gap:") ? null : this._shownAncestor(this.active);
    // A previewed node hidden out of view (Hide, here or in another tab):
    // the preview passes to its nearest shown ancestor, as the highlight does.
    const view = this.viewNode;
    if (view !== null && this.rowById.get(view)?.hidden && !this.itemIndex.has(view)) this.setView(this._shownAncestor(view));
  }

  /** The nearest ancestor of node id that the layout shows, or null. */
  _shownAncestor(id) {
    let at = this.parentOf.get(id);
    while (at !== null && at !== undefined && !this.itemIndex.has(at)) at = this.parentOf.get(at);
    return at ?? null;
  }

  /**
   * Make a node shown: unfold its ancestors, switch to the "all" filter
   * when the current one hides it, expand the runs when compact runs hide
   * it, and lay out again when anything changed. False (nothing changed)
   * when the node is not among the rows.
   * @param {string} id
   * @returns {boolean}
   */
  reveal(id) {
    if (!this.rowById.has(id)) return false;
    let changed = false;
    for (let at = this.parentOf.get(id); at !== null && at !== undefined; at = this.parentOf.get(at)) {
      if (this.folded.delete(at)) changed = true;
    }
    if (!this.itemIndex.has(id) && this.filter !== "all") {
      this.filter = "all";
      changed = true;
    }
    if (changed || !this.itemIndex.has(id)) {
      if (this.compactRuns && !this.itemIndex.has(id)) {
        for (const item of this.layout.items) if (item.type === "gap") this.expandedRuns.add(item.id);
      }
      this.relayout();
    }
    return true;
  }

  /** Fold or unfold a node's children and lay out again. */
  toggleFold(id) {
    if (this.folded.has(id)) this.folded.delete(id);
    else this.folded.add(id);
    this.relayout();
  }

  /** Expand a compacted run and lay out again (its gap key stays the highlighted key). */
  expandRun(gapId) {
    this.expandedRuns.add(gapId);
    this.active = null;
    this.relayout();
  }

  /** Set the filter (one of FILTERS) and lay out again. */
  setFilter(filter) {
    this.filter = filter;
    this.relayout();
  }

  /** Turn compact runs on or off (every run folded again) and lay out again. */
  setCompactRuns(on) {
    this.compactRuns = on;
    this.expandedRuns.clear();
    this.relayout();
  }

  /**
   * What a key pressed in the tree does, as an action for the element:
   * `{type: "select", key}` highlight and scroll to an item, `{type: "fold", id}`,
   * `{type: "expand", id}` (a gap), `{type: "activate", id}` (Enter/Space
   * on a node: jump, or end a comparison), `{type: "none"}` (the key is
   * the tree's, nothing to do), or null when the tree does not use the key.
   * @param {string} key KeyboardEvent.key
   * @param {number} page items per page (PageUp/PageDown)
   * @returns {{type: string, key?: string, id?: string}|null}
   */
  keyAction(key, page) {
    const items = this.layout.items;
    if (items.length === 0) return null;
    const i = this.activeIndex;
    const item = i >= 0 ? items[i] : null;
    const go = (j) => ({ type: "select", key: itemKey(items[Math.max(0, Math.min(items.length - 1, j))]) });
    switch (key) {
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
        if (!item || item.type !== "node") return { type: "none" };
        if (item.childCount > 1 && !item.folded) return { type: "fold", id: item.row.id };
        if (item.parentId !== null && this.itemIndex.has(item.parentId)) return { type: "select", key: item.parentId };
        return { type: "none" };
      case "ArrowRight":
        if (!item) return { type: "none" };
        if (item.type === "gap") return { type: "expand", id: item.id };
        if (item.folded) return { type: "fold", id: item.row.id };
        if (item.childCount > 0) return go(i + 1);
        return { type: "none" };
      case "Enter":
      case " ":
        if (!item) return { type: "none" };
        if (item.type === "gap") return { type: "expand", id: item.id };
        return { type: "activate", id: item.row.id };
      default:
        return null;
    }
  }

  /**
   * Insert one appended node into the rows of a large session without a
   * new `tree` (which costs seconds at 100,000 nodes): the node goes after
   * its parent's subtree (children are in append order), becomes the
   * cursor and its branch's tip, and the path flags move; a highlight that
   * followed the cursor (see following) goes to it. False, changing
   * nothing, when the node cannot be placed (its parent is not among the
   * rows, or it is not a message or summary): the caller loads again.
   * @param {{id: string, parentId: string|null, branch: string, kind: string, message?: object, summary?: string}} node the `node` answer
   * @param {string} text the node's text (contentText of its content, or the summary)
   * @returns {boolean}
   */
  insertAppended(node, text) {
    const follow = this.following;
    const value = this.value;
    const rows = value.rows;
    const p = node.parentId === null ? -1 : this.indexOf.get(node.parentId);
    if (p === undefined || (node.kind !== "message" && node.kind !== "summary")) return false;
    let at = rows.length;
    if (p >= 0) {
      at = p + 1;
      const d = rows[p].depth;
      while (at < rows.length && rows[at].depth > d) at++;
    }
    const parent = p >= 0 ? rows[p] : null;
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
    this.setRows(rows);
    for (let id = node.parentId; id !== null && id !== undefined; ) {
      const r = this.rowById.get(id);
      if (!r) break;
      r.onPath = true;
      id = r.parentId;
    }
    if (follow) this.active = node.id;
    this.relayout();
    return true;
  }

  /**
   * Take the hits of a `search` answer: a hit whose snippet is its row's
   * preview is highlighted in the row too; hits on nodes not among the
   * rows are left out.
   * @param {{hits: {nodeId: string, snippet?: string, ranges?: [number, number][]}[]}|null} result null clears the hits
   */
  setHits(result) {
    this.hits = new Map();
    for (const hit of result?.hits ?? []) {
      const row = this.rowById.get(hit.nodeId);
      if (row && row.preview === hit.snippet) this.hits.set(hit.nodeId, hit.ranges);
      else if (row) this.hits.set(hit.nodeId, []);
    }
  }

  /** The first name "branch-<k>" (k = 1, 2, …) that no branch of the session has. */
  freeBranchName() {
    for (let k = 1; ; k++) {
      const name = `branch-${k}`;
      if (!this.branchNames.has(name)) return name;
    }
  }

  /**
   * A node among its siblings (the children of its parent, or the roots,
   * in append order), for the context pane's "‹ 2 / 3 ›". Siblings in a
   * hidden subtree the view leaves out are not counted (see _steppable).
   * @param {string} id
   * @returns {{index: number, count: number, ids: string[]}|null} index 0-based; null while a
   *   large session's rows load (the siblings may not all be in) or for an unknown node
   */
  siblings(id) {
    if (this.partial || !this.value) return null;
    const row = this.rowById.get(id);
    if (!row) return null;
    const ids = (this._children().get(row.parentId ?? null) ?? []).filter((k) => k === id || this._steppable(k, row));
    const index = ids.indexOf(id);
    return index < 0 ? null : { index, count: ids.length, ids };
  }

  /**
   * The end of a node's newest path: from the node, the preferred child
   * where one is preferred, else the last appended, down to a leaf (a
   * loop, however deep); children in a hidden subtree the view leaves out
   * are passed over (see _steppable).
   * @param {string} id
   * @returns {string} the leaf's id (id itself when it has no children)
   */
  newestLeaf(id) {
    const kids = this._children();
    let at = id;
    for (let list = kids.get(at); list && list.length > 0; list = kids.get(at)) {
      const from = this.rowById.get(at); // inside a hidden subtree, every child is of it
      const shown = list.filter((k) => this._steppable(k, from));
      if (shown.length === 0) break;
      at = shown.find((k) => this.rowById.get(k)?.preferred) ?? shown[shown.length - 1];
    }
    return at;
  }

  /**
   * Whether the sibling arrows may step to node id, coming from the row
   * `from`: a hidden node only when the view shows it (the cursor's row;
   * the "all" filter; a labeled one under "labeled"; under "default", its
   * hidden subtree opened or the cursor's path through it) or when `from` is hidden
   * itself (a path inside a hidden subtree steps among its own versions).
   * @param {string} id @param {object|undefined} from
   */
  _steppable(id, from) {
    const r = this.rowById.get(id);
    // The cursor's row shows under every filter (layoutRows).
    if (!r?.hidden || r.cursor || from?.hidden || this.filter === "all") return true;
    if (this.filter === "labeled") return rowPasses(r, "labeled");
    return this.filter === "default" && (r.onPath || (r.hiddenRoot === true && this.expandedRuns.has(r.id)));
  }

  /** parent id (null for roots) → child ids in append order, rebuilt when the rows change. */
  _children() {
    const rows = this.value?.rows ?? [];
    if (this._kids?.rows !== rows || this._kids.length !== rows.length) {
      const map = new Map();
      for (const r of rows) {
        const p = r.parentId ?? null;
        let list = map.get(p);
        if (!list) map.set(p, (list = []));
        list.push(r.id);
      }
      this._kids = { rows, length: rows.length, map };
    }
    return this._kids.map;
  }

  /** The summary offered for a branch with a summary at a node. */
  defaultSummary(nodeId) {
    const row = this.rowById.get(nodeId);
    return row ? `Branched from: ${row.preview}` : "";
  }

  /**
   * The rows of the context pane: the last `shown` nodes of the path from
   * the root to the previewed node (viewNode), else to the cursor. While a large session's rows load the window
   * holds only the end of the path: the session's depth counts it whole.
   * @param {number} shown
   * @returns {{total: number, hidden: number, rows: object[]}} total nodes on the path, nodes before the first row given, the rows
   */
  contextRows(shown) {
    const viewed = this.viewNode === null ? null : this.viewPath(this.viewNode);
    const pathRows = viewed ?? this.value.rows.filter((r) => r.onPath);
    if (viewed) {
      const total = this.partial ? Math.max(viewed.length, viewed[viewed.length - 1].depth ?? 0) : viewed.length;
      const hidden = Math.max(0, total - shown);
      return { total, hidden, rows: viewed.slice(Math.max(0, hidden - (total - viewed.length))) };
    }
    const total = this.partial ? Math.max(pathRows.length, this.session?.depth ?? 0) : pathRows.length;
    const hidden = Math.max(0, total - shown);
    return { total, hidden, rows: pathRows.slice(Math.max(0, hidden - (total - pathRows.length))) };
  }

  /**
   * The head's title, its tooltip and its stats line ("13 nodes · 4
   * branches · on main", with "N shown" under a filter and the loading
   * share while a large session's rows load).
   * @param {string|null} sessionId the session asked for (shown when there is no value)
   * @returns {{title: string, tooltip: string|null, stats: string}} tooltip null: leave it
   */
  head(sessionId) {
    const value = this.value;
    if (!value) {
      const stored = this.opening && this.stored?.sessionId === sessionId ? this.stored : null;
      const n = stored?.nodeCount;
      return { title: stored?.title || (sessionId === null ? "No session" : sessionId), tooltip: stored ? sessionId : null, stats: !this.opening ? "" : stored ? `${n.toLocaleString("en")} ${n === 1 ? "node" : "nodes"} · opening…` : "opening…" };
    }
    const partial = this.partial;
    const n = partial ? partial.count : value.rows.length;
    const b = partial ? this.session?.branchCount ?? this.branchNames.size : this.branchNames.size;
    const shown = this.layout.shown;
    const parts = [`${n.toLocaleString("en")} ${n === 1 ? "node" : "nodes"}`, `${b} ${b === 1 ? "branch" : "branches"}`, `on ${value.activeBranch}`];
    if (partial) parts.push(`loading rows ${Math.floor((100 * partial.loaded) / n)}%`);
    else if (shown !== n) parts.splice(1, 0, `${shown.toLocaleString("en")} shown`);
    return { title: this.session?.title || value.sessionId, tooltip: value.sessionId, stats: parts.join(" · ") };
  }

  /**
   * While a large session's rows load: whether the rows [first, last) in
   * view lie outside the window.
   */
  outsideWindow(first, last) {
    return first < this.partial.offset || last > this.partial.offset + (this.value?.rows.length ?? 0);
  }
}
