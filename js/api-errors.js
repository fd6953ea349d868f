//# allFunctionsCalledOnLoad
// The JS API's argument checks and error envelopes, shared by both
// threads' trees (js/tree-api.js, js/local.js, js/worker-tree.js) and
// their helpers: INVALID_ARGUMENT naming the method and argument,
// STORAGE_ERROR for a closed or restarted store. No wasm, no IndexedDB.

import { ERROR, MAX_TITLE_LENGTH, REASON } from "./protocol.js";
import { fieldlessClass } from "./request-text.js";

/**
 * An error envelope.
 * @param {string} code @param {string} message
 * @returns {{ok: false, error: {code: string, message: string}}}
 */
export function errorEnvelope(code, message) {
  return { ok: false, error: { code, message } };
}

/**
 * How a bad argument is shown in an INVALID_ARGUMENT message: its JSON
 * text when short, else its type ("undefined", "a function", "an object").
 * @param {unknown} value
 * @returns {string}
 */
function shown(value) {
  if (value === undefined) return "undefined";
  if (typeof value === "function") return "a function";
  if (typeof value === "symbol" || typeof value === "bigint") return `a ${typeof value}`;
  if (typeof value === "number" && !Number.isFinite(value)) return String(value); // JSON would say null
  let text;
  try {
    text = JSON.stringify(value);
  } catch {
    text = undefined;
  }
  if (typeof text === "string" && text.length <= 40) return text;
  return isArray(value) ? "an array" : `a${typeof value === "object" ? "n" : ""} ${typeof value}`;
}

/** Array.isArray, false where asking throws (a revoked Proxy). @param {unknown} value @returns {boolean} */
function isArray(value) {
  try {
    return Array.isArray(value);
  } catch {
    return false;
  }
}

/**
 * The INVALID_ARGUMENT envelope of a helper's bad argument, naming the
 * method, the argument and what it must be:
 * `listSnapshots: argument "sessionId" must be a non-empty string; got {}`.
 * @param {string} method @param {string} argument @param {string} rule @param {unknown} value
 * @returns {{ok: false, error: {code: "INVALID_ARGUMENT", message: string}}}
 */
export function invalidArgument(method, argument, rule, value) {
  return errorEnvelope(ERROR.INVALID_ARGUMENT, `${method}: argument ${JSON.stringify(argument)} ${rule}; got ${shown(value)}`);
}

/**
 * Check that argument `argument` of `method` is a non-empty string.
 * @param {string} method @param {string} argument @param {unknown} value
 * @returns {{ok: false, error: object}|null} the INVALID_ARGUMENT envelope, or null when it is one
 */
export function checkString(method, argument, value) {
  return typeof value === "string" && value !== "" ? null : invalidArgument(method, argument, "must be a non-empty string", value);
}

/** The longest restore point name, in characters (code points): a title's (core's MaxTitleLength, generated). */
export const MAX_NAME_LENGTH = MAX_TITLE_LENGTH;

/**
 * Check a name a person gives (a restore point's): a non-empty string of
 * at most MAX_NAME_LENGTH characters without control characters or lone
 * UTF-16 surrogates, the rule of a session's title.
 * @param {string} method @param {string} argument @param {unknown} value
 * @returns {{ok: false, error: object}|null} the INVALID_ARGUMENT envelope, or null when it is one
 */
export function checkName(method, argument, value) {
  const bad = checkString(method, argument, value);
  if (bad) return bad;
  let n = 0;
  for (const c of value) {
    n++;
    const u = c.codePointAt(0);
    if (n > MAX_NAME_LENGTH || u < 0x20 || (u >= 0x7f && u < 0xa0) || (u >= 0xd800 && u <= 0xdfff)) {
      return invalidArgument(method, argument, `must be at most ${MAX_NAME_LENGTH} characters without control characters or lone surrogates`, value);
    }
  }
  return null;
}

/**
 * Check an options argument: undefined, null or an object of options (not
 * an array, string or number, nor an object of a class with no fields of
 * its own, a Map, a Date or a Blob, whose entries would be read as none;
 * one that cannot be read, a revoked Proxy, is named too).
 * @param {string} method @param {unknown} options
 * @returns {{ok: false, error: object}|null} the INVALID_ARGUMENT envelope, or null when it is one
 */
export function checkOptions(method, options) {
  if (options === undefined || options === null) return null;
  try {
    if (typeof options !== "object" || Array.isArray(options)) return invalidArgument(method, "options", "must be an object", options);
    const fieldless = fieldlessClass(options);
    return fieldless === null ? null : errorEnvelope(ERROR.INVALID_ARGUMENT, `${method}: argument "options" must be an object of options; got a ${fieldless}, which has no fields`);
  } catch (err) {
    return unreadable(method, "options", err);
  }
}

/**
 * The INVALID_ARGUMENT envelope of an argument reading which threw (a
 * getter, a revoked Proxy): `create: argument "options" cannot be read: boom`.
 * @param {string} method @param {string} argument @param {unknown} err
 * @returns {{ok: false, error: {code: "INVALID_ARGUMENT", message: string}}}
 */
export function unreadable(method, argument, err) {
  return errorEnvelope(ERROR.INVALID_ARGUMENT, `${method}: argument ${JSON.stringify(argument)} cannot be read: ${err?.message ?? err}`);
}

/**
 * Read the named members of a method's options once, after checkOptions:
 * `values` holds them (none for undefined or null options), `error` the
 * INVALID_ARGUMENT envelope of options that are not an object or whose
 * reading throws (a getter, a revoked Proxy), else null.
 * @param {string} method @param {unknown} options @param {string[]} names
 * @returns {{error: {ok: false, error: object}|null, values: Record<string, any>}}
 */
export function readOptions(method, options, names) {
  const values = {};
  const error = checkOptions(method, options);
  if (error !== null || options === undefined || options === null) return { error, values };
  try {
    for (const name of names) values[name] = options[name];
  } catch (err) {
    return { error: unreadable(method, "options", err), values };
  }
  return { error: null, values };
}

/**
 * `value instanceof type`, false where asking throws (a Proxy whose
 * getPrototypeOf throws, a revoked Proxy), so such an argument is refused
 * as one of another type.
 * @param {unknown} value @param {Function} type
 * @returns {boolean}
 */
export function isInstance(value, type) {
  try {
    return value instanceof type;
  } catch {
    return false;
  }
}

/**
 * Check importText's arguments (both threads): text a non-empty string,
 * format a non-empty string (undefined: "auto"), options an object whose
 * onProgress is a function, signal an AbortSignal and sliceBytes a
 * positive integer, each when given.
 * @param {unknown} text @param {unknown} format @param {unknown} options
 * @returns {{ok: false, error: object}|null} the INVALID_ARGUMENT envelope, or null when they are fine
 */
export function checkImportArgs(text, format, options) {
  if (typeof text !== "string") return invalidArgument("importText", "text", "must be the file's text as a string", text);
  if (text === "") {
    const env = invalidArgument("importText", "text", "is empty: nothing to import", text);
    env.error.reason = REASON.NOTHING_TO_IMPORT;
    return env;
  }
  const bad = checkString("importText", "format", format);
  if (bad) return bad;
  const read = readOptions("importText", options, ["onProgress", "signal", "sliceBytes"]);
  if (read.error) return read.error;
  const { onProgress, signal, sliceBytes } = read.values;
  if (onProgress !== undefined && onProgress !== null && typeof onProgress !== "function") return invalidArgument("importText", "options.onProgress", "must be a function", onProgress);
  if (signal !== undefined && signal !== null && !(typeof AbortSignal === "function" && signal instanceof AbortSignal)) return invalidArgument("importText", "options.signal", "must be an AbortSignal", signal);
  if (sliceBytes !== undefined && !(Number.isInteger(sliceBytes) && sliceBytes > 0)) return invalidArgument("importText", "options.sliceBytes", "must be a positive integer", sliceBytes);
  return null;
}

/**
 * The STORAGE_ERROR envelope of a helper called on a tree that no longer
 * writes (closed by close(), another tab's newer schema, or the browser).
 * @param {string} reason the Writer's closedReason, e.g. "the tree was closed"
 * @param {string} consequence what did not happen, e.g. "the snapshot was not saved"
 * @returns {{ok: false, error: {code: "STORAGE_ERROR", message: string}}}
 */
export function closedEnvelope(reason, consequence) {
  return errorEnvelope(ERROR.STORAGE_ERROR, `storage error: ${reason}; ${consequence}`);
}

/** The largest memoryBudget init() takes, in bytes: wasm32's whole memory (4 GiB). */
export const MAX_MEMORY_BUDGET = 2 ** 32;

/**
 * Check init()'s memoryBudget option: undefined (the default, 2 GiB) or a
 * positive integer of bytes up to MAX_MEMORY_BUDGET.
 * @param {unknown} value
 * @returns {string|null} what is wrong with it, or null
 */
export function checkMemoryBudget(value) {
  if (value === undefined || (Number.isInteger(value) && value > 0 && value <= MAX_MEMORY_BUDGET)) return null;
  return `option "memoryBudget" must be a positive integer of bytes up to ${MAX_MEMORY_BUDGET}; got ${shown(value)}`;
}

/** The options init() takes (js/sessiontree.js): any other name is refused, so a misspelt one ("persits") is not silently the default. */
const INIT_OPTIONS = Object.freeze(["wasmURL", "workerURL", "worker", "dbName", "persist", "memoryBudget", "pageBudget"]);

/**
 * What is wrong with init()'s options, or null: they must be undefined,
 * null or an object; dbName a non-empty string; persist and worker
 * booleans; wasmURL and workerURL strings or URLs (each of these five
 * null or undefined: its default, as init() always read them); memoryBudget as
 * checkMemoryBudget says; no other name (INIT_OPTIONS). A number given as
 * dbName opened the database "5"; options that were a string were read as
 * none; a misspelt name was read as absent.
 * @param {unknown} options
 * @returns {string|null}
 */
export function checkInitOptions(options) {
  if (options === undefined || options === null) return null;
  if (typeof options !== "object" || Array.isArray(options)) return `options must be an object like {dbName: "chats"}; got ${shown(options)}`;
  const unknown = Object.keys(options).find((k) => !INIT_OPTIONS.includes(k));
  if (unknown !== undefined) return `unknown option ${JSON.stringify(unknown)}: init takes ${INIT_OPTIONS.join(", ")}`;
  const { dbName, persist, worker, wasmURL, workerURL } = options;
  if (dbName !== undefined && dbName !== null && (typeof dbName !== "string" || dbName === "")) return `option "dbName" must be a non-empty string; got ${shown(dbName)}`;
  for (const [name, v] of [["persist", persist], ["worker", worker]]) {
    if (v !== undefined && v !== null && typeof v !== "boolean") return `option "${name}" must be true or false; got ${shown(v)}`;
  }
  for (const [name, v] of [["wasmURL", wasmURL], ["workerURL", workerURL]]) {
    if (v !== undefined && v !== null && typeof v !== "string" && !(typeof URL === "function" && v instanceof URL)) return `option "${name}" must be a string or a URL; got ${shown(v)}`;
  }
  return checkMemoryBudget(options.memoryBudget);
}

/**
 * The error a call in flight is answered with when the store's worker
 * restarted under it (js/sessiontree.js): unansweredEnvelope turns it into
 * "the store restarted; nothing acknowledged was lost".
 * @param {string} reason why, e.g. "the Go runtime exited (code 2: fatal error: out of memory)"
 * @param {boolean} persistent whether the tree keeps its sessions in IndexedDB (else they are gone)
 * @returns {Error & {restarted: true, persistent: boolean}}
 */
export function restartError(reason, persistent) {
  const err = new Error(reason);
  err.name = "RestartError";
  err.restarted = true;
  err.persistent = persistent;
  return err;
}

/**
 * The STORAGE_ERROR envelope of a call the store did not answer: its
 * worker failed or stopped (js/sessiontree.js). The message names the
 * error as `name: message`; for a restartError, "storage error: the store
 * restarted; nothing acknowledged was lost (reason)" (or, for a tree kept
 * in memory only, that its sessions are gone).
 * @param {unknown} err
 * @returns {{ok: false, error: {code: "STORAGE_ERROR", message: string}}}
 */
export function unansweredEnvelope(err) {
  if (err?.restarted === true) {
    return errorEnvelope(ERROR.STORAGE_ERROR, err.persistent
      ? `storage error: the store restarted; nothing acknowledged was lost (${err.message})`
      : `storage error: the store restarted; this tree kept its sessions in memory only (persist: false) and they are gone (${err.message})`);
  }
  const name = err?.name || "Error";
  const message = err?.message ?? String(err);
  return errorEnvelope(ERROR.STORAGE_ERROR, `storage error: the store did not answer (${name}${message ? ": " + message : ""}); reload the page`);
}
