// The explorer's session list at any size (issue 24: "10,000 sessions
// scroll smoothly"): the rows are made a page at a time. show() makes the
// first page (and every page up to the row that must be seen, such as the
// selected session); a sentinel row after the last one made is watched
// with an IntersectionObserver, and when it comes within a screen of view
// the next page is made. Making 10,000 rows up front costs the page a long
// task at every keystroke of the filter; a page of PAGE_SIZE costs a few
// milliseconds, and the browser lays out and paints only the rows near the
// view (content-visibility: auto on .session, explorer.css).
//
// Why pages and not a window of recycled rows: the rows have different
// heights (a tool · project line only for imported sessions) and the list
// scrolls in its own box on a desktop but with the whole pane on a phone;
// pages need neither a height per row nor the scrolling element.

/** The rows made at a time. */
export const PAGE_SIZE = 150;

/**
 * A list made a page at a time.
 * @template T
 */
export class PagedList {
  /**
   * @param {HTMLElement} list the <ul> that holds the rows
   * @param {(item: T) => HTMLElement} makeRow makes one row (an <li>)
   * @param {(row: HTMLElement) => string|undefined} [keyOf] names the item a made row shows, so that focus
   *   inside a row goes to the same item's new row when show() makes them again (none: focus is not kept)
   * @param {number} [pageSize] rows made at a time
   */
  constructor(list, makeRow, keyOf = () => undefined, pageSize = PAGE_SIZE) {
    this.list = list;
    this.makeRow = makeRow;
    this.keyOf = keyOf;
    this.pageSize = pageSize;
    /** @type {T[]} */
    this.items = [];
    /** How many rows of items are made. */
    this.made = 0;
    this.sentinel = document.createElement("li");
    this.sentinel.className = "list-more";
    this.sentinel.setAttribute("aria-hidden", "true");
    this.observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) this.more();
    }, { rootMargin: "100% 0px" });
  }

  /**
   * Show items: the first page, and every page up to index `upTo` (the
   * row that must be in the list, e.g. the selected one; -1 for none).
   * With `keep` (a refresh of the same list) as many rows as were made
   * before instead, wherever `upTo` is: a session selected before an import
   * of 60,000 newer ones is then its last row, and following it made them all.
   * @param {T[]} items
   * @param {number} [upTo]
   * @param {{keep?: boolean}} [options]
   */
  show(items, upTo = -1, { keep = false } = {}) {
    const before = this.made;
    // Focus inside a row (a session opened with Enter makes the rows again): its class and row's key.
    const focused = document.activeElement;
    const row = this.list.contains(focused) ? [...this.list.children].find((li) => li.contains(focused)) : undefined;
    const key = row ? this.keyOf(row) : undefined;
    this.items = items;
    this.made = 0;
    this.observer.disconnect();
    const rows = keep ? before : Math.ceil((upTo + 1) / this.pageSize) * this.pageSize;
    const count = Math.min(items.length, Math.max(this.pageSize, rows));
    this.list.replaceChildren(...this.rows(0, count));
    this.made = count;
    this.watch();
    if (key !== undefined) {
      const again = [...this.list.children].find((li) => this.keyOf(li) === key);
      const classes = [...focused.classList].map((c) => `.${CSS.escape(c)}`).join("");
      const target = row === focused ? again : classes === "" ? undefined : again?.querySelector(classes);
      target?.focus({ preventScroll: true });
    }
  }

  /** Make the next page of rows (called when the sentinel nears the view). */
  more() {
    if (this.made >= this.items.length) return;
    const end = Math.min(this.items.length, this.made + this.pageSize);
    this.sentinel.before(...this.rows(this.made, end));
    this.made = end;
    this.watch();
  }

  /** The rows of items[from, to). */
  rows(from, to) {
    const out = [];
    for (let i = from; i < to; i++) out.push(this.makeRow(this.items[i]));
    return out;
  }

  /** Put the sentinel after the rows while some are still to make. */
  watch() {
    this.observer.disconnect();
    if (this.made < this.items.length) {
      this.list.append(this.sentinel);
      this.observer.observe(this.sentinel);
    } else {
      this.sentinel.remove();
    }
  }
}

/**
 * Whether some of row shows: within the box of each element of clips (the
 * list, a pane that scrolls it) and the window. False for no row.
 * @param {HTMLElement|null} row @param {HTMLElement[]} clips
 */
export function rowInView(row, clips) {
  if (!row) return false;
  const r = row.getBoundingClientRect();
  const boxes = clips.map((e) => e.getBoundingClientRect());
  const top = Math.max(0, ...boxes.map((b) => b.top));
  const bottom = Math.min(globalThis.innerHeight, ...boxes.map((b) => b.bottom));
  return r.height > 0 && r.bottom > top && r.top < bottom;
}

/**
 * Scroll row into view, the least that shows it: nothing when it shows
 * (rowInView) or there is none.
 * @param {HTMLElement|null} row @param {HTMLElement[]} clips
 */
export function revealRow(row, clips) {
  if (row && !rowInView(row, clips)) row.scrollIntoView({ block: "nearest" });
}
