// The map in <session-tree-panel>: the List / Map switch in the toolbar,
// the map view (map-view.js) in the tree column, loaded from core's `map`
// operation (laid out in the store's Worker) whenever the panel's rows
// are reloaded, and the minimap beside the list (list-minimap.js). A click
// on the map previews the node's path in the context pane as a click on a
// row does, Enter or a double click jumps there: the panel's own events
// (`preview`, `select`, `jump`) fire as before. The switch fires `view`
// ({view: "list"|"map"}) so a page can remember it.

import { button, el } from "./dom.js";
import { applyMapDelta, buildMapModel } from "./map-model.js";
import { MapView } from "./map-view.js";
import { ListMinimap } from "./list-minimap.js";
import { FamilyStrip } from "./map-family.js";
import { hangForks, loadForks } from "./map-forks.js";

/** The views of the tree column. */
export const VIEWS = Object.freeze(["list", "map"]);

/** First line of a text, cut to n characters. */
function firstLine(text, n = 120) {
  const line = String(text ?? "").split("\n", 1)[0];
  return line.length > n ? `${line.slice(0, n - 1)}…` : line;
}

/**
 * The panel's map: built once per panel, attached to its shadow root.
 * `view` is "list" or "map"; `mapView` the MapView (read by tests and benches).
 */
export class PanelMap {
  /** @param {HTMLElement & {_shadow: ShadowRoot, _model: object, _tree: object}} panel */
  constructor(panel) {
    this.panel = panel;
    this.view = "list";
    this._value = undefined;
    this._map = null; // the last whole `map` value (its revision is given back)
    this._seq = 0;
    this.mapView = new MapView({
      preview: (id) => this._previewNode(id),
      jump: (id) => panel._actions.jump(id),
      describe: (id) => this._describe(id),
      resolve: (seg, off, first) => this._resolveId(off, first),
      openFamily: (id, nodeId) => panel._emit("family", { openSessionId: id, nodeId }),
    });
    const shadow = panel._shadow; // map.css is adopted with the panel's sheets (panel-styles.js)
    this.switch = el("div", "view-switch");
    this.switch.setAttribute("role", "group");
    this.switch.setAttribute("aria-label", "View");
    // A page that picks the view itself (the explorer's phone tabs) hides it with ::part(view-switch).
    this.switch.setAttribute("part", "view-switch");
    this.buttons = VIEWS.map((v) => {
      const b = button("view-button", v === "list" ? "List" : "Map");
      b.dataset.view = v;
      b.addEventListener("click", () => {
        panel.view = v;
        panel._emit("view", { view: v });
      });
      return b;
    });
    this.switch.append(...this.buttons);
    shadow.querySelector(".tools").append(this.switch);
    const treeCol = shadow.querySelector(".tree-col");
    this.minimap = new ListMinimap(panel._view.scroller, panel._model);
    const listRow = el("div", "list-row");
    treeCol.insertBefore(listRow, panel._view.scroller);
    listRow.append(panel._view.scroller, this.minimap.element);
    this.listRow = listRow;
    this.mapView.element.hidden = true;
    treeCol.insertBefore(this.mapView.element, listRow);
    // The family strip (map-family.js): a click on a member fires `family` ({openSessionId, nodeId}); the page opens it.
    this.family = new FamilyStrip({ open: (id, nodeId) => panel._emit("family", { openSessionId: id, nodeId }), probe: this.mapView.probe });
    this.mapView.element.insertBefore(this.family.element, this.mapView.canvas);
    this.mapView.afterDraw = (ctx, colours) => this.family.themed(colours);
    this.setView("list");
  }

  /** Show the list or the map. @param {"list"|"map"} view */
  setView(view) {
    this.view = VIEWS.includes(view) ? view : "list";
    const map = this.view === "map";
    this.mapView.element.hidden = !map;
    this.listRow.hidden = map;
    for (const b of this.buttons) b.setAttribute("aria-pressed", String(b.dataset.view === this.view));
    if (!map) this.panel._loader?.resumeRows(); // a large session's rows, left while the map showed
    this.update();
  }

  /** After the panel's rows were laid out or reloaded: reload the map when they changed, redraw the minimap. */
  update() {
    const model = this.panel._model;
    this.minimap.update();
    if (this.view !== "map") return;
    if (model.value !== this._value) {
      this._value = model.value;
      this.load();
    } else {
      this.mapView.previewId = model.viewNode;
      this.mapView.schedule();
    }
  }

  /** Ask the Worker for the map of the session shown and draw it. */
  async load() {
    const tree = this.panel._tree;
    const sessionId = this.panel.sessionId;
    const seq = ++this._seq;
    if (!tree || sessionId === null || !tree.hasOperation?.("map")) {
      this.family.set(null, null);
      return this.mapView.setModel(null);
    }
    // The answer shown, given back: an append that only extended runs is answered with what grew.
    const earlier = this._map?.sessionId === sessionId ? this._map : null;
    const env = await tree.call({ operation: "map", sessionId, ...(earlier ? { revision: earlier.revision } : {}) });
    if (seq !== this._seq) return;
    if (!env.ok) {
      this._map = null;
      this.family.set(null, null);
      return this.mapView.setModel(null);
    }
    const value = env.value.delta ? applyMapDelta(earlier, env.value) : env.value;
    this._map = value;
    const model = buildMapModel(value, { idAt: (seg, off, first) => this._idAt(off, first) });
    this.mapView.setModel(model, { previewId: this.panel._model.viewNode });
    await this.loadFamily(tree, sessionId, seq);
  }

  /**
   * Ask for the family of the session shown (core's read-only `family`),
   * show it in the strip, and hang the sessions made from this one beside
   * the map (map-forks.js loadForks, hangForks).
   */
  async loadFamily(tree, sessionId, seq) {
    const got = await loadForks(tree, sessionId, this._map, () => seq !== this._seq);
    if (!got) return;
    this.family.set(got.family, sessionId);
    if (got.map !== this._map) {
      this._map = got.map;
      this.mapView.setModel(buildMapModel(got.map, { idAt: (seg, off, first) => this._idAt(off, first) }), { previewId: this.panel._model.viewNode });
    }
    this.mapView.setForks(got.forks.length > 0 ? hangForks(this.mapView.model, got.forks) : null);
  }

  /** The id of the node `off` places after node `first` in its run, from the panel's rows. */
  _idAt(off, first) {
    const model = this.panel._model;
    const i = model.indexOf?.get(first);
    const rows = model.value?.rows;
    if (i === undefined || !rows) return null;
    const row = rows[i + off];
    return row && row.depth === rows[i].depth + off ? row.id : null;
  }

  /**
   * The id of the node `off` places after node `first` in its run when the
   * panel's rows do not hold it (a large session's rows are not read while
   * the map shows): two one-row `tree.rows` windows, the run's first row
   * and the row `off` after it, checked to be `off` deeper. Null when the
   * session changed meanwhile or the row is not in that run.
   * @param {number} off @param {string} first @returns {Promise<string|null>}
   */
  async _resolveId(off, first) {
    const known = this._idAt(off, first);
    if (known !== null) return known;
    const tree = this.panel._tree;
    const sessionId = this.panel.sessionId;
    if (!tree || sessionId === null) return null;
    const start = await tree.call({ operation: "tree.rows", sessionId, around: first, limit: 1 });
    if (!start.ok || start.value.id[0] !== first) return null;
    const row = await tree.call({ operation: "tree.rows", sessionId, offset: start.value.offset + off, limit: 1 });
    if (!row.ok || row.value.id.length !== 1 || row.value.depth[0] !== start.value.depth[0] + off) return null;
    return row.value.id[0];
  }

  _previewNode(id) {
    const panel = this.panel;
    if (panel._model.rowById.has(id)) panel._setActive(id);
    panel._preview(id);
    this.mapView.previewId = panel._model.viewNode;
    this.mapView.schedule();
  }

  async _describe(id) {
    const row = this.panel._model.rowById.get(id);
    if (row) return { role: row.role ?? row.kind, text: firstLine(row.preview) };
    const node = await this.panel._node(id);
    if (!node) return null;
    const c = node.message?.content;
    const text = typeof c === "string" ? c : Array.isArray(c) ? c.map((p) => p?.text ?? "").join(" ") : node.summary ?? node.kind;
    return { role: node.message?.role ?? node.kind, text: firstLine(text) };
  }
}
