// The family strip of the map (issue 25): the sessions linked to the one
// shown by fork, clone and import (core's read-only `family` operation),
// drawn as a small graph on one canvas — the root ancestor at the left,
// each generation one column to the right, an edge from each session to
// the one it was made from (solid: fork, dotted: clone, dashed: import) —
// with the shown session filled and ringed, and a session a link names but
// the store does not have (not imported yet, deleted) drawn hollow and
// marked "not here". A click on a member opens it (host.open, at the node
// linking it to the shown session when there is one). The accessible twin
// is a list of buttons, one per member, visually hidden but focusable: the
// focused one is ringed on the canvas, Enter or Space opens it.

import { button, el } from "./dom.js";
import { isolate } from "./node-text.js";
import { screenColours } from "./map-colours.js";

/** Layout units of the strip, in CSS px. */
export const FAMILY_LAYOUT = Object.freeze({ column: 210, row: 40, margin: 14, top: 12, label: 28, radius: 6, maxHeight: 160 });

const TOKENS = ["--bg", "--surface", "--text", "--muted", "--accent", "--border", "--guide"];

/**
 * Place a family (the value of core's `family`) in columns by generation:
 * a loop over members in core's order (root first, then breadth first, so
 * a parent comes before its children); no recursion, and a member whose
 * parent is not placed (a cut family) goes in column 0.
 * @param {import("../js/sessiontree.js").Family} family
 * @param {string} current the session shown
 * @returns {{members: {sessionId: string, title: string, nodeCount: number, missing: boolean, current: boolean, column: number, row: number, parent: string|null, nodeId: string|null, kind: string|null}[], columns: number, rows: number}}
 */
export function layoutFamily(family, current) {
  const edgeOf = new Map(family.edges.map((e) => [e.sessionId, e]));
  const column = new Map();
  const perColumn = [];
  const members = family.members.map((m) => {
    const e = edgeOf.get(m.sessionId) ?? null;
    const c = e && column.has(e.parentSessionId) ? column.get(e.parentSessionId) + 1 : 0;
    column.set(m.sessionId, c);
    const row = perColumn[c] ?? 0;
    perColumn[c] = row + 1;
    return { ...m, current: m.sessionId === current, column: c, row, parent: e?.parentSessionId ?? null, nodeId: e?.nodeId ?? null, kind: e?.kind ?? null };
  });
  return { members, columns: perColumn.length, rows: Math.max(1, ...perColumn) };
}

/**
 * The node to open member `id` at: the node of the edge between it and the
 * shown session (either way round), else null (its own cursor).
 * @param {{members: object[]}} layout @param {string} id @param {string} current
 * @returns {string|null}
 */
export function openNode(layout, id, current) {
  for (const m of layout.members) {
    if ((m.sessionId === id && m.parent === current) || (m.sessionId === current && m.parent === id)) return m.nodeId;
  }
  return null;
}

/** A member's name in the strip: its title, else its id. */
function nameOf(m) {
  return m.title || m.sessionId;
}

/** A text cut to fit `max` px in ctx's font, with an ellipsis. */
function fit(ctx, text, max) {
  if (ctx.measureText(text).width <= max) return text;
  let n = text.length;
  while (n > 1 && ctx.measureText(`${text.slice(0, n)}…`).width > max) n--;
  return `${text.slice(0, n)}…`;
}

/**
 * The strip: `element` goes into the map view; `set(family, current)`
 * shows a family (hidden when the session has none).
 * @param {{open: (sessionId: string, nodeId: string|null) => void, probe: HTMLElement}} host
 */
export class FamilyStrip {
  constructor(host) {
    this.host = host;
    this.layout = null;
    this.current = null;
    this.focused = null;
    this.element = el("section", "map-family");
    this.element.setAttribute("aria-label", "Family of sessions");
    this.heading = el("p", "map-family-heading");
    this.canvas = el("canvas", "map-family-canvas");
    this.canvas.setAttribute("aria-hidden", "true");
    this.list = el("ul", "map-family-list");
    this.element.append(this.heading, this.canvas, this.list);
    this.element.hidden = true;
    this.canvas.addEventListener("click", (e) => {
      const m = this.hit(e.offsetX, e.offsetY);
      if (m) this.open(m.sessionId);
    });
    this.canvas.addEventListener("pointermove", (e) => (this.canvas.style.cursor = this.hit(e.offsetX, e.offsetY) ? "pointer" : "default"));
    this._width = 0;
    new ResizeObserver(() => {
      if (this.canvas.clientWidth !== this._width) this.draw();
    }).observe(this.canvas);
    this._theme = null;
  }

  /** After each frame of the map: redraw when the map's colours changed (the colour scheme). @param {object} colours */
  themed(colours) {
    if (colours === this._theme) return;
    this._theme = colours;
    this.draw();
  }

  /** Show `family` for session `current`; null or a family of one hides the strip. */
  set(family, current) {
    this.current = current;
    this.layout = family && family.members.length > 1 ? layoutFamily(family, current) : null;
    this.element.hidden = this.layout === null;
    this.list.textContent = "";
    if (!this.layout) return;
    const n = this.layout.members.length;
    this.heading.textContent = `Family: ${n} sessions${family.truncated ? " (more not shown)" : ""}`;
    for (const m of this.layout.members) this.list.append(this._item(m));
    this.draw();
  }

  _item(m) {
    const li = el("li");
    const how = m.parent === null ? "root" : `${m.kind} of ${m.parent}${m.nodeId ? ` at ${m.nodeId}` : ""}`;
    const label = `${isolate(nameOf(m))}${m.missing ? " (not here)" : `, ${m.nodeCount} nodes`}, ${how}${m.current ? " (shown)" : ""}`;
    const b = button("map-family-member", label);
    b.dataset.sessionId = m.sessionId;
    if (m.current) b.setAttribute("aria-current", "true");
    b.disabled = m.missing;
    b.addEventListener("click", () => this.open(m.sessionId));
    b.addEventListener("focus", () => ((this.focused = m.sessionId), this.draw()));
    b.addEventListener("blur", () => ((this.focused = null), this.draw()));
    li.append(b);
    return li;
  }

  /** Open member `id` (nothing for the shown session or a missing one). */
  open(id) {
    const m = this.layout?.members.find((x) => x.sessionId === id);
    if (!m || m.current || m.missing) return;
    this.host.open(id, openNode(this.layout, id, this.current));
  }

  /** The centre of member m's dot, in CSS px of the canvas. */
  point(m) {
    const { column, row, margin } = this._units();
    return { x: margin + m.column * column, y: FAMILY_LAYOUT.top + m.row * row };
  }

  /** Spacing shrunk to the canvas: a wide family still fits its width (the last column keeps room for its names), a tall one the strip's height. */
  _units() {
    const L = FAMILY_LAYOUT;
    const w = this.canvas.clientWidth || 300;
    const cols = this.layout?.columns ?? 1;
    const rows = this.layout?.rows ?? 1;
    const column = cols > 1 ? Math.min(L.column, (w - 2 * L.margin - Math.min(150, w / 3)) / (cols - 1)) : L.column;
    const row = rows > 1 ? Math.min(L.row, (L.maxHeight - L.top - L.label) / (rows - 1)) : L.row;
    return { column: Math.max(24, column), row: Math.max(8, row), margin: L.margin };
  }

  /** The member drawn at (x, y) CSS px: its dot or its name below it, else null. */
  hit(x, y) {
    if (!this.layout) return null;
    const { column, row } = this._units();
    const r = FAMILY_LAYOUT.radius;
    for (const m of this.layout.members) {
      const p = this.point(m);
      if (x >= p.x - r - 4 && x <= p.x + column - 16 && y >= p.y - r - 4 && y <= p.y + Math.min(row - r - 4, FAMILY_LAYOUT.label)) return m;
    }
    return null;
  }

  /** Draw the family: edges, then dots and names. */
  draw() {
    if (!this.layout) return;
    const { row } = this._units();
    const h = Math.min(FAMILY_LAYOUT.maxHeight, FAMILY_LAYOUT.top + (this.layout.rows - 1) * row + FAMILY_LAYOUT.label);
    this.canvas.style.height = `${h}px`;
    const dpr = globalThis.devicePixelRatio || 1;
    const w = this.canvas.clientWidth || 300;
    this._width = this.canvas.clientWidth;
    this.canvas.width = Math.round(w * dpr);
    this.canvas.height = Math.round(h * dpr);
    const ctx = this.canvas.getContext("2d");
    if (!ctx) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const col = screenColours(this.host.probe, TOKENS);
    ctx.fillStyle = col["--surface"];
    ctx.fillRect(0, 0, w, h);
    this._edges(ctx, col);
    this._members(ctx, col);
  }

  _edges(ctx, col) {
    const at = new Map(this.layout.members.map((m) => [m.sessionId, m]));
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = col["--muted"];
    for (const m of this.layout.members) {
      const p = m.parent === null ? null : at.get(m.parent);
      if (!p) continue;
      const a = this.point(p);
      const b = this.point(m);
      ctx.setLineDash(m.kind === "import" ? [5, 4] : m.kind === "clone" ? [1.5, 3] : []);
      ctx.beginPath();
      ctx.moveTo(a.x, a.y);
      const mid = (a.x + b.x) / 2;
      ctx.bezierCurveTo(mid, a.y, mid, b.y, b.x, b.y);
      ctx.stroke();
    }
    ctx.setLineDash([]);
  }

  _members(ctx, col) {
    const { column } = this._units();
    const r = FAMILY_LAYOUT.radius;
    ctx.textBaseline = "top";
    for (const m of this.layout.members) {
      const p = this.point(m);
      ctx.beginPath();
      ctx.arc(p.x, p.y, r, 0, 2 * Math.PI);
      ctx.setLineDash(m.missing ? [2, 2] : []);
      ctx.fillStyle = m.current ? col["--accent"] : m.missing ? col["--surface"] : col["--bg"];
      ctx.fill();
      ctx.lineWidth = 1.5;
      ctx.strokeStyle = m.current ? col["--accent"] : col["--muted"];
      ctx.stroke();
      ctx.setLineDash([]);
      if (m.current || m.sessionId === this.focused) {
        ctx.beginPath();
        ctx.arc(p.x, p.y, r + 4, 0, 2 * Math.PI);
        ctx.strokeStyle = col["--accent"];
        ctx.lineWidth = 2;
        ctx.stroke();
      }
      ctx.fillStyle = m.missing ? col["--muted"] : col["--text"];
      ctx.font = `${m.current ? "600 " : ""}12px system-ui, sans-serif`;
      const text = m.missing ? `${isolate(m.sessionId)} (not here)` : `${isolate(nameOf(m))} · ${m.nodeCount} nodes`;
      const room = m.column === this.layout.columns - 1 ? this.canvas.clientWidth - p.x - 8 : column - 16;
      ctx.fillText(fit(ctx, text, Math.max(20, room)), p.x - r, p.y + r + 4);
    }
  }
}
