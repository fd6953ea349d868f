// The explorer's choice of list or map for the tree column (the panel's
// List / Map switch, panel-map.js), remembered in localStorage across
// visits. On a phone the pane tabs pick the view instead (explorer-panes.js).
// A session chosen in the map's family strip opens as an address naming it.

import { NARROW } from "./explorer-panes.js";

/** The localStorage key of the remembered view. */
export const VIEW_KEY = "sessiontree.explorer.view";

/**
 * Give the panel the remembered view (on a wide screen) and remember each
 * change made with its switch. localStorage may be unavailable (a private
 * window, a policy): then nothing is remembered.
 * @param {HTMLElement & {view: string}} panel the explorer's <session-tree-panel>
 */
export function rememberView(panel) {
  let saved = null;
  try {
    saved = localStorage.getItem(VIEW_KEY);
  } catch {
    saved = null;
  }
  if ((saved === "map" || saved === "list") && !matchMedia(NARROW).matches) panel.view = saved;
  panel.addEventListener("view", (e) => {
    try {
      localStorage.setItem(VIEW_KEY, e.detail.view);
    } catch {
      // Not remembered; the view still changes.
    }
  });
}

/**
 * Open the session the map's family strip chose (the panel's `family`
 * event) at the node linking it to the one shown, as an address naming
 * them opens (open), then add that step to the history (push).
 * @param {HTMLElement} panel the explorer's <session-tree-panel>
 * @param {(route: {session: string, node: string|null}) => Promise<void>} open
 * @param {(route: {session: string, node: string|null}) => void} push
 */
export function openFamilyMembers(panel, open, push) {
  panel.addEventListener("family", async (e) => {
    const route = { session: e.detail.openSessionId, node: e.detail.nodeId ?? null };
    await open(route);
    push(route);
  });
}
