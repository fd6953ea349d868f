// What a Writer (store/writer.js) takes into core from IndexedDB: the
// sessions other tabs wrote (a pull, step 1 of a transaction), the node
// records stored after a meta that says tail: true, and, after a failed
// transaction, the touched sessions as stored (read back). Each goes
// through the handle's internal operations (sync.merge, restore,
// sync.forget).

import { STORES } from "./schema.js";
import { byCreation, diskState, mergeRequest, nodeRange, readAnnotations, readNodes, readSnapshot, requestPromise, restoreRequest } from "./records.js";
import { liveMetas, usableMetas } from "./listing.js";
import { ERROR } from "../protocol.js";

const quote = JSON.stringify;

/**
 * The cursor a merge brings: none for a session this tab moved itself (it
 * keeps its own), else the stored one.
 * @param {import("./writer.js").Writer} w @param {string} id @param {object} meta
 */
function follow(w, id, meta) {
  return w.owned.has(id) ? {} : { cursor: meta.cursor ?? "", activeBranch: meta.activeBranch };
}

/**
 * Run an internal request that takes a stored session into core; throws
 * when core refuses it (the transaction then fails and is read back).
 * @param {import("./writer.js").Writer} w @param {string} id @param {string} request
 */
function takeIn(w, id, request) {
  const env = JSON.parse(w.handle.callInternal(request));
  if (!env.ok) throw new Error(`stored session ${quote(id)} written by another tab could not be taken in (${env.error.code}: ${env.error.message})`);
}

/**
 * Step 1 of a transaction: take into core every session another tab wrote
 * since w.gen: new nodes and annotations by sync.merge, a replaced or
 * unknown session by restore. pulled gets each one's disk state, remote
 * the subscriber events to send once committed.
 * @param {import("./writer.js").Writer} w
 * @param {IDBTransaction} tx
 * @param {Map<string, object>} pulled
 * @param {object[]} remote
 */
export async function pullSessions(w, tx, pulled, remote) {
  const metas = usableMetas(await requestPromise(tx.objectStore("sessions").index("gen").getAll(IDBKeyRange.lowerBound(w.gen, true))));
  metas.sort(byCreation);
  for (const meta of metas) {
    const id = meta.sessionId;
    const k = w.known.get(id);
    if (meta.erased === true) {
      // Erased for good by another tab (store/erase.js): gone here too.
      if (k) remote.push(forget(w, id));
      continue;
    }
    const state = diskState(meta);
    const trashMoved = k !== undefined && !!k.meta?.deletedAt !== !!meta.deletedAt;
    if (k && sameRecords(k, state)) {
      pulled.set(id, state);
      if (!trashMoved) {
        // Only the cursor moved (a jump, a branch switch): a tab that moved
        // it itself keeps its own; a watcher follows the stored one, as a
        // merge of new nodes brings it (follow), held whole or as a stub.
        // Either takes the time of the change (`sessions` orders by it).
        const owned = w.owned.has(id);
        if ((!owned && cursorMoved(k.meta, meta)) || (k.meta?.updatedAt ?? "") < (meta.updatedAt ?? "")) {
          if (w.pager?.isPaged(id)) w.pager.restub(meta, !owned);
          else takeIn(w, id, mergeRequest(meta, [], [], follow(w, id, meta)));
          remote.push(remoteEvent(meta));
        }
        continue;
      }
      if (!w.pager?.isPaged(id)) {
        // Moved to the trash or back (delete, trash.restore) and nothing else.
        takeIn(w, id, JSON.stringify({ operation: "sync.trash", sessionId: id, deletedAt: meta.deletedAt ?? null }));
        remote.push(remoteEvent(meta));
        continue;
      }
      // A stub here (store/pager.js): read whole below, as a trashed session is held.
    }
    if (trashMoved || meta.deletedAt) {
      w.pager?.paged.delete(id); // held whole from now on (in the trash, or back out of it)
      takeIn(w, id, restoreRequest(meta, await readSnapshot(tx, meta))); // into core's trash or out of it, as stored
      pulled.set(id, diskState(meta));
      remote.push(remoteEvent(meta));
      continue;
    }
    if (w.pager && (!k || w.pager.isPaged(id))) {
      // Its nodes stay on disk until a call needs them: the stub takes the
      // stored summary (a session new to this tab becomes a stub).
      if (!k) w.pager.paged.add(id);
      if (meta.tail === true) await readNodes(tx, meta, meta.nodeCount); // brings meta up to date
      if (!k || k.epoch !== state.epoch) w.owned.delete(id);
      w.pager.restub(meta, !w.owned.has(id));
    } else if (k && k.epoch === state.epoch && k.count <= state.count && k.acount <= state.acount) {
      const nodes = await readNodes(tx, meta, k.count);
      const annotations = await readAnnotations(tx, meta, k.acount);
      takeIn(w, id, mergeRequest(meta, nodes, annotations, follow(w, id, meta)));
    } else {
      takeIn(w, id, restoreRequest(meta, await readSnapshot(tx, meta)));
      w.owned.delete(id); // replaced as a whole: start from the writer's cursor
    }
    pulled.set(id, diskState(meta)); // after the reads: node records after a tail: true meta count too
    remote.push(remoteEvent(meta));
  }
}

/**
 * Whether the stored meta's cursor or active branch differs from the one
 * known before (k.meta: what this tab last read or wrote; none: unknown).
 * @param {object|undefined} known @param {object} meta
 */
function cursorMoved(known, meta) {
  return known === undefined || (known.cursor ?? "") !== (meta.cursor ?? "") || known.activeBranch !== meta.activeBranch;
}

/**
 * The subscriber event of a session another tab changed, from its stored
 * meta record: the operation, cursor, title and counts (no node ids).
 * @param {object} meta
 */
function remoteEvent(meta) {
  const e = { type: meta.op ?? "sync", operation: meta.op ?? "sync", sessionId: meta.sessionId, nodeId: meta.cursor ?? undefined, cursor: meta.cursor ?? null, activeBranch: meta.activeBranch, title: meta.title, nodeCount: meta.nodeCount, remote: true };
  if (meta.deletedAt) e.deletedAt = meta.deletedAt;
  return e;
}

/**
 * Drop a session another tab erased: out of core (live or in the trash)
 * and out of what this tab knows of the disk. Throws as takeIn does.
 * @param {import("./writer.js").Writer} w @param {string} id
 * @returns {object} the subscriber event
 */
function forget(w, id) {
  const env = JSON.parse(w.handle.callInternal(JSON.stringify({ operation: "sync.forget", sessionId: id })));
  if (!env.ok && env.error.code !== ERROR.SESSION_NOT_FOUND) throw new Error(`session ${quote(id)} erased by another tab could not be dropped (${env.error.code}: ${env.error.message})`);
  w.known.delete(id);
  w.tailed.delete(id);
  w.owned.delete(id);
  return erasedEvent(id);
}

/** The subscriber event of a session another tab erased for good. @param {string} id */
function erasedEvent(id) {
  return { type: "trash.empty", operation: "trash.empty", sessionId: id, erased: true, remote: true };
}

/**
 * The subscriber events of what other tabs stored between two reads of
 * the "sessions" store at start-up: the page's own (the records init()
 * may have answered `sessions` with, see js/sessiontree.js) and the
 * tree's, which took it all in unheard. A session stored with a newer gen
 * gets the event its meta record says (as pullSessions would send), one
 * gone from the later read an erasure's. Found by a helper's stress run:
 * a tab whose worker started late never heard of two renames.
 * @param {object[]} records every record of the page's read
 * @param {object[]} metas the live metas of the later read (readMetas)
 * @returns {object[]}
 */
export function missedEvents(records, metas) {
  const page = liveMetas(records);
  const events = metas.filter((m) => Number.isSafeInteger(m.gen) && m.gen > page.gen).map(remoteEvent);
  const now = new Set(metas.map((m) => m.sessionId));
  for (const m of page.metas) if (!now.has(m.sessionId)) events.push(erasedEvent(m.sessionId));
  return events;
}

/**
 * The subscriber event of a stub loaded from a stored meta that another
 * tab changed since this tab last took that session in (was: the
 * Writer's known state of it): the load takes the change in, so the pull
 * that follows finds nothing new and would send no event (see
 * store/pager.js _read). Null when only the cursor moved, as pullSessions
 * sends nothing then; an erasure's when the meta is gone.
 * @param {string} id
 * @param {{epoch: number, count: number, acount: number, meta?: object}|undefined} was
 * @param {object|undefined} meta the stored meta the load read (undefined: none)
 * @returns {object|null}
 */
export function loadedEvent(id, was, meta) {
  if (!was) return null;
  if (!meta) return erasedEvent(id);
  const same = sameRecords(was, diskState(meta)) && !!was.meta?.deletedAt === !!meta.deletedAt;
  return same ? null : remoteEvent(meta);
}

/**
 * Whether two disk states (records.js diskState) hold the same node and
 * annotation records: the same epoch and counts (the cursor may differ).
 * @param {{epoch: number, count: number, acount: number}} a @param {{epoch: number, count: number, acount: number}} b
 */
function sameRecords(a, b) {
  return a.epoch === b.epoch && a.count === b.count && a.acount === b.acount;
}

/**
 * Take into core the node records stored after the meta of a session
 * whose meta says tail: true (appends of a tab that held the lock and
 * let go, or was killed, before writing the meta; see deriveTail): the
 * gen does not tell of them. One count per such session, in every
 * transaction that reads the gen. Arguments as pullSessions'.
 * @param {import("./writer.js").Writer} w
 * @param {IDBTransaction} tx
 * @param {Map<string, object>} pulled
 * @param {object[]} remote
 */
export async function pullTails(w, tx, pulled, remote) {
  const tails = [];
  for (const [id, k] of w.known) if (k.tail && !pulled.has(id)) tails.push([id, k]);
  for (const [id, k] of pulled) if (k.tail) tails.push([id, k]);
  if (tails.length === 0) return;
  const nodes = tx.objectStore("nodes");
  const counts = await Promise.all(tails.map(([id, k]) => requestPromise(nodes.count(nodeRange(id, k.count)))));
  for (let i = 0; i < tails.length; i++) {
    if (counts[i] === 0) continue;
    const [id, k] = tails[i];
    const meta = await requestPromise(tx.objectStore("sessions").get(id));
    if (!meta || (meta.epoch ?? 0) !== k.epoch || (meta.annotationCount ?? 0) !== k.acount) throw new Error(`stored session ${quote(id)} changed under its records`);
    const added = await readNodes(tx, meta, k.count); // brings meta up to date
    if (w.pager?.isPaged(id)) w.pager.restub(meta, !w.owned.has(id));
    else takeIn(w, id, mergeRequest(meta, added, [], follow(w, id, meta)));
    const state = diskState(meta);
    state.last = added[added.length - 1];
    pulled.set(id, state);
    remote.push({ type: "append", sessionId: id, nodeId: meta.cursor ?? undefined, remote: true });
  }
}

/**
 * After a failed transaction: read the touched sessions back from disk
 * and put them into core as stored (forgetting those not stored), so
 * memory equals disk again. If even that read fails the Writer stops
 * writing (closed, with a storage event).
 * @param {import("./writer.js").Writer} w
 * @param {Set<string>} ids
 */
export async function readBack(w, ids) {
  if (ids.size === 0) return;
  try {
    const tx = w.db.transaction(STORES, "readonly");
    const sessions = tx.objectStore("sessions");
    for (const id of ids) {
      const meta = await requestPromise(sessions.get(id));
      let env;
      if (!meta || meta.erased === true) {
        env = JSON.parse(w.handle.callInternal(JSON.stringify({ operation: "sync.forget", sessionId: id })));
        if (!env.ok && env.error.code === ERROR.SESSION_NOT_FOUND) env = { ok: true };
        w.known.delete(id);
        w.pager?.forget(id);
      } else if (w.pager?.isPaged(id)) {
        if (meta.tail === true) await readNodes(tx, meta, meta.nodeCount);
        w.pager.restub(meta, !w.owned.has(id));
        env = { ok: true };
        w.known.set(id, diskState(meta));
      } else {
        env = JSON.parse(w.handle.callInternal(restoreRequest(meta, await readSnapshot(tx, meta))));
        w.known.set(id, diskState(meta));
      }
      if (!env.ok) throw new Error(`${env.error.code}: ${env.error.message}`);
    }
    w.handle.drain(false);
  } catch (err) {
    w.close(`memory could not be brought back to what is stored after a failed write (${err?.message ?? err}); reload the page`);
    w.emit({ type: "storage", state: "closed", reason: "rollback", message: w.closedReason });
  }
}
