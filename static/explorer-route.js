// The explorer's address: `#session=<id>&node=<id>` names the session shown
// and, optionally, the node whose path the context pane shows. Both ways:
// opening a session or jumping pushes a history entry (so Back and Forward
// walk what the user did; looking at a row's path is not a step), and a
// changed address (a link, Back/Forward, an edited URL) opens what it
// names (`hashchange` and `popstate`). parseRoute and routeHash are
// pure; Router holds the one piece of state (the route last written or
// followed) and talks to the page through the callbacks it is given.

/**
 * The route an address hash names, or null when it names none.
 * `#session=a%20b&node=n1` → {session: "a b", node: "n1"}; node is null
 * when absent; a part that does not decode gives null.
 * @param {string} hash location.hash ("" or starting with "#")
 * @returns {{session: string, node: string|null}|null}
 */
export function parseRoute(hash) {
  const params = new Map();
  for (const part of String(hash ?? "").replace(/^#/, "").split("&")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    try {
      params.set(part.slice(0, eq), decodeURIComponent(part.slice(eq + 1)));
    } catch {
      return null;
    }
  }
  const session = params.get("session");
  if (typeof session !== "string" || session === "") return null;
  const node = params.get("node");
  return { session, node: typeof node === "string" && node !== "" ? node : null };
}

/**
 * The address hash of a route: "#session=<id>" then "&node=<id>" when it
 * names a node, each encoded with encodeURIComponent.
 * @param {{session: string, node?: string|null}} route
 * @returns {string}
 */
export function routeHash(route) {
  const node = route.node ? `&node=${encodeURIComponent(route.node)}` : "";
  return `#session=${encodeURIComponent(route.session)}${node}`;
}

/** Whether two routes name the same session and node. */
function sameRoute(a, b) {
  return a !== null && b !== null && a.session === b.session && (a.node ?? null) === (b.node ?? null);
}

/**
 * Keeps the address and the page in step.
 * `open(route)` is called when the address changes to a route the page
 * does not show (it selects the session and shows the node's path);
 * errors it throws or rejects with are given to `onError`.
 */
export class Router {
  /**
   * @param {{open: (route: {session: string, node: string|null}) => Promise<void>|void, onError?: (err: unknown) => void, window?: Window}} options
   */
  constructor({ open, onError = (err) => console.warn("sessiontree: could not open the address:", err), window: win = globalThis.window }) {
    this._open = open;
    this._onError = onError;
    this._win = win;
    this._shown = null;
    this._follow = () => this._followAddress();
  }

  /** The route the address names now (null for none). */
  current() {
    return parseRoute(this._win.location.hash);
  }

  /** Start following `hashchange` and `popstate`. */
  start() {
    this._win.addEventListener("hashchange", this._follow);
    this._win.addEventListener("popstate", this._follow);
  }

  /** Stop following the address. */
  stop() {
    this._win.removeEventListener("hashchange", this._follow);
    this._win.removeEventListener("popstate", this._follow);
  }

  /**
   * The page now shows route because the user did something (opened a
   * session, jumped): a new history entry, unless the address already
   * names it.
   * @param {{session: string, node?: string|null}} route
   */
  push(route) {
    this._write(route, "pushState");
  }

  /**
   * The page now shows route without a step of its own worth going back
   * to (the first session at start): the current history entry is
   * replaced.
   * @param {{session: string, node?: string|null}} route
   */
  replace(route) {
    this._write(route, "replaceState");
  }

  /**
   * The page shows no session any more (the one shown was moved to the
   * trash, here or in another tab): the address stops naming it, in the
   * current history entry, so a reload does not look for it.
   */
  clear() {
    this._shown = null;
    if (this.current() === null) return;
    const { pathname, search } = this._win.location;
    this._win.history.replaceState(null, "", `${pathname ?? ""}${search ?? ""}`);
  }

  _write(route, how) {
    const r = { session: route.session, node: route.node ?? null };
    this._shown = r;
    if (sameRoute(parseRoute(this._win.location.hash), r)) return;
    this._win.history[how](null, "", routeHash(r));
  }

  async _followAddress() {
    const r = this.current();
    if (r === null || sameRoute(r, this._shown)) return;
    this._shown = r;
    try {
      await this._open(r);
    } catch (err) {
      this._onError(err);
    }
  }
}

/**
 * Keep the address on the panel's cursor as the user moves it: a jump is
 * a history entry (Back shows the session as it was before it); a message
 * sent or a branch made moves the cursor with no step of its own, so the
 * current entry follows it (a reload opens there, not at a search hit
 * opened before).
 * @param {HTMLElement} panel the <session-tree-panel> (its `jump`, `append` and `branch` events)
 * @param {() => Router|null} route the page's router, once it has one
 */
export function followCursor(panel, route) {
  const at = (how, e, node) => e.detail.sessionId && route()?.[how]({ session: e.detail.sessionId, node });
  // A send or a branch follows within the session the address names, never into another.
  const within = (e, node) => route()?.current()?.session === e.detail.sessionId && at("replace", e, node);
  panel.addEventListener("jump", (e) => at("push", e, e.detail.nodeId));
  panel.addEventListener("append", (e) => within(e, e.detail.nodeId));
  panel.addEventListener("branch", (e) => within(e, e.detail.summaryNodeId ?? e.detail.nodeId));
}

/**
 * What the page says of an address naming a session that is not here
 * (trashed, erased, or another browser's): "" for no address or one that
 * is here. A page opened at such an address shows another session and
 * says this, as openAddress does for one typed later.
 * @param {{session: string}|null} route
 * @param {(id: string) => boolean} has whether a session is here
 * @returns {string}
 */
export function missingSession(route, has) {
  return route && !has(route.session) ? `This address names a session that is not here: ${route.session}` : "";
}

/**
 * Open what an address names in the explorer: its session, then the path
 * to its node (selected, scrolled to and shown in the context pane) or,
 * without one, the cursor's path. A session or node that is not there is
 * said in the status line, and nothing else changes.
 * @param {{session: string, node: string|null}} route
 * @param {{has: (id: string) => boolean, selected: () => string|null, select: (id: string) => Promise<void>, panel: HTMLElement, status: (text: string) => void}} page
 * @returns {Promise<void>}
 */
export async function openAddress({ session, node }, page) {
  if (!page.has(session)) return page.status(missingSession({ session }, page.has));
  if (page.selected() !== session) await page.select(session);
  const { panel } = page;
  await panel.updateComplete;
  if (node === null) return panel.previewNode(null);
  // A large session's rows may still be loading: once more after they are in.
  if (!panel.focusNode(node) && !(await panel.updateComplete, panel.focusNode(node))) return page.status(`This address names a node that is not in ${session}: ${node}`);
  panel.previewNode(node);
}
