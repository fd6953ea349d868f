// What every persisted SessionTree reads from its IndexedDB records
// without its store (installed on TreeAPI's prototype by js/tree-api.js,
// as js/chat-ops.js is): for showing a session while the store opens it.

import { checkString, invalidArgument, readOptions } from "./api-errors.js";
import { MAX_TAIL_LIMIT, readStoredContext } from "./store/stored-context.js";

/** The messages storedContext gives without a `limit`. */
export const STORED_CONTEXT_LIMIT = 20;

export const storedOps = {
  /**
   * The end of a stored session's context, read from its IndexedDB
   * records in this thread without waiting for the store: a session paged
   * out of the store (never opened in this page, or evicted) is read into
   * the wasm at its first call, which for 100,000 nodes takes a second or
   * more; its last messages are in its newest records and come in tens of
   * milliseconds (js/store/stored-context.js). The value is what is stored
   * now: writes not yet stored are not in it, and annotations (labels,
   * hides) are not applied. <session-tree-panel> shows it while a session
   * opens (static/panel-loader.js).
   * @param {string} sessionId
   * @param {{limit?: number}} [options] limit: the most nodes, an integer from 1 to 200 (default STORED_CONTEXT_LIMIT, 20)
   * @returns {Promise<{ok: true, value: {sessionId: string, title: string, nodeCount: number, cursor: string|null, activeBranch: string, updatedAt: string, nodes: object[], complete: boolean}|null}|{ok: false, error: object}>}
   *   nodes: the last `limit` nodes of the path from the root to the cursor, in path order, in snapshot
   *   form; complete: they start at the root (fewer than `limit` with complete false when the path goes
   *   back past the session's newest 20,000 nodes, TAIL_SCAN_NODES). value null when the tree is not
   *   persisted, the session is not stored (an id core refuses never is) or is in the trash, or its records
   *   are damaged, or its cursor is older than its newest 20,000 nodes. It reads the records after close()
   *   too (it holds no connection). INVALID_ARGUMENT for a sessionId or limit not as above (a limit of
   *   null or undefined is the default); never rejects.
   */
  async storedContext(sessionId, options) {
    const bad = checkString("storedContext", "sessionId", sessionId);
    if (bad) return bad;
    const { error, values } = readOptions("storedContext", options, ["limit"]);
    if (error) return error;
    const limit = values.limit ?? STORED_CONTEXT_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_TAIL_LIMIT) return invalidArgument("storedContext", "options.limit", `must be an integer from 1 to ${MAX_TAIL_LIMIT}`, limit);
    return { ok: true, value: this._dbName ? await readStoredContext(this._dbName, sessionId, limit) : null };
  },
};
