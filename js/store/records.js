// The record codecs of sessiontree's IndexedDB store: how a session's
// nodes, annotations and meta are laid out in records (see the schema in
// store/schema.js), reading them back as snapshot bytes or node texts,
// writing the change blocks core drains, the core requests built from
// stored records (restore, sync.merge), and the restore-point records.
// No locking and no cross-tab protocol: that is store/writer.js.

import { STORES } from "./schema.js";
import { concatUTF8, spliceJSON } from "../request-text.js";
import { CHUNK_SIZE, SNAPSHOT_VERSION } from "../protocol.js";
import { eraseSession } from "./erase.js";
import { byCreation, deriveTail, requestPromise } from "./listing.js";

export { byCreation, deriveTail, requestPromise };

/**
 * Node and chunk records read so far in this thread (readNodes,
 * readSnapshot), for tests and benchmarks: start-up reads none
 * (sessions are paged in on demand, store/pager.js); and the start-ups
 * that read the meta records themselves (metas: store/pager.js readMetas)
 * or took those the page read (given: takeMetas).
 */
export const readCounts = { chunks: 0, nodes: 0, metas: 0, given: 0 };

/** Nodes per chunk record (core's DrainGroupNodes, from the contract). */
export { CHUNK_SIZE };

/** Separator of the nodes inside a chunk record (node JSON never holds a raw newline). */
const SEP = ",\n";

const quote = JSON.stringify;

const utf8Decoder = new TextDecoder();
const utf8Encoder = new TextEncoder();

/**
 * A chunk record's value from its node texts: UTF-8 bytes, so a restore
 * hands the stored bytes to the wasm as they are (a string would be
 * transcoded by TextEncoder on every start-up; for 100,000 nodes of
 * non-ASCII text that took longer than reading the records).
 * @param {string[]} nodes
 * @returns {Uint8Array}
 */
function chunkValue(nodes) {
  return utf8Encoder.encode(nodes.join(SEP));
}

/**
 * The text of a chunk record (a Uint8Array, or a string as written before
 * chunks were bytes).
 * @param {Uint8Array|string} chunk
 * @returns {string}
 */
function chunkText(chunk) {
  return typeof chunk === "string" ? chunk : utf8Decoder.decode(chunk);
}

/**
 * The number of nodes in a chunk record: its newlines plus one (node JSON
 * never holds a raw newline; see SEP).
 * @param {Uint8Array|string} chunk
 * @returns {number}
 */
export function chunkNodeCount(chunk) {
  let n = 1;
  if (typeof chunk === "string") {
    for (let i = chunk.indexOf("\n"); i >= 0; i = chunk.indexOf("\n", i + 1)) n++;
  } else {
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) n++;
  }
  return n;
}

/**
 * The key range of every record of one session in "nodes" or "chunks".
 * @param {string} sessionId
 * @param {number} [from] first seq (or chunk start), default 0
 * @returns {IDBKeyRange}
 */
export function nodeRange(sessionId, from = 0) {
  return IDBKeyRange.bound([sessionId, from], [sessionId, Infinity]);
}

/**
 * Parse the bytes of core's DrainChanges(true) (the handle's drainBytes):
 * per changed session a header line `{sessionId, operation, reset, from,
 * count, annotationFrom, annotationCount, meta}`, then `count` node lines
 * (each but the last ending in ",") and `annotationCount` annotation lines.
 * A block of a piece of DrainChangesUpTo may say `more: true`: the
 * session's nodes go on in a later block (see writeChanges).
 * The node lines stay bytes: `node(i)` decodes node i for its own record,
 * and `chunk(s, e)` copies nodes s to e-1 joined by ",\n" — a chunk
 * record's value — straight out of the drained bytes (a 100,000-node load
 * no longer decodes, splits, joins and encodes 25 MB again).
 * Annotations are decoded (JSON strings, stored as they are).
 * @param {Uint8Array} bytes
 * `size` is the bytes of the block's node lines.
 * `nodeId(i)` is node i's id, read without decoding the rest of its line.
 * @returns {{sessionId: string, operation: string, reset: boolean, from: number, count: number, annotationFrom: number, annotationCount: number, more?: boolean, meta: object, annotations: string[], size: number, node: (i: number) => string, nodeId: (i: number) => string|undefined, chunk: (s: number, e: number) => Uint8Array}[]}
 */
export function parseChangeBytes(bytes) {
  const blocks = [];
  let pos = 0;
  const lineEnd = () => {
    const end = bytes.indexOf(10, pos);
    if (end < 0) throw new Error("sessiontree: truncated change record");
    return end;
  };
  while (pos < bytes.length) {
    let end = lineEnd();
    const head = JSON.parse(utf8Decoder.decode(bytes.subarray(pos, end)));
    pos = end + 1;
    const n = head.count;
    const starts = new Int32Array(n);
    const ends = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      end = lineEnd();
      const last = i === n - 1;
      if (!last && bytes[end - 1] !== 44) throw new Error(`sessiontree: change record for session ${quote(head.sessionId)}: node line ${i} does not end in ","`);
      starts[i] = pos;
      ends[i] = last ? end : end - 1;
      pos = end + 1;
    }
    head.annotations = [];
    for (let i = 0; i < head.annotationCount; i++) {
      end = lineEnd();
      head.annotations.push(utf8Decoder.decode(bytes.subarray(pos, end)));
      pos = end + 1;
    }
    head.size = n > 0 ? ends[n - 1] - starts[0] : 0; // the node lines' bytes (the Pager weighs sessions by them)
    head.node = (i) => utf8Decoder.decode(bytes.subarray(starts[i], ends[i]));
    head.nodeId = (i) => nodeIdAt(bytes, starts[i], ends[i]);
    head.chunk = (s, e) => bytes.slice(starts[s], ends[e - 1]);
    blocks.push(head);
  }
  return blocks;
}

/** `{"id":"`, the start core writes every node line with. */
const ID_HEAD = utf8Encoder.encode('{"id":"');

/**
 * The id of the node whose JSON is bytes[start, end), decoding only the
 * id's own bytes when the line starts as core writes it ({"id":"…",
 * …), else the whole line.
 * @param {Uint8Array} bytes @param {number} start @param {number} end
 * @returns {string|undefined}
 */
export function nodeIdAt(bytes, start, end) {
  let i = start;
  for (let k = 0; k < ID_HEAD.length; k++, i++) {
    if (bytes[i] !== ID_HEAD[k]) return JSON.parse(utf8Decoder.decode(bytes.subarray(start, end))).id;
  }
  while (i < end && bytes[i] !== 34) i += bytes[i] === 92 ? 2 : 1; // to the closing quote, past escapes
  return JSON.parse(utf8Decoder.decode(bytes.subarray(start + ID_HEAD.length - 1, i + 1)));
}


/**
 * The highest gen stored (0 for none).
 * @param {IDBObjectStore} sessions
 * @returns {Promise<number>}
 */
export async function maxGen(sessions) {
  const cursor = await requestPromise(sessions.index("gen").openKeyCursor(null, "prev"));
  return cursor ? cursor.key : 0;
}

/**
 * Read the node records of one session from seq `from` to its end and
 * return them as one string per node. When meta has `tail: true` and more
 * node records follow its nodeCount, meta is brought up to date in place
 * (deriveTail).
 * @param {IDBTransaction} tx
 * @param {object} meta
 * @param {number} from
 * @returns {Promise<string[]>}
 */
export async function readNodes(tx, meta, from) {
  const id = meta.sessionId;
  const folded = meta.folded ?? 0;
  const out = [];
  if (from < folded) {
    // The chunk holding node `from`: the last one starting at or before it
    // (chunks have any length, see the schema).
    const chunkStore = tx.objectStore("chunks");
    const at = from === 0 ? null : await requestPromise(chunkStore.openKeyCursor(IDBKeyRange.bound([id, 0], [id, from]), "prev"));
    const start = at ? at.key[1] : 0;
    const chunks = await requestPromise(chunkStore.getAll(IDBKeyRange.bound([id, start], [id, folded - 1])));
    readCounts.chunks += chunks.length;
    for (const c of chunks) for (const n of chunkText(c).split(SEP)) out.push(n);
    out.splice(0, from - start);
  }
  const tail = await requestPromise(tx.objectStore("nodes").getAll(nodeRange(id, Math.max(from, folded))));
  readCounts.nodes += tail.length;
  for (const n of tail) out.push(n);
  if (out.length !== meta.nodeCount - from && !(meta.tail === true && out.length > meta.nodeCount - from)) {
    throw new Error(`session ${quote(id)} has ${out.length + from} stored nodes but its metadata says ${meta.nodeCount}`);
  }
  if (out.length > meta.nodeCount - from) deriveTail(meta, out[out.length - 1], out.length + from);
  return out;
}

/**
 * Read the annotation records of one session from seq `from` to its end.
 * @param {IDBTransaction} tx
 * @param {object} meta
 * @param {number} from
 * @returns {Promise<string[]>}
 */
export async function readAnnotations(tx, meta, from) {
  const want = (meta.annotationCount ?? 0) - from;
  const out = want > 0 ? await requestPromise(tx.objectStore("annotations").getAll(nodeRange(meta.sessionId, from))) : [];
  if (out.length !== Math.max(want, 0)) {
    throw new Error(`session ${quote(meta.sessionId)} has ${out.length + from} stored annotations but its metadata says ${meta.annotationCount}`);
  }
  return out;
}

/**
 * Read one session whole: its snapshot (version 1) as UTF-8 bytes, rebuilt
 * from its chunk and node records without splitting the chunks. A meta
 * record with `tail: true` followed by more node records is brought up to
 * date in place first (deriveTail), as readNodes does.
 * @param {IDBTransaction} tx
 * @param {object} meta
 * @returns {Promise<Uint8Array>}
 */
export async function readSnapshot(tx, meta) {
  const id = meta.sessionId;
  const folded = meta.folded ?? 0;
  const [chunks, tail, annotations] = await Promise.all([
    folded > 0 ? requestPromise(tx.objectStore("chunks").getAll(nodeRange(id))) : [],
    requestPromise(tx.objectStore("nodes").getAll(nodeRange(id))),
    readAnnotations(tx, meta, 0),
  ]);
  readCounts.chunks += chunks.length;
  readCounts.nodes += tail.length;
  let inChunks = 0;
  for (const c of chunks) inChunks += chunkNodeCount(c);
  if (inChunks !== folded || (folded + tail.length !== meta.nodeCount && !(meta.tail === true && folded + tail.length > meta.nodeCount))) {
    throw new Error(`session ${quote(id)} has ${inChunks} nodes in ${chunks.length} chunk records and ${tail.length} node records but its metadata says ${meta.nodeCount} nodes, ${folded} of them in chunks`);
  }
  if (folded + tail.length > meta.nodeCount) deriveTail(meta, tail[tail.length - 1], folded + tail.length);
  const parts = [`{"version":${SNAPSHOT_VERSION},"sessionId":${quote(id)},"cursor":${quote(meta.cursor)},"activeBranch":${quote(meta.activeBranch)},"nodes":[`];
  chunks.forEach((c, i) => {
    if (i > 0) parts.push(SEP);
    parts.push(c);
  });
  if (tail.length > 0) parts.push((chunks.length > 0 ? SEP : "") + tail.join(SEP));
  parts.push(annotations.length > 0 ? `],"annotations":[${annotations.join(",")}]}` : "]}");
  return concatUTF8(parts);
}

/**
 * Read every stored session in one read-only transaction.
 * Resolves to {gen, sessions: [{meta, snapshot}]} where snapshot is the
 * session's snapshot (version 1) as UTF-8 bytes and gen the highest stored gen
 * (tombstones of erased sessions are skipped, but their gen counts).
 * Rejects, naming the database and the session, when a read fails or a
 * session's records do not match its metadata — a failed read is never
 * an empty store.
 * @param {IDBDatabase} db
 * @returns {Promise<{gen: number, sessions: {meta: object, snapshot: Uint8Array}[]}>}
 */
export async function readAllSessions(db) {
  let tx;
  try {
    tx = db.transaction(STORES, "readonly");
  } catch (err) {
    throw new Error(`sessiontree: cannot read IndexedDB database ${quote(db.name)}: ${err.message}`);
  }
  try {
    // Erased sessions' tombstones (store/erase.js) hold nothing to restore.
    const metas = (await requestPromise(tx.objectStore("sessions").getAll())).filter((m) => m.erased !== true);
    // Restore in creation order, as the sessions were made.
    metas.sort(byCreation);
    const snapshots = await Promise.all(metas.map((m) => readSnapshot(tx, m)));
    const gen = await maxGen(tx.objectStore("sessions"));
    return { gen, sessions: metas.map((meta, i) => ({ meta, snapshot: snapshots[i] })) };
  } catch (err) {
    throw new Error(`sessiontree: reading IndexedDB database ${quote(db.name)} failed, nothing was changed: ${err?.message ?? err}`);
  }
}

/**
 * What a tab remembers of a stored session, from its meta record (fields
 * a version-1 record lacks count as 0): tail says node records may follow
 * nodeCount (see deriveTail), meta is the record itself.
 * @param {object} meta
 * @returns {{epoch: number, count: number, folded: number, acount: number, tail: boolean, meta: object}}
 */
export function diskState(meta) {
  return { epoch: meta.epoch ?? 0, count: meta.nodeCount, folded: meta.folded ?? 0, acount: meta.annotationCount ?? 0, tail: meta.tail === true, meta };
}


/**
 * Build the request of core's internal "restore" for a stored session, as
 * UTF-8 bytes around the snapshot's bytes (never re-encoding the snapshot).
 * @param {object} meta
 * @param {Uint8Array} snapshot the snapshot's UTF-8 bytes (see readSnapshot)
 * @returns {Uint8Array}
 */
export function restoreRequest(meta, snapshot) {
  const fields = { operation: "restore", title: meta.title, createdAt: meta.createdAt, updatedAt: meta.updatedAt };
  // A session in the trash goes back into core's trash (see core/internal/store/trash.go).
  if (meta.deletedAt) fields.deletedAt = meta.deletedAt;
  // The tool and project the import recorded (core/internal/tree/origin.go): the snapshot does not carry them.
  if (meta.tool) fields.tool = meta.tool;
  if (meta.project) fields.project = meta.project;
  return spliceJSON(fields, [["snapshot", snapshot]]);
}

/**
 * Build the request of core's internal "sync.merge": the stored node and
 * annotation texts (JSON, as read by readNodes and readAnnotations) go in
 * as they are, after the fields taken from the session's meta record.
 * @param {object} meta the session's meta record
 * @param {string[]} nodes node texts, in seq order
 * @param {string[]} annotations annotation texts, in seq order
 * @param {{cursor?: string, activeBranch?: string}} follow the stored cursor and branch to take, or {} to keep this tab's
 * @returns {string}
 */
export function mergeRequest(meta, nodes, annotations, follow) {
  return spliceJSON({ operation: "sync.merge", sessionId: meta.sessionId, title: meta.title, updatedAt: meta.updatedAt, ...follow }, [
    ["nodes", "[" + nodes.join(",") + "]"],
    ["annotations", "[" + annotations.join(",") + "]"],
  ]);
}

/**
 * Replace a session's stored node, chunk and annotation records by those of
 * change block b (a reset, or a session not stored yet), inside writeChanges'
 * transaction. Returns the session's new stored state; throws when b does
 * not start at node 0.
 *
 * The epoch becomes the transaction's gen (see schema.js), for a new
 * session too: an id erased and made again before another tab heard of
 * the erasure must not be taken there for the erased session (take-in.js).
 * A gen is never stamped twice, so no earlier session of the id had it.
 * @param {(name: string) => IDBObjectStore} store the transaction's stores by name
 * @param {object} b a change block (parseChangeBytes)
 * @param {object|undefined} k what is stored of the session (undefined: nothing, no records to delete)
 * @param {number} gen the gen the transaction stamps
 * @returns {object}
 */
function replaceRecords(store, b, k, gen) {
  const id = b.sessionId;
  if (b.from !== 0) throw new Error(`internal: a new session ${quote(id)} starts at node ${b.from}`);
  const chunks = store("chunks");
  const nodes = store("nodes");
  const notes = store("annotations");
  if (k !== undefined) {
    // A session not stored yet (no meta, not even an erased one's
    // tombstone) has no records to delete: three deletes a session were a
    // third of storing a 60,000-line dataset JSONL's new sessions.
    chunks.delete(nodeRange(id));
    nodes.delete(nodeRange(id));
    notes.delete(nodeRange(id));
  }
  b.annotations.forEach((a, i) => notes.put(a, [id, i]));
  // Every node goes into chunk records, the last one shorter: a session
  // written whole is ~count/CHUNK_SIZE records, not one per node.
  for (let s = 0; s < b.count; s += CHUNK_SIZE) chunks.put(b.chunk(s, Math.min(s + CHUNK_SIZE, b.count)), [id, s]);
  return { epoch: gen, count: b.count, folded: b.count, acount: b.annotations.length, tail: false, meta: null, deferred: false };
}

/**
 * Write drained change blocks (parseChangeBytes) to the records of their
 * sessions inside the readwrite transaction tx, stamping every written
 * session's meta record with gen. A block with `erased` (trash.empty)
 * deletes the session's records (eraseSession; tx must hold the
 * "snapshots" store too) and its state says `erased: true`. A block with reset, or of a session not
 * stored yet, replaces the session's records; any other appends node and
 * annotation records from where the stored ones end, folding each full
 * CHUNK_SIZE of node records into a chunk record. Throws (the caller
 * aborts tx) when a block does not continue what is stored.
 *
 * With `defer` (a writer holding the write lock, see store/writer.js),
 * every meta record written of a session whose blocks are only appends
 * has `tail: true` (one written whole has none), and a session whose change
 * is only appends after such a record, with a meta that deriveTail gives
 * back exactly from its last node, gets no meta put at all when defer(id)
 * says so: one record per append. Its state then has `deferred: true`
 * (the meta is still the stored one, which the writer must bring up to
 * date later).
 *
 * A core drain in pieces (DrainChangesUpTo) is written by one call per
 * piece or run of pieces in one tx, each given the Map the one before
 * returned as `written`: a block with `more` (its session's nodes go on
 * in a later block) writes its records but no meta, and a block that goes
 * on from it writes its whole chunks as chunk records straight away.
 *
 * Returns the Map (`written`, filled) when no block folds (every request
 * is made before it returns), else a Promise of it (a fold reads the
 * records it folds). The blocks' meta objects become the meta records
 * (folded, epoch, gen, op and tail set on them, not copied).
 * @param {IDBTransaction} tx
 * @param {object[]} blocks
 * @param {number} gen
 * @param {(sessionId: string) => ({epoch: number, count: number, folded: number, acount: number, tail?: boolean, meta?: object}|undefined)} storedState what is stored of a session before tx (see diskState)
 * @param {((sessionId: string) => boolean)|null} [defer] whether a session's derivable meta may be left unwritten now; null: write every meta (tail false)
 * @param {Map<string, object>} [written] the states of the sessions written earlier in tx (what an earlier call returned); default: none
 * @returns {Map<string, {epoch: number, count: number, folded: number, acount: number, tail: boolean, meta: object, deferred: boolean}>|Promise<Map<string, object>>} each written session's state once tx commits
 */
export function writeChanges(tx, blocks, gen, storedState, defer = null, written = new Map()) {
  const stores = {};
  const store = (name) => (stores[name] ??= tx.objectStore(name));
  const metas = new Map(); // sessionId → its meta record: one put per session, the last block's
  const folds = new Map(); // sessionId → its last block's state, when its tail holds CHUNK_SIZE records or more
  const plain = new Map(); // sessionId → true while its blocks in tx are only appends (no reset, no annotations)
  for (const b of blocks) {
    const id = b.sessionId;
    if (b.erased) {
      // Erased for good (trash.empty): every record goes (store/erase.js).
      eraseSession(tx, id, gen);
      for (const m of [metas, folds]) m.delete(id);
      plain.set(id, false);
      written.set(id, { erased: true, epoch: 0, count: 0, folded: 0, acount: 0, tail: false, meta: null, deferred: false });
      continue;
    }
    const w = written.get(id);
    const k = w?.erased ? undefined : w ?? storedState(id);
    plain.set(id, (plain.get(id) ?? true) && !b.reset && k !== undefined && b.annotations.length === 0);
    let state;
    if (b.reset || !k) {
      folds.delete(id); // its records are replaced
      state = replaceRecords(store, b, k, gen);
    } else {
      state = appendRecords(store, b, k);
      // Folded after every block's puts: the last block's state folds the
      // whole tail (state.folded is advanced by foldTail).
      if (state.count - state.folded >= CHUNK_SIZE) folds.set(id, state);
    }
    if (b.more) {
      // The session's nodes go on in a later block (its meta is written with the last).
      if (state.count >= b.meta.nodeCount) throw new Error(`internal: session ${quote(id)} has ${b.meta.nodeCount} nodes in memory, and a block that is not its last ends at ${state.count}`);
      // The same object as folds holds: its fold (after this loop) advances
      // state.folded, where the next piece must go on from.
      state.piece = state.count === state.folded;
      written.set(id, state);
      metas.delete(id); // an earlier block's meta is not this session's last
      continue;
    }
    if (b.meta.nodeCount !== state.count || b.meta.annotationCount !== state.acount) {
      throw new Error(`internal: session ${quote(id)} has ${b.meta.nodeCount} nodes and ${b.meta.annotationCount} annotations in memory but ${state.count} and ${state.acount} stored`);
    }
    const meta = b.meta;
    meta.epoch = state.epoch;
    meta.gen = gen;
    meta.op = b.operation;
    metas.set(id, meta);
    written.set(id, state);
  }
  const putMetas = () => {
    for (const [id, meta] of metas) {
      const state = written.get(id);
      if (defer !== null && plain.get(id) && !folds.has(id) && defer(id) && derivable(meta, state)) {
        state.deferred = true; // the stored meta (tail: true) and the node records say it all
        meta.folded = state.folded;
        state.pending = meta; // what the meta record is to become (see Writer's flush)
        continue;
      }
      meta.folded = state.folded; // final only after the folds
      // tail: true lets the session's next appends leave this meta as it is
      // (deriveTail); the Writer writes it whole again once appends pause.
      // A session written whole here (an import's, a load's: not plain)
      // gets none: its next append writes its meta anyway (derivable needs a
      // node line drained in an append), and 60,000 imported sessions with
      // tail: true were 60,000 metas written again by that flush.
      const tail = defer !== null && plain.get(id) === true;
      if (tail) Object.assign(meta, { tail: true, tailMark: 1 }); // tailMark: the "tail" index (store/schema.js)
      store("sessions").put(meta, id);
      state.tail = tail;
      state.meta = meta;
    }
    return written;
  };
  if (folds.size === 0) return putMetas();
  return (async () => {
    for (const [id, state] of folds) await foldTail(store("nodes"), store("chunks"), id, state);
    return putMetas();
  })();
}

/**
 * Put the records of a block that goes on from what is stored (state k):
 * its nodes as node records after the stored ones (whole chunks as chunk
 * records when none is stored after the chunks) and its annotations.
 * Throws when the block does not start where the stored records end.
 * @param {(name: string) => IDBObjectStore} store the transaction's stores
 * @param {object} b a change block of parseChangeBytes
 * @param {{epoch: number, count: number, folded: number, acount: number, tail?: boolean, meta?: object|null, last?: string}} k
 * @returns {object} the session's disk state once the block is written
 */
function appendRecords(store, b, k) {
  const id = b.sessionId;
  if (b.from !== k.count) throw new Error(`internal: session ${quote(id)} has ${k.count} stored nodes but the change starts at ${b.from}`);
  if (b.annotationFrom !== k.acount) throw new Error(`internal: session ${quote(id)} has ${k.acount} stored annotations but the change starts at ${b.annotationFrom}`);
  let folded = k.folded;
  if (b.count > 0) {
    let i = 0;
    if (k.piece === true) {
      // A block that goes on from a "more" one written in this
      // transaction (see parseChangeBytes), which left no node records
      // after its chunks: its nodes are written as chunk records too, the
      // last one shorter, as a session written whole is.
      const chunks = store("chunks");
      for (; i < b.count; i += CHUNK_SIZE) chunks.put(b.chunk(i, Math.min(i + CHUNK_SIZE, b.count)), [id, b.from + i]);
      folded = b.from + b.count;
    } else if (k.count === k.folded && b.count >= CHUNK_SIZE) {
      // No node records stored after the chunks: whole chunks are written
      // as chunk records, as folding them would.
      const chunks = store("chunks");
      for (; i + CHUNK_SIZE <= b.count; i += CHUNK_SIZE) chunks.put(b.chunk(i, i + CHUNK_SIZE), [id, b.from + i]);
      folded += i;
    }
    const nodes = store("nodes");
    for (; i < b.count; i++) nodes.put(b.node(i), [id, b.from + i]);
  }
  if (b.annotations.length > 0) {
    const notes = store("annotations");
    b.annotations.forEach((a, i) => notes.put(a, [id, b.annotationFrom + i]));
  }
  return { epoch: k.epoch, count: b.from + b.count, folded, acount: b.annotationFrom + b.annotations.length, tail: k.tail === true, meta: k.meta ?? null, deferred: false, last: b.count > 0 ? b.node(b.count - 1) : k.last };
}

/**
 * The meta members a deferred append may leave behind on disk: those
 * deriveTail sets from the node records after the meta, and those the
 * write itself stamps (gen, tail and its tailMark, folded, which derivable checks apart).
 */
const DERIVED = new Set(["nodeCount", "cursor", "activeBranch", "updatedAt", "op", "gen", "tail", "tailMark", "folded"]);

/**
 * Whether a session's new meta is what deriveTail makes of its stored meta
 * record (state.meta, written with tail: true) and its last node
 * (state.last): an append, the same folded count, every member outside
 * DERIVED as stored (so a member a later core adds to the meta is written,
 * never lost), and count, cursor, branch and updatedAt those of the node.
 * @param {object} meta @param {{count: number, folded: number, tail: boolean, meta: object|null, last?: string}} state
 * @returns {boolean}
 */
function derivable(meta, state) {
  const disk = state.meta;
  if (!state.tail || disk === null || state.last === undefined || meta.op !== "append" || state.folded !== disk.folded) return false;
  for (const k of new Set([...Object.keys(meta), ...Object.keys(disk)])) {
    if (!DERIVED.has(k) && JSON.stringify(meta[k]) !== JSON.stringify(disk[k])) return false;
  }
  const node = JSON.parse(state.last);
  return meta.nodeCount === state.count && meta.cursor === node.id && meta.activeBranch === node.branch && meta.updatedAt === node.timestamp;
}

/**
 * Fold a session's node records into chunk records while its tail holds
 * CHUNK_SIZE of them or more, advancing state.folded.
 * @param {IDBObjectStore} nodes @param {IDBObjectStore} chunks
 * @param {string} id @param {{count: number, folded: number}} state
 */
async function foldTail(nodes, chunks, id, state) {
  while (state.count - state.folded >= CHUNK_SIZE) {
    const range = IDBKeyRange.bound([id, state.folded], [id, state.folded + CHUNK_SIZE - 1]);
    const list = await requestPromise(nodes.getAll(range));
    if (list.length !== CHUNK_SIZE) throw new Error(`session ${quote(id)}: folding nodes ${state.folded}… found ${list.length} records`);
    chunks.put(chunkValue(list), [id, state.folded]);
    nodes.delete(range);
    state.folded += CHUNK_SIZE;
  }
}
