// Sessions by title for the explorer's search over every session: which
// sessions' titles match a query, best first, with the ranges to mark.
// Pure, no DOM; the titles come from the session list the page already
// holds (no session is loaded). Matching folds case and accents as the
// core's search does (node-text.js fold), and forgives typos as the
// session filter box does (nearToken).

import { fold, nearToken } from "./node-text.js";

/** A query word with a character of a script written without spaces between words matches anywhere, as the core's search takes CJK as substrings. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** Shortest query word matched inside a word (not at its start) in other scripts. */
const MIN_INFIX = 3;

/** Shortest query matched against the start of a session id. */
const MIN_ID_PREFIX = 4;

/** Score of a word by how it matched: a whole word, a word's start, inside a word, within a typo or two. */
const SCORE = { word: 4, prefix: 3, infix: 2, near: 1 };

/**
 * `text` folded (fold) with, for each UTF-16 unit of the result, the
 * offsets in `text` of the character it came from (start and end), so a
 * range found in the folded text marks the original.
 * @param {string} text
 * @returns {{folded: string, start: number[], end: number[]}}
 */
export function foldMap(text) {
  let folded = "";
  const start = [];
  const end = [];
  let i = 0;
  for (const ch of text) {
    const f = fold(ch);
    folded += f;
    for (let k = 0; k < f.length; k++) {
      start.push(i);
      end.push(i + ch.length);
    }
    i += ch.length;
  }
  return { folded, start, end };
}

/** The words of a query, folded, without the punctuation around them ("“Lisbon”," → "lisbon"). */
function queryWords(query) {
  return fold(query)
    .split(/\s+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""))
    .filter(Boolean);
}

/** The words of folded text with their offsets. */
function tokensOf(folded) {
  return [...folded.matchAll(/[\p{L}\p{N}]+/gu)].map((m) => ({ text: m[0], at: m.index }));
}

/**
 * How one folded query word matches folded title text: its score and
 * range in the folded text, or null.
 * @param {string} word
 * @param {string} folded
 * @param {{text: string, at: number}[]} tokens
 * @param {Map<string, object | null>} nearby the word's nearToken answer by token, of this query (titles share words)
 */
function matchWord(word, folded, tokens, nearby) {
  const whole = tokens.find((t) => t.text === word);
  if (whole) return { score: SCORE.word, from: whole.at, to: whole.at + word.length };
  const prefix = tokens.find((t) => t.text.startsWith(word));
  if (prefix) return { score: SCORE.prefix, from: prefix.at, to: prefix.at + word.length };
  if ([...word].length >= MIN_INFIX || UNSPACED.test(word)) {
    const at = folded.indexOf(word);
    if (at >= 0) return { score: SCORE.infix, from: at, to: at + word.length };
  }
  for (const t of tokens) {
    let near = nearby.get(t.text);
    if (near === undefined) nearby.set(t.text, (near = nearToken(word, [t.text])));
    if (near) return { score: SCORE.near, from: t.at, to: t.at + near.end };
  }
  return null;
}

/** Titles folded with their words, kept across queries (typing runs one per key): cleared past CACHE_MAX. */
const folds = new Map();
const CACHE_MAX = 50_000;

/** A title folded (fold: per character or whole, the same) with its words. */
function foldedTitle(title) {
  let f = folds.get(title);
  if (!f) {
    if (folds.size >= CACHE_MAX) folds.clear();
    const folded = fold(title);
    f = { folded, tokens: tokensOf(folded), spaced: folded.replace(/\s+/g, " ").trim() };
    folds.set(title, f);
  }
  return f;
}

/**
 * How a session's title matches the query's words: the score (0: it does
 * not, every word must match) and where, in the folded title.
 * @param {string} title
 * @param {string[]} words folded
 * @param {string} phrase the words joined by one space
 * @param {Map<string, object | null>[]} nearby per word, see matchWord
 * @returns {{score: number, spans: [number, number][]}}
 */
function matchTitle(title, words, phrase, nearby) {
  const { folded, tokens, spaced } = foldedTitle(title);
  const spans = [];
  let score = 0;
  for (const [k, w] of words.entries()) {
    const m = matchWord(w, folded, tokens, nearby[k]);
    if (!m) return { score: 0, spans: [] };
    score += m.score;
    spans.push([m.from, m.to]);
  }
  // The title itself, or the words together as typed, rank first.
  if (spaced === phrase) score += 10;
  else if (words.length > 1 && spaced.includes(phrase)) score += 2 * words.length;
  return { score, spans };
}

/** Spans of a title's folded text as ranges of the title (UTF-16 offsets). */
function rangesOf(title, spans) {
  if (spans.length === 0) return [];
  const { start, end } = foldMap(title);
  return spans.map(([from, to]) => [start[from], end[to - 1]]);
}

/**
 * The sessions whose title matches the query, best first: every word of
 * the query must match a word of the title, whole or as its start; inside
 * a word from three characters on (any length in scripts written without
 * spaces); else within a typo for words of 4 to 7 characters and two from
 * 8 on. Case- and accent-insensitive. A title that is the words as typed
 * ranks first; ties keep the sessions' order. A query of one word that
 * starts a session's id (4 characters or more) finds that session too,
 * and a session without a title (shown by its id) is found only so.
 * @param {{sessionId: string, title: string}[]} sessions title: the title shown (the id when it has none)
 * @param {string} query
 * @param {{limit?: number}} [options] how many to return (default 5)
 * @returns {{total: number, matches: {session: object, ranges: [number, number][], byId: boolean}[]}}
 */
export function matchTitles(sessions, query, { limit = 5 } = {}) {
  const words = queryWords(query);
  if (words.length === 0) return { total: 0, matches: [] };
  const phrase = words.join(" ");
  const id = words.length === 1 && query.trim().length >= MIN_ID_PREFIX ? query.trim().toLowerCase() : null;
  const nearby = words.map(() => new Map());
  const found = [];
  sessions.forEach((session, order) => {
    const idScore = id !== null && session.sessionId.toLowerCase().startsWith(id) ? (session.sessionId.length === id.length ? 20 : SCORE.prefix) : 0;
    const byTitle = session.title && session.title !== session.sessionId ? matchTitle(session.title, words, phrase, nearby) : { score: 0, spans: [] };
    if (byTitle.score === 0 && idScore === 0) return;
    found.push({ session, spans: byTitle.spans, byId: byTitle.score === 0, score: Math.max(byTitle.score, idScore), order });
  });
  found.sort((a, b) => b.score - a.score || a.order - b.order);
  // Only the sessions shown are mapped back to their titles' characters.
  const matches = found.slice(0, limit).map(({ session, spans, byId }) => ({ session, ranges: rangesOf(session.title, spans), byId }));
  return { total: found.length, matches };
}
