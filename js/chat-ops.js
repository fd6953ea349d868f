// The operations a chat app needs, as typed methods of every SessionTree
// (installed on TreeAPI's prototype by js/tree-api.js): one call() each,
// so each resolves to call()'s envelope and a bad argument is core's
// INVALID_ARGUMENT (or, where JSON would lose it, one of its own), never a throw. The operations are core's (core/ops_view.go,
// core/rename.go, core/internal/store/trash.go, core/appendmany.go); see the README's
// operation table.

import { invalidArgument, unreadable } from "./api-errors.js";

/** @typedef {{ok: true, value: any} | {ok: false, error: {code: string, message: string}}} Envelope */

export const chatOps = {
  /**
   * leaf: the newest leaf under a node (the node itself when it has no
   * child), or of the whole session without nodeId. Read-only.
   * @param {string} sessionId @param {string} [nodeId]
   * @returns {Promise<Envelope>} value {sessionId, nodeId, leaf}. SESSION_NOT_FOUND, NODE_NOT_FOUND
   */
  leaf(sessionId, nodeId) {
    return this.call({ operation: "leaf", sessionId, nodeId });
  },

  /**
   * switch: the cursor to the newest leaf under `target.nodeId` (another
   * version of a turn, as the conversation went on from it), or to the
   * tip of the branch `target.branch`, in one call.
   * @param {string} sessionId @param {{nodeId: string} | {branch: string}} target
   * @returns {Promise<Envelope>} value the session status. INVALID_ARGUMENT unless exactly one of nodeId and branch; NODE_NOT_FOUND, NOT_FOUND (branch)
   */
  switchTo(sessionId, target) {
    let request;
    try {
      request = { operation: "switch", sessionId, nodeId: target?.nodeId, branch: target?.branch };
    } catch (err) {
      return Promise.resolve(unreadable("switchTo", "target", err)); // a getter that throws, a revoked Proxy
    }
    return this.call(request);
  },

  /**
   * rename: the session's title, as an appended title record (the newest
   * wins; no node changes). "" clears it.
   * @param {string} sessionId @param {string} title at most 1000 characters, no control characters or lone surrogates
   * @returns {Promise<Envelope>} value the session status. SESSION_NOT_FOUND, INVALID_ARGUMENT
   */
  rename(sessionId, title) {
    // Checked here: JSON.stringify makes NaN null, which core reads as no title (cleared).
    if (typeof title !== "string") return Promise.resolve(invalidArgument("rename", "title", 'must be a string ("" clears it)', title));
    return this.call({ operation: "rename", sessionId, title });
  },

  /**
   * delete: the session leaves every list, search and operation for the
   * trash (in this tab and the others; its records stay until the trash
   * is emptied), or with `{permanent: true}` is erased at once.
   * @param {string} sessionId @param {{permanent?: boolean}} [options]
   * @returns {Promise<Envelope>} value {sessionId, title, nodeCount, deletedAt, updatedAt}, or {erased: [sessionId]} when permanent. SESSION_NOT_FOUND
   */
  delete(sessionId, options) {
    return this._callWith("delete", options, () => ({ operation: "delete", sessionId, permanent: options?.permanent }));
  },

  /**
   * trash.list: the sessions in the trash, the most recently deleted first.
   * @returns {Promise<Envelope>} value [{sessionId, title, nodeCount, deletedAt, updatedAt}]
   */
  trash() {
    return this.call({ operation: "trash.list" });
  },

  /**
   * trash.restore: a session back from the trash, as it was.
   * @param {string} sessionId
   * @returns {Promise<Envelope>} value the session status. SESSION_NOT_FOUND when it is not in the trash
   */
  restoreSession(sessionId) {
    return this.call({ operation: "trash.restore", sessionId });
  },

  /**
   * trash.empty: erase for good the session named, or every session in
   * the trash: its nodes, annotations and restore points leave IndexedDB
   * and every tab's memory.
   * @param {string} [sessionId]
   * @returns {Promise<Envelope>} value {erased: [sessionId…]}. SESSION_NOT_FOUND when the session named is not in the trash
   */
  emptyTrash(sessionId) {
    // Checked here: a value JSON.stringify leaves out (a function, a Symbol) would empty the whole trash.
    if (sessionId !== undefined && (typeof sessionId !== "string" || sessionId === "")) {
      return Promise.resolve(invalidArgument("emptyTrash", "sessionId", "must be a session id (a non-empty string), or left out to empty the whole trash", sessionId));
    }
    return this.call({ operation: "trash.empty", sessionId });
  },

  /**
   * append.many: messages appended as a chain (each under the one before)
   * in one call and one IndexedDB transaction, all or nothing. With
   * `{create: true}` the session is made first (SESSION_ALREADY_EXISTS if
   * it exists: a migration run twice adds nothing), titled `title`.
   * @param {string} sessionId @param {object[]} messages chat messages {role, content, …}
   * @param {{branch?: string, create?: boolean, title?: string}} [options]
   * @returns {Promise<Envelope>} value {nodeIds, session}. INVALID_ARGUMENT naming the bad message (messages[3].role), SESSION_NOT_FOUND, NOT_FOUND (branch)
   */
  appendMany(sessionId, messages, options) {
    return this._callWith("appendMany", options, () => ({ operation: "append.many", sessionId, messages, branch: options?.branch, create: options?.create, title: options?.title }));
  },
};
