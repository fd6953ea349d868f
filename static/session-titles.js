// The titles the explorer gives sessions it makes (forks, clones, imported
// copies). No core operation sets a session's title after `create`, so the
// choice is the page's display of the session, kept in localStorage under
// one key as `{sessionId: title}` so a reload (and other tabs) keep it.

/** The localStorage key of the titles. */
export const TITLES_KEY = "sessiontree.explorer.titles";

/**
 * The page's titles over a Storage (localStorage by default). A storage
 * that refuses (private mode, quota) keeps the titles for this page only.
 */
export class SessionTitles {
  /** @param {Storage|null} [storage] */
  constructor(storage = globalThis.localStorage ?? null) {
    this._storage = storage;
    this._titles = new Map();
    try {
      const obj = JSON.parse(storage?.getItem(TITLES_KEY) ?? "{}");
      for (const [id, title] of Object.entries(obj)) if (typeof title === "string") this._titles.set(id, title);
    } catch {
      // Unreadable: start with none.
    }
  }

  /** Whether the page gave session `id` a title. */
  has(id) {
    return this._titles.has(id);
  }

  /**
   * Give session `id` the title `title` and keep it.
   * @param {string} id
   * @param {string} title
   */
  set(id, title) {
    this._titles.set(id, title);
    try {
      this._storage?.setItem(TITLES_KEY, JSON.stringify(Object.fromEntries(this._titles)));
    } catch {
      // Storage refused: the title lasts until reload.
    }
  }

  /**
   * The title shown for a session: the page's own, else the session's,
   * else its id.
   * @param {{sessionId: string, title?: string}} s
   * @returns {string}
   */
  titleOf(s) {
    return this._titles.get(s.sessionId) ?? (s.title || s.sessionId);
  }

  /**
   * The title of a fork or a clone: "<title> (fork at <node id>)" or
   * "<title> (copy)", <title> being what titleOf shows for the source.
   * @param {{sessionId: string, title?: string}|undefined} source undefined: its id stands in
   * @param {string} sourceId
   * @param {string|null} nodeId null for a clone
   * @returns {string}
   */
  copyTitle(source, sourceId, nodeId) {
    const base = source ? this.titleOf(source) : sourceId;
    return nodeId === null ? `${base} (copy)` : `${base} (fork at ${nodeId})`;
  }
}
