// Reading an envelope's text without parsing it: whether it failed, its
// code, its value's exact text. Every answer of core (and of the handle)
// starts with one of the heads core's contract publishes (js/protocol.js,
// generated from core/protocol.go), so these read that contract, never a
// message's wording. No IndexedDB, no wasm: pure text.

import { ENVELOPE_COLUMNS_HEAD, ENVELOPE_FAILED_HEAD, ENVELOPE_OK_HEAD } from "./protocol.js";

/**
 * Whether an envelope's text is a failure (`{"ok":false,…}`).
 * @param {string} text an envelope's exact JSON text, as core wrote it
 * @returns {boolean}
 */
export function envelopeFailed(text) {
  return text.startsWith(ENVELOPE_FAILED_HEAD);
}

/**
 * The code of a failed envelope's text ("SESSION_NOT_FOUND"), read from
 * its head alone (so a large envelope is not parsed), or null for an ok
 * envelope or text that is not one.
 * @param {string} text an envelope's exact JSON text, as core wrote it
 * @returns {string|null}
 */
export function envelopeCode(text) {
  if (!text.startsWith(ENVELOPE_FAILED_HEAD)) return null;
  const end = text.indexOf('"', ENVELOPE_FAILED_HEAD.length + 1); // codes are upper-case ASCII: no escapes
  return end < 0 ? null : text.slice(ENVELOPE_FAILED_HEAD.length + 1, end);
}

/**
 * The exact JSON text of an ok envelope's value (numbers keep every
 * digit, as JSON.parse would not), or null when the envelope failed or the
 * text is not one.
 * @param {string} text an envelope's exact JSON text, as core wrote it
 * @returns {string|null}
 */
export function envelopeValueText(text) {
  return text.startsWith(ENVELOPE_OK_HEAD) && text.endsWith("}") ? text.slice(ENVELOPE_OK_HEAD.length, -1) : null;
}

/**
 * Whether a context answer of the handle (`handle.context`) came in
 * columns (`{"ok":true,"columns":…}`) rather than as an envelope.
 * @param {string} text the handle's answer
 * @returns {boolean}
 */
export function answeredInColumns(text) {
  return text.startsWith(ENVELOPE_COLUMNS_HEAD);
}
