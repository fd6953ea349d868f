// The minimap beside the list tree: the whole session's rows, one pixel
// row per slice of rows (coloured by branch, indented by depth, the
// cursor's path marked), with the list's visible window as a frame. A
// click or a drag scrolls the list there. The rows are drawn to an
// offscreen canvas once per layout; a scroll only redraws the frame.

import { el } from "./dom.js";
import { onColoursChange, screenColours } from "./map-colours.js";

/** Width of the minimap, CSS px. */
export const MINIMAP_WIDTH = 44;

export class ListMinimap {
  /**
   * @param {HTMLElement} scroller the list's scroller
   * @param {{layout: {items: object[]}, branchNames: Set<string>}} model the panel's RowsController
   */
  constructor(scroller, model) {
    this.scroller = scroller;
    this.model = model;
    this.element = el("canvas", "minimap");
    this.element.setAttribute("aria-hidden", "true");
    this.element.title = "Minimap: click to scroll the list there";
    /** Where the minimap reads the theme's colours (see screenColours). */
    this.probe = el("span", "map-probe");
    this._items = null;
    scroller.addEventListener("scroll", () => this.schedule());
    const go = (e) => {
      const r = this.element.getBoundingClientRect();
      const f = Math.min(1, Math.max(0, (e.clientY - r.top) / r.height));
      scroller.scrollTop = f * scroller.scrollHeight - scroller.clientHeight / 2;
    };
    this.element.addEventListener("pointerdown", (e) => {
      this.element.setPointerCapture?.(e.pointerId);
      this._dragging = true;
      go(e);
    });
    this.element.addEventListener("pointermove", (e) => this._dragging && go(e));
    this.element.addEventListener("pointerup", () => (this._dragging = false));
    new ResizeObserver(() => {
      this._items = null;
      this.schedule();
    }).observe(this.element);
    onColoursChange(() => this.update());
  }

  /** The list was laid out again: redraw the rows. */
  update() {
    this._items = null;
    this.schedule();
  }

  schedule() {
    if (this._frame) return;
    this._frame = requestAnimationFrame(() => {
      this._frame = 0;
      this.draw();
    });
  }

  /** The frame's top and bottom as fractions of the list (read by tests). */
  get frame() {
    const s = this.scroller;
    const h = s.scrollHeight || 1;
    return { top: s.scrollTop / h, bottom: Math.min(1, (s.scrollTop + s.clientHeight) / h) };
  }

  draw() {
    const c = this.element;
    const w = c.clientWidth;
    const h = c.clientHeight;
    if (w === 0 || h === 0) return;
    const dpr = globalThis.devicePixelRatio || 1;
    if (c.width !== Math.round(w * dpr) || c.height !== Math.round(h * dpr)) {
      c.width = Math.round(w * dpr);
      c.height = Math.round(h * dpr);
      this._items = null;
    }
    const ctx = c.getContext("2d");
    const items = this.model.layout?.items ?? [];
    if (this._items !== items) {
      this._rows = this._drawRows(items, c.width, c.height);
      this._items = items;
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, c.width, c.height); // what was drawn before (another session's rows) goes
    if (items.length === 0) return; // no session: no rows, no frame
    ctx.drawImage(this._rows, 0, 0);
    const f = this.frame;
    if (!this.probe.isConnected) this.element.after(this.probe);
    const accent = screenColours(this.probe, ["--accent"])["--accent"];
    ctx.globalAlpha = 0.18;
    ctx.fillStyle = accent;
    ctx.fillRect(0, f.top * c.height, c.width, Math.max(3 * dpr, (f.bottom - f.top) * c.height));
    ctx.globalAlpha = 1;
    ctx.strokeStyle = accent;
    ctx.lineWidth = dpr;
    ctx.strokeRect(dpr / 2, f.top * c.height + dpr / 2, c.width - dpr, Math.max(3 * dpr, (f.bottom - f.top) * c.height) - dpr);
  }

  /** The rows drawn once, to an offscreen canvas of w×h device px: one sample row per pixel row. */
  _drawRows(items, w, h) {
    const off = new OffscreenCanvas(Math.max(1, w), Math.max(1, h));
    const ctx = off.getContext("2d");
    if (!this.probe.isConnected) this.element.after(this.probe);
    const cols = screenColours(this.probe, [0, 1, 2, 3, 4, 5, 6, 7].map((i) => `--branch-${i}`));
    const colours = Object.values(cols);
    const names = [...(this.model.branchNames ?? [])];
    const n = items.length;
    if (n === 0) return off;
    const maxDepth = 24;
    for (let y = 0; y < h; y++) {
      const item = items[Math.min(n - 1, Math.floor((y / h) * n))];
      if (item.type !== "node") continue;
      const row = item.row;
      const depth = Math.min(maxDepth, (item.guide?.length ?? 0) / 2);
      ctx.fillStyle = colours[Math.max(0, names.indexOf(row.branch)) % 8];
      ctx.globalAlpha = row.onPath ? 1 : 0.55;
      const x = (depth / maxDepth) * w * 0.5;
      ctx.fillRect(x, y, Math.max(2, w * 0.45), Math.max(1, h / n));
    }
    return off;
  }
}
