// What a subscriber hears of a change: the event built from one block of
// core's change lines (DrainChanges: a header, then node lines), so a UI
// knows what changed without another call. Used by the Writer (committed
// changes) and LocalTree without storage (persist: false), both on the
// blocks of store/records.js parseChangeBytes.

/** The most new node ids an event lists (an import of more lists none: count says how many). */
export const EVENT_NODE_IDS = 1000;

/**
 * The id of a node line (core writes every node as `{"id":…,` first).
 * @param {string} line one node's JSON text
 * @returns {string|undefined}
 */
export function nodeIdOf(line) {
  if (!line.startsWith('{"id":"')) return JSON.parse(line).id;
  let i = 7;
  while (i < line.length && line[i] !== '"') i += line[i] === "\\" ? 2 : 1;
  return JSON.parse(line.slice(6, i + 1));
}

/**
 * The subscriber event of one change block.
 * @param {{sessionId: string, operation: string, from: number, count: number, erased?: boolean, meta: object|null}} b a block header (store/records.js parseChangeBytes)
 * @param {string[]|null} nodeIds the new nodes' ids in append order, or null when not known (more than EVENT_NODE_IDS)
 * @returns {{type: string, operation: string, sessionId: string, nodeId?: string, cursor: string|null, activeBranch?: string, title?: string, nodeCount: number, from: number, count: number, nodeIds?: string[], reset?: boolean, deletedAt?: string, erased?: boolean}}
 */
export function changeEvent(b, nodeIds) {
  const m = b.meta;
  const event = { type: b.operation, operation: b.operation, sessionId: b.sessionId, cursor: m?.cursor ?? null, nodeCount: m?.nodeCount ?? 0, from: b.from, count: b.count };
  if (m?.cursor != null) event.nodeId = m.cursor;
  if (m) {
    event.activeBranch = m.activeBranch;
    event.title = m.title;
  }
  if (nodeIds) event.nodeIds = nodeIds;
  if (b.reset) event.reset = true;
  if (m?.deletedAt) event.deletedAt = m.deletedAt;
  if (b.erased) event.erased = true;
  return event;
}

/**
 * The ids of a block's nodes, when it has at most EVENT_NODE_IDS of them.
 * @param {{count: number, node: (i: number) => string, nodeId?: (i: number) => string|undefined}} b a parsed block (store/records.js parseChangeBytes)
 * @returns {string[]|null}
 */
export function blockNodeIds(b) {
  if (b.count > EVENT_NODE_IDS) return null;
  const ids = [];
  for (let i = 0; i < b.count; i++) ids.push(b.nodeId ? b.nodeId(i) : nodeIdOf(b.node(i)));
  return ids;
}

/**
 * The events of a Writer's transaction, one per changed session and call,
 * from the drained blocks as they come: a block of a session drained in
 * pieces (`more`) adds nothing, and the event of its last block lists no
 * node ids (they were cut between pieces; count is the last piece's).
 */
export class ChangeLog {
  constructor() {
    /** @type {ReturnType<typeof changeEvent>[]} */
    this.events = [];
    /** Bytes of node lines drained per session (store/pager.js weighs the sessions by them). @type {Map<string, number>} */
    this.sizes = new Map();
    this._cut = new Set();
  }

  /** @param {object} b a parsed block (store/records.js parseChangeBytes) */
  add(b) {
    if (b.size > 0) this.sizes.set(b.sessionId, (this.sizes.get(b.sessionId) ?? 0) + b.size);
    if (b.more) this._cut.add(b.sessionId);
    else this.events.push(changeEvent(b, this._cut.has(b.sessionId) ? null : blockNodeIds(b)));
  }
}

/**
 * After a committed transaction: forget the erased sessions of `written`
 * (writeChanges' states) in the Writer's memory of the disk, and drop them
 * from `written`.
 * @param {{known: Map<string, object>, tailed: Map<string, object>, metaAt: Map<string, number>, owned: Set<string>}} w the Writer
 * @param {Map<string, {erased?: boolean}>} written
 */
export function forgetErased(w, written) {
  for (const [id, k] of written) {
    if (!k.erased) continue;
    w.known.delete(id);
    w.tailed.delete(id);
    w.metaAt.delete(id);
    w.owned.delete(id);
    written.delete(id);
  }
}

