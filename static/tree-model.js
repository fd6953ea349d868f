// Pure data helpers for the explorer and the tree panel: no DOM, no I/O
// (the text helpers are in node-text.js, re-exported here).
//
// They take the values the core returns (the rows of `tree`, the messages of
// `context`, the entries of `sessions`) and turn them into what a view
// draws: branch-line guides, filtered row lists, visible row windows,
// message parts and short labels. Every walk is a loop (a 100,000-deep
// chain must not overflow the stack).

/** Widest drawn nesting of branch lines; deeper forks draw at this level. */
export const MAX_GUIDE_LEVEL = 12;

/**
 * Compute the branch-line guides of the rows of `tree`: for every row a
 * string of box-drawing characters drawn before it, like the ASCII tree of
 * the core ("│  ├─ "). A node with one child continues at the same level;
 * below a fork each child gets a connector ("├─ " or, for the last child,
 * "└─ ") and the lines of the siblings still to come run past it ("│  ").
 * Levels beyond MAX_GUIDE_LEVEL are not drawn.
 *
 * The rows must be in the core's display order (a preorder walk, children in
 * append order), each `{id, parentId, childCount}`.
 *
 * @param {{id: string, parentId: string|null, childCount: number}[]} rows
 * @returns {string[]} one guide string per row (3 characters per level)
 */
export function branchGuides(rows) {
  const guides = new Array(rows.length);
  const below = new Map(); // node id → prefix its children continue from
  const seen = new Map(); // parent id → children drawn so far
  const kids = new Map(); // node id → childCount
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    kids.set(row.id, row.childCount);
    const parent = row.parentId;
    let prefix = "";
    let connector = "";
    if (parent !== null && below.has(parent)) {
      prefix = below.get(parent);
      const siblings = kids.get(parent) ?? 1;
      if (siblings > 1) {
        const k = (seen.get(parent) ?? 0) + 1;
        seen.set(parent, k);
        connector = k === siblings ? "└─ " : "├─ ";
      }
    }
    guides[i] = prefix + connector;
    let next = prefix;
    if (prefix.length < MAX_GUIDE_LEVEL * 3) {
      if (connector === "├─ ") next += "│  ";
      else if (connector === "└─ ") next += "   ";
    }
    if (row.childCount > 0) below.set(row.id, next);
  }
  return guides;
}

/**
 * The rows a scrolled list of fixed-height rows shows: the index of the
 * first and one past the last row, with `overscan` extra rows each side.
 * @param {number} count number of rows
 * @param {number} scrollTop pixels scrolled
 * @param {number} viewport height of the visible area in pixels
 * @param {number} rowHeight pixels per row (> 0)
 * @param {number} [overscan] extra rows above and below (default 8)
 * @returns {{start: number, end: number}}
 */
export function visibleWindow(count, scrollTop, viewport, rowHeight, overscan = 8) {
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const last = Math.ceil((Math.max(0, scrollTop) + Math.max(0, viewport)) / rowHeight);
  return { start: Math.max(0, Math.min(count, first - overscan)), end: Math.max(0, Math.min(count, last + overscan)) };
}

/**
 * The first node of each branch: rows whose branch differs from their
 * parent's (or roots). Used to label where a branch begins.
 * @param {{id: string, parentId: string|null, branch: string}[]} rows
 * @returns {Set<string>} ids of the rows that start a branch
 */
export function branchStarts(rows) {
  const branchOf = new Map();
  const starts = new Set();
  for (const row of rows) {
    branchOf.set(row.id, row.branch);
    if (row.parentId === null || branchOf.get(row.parentId) !== row.branch) starts.add(row.id);
  }
  return starts;
}

/**
 * Count the distinct branch names among the rows.
 * @param {{branch: string}[]} rows
 * @returns {number}
 */
export function branchCount(rows) {
  const names = new Set();
  for (const row of rows) names.add(row.branch);
  return names.size;
}

/**
 * The row filters of the panel, after Pi's tree view: `default` (every
 * node but hidden subtrees and settings entries), `no-tools` (default
 * without tool results and tool-call-only assistant turns), `user` (user
 * messages only), `labeled` (labeled nodes only), `all` (everything,
 * hidden nodes too).
 */
export const FILTERS = Object.freeze(["default", "no-tools", "user", "labeled", "all"]);

/** Entry kinds that record settings rather than conversation. */
const SETTINGS_KINDS = new Set(["model_change", "thinking_level_change", "active_tools_change", "custom", "session_info"]);

/**
 * Whether a `tree` row passes a filter (see FILTERS). Unknown filter names
 * behave as `default`.
 * @param {{kind: string, role: string, preview: string, hidden?: boolean, label?: string, described?: boolean}} row
 *   described: the preview says what a message without text is (a tool call)
 * @param {string} filter
 * @returns {boolean}
 */
export function rowPasses(row, filter) {
  if (filter === "all") return true;
  if (filter === "labeled") return typeof row.label === "string" && row.label !== "";
  if (row.hidden) return false;
  if (SETTINGS_KINDS.has(row.kind)) return false;
  if (filter === "user") return row.kind === "message" && row.role === "user";
  if (filter === "no-tools") {
    if (row.role === "tool" || row.role === "toolResult" || row.role === "function") return false;
    if (row.role === "assistant" && row.kind === "message" && (row.preview === "" || row.described)) return false;
  }
  return true;
}

/**
 * Map every row id to its index in `rows`.
 * @param {{id: string}[]} rows
 * @returns {Map<string, number>}
 */
export function indexRows(rows) {
  const indexOf = new Map();
  for (let i = 0; i < rows.length; i++) indexOf.set(rows[i].id, i);
  return indexOf;
}

/**
 * Lay out the rows of `tree` for a view: apply a filter (rows that fail it
 * vanish and their children hang from their nearest shown ancestor; the
 * cursor row always stays), draw branch lines over what remains, then drop
 * the descendants of folded nodes and, with `compactRuns`, the middle of
 * long linear runs (a `gap` item stands for them until expanded). A few
 * linear passes over typed arrays: 100,000 rows take tens of ms.
 *
 * @param {object[]} rows the `tree` rows, in display order
 * @param {object} [options]
 * @param {string} [options.filter] one of FILTERS (default "default")
 * @param {Set<string>} [options.folded] ids of nodes whose subtree is folded
 * @param {boolean} [options.compactRuns] fold linear runs of `runLength` nodes or more
 * @param {Set<string>} [options.expandedRuns] gap ids (first hidden node) to show in full
 * @param {number} [options.runLength] shortest run that is compacted (default 6)
 * @param {Map<string, number>} [options.indexOf] indexRows(rows), if already made
 * @returns {{items: ({type: "node", row: object, index: number, guide: string, parentId: string|null, childCount: number, folded: boolean, starred: boolean, root?: number} | {type: "gap", id: string, count: number, guide: string, hidden?: true})[], shown: number, itemOfRow: Int32Array, roots: number, hiddenGaps: number}}
 *   `index` is the row's index in `rows`; `parentId`/`childCount` are in the
 *   filtered tree; `starred`: the end of the preferred path (preferred, no
 *   preferred child); `root`: 1, 2, … on the first row of each tree of the
 *   forest (rows with no parent), `roots` their number; a gap with
 *   `hidden` stands for a hidden subtree of `count` rows in the default
 *   view (its id is the hidden root's; expandedRuns opens it like a run),
 *   `hiddenGaps` their number; `shown` counts node items; `itemOfRow[i]`
 *   is the item index of rows[i] (-1 when not shown).
 */
export function layoutRows(rows, options = {}) {
  const filter = options.filter ?? "default";
  const folded = options.folded ?? new Set();
  const compact = options.compactRuns === true;
  const expanded = options.expandedRuns ?? new Set();
  const runLength = options.runLength ?? 6;
  const indexOf = options.indexOf ?? indexRows(rows);
  const n = rows.length;

  // 1. Filter: up[i] = nearest shown ancestor-or-self of row i (-1: none).
  // In the default view a hidden subtree leaves a placeholder (a "hidden"
  // gap item standing for it, expanded like a run) unless the cursor is in
  // it; an expanded one shows its rows as if they were not hidden.
  const placeholders = filter === "default";
  const up = new Int32Array(n);
  const shownParent = new Int32Array(n).fill(-1);
  const kids = new Int32Array(n);
  const kept = [];
  // hiddenUnder[i]: the placeholder row i lies under (-1: none); opened[i]: in an expanded hidden subtree.
  const hiddenUnder = placeholders ? new Int32Array(n).fill(-1) : null;
  const opened = placeholders ? new Uint8Array(n) : null;
  const hiddenCount = placeholders ? new Int32Array(n) : null;
  const cursorPath = placeholders ? cursorAncestors(rows, indexOf) : null;
  // prefChild[i]: a child of row i is on the preferred path (so row i is not its end).
  const prefChild = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const row = rows[i];
    const p = row.parentId === null ? -1 : indexOf.get(row.parentId) ?? -1;
    const u = p < 0 ? -1 : up[p];
    if (row.preferred && p >= 0) prefChild[p] = 1;
    if (placeholders) {
      if (p >= 0 && hiddenUnder[p] >= 0) {
        hiddenUnder[i] = hiddenUnder[p];
        hiddenCount[hiddenUnder[p]]++;
        up[i] = u;
        continue;
      }
      if (row.hiddenRoot && !cursorPath.has(i)) {
        if (!expanded.has(row.id)) {
          hiddenUnder[i] = i;
          hiddenCount[i] = 1;
          up[i] = u;
          shownParent[i] = u;
          if (u >= 0) kids[u]++;
          kept.push(i);
          continue;
        }
        opened[i] = 1;
      } else if (p >= 0 && opened[p]) {
        opened[i] = 1;
      }
    }
    if (row.cursor || filter === "all" || rowPasses(opened?.[i] ? { ...row, hidden: false } : row, filter)) {
      up[i] = i;
      shownParent[i] = u;
      if (u >= 0) kids[u]++;
      kept.push(i);
    } else {
      up[i] = u;
    }
  }

  // 2. Branch lines over the filtered forest (as branchGuides, by index).
  const below = new Array(n);
  const seen = new Int32Array(n);
  const guideOf = new Array(n);
  for (const i of kept) {
    const u = shownParent[i];
    let prefix = "";
    let connector = "";
    if (u >= 0) {
      prefix = below[u];
      if (kids[u] > 1) connector = ++seen[u] === kids[u] ? "└─ " : "├─ ";
    }
    guideOf[i] = prefix + connector;
    if (kids[i] > 0) {
      let next = prefix;
      if (prefix.length < MAX_GUIDE_LEVEL * 3) {
        if (connector === "├─ ") next += "│  ";
        else if (connector === "└─ ") next += "   ";
      }
      below[i] = next;
    }
  }

  // 3. Folds and compacted runs. Descendants of a folded node follow it
  // contiguously in preorder and are deeper in the filtered tree.
  const depth = new Int32Array(n);
  const itemOfRow = new Int32Array(n).fill(-1);
  const items = [];
  let skipBelow = -1;
  let shown = 0;
  let roots = 0;
  let hiddenGaps = 0;
  const push = (i) => {
    const row = rows[i];
    const u = shownParent[i];
    const isFolded = kids[i] > 0 && folded.size > 0 && folded.has(row.id);
    itemOfRow[i] = items.length;
    const item = { type: "node", row, index: i, guide: guideOf[i], parentId: u >= 0 ? rows[u].id : null, childCount: kids[i], folded: isFolded, starred: row.preferred === true && prefChild[i] === 0 };
    if (row.parentId === null) item.root = ++roots;
    items.push(item);
    shown++;
    return isFolded;
  };
  for (let k = 0; k < kept.length; k++) {
    const i = kept[k];
    const u = shownParent[i];
    const d = u < 0 ? 0 : depth[u] + 1;
    depth[i] = d;
    if (skipBelow >= 0) {
      if (d > skipBelow) continue;
      skipBelow = -1;
    }
    if (placeholders && hiddenUnder[i] === i) {
      items.push({ type: "gap", hidden: true, id: rows[i].id, count: hiddenCount[i], guide: guideOf[i] });
      hiddenGaps++;
      continue;
    }
    if (push(i)) {
      skipBelow = d;
      continue;
    }
    if (!compact || kids[i] !== 1) continue;
    // A linear run: follow only children that have one child themselves.
    let end = k + 1;
    while (end < kept.length && shownParent[kept[end]] === kept[end - 1] && kids[kept[end]] === 1 && !folded.has(rows[kept[end]].id)) end++;
    const interior = end - (k + 1); // kept[k+1 .. end-1]; kept[end] stays visible
    if (interior + 2 < runLength) continue;
    const gapId = rows[kept[k + 1]].id;
    if (expanded.has(gapId)) continue;
    // The cursor, labeled nodes and branch tips stay visible inside a run.
    let hidden = 0;
    let gapStart = null;
    for (let j = k + 1; j < end; j++) {
      const ri = kept[j];
      const r = rows[ri];
      depth[ri] = d + (j - k);
      if (r.cursor || (r.label ?? "") !== "" || (r.tipOf ?? "") !== "") {
        if (hidden > 0) items.push({ type: "gap", id: gapStart, count: hidden, guide: guideOf[ri] });
        hidden = 0;
        gapStart = null;
        push(ri);
      } else {
        if (hidden === 0) gapStart = r.id;
        hidden++;
      }
    }
    if (hidden > 0) items.push({ type: "gap", id: gapStart, count: hidden, guide: guideOf[kept[end - 1]] });
    k = end - 1;
  }
  return { items, shown, itemOfRow, roots, hiddenGaps };
}

/**
 * The indexes of the cursor row and its ancestors among `rows` (empty when
 * no row is the cursor).
 * @param {{id: string, parentId: string|null, cursor?: boolean}[]} rows
 * @param {Map<string, number>} indexOf
 * @returns {Set<number>}
 */
function cursorAncestors(rows, indexOf) {
  const path = new Set();
  let at = rows.findIndex((r) => r.cursor);
  while (at !== undefined && at >= 0 && !path.has(at)) {
    path.add(at);
    const p = rows[at].parentId;
    at = p === null ? -1 : indexOf.get(p);
  }
  return path;
}

/**
 * Turn the value of the core's `tree.rows` (columns: ids, parent row
 * indexes, tables of branch/kind/role names, previews, depths, child
 * counts, flag bits, sparse tip and label lists) back into the value of
 * `tree`: `{sessionId, cursor, activeBranch, rows}` with rows shaped like
 * tree's (no `indent`, which views draw themselves; no `text`).
 *
 * A window (a value with `offset`, asked with the request fields
 * `offset`/`limit`/`around`) gives the rows of the window; its parent,
 * tip and label indexes are whole-session rows. A parent inside the
 * window, or already in `into`, is named; one outside both gives
 * `parentId: null` (the row is drawn as a top row of the window).
 * @param {object} c the value of tree.rows, whole or a window
 * @param {object[]} [into] an array of `count` rows to fill: the window's
 *   rows are written at their whole-session indexes and `into` is the
 *   value's `rows`. Filled slice after slice from row 0, every parent is
 *   there before its children (rows are in preorder).
 * @returns {{sessionId: string, cursor: string|null, activeBranch: string, rows: object[], count: number, offset: number}}
 *   `count` is the whole session's row count, `offset` the window's first row (0 for a whole value)
 */
export function rowsFromColumns(c, into) {
  const off = c.offset ?? 0;
  const n = c.id.length;
  const rows = into ?? new Array(n);
  const at = into ? off : 0; // where row `off` goes in rows
  for (let k = 0; k < n; k++) {
    const f = c.flags[k];
    const p = c.parent[k];
    let parentId = null;
    if (p >= off && p < off + n) parentId = c.id[p - off];
    else if (p >= 0 && into) parentId = into[p]?.id ?? null;
    rows[at + k] = {
      id: c.id[k],
      parentId,
      branch: c.branches[c.branch[k]],
      kind: c.kinds[c.kind[k]],
      role: c.roles[c.role[k]],
      preview: c.preview[k],
      depth: c.depth[k],
      indent: 0,
      childCount: c.childCount[k],
      onPath: (f & 1) !== 0,
      cursor: (f & 2) !== 0,
      hidden: (f & 4) !== 0,
      hiddenRoot: (f & 8) !== 0,
      preferred: (f & 16) !== 0,
      described: (f & 32) !== 0,
    };
  }
  for (const [i, b] of c.tipOf) rows[i - off + at].tipOf = c.branches[b];
  for (const [i, label] of c.label) rows[i - off + at].label = label;
  return { sessionId: c.sessionId, cursor: c.cursor, activeBranch: c.activeBranch, rows, count: c.count, offset: off };
}

/**
 * Index one slice of rows as it arrives (see rowsFromColumns with `into`),
 * so that a large session's lookups are built a slice per task instead of
 * in one pass at the end: `indexOf` (id → row, as indexRows), `starts` (ids
 * of rows that start a branch, as branchStarts) and `names` (the branch
 * names). Parents are found by the slice's whole-session parent indexes,
 * so rows before the slice must be in `rows` already.
 * @param {object} c a window of tree.rows (with `offset`)
 * @param {object[]} rows the rows filled so far (whole-session indexes)
 * @param {{indexOf: Map<string, number>, starts: Set<string>, names: Set<string>}} index added to
 * @returns {{indexOf: Map<string, number>, starts: Set<string>, names: Set<string>}} index
 */
export function indexSlice(c, rows, index) {
  const off = c.offset ?? 0;
  for (let k = 0; k < c.id.length; k++) {
    const r = rows[off + k];
    const p = c.parent[k];
    index.indexOf.set(r.id, off + k);
    index.names.add(r.branch);
    if (p < 0 || rows[p].branch !== r.branch) index.starts.add(r.id);
  }
  return index;
}

// The text helpers live in node-text.js; re-exported for the views that
// import them from here.
export { contentParts, contentText, relativeTime, filterSessions, editDistance, snapshotFileName, highlightPieces, isolate, describeEntry, describeNodeEntry, nodeText, formatTime } from "./node-text.js";
