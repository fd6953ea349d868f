// The attributes <session-tree-panel> reflects as properties (session-id,
// mode, theme, pane, composer, row-click, view): a base class of the element
// (static/session-tree-panel.js), so the element's file keeps its
// behaviour and this one the plain attribute ⇄ property mapping. Setting a
// property sets the attribute; attributeChangedCallback (the element's)
// reacts to both.

/**
 * HTMLElement in a browser; outside one (a server render, e.g. Next.js
 * prerendering a client component that imports sessiontree/panel) a plain
 * class, so importing the module defines nothing and throws nothing.
 */
const ElementBase = globalThis.HTMLElement ?? class {};

/**
 * The reflected attributes of the session tree panel; extended by
 * SessionTreePanel. Holds no state of its own.
 */
export class PanelAttributes extends ElementBase {
  /** The session shown (attribute session-id); null when none, also for an empty attribute (`session-id={id ?? ""}`). */
  get sessionId() {
    return this.getAttribute("session-id") || null;
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

  /**
   * Which column shows (attribute pane): "tree" or "context" show that one
   * alone (a page's one-pane-at-a-time layout on a small screen); "" (no
   * attribute) shows both, side by side or stacked as the width allows.
   */
  get pane() {
    const p = this.getAttribute("pane");
    return p === "tree" || p === "context" ? p : "";
  }
  set pane(p) {
    if (p === "tree" || p === "context") this.setAttribute("pane", p);
    else this.removeAttribute("pane");
  }

  /** Whether the composer shows under the context (attribute composer, see panel-composer.js). */
  get composer() {
    return this.hasAttribute("composer");
  }
  set composer(on) {
    this.toggleAttribute("composer", Boolean(on));
  }

  /**
   * What a click (or Enter) on a row does (attribute row-click): "preview"
   * (the default) shows its path in the context pane; "jump" moves the
   * session's cursor there (event `jump`), as a chat app's branch switch.
   * Not named "click": React 19 sets a prop that names a property of the
   * element (HTMLElement.click) as that property, never as the attribute.
   */
  get rowClick() {
    return this.getAttribute("row-click") === "jump" ? "jump" : "preview";
  }
  set rowClick(value) {
    if (value === "jump") this.setAttribute("row-click", "jump");
    else this.removeAttribute("row-click");
  }

  /** "list" (default) or "map": what the tree column shows (attribute view; see panel-map.js). */
  get view() {
    return this.getAttribute("view") === "map" ? "map" : "list";
  }
  set view(v) {
    this.setAttribute("view", v === "map" ? "map" : "list");
  }
}

/** The element's settable properties: its own (tree, displayTitle) and the reflected attributes above. */
const PROPERTIES = ["tree", "sessionId", "mode", "theme", "pane", "composer", "rowClick", "view", "displayTitle"];

/**
 * Set again, through the class's setters, the properties a page set on the
 * element before it was defined (an element in the HTML, its module
 * imported later: `panel.tree = tree; await import("sessiontree/panel")`),
 * which sit on the element itself and hide those setters. The "lazy
 * properties" pattern of Google's custom element best practices
 * (web.dev/articles/custom-elements-best-practices).
 * @param {HTMLElement} element
 */
export function adoptEarlyProperties(element) {
  for (const name of PROPERTIES) {
    if (!Object.hasOwn(element, name)) continue;
    const value = element[name];
    delete element[name];
    element[name] = value;
  }
}
