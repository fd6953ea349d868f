// A context asked for while a persisted store starts, answered before
// the store has every stored session as a stub (issue 24: a fresh page
// that opens the last session at once). The store's start hands core one
// stub per stored session (10,000 sessions: ~80 ms of cold wasm) and only
// then answers calls; a context needs only its own session. So a context
// that reaches the worker first is answered from that session's stored
// records alone, read while the wasm starts and restored into a store of
// its own in the same Go program, which is freed after; the store's start
// waits for it (finish) and goes on.
//
// Only an answer core gives as ok is handed out this way: core reads the
// same request text on the same records the store would load for it (a
// context depends on its session alone), so that answer is the store's.
// Anything else (another operation, a session not stored or in the trash,
// records that cannot be read, an error of core's) answers null, and the
// call waits for the store as before: its answer, error or not, is the
// store's own. So does a session of more than FIRST_CONTEXT_NODES nodes:
// the store loads it again for the next call on it, and for a large one
// that second load costs more than the wait for the stubs saves.

import { STORES } from "./store/schema.js";
import { readSnapshot, requestPromise, restoreRequest } from "./store/records.js";
import { guardHandle } from "./runtime.js";
import { escapeLoneSurrogates, isBytes } from "./request-text.js";

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The most nodes of a session whose first context is answered here. The
 * store's own load of it follows at its next call: ~6 ms per 1,000 nodes
 * on an idle machine, against the 40–160 ms this answer saves
 * (bench/RESULTS.md); a session of 100,000 nodes answered here made the
 * explorer's next call on it (its rows) wait 1.5–3 s for a second load.
 */
export const FIRST_CONTEXT_NODES = 10000;

/** The context calls of one store's start (see the top of this file). */
export class FirstContext {
  /**
   * @param {Promise<{api: object, memory: WebAssembly.Memory, state: {exited: string|null}}>} runtime the Go program, once it runs (js/runtime.js loadRuntime)
   * @param {Promise<IDBDatabase>} db the store's database, once open (rejects when it cannot be)
   * @param {number|undefined} memoryBudget the store's memory budget in bytes (init's option)
   */
  constructor(runtime, db, memoryBudget) {
    this.runtime = runtime;
    this.db = db;
    this.memoryBudget = memoryBudget;
    /** The answers begun and not settled. */
    this.running = new Set();
    /** Set by finish: no answer begins after it. */
    this.closed = false;
    /** Contexts answered here, for tests. */
    this.answered = 0;
  }

  /**
   * The envelope text of request (a call's payload as the worker got it:
   * JSON text, or its UTF-8 bytes) answered from its session's stored
   * records, or null when the store must answer it (see the top of this
   * file). Never rejects.
   * @param {string|Uint8Array} request
   * @returns {Promise<string|null>}
   */
  answer(request) {
    if (this.closed) return Promise.resolve(null);
    let text;
    try {
      text = typeof request === "string" ? request : isBytes(request) ? utf8.decode(request) : null;
    } catch {
      return Promise.resolve(null); // not UTF-8: core's answer to it is the store's error
    }
    const id = text === null ? null : contextSession(text);
    if (id === null) return Promise.resolve(null);
    const p = this._answer(typeof request === "string" ? escapeLoneSurrogates(request) : request, id).catch(() => null);
    this.running.add(p);
    p.finally(() => this.running.delete(p));
    return p;
  }

  /** answer for session id once its records are read and the Go program runs. */
  async _answer(request, id) {
    const db = await this.db;
    const tx = db.transaction(STORES, "readonly");
    const meta = await requestPromise(tx.objectStore("sessions").get(id));
    if (!meta || typeof meta !== "object" || meta.deletedAt || meta.erased === true || !(meta.nodeCount <= FIRST_CONTEXT_NODES)) return null;
    const snapshot = await readSnapshot(tx, meta);
    const runtime = await this.runtime;
    if (runtime.state.exited !== null) return null;
    const handle = guardHandle(runtime.api.newStore(runtime.memory), runtime.state);
    try {
      if (this.memoryBudget !== undefined) handle.setMemoryBudget(this.memoryBudget);
      if (!handle.callInternal(restoreRequest(meta, snapshot)).startsWith('{"ok":true')) return null;
      const envelope = handle.call(request, false);
      if (typeof envelope !== "string" || !envelope.startsWith('{"ok":true')) return null;
      this.answered++;
      return envelope;
    } finally {
      handle.free();
    }
  }

  /**
   * Wait for every answer begun, then answer null to any later request:
   * the store's start calls it before it makes the stubs, so that the
   * calls that wait for the store come after the ones answered here.
   * @returns {Promise<void>}
   */
  async finish() {
    while (this.running.size > 0) await Promise.all(this.running);
    this.closed = true;
  }
}

/**
 * The sessionId of a JSON text that names the operation "context", else
 * null (core refuses a repeated key: then the store answers).
 * @param {string} text @returns {string|null}
 */
function contextSession(text) {
  let request;
  try {
    request = JSON.parse(text);
  } catch {
    return null;
  }
  const context = request !== null && typeof request === "object" && !Array.isArray(request) && request.operation === "context";
  return context && typeof request.sessionId === "string" ? request.sessionId : null;
}
