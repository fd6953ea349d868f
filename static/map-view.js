// The map of a session drawn on one canvas (static/map-model.js holds the
// data; this module the DOM, the drawing and the input). Nothing per
// message is in the DOM: a 100,000-node session is a few thousand line
// segments, culled to the window and drawn in one pass per frame.
//
// Input: drag pans; the wheel and a two-finger pinch zoom about the
// pointer; a click previews the node's path (host.preview), a double
// click or Enter jumps there (host.jump); hover or a long press shows the
// node's role and first line. Keys on the focused canvas: arrows move to
// the parent (Up), the first child (Down), the previous and next sibling
// (Left, Right) — the map follows and an aria-live line announces the
// node —; + and − zoom, 0 fits, c goes to the cursor. The list tree stays
// the accessible tree; this canvas is role="application" (a "tree map":
// a screen reader in browse mode would keep the keys of an image for
// itself), its keys in its name, with that live line.

import { button, el } from "./dom.js";
import { drawForks, hitFork, holdForks } from "./map-forks.js";
import { isolate } from "./node-text.js";
import { FORCED_COLORS, TOKENS, branchPaint, onColoursChange, screenColours } from "./map-colours.js";
import { MAX_ZOOM, NODE_SPACING, SEGMENT_HEIGHT, HIDDEN_ROOT, ON_PATH, PREFERRED, UNIT_X, branchColour, centreOn, clampZoom, fitView, hitTest, locate, neighbour, nodeId, nodePoint, segmentTop, segmentX, segmentsIn } from "./map-model.js";

/** Milliseconds a press must last, unmoved, to show a node's tip (phones). */
export const LONG_PRESS_MS = 500;

/**
 * The map view. `element` goes into the page; `setModel` gives it a model.
 * @param {{preview: (id: string) => void, jump: (id: string) => void, describe: (id: string) => Promise<{role: string, text: string}|null>,
 *   resolve?: (seg: number, off: number, first: string) => Promise<string|null>,
 *   openFamily?: (sessionId: string, nodeId: string|null) => void}} host what a click, Enter and a tip ask of the page;
 *   resolve finds the id of a node inside a run the model does not know; openFamily opens a hung fork (map-forks.js)
 */
export class MapView {
  constructor(host) {
    this.host = host;
    this.model = null;
    this.view = { zoom: 1, x: 0, y: 0 };
    this.at = null; // the focused node {seg, off}
    this.previewId = null;
    /** The forks hung beside the map (map-forks.js hangForks), or null. */
    this.hung = null;
    this._hoverFork = null;
    /** Counts the tips asked for: a tip read after a later one was asked, or after a hide, is not shown. */
    this._tipAsked = 0;
    this._touched = false; // the user moved the view since it was fitted
    /** Called after each frame with (ctx, colours), to draw on top (map-family.js). */
    this.afterDraw = null;
    this._pointers = new Map();
    this.element = el("div", "map-view");
    const bar = el("div", "map-bar");
    this.fitButton = button("map-button", "Fit", "Fit the whole map");
    this.cursorButton = button("map-button", "Go to cursor", "Centre the map on the cursor");
    this.zoomIn = button("map-button", "+", "Zoom in");
    this.zoomOut = button("map-button", "−", "Zoom out");
    bar.append(this.fitButton, this.cursorButton, this.zoomOut, this.zoomIn);
    this.canvas = el("canvas", "map-canvas");
    this.canvas.tabIndex = 0;
    this.canvas.setAttribute("role", "application");
    this.canvas.setAttribute("aria-roledescription", "tree map");
    this.canvas.setAttribute("aria-label", "Session map: arrows move between nodes, Enter jumps, + and − zoom, 0 fits, c goes to the cursor");
    this.tip = el("div", "map-tip");
    this.tip.hidden = true;
    this.live = el("p", "map-live");
    this.live.setAttribute("aria-live", "polite");
    this.probe = el("span", "map-probe");
    this.element.append(bar, this.canvas, this.tip, this.live, this.probe);
    this._wire();
  }

  /**
   * Show a model (buildMapModel). The view is fitted the first time and
   * kept when the same session is shown again (an append, a label).
   * @param {object|null} model @param {{previewId?: string|null}} [options]
   */
  setModel(model, { previewId = null } = {}) {
    const same = this.model && model && this.model.sessionId === model.sessionId;
    this.model = model;
    this.previewId = previewId;
    if (!model) return this.schedule();
    if (!same) this.hung = null;
    if (!same || !this.at || this.at.seg >= model.count) {
      this.at = model.cursor ? { seg: model.cursor.segment, off: model.cursor.offset } : model.count > 0 ? { seg: 0, off: 0 } : null;
      this._needsFit = true;
      this._touched = false;
    }
    this.schedule();
  }

  /**
   * Hang forks beside the map (map-forks.js hangForks of this model), or
   * none (null). The world grows to hold them; a view the user has not
   * moved since it was fitted is fitted again.
   * @param {{forks: object[], right: number, bottom: number}|null} hung
   */
  setForks(hung) {
    this.hung = hung;
    const m = this.model;
    if (m && hung) {
      holdForks(m, hung);
      if (!this._touched) this._needsFit = true;
    }
    this.schedule();
  }

  /** Fit the whole map in the canvas. */
  fit() {
    this._touched = false;
    if (!this.model) return;
    const { w, h } = this._size();
    this.view = fitView(this.model, w, h);
    this.schedule();
  }

  /** Centre the map on the cursor (zooming in until its run's nodes are apart) and focus it. */
  goToCursor() {
    const c = this.model?.cursor;
    if (!c) return;
    this.at = { seg: c.segment, off: c.offset };
    const len = this.model.length[c.segment];
    const zoom = Math.min(MAX_ZOOM, Math.max(this.view.zoom, len > 1 ? (NODE_SPACING * 2 * (len - 1)) / SEGMENT_HEIGHT : 1));
    this._centre(this.at, zoom);
    this._announce(this.at);
  }

  /** Zoom by factor about screen point (sx, sy) (the centre by default). */
  zoomBy(factor, sx, sy) {
    const { w, h } = this._size();
    sx ??= w / 2;
    sy ??= h / 2;
    const v = this.view;
    const zoom = clampZoom(v.zoom * factor);
    this._touched = true;
    const wx = v.x + sx / v.zoom;
    const wy = v.y + sy / v.zoom;
    this.view = { zoom, x: wx - sx / zoom, y: wy - sy / zoom };
    this.schedule();
  }

  /** Move the view by (dx, dy) screen px. */
  panBy(dx, dy) {
    this._touched = true;
    const v = this.view;
    this.view = { zoom: v.zoom, x: v.x - dx / v.zoom, y: v.y - dy / v.zoom };
    this.schedule();
  }

  /** World point → screen point (CSS px in the canvas). */
  toScreen(p) {
    const v = this.view;
    return { x: (p.x - v.x) * v.zoom, y: (p.y - v.y) * v.zoom };
  }

  /** Redraw on the next frame. */
  schedule() {
    if (this._frame) return;
    this._frame = requestAnimationFrame(() => {
      this._frame = 0;
      this.draw();
    });
  }

  /** Draw now; returns the milliseconds it took (bench/map.mjs reads it). */
  draw() {
    const t0 = performance.now();
    const { w, h } = this._size();
    const dpr = globalThis.devicePixelRatio || 1;
    const c = this.canvas;
    if (c.width !== Math.round(w * dpr) || c.height !== Math.round(h * dpr)) {
      c.width = Math.round(w * dpr);
      c.height = Math.round(h * dpr);
    }
    const ctx = c.getContext("2d");
    const col = this._colours();
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = col["--surface"];
    ctx.fillRect(0, 0, w, h);
    const m = this.model;
    if (!m || m.count === 0 || w === 0) return performance.now() - t0;
    if (this._needsFit) {
      this._needsFit = false;
      this.view = fitView(m, w, h);
    }
    const v = this.view;
    const segs = segmentsIn(m, v.x, v.y, v.x + w / v.zoom, v.y + h / v.zoom);
    this._drawLines(ctx, segs, col);
    this._drawNodes(ctx, segs, col);
    this._drawTexts(ctx, segs, col, w, h);
    if (this.hung) drawForks(ctx, this.hung, (p) => this.toScreen(p), col, this._hoverFork);
    this.afterDraw?.(ctx, col);
    return performance.now() - t0;
  }

  // ------------------------------------------------------------- drawing

  // Lines and nodes are gathered in one Path2D per style (pass, colour, dimmed) and
  // stroked or filled once each: one stroke per segment costs tens of ms at 2,000 segments.
  _drawLines(ctx, segs, col) {
    const m = this.model;
    const groups = new Map();
    const add = (key, style, from, a, b) => {
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { ...style, path: new Path2D() }));
      if (from) {
        g.path.moveTo(from.x, from.y);
        g.path.lineTo(a.x, a.y);
      }
      g.path.moveTo(a.x, a.y);
      g.path.lineTo(b.x, b.y);
    };
    for (const s of segs) {
      const flags = m.flags[s];
      const x = segmentX(m, s);
      const p = m.parent[s];
      const from = p < 0 ? null : this.toScreen(nodePoint(m, p, m.length[p] - 1));
      const a = this.toScreen({ x, y: segmentTop(m, s) });
      const b = this.toScreen(nodePoint(m, s, m.length[s] - 1));
      if ((flags & ON_PATH) !== 0) {
        const end = m.cursor?.segment === s ? this.toScreen(nodePoint(m, s, m.cursor.offset)) : b;
        add("path", { colour: col["--accent"], alpha: col.forced ? 1 : 0.35, width: 9, order: 0 }, from, a, end);
      } else if ((flags & PREFERRED) !== 0) {
        add("pref", { colour: col["--pref"], alpha: col.forced ? 1 : 0.3, width: 9, order: 0 }, from, a, b);
      }
      const hidden = (flags & HIDDEN_ROOT) !== 0;
      const c = branchColour(m.branch[s]);
      add(`b${c}${hidden ? "h" : ""}`, { ...branchPaint(col, c, hidden), width: 2.5, dash: hidden, order: 1 }, from, a, b);
    }
    ctx.lineCap = "round";
    for (const g of [...groups.values()].sort((x, y) => x.order - y.order)) {
      ctx.strokeStyle = g.colour;
      ctx.globalAlpha = g.alpha;
      ctx.lineWidth = g.width;
      ctx.setLineDash(g.dash ? [4, 4] : []);
      ctx.stroke(g.path);
    }
    ctx.globalAlpha = 1;
    ctx.setLineDash([]);
  }

  _drawNodes(ctx, segs, col) {
    const m = this.model;
    const { h } = this._size();
    const groups = new Map();
    for (const s of segs) {
      const len = m.length[s];
      const hidden = (m.flags[s] & HIDDEN_ROOT) !== 0;
      const c = branchColour(m.branch[s]);
      const key = `${c}${hidden ? "h" : ""}`;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { ...branchPaint(col, c, hidden), path: new Path2D() }));
      const step = len > 1 ? (SEGMENT_HEIGHT / (len - 1)) * this.view.zoom : Infinity;
      let offs = len > 1 ? [0, len - 1] : [0];
      if (len > 2 && step >= NODE_SPACING) {
        // Only the nodes inside the window.
        const top = this.toScreen({ x: 0, y: segmentTop(m, s) }).y;
        const lo = Math.max(0, Math.floor(-top / step));
        const hi = Math.min(len - 1, Math.ceil((h - top) / step));
        offs = [];
        for (let k = lo; k <= hi; k++) offs.push(k);
      }
      const r = step >= NODE_SPACING ? 4 : 3;
      for (const off of offs) {
        const p = this.toScreen(nodePoint(m, s, off));
        g.path.moveTo(p.x + r, p.y);
        g.path.arc(p.x, p.y, r, 0, Math.PI * 2);
      }
    }
    for (const g of groups.values()) {
      ctx.fillStyle = g.colour;
      ctx.globalAlpha = g.alpha;
      ctx.fill(g.path);
    }
    ctx.globalAlpha = 1;
    this._ring(m.cursor && { seg: m.cursor.segment, off: m.cursor.offset }, col["--accent"], 7, true);
    const pv = this.previewId === null ? null : locate(m, this.previewId);
    this._ring(pv, col["--mark"], 9, false, 4);
    this._ring(this.at, col["--text"], 11, false, 1.5);
  }

  _ring(at, colour, r, fill, width = 2.5) {
    if (!at) return;
    const ctx = this.canvas.getContext("2d");
    const p = this.toScreen(nodePoint(this.model, at.seg, at.off));
    ctx.beginPath();
    ctx.arc(p.x, p.y, r, 0, Math.PI * 2);
    ctx.lineWidth = width;
    ctx.strokeStyle = colour;
    if (fill) {
      ctx.fillStyle = colour;
      ctx.arc(p.x, p.y, r - 3, 0, Math.PI * 2);
      ctx.fill();
    }
    ctx.stroke();
  }

  _drawTexts(ctx, segs, col, w, h) {
    const m = this.model;
    const roomy = this.view.zoom * UNIT_X >= 56;
    ctx.textBaseline = "middle";
    const text = (s, off, str, colour, dx, dy, font = "12px system-ui, sans-serif") => {
      const p = this.toScreen(nodePoint(m, s, off));
      if (p.x < -200 || p.x > w + 200 || p.y < -20 || p.y > h + 20) return;
      ctx.font = font;
      ctx.fillStyle = colour;
      ctx.fillText(str, p.x + dx, p.y + dy);
    };
    for (const s of segs) {
      const len = m.length[s];
      if (roomy && len > 2) text(s, Math.floor((len - 1) / 2), len.toLocaleString("en-US"), col["--muted"], 8, 0, "11px system-ui, sans-serif");
      if (m.hiddenCount.has(s)) {
        // A collapsed hidden branch: its name (dimmed) and how many nodes it hides.
        const name = m.branches[m.branch[s]];
        text(s, len - 1, `${clip(name, 12)} · ${m.hiddenCount.get(s).toLocaleString("en-US")} hidden`, col["--muted"], -14, 18);
        continue;
      }
      for (const t of m.tipsOf.get(s) ?? []) {
        if (roomy || (m.flags[s] & ON_PATH) !== 0) text(s, t.off, clip(t.text, 16), col[`--branch-${branchColour(m.branch[s])}`], -14, 18, "600 12px system-ui, sans-serif");
      }
      if (roomy) for (const l of m.labelsOf.get(s) ?? []) text(s, l.off, `◆ ${clip(l.text, 18)}`, col["--text"], 10, -2);
    }
    if (m.preferred) text(m.preferred.segment, m.preferred.offset, "★", col["--pref"], 9, -9, "16px system-ui, sans-serif");
  }

  // --------------------------------------------------------------- input

  _wire() {
    const c = this.canvas;
    this.fitButton.addEventListener("click", () => this.fit());
    this.cursorButton.addEventListener("click", () => this.goToCursor());
    this.zoomIn.addEventListener("click", () => this.zoomBy(1.5));
    this.zoomOut.addEventListener("click", () => this.zoomBy(1 / 1.5));
    c.addEventListener("wheel", (e) => {
      e.preventDefault();
      const r = c.getBoundingClientRect();
      this.zoomBy(Math.exp(-e.deltaY / 300), e.clientX - r.left, e.clientY - r.top);
    }, { passive: false });
    c.addEventListener("pointerdown", (e) => this._down(e));
    c.addEventListener("pointermove", (e) => this._move(e));
    for (const type of ["pointerup", "pointercancel"]) c.addEventListener(type, (e) => this._up(e));
    c.addEventListener("pointerleave", () => this._hideTip());
    c.addEventListener("dblclick", async (e) => {
      const hit = this._hit(e);
      const id = hit && (await this._idOf(hit));
      if (id) this.host.jump(id);
    });
    c.addEventListener("keydown", (e) => this._key(e));
    new ResizeObserver(() => this.schedule()).observe(c);
    onColoursChange(() => this.schedule());
  }

  _hit(e) {
    if (!this.model) return null;
    const r = this.canvas.getBoundingClientRect();
    const v = this.view;
    return hitTest(this.model, v.x + (e.clientX - r.left) / v.zoom, v.y + (e.clientY - r.top) / v.zoom, v.zoom, e.pointerType === "touch" ? 20 : 12);
  }

  /** The hung fork under a pointer event (map-forks.js hitFork), or null. */
  _hitFork(e) {
    if (!this.hung) return null;
    const r = this.canvas.getBoundingClientRect();
    const v = this.view;
    return hitFork(this.hung, v.x + (e.clientX - r.left) / v.zoom, v.y + (e.clientY - r.top) / v.zoom, v.zoom, e.pointerType === "touch" ? 20 : 12);
  }

  _down(e) {
    this.canvas.setPointerCapture?.(e.pointerId);
    this._pointers.set(e.pointerId, { x: e.clientX, y: e.clientY, startX: e.clientX, startY: e.clientY });
    this._moved = false;
    clearTimeout(this._press);
    this._hideTip(); // a press acts on the node: its card would cover what it opens
    if (this._pointers.size === 1) this._press = setTimeout(() => !this._moved && this._showTip(e), LONG_PRESS_MS);
  }

  _move(e) {
    const p = this._pointers.get(e.pointerId);
    if (!p) {
      if (e.pointerType === "mouse") this._showTip(e);
      return;
    }
    if (Math.hypot(e.clientX - p.startX, e.clientY - p.startY) > 4) this._moved = true;
    if (this._pointers.size === 2) {
      const [a, b] = [...this._pointers.values()];
      const before = Math.hypot(a.x - b.x, a.y - b.y);
      p.x = e.clientX;
      p.y = e.clientY;
      const after = Math.hypot(a.x - b.x, a.y - b.y);
      const r = this.canvas.getBoundingClientRect();
      if (before > 0) this.zoomBy(after / before, (a.x + b.x) / 2 - r.left, (a.y + b.y) / 2 - r.top);
      return;
    }
    this.panBy(e.clientX - p.x, e.clientY - p.y);
    p.x = e.clientX;
    p.y = e.clientY;
  }

  /**
   * The id of node `at`: a segment's ends are in the model, a node inside
   * a run comes from host.resolve when the host has it (the panel asks the
   * store when its rows are not read). Null when unknown.
   * @param {{seg: number, off: number}} at @returns {Promise<string|null>}
   */
  async _idOf(at) {
    const m = this.model;
    if (!m) return null;
    return nodeId(m, at.seg, at.off) ?? (await this.host.resolve?.(at.seg, at.off, m.first[at.seg])) ?? null;
  }

  async _up(e) {
    const had = this._pointers.delete(e.pointerId);
    clearTimeout(this._press);
    if (!had || this._moved || this._pointers.size > 0 || e.type === "pointercancel") return;
    const hit = this._hit(e);
    if (!hit) {
      const f = this._hitFork(e);
      if (f) this.host.openFamily?.(f.fork.sessionId, f.nodeId);
      return;
    }
    this.at = hit;
    this.schedule();
    this._announce(hit);
    const id = await this._idOf(hit);
    if (id && this.at === hit) this.host.preview(id);
  }

  _key(e) {
    const dir = { ArrowUp: "parent", ArrowDown: "child", ArrowLeft: "prev", ArrowRight: "next" }[e.key];
    if (dir && this.at) {
      e.preventDefault();
      const next = neighbour(this.model, this.at, dir);
      if (!next) return;
      this.at = next;
      this._follow(next);
      this._announce(next);
      return;
    }
    const action = { Enter: () => this.at && this._jumpAt(), "+": () => this.zoomBy(1.5), "=": () => this.zoomBy(1.5), "-": () => this.zoomBy(1 / 1.5), 0: () => this.fit(), c: () => this.goToCursor() }[e.key];
    if (action && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      action();
    }
  }

  async _jumpAt() {
    const id = await this._idOf(this.at);
    if (id) this.host.jump(id);
  }

  /** Keep node `at` in the window: centre on it when it is out of view. */
  _follow(at) {
    const { w, h } = this._size();
    const p = this.toScreen(nodePoint(this.model, at.seg, at.off));
    if (p.x < 24 || p.y < 24 || p.x > w - 24 || p.y > h - 24) this._centre(at, this.view.zoom);
    else this.schedule();
  }

  _centre(at, zoom) {
    const { w, h } = this._size();
    this.view = centreOn(nodePoint(this.model, at.seg, at.off), w, h, zoom);
    this.schedule();
  }

  async _announce(at) {
    const m = this.model;
    const id = await this._idOf(at);
    const info = id ? await this.host.describe(id) : null;
    const where = `${m.branches[m.branch[at.seg]]}, node ${at.off + 1} of ${m.length[at.seg]} in this run`;
    this.live.textContent = info ? `${info.role}: ${info.text} (${where})` : where;
  }

  /** Hide the tip, and any tip still being read (describe is async). */
  _hideTip() {
    this._tipAsked++;
    this.tip.hidden = true;
  }

  async _showTip(e) {
    const asked = ++this._tipAsked;
    const hit = this._hit(e);
    const fork = hit ? null : this._hitFork(e);
    if ((fork?.fork.sessionId ?? null) !== this._hoverFork) {
      this._hoverFork = fork?.fork.sessionId ?? null;
      this.schedule();
    }
    const id = hit && (await this._idOf(hit));
    const info = id ? await this.host.describe(id) : fork ? { role: `${fork.fork.kind === "clone" ? "Clone" : "Fork"}:`, text: `${isolate(fork.fork.title || fork.fork.sessionId)} — click to open it` } : null;
    if (asked !== this._tipAsked) return; // the pointer moved on, left or pressed meanwhile
    if (!info) {
      this.tip.hidden = true;
      return;
    }
    const r = this.canvas.getBoundingClientRect();
    const box = this.element.getBoundingClientRect();
    this.tip.textContent = "";
    this.tip.append(el("strong", "", info.role), document.createTextNode(` ${info.text}`));
    this.tip.style.left = `${Math.min(e.clientX - box.left + 12, r.width - 220)}px`;
    this.tip.style.top = `${e.clientY - box.top + 14}px`;
    this.tip.hidden = false;
  }

  _size() {
    return { w: this.canvas.clientWidth, h: this.canvas.clientHeight };
  }

  /** The theme's colours as the canvas needs them (system colours under forced colors), kept until the colour scheme changes. */
  _colours() {
    const scheme = `${getComputedStyle(this.element).colorScheme} ${matchMedia("(prefers-color-scheme: dark)").matches} ${matchMedia(FORCED_COLORS).matches}`;
    if (this._cols && this._colsScheme === scheme) return this._cols;
    this._cols = screenColours(this.probe, TOKENS);
    this._colsScheme = scheme;
    return this._cols;
  }
}

/** A text cut to n characters with an ellipsis. */
function clip(text, n) {
  return text.length > n ? `${text.slice(0, n - 1)}…` : text;
}
