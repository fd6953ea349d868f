// How a LocalTree (js/local.js) answers calls on sessions paged out of
// memory (store/pager.js): a call that needs a stub's nodes is answered
// by core with the internal PAGED_OUT envelope having changed nothing;
// the sessions it needed are loaded and the call runs again, so the
// caller sees the answer the session would have given had it stayed.

import { errorEnvelope } from "./tree-api.js";
import { ERROR, PAGED_OUT, STORAGE_ERROR } from "./protocol.js";
import { envelopeCode } from "./envelope.js";
import { IN_WORKER } from "./runtime.js";
import { readKeptIndex, writeKeptIndex } from "./store/search-keep.js";

/** Times a call is run again after loading the paged-out sessions it needed, before it answers STORAGE_ERROR. */
const PAGE_TRIES = 4;

/** Milliseconds without a call before the complete search index is kept (see keepSearchSoon). */
const KEEP_QUIET_MS = 2000;

/** Requests longer than this (UTF-16 code units) are not searched for their sessionId (see requestSession). */
const SESSION_SCAN = 4096;

/**
 * The session a request's JSON text names (its "sessionId" member, read
 * as core reads it, parsed; core refuses a repeated key), for the Pager's
 * least recently used order; null for none, for text that is not a JSON
 * object, or for a text over SESSION_SCAN (an import, a snapshot: they
 * change a session, which touches it anyway).
 * @param {string} text
 * @returns {string|null}
 */
export function requestSession(text) {
  if (text.length > SESSION_SCAN) return null;
  let request;
  try {
    request = JSON.parse(text);
  } catch {
    return null;
  }
  const id = request !== null && typeof request === "object" ? request.sessionId : undefined;
  return typeof id === "string" ? id : null;
}

/**
 * What a call held back by another's load (see held) answers in place of
 * running: nothing ran, and retryPaged runs it again once that call has.
 */
export const HELD_ANSWER = '{"ok":true,"value":null}';

/**
 * If answer (an envelope's text, or a context header) is PAGED_OUT, put
 * the sessions core needed in fault.ids (core's page.faults, read at once
 * so the calls of one transaction each get their own) and hold back the
 * calls made after this one until it runs again (tree._pageHold, see held);
 * note in fault.code the code of any failed answer.
 * @param {import("./local.js").LocalTree} tree
 * @param {string} answer
 * @param {{ids: string[]|null, code?: string|null, call?: object}|null} fault
 */
export function noteFault(tree, answer, fault) {
  if (!fault) return;
  fault.code = envelopeCode(answer);
  if (fault.code !== PAGED_OUT) return;
  fault.ids = JSON.parse(tree._handle.callInternal('{"operation":"page.faults"}')).value;
  // A search does not hold the calls after it: across every session its
  // loads can take seconds, and it may answer with what they changed.
  // The hold is the earliest call's: a later call that faulted first (a
  // call whose session another tab's write paged out again faults on its
  // next try) lets its waiters go, and they wait for the earlier one.
  const hold = tree._pageHold;
  if (fault.call && fault.op !== "search" && (!hold || fault.call.seq < hold.call.seq)) {
    let release;
    const done = new Promise((resolve) => (release = resolve));
    tree._pageHold = { call: fault.call, done, release };
    hold?.release();
  }
}

/**
 * Whether the call of fault must wait instead of running now: another
 * call made before it answered PAGED_OUT and has not yet run again with
 * its sessions loaded, or was held back and has not yet queued its next
 * try (each call's place is its seq, given by retryPaged). Calls are
 * answered in the order they were made, so a read made after a write to a
 * paged-out session sees the write, and one made before it does not. When true, fault.held is the promise
 * to wait for, and the caller answers HELD_ANSWER without running core.
 * @param {import("./local.js").LocalTree} tree
 * @param {{call?: object, held?: Promise<void>|null}|null} fault
 * @returns {boolean}
 */
export function held(tree, fault) {
  const call = fault?.call;
  if (!call) return false;
  const hold = tree._pageHold;
  const waiting = heldCalls(tree);
  let wait = null;
  if (hold && hold.call.seq < call.seq) wait = hold.done;
  // An earlier call held back has not yet queued its next try (a write's
  // held answer comes after the transaction it was queued in): wait for it,
  // so that its next try is queued before this one's.
  else if (earliest(waiting.seqs) < call.seq) wait = new Promise((resolve) => waiting.waiters.push({ seq: call.seq, resolve }));
  if (!wait) return false;
  waiting.seqs.add(call.seq);
  fault.held = wait;
  return true;
}

/** tree's calls held back (see held) that have not yet queued their next try: their seqs, and the later calls waiting for them. */
function heldCalls(tree) {
  return (tree._heldCalls ??= { seqs: new Set(), waiters: [] });
}

/** The least of seqs (Infinity when empty). */
function earliest(seqs) {
  let least = Infinity;
  for (const s of seqs) if (s < least) least = s;
  return least;
}

/** call queues its next try now (or ended): the calls held behind it go once no earlier call is held (see held). */
function unheld(tree, call) {
  const waiting = heldCalls(tree);
  if (!waiting.seqs.delete(call.seq)) return;
  const least = earliest(waiting.seqs);
  waiting.waiters = waiting.waiters.filter((w) => (least < w.seq ? true : (w.resolve(), false)));
}

/**
 * tree's handle.call(text, parsed), noting in fault the sessions a
 * PAGED_OUT answer needed (see noteFault); HELD_ANSWER without running
 * while an earlier call waits for its sessions (see held).
 * @param {import("./local.js").LocalTree} tree
 * @param {string|Uint8Array} text the request @param {boolean} parsed see handle.call
 * @param {object|null} fault @returns {string} the envelope's text
 */
export function callPaged(tree, text, parsed, fault) {
  if (held(tree, fault)) return HELD_ANSWER;
  const answer = tree._handle.call(text, parsed);
  noteFault(tree, answer, fault);
  return answer;
}

/** Let the calls held back by call's load (see held) run: theirs come after call's next try, which is queued first. */
function release(tree, call) {
  const hold = tree._pageHold;
  if (hold?.call !== call) return;
  tree._pageHold = null;
  hold.release();
}

/** The number of the last call retryPaged started (see held). */
let callSeq = 0;

/**
 * Run attempt until it needs no paged-out session: when core answered
 * PAGED_OUT (fault.ids set to the sessions it needed, see noteFault), load
 * them (Pager.load) and run it again; they stay loaded until it
 * answered. A load that fails, or PAGE_TRIES loads, answers STORAGE_ERROR
 * through failed; core changed nothing then. Meanwhile the calls made
 * after it wait (see held), so answers keep the order of the calls. A
 * search across every session first takes the index a page kept, then
 * reads the sessions still not indexed a batch at a time (Pager.indexThrough).
 * @template T
 * @param {import("./local.js").LocalTree} tree
 * @param {(fault: {ids: string[]|null, sessionId: string|null, call: object, held: Promise<void>|null}) => Promise<T>} attempt
 *   one try; it must check held(tree, fault) before running core, and queue
 *   or run synchronously (the calls it held back are let go right after)
 * @param {(env: object) => T} failed
 * @returns {Promise<T>}
 */
export async function retryPaged(tree, attempt, failed) {
  const pinned = [];
  const loaded = new Set(); // the sessions loaded for this call (pinned, as a set)
  const call = { seq: ++callSeq }; // this call, across its tries: seq its place in the order calls were made (see held)
  let indexed = false; // a search's sessions read through (Pager.indexThrough) once
  try {
    for (let tries = 0; ; tries++) {
      const fault = { ids: null, sessionId: null, call, held: null };
      // The calls this one held back go on after this task, so after this
      // try, which is queued (or run) at once; failing again, it holds them again.
      release(tree, call);
      const answer = await attempt(fault);
      if (fault.held) {
        // Held back (see held): nothing ran; run once the call before has.
        await fault.held;
        unheld(tree, call);
        tries--;
        continue;
      }
      if (fault.ids === null) {
        // A search across every session refused for the memory its
        // paged-out sessions would take, loaded at once: with the index a
        // page kept, only the few its hits show may need loading. (A
        // search refused for its own fields reads the kept index a little
        // early, once.)
        if (fault.op === "search" && fault.code === ERROR.INVALID_ARGUMENT && (await takeKeptIndex(tree))) continue;
        if (fault.sessionId !== null) tree._pager.touch(fault.sessionId);
        return answer;
      }
      // A closed tree (close(), another connection's upgrade, an exited
      // program) reads nothing more: say so, as a change there would.
      const closed = tree._writer?.refusing;
      if (closed) return failed(errorEnvelope(STORAGE_ERROR, `storage error: ${closed}, and ${fault.ids.length === 1 ? `session ${JSON.stringify(fault.ids[0])} is` : `the sessions ${JSON.stringify(fault.ids)} are`} not in memory; nothing was changed`));
      // A search across every session: first the index a page kept, if
      // any, so that only the sessions its hits show need loading.
      if (fault.op === "search" && fault.ids.length > 1 && (await takeKeptIndex(tree))) continue;
      // Sessions never indexed, more than one batch of them: read a batch
      // at a time, each paged out again with its documents kept (Pager.indexThrough).
      if (fault.op === "search" && !indexed && tree._pager.batches(fault.ids) > 1) {
        indexed = true;
        try {
          await tree._pager.indexThrough(fault.ids);
        } catch (err) {
          return failed(errorEnvelope(STORAGE_ERROR, `storage error: a stored session could not be read (${err?.message ?? err}); nothing was changed`));
        }
        continue;
      }
      // A search holds no later call back, so the sessions they make (a
      // clone, an import) and the pager drops may be new faults at each
      // try: only a try that needs again what it loaded counts.
      if (fault.op === "search" && fault.ids.some((id) => !loaded.has(id))) tries--;
      else if (tries === PAGE_TRIES) return failed(errorEnvelope(STORAGE_ERROR, `storage error: the sessions ${JSON.stringify(fault.ids)} could not be kept in memory for the call; nothing was changed`));
      pinned.push(...fault.ids);
      for (const id of fault.ids) loaded.add(id);
      try {
        await tree._pager.load(fault.ids);
      } catch (err) {
        // A search passes over a damaged session (marked in core: Pager._unreadable) and names it in `skipped`.
        if (fault.op === "search" && err?.unreadable) continue;
        return failed(errorEnvelope(STORAGE_ERROR, `storage error: a stored session could not be read (${err?.message ?? err}); nothing was changed`));
      }
    }
  } finally {
    unheld(tree, call);
    release(tree, call);
    tree._pager.unpin(pinned);
  }
}

/**
 * tree._mutate for a core call that may need paged-out sessions (an
 * import that adds to stored sessions): run again once they are loaded
 * (see retryPaged). Resolves to the envelope object.
 * @param {import("./local.js").LocalTree} tree
 * @param {() => string} fn the core call, returning envelope text
 * @param {object} [options] as tree._mutate's
 * @returns {Promise<object>}
 */
export function mutatePaged(tree, fn, options) {
  if (!tree._pager) return tree._mutate(fn, options);
  return retryPaged(tree, (fault) => tree._mutate(() => {
    if (held(tree, fault)) return HELD_ANSWER;
    const answer = fn();
    noteFault(tree, answer, fault);
    return answer;
  }, options), (env) => env);
}

/**
 * Once per tree, before its first search across every session loads
 * sessions: read the search index a page kept (store/search-keep.js) into
 * core (handle.searchLoad). Resolves to whether core took any session's
 * documents (false: none kept, damaged, or read before). Searches that
 * ask while the read is under way wait for it and get its answer (run
 * again, they need only the sessions of their hits), not false, which
 * would have them load every session or be refused.
 * @param {import("./local.js").LocalTree} tree
 * @returns {Promise<boolean>}
 */
export function takeKeptIndex(tree) {
  if (tree._keptTaking) return tree._keptTaking;
  if (tree._keptTried || !tree._db) return Promise.resolve(false);
  tree._keptTried = true;
  const t0 = performance.now();
  tree._keptTaking = readKeptIndex(tree._db)
    .then((bytes) => {
      const t1 = performance.now();
      const took = bytes !== null && !tree._closed && tree._handle.searchLoad(bytes) > 0;
      tree._keptRead = { bytes: bytes?.length ?? 0, readMs: t1 - t0, loadMs: performance.now() - t1 }; // for benchmarks (_debug)
      return took;
    })
    .finally(() => (tree._keptTaking = null));
  return tree._keptTaking;
}

/**
 * The search index is complete: keep it for later pages once the tab has
 * been quiet KEEP_QUIET_MS (handle.searchSave gives null when nothing
 * changed since it was last kept). Only in the store's Worker: the bytes
 * take a while to write out (~0.2 s at 1,000,000 nodes), which a page's
 * own thread must not spend.
 * @param {import("./local.js").LocalTree} tree
 */
export function keepSearchSoon(tree) {
  if (!IN_WORKER || !tree._writer || tree._keepTimer) return;
  const step = () => {
    tree._keepTimer = null;
    if (tree._closed || tree._writer.closedReason) return;
    const quiet = performance.now() - tree._lastCallAt;
    if (quiet < KEEP_QUIET_MS || !tree._writer.idle) {
      tree._keepTimer = setTimeout(step, KEEP_QUIET_MS - Math.min(quiet, KEEP_QUIET_MS - 100));
      return;
    }
    const bytes = tree._handle.searchSave();
    if (bytes) writeKeptIndex(tree._db, bytes, tree._writer.gen).then((ok) => (ok ? tree._keptSaves++ : tree._keptRefused++));
  };
  tree._keepTimer = setTimeout(step, KEEP_QUIET_MS);
}
