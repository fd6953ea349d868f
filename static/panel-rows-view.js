// The tree of <session-tree-panel> in the DOM: a scroller as tall as every
// row (a spacer) holding only the rows in view (virtualised), drawn from a
// RowsController. Knows pixels and elements; the state is the controller's.

import { el } from "./dom.js";
import { highlightPieces, nodeText, visibleWindow } from "./tree-model.js";
import { previewOf } from "./rows-controller.js";

/**
 * Height of one tree row in pixels where the stylesheet sets no other
 * (--row-height of session-tree-panel.css: 30px, 40px touch targets on
 * small screens; RowsView.measure reads it).
 */
export const ROW_HEIGHT = 30;

/** The class of each three-character cell of a row's guide string. */
const GUIDE_CLASS = { "│  ": "g-line", "├─ ": "g-tee", "└─ ": "g-elbow" };

/** The rows pane's note for a session with no nodes shown. */
const EMPTY_NOTE = "No nodes yet. Messages appended to this session appear here.";

/**
 * The rows pane's note while a session opens: with what its stored
 * records said (tree.storedContext's value), its node count and where its
 * last messages show.
 * @param {{nodeCount: number, nodes: object[]}|null} stored
 * @returns {string}
 */
function openingNote(stored) {
  if (!stored) return "Opening the session…";
  const n = stored.nodeCount;
  const k = stored.nodes.length;
  const last = k > 0 ? ` Its last ${k === 1 ? "node" : `${k} nodes`} to the cursor, as stored:` : "";
  return `Reading its ${n.toLocaleString("en")} ${n === 1 ? "node" : "nodes"}…${last}`;
}

/**
 * The tree's scroller and the rows in view.
 * - `scroller` the focusable element with role tree (listen to it for scroll, keys, clicks)
 * - `element` the scroller and the empty-session note, to put in the page
 * - `placing` while true, render does not ask for a window (the scroll position is being set)
 * - `onOutsideWindow` called by render while a large session loads and the rows in view lie outside its window
 */
export class RowsView {
  /**
   * @param {import("./rows-controller.js").RowsController} model
   * @param {string} uid prefix of the row element ids (unique per panel)
   */
  constructor(model, uid) {
    this.model = model;
    this.uid = uid;
    this.placing = false;
    this.onOutsideWindow = null;
    /** Pixels per row: ROW_HEIGHT until measure() reads the stylesheet's --row-height. */
    this.rowHeight = ROW_HEIGHT;
    this.scroller = el("div", "scroller");
    this.scroller.tabIndex = 0;
    this.scroller.setAttribute("role", "tree");
    this.scroller.setAttribute("aria-label", "Session tree");
    this.spacer = el("div", "spacer");
    this.rows = el("div", "rows");
    this.rows.setAttribute("role", "presentation");
    this.spacer.append(this.rows);
    this.empty = el("p", "empty-tree", EMPTY_NOTE);
    this.empty.hidden = true;
    // While a session opens: the last nodes of its path as stored (model.stored), read-only.
    this.stored = el("ol", "stored-rows");
    this.stored.hidden = true;
    this.stored.setAttribute("aria-label", "The last nodes to the cursor, as stored, while the session opens");
    this._storedShown = null;
    this.scroller.append(this.spacer, this.empty, this.stored);
    this._frameReq = 0;
  }

  /** Height of the view in pixels (600 before it is laid out). */
  get viewport() {
    return this.scroller.clientHeight || 600;
  }

  /** Items per PageUp/PageDown. */
  get page() {
    return Math.max(1, Math.floor(this.viewport / this.rowHeight) - 1);
  }

  /** While a large session's rows load: whether the rows in view lie outside the window. */
  outsideWindow() {
    const first = Math.floor(this.scroller.scrollTop / this.rowHeight);
    const last = Math.min(this.model.partial.count, Math.ceil((this.scroller.scrollTop + this.viewport) / this.rowHeight));
    return this.model.outsideWindow(first, last);
  }

  /** The whole-session row at the top of the view. */
  get topRow() {
    return Math.floor(this.scroller.scrollTop / this.rowHeight);
  }

  /**
   * Read the row height the stylesheet gives (--row-height on the scroller,
   * which changes with the screen size); when it changed, size the spacer
   * again and keep the same row at the top of the view.
   */
  measure() {
    const h = parseFloat(getComputedStyle(this.scroller).getPropertyValue("--row-height"));
    if (!Number.isFinite(h) || h <= 0 || h === this.rowHeight) return;
    const top = this.topRow;
    this.rowHeight = h;
    this.sizeSpacer();
    this.scroller.scrollTop = top * h;
  }

  /** Size the spacer to the rows after a layout. */
  sizeSpacer() {
    this.spacer.style.height = `${this.model.extent * this.rowHeight}px`;
  }

  /** Render in the next frame (once however often asked). */
  schedule() {
    if (this._frameReq) return;
    this._frameReq = requestAnimationFrame(() => {
      this._frameReq = 0;
      this.render();
    });
  }

  /** Draw the rows in view. */
  render() {
    const model = this.model;
    const items = model.layout.items;
    const base = model.base;
    const viewport = this.viewport;
    const top = this.scroller.scrollTop - base * this.rowHeight;
    let { start, end } = visibleWindow(items.length, top, viewport, this.rowHeight);
    if (top + viewport < 0) start = end = 0;
    if (model.partial && !this.placing && this.outsideWindow()) this.onOutsideWindow?.();
    this.rows.style.transform = `translateY(${(base + start) * this.rowHeight}px)`;
    const out = [];
    for (let i = start; i < end; i++) out.push(this._rowElement(items[i], i));
    this.rows.replaceChildren(...out);
    // While another session opens, the note says so (and, once its stored records are read, where its last messages show).
    const opening = model.value === null && model.opening;
    this.empty.hidden = items.length > 0 || (model.value === null && !opening);
    const note = opening ? openingNote(model.stored) : EMPTY_NOTE;
    if (this.empty.textContent !== note) this.empty.textContent = note;
    this._renderStored(opening ? model.stored : null);
    // A tree holds tree items: with none (an empty session, none shown) it is a named region, its note read.
    if (this.scroller.getAttribute("role") !== (items.length > 0 ? "tree" : "region")) this.scroller.setAttribute("role", items.length > 0 ? "tree" : "region");
    const activeIndex = model.activeIndex;
    if (activeIndex >= start && activeIndex < end) this.scroller.setAttribute("aria-activedescendant", `${this.uid}-r${activeIndex}`);
    else this.scroller.removeAttribute("aria-activedescendant");
  }

  /** Scroll the least that brings the item of key into view (nothing when it is not laid out). */
  scrollIntoView(key) {
    const i = this.model.itemIndex.get(key);
    if (i === undefined) return;
    const top = (this.model.base + i) * this.rowHeight;
    const h = this.viewport;
    if (top < this.scroller.scrollTop) this.scroller.scrollTop = top;
    else if (top + this.rowHeight > this.scroller.scrollTop + h) this.scroller.scrollTop = top + this.rowHeight - h;
  }

  /** Whether some of the row of key is in view (false when it is not laid out). */
  inView(key) {
    const top = this.screenOffset(key);
    return top !== null && top > -this.rowHeight && top < this.viewport;
  }

  /** Whether the list is scrolled to its end (within a row), or does not scroll. */
  get atEnd() {
    const s = this.scroller;
    return s.scrollTop + s.clientHeight >= s.scrollHeight - this.rowHeight;
  }

  /** Pixels from the top of the view to the row of key; null when it is not laid out. */
  screenOffset(key) {
    const i = key === null ? undefined : this.model.itemIndex.get(key);
    return i === undefined ? null : (this.model.base + i) * this.rowHeight - this.scroller.scrollTop;
  }

  /**
   * The stored rows while a session opens (stored: tree.storedContext's
   * value, null to take them away): each node's role and preview, the
   * cursor's last and scrolled to. They are not tree rows (no data-node-id:
   * a click on them does nothing) and go once the session answers.
   * @param {{nodes: object[]}|null} stored
   */
  _renderStored(stored) {
    const nodes = stored?.nodes ?? [];
    if (this._storedShown === (nodes.length > 0 ? stored : null)) return;
    this._storedShown = nodes.length > 0 ? stored : null;
    this.stored.hidden = nodes.length === 0;
    this.stored.replaceChildren(...nodes.map((node, k) => {
      const li = el("li", k === nodes.length - 1 ? "stored-row cursor" : "stored-row");
      const role = node.kind === "message" ? node.message?.role ?? "?" : node.kind === "summary" ? "summary" : String(node.kind).replace(/_/g, " ");
      const badge = el("span", "role", role);
      badge.dataset.role = node.kind === "message" ? role : node.kind;
      li.append(badge, el("span", "preview", previewOf(nodeText(node))));
      return li;
    }));
    if (nodes.length > 0) this.scroller.scrollTop = this.scroller.scrollHeight;
  }

  /**
   * Scroll so that the row of key is `screen` pixels below the top of the
   * view (centred when screen is null) and draw. False when key is not laid out.
   */
  scrollRowTo(key, screen) {
    const i = key === null ? undefined : this.model.itemIndex.get(key);
    if (i === undefined) return false;
    const top = (this.model.base + i) * this.rowHeight;
    this.scroller.scrollTop = Math.max(0, top - (screen ?? Math.floor((this.viewport - this.rowHeight) / 2)));
    this.render();
    return true;
  }

  _rowElement(item, i, inView = this.model.viewIds) {
    const model = this.model;
    const active = model.active;
    const r = el("div", "row");
    r.id = `${this.uid}-r${i}`;
    r.setAttribute("role", "treeitem");
    r.dataset.index = String(i);
    r.append(guides(item.guide));
    r.setAttribute("aria-level", String(item.guide.length / 3 + 1));
    if (item.type === "gap") {
      const key = `gap:${item.id}`;
      r.classList.add("gap");
      r.dataset.gap = item.id;
      r.setAttribute("aria-selected", String(active === key));
      if (active === key) r.classList.add("active");
      if (item.hidden) {
        // A hidden subtree left out of the default view: expanding shows it here.
        r.classList.add("hidden-gap");
        r.title = `Hidden from the default view (starts at ${item.id}); Enter shows it`;
        r.append(el("span", "gap-text", `${item.count.toLocaleString("en")} hidden — show`));
      } else {
        r.append(el("span", "gap-text", `⋯ ${item.count.toLocaleString("en")} more ${item.count === 1 ? "node" : "nodes"} — expand`));
      }
      return r;
    }
    const row = item.row;
    r.dataset.nodeId = row.id;
    r.setAttribute("aria-selected", String(active === row.id));
    const foldable = item.childCount > 1 || item.folded;
    if (foldable) r.setAttribute("aria-expanded", String(!item.folded));
    if (active === row.id) r.classList.add("active");
    if (row.onPath) r.classList.add("on-path");
    if (inView.has(row.id)) r.classList.add("in-view");
    if (row.cursor) r.classList.add("cursor");
    if (row.hidden) r.classList.add("hidden-node");
    if (row.preferred) r.classList.add("preferred");
    if (row.kind !== "message") r.classList.add("entry");
    if (model.compareFrom === row.id) r.classList.add("compare-from");
    r.title = `${row.id} · ${row.branch}`;

    const twist = el("span", "twist", foldable ? (item.folded ? "▸" : "▾") : "");
    twist.setAttribute("aria-hidden", "true");
    if (foldable) twist.dataset.twist = "1";
    r.append(twist);
    const role = row.kind === "message" ? row.role || "?" : row.kind === "summary" ? "summary" : row.kind.replace(/_/g, " ");
    const badge = el("span", "role", role);
    badge.dataset.role = row.kind === "message" ? row.role : row.kind;
    r.append(badge);
    const ranges = model.hits.get(row.id);
    if (ranges) r.classList.add("hit");
    r.append(previewElement(row, ranges));
    if (item.folded) {
      const n = row.childCount ?? item.childCount;
      r.append(el("span", "folded-count", `${n.toLocaleString("en")} ${n === 1 ? "child" : "children"} folded`));
    }
    if (row.label) r.append(el("span", "node-label", row.label));
    if (model.starts?.has(row.id) || row.tipOf) {
      const chip = el("span", "branch", row.branch);
      if (row.branch === model.value?.activeBranch) chip.classList.add("active");
      r.append(chip);
    }
    if (item.starred) {
      const star = el("span", "pref-mark", "★");
      star.title = "The preferred path ends here";
      r.append(star);
    }
    if (item.root !== undefined && model.layout.roots > 1) {
      // Each tree of a forest (a Claude Code sidechain, a second root) starts under its own heading.
      r.classList.add("root-start");
      if (item.root > 1) r.classList.add("root-later");
      r.append(rootMark(item.root, model.layout.roots));
    }
    if (row.hiddenRoot) r.append(el("span", "hidden-mark", "hidden"));
    if (row.cursor && model.pendingBranch !== null) {
      // A branch made here by Branch… has no node yet: show it at the cursor until the first message.
      const chip = el("span", "branch active pending", `${model.pendingBranch} (empty)`);
      chip.title = `Branch ${model.pendingBranch} starts here: the next message is its first`;
      r.append(chip);
    }
    if (row.cursor) r.append(el("span", "cursor-mark", "● cursor"));
    else if (row.id === model.viewNode) r.append(el("span", "view-mark", "◇ viewing"));
    return r;
  }
}

/**
 * A row's preview span: the search hit's text with its ranges marked, else
 * the readable preview; a message without text says what it is ("called
 * search", "(no text)") in the muted "described" style.
 * @param {object} row a row of the tree model
 * @param {[number, number][]|undefined} ranges the hit's UTF-16 ranges
 * @returns {HTMLSpanElement}
 */
function previewElement(row, ranges) {
  const preview = el("span", "preview");
  const text = ranges ? row.preview : readablePreview(row) || (row.kind === "message" ? "(no text)" : "");
  if (row.described || text === "(no text)") preview.classList.add("described");
  if (ranges) preview.append(...markedText(text, ranges));
  else preview.textContent = text;
  return preview;
}

/** Open WebUI's reasoning and tool-call blocks, and <think> sections, in assistant text (closed or cut off). */
const MARKUP_BLOCK = /<details\s+type="(reasoning|tool_calls)"[^>]*>[\s\S]*?(?:<\/details>|$)|<think(?:ing)?>[\s\S]*?(?:<\/think(?:ing)?>|$)/g;

/**
 * A row's preview as a reader wants it: in assistant text, the markup of
 * reasoning blocks is left out and a tool-call block becomes "[tool call]"
 * (the context pane renders them); "(thinking…)" when nothing else is left.
 * Other previews as they are.
 * @param {{preview?: string, role?: string}} row
 * @returns {string}
 */
export function readablePreview(row) {
  const text = row.preview ?? "";
  if (row.role !== "assistant" || !/<details\s+type=|<think/.test(text)) return text;
  const out = text.replace(MARKUP_BLOCK, (m, type) => (type === "tool_calls" ? " [tool call] " : " ")).replace(/\s+/g, " ").trim();
  return out === "" ? "(thinking…)" : out;
}

/**
 * Text with the given ranges in `<mark>`, as nodes to append.
 * @param {string} text
 * @param {[number, number][]} ranges UTF-16 offsets
 * @returns {Node[]}
 */
export function markedText(text, ranges) {
  return highlightPieces(text, ranges).map((p) => (p.hit ? el("mark", "", p.text) : document.createTextNode(p.text)));
}

/** The connector cells of a row's guide string (three characters a level). */
function guides(guide) {
  const g = el("span", "guides");
  g.setAttribute("aria-hidden", "true");
  for (let k = 0; k < guide.length; k += 3) g.append(el("span", GUIDE_CLASS[guide.slice(k, k + 3)] ?? "g-blank"));
  return g;
}

/**
 * The heading mark of the first row of tree `root` of `roots` in a forest:
 * "tree 2 of 3", which a narrow panel shows as its data-short "2/3"
 * (session-tree-panel.css; the text stays for screen readers).
 * @param {number} root @param {number} roots
 */
function rootMark(root, roots) {
  const mark = el("span", "root-mark", `tree ${root} of ${roots}`);
  mark.dataset.short = `${root}/${roots}`;
  return mark;
}
