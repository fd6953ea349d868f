//# allFunctionsCalledOnLoad
// The JSON text of requests: building the shim's own requests from JSON
// pieces, and reading which operation a request names from the very text
// that is sent to the wasm. No IndexedDB, no wasm: pure text.

import { ERROR, SNAPSHOT_MEMBERS, SNAPSHOT_VERSION } from "./protocol.js";

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();

/**
 * Concatenate texts and byte arrays into one UTF-8 byte array.
 * @param {(string|Uint8Array)[]} parts
 * @returns {Uint8Array}
 */
export function concatUTF8(parts) {
  const bytes = parts.map((p) => (typeof p === "string" ? utf8Encoder.encode(p) : p));
  let length = 0;
  for (const b of bytes) length += b.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const b of bytes) {
    out.set(b, at);
    at += b.length;
  }
  return out;
}

/**
 * The JSON object text of `fields` (as JSON.stringify writes it: members
 * whose value is undefined are left out) followed by raw members: each
 * `[key, raw]` of `raws` adds `"key":raw` with raw, JSON text already
 * (a string, or its UTF-8 bytes), inserted as it is and never re-encoded.
 * The pieces are put side by side; nothing is searched or replaced, so no
 * field's value (a session named "__N__", "$&") can be taken for a raw
 * part.
 * @param {object} fields plain members, written first and in their order
 * @param {[string, string|Uint8Array][]} raws
 * @returns {string|Uint8Array} a string when every raw is a string, else UTF-8 bytes
 */
export function spliceJSON(fields, raws) {
  const head = JSON.stringify(fields);
  const parts = [head.slice(0, -1)];
  let sep = head === "{}" ? "" : ",";
  for (const [key, raw] of raws) {
    parts.push(sep + JSON.stringify(key) + ":", raw);
    sep = ",";
  }
  parts.push("}");
  return parts.every((p) => typeof p === "string") ? parts.join("") : concatUTF8(parts);
}

/**
 * A copy of bytes given as a Uint8Array or an ArrayBuffer (the caller's
 * stay theirs), or null when they cannot be read: an ArrayBuffer
 * transferred elsewhere (postMessage, structuredClone) is detached, and
 * slicing it throws.
 * @param {Uint8Array|ArrayBuffer} bytes
 * @returns {Uint8Array|null}
 */
export function copyBytes(bytes) {
  try {
    return bytes instanceof Uint8Array ? bytes.slice() : new Uint8Array(bytes.slice(0));
  } catch {
    return null;
  }
}

/**
 * The class name of an object of a class with no fields of its own (a
 * Blob, a Map, a Date: JSON sends `{}`, and reading its members finds
 * none), else null (a plain object, one without a prototype, or one with
 * own fields). May throw, as Object.getPrototypeOf does on a revoked Proxy.
 * @param {object} value
 * @returns {string|null}
 */
export function fieldlessClass(value) {
  const proto = Object.getPrototypeOf(value);
  if (proto === null || proto === Object.prototype || Object.keys(value).length > 0) return null;
  return Object.prototype.toString.call(value).slice(8, -1);
}

/**
 * Whether a request is bytes (a Uint8Array or an ArrayBuffer). False for
 * one `instanceof` cannot read (a revoked Proxy, a Proxy whose
 * getPrototypeOf throws): requestJSON then answers why it is no request.
 * @param {unknown} request
 * @returns {boolean}
 */
export function isBytes(request) {
  try {
    return request instanceof Uint8Array || request instanceof ArrayBuffer;
  } catch {
    return false;
  }
}

/**
 * A request object as JSON text, or the reason it cannot be one: JSON
 * cannot encode it (a BigInt, a cycle, a throwing toJSON or getter), it
 * encodes to nothing (undefined, a function), or a top-level member holds
 * a value JSON.stringify would quietly drop or make null: NaN or
 * ±Infinity, a function, a Symbol.
 * Each such member is refused by name, so `fork(id, node, {newSessionId:
 * NaN})` is INVALID_ARGUMENT, not a fork with a made-up id. (undefined
 * stays "absent"; deeper values, inside a message, are JSON.stringify's:
 * checking them would cost a walk of every message; a request with its
 * own toJSON is sent as JSON.stringify reads it, unchecked.) An object of
 * a class with no fields of its own (a Blob, a Map, an ArrayBuffer: JSON
 * would send `{}`) is refused naming the class.
 * @param {object} request
 * @returns {{text: string} | {error: string}} error: the envelope's message
 */
export function requestJSON(request) {
  let text;
  try {
    // A request with its own toJSON says what is sent: JSON.stringify's reading of it stands.
    if (request !== null && typeof request === "object" && !Array.isArray(request) && typeof request.toJSON !== "function") {
      const fieldless = fieldlessClass(request);
      if (fieldless !== null) return { error: `request is a ${fieldless}, which has no fields: give an object like {operation: "session", sessionId: "demo"} or its JSON text` };
      for (const key of Object.keys(request)) {
        const why = notJSON(request[key]);
        if (why) return { error: `field "${key}" is ${why}, which JSON cannot carry: give a string, a finite number, a boolean, null, an array or an object` };
      }
    }
    text = JSON.stringify(request);
  } catch (err) {
    return { error: `request cannot be encoded as JSON: ${err?.message ?? err}` };
  }
  if (typeof text !== "string") return { error: 'request must be an object like {operation: "session", sessionId: "demo"}' };
  return { text };
}

/** What a value JSON.stringify drops or makes null is ("NaN", "a function"…); "" for any other. */
function notJSON(v) {
  switch (typeof v) {
    case "number":
      return Number.isFinite(v) ? "" : String(v);
    case "function":
      return "a function";
    case "symbol":
      return "a Symbol";
  }
  return "";
}

/** Why copyBytes gave null, after the argument's name. */
export const DETACHED_BYTES = "is an ArrayBuffer (or a view of one) that was transferred elsewhere (detached), so it holds nothing to read";

/**
 * A snapshot file's text or UTF-8 bytes without the byte order mark it
 * may start with, as import reads a file: a UTF-8 BOM is dropped, and
 * bytes that start with a UTF-16 BOM are decoded to text (the BOM dropped,
 * a lone surrogate read as U+FFFD).
 * @param {string|Uint8Array} raw
 * @returns {string|Uint8Array}
 */
export function withoutBOM(raw) {
  if (typeof raw === "string") return raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  const bom = byteOrderMark(raw);
  if (bom === "utf-8") return raw.subarray(3);
  return bom === null ? raw : new TextDecoder(bom).decode(raw);
}

/**
 * The encoding the byte order mark at the start of bytes names:
 * "utf-8", "utf-16le", "utf-16be", or null when they start with none.
 * @param {Uint8Array} bytes at least their first 3 bytes
 * @returns {"utf-8"|"utf-16le"|"utf-16be"|null}
 */
export function byteOrderMark(bytes) {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return null;
}

/**
 * The answer of a snapshot.load whose snapshot was spliced into the
 * request as given (spliceJSON): a request core could not read failed
 * for the snapshot's text alone (the rest is the shim's), so it answers
 * INVALID_SNAPSHOT about the snapshot: "not valid JSON" with the column
 * counted from the snapshot's start on its first line (core counts bytes
 * of the request's line, `head` of them before the snapshot; a fault past
 * the snapshot's end is put just after it), "not valid UTF-8", or, for a
 * member core found repeated, text after the object. Any other answer is
 * returned as it is.
 * @param {object} env the envelope @param {number} head UTF-8 bytes of the request before the snapshot
 * @param {() => number} size the snapshot's UTF-8 bytes (asked only for a fault on its first line)
 * @returns {object}
 */
export function splicedSnapshotAnswer(env, head, size) {
  if (env?.ok !== false || env.error.code !== ERROR.INVALID_ARGUMENT) return env;
  const message = env.error.message;
  const fault = (text) => ({ ok: false, error: { code: ERROR.INVALID_SNAPSHOT, message: text } });
  if (message.startsWith("request is not valid JSON: ")) {
    return fault("snapshot is not valid JSON: " + message.slice(27).replace(/ at line 1, column (\d+)$/, (_, c) => ` at line 1, column ${Math.max(1, Math.min(Number(c) - head, size() + 1))}`));
  }
  if (message === "request is not valid UTF-8") return fault("snapshot is not valid UTF-8 (nor UTF-16 with a byte order mark)");
  if (/^field "[^"]*" appears more than once in the request/.test(message)) return fault("snapshot is not one JSON object: text follows its closing brace");
  return env;
}

/** Characters (or bytes) of a request's start that requestHead looks at. */
const HEAD_CHARS = 512;

/** JSON's white space (RFC 8259 §2), by UTF-16 code unit. */
const WHITE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/** The UTF-16 code units a JSON number is made of (RFC 8259 §6). */
const NUMBER_CHARS = new Set([..."0123456789+-.eE"].map((c) => c.charCodeAt(0)));

/**
 * The members at the start of the JSON object that text begins with, read
 * as a JSON parser reads them (keys and string values unescaped; strings,
 * numbers, true, false and null as values), up to `count` members. The
 * reading stops before a member whose value is an object or an array, or
 * that the text ends inside (a cut start), or at anything that is not
 * JSON: what was read whole is returned, and nothing when text does not
 * start with an object. A member counts when a "," or the object's "}"
 * follows it, or the text ends right after its (string, true, false or
 * null) value. Pure text; no regex.
 * @param {string} text
 * @param {number} count
 * @returns {[string, string|number|boolean|null, number, number][]} [key, value, start, end]:
 *   the value's JSON text is text.slice(start, end) (UTF-16 code units)
 */
export function leadingMembers(text, count) {
  const out = [];
  let at = 0;
  const skip = () => {
    while (at < text.length && WHITE.has(text.charCodeAt(at))) at++;
  };
  skip();
  if (text[at] !== "{") return out;
  at++;
  while (out.length < count) {
    skip();
    const key = jsonString(text, at);
    if (key === null) return out;
    at = key.end;
    skip();
    if (text[at] !== ":") return out;
    at++;
    skip();
    const value = jsonScalar(text, at);
    if (value === null) return out;
    const member = [key.value, value.value, at, value.end];
    at = value.end;
    skip();
    if (at === text.length) out.push(member); // a cut start: the value is whole
    if (text[at] !== "," && text[at] !== "}") return out;
    out.push(member);
    if (text[at] === "}") return out;
    at++;
  }
  return out;
}

/**
 * The JSON string that starts at text[at] (its quote), unescaped, and
 * where it ends; null when none starts there or the text ends inside it.
 * @param {string} text @param {number} at
 * @returns {{value: string, end: number}|null}
 */
function jsonString(text, at) {
  if (text[at] !== '"') return null;
  for (let i = at + 1; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === '"') {
      try {
        return { value: JSON.parse(text.slice(at, i + 1)), end: i + 1 };
      } catch {
        return null; // a control character or a bad escape: not JSON
      }
    }
  }
  return null;
}

/**
 * The JSON string, number, true, false or null that starts at text[at],
 * and where it ends; null for an object, an array, a value the text ends
 * inside, or what is not JSON.
 * @param {string} text @param {number} at
 * @returns {{value: string|number|boolean|null, end: number}|null}
 */
function jsonScalar(text, at) {
  if (text[at] === '"') return jsonString(text, at);
  for (const [word, value] of [["true", true], ["false", false], ["null", null]]) {
    if (text.startsWith(word, at)) return { value, end: at + word.length };
  }
  let end = at;
  while (end < text.length && NUMBER_CHARS.has(text.charCodeAt(end))) end++;
  if (end === at || end === text.length) return null; // not a number, or one that may go on
  try {
    return { value: JSON.parse(text.slice(at, end)), end };
  } catch {
    return null;
  }
}

/**
 * Requests larger than this (UTF-16 code units or bytes) are not parsed
 * by requestOperation: their operation is "" unless their start names it.
 */
export const PARSE_LIMIT = 1 << 20;

/**
 * The operation named by the first member of a request's text, or null
 * when the text does not start with an object whose first member is
 * "operation" with a string value (see leadingMembers). Reads only the
 * first HEAD_CHARS of the text, so it costs the same for a request of any
 * size. Core refuses a request that names "operation" twice (or repeats
 * any key): see requestOperation.
 * @param {string|Uint8Array} text the request as JSON text or its UTF-8 bytes
 * @returns {string|null}
 */
export function requestHead(text) {
  const start = typeof text === "string" ? text.slice(0, HEAD_CHARS) : utf8Decoder.decode(text.subarray(0, HEAD_CHARS));
  const [first] = leadingMembers(start, 1);
  return first !== undefined && first[0] === "operation" && typeof first[1] === "string" ? first[1] : null;
}

/**
 * The operation a request's text names, read as core reads it, or ""
 * when that is not known: the text is not a JSON object with a string
 * "operation", or it is larger than PARSE_LIMIT and does not start with
 * its operation.
 *
 * The start of the text is read first (requestHead). A name found there
 * is taken as it is unless `confirm(name)` is true; then, as when the
 * start does not name it, the whole text is parsed (JSON.parse; a text
 * that repeats a key is refused by core, whatever is read here). A caller confirms the
 * names it would answer differently (read-only operations, which skip the
 * IndexedDB writer): a wrongly named write-path operation is harmless,
 * since the writer handles every operation.
 * @param {string|Uint8Array} text the exact text (or bytes) sent to the wasm
 * @param {(operation: string) => boolean} confirm
 * @returns {string}
 */
export function requestOperation(text, confirm) {
  const head = requestHead(text);
  if (head !== null && !confirm(head)) return head;
  if (text.length > PARSE_LIMIT) return "";
  let request;
  try {
    request = JSON.parse(typeof text === "string" ? text : utf8Decoder.decode(text));
  } catch {
    return "";
  }
  const op = request !== null && typeof request === "object" && !Array.isArray(request) ? request.operation : undefined;
  return typeof op === "string" ? op : "";
}

/** A UTF-16 code unit of a surrogate pair that has no partner. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A request text with every lone surrogate (a UTF-16 code unit that
 * TextEncoder would silently turn into U+FFFD) written as its JSON escape
 * `\udXXX`, as JSON.stringify writes it for an object request: core then
 * answers a string request exactly as it answers the same request given as
 * an object (it refuses a lone surrogate in an id, keeps one in a message
 * as written). Outside a JSON string the escape is a syntax error, as the
 * code unit was. Text without lone surrogates is returned as it is.
 * @param {string} text
 * @returns {string}
 */
export function escapeLoneSurrogates(text) {
  if (typeof text.isWellFormed === "function" ? text.isWellFormed() : !LONE_SURROGATE.test(text)) return text;
  LONE_SURROGATE.lastIndex = 0;
  return text.replace(LONE_SURROGATE, (u) => "\\u" + u.charCodeAt(0).toString(16));
}

/** Bytes of a file's start that snapshotSessionId reads. */
export const SNAPSHOT_HEAD_BYTES = 4096;

/**
 * The session a version 1 snapshot names, read from the file's first
 * SNAPSHOT_HEAD_BYTES bytes, or null when the file does not start like one
 * (`{"version":1,"sessionId":"…"`, the members in snapshot.save's order).
 * Only a hint for routing: core still parses and checks the whole file,
 * and a snapshot whose members come in another order is not recognised
 * here (it imports through the general importer).
 * @param {Uint8Array} head the file's first bytes (more are ignored)
 * @returns {string|null}
 */
export function snapshotSessionId(head) {
  const [version, id] = leadingMembers(utf8Decoder.decode(head.subarray(0, SNAPSHOT_HEAD_BYTES)), 2);
  if (version?.[0] !== SNAPSHOT_MEMBERS[0] || version[1] !== SNAPSHOT_VERSION) return null;
  return id?.[0] === SNAPSHOT_MEMBERS[1] && typeof id[1] === "string" ? id[1] : null;
}
