// The viewer of a sessiontree share file (share-export.js builds the file
// and inlines this script as its only script; a CSP hash allows nothing
// else). A classic script with no imports: from file:// a page can load
// nothing, so everything it needs is here or in the file.
//
// It reads the session's rows from the JSON element #share-data (see
// shareRows in share-export.js for their fields), draws every node as a row
// of the tree (#tree), shows the path from the root to the selected node
// in the context pane (#context) by cloning the node articles the export
// rendered and sanitized (#all-nodes), and searches every node's text
// (#share-search): a case- and accent-insensitive match of every word of
// the query, as a substring or, past 3 characters, as a word of the text
// within the store's typo allowance, the matches listed (#search-results)
// and marked in the tree. Text reaches the DOM only through textContent; nothing is
// fetched.
//
// The address follows the selection ("#node=<id>"), so a link can open the
// file at one node.
//
// Keyboard: ↑/↓ move through the tree rows, Home/End to the first/last;
// in the search box ↓ goes to the results and Enter opens the first;
// Escape clears the search.
//
// The search's pure parts (folding, the typo distance, the vocabulary)
// come first; the viewer, which reads the page, is the function after.

"use strict";

/** Lower-case, accents removed (NFD without combining marks). */
function fold(s) {
  return s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/**
 * A folded copy of text with, for each UTF-16 unit of it, where its
 * character starts and ends in text (to map a match back).
 * @param {string} text
 * @returns {{folded: string, starts: number[], ends: number[]}}
 */
function foldMap(text) {
  let out = "";
  const starts = [];
  const ends = [];
  let at = 0;
  for (const ch of text) {
    const f = fold(ch);
    out += f;
    for (let u = 0; u < f.length; u++) {
      starts.push(at);
      ends.push(at + ch.length);
    }
    at += ch.length;
  }
  return { folded: out, starts, ends };
}

/**
 * Edits a query word of n characters may be away from a word of the
 * text of l characters, as the store's search allows them
 * (core/internal/search/distance.go allowance): none for queries of up
 * to 3 characters, else 1 when the longer word has up to 7, 2 beyond.
 */
function typoAllowance(n, l) {
  if (n <= 3) return 0;
  return Math.max(n, l) <= 7 ? 1 : 2;
}

/**
 * s as its characters (code points), as the store's search counts them:
 * s itself when it holds no surrogate (its UTF-16 units are then its
 * characters), else an array of them.
 * @param {string} s
 * @returns {string|string[]}
 */
function chars(s) {
  return /[\uD800-\uDFFF]/.test(s) ? Array.from(s) : s;
}

/**
 * The optimal string alignment distance of a and b (insertions,
 * deletions, substitutions and the transposition of two adjacent
 * characters, each 1; Damerau's typos) when at most max, else max + 1.
 * Compares the characters of folded words (see chars).
 * @param {string|string[]} a @param {string|string[]} b
 */
function typoDistance(a, b, max) {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2 = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let least = i;
    for (let j = 1; j <= b.length; j++) {
      let v = Math.min(prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1), prev[j] + 1, cur[j - 1] + 1);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      cur[j] = v;
      least = Math.min(least, v);
    }
    if (least > max) return max + 1;
    prev2 = prev;
    prev = cur;
  }
  return Math.min(prev[b.length], max + 1);
}

/**
 * Whether a query word w (folded) is the start of word within one edit, a
 * word being typed with a typo in it ("compct" for "compaction"), as the
 * store's search takes it (core/internal/search/distance.go prefixTypo):
 * w of 5 or more characters, word's first two its own, and one of word's
 * prefixes of w's length, one more or one less (shorter than word) within
 * one edit of w. Both as chars gives them.
 * @param {string|string[]} w @param {string|string[]} word
 */
function prefixTypo(w, word) {
  const n = w.length;
  if (n < 5 || word.length < n || word[0] !== w[0] || word[1] !== w[1]) return false;
  return [n, n + 1, n - 1].some((m) => m < word.length && typoDistance(w, word.slice(0, m), 1) <= 1);
}

/**
 * The words of a viewer's folded texts and the rows holding each, read
 * once (the first search of a word past 3 characters), for the typos of
 * a query word.
 */
class Vocabulary {
  /** @param {string[]} texts folded, one per row */
  constructor(texts) {
    /** word → the rows holding it, in order */
    this.rows = new Map();
    /** query word → the words its typos reached (see typos) */
    this.reached = new Map();
    /** word → its characters, for the words with a surrogate (see chars), made once */
    this.wide = new Map();
    texts.forEach((t, k) => {
      for (const word of t.split(/[^\p{L}\p{N}]+/u)) {
        if (word === "") continue;
        const holders = this.rows.get(word);
        if (holders === undefined) {
          this.rows.set(word, [k]);
          const c = chars(word);
          if (c !== word) this.wide.set(word, c);
        } else if (holders[holders.length - 1] !== k) holders.push(k);
      }
    });
  }

  /**
   * The words of the texts a query word w (folded, of 4 or more
   * characters) reaches by a typo: those within its allowance
   * ("paintng", "conotations"), or starting with it within one edit
   * (prefixTypo), that do not hold it already.
   * @param {string} w
   * @returns {string[]}
   */
  typos(w) {
    // Kept per word: each keystroke of a query's later word asks again for its earlier ones.
    let out = this.reached.get(w);
    if (out !== undefined) return out;
    out = [];
    const wc = chars(w);
    for (const word of this.rows.keys()) {
      if (word.includes(w)) continue;
      const c = this.wide.get(word) ?? word;
      const max = typoAllowance(wc.length, c.length);
      if (typoDistance(wc, c, max) <= max || prefixTypo(wc, c)) out.push(word);
    }
    this.reached.set(w, out);
    return out;
  }
}

(function shareViewer() {
  /** Messages of a path shown at first, the newest (as the panel's context pane). */
  const CONTEXT_PAGE = 60;
  /** Results listed at most (the count says how many matched). */
  const MAX_RESULTS = 50;
  /** Characters of context shown on each side of a match in a result. */
  const SNIPPET_SIDE = 48;
  /** Branch-line levels drawn (the export draws at most 12, as the panel). */
  const MAX_INDENT = 12;
  /** The class of each letter of a row's guide (see shareRows). */
  const GUIDE_CLASS = { l: "g-line", t: "g-tee", e: "g-elbow" };

  const $ = (id) => document.getElementById(id);

  /**
   * A new element with a class and a text (textContent).
   * @param {string} tag @param {string} [className] @param {string} [text]
   * @returns {HTMLElement}
   */
  function el(tag, className, text) {
    const e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  let data;
  try {
    data = JSON.parse($("share-data").textContent);
  } catch (err) {
    document.body.prepend(el("p", "share-error", `This share file's data cannot be read: ${err.message}`));
    return;
  }
  const rows = Array.isArray(data.rows) ? data.rows : [];
  document.documentElement.classList.add("js");

  /** The rendered article of each row, by row index. */
  const articles = new Map();
  for (const a of $("all-nodes").querySelectorAll("article[data-row]")) articles.set(Number(a.dataset.row), a);

  // ------------------------------------------------------------ the tree

  const treeList = $("tree");
  const buttons = new Array(rows.length);
  const cursorPath = new Set(pathTo(data.cursor));

  /**
   * Row indexes from the root to row k (k last); [] for k < 0.
   * @param {number} k
   * @returns {number[]}
   */
  function pathTo(k) {
    const path = [];
    for (let i = k; i >= 0 && i < rows.length; i = rows[i].parent) path.push(i);
    return path.reverse();
  }

  function drawTree() {
    const frag = document.createDocumentFragment();
    rows.forEach((r, k) => {
      const li = el("li", "row-item");
      const b = el("button", "row");
      b.type = "button";
      b.dataset.row = String(k);
      const guides = el("span", "guides");
      for (const c of String(r.guide ?? "").slice(0, MAX_INDENT)) guides.append(el("span", GUIDE_CLASS[c] ?? "g-none"));
      if (r.parent < 0 && k > 0) li.classList.add("root-later");
      if (cursorPath.has(k)) b.classList.add("on-cursor-path");
      if (k === data.cursor) b.classList.add("cursor");
      if (r.hidden) b.classList.add("hidden-node");
      if (!r.context) b.classList.add("entry");
      const mark = el("span", "mark", k === data.cursor ? "●" : r.preferred ? "★" : "");
      if (k === data.cursor) mark.title = "The session's cursor";
      else if (r.preferred) mark.title = "Preferred path";
      const role = el("span", "role", r.kind === "message" ? r.role : r.kind.replace(/_/g, " "));
      role.dataset.role = r.role;
      b.append(guides, mark, role, el("span", "preview", r.preview));
      const parent = r.parent >= 0 ? rows[r.parent] : null;
      if (!parent || parent.branch !== r.branch) b.append(el("span", "branch", r.branch));
      if (r.label) b.append(el("span", "node-label", r.label));
      if (r.children > 1) b.append(el("span", "fork-count", `${r.children} replies`));
      b.setAttribute("aria-label", `${r.role}: ${r.preview.slice(0, 80)}${r.label ? ` (label ${r.label})` : ""}${k === data.cursor ? " (cursor)" : ""}`);
      buttons[k] = b;
      li.append(b);
      frag.append(li);
    });
    treeList.replaceChildren(frag);
    if (rows.length === 0) treeList.append(el("li", "empty", "This session has no nodes."));
  }

  // ---------------------------------------------------------- the context

  let selected = -1;
  /** How many messages of the selected path are shown (the newest; grows by CONTEXT_PAGE on "Show earlier"). */
  let shown = 0;

  /**
   * Whether each row of path gives the model a message, as core's context
   * does: after the newest compaction on the path only the rows from its
   * firstKeptNodeId on (and the compaction itself) count.
   * @param {number[]} path
   * @returns {Set<number>}
   */
  function contextRows(path) {
    let start = 0;
    let compaction = -1;
    for (let p = path.length - 1; p >= 0; p--) {
      const r = rows[path[p]];
      if (r.kind === "compaction") {
        compaction = path[p];
        const at = path.indexOf(r.keep);
        start = at < 0 ? p : at;
        break;
      }
    }
    const out = new Set();
    if (compaction >= 0) out.add(compaction);
    for (let p = start; p < path.length; p++) {
      const r = rows[path[p]];
      if (r.context && r.kind !== "compaction") out.add(path[p]);
    }
    return out;
  }

  /**
   * Select row k: mark it and its path in the tree, and show the path's
   * messages in the context pane.
   * @param {number} k
   * @param {{focus?: boolean, reveal?: boolean, keepShown?: boolean, keepScroll?: boolean}} [opts]
   *   focus: focus its row; reveal: scroll the context pane into view
   *   (narrow screens); keepShown: keep how many messages show (else the
   *   newest CONTEXT_PAGE); keepScroll: leave the context's scroll as it is
   */
  function select(k, opts = {}) {
    if (k < 0 || k >= rows.length) return;
    for (const b of treeList.querySelectorAll(".row.selected, .row.on-path")) b.classList.remove("selected", "on-path");
    const path = pathTo(k);
    for (const i of path) buttons[i].classList.add("on-path");
    const b = buttons[k];
    b.classList.add("selected");
    for (const x of treeList.querySelectorAll('.row[aria-current="true"]')) x.removeAttribute("aria-current");
    b.setAttribute("aria-current", "true");
    if (selected >= 0 && buttons[selected]) buttons[selected].tabIndex = -1;
    b.tabIndex = 0;
    if (opts.focus) b.focus({ preventScroll: true });
    scrollWithin(treeList, b);

    if (k !== selected || !opts.keepShown) shown = CONTEXT_PAGE;
    selected = k;
    const inContext = contextRows(path);
    const from = Math.max(0, path.length - shown);
    const items = path.slice(from).map((i) => {
      const li = el("li", "context-item");
      const art = articles.get(i);
      if (art) li.append(art.cloneNode(true));
      else li.append(el("p", "empty", `(node ${rows[i].id} has no rendering)`));
      li.dataset.row = String(i);
      if (inContext.has(i)) li.classList.add("in-context");
      else if (rows[i].context) li.classList.add("not-in-context");
      if (i === k) li.classList.add("selected-item");
      return li;
    });
    if (from > 0) {
      const more = el("button", "more-context", `Show ${Math.min(CONTEXT_PAGE, from).toLocaleString("en")} earlier of ${from.toLocaleString("en")} not shown`);
      more.type = "button";
      more.addEventListener("click", () => {
        shown += CONTEXT_PAGE;
        select(k, { keepShown: true, keepScroll: true });
      });
      const li = el("li", "more-item");
      li.append(more);
      items.unshift(li);
    }
    const list = $("context");
    list.replaceChildren(...items);
    const n = path.length;
    const m = inContext.size;
    $("context-stats").textContent = `${n.toLocaleString("en")} ${n === 1 ? "node" : "nodes"} root → ${k === data.cursor ? "cursor" : "selected node"} · ${m.toLocaleString("en")} ${m === 1 ? "message" : "messages"} to the model`;
    if (!opts.keepScroll) list.scrollTop = list.scrollHeight; // the newest message (a no-op where the page scrolls, on a phone)
    if (opts.reveal && window.matchMedia("(max-width: 699px)").matches) $("context-pane").scrollIntoView({ block: "start" });
  }

  /**
   * Scroll container (only it, never the page) so that child is in view.
   * @param {HTMLElement} container @param {HTMLElement} child
   */
  function scrollWithin(container, child) {
    const c = container.getBoundingClientRect();
    const r = child.getBoundingClientRect();
    if (r.top < c.top) container.scrollTop -= c.top - r.top;
    else if (r.bottom > c.bottom) container.scrollTop += r.bottom - c.bottom;
  }

  treeList.addEventListener("click", (e) => {
    const b = e.target.closest("button.row");
    if (!b) return;
    select(Number(b.dataset.row), { reveal: true });
    remember(selected);
  });
  treeList.addEventListener("keydown", (e) => {
    const b = e.target.closest("button.row");
    if (!b) return;
    const k = Number(b.dataset.row);
    const to = { ArrowDown: k + 1, ArrowUp: k - 1, Home: 0, End: rows.length - 1, PageDown: k + 10, PageUp: k - 10 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    select(Math.max(0, Math.min(rows.length - 1, to)), { focus: true });
    remember(selected);
  });

  // ------------------------------------------------------------- search

  /** The folded texts, made on the first search; their words, on the first search of a typo. */
  let folded = null;
  let vocabulary = null;

  /**
   * The rows whose text (or id, branch or label) holds every word of
   * query: as a substring, or as a word within its typo allowance.
   * @param {string} query
   * @returns {{words: string[], hits: number[]}} words: every text a mark goes on (the query's words and the words their typos reached)
   */
  function find(query) {
    const asked = fold(query).split(/\s+/).filter(Boolean);
    if (asked.length === 0) return { words: asked, hits: [] };
    folded ??= rows.map((r) => fold(`${r.text}\n${r.id}\n${r.branch}\n${r.role}`));
    const reach = asked.map((w) => {
      const typos = chars(w).length <= 3 ? [] : (vocabulary ??= new Vocabulary(folded)).typos(w);
      return { exact: w, typos, rowsOf: new Set(typos.flatMap((word) => vocabulary.rows.get(word))) };
    });
    const hits = [];
    folded.forEach((t, k) => {
      if (reach.every((r) => t.includes(r.exact) || r.rowsOf.has(k))) hits.push(k);
    });
    return { words: reach.flatMap((r) => [r.exact, ...r.typos]), hits };
  }

  /**
   * A snippet of text around the first match of words, as nodes: text and
   * <mark> elements for each match inside it.
   * @param {string} text @param {string[]} words folded
   * @returns {Node[]}
   */
  function snippet(text, words) {
    const flat = oneLine(text);
    const { folded: f, starts, ends } = foldMap(flat);
    const spans = [];
    for (const w of words) {
      for (let i = f.indexOf(w); i >= 0; i = f.indexOf(w, i + w.length)) spans.push([starts[i], ends[i + w.length - 1]]);
    }
    spans.sort((a, b) => a[0] - b[0]);
    const first = spans.length > 0 ? spans[0][0] : 0;
    const from = Math.max(0, first - SNIPPET_SIDE);
    const to = Math.min(flat.length, (spans.length > 0 ? spans[0][1] : 0) + SNIPPET_SIDE * 2);
    const out = [];
    if (from > 0) out.push("…");
    let at = from;
    for (const [s, e] of spans) {
      if (s < at || e > to) continue;
      out.push(flat.slice(at, s), el("mark", "", flat.slice(s, e)));
      at = e;
    }
    out.push(flat.slice(at, to));
    if (to < flat.length) out.push("…");
    return out;
  }

  function oneLine(s) {
    return String(s).replace(/\s+/g, " ").trim();
  }

  const input = $("share-search");
  const results = $("search-results");
  const counter = $("search-count");

  function runSearch() {
    const { words, hits } = find(input.value);
    for (const b of treeList.querySelectorAll(".row.match")) b.classList.remove("match");
    if (words.length === 0) {
      results.hidden = true;
      results.replaceChildren();
      counter.textContent = "";
      return;
    }
    for (const k of hits) buttons[k].classList.add("match");
    counter.textContent = hits.length === 0 ? "no match" : `${hits.length.toLocaleString("en")} ${hits.length === 1 ? "match" : "matches"}${hits.length > MAX_RESULTS ? ` · first ${MAX_RESULTS} listed` : ""}`;
    const items = hits.slice(0, MAX_RESULTS).map((k) => {
      const r = rows[k];
      const li = el("li");
      const b = el("button", "result");
      b.type = "button";
      b.dataset.row = String(k);
      const role = el("span", "role", r.kind === "message" ? r.role : r.kind.replace(/_/g, " "));
      role.dataset.role = r.role;
      const text = el("span", "result-text");
      text.append(...snippet(r.text || r.preview, words));
      b.append(role, text);
      li.append(b);
      return li;
    });
    results.replaceChildren(...items);
    results.hidden = items.length === 0;
  }

  function openResult(k) {
    select(k, { focus: true, reveal: true });
    remember(k);
    results.hidden = true;
  }

  input.addEventListener("input", runSearch);
  input.addEventListener("focus", () => {
    if (results.childElementCount > 0) results.hidden = false;
  });
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      const first = results.querySelector("button.result");
      if (first) openResult(Number(first.dataset.row));
    } else if (e.key === "ArrowDown") {
      e.preventDefault();
      results.hidden = results.childElementCount === 0;
      results.querySelector("button.result")?.focus();
    } else if (e.key === "Escape") {
      input.value = "";
      runSearch();
    }
  });
  results.addEventListener("click", (e) => {
    const b = e.target.closest("button.result");
    if (b) openResult(Number(b.dataset.row));
  });
  results.addEventListener("keydown", (e) => {
    const list = [...results.querySelectorAll("button.result")];
    const i = list.indexOf(e.target);
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const j = i + (e.key === "ArrowDown" ? 1 : -1);
      (j < 0 ? input : list[Math.min(j, list.length - 1)]).focus();
    } else if (e.key === "Escape") {
      results.hidden = true;
      input.focus();
    }
  });
  document.addEventListener("click", (e) => {
    if (!e.target.closest(".share-search")) results.hidden = true;
  });

  // A link to one node: "#node=<id>" selects it (the address follows the selection).
  const rowOfId = new Map(rows.map((r, k) => [r.id, k]));
  function fromHash() {
    const m = /^#node=(.*)$/.exec(location.hash);
    if (!m) return -1;
    try {
      return rowOfId.get(decodeURIComponent(m[1])) ?? -1;
    } catch {
      return -1;
    }
  }
  function remember(k) {
    try {
      history.replaceState(null, "", `#node=${encodeURIComponent(rows[k].id)}`);
    } catch {
      /* some browsers refuse history on file:// pages: the link just does not follow */
    }
  }
  window.addEventListener("hashchange", () => {
    const k = fromHash();
    if (k >= 0 && k !== selected) select(k, { reveal: true });
  });

  drawTree();
  for (const b of buttons) b.tabIndex = -1;
  const linked = fromHash();
  select(linked >= 0 ? linked : data.cursor >= 0 ? data.cursor : 0);
  document.body.dataset.ready = "true";
})();
