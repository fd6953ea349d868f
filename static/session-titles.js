// The titles the explorer gives sessions it makes (forks, clones, imported
// copies), kept in localStorage under one key as `{sessionId: title}` so a
// reload (and other tabs) keep them. A title the user gives a session goes
// to core instead (`rename`, session-actions.js), and the page's own title
// of that session is forgotten (forget), so the one the user gave shows.

import { closeBidi } from "./node-text.js";

/** The most characters (UTF-16 code units, fewer than core counts) a title made here has: core's MaxTitleLength. */
const MAX_TITLE = 1000;

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
    this._save();
  }

  /**
   * Forget the title the page gave session `id` (the session's own shows).
   * @param {string} id
   */
  forget(id) {
    if (this._titles.delete(id)) this._save();
  }

  /** Keep the titles; a storage that refuses keeps them for this page only (until reload). */
  _save() {
    try {
      this._storage?.setItem(TITLES_KEY, JSON.stringify(Object.fromEntries(this._titles)));
    } catch {
      // Storage refused.
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
   * The title of a fork or a clone: "<title> (fork)" or "<title> (copy)",
   * numbered from 2 ("<title> (copy 2)") when another session already has
   * that title, <title> being what titleOf shows for the source without
   * the same kind's suffix (a copy of "Trip (copy)" is "Trip (copy 2)", not
   * "Trip (copy) (copy)"), cut with "…" so that the whole is at most 1,000
   * characters. Like a file manager's copies.
   * @param {{sessionId: string, title?: string}|undefined} source undefined: its id stands in
   * @param {string} sourceId
   * @param {"fork"|"copy"} kind
   * @param {Iterable<{sessionId: string, title?: string}>} [sessions] the sessions whose titles are taken
   * @returns {string}
   */
  copyTitle(source, sourceId, kind, sessions = []) {
    const taken = new Set();
    for (const s of sessions) taken.add(this.titleOf(s));
    let base = source ? this.titleOf(source) : sourceId;
    const own = new RegExp(` \\(${kind}(?: [0-9]+)?\\)$`);
    if (own.test(base) && base.replace(own, "") !== "") base = base.replace(own, "");
    for (let n = 1; ; n++) {
      const suffix = n === 1 ? ` (${kind})` : ` (${kind} ${n})`;
      // Within core's 1,000 characters (rename refuses more), the base cut with "…"; the
      // controls the base leaves open closed before the suffix (closeBidi: a U+202E would turn it backwards).
      let head = closeBidi(base);
      if (head.length + suffix.length > MAX_TITLE) {
        let n = MAX_TITLE - suffix.length - 1;
        do head = closeBidi(base.slice(0, n--)) + "…";
        while (head.length + suffix.length > MAX_TITLE);
      }
      const title = head + suffix;
      if (!taken.has(title)) return title;
    }
  }
}
