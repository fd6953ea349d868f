// The explorer's pane tabs: below 700 px the page shows one pane at a time
// (sessions, tree, map, context), picked by an ARIA tablist (click, or the arrow
// keys, Home and End with automatic activation; a roving tabindex). The
// tree and context panes are the two columns of <session-tree-panel>,
// shown alone through its pane attribute; explorer.css hides the sessions
// pane or the panel by body[data-pane].

import { isShown } from "./dom.js";

/** Below this width (px) the page shows one pane at a time (explorer.css says the same). */
export const NARROW = "(max-width: 699px)";

/** The panes, in the tabs' order. */
export const PANES = Object.freeze(["sessions", "tree", "map", "context"]);

/**
 * The tabs and the panes they show. Starts on "tree".
 * - `pane` the pane picked ("sessions", "tree" or "context"); on a wide screen every pane shows and the choice waits
 */
export class PaneTabs {
  /**
   * @param {{tabs: HTMLElement, sessions: HTMLElement, panel: HTMLElement & {pane: string}}} parts
   *   tabs: the role=tablist element holding buttons with role=tab and data-pane; sessions: the
   *   sessions pane; panel: the <session-tree-panel>
   */
  constructor({ tabs, sessions, panel }) {
    this.tabs = tabs;
    this.sessions = sessions;
    this.panel = panel;
    this.pane = "tree";
    tabs.addEventListener("click", (e) => {
      const tab = e.target.closest("[role=tab]");
      if (tab) this.show(tab.dataset.pane);
    });
    tabs.addEventListener("keydown", (e) => {
      const i = PANES.indexOf(this.pane);
      const next = { ArrowRight: i + 1, ArrowLeft: i - 1 + PANES.length, Home: 0, End: PANES.length - 1 }[e.key];
      if (next === undefined) return;
      e.preventDefault();
      this.show(PANES[next % PANES.length], { focus: true });
    });
    matchMedia(NARROW).addEventListener("change", () => this.show(this.pane));
    this.show(this.pane);
  }

  /**
   * Show one pane and select its tab. On a narrow screen only that pane
   * shows (body[data-pane], the panel's pane attribute) and the panes are
   * tab panels; on a wide one every pane shows and the choice is kept for
   * when the window narrows. An unknown name is ignored.
   * @param {"sessions"|"tree"|"context"} pane
   * @param {{focus?: boolean}} [options] focus: move the focus to the tab
   */
  show(pane, { focus = false } = {}) {
    if (!PANES.includes(pane)) return;
    this.pane = pane;
    const narrow = matchMedia(NARROW).matches;
    document.body.dataset.pane = pane;
    const { panel, sessions } = this;
    // The map tab is the tree column showing the map (panel-map.js).
    panel.pane = narrow && pane !== "sessions" ? (pane === "map" ? "tree" : pane) : "";
    if (narrow && (pane === "map" || pane === "tree")) panel.view = pane === "map" ? "map" : "list";
    for (const tab of this.tabs.querySelectorAll("[role=tab]")) {
      const on = tab.dataset.pane === pane;
      tab.setAttribute("aria-selected", String(on));
      tab.tabIndex = on ? 0 : -1;
      if (on && focus) tab.focus();
    }
    // Tab panels only while the tabs show.
    if (narrow) {
      sessions.setAttribute("role", "tabpanel");
      sessions.setAttribute("aria-labelledby", "tab-sessions");
      panel.setAttribute("role", "tabpanel");
      panel.setAttribute("aria-labelledby", pane === "context" ? "tab-context" : pane === "map" ? "tab-map" : "tab-tree");
      // Focus in the pane that went (a session chosen in the list, a row
      // tapped) would be on a hidden element, and Tab would start from the
      // page's top: it goes to the new pane's tab, once the panel has drawn it.
      const was = deepActive();
      if (!focus && was !== document.body) requestAnimationFrame(() => this._focusShown(pane, was));
    } else {
      for (const n of [sessions, panel]) {
        n.removeAttribute("role");
        n.removeAttribute("aria-labelledby");
      }
    }
  }

  /**
   * Focus pane's tab when was, the element focused as it was shown, is no
   * longer shown (hidden, or drawn again: gone) and focus has not moved on.
   */
  _focusShown(pane, was) {
    const now = deepActive();
    if (this.pane !== pane || (now !== was && now !== document.body)) return;
    if (was.isConnected && isShown(was)) return;
    this.tabs.querySelector(`[role=tab][data-pane="${pane}"]`)?.focus();
  }
}

/** The focused element, inside shadow roots too (document.body when none). */
function deepActive() {
  let active = document.activeElement ?? document.body;
  while (active.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}
