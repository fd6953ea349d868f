// Calls keep the order they were made in, also past a method that reads
// what its request needs before making it (a restore point, a snapshot
// file): while one prepares (prepared), calls made after it wait
// (afterPrepared) until it is answered. Without this an append made just
// after restoreSnapshot was answered first, then replaced by the restore.
// The preparing method makes its own request through the path that does
// not wait (TreeAPI._callNow, _callOwnedNow; LocalTree._requestNow).

import { byteOrderMark, splicedSnapshotAnswer, spliceJSON, withoutBOM } from "./request-text.js";
import { errorEnvelope } from "./api-errors.js";
import { ERROR } from "./protocol.js";

const utf8Encoder = new TextEncoder();

/**
 * Run prepare on tree after the method preparing before it, if any; the
 * calls made meanwhile wait for it (afterPrepared).
 * @template T
 * @param {{_preparing: Promise<void>|null}} tree
 * @param {() => Promise<T>} prepare
 * @returns {Promise<T>} what prepare resolves to
 */
export function prepared(tree, prepare) {
  const mine = (tree._preparing ?? Promise.resolve()).then(prepare);
  const settled = mine.then(() => {}, () => {});
  tree._preparing = settled;
  settled.then(() => {
    if (tree._preparing === settled) tree._preparing = null;
  });
  return mine;
}

/**
 * Run run now, or, while a method of tree prepares its request
 * (prepared), once it was answered.
 * @template T
 * @param {{_preparing: Promise<void>|null}} tree
 * @param {() => T|Promise<T>} run
 * @returns {T|Promise<T>}
 */
export function afterPrepared(tree, run) {
  return tree._preparing === null ? run() : tree._preparing.then(run);
}

/**
 * TreeAPI.loadSnapshot of a File or Blob (not empty), inside prepared:
 * the request as a Blob of three parts (the file's part is not copied),
 * read once into the buffer that is sent; past a UTF-8 byte order mark,
 * and a UTF-16 file decoded first. Its request is made at once.
 * @param {import("./tree-api.js").TreeAPI} tree
 * @param {string} sessionId @param {Blob} snapshot @param {AbortSignal|undefined} signal
 * @returns {Promise<object>} the envelope
 */
export async function loadSnapshotFile(tree, sessionId, snapshot, signal) {
  const pieces = spliceJSON({ operation: "snapshot.load", sessionId }, [["snapshot", ""]]);
  const head = utf8Encoder.encode(pieces).length - 1; // the request's bytes before the snapshot
  let request;
  let raw;
  try {
    const bom = byteOrderMark(new Uint8Array(await snapshot.slice(0, 3).arrayBuffer()));
    if (bom === "utf-16le" || bom === "utf-16be") {
      raw = withoutBOM(new Uint8Array(await snapshot.arrayBuffer()));
    } else {
      const body = bom === "utf-8" ? snapshot.slice(3) : snapshot;
      request = new Uint8Array(await new Blob([pieces.slice(0, -1), body, pieces.slice(-1)]).arrayBuffer());
    }
  } catch (err) {
    return errorEnvelope(ERROR.INVALID_ARGUMENT, `the snapshot file could not be read: ${err?.message ?? err}`);
  }
  if (signal?.aborted) return errorEnvelope(ERROR.INVALID_ARGUMENT, "load aborted; nothing was loaded");
  if (request) {
    const size = request.length - head - 1; // before the request's buffer is transferred
    return splicedSnapshotAnswer(await tree._callOwnedNow(request), head, () => size);
  }
  if (raw.length === 0) return errorEnvelope(ERROR.INVALID_SNAPSHOT, "snapshot is empty");
  const text = spliceJSON({ operation: "snapshot.load", sessionId }, [["snapshot", raw]]);
  const answer = typeof text === "string" ? tree._callNow(text) : tree._callOwnedNow(text);
  return splicedSnapshotAnswer(await answer, head, () => (typeof raw === "string" ? utf8Encoder.encode(raw).length : raw.length));
}

/**
 * Run run, a call that makes its changes over several steps (an import:
 * its slices, its files), as one close() lets finish first
 * (closeAfterBegun): while it runs, tree._begun holds it. Made after
 * close(), it runs once the tree closed (afterPrepared), so it changes
 * nothing: STORAGE_ERROR, as every later change.
 * @template T
 * @param {{_preparing: Promise<void>|null, _begun?: Set<Promise<unknown>>, _closing?: boolean}} tree
 * @param {() => Promise<T>} run
 * @returns {Promise<T>}
 */
export function begun(tree, run) {
  if (tree._closing === true) return Promise.resolve(afterPrepared(tree, run));
  return closeWaitsFor(tree, run());
}

/**
 * Hold tree's close() (closeAfterBegun) until p settles: p is a call made
 * before close() whose answer comes later (a call that waits for its
 * paged-out session's load, then runs). Made once close() began, p is
 * not held (it runs after the close, as every later call).
 * @template T
 * @param {{_begun?: Set<Promise<unknown>>, _closing?: boolean}} tree @param {Promise<T>} p
 * @returns {Promise<T>} p
 */
export function closeWaitsFor(tree, p) {
  if (tree._closing === true) return p;
  const set = (tree._begun ??= new Set());
  set.add(p);
  const drop = () => set.delete(p);
  p.then(drop, drop);
  return p;
}

/**
 * close()'s end, shut (let go of the store), once the calls made before
 * it are done: the methods preparing their request (prepared) and the
 * calls begun (begun). Calls made after close() wait for it
 * (afterPrepared), so a change made after close() is refused and one made
 * before is stored, also when its steps come after close().
 * @param {{_preparing: Promise<void>|null, _begun?: Set<Promise<unknown>>, _closing?: boolean}} tree
 * @param {() => unknown} shut (what it returns is waited for)
 * @returns {Promise<void>} settled once shut ran
 */
export function closeAfterBegun(tree, shut) {
  tree._closing = true;
  const running = [...(tree._begun ?? [])];
  if (running.length === 0 && tree._preparing === null) return Promise.resolve(shut()).then(() => {});
  return prepared(tree, () => Promise.allSettled(running).then(shut)).then(() => {});
}
