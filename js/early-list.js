//# allFunctionsCalledOnLoad
// The answers to `sessions` a tree gives before its wasm has started
// (js/worker-tree.js): from the whole list read in the page's thread
// (store/listing.js readList), or, before that, from its head, the newest
// sessions read first (store/listing.js readHead). Pure functions: Node
// tests them (test/early-list.test.mjs), and e2e/paging.test.mjs checks
// they answer what core answers (core/internal/store/sessions_page.go).

import { requestJSON } from "./request-text.js";

/** The largest `limit` of a page (core's maxRowIndex, 2^31 − 1). */
const MAX_LIMIT = 2 ** 31 - 1;

/** UTF-8 as core reads a request: bytes that are not UTF-8 and a byte order mark are refused (the BOM is kept, and JSON.parse refuses it). */
const strictUTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The query of a `sessions` request that may be answered early: null for
 * any other request, and for a `sessions` request with a member other
 * than order, limit and before, or one of those not as core takes it
 * (order "created" or "updated"; limit an integer from 1 to 2^31 − 1;
 * before {updatedAt: string, sessionId: non-empty string}; limit and
 * before only with order "updated"), which core answers (with its
 * INVALID_ARGUMENT). The request is read as core will read it: an object
 * as the JSON text it is sent as (js/request-text.js requestJSON: its own
 * members, or its toJSON's), bytes only when they are UTF-8 with no byte
 * order mark, text (and bytes) only with no member given twice; and null
 * when core could read before otherwise: a lone surrogate in it (U+FFFD
 * to core), or a member whose name is updatedAt or sessionId but for case
 * (core takes it for one). Reading a member that throws (a getter, a
 * Proxy) gives null.
 * @param {any} request an object, a JSON text or its UTF-8 bytes (at most 1 KB of text read)
 * @returns {{updated: boolean, limit: number, before: {updatedAt: string, sessionId: string}|null}|null}
 */
export function sessionsQuery(request) {
  try {
    if (request instanceof ArrayBuffer) request = new Uint8Array(request);
    if (request instanceof Uint8Array) request = request.length > 1024 ? null : strictUTF8.decode(request);
    else if (typeof request !== "string") {
      // Only a `sessions` request is written out (any other may be large).
      if (request === null || typeof request !== "object" || request.operation !== "sessions") return null;
      const json = requestJSON(request);
      request = json.error === undefined ? json.text : null;
    }
    if (request === null || request.length > 1024) return null;
    const r = JSON.parse(request);
    return topMembers(request) === Object.keys(r ?? {}).length ? queryOf(r) : null;
  } catch {
    return null;
  }
}

/**
 * How many members the object of JSON text `text` (valid JSON) has as
 * written, a member given twice counted twice: at depth 1, each string
 * after "{" or "," is a member's name.
 * @param {string} text
 */
function topMembers(text) {
  let depth = 0;
  let last = "";
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      if (depth === 1 && (last === "{" || last === ",")) count++;
      for (i++; text[i] !== '"'; i++) if (text[i] === "\\") i++;
    } else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") depth--;
    else if (c === " " || c === "\t" || c === "\n" || c === "\r") continue;
    last = c;
  }
  return count;
}

/** Whether s holds no lone surrogate (which core reads as U+FFFD). @param {string} s */
function wellFormed(s) {
  return typeof s.isWellFormed === "function" ? s.isWellFormed() : !/\p{Cs}/u.test(s);
}

/** Whether key is not name but core takes it for name (Go's strings.EqualFold: case, and ſ for s). @param {string} key @param {string} name */
function foldsTo(key, name) {
  return key !== name && key.length === name.length && key.toLowerCase().replaceAll("\u017F", "s") === name.toLowerCase();
}

/** sessionsQuery of a request object. @param {any} r */
function queryOf(r) {
  if (r === null || typeof r !== "object" || Array.isArray(r) || r.operation !== "sessions") return null;
  const keys = Object.keys(r);
  if (keys.some((k) => !["operation", "order", "limit", "before"].includes(k))) return null;
  const order = r.order ?? "created";
  if (r.order === null || (order !== "created" && order !== "updated")) return null;
  const updated = order === "updated";
  if ((keys.includes("limit") || keys.includes("before")) && !updated) return null;
  const limit = keys.includes("limit") ? r.limit : MAX_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) return null;
  let before = null;
  if (keys.includes("before")) {
    const b = r.before;
    if (b === null || typeof b !== "object" || Array.isArray(b) || typeof b.updatedAt !== "string" || typeof b.sessionId !== "string" || b.sessionId === "") return null;
    if (!wellFormed(b.updatedAt) || !wellFormed(b.sessionId) || Object.keys(b).some((k) => foldsTo(k, "updatedAt") || foldsTo(k, "sessionId"))) return null;
    before = { updatedAt: b.updatedAt, sessionId: b.sessionId };
  }
  return { updated, limit, before };
}

/**
 * Orders summaries newest first: updatedAt descending, then sessionId
 * descending, strings compared by UTF-16 code units (as JavaScript's <
 * and IndexedDB do), the order of core's `sessions` with order "updated".
 * @param {{updatedAt: string, sessionId: string}} a @param {{updatedAt: string, sessionId: string}} b
 */
export function newestFirst(a, b) {
  if (a.updatedAt !== b.updatedAt) return a.updatedAt < b.updatedAt ? 1 : -1;
  if (a.sessionId !== b.sessionId) return a.sessionId < b.sessionId ? 1 : -1;
  return 0;
}

/**
 * The summaries of a page of q from summaries already newest first: those
 * after q.before (when given), at most q.limit of them.
 * @param {object[]} sorted @param {{limit: number, before: object|null}} q
 * @returns {object[]}
 */
function pageFrom(sorted, q) {
  let from = 0;
  if (q.before !== null) while (from < sorted.length && newestFirst(sorted[from], q.before) <= 0) from++;
  return sorted.slice(from, from + q.limit);
}

/**
 * The value of `sessions` for query q (sessionsQuery) from the whole list
 * (summaries in creation order: store/listing.js sessionsFromMetas), as
 * fresh objects the caller may change.
 * @param {object[]} whole @param {{updated: boolean, limit: number, before: object|null}} q
 * @returns {object[]}
 */
export function wholeAnswer(whole, q) {
  const copy = whole.map((s) => ({ ...s }));
  return q.updated ? pageFrom(copy.sort(newestFirst), q) : copy;
}

/**
 * The value of `sessions` for query q from the head (the newest sessions,
 * newest first, and whether they are all: store/listing.js readHead), as
 * fresh objects; null when the head cannot tell it (creation order, or a
 * page that may go on past the head).
 * @param {{items: object[], complete: boolean}} head @param {{updated: boolean, limit: number, before: object|null}} q
 * @returns {object[]|null}
 */
export function headAnswer(head, q) {
  if (!q.updated) return null;
  const page = pageFrom(head.items, q);
  return page.length === q.limit || head.complete ? page.map((s) => ({ ...s })) : null;
}
