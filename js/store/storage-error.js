// The STORAGE_ERROR envelope of sessiontree's IndexedDB store: what a call
// resolves to when the change it made could not be stored (see
// store/writer.js).

import { STORAGE_ERROR } from "../protocol.js";

/** The error code of envelopes for a change that could not be stored (from the contract). */
export { STORAGE_ERROR };

/**
 * The envelope a call resolves to when its IndexedDB transaction failed:
 * the message names the browser's error as `name: message` (the name
 * alone when the browser gives no message, as Chromium does for a
 * QuotaExceededError), never empty.
 * @param {unknown} err the transaction's error (a DOMException) or an Error
 * @param {string} [consequence] what did not happen; default: a mutating call's
 * @returns {{ok: false, error: {code: string, message: string}}}
 */
export function storageErrorEnvelope(err, consequence = "the change was not saved and was undone") {
  const name = err?.name || "Error";
  const detail = err?.message ? `: ${err.message}` : "";
  const what = name === "QuotaExceededError"
    ? `storage full: the browser's storage quota for this site is used up (QuotaExceededError${detail})`
    : `storage error: IndexedDB failed (${name}${detail})`;
  return { ok: false, error: { code: STORAGE_ERROR, message: `${what}; ${consequence}` } };
}
