// How a LocalTree (js/local.js) answers a context request in columns
// (core/wire CallColumns, see docs/ARCHITECTURE.md, "Context in
// columns"): in its own thread as the envelope object, or for the page of
// a worker as the new bytes to transfer.

import { contextEnvelope, decodeContent } from "./context-columns.js";
import { noteFault } from "./local-paging.js";
import { answeredInColumns } from "./envelope.js";

/**
 * Answer a context request (UTF-8 bytes) with the envelope object,
 * building the messages array from the wasm's columns
 * (core.ContextColumns, wasm/main.go columnsHeader) instead of parsing
 * JSON: each of the two content buffers is decoded once, straight from
 * wasm memory, and every plain message's content is a slice of that
 * string. The value is the same as JSON.parse of callText's answer,
 * keys in the same order. Measured for a 100,000-deep path (13.6 MB),
 * see docs/DECISIONS.md, "Issue 8 — fourth pass".
 *
 * The contents share their buffer's string: a message kept after the
 * rest are dropped keeps that string alive, about the size of the
 * context's text (as a parsed answer would have been). When the buffers
 * are a session's text cache (`cache` in the header), the decoded strings
 * of the last TEXT_CACHES caches are kept in tree._texts and only the bytes added
 * since are decoded.
 * @param {import("./local.js").LocalTree} tree
 * @param {Uint8Array} request
 * @param {{ids: string[]|null}|null} fault see noteFault in js/local-paging.js
 * @returns {object} the envelope
 */
export function contextAnswer(tree, request, fault) {
  const head = tree._handle.context(request, tree._plan.held());
  noteFault(tree, head, fault);
  if (!answeredInColumns(head)) return JSON.parse(head); // an error, or not a context
  const c = JSON.parse(head).columns;
  tree._columnAnswers++;
  const buffer = tree._memory.buffer; // after the call: the memory may have grown
  const from = tree._plan.take(c);
  const part = ([address, bytes], at) => decodeContent(new Uint8Array(buffer, address + at, bytes - at));
  const texts = tree._texts.extend(c.cache, from, part(c.ascii, from.ascii), part(c.wide, from.wide));
  return contextEnvelope(c, texts, new Int32Array(buffer, c.rows[0], c.rows[1]));
}

/**
 * A context request answered for another thread (js/worker.js): the
 * envelope text when it is not answered in columns, else `{head, from,
 * ascii, wide, rows}` — the header's JSON text (a string crosses as a
 * copy, where its parsed `other` messages would be cloned object by
 * object, and Chromium's clone recurses: a message nested ~2,000 levels
 * deep failed to cross), the offsets CachePlan gave,
 * copies of the new bytes of both buffers and of the rows (their
 * ArrayBuffers are transferred). The page keeps the decoded strings of
 * the text caches (TextCaches) and builds the envelope with
 * contextEnvelope, so the copies hold only what it has not seen: after
 * an append, the new message's bytes and the rows (12 bytes a message).
 * @param {import("./local.js").LocalTree} tree
 * @param {Uint8Array} request
 * @param {{ids: string[]|null}|null} fault see noteFault in js/local-paging.js
 * @returns {string|{head: string, from: {ascii: number, wide: number}, ascii: Uint8Array, wide: Uint8Array, rows: Int32Array}}
 */
export function contextWire(tree, request, fault) {
  const head = tree._handle.context(request, tree._plan.held());
  noteFault(tree, head, fault);
  if (!answeredInColumns(head)) return head;
  const c = JSON.parse(head).columns;
  tree._columnAnswers++;
  const buffer = tree._memory.buffer;
  const from = tree._plan.take(c);
  const part = ([address, bytes], at) => new Uint8Array(buffer, address + at, bytes - at).slice();
  const rows = new Int32Array(buffer, c.rows[0], c.rows[1]).slice();
  return { head, from, ascii: part(c.ascii, from.ascii), wide: part(c.wide, from.wide), rows };
}
