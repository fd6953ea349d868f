// Pure text helpers for the explorer and the tree panel: no DOM, no I/O.
// A message's content as parts and as one line of text, entries and nodes
// described in words, times, fuzzy session filtering, highlight pieces and
// file names. static/tree-model.js (the rows: guides, windows, layout)
// re-exports them, so either module can be imported for these.

import { MAX_QUERY_LENGTH } from "../js/protocol.js";

/**
 * Split a message's `content` into parts a view renders:
 * `{type: "text", text}` for a string or a text part,
 * `{type: "image", label}` for an image part (never fetched: the label
 * names it), `{type: "other", label, json}` for anything else.
 * `null`/absent content gives no parts.
 * @param {unknown} content the message's content as stored
 * @returns {({type: "text", text: string} | {type: "image", label: string} | {type: "other", label: string, json: string})[]}
 */
export function contentParts(content) {
  if (content === null || content === undefined) return [];
  if (typeof content === "string") return [{ type: "text", text: content }];
  const list = Array.isArray(content) ? content : [content];
  const parts = [];
  for (const part of list) {
    if (typeof part === "string") {
      parts.push({ type: "text", text: part });
      continue;
    }
    if (part === null || typeof part !== "object") {
      parts.push({ type: "other", label: typeof part, json: JSON.stringify(part) });
      continue;
    }
    const type = typeof part.type === "string" ? part.type : typeof part.content_type === "string" ? part.content_type : "";
    if ((type === "text" || type === "input_text" || type === "output_text") && typeof part.text === "string") {
      parts.push({ type: "text", text: part.text });
    } else if (/image/i.test(type) || "image_url" in part || "asset_pointer" in part) {
      parts.push({ type: "image", label: imageLabel(part) });
    } else {
      parts.push({ type: "other", label: type || "object", json: JSON.stringify(part) });
    }
  }
  return parts;
}

function imageLabel(part) {
  const bits = ["image"];
  const ref = typeof part.asset_pointer === "string" ? part.asset_pointer : typeof part.image_url === "string" ? part.image_url : typeof part.image_url?.url === "string" ? part.image_url.url : "";
  if (ref !== "") bits.push(ref.startsWith("data:") ? "(inline data)" : ref.length > 60 ? ref.slice(0, 57) + "…" : ref);
  if (Number.isFinite(part.width) && Number.isFinite(part.height)) bits.push(`${part.width}×${part.height}`);
  return bits.join(" ");
}

/**
 * The plain text of a message's content (text parts joined by blank lines).
 * @param {unknown} content
 * @returns {string}
 */
export function contentText(content) {
  return contentParts(content)
    .filter((p) => p.type === "text")
    .map((p) => p.text)
    .join("\n\n");
}

/**
 * A short human label for a time relative to `now`: "just now", "5 min ago",
 * "3 h ago", "yesterday", else the date (YYYY-MM-DD). Invalid input gives "".
 * @param {string} iso an RFC 3339 time
 * @param {number} [now] ms since the epoch
 * @returns {string}
 */
export function relativeTime(iso, now = Date.now()) {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return "";
  const s = Math.round((now - t) / 1000);
  if (s < 45) return "just now";
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  if (s < 2 * 86400) return "yesterday";
  return new Date(t).toISOString().slice(0, 10);
}

/**
 * Text as it is compared when matching: lower case, accents and other
 * combining marks removed (NFKD), a final sigma as any sigma, as the core's
 * search folds it ("Café" → "cafe"). Folding a string character by
 * character gives the same result as folding it whole.
 * @param {string} text
 * @returns {string}
 */
export function fold(text) {
  return text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().replace(/ς/g, "σ");
}

/**
 * Sessions whose title or id contains every word of the query, forgiving
 * typos: a word matches a word of the title or id (or its start) within
 * an edit distance of 1 for words of 4 to 7 characters and 2 from 8 on;
 * shorter words must appear as typed. Case- and accent-insensitive (fold).
 * Those holding more of the words as typed come first (every word, then
 * all but one, …; the rest reached by typos); within each, those holding
 * more of them as whole words, then as a word's start ("Big conv 7"
 * before "Big conv 297"), each group in the order given: "Conversation
 * 00003" before the newer "Conversation 00013". An empty query keeps
 * every session.
 * @param {{sessionId: string, title?: string}[]} sessions
 * @param {string} query
 * @returns {{sessionId: string, title?: string}[]}
 */
export function filterSessions(sessions, query) {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return sessions;
  // by[k]: the sessions holding k of the words as typed (the rest within typos).
  const by = words.map(() => []).concat([[]]);
  const weight = new Map(); // a session's whole words × (words + 1) + word starts, when its group has more than one weight
  for (const s of sessions) {
    const { hay, tokens } = filterText(s);
    const typed = words.filter((w) => hay.includes(w)).length;
    if (typed < words.length && !words.every((w) => hay.includes(w) || nearToken(w, tokens) !== null)) continue;
    const at = words.map((w) => wordPlace(hay, w));
    weight.set(s, at.filter((p) => p === 2).length * (words.length + 1) + at.filter((p) => p > 0).length);
    by[typed].push(s);
  }
  // A stable sort: equal weights keep the order given.
  return by.reverse().flatMap((group) => group.sort((a, b) => weight.get(b) - weight.get(a)));
}

/**
 * Where word (folded, as typed: "gpt-4", "c++") stands in hay at its best:
 * 2 as a whole word (no letter or digit just before or after it), 1 at a
 * word's start, 0 inside one or not at all.
 * @param {string} hay @param {string} word
 * @returns {0|1|2}
 */
function wordPlace(hay, word) {
  let best = 0;
  const letter = (c) => c !== undefined && /[\p{L}\p{N}]/u.test(c);
  for (let i = hay.indexOf(word); i >= 0 && best < 2; i = hay.indexOf(word, i + 1)) {
    if (letter(hay[i - 1])) continue;
    best = letter(hay[i + word.length]) ? Math.max(best, 1) : 2;
  }
  return best;
}

/** filterText's results by title and id: the filter runs again at every key typed, over the same sessions. */
const filterTexts = new Map();

/**
 * A session's title and id folded (fold) as the filter box reads them,
 * and their words; kept for the next keystroke (at most 100,000 kept,
 * then started again: folding 60,000 titles took ~200 ms in Node).
 * @param {{sessionId: string, title?: string}} s
 * @returns {{hay: string, tokens: string[]}}
 */
function filterText(s) {
  const key = `${s.title ?? ""}\u0000${s.sessionId}`;
  let t = filterTexts.get(key);
  if (t === undefined) {
    const hay = fold(`${s.title ?? ""} ${s.sessionId}`);
    t = { hay, tokens: hay.split(/[^\p{L}\p{N}]+/u).filter(Boolean) };
    if (filterTexts.size >= 100_000) filterTexts.clear();
    filterTexts.set(key, t);
  }
  return t;
}

/**
 * The first token word is near: within its allowed edit distance (1 for 4
 * to 7 characters, 2 from 8 on, none below) of the whole token or of the
 * token's start ("lisbn" for "lisbon's"). Both already folded.
 * @param {string} word
 * @param {string[]} tokens
 * @returns {{index: number, end: number} | null} the token's index and the UTF-16 length of the part matched
 */
export function nearToken(word, tokens) {
  const n = [...word].length;
  const max = n >= 8 ? 2 : n >= 4 ? 1 : 0;
  if (max === 0) return null;
  for (let index = 0; index < tokens.length; index++) {
    const t = tokens[index];
    const chars = [...t];
    if (Math.abs(chars.length - n) <= max && editDistance(word, t, max) <= max) return { index, end: t.length };
    // A word typed as the start of a longer token.
    const head = chars.slice(0, n).join("");
    if (chars.length > n && editDistance(word, head, max) <= max) return { index, end: head.length };
  }
  return null;
}

/**
 * Edit distance between a and b (by code point; insert, delete, replace,
 * or swap two neighbours: optimal string alignment), or max + 1 as soon as
 * it must exceed max.
 * @param {string} a
 * @param {string} b
 * @param {number} max
 * @returns {number}
 */
export function editDistance(a, b, max) {
  const x = [...a];
  const y = [...b];
  if (Math.abs(x.length - y.length) > max) return max + 1;
  let before = null;
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= y.length; j++) {
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
      // Two neighbours swapped count as one edit ("weekned").
      if (before && i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) v = Math.min(v, before[j - 2] + 1);
      cur.push(v);
      if (v < best) best = v;
    }
    if (best > max) return max + 1;
    before = prev;
    prev = cur;
  }
  return prev[y.length];
}

/**
 * A file name for a session's snapshot download: `<sessionId>.snapshot.json`
 * with characters that file systems refuse replaced by "_".
 * @param {string} sessionId
 * @returns {string}
 */
export function snapshotFileName(sessionId) {
  return `${sessionId.replace(/[\\/:*?"<>|\u0000-\u001f]/g, "_")}.snapshot.json`;
}

/**
 * Split `text` into plain and highlighted pieces by `[start, end)` ranges
 * in UTF-16 code units (as search hits give them); ranges are sorted,
 * clipped and merged first.
 * @param {string} text
 * @param {[number, number][]} ranges
 * @returns {{text: string, hit: boolean}[]}
 */
export function highlightPieces(text, ranges) {
  const sorted = (ranges ?? [])
    .map(([a, b]) => [Math.max(0, Math.min(text.length, a)), Math.max(0, Math.min(text.length, b))])
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  const pieces = [];
  let at = 0;
  for (const [a, b] of sorted) {
    if (b <= at) continue;
    const from = Math.max(a, at);
    if (from > at) pieces.push({ text: text.slice(at, from), hit: false });
    pieces.push({ text: text.slice(from, b), hit: true });
    at = b;
  }
  if (at < text.length || pieces.length === 0) pieces.push({ text: text.slice(at), hit: false });
  return pieces;
}

/**
 * A snippet cut so its first highlighted range starts at most `lead` (12)
 * UTF-16 code units in: the text before it is cut at a space (or at
 * `lead` units before the range when none is near) and replaced by "…",
 * and the ranges move with it. A one-line hit list cut at its end (a
 * phone) showed the text before the match and not the match. Unchanged
 * when the first range is within `lead`, or there is none.
 * @param {string} text @param {[number, number][]} ranges @param {number} [lead]
 * @returns {{text: string, ranges: [number, number][]}}
 */
export function leadTrimmed(text, ranges, lead = 12) {
  const first = Math.min(...(ranges ?? []).map(([a]) => a));
  if (!Number.isFinite(first) || first <= lead) return { text, ranges: ranges ?? [] };
  let cut = first - lead;
  const space = text.indexOf(" ", cut);
  if (space >= 0 && space < first) cut = space + 1;
  // Not inside a surrogate pair.
  if (cut > 0 && cut < text.length && /[\uDC00-\uDFFF]/.test(text[cut])) cut++;
  const shift = cut - 1; // "…" takes one unit
  return { text: `…${text.slice(cut)}`, ranges: ranges.map(([a, b]) => [a - shift, b - shift]) };
}

/**
 * A one-line description of a Pi entry (model change, tools, …).
 * @param {object} entry the node's `entry` object
 * @param {string} [kind] the node's kind; by default the entry's own
 *   `kind` (an append request's entry has one, a stored node's entry not:
 *   its kind is the node's, and a custom entry read as JSON)
 * @returns {string}
 */
export function describeEntry(entry, kind = entry?.kind) {
  switch (kind) {
    case "model_change":
      return `Model → ${[entry.provider, entry.model].filter(Boolean).join("/")}`;
    case "thinking_level_change":
      return `Thinking level → ${entry.level}`;
    case "active_tools_change":
      return `Tools → ${Array.isArray(entry.tools) && entry.tools.length > 0 ? entry.tools.join(", ") : "none"}`;
    case "compaction":
      return `Compaction: ${entry.summary ?? ""}`;
    case "custom":
      return `Custom (${entry.customType ?? "?"})${typeof entry.data === "string" && entry.data !== "" ? `: ${entry.data}` : ""}`;
    case "custom_message":
      return contentText(entry.content) || `Custom message (${entry.customType ?? "?"})`;
    case "session_info":
      return `Session name → ${entry.name ?? ""}`;
    default:
      return JSON.stringify(entry);
  }
}

/**
 * describeEntry of a node's entry, read by the node's kind where the entry
 * names none (a stored node's entry has no `kind`: it is the node's).
 * @param {{kind?: string, entry: object}} node a `node` answer or snapshot node with an entry
 * @returns {string}
 */
export function describeNodeEntry(node) {
  return describeEntry(node.entry, node.entry.kind ?? node.kind);
}

/**
 * The plain text of a node (the `node` answer): its message's text (or the
 * names of its tool calls when it has no text), its summary, or its entry
 * described; "" for none.
 * @param {{message?: object, summary?: string, entry?: object}} node
 * @returns {string}
 */
export function nodeText(node) {
  if (node.message) return contentText(node.message.content) || (Array.isArray(node.message.tool_calls) ? `[tool calls: ${node.message.tool_calls.map((c) => c?.function?.name ?? c?.name ?? "?").join(", ")}]` : "");
  if (typeof node.summary === "string") return node.summary;
  if (node.entry) return describeNodeEntry(node);
  return "";
}

/**
 * A compact local time for a node: "14:05" today, else "2025-08-24 14:05".
 * @param {string} iso
 * @param {Date} [today] the day counted as today (default: now)
 * @returns {string} "" for a time that does not parse
 */
export function formatTime(iso, today = new Date()) {
  const t = new Date(iso);
  if (Number.isNaN(t.getTime())) return "";
  const pad = (n) => String(n).padStart(2, "0");
  const hm = `${pad(t.getHours())}:${pad(t.getMinutes())}`;
  if (t.toDateString() === today.toDateString()) return hm;
  return `${t.getFullYear()}-${pad(t.getMonth() + 1)}-${pad(t.getDate())} ${hm}`;
}

/**
 * A count and its noun, in English: countOf(1, "branch", "branches") is
 * "1 branch", countOf(1234, "node") is "1,234 nodes".
 * @param {number} n
 * @param {string} one the noun for 1
 * @param {string} [many] the noun for any other count (one + "s")
 * @returns {string}
 */
export function countOf(n, one, many = `${one}s`) {
  return `${n.toLocaleString("en")} ${n === 1 ? one : many}`;
}

/**
 * Text of a user's or a file's (a title, a restore point's or a file's
 * name, a project's path; branch names refuse bidirectional controls) set apart from the sentence of ours it is put into: between
 * U+2068 FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE, so that
 * bidirectional controls in it (U+202E shows what follows backwards) or
 * right-to-left text cannot reorder the words around it. Titles are kept
 * as given (an import's, a rename's): only how they are shown changes.
 * The text's own isolates are balanced first, so none can close ours: an
 * unmatched U+2069 is dropped and one U+2069 is added per isolate left
 * open (embeddings and overrides left open end at our U+2069 anyway).
 * An element that shows such text alone takes `unicode-bidi: isolate`
 * (CSS) instead.
 * @param {string} text
 * @returns {string}
 */
export function isolate(text) {
  let open = 0;
  const inner = String(text).replace(/[\u2066-\u2069]/g, (c) => {
    if (c !== "\u2069") open++;
    else if (open > 0) open--;
    else return "";
    return c;
  });
  return `\u2068${inner}${"\u2069".repeat(open)}\u2069`;
}

/**
 * text with the bidirectional controls it leaves open closed at its end,
 * in the order UAX #9 closes them (https://www.unicode.org/reports/tr9/):
 * U+202C POP DIRECTIONAL FORMATTING for each embedding or override
 * (U+202A, U+202B, U+202D, U+202E), U+2069 POP DIRECTIONAL ISOLATE for
 * each isolate (U+2066–U+2068); a PDI also closes the embeddings opened
 * after its isolate. Text that leaves none open comes back as it is. For
 * a title the page makes of one it was given ("<title> (fork)"), so that
 * an override in the given part cannot turn the page's suffix backwards.
 * @param {string} text
 * @returns {string}
 */
export function closeBidi(text) {
  const open = []; // "e" an embedding or override, "i" an isolate, innermost last
  for (const c of String(text)) {
    if (c === "\u202a" || c === "\u202b" || c === "\u202d" || c === "\u202e") open.push("e");
    else if (c === "\u2066" || c === "\u2067" || c === "\u2068") open.push("i");
    else if (c === "\u202c" && open.at(-1) === "e") open.pop();
    else if (c === "\u2069" && open.includes("i")) open.length = open.lastIndexOf("i");
  }
  return String(text) + open.reverse().map((k) => (k === "e" ? "\u202c" : "\u2069")).join("");
}

/**
 * What a search box says of a query longer than core's search takes
 * (MAX_QUERY_LENGTH characters, code points as core counts them), in
 * place of its hits; null for a query search takes. A box's maxlength
 * (UTF-16 units) stops typing there, so this is for a query set from a
 * script or a box without it.
 * @param {string} query
 * @returns {string|null}
 */
export function queryTooLong(query) {
  if (query.length <= MAX_QUERY_LENGTH) return null; // UTF-16 units: never fewer than code points
  const n = [...query].length;
  return n > MAX_QUERY_LENGTH ? `Too long to search: ${n.toLocaleString("en")} characters; a search takes at most ${MAX_QUERY_LENGTH.toLocaleString("en")}.` : null;
}
