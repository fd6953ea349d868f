// The end of a stored session's context, read straight from its IndexedDB
// records in the calling thread (issue 24: "opening a session shows its
// first rows before the whole session is read"). A paged-out session is
// read into wasm at its first call (store/pager.js): a 100,000-node one
// takes a second or more, while the last messages of its path from the
// root to the cursor are in its newest records. So a panel that opens a
// session asks for them here, shows them as stored, and replaces them with
// the store's own answers when the session has loaded.
//
// Nodes are stored in append order, every parent before its children
// (store/schema.js), so one backward pass over the newest records finds
// the path: the cursor's node first, then each parent further back. The
// pass reads at most TAIL_SCAN_NODES nodes. The node looked for is told by
// the start of its JSON (core writes {"id":…,"parentId":… first): for an
// id of plain ASCII by comparing bytes, with nothing decoded; else by
// decoding each node's first KB. Only the nodes on the path are parsed
// whole, so a session of large tool results costs what its path's last
// messages cost, and a path that goes back to an early node (an edit of
// an early message of a long chat) is followed over thousands of nodes.

import { deriveTail, nodeRange, requestPromise } from "./records.js";
import { readExisting } from "./listing.js";

/** The most nodes read backwards from the newest in search of the path: past them, its earlier nodes are not read (complete false). */
export const TAIL_SCAN_NODES = 20000;

/** The most messages one read gives (its `limit`). */
export const MAX_TAIL_LIMIT = 200;

const utf8Decoder = new TextDecoder();
const utf8Encoder = new TextEncoder();

/** The start core writes every node with: its id, then its parentId (null or a string). */
const LINK = /^\{"id":("(?:[^"\\]|\\.)*"),"parentId":(null|"(?:[^"\\]|\\.)*")/;

/** Bytes of a node's start decoded to read its id and parentId (longer ids parse the node whole). */
const LINK_BYTES = 1024;

/**
 * The id and parentId of a node from its JSON text (its start: LINK), or
 * from the whole of it when it does not start as core writes nodes; null
 * when it is not a node object. bad: its parentId is neither null nor a
 * string (a record damaged outside sessiontree).
 * @param {() => string} head the node's JSON, or its first LINK_BYTES bytes
 * @param {() => string} whole the node's whole JSON text
 * @returns {{id: string, parentId: string|null, bad: boolean}|null}
 */
function linkOf(head, whole) {
  try {
    const m = LINK.exec(head());
    if (m) return { id: JSON.parse(m[1]), parentId: JSON.parse(m[2]), bad: false };
    const node = JSON.parse(whole());
    if (node === null || typeof node !== "object" || typeof node.id !== "string") return null;
    const parentId = node.parentId ?? null;
    return { id: node.id, parentId, bad: parentId !== null && typeof parentId !== "string" };
  } catch {
    return null;
  }
}

/**
 * The start of the JSON core writes for a node with this id, when the id
 * is written the same under any JSON escaping (printable ASCII but ", \,
 * <, > and &), else null: nodes are then told by their start alone, with
 * no decoding.
 * @param {string|null} id
 * @returns {string|null}
 */
function idPrefix(id) {
  return id !== null && /^[\x20-\x7e]*$/.test(id) && !/["\\<>&]/.test(id) ? `{"id":"${id}",` : null;
}

/** Whether bytes[start…] begins with want. */
function startsWith(bytes, start, want) {
  if (bytes.length - start < want.length) return false;
  for (let k = 0; k < want.length; k++) if (bytes[start + k] !== want[k]) return false;
  return true;
}

/**
 * Walks nodes from the newest back, keeping those on the path to `target`.
 * `take` is handed each node, newest first; it answers false once the
 * walk is over (the root reached, `limit` nodes kept, or TAIL_SCAN_NODES
 * read). A node on the path that is damaged (its parentId neither null
 * nor a string, its id or parentId read otherwise from its whole JSON
 * than from its start) throws: the read gives null.
 */
class PathWalk {
  constructor(cursor, limit) {
    this.limit = limit;
    this.nodes = [];
    this.scanned = 0;
    this.complete = cursor === null;
    this._aim(cursor);
  }

  /** The next node looked for: its id, and the start of its JSON (idPrefix) as text and bytes. */
  _aim(id) {
    this.target = id;
    this.prefix = idPrefix(id);
    this.prefixBytes = this.prefix === null ? null : utf8Encoder.encode(this.prefix);
  }

  get done() {
    return this.complete || this.nodes.length >= this.limit || this.scanned >= TAIL_SCAN_NODES;
  }

  /**
   * @param {() => string} head @param {() => string} whole as for linkOf
   * @param {boolean} [quick] whether the node starts with this.prefix, when the caller checked (false: not the node looked for)
   * @returns {boolean} whether to go on
   */
  take(head, whole, quick) {
    this.scanned++;
    if (quick === false) return !this.done;
    const link = linkOf(head, whole);
    if (link === null || link.id !== this.target) return !this.done;
    const node = JSON.parse(whole());
    if (link.bad || node?.id !== link.id || (node.parentId ?? null) !== link.parentId) throw new Error(`stored node ${JSON.stringify(link.id)} is damaged`);
    this.nodes.push(node);
    this.complete = link.parentId === null;
    this._aim(link.parentId);
    return !this.done;
  }
}

/**
 * Walk the chunk records of a session, newest first, node by node from
 * each chunk's end (chunk nodes are joined by ",\n"; node JSON never holds
 * a raw newline), decoding a node whole only when it is on the path.
 * @param {IDBObjectStore} chunks @param {string} id @param {number} folded @param {PathWalk} walk
 */
async function walkChunks(chunks, id, folded, walk) {
  const keys = await requestPromise(chunks.getAllKeys(IDBKeyRange.bound([id, 0], [id, folded - 1])));
  for (let k = keys.length - 1; k >= 0 && !walk.done; k--) {
    let chunk = await requestPromise(chunks.get(keys[k]));
    if (typeof chunk === "string") chunk = utf8Encoder.encode(chunk); // written before chunks were bytes
    if (!(chunk instanceof Uint8Array)) return;
    // A node ends at the chunk's end or before the "," of the ",\n" that follows it.
    for (let end = chunk.length; ; ) {
      const nl = end > 0 ? chunk.lastIndexOf(10, end - 1) : -1;
      const bytes = chunk.subarray(nl + 1, end);
      const quick = walk.prefixBytes === null ? undefined : startsWith(chunk, nl + 1, walk.prefixBytes);
      if (!walk.take(() => utf8Decoder.decode(bytes.subarray(0, LINK_BYTES)), () => utf8Decoder.decode(bytes), quick)) return;
      if (nl < 0) break;
      end = nl - 1;
    }
  }
}

/**
 * The end of a stored session's context: its meta and the last `limit`
 * nodes of the path from the root to its cursor, as its records hold them
 * now, read in this thread from the IndexedDB database `name` without
 * waiting for any store. Nothing is written, and the database is not
 * made or upgraded: a database of another schema version gives null.
 * Annotations (labels, hides, preferred versions) are not read: the nodes
 * are as appended.
 * @param {string} name the IndexedDB database name
 * @param {string} sessionId
 * @param {number} limit the most nodes, 1 to MAX_TAIL_LIMIT
 * @returns {Promise<{sessionId: string, title: string, nodeCount: number, cursor: string|null, activeBranch: string, updatedAt: string, nodes: object[], complete: boolean}|null>}
 *   nodes in path order (the cursor's last), each in snapshot form; complete: nodes starts at the root.
 *   Fewer than `limit` nodes with complete false when the path goes back past the newest
 *   TAIL_SCAN_NODES nodes (none: null). null when the session is not stored (an id core
 *   refuses never is) or is in the trash, or its records that were read are damaged.
 */
export function readStoredContext(name, sessionId, limit) {
  return readExisting(name, (db) => readTail(db.transaction(["sessions", "nodes", "chunks"], "readonly"), sessionId, limit));
}

/** readStoredContext in one read transaction. */
async function readTail(tx, sessionId, limit) {
  const meta = await requestPromise(tx.objectStore("sessions").get(sessionId));
  if (meta === null || typeof meta !== "object" || meta.deletedAt || meta.erased === true || !Number.isSafeInteger(meta.nodeCount)) return null;
  if (meta.cursor !== null && meta.cursor !== undefined && typeof meta.cursor !== "string") return null; // damaged: the store answers STORAGE_ERROR
  const folded = Number.isSafeInteger(meta.folded) ? meta.folded : 0;
  const from = Math.max(folded, meta.nodeCount - TAIL_SCAN_NODES);
  const tail = await requestPromise(tx.objectStore("nodes").getAll(nodeRange(sessionId, from)));
  if (meta.tail === true && tail.length > meta.nodeCount - from) deriveTail(meta, tail[tail.length - 1], tail.length + from);
  const walk = new PathWalk(typeof meta.cursor === "string" ? meta.cursor : null, limit);
  for (let k = tail.length - 1; k >= 0 && !walk.done; k--) {
    const text = tail[k];
    if (typeof text !== "string") return null;
    walk.take(() => text.slice(0, LINK_BYTES), () => text, walk.prefix === null ? undefined : text.startsWith(walk.prefix));
  }
  if (!walk.done && folded > 0) await walkChunks(tx.objectStore("chunks"), sessionId, folded, walk);
  if (walk.nodes.length === 0 && !walk.complete) return null;
  walk.nodes.reverse();
  const str = (v) => (typeof v === "string" ? v : "");
  return {
    sessionId,
    title: str(meta.title),
    nodeCount: meta.nodeCount,
    cursor: typeof meta.cursor === "string" ? meta.cursor : null,
    activeBranch: str(meta.activeBranch) || "main",
    updatedAt: str(meta.updatedAt),
    nodes: walk.nodes,
    complete: walk.complete,
  };
}
