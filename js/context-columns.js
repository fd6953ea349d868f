// A context answered in columns (core.ContextColumns, wasm/main.go
// columnsHeader) turned into the envelope object call() resolves to,
// without parsing JSON: the two content buffers (ASCII-only texts and the
// others, UTF-8) are decoded once and every plain message's content is a
// slice of that string. Used in the thread that runs the wasm (reading
// wasm memory) and, with the store in a Worker, in the page (reading the
// bytes the worker transferred). No wasm, no IndexedDB: pure data.
//
// A session's text cache only grows, so its decoded strings are kept for
// the last TEXT_CACHES caches and only the bytes added since are decoded.
// The side that owns the wasm decides which bytes are new (CachePlan), the
// side that builds the answer keeps the strings (TextCaches); both keep
// their entries in the same least-recently-used order, so they agree.

/** How many sessions' decoded text caches are kept (each about the size of the texts of a session's context). */
export const TEXT_CACHES = 4;

/**
 * Decodes context contents (UTF-8). ignoreBOM: a content that starts with
 * U+FEFF keeps it (the default decoder drops it).
 */
const contentDecoder = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * Decode UTF-8 bytes to a string ("" for none).
 * @param {Uint8Array} bytes
 * @returns {string}
 */
export function decodeContent(bytes) {
  return bytes.length === 0 ? "" : contentDecoder.decode(bytes);
}

/**
 * Where the new bytes of each text cache start, as the thread that owns the
 * wasm sees it: byte counts already decoded per cache id, least recently
 * used first.
 */
export class CachePlan {
  constructor() {
    /** @type {Map<number, {ascii: number, wide: number, layout: number}>} */
    this._known = new Map();
  }

  /**
   * The layouts whose messages the other side kept (the last answer of
   * each text cache it holds), for the wasm's context(request, held):
   * [cache, layout, cache, layout, …], at most TEXT_CACHES pairs. A context
   * that continues one of them is answered with only what follows it
   * (the header's prefix: the number of messages taken from that answer).
   * @returns {number[]}
   */
  held() {
    const out = [];
    for (const [cache, t] of this._known) if (t.layout > 0) out.push(cache, t.layout);
    return out;
  }

  /**
   * The offsets (in bytes) from which a columns answer's two buffers must
   * be decoded: 0 and 0, and again true, for an answer without cache
   * (cache 0) or one the other side does not hold (evicted, or a cache
   * that shrank: the session was loaded anew); again is false when the
   * other side continues what it holds, even from 0 and 0 (a cache with
   * no text yet). Records that the other side now holds them whole.
   * Records too that the other side will keep the messages of this
   * answer's layout (c.layout, 0 for none).
   * @param {{cache: number, layout: number, ascii: [number, number], wide: [number, number]}} c the columns header
   * @returns {{ascii: number, wide: number, again: boolean}}
   */
  take(c) {
    if (c.cache === 0) return { ascii: 0, wide: 0, again: true };
    let t = this._known.get(c.cache);
    this._known.delete(c.cache);
    const again = !t || t.ascii > c.ascii[1] || t.wide > c.wide[1];
    if (again) t = { ascii: 0, wide: 0 };
    const from = { ascii: t.ascii, wide: t.wide, again };
    this._known.set(c.cache, { ascii: c.ascii[1], wide: c.wide[1], layout: c.layout }); // most recent last
    evict(this._known);
    return from;
  }
}

/** The decoded strings of the last TEXT_CACHES text caches, least recently used first. */
export class TextCaches {
  constructor() {
    /** @type {Map<number, {ascii: string, wide: string}>} */
    this._texts = new Map();
  }

  /** How many caches' strings are kept. */
  get size() {
    return this._texts.size;
  }

  /**
   * The whole decoded buffers of an answer: its new parts appended to what
   * was kept for its cache (when `from` says the parts continue it), kept
   * again as the most recent. The entry also carries the rows and messages
   * of the last answer built from this cache (see contextEnvelope), while
   * the cache only grew: offsets into the buffers still name the same text.
   * A cache that starts again (from.again) drops them.
   * @param {number} cache the header's cache id (0: none, nothing is kept)
   * @param {{ascii: number, wide: number, again: boolean}} from what CachePlan.take said
   * @param {string} ascii @param {string} wide the decoded new parts
   * @returns {CachedTexts}
   */
  extend(cache, from, ascii, wide) {
    if (cache === 0) return { ascii, wide, rows: null, messages: null, roles: null, layout: 0 };
    let t = this._texts.get(cache);
    this._texts.delete(cache);
    const again = !t || from.again;
    t = again
      ? { ascii: new TextBuffer(ascii), wide: new TextBuffer(wide), rows: null, messages: null, roles: null, layout: 0 }
      : { ascii: t.ascii.concat(ascii), wide: t.wide.concat(wide), rows: t.rows, messages: t.messages, roles: t.roles, layout: t.layout };
    this._texts.set(cache, t);
    evict(this._texts);
    return t;
  }
}

/** How long (UTF-16 code units) a TextBuffer's tail grows before it is joined to its base. */
const TAIL_UNITS = 1 << 16;

/**
 * A decoded buffer that grows at its end, sliced as a string is: a large
 * base and the small parts added since, joined as one short tail string.
 * Concatenating onto the base itself made a rope that V8 flattens on the
 * next slice, copying the whole buffer (3.7 ms of a chat turn on a
 * 100,000-deep path for a 10 MB text); here a slice flattens at most the
 * tail (under TAIL_UNITS), and the base is copied once the tail reaches
 * it (for a 10 MB text, a copy every ~600 turns).
 */
export class TextBuffer {
  /** @param {string} base @param {string} [tail] */
  constructor(base, tail = "") {
    this.base = base;
    this.tail = tail;
  }

  /** Length in UTF-16 code units. */
  get length() {
    return this.base.length + this.tail.length;
  }

  /**
   * This buffer with more added at its end (a new object; this one is
   * unchanged).
   * @param {string} more
   * @returns {TextBuffer}
   */
  concat(more) {
    if (more === "") return this;
    const tail = this.tail + more;
    if (tail.length < TAIL_UNITS) return new TextBuffer(this.base, tail);
    return new TextBuffer(this.base + tail);
  }

  /**
   * The text from start to end (UTF-16 code units), as String.prototype.slice.
   * @param {number} start @param {number} end
   * @returns {string}
   */
  slice(start, end) {
    const n = this.base.length;
    if (end <= n) return this.base.slice(start, end);
    if (start >= n) return this.tail.slice(start - n, end - n);
    return (this.base + this.tail).slice(start, end);
  }
}

/**
 * One text cache as the building side holds it: the whole decoded buffers,
 * and the rows, roles, messages and layout number of the last answer built
 * from them (null and 0 before the first, or after the cache started
 * again).
 * (Buffers are strings, or TextBuffers for a cache that grows.)
 * @typedef {{ascii: string|TextBuffer, wide: string|TextBuffer, rows: Int32Array|null, messages: object[]|null, roles: string[]|null, layout: number}} CachedTexts
 */

function evict(map) {
  for (const id of map.keys()) {
    if (map.size <= TEXT_CACHES) break;
    map.delete(id);
  }
}

/**
 * The envelope of a context answered in columns. Keys are in the order
 * JSON.parse of the text answer gives them.
 *
 * A plain message ({role, content}) whose row (code, start, end) and role
 * are those of the same position in the last answer built from the same
 * text cache is that answer's message object again: a chat turn (append,
 * then context) builds only the new messages, as a plain JS tree would
 * (bench/turn.mjs). Plain message objects are therefore frozen (shared
 * between answers, they must not be changed by one caller under another);
 * the messages array itself is new each time. Other messages (tool calls,
 * parts) are parsed anew for each answer.
 *
 * An answer with a prefix (the wasm was told, through CachePlan.held, that
 * this side kept the last answer's messages, and the context continues
 * that answer's path) holds rows and other messages only for what follows:
 * its first `prefix` messages are that answer's, taken without looking at
 * them (a chat turn on a 100,000-deep path moves and compares three rows,
 * not 300,000).
 * @param {{cursor: string, count: number, prefix: number, layout: number, roles: string[], other: object[], state: object}} c the columns header
 * @param {CachedTexts} texts the whole decoded buffers (and the last answer's rows, to reuse; updated to this one)
 * @param {Int32Array} rows three numbers per message after the prefix: code (negative: the next of `other`; bit 0: role after content; bit 1: wide; code >> 2: role index), start, end
 * @returns {{ok: true, value: {cursor: string, messages: object[], state: object}}}
 * @throws {Error} when the answer has a prefix this side does not hold (the two sides disagree: a bug)
 */
export function contextEnvelope(c, texts, rows) {
  const messages = startMessages(c, texts);
  fillMessages(c, texts, rows, messages, c.prefix, 0, Infinity);
  remember(texts, c, rows, messages);
  return { ok: true, value: { cursor: c.cursor, messages, state: c.state } };
}

/** The messages array of an answer, its prefix (if any) taken from the last answer of its cache. */
function startMessages(c, texts) {
  if (!(c.prefix > 0)) return new Array(c.count);
  if (texts.messages === null || texts.messages.length !== c.prefix) {
    throw new Error(`a context answer continues ${c.prefix} messages this side does not hold (${texts.messages === null ? "none" : texts.messages.length} kept)`);
  }
  return texts.messages.slice();
}

/** Messages made per slice of contextEnvelopeSliced (1–2 ms of the page's thread each on an idle machine, ~35 ms on this one with a load average of 12); a message reused from the last answer counts as 1/REUSED_PER_MADE of one. */
export const SLICE_MESSAGES = 10000;

/** How many reused messages cost what one made message does (a compare of three numbers and a role against an allocation, a slice and a freeze). */
const REUSED_PER_MADE = 32;

/** Bytes decoded per slice of contextEnvelopeSliced. */
export const SLICE_BYTES = 1 << 20;

/**
 * contextEnvelope in slices, `await next()` between them (a task that lets
 * the page paint and take input), for large answers built on the page's
 * thread: the buffers are decoded SLICE_BYTES at a time (a streaming
 * decoder, so a character split between slices is whole), the messages
 * made SLICE_MESSAGES at a time (reused ones count 1/REUSED_PER_MADE, so a
 * chat turn's answer takes one slice). The same value.
 * @param {object} c the columns header
 * @param {(ascii: string, wide: string) => CachedTexts} whole
 *   given the decoded new parts, the whole buffers (TextCaches.extend)
 * @param {Uint8Array} asciiBytes @param {Uint8Array} wideBytes the new parts' bytes
 * @param {Int32Array} rows
 * @param {() => Promise<void>} next
 * @returns {Promise<{ok: true, value: {cursor: string, messages: object[], state: object}}>}
 */
export async function contextEnvelopeSliced(c, whole, asciiBytes, wideBytes, rows, next) {
  const decode = async (bytes) => {
    if (bytes.length <= SLICE_BYTES) return decodeContent(bytes);
    const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
    const parts = [];
    for (let at = 0; at < bytes.length; at += SLICE_BYTES) {
      parts.push(decoder.decode(bytes.subarray(at, Math.min(at + SLICE_BYTES, bytes.length)), { stream: at + SLICE_BYTES < bytes.length }));
      await next();
    }
    return parts.join("");
  };
  const ascii = await decode(asciiBytes);
  const wide = await decode(wideBytes);
  const texts = whole(ascii, wide);
  const messages = startMessages(c, texts);
  let at = [c.prefix > 0 ? c.prefix : 0, 0];
  for (;;) {
    at = fillMessages(c, texts, rows, messages, at[0], at[1], SLICE_MESSAGES * REUSED_PER_MADE);
    if (at[0] >= c.count) break;
    await next();
  }
  remember(texts, c, rows, messages);
  return { ok: true, value: { cursor: c.cursor, messages, state: c.state } };
}

/**
 * Keep this answer's rows (a copy when they are a view into a larger
 * buffer, such as wasm memory; after a prefix, the kept rows with these
 * added), roles, messages and layout for the next answer from the same
 * cache.
 */
function remember(texts, c, rows, messages) {
  if (c.prefix > 0) texts.rows = appendRows(texts.rows, rows);
  else texts.rows = rows.byteOffset === 0 && rows.byteLength === rows.buffer.byteLength ? rows : rows.slice();
  texts.roles = c.roles;
  texts.messages = messages;
  texts.layout = c.layout;
}

/**
 * kept with more added: in place when kept's buffer (this module's own,
 * never handed out) has room, else in a new buffer with room for half as
 * many again, so a chat turn copies the rows only now and then.
 * @param {Int32Array} kept @param {Int32Array} more
 * @returns {Int32Array}
 */
function appendRows(kept, more) {
  const n = kept.length + more.length;
  if (kept.byteOffset === 0 && kept.buffer.byteLength >= n * 4) {
    const rows = new Int32Array(kept.buffer, 0, n);
    rows.set(more, kept.length);
    return rows;
  }
  const rows = new Int32Array(new ArrayBuffer(Math.ceil(n * 1.5 + 3) * 4), 0, n);
  rows.set(kept);
  rows.set(more, kept.length);
  return rows;
}

/**
 * Make messages from index i on, until done or until the work spent
 * reaches budget (a made message costs REUSED_PER_MADE, a reused one 1);
 * o is the index in `other` of the first message that is not plain at or
 * after i. rows start at message c.prefix (0 when the answer has none).
 * Returns [the next i, the next o].
 */
function fillMessages(c, texts, rows, messages, i, o, budget) {
  const { roles, other, count } = c;
  const skip = c.prefix > 0 ? c.prefix * 3 : 0;
  const { ascii, wide } = texts;
  const prev = texts.rows;
  const prevMessages = texts.messages;
  const prevRoles = texts.roles;
  // After a prefix, the messages that follow are new: nothing to compare.
  const reusable = prev === null || skip > 0 ? 0 : Math.min(prev.length, rows.length);
  let spent = 0;
  for (let k = i * 3 - skip; i < count && spent < budget; i++, k += 3) {
    const code = rows[k];
    if (code < 0) {
      messages[i] = other[o++];
      spent += REUSED_PER_MADE;
      continue;
    }
    const start = rows[k + 1];
    const end = rows[k + 2];
    const role = roles[code >> 2];
    if (k + 2 < reusable && prev[k] === code && prev[k + 1] === start && prev[k + 2] === end && prevRoles[code >> 2] === role) {
      messages[i] = prevMessages[i];
      spent++;
      continue;
    }
    const content = (code & 2 ? wide : ascii).slice(start, end);
    messages[i] = Object.freeze(code & 1 ? { content, role } : { role, content });
    spent += REUSED_PER_MADE;
  }
  return [i, o];
}
