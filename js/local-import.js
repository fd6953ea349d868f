// The imports of a LocalTree (js/local.js): an export's text or bytes read
// into a wasm import buffer and stepped through as a job (importStart,
// importStep, importFinish) with progress and abort, and a snapshot file
// of a new session sent to snapshot.load instead. Functions of the tree,
// which LocalTree's import methods call.

import { SNAPSHOT_HEAD_BYTES, concatUTF8, snapshotSessionId, spliceJSON } from "./request-text.js";
import { checkImportArgs, closedEnvelope, errorEnvelope } from "./tree-api.js";
import { IN_WORKER } from "./runtime.js";
import { nextTask } from "./tasks.js";
import { ERROR } from "./protocol.js";
import { envelopeCode } from "./envelope.js";
import { callPaged } from "./local-paging.js";

/** @typedef {import("./local.js").LocalTree} LocalTree */

const utf8Encoder = new TextEncoder();

/** The time importText aims to spend on one slice of a large import, in ms. */
const SLICE_MS = 50;

/**
 * Bytes of room importFile reads a Blob after, for the head of a
 * snapshot.load request (`{"operation":"snapshot.load","sessionId":…,"snapshot":`):
 * a session id of 256 characters of 4 UTF-8 bytes each fits.
 */
const REQUEST_ROOM = 1152;

/** Blobs up to this many bytes importFile reads whole in one read; larger ones are streamed. */
const READ_WHOLE_BYTES = 256 << 20;

/**
 * Blobs over this many bytes importFile reads whole only when their head
 * is a snapshot of a session this store does not have (mayLoad): any
 * other is streamed into the wasm, never held whole in this thread's heap
 * (read whole, a 200 MB export was 400 MB there while it was copied, and
 * 200 MB until the import ended).
 */
const PEEK_BYTES = 16 << 20;

/** UTF-16 code units of text handed to the wasm per call of a large import. */
const COPY_CHARS = 1 << 20;

/**
 * Let the page run (timers, input, paint) before the next slice of work.
 * In the page's thread a timer task, not scheduler.yield() or a
 * MessageChannel: those resume ahead of the page's own timers. In a
 * worker, where no page timer waits on this thread, nextTask (js/tasks.js):
 * it queues behind the messages already sent to the worker (an abort,
 * another call) without the 4 ms clamp of nested timers. The clamp costs
 * about 0.2 s over a 50 MB import in 1 MiB slices in the page.
 * @returns {Promise<void>}
 */
function yieldToPage() {
  if (IN_WORKER && typeof MessageChannel === "function") return nextTask();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * A yield for a loop of short pieces of work (chunks of a file): it
 * yields (yieldToPage) only once SLICE_MS has passed since its last yield,
 * else resolves at once, so a page thread's 4 ms timer clamp is paid per
 * slice, not per chunk.
 * @returns {() => Promise<void>}
 */
function sliceYield() {
  let last = performance.now();
  return async () => {
    if (performance.now() - last < SLICE_MS) return;
    await yieldToPage();
    last = performance.now();
  };
}

/**
 * LocalTree.importText (see its doc: arguments, slices, progress, abort,
 * the envelopes it answers).
 * @param {LocalTree} tree the tree it runs for
 * @param {string} text @param {string} format @param {object} options
 * @returns {Promise<object>} the envelope; value {format, sessions, skipped, warnings}
 */
export async function importText(tree, text, format = "auto", options = {}) {
  const bad = checkImportArgs(text, format, options);
  if (bad) return bad;
  options = options ?? {};
  if (tree._writer?.refusing) return closedEnvelope(tree._writer.refusing, "nothing was imported");
  const { onProgress, signal } = options;
  const sliceBytes = Number.isInteger(options.sliceBytes) && options.sliceBytes > 0 ? options.sliceBytes : 1 << 20;
  if (!onProgress && !signal && text.length < sliceBytes / 3) {
    return tree._mutatePaged(() => tree._handle.importText(text, format));
  }
  // The text crosses to the wasm in slices of UTF-8 bytes, a yield
  // between them, so no single call copies all of a large file.
  const buffer = tree._handle.importBuffer(Math.ceil(text.length * 1.1));
  if (typeof buffer === "string") return JSON.parse(buffer); // refused (the memory budget)
  const encoder = new TextEncoder();
  for (let i = 0; i < text.length; ) {
    let end = Math.min(i + COPY_CHARS, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--; // keep a surrogate pair whole
    const failed = tree._handle.importAppend(buffer, encoder.encode(text.slice(i, end)));
    if (failed) return JSON.parse(failed);
    i = end;
    if (i < text.length) {
      await yieldToPage();
      if (signal?.aborted) {
        tree._handle.importCancel(buffer);
        return errorEnvelope(ERROR.INVALID_ARGUMENT, "import aborted; nothing was imported");
      }
    }
  }
  return tree._importJob(buffer, format, onProgress, signal, sliceBytes);
}

/**
 * importFile's import in this thread (TreeAPI.importFile checked the
 * arguments): the bytes of `data` — a Blob read here chunk by chunk
 * through its stream, or bytes handed over by the caller — are copied
 * into a wasm import buffer in pieces of at most COPY_CHARS bytes with a
 * yield between them, then imported in slices as importText does
 * (_importJob). Aborted while reading, nothing is stored.
 * @param {LocalTree} tree the tree it runs for
 * @param {Blob|Uint8Array} data
 * @param {string} format
 * @param {{onProgress?: (p: {read: number, total: number}) => void, signal?: AbortSignal, sliceBytes?: number}} options
 * @returns {Promise<object>} the envelope; value {format, sessions, skipped, warnings}
 */
export async function importBytes(tree, data, format, options) {
  const { onProgress, signal, sliceBytes } = options;
  if (tree._writer?.refusing) return closedEnvelope(tree._writer.refusing, "nothing was imported");
  const aborted = () => errorEnvelope(ERROR.INVALID_ARGUMENT, "import aborted; nothing was imported");
  if (format === "auto" || format === "snapshot") {
    // A Blob that may be a snapshot is read whole in one read (each read
    // of a Blob is a round trip to the browser's blob store, tens of ms on
    // a loaded machine), then copied after REQUEST_ROOM bytes of room for
    // a snapshot.load request's head: reading a Blob made of [room, file,
    // "}"] instead took 134 ms against 29 ms + the copy for 25 MB. The
    // general importer then takes the bytes from memory. Over PEEK_BYTES
    // only a Blob whose head is such a snapshot is (mayLoad): a 200 MB
    // ChatGPT export streamed took 3.65 s to import, read whole 3.68 s.
    let room = null;
    if (!(data instanceof Uint8Array) && data.size <= READ_WHOLE_BYTES && (data.size <= PEEK_BYTES || (await mayLoad(tree, data)))) {
      try {
        const bytes = new Uint8Array(await data.arrayBuffer());
        room = new Uint8Array(REQUEST_ROOM + bytes.length + 1);
        room.set(bytes, REQUEST_ROOM);
        room[room.length - 1] = 0x7d; // }
      } catch (err) {
        return errorEnvelope(ERROR.INVALID_ARGUMENT, `the file could not be read: ${err?.message ?? err}`);
      }
      data = room.subarray(REQUEST_ROOM, room.length - 1);
      if (signal?.aborted) return aborted();
    }
    const loaded = await tree._importSnapshot(data, room, signal);
    room = null; // data keeps what is needed of it
    if (loaded !== null) {
      const total = 2 * (data.size ?? data.length);
      try {
        if (loaded.ok) onProgress?.({ read: total, total });
      } catch (err) {
        console.error("sessiontree: an onProgress callback threw", err);
      }
      return loaded;
    }
  }
  const buffer = tree._handle.importBuffer(data.size ?? data.length);
  if (typeof buffer === "string") return JSON.parse(buffer); // refused (the memory budget)
  let reader = null;
  const pause = sliceYield();
  try {
    const feed = async (bytes) => {
      for (let i = 0; i < bytes.length; i += COPY_CHARS) {
        const failed = tree._handle.importAppend(buffer, bytes.subarray(i, i + COPY_CHARS));
        if (failed) return JSON.parse(failed);
        await pause();
        if (signal?.aborted) return aborted();
      }
      return null;
    };
    if (data instanceof Uint8Array) {
      const stop = await feed(data);
      if (stop) return (tree._handle.importCancel(buffer), stop);
    } else {
      try {
        reader = data.stream().getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          const stop = await feed(value);
          if (stop) return (tree._handle.importCancel(buffer), stop);
        }
      } catch (err) {
        tree._handle.importCancel(buffer);
        return errorEnvelope(ERROR.INVALID_ARGUMENT, `the file could not be read: ${err?.message ?? err}`);
      }
    }
  } finally {
    reader?.cancel().catch(() => {});
  }
  // The bytes are in the wasm now: a Blob read whole (data, a view of
  // room) is let go instead of staying beside them while they are
  // imported and stored (a 200 MB file is 200 MB of this thread's heap).
  data = null;
  return tree._importJob(buffer, format, onProgress, signal, Number.isInteger(sliceBytes) && sliceBytes > 0 ? sliceBytes : 1 << 20);
}

/**
 * importFile's fast path for a sessiontree snapshot of a session this
 * store does not have: the file (its start names the session, see
 * snapshotSessionId) loads through snapshot.load, the request's head
 * written into the room before the bytes of a Blob read whole (or, for
 * bytes and large Blobs, spliced around them as loadSnapshot does) —
 * read once, never decoded to a string, parsed once in core — instead
 * of the general importer (which
 * copied it into the wasm in pieces with a timer yield after each Blob
 * chunk: 2.7–8.6× the raw snapshot.load call for 25 MB). The session is
 * checked again inside the write (the Writer has taken in what other
 * tabs stored), so a session that appeared meanwhile is merged by the
 * general importer, as import merges it, never replaced. The value is
 * the import's, as core reports a snapshot import: one new session,
 * nothing skipped, no warnings; subscribers see a "snapshot.load" change.
 * The session's entry is core's (internal import.report).
 * @param {LocalTree} tree the tree it runs for
 * @param {Blob|Uint8Array} data the file, or its bytes (a view of room)
 * @param {Uint8Array|null} room when data was a Blob read whole: REQUEST_ROOM bytes, the file, "}"
 * @param {AbortSignal|undefined} signal
 * @returns {Promise<object|null>} the import's envelope (or STORAGE_ERROR, or an abort), or null: not such a
 *   snapshot, or one snapshot.load refused (the general importer then runs, and reports what it finds)
 */
export async function importSnapshot(tree, data, room, signal) {
  const blob = !(data instanceof Uint8Array);
  let head;
  try {
    head = blob ? new Uint8Array(await data.slice(0, SNAPSHOT_HEAD_BYTES).arrayBuffer()) : data;
  } catch {
    return null; // the general path reads it and says why it cannot
  }
  const sessionId = snapshotSessionId(head);
  if (sessionId === null || tree._hasSession(sessionId)) return null;
  const start = utf8Encoder.encode(spliceJSON({ operation: "snapshot.load", sessionId }, [["snapshot", ""]]).slice(0, -1));
  let request;
  if (room !== null && start.length <= REQUEST_ROOM) {
    // The file was read after room for the head, and "}" after it: the
    // request is a view of that buffer, with no copy.
    room.set(start, REQUEST_ROOM - start.length);
    request = room.subarray(REQUEST_ROOM - start.length);
  } else {
    try {
      request = blob ? new Uint8Array(await new Blob([start, data, "}"]).arrayBuffer()) : concatUTF8([start, data, "}"]);
    } catch {
      return null;
    }
  }
  const aborted = errorEnvelope(ERROR.INVALID_ARGUMENT, "import aborted; nothing was imported");
  if (signal?.aborted) return aborted;
  const taken = JSON.stringify(errorEnvelope(ERROR.SESSION_ALREADY_EXISTS, `session ${JSON.stringify(sessionId)} exists`));
  let report = null;
  const env = await tree._mutate(() => {
    if (tree._hasSession(sessionId)) return taken;
    const text = tree._handle.call(request, true);
    // The report entry is core's, asked while the session is surely in
    // memory (after this call the pager may page it out).
    report = JSON.parse(tree._handle.callInternal(JSON.stringify({ operation: "import.report", sessionId })));
    return text;
  }, { signal, aborted: JSON.stringify(aborted) });
  // Once aborted, the answer is the abort's, also when the load failed on its own meanwhile.
  if (!env.ok) return env.error.code === ERROR.STORAGE_ERROR ? env : signal?.aborted ? aborted : null;
  if (!report?.ok) return report;
  return { ok: true, value: { format: "snapshot", sessions: [report.value], skipped: [], warnings: [] } };
}

/**
 * Whether a Blob's head (SNAPSHOT_HEAD_BYTES) names a snapshot of a session
 * this store does not have: one importSnapshot may load. A head that
 * cannot be read says yes (the whole read then says why).
 * @param {LocalTree} tree @param {Blob} blob
 * @returns {Promise<boolean>}
 */
async function mayLoad(tree, blob) {
  let head;
  try {
    head = new Uint8Array(await blob.slice(0, SNAPSHOT_HEAD_BYTES).arrayBuffer());
  } catch {
    return true;
  }
  const id = snapshotSessionId(head);
  return id !== null && !tree._hasSession(id);
}

/**
 * Whether the store has session id (a `session` read; an id core refuses counts as taken).
 * @param {LocalTree} tree
 */
export function hasSession(tree, id) {
  // A paged-out session (PAGED_OUT, store/pager.js) exists too; its fault is taken so no load follows.
  const answer = callPaged(tree, utf8Encoder.encode(JSON.stringify({ operation: "session", sessionId: id })), true, { ids: null });
  return envelopeCode(answer) !== ERROR.SESSION_NOT_FOUND;
}

/**
 * Run an import of a filled wasm import buffer in slices (importStart,
 * importStep while reading, then importFinish, which adds every session
 * in one call, so they are stored in one IndexedDB transaction): what
 * importText does once its text is in the buffer. A slice is sized to
 * take about SLICE_MS and holds at most sliceBytes; onProgress({read,
 * total}) after each, and while the sessions are stored after each piece
 * of the Writer's (Writer.run's onStored: the second half of total moves
 * with the nodes written). An abort at any point before the transaction
 * commits cancels it with nothing stored (while storing, the Writer
 * aborts the transaction and takes the sessions out of memory again).
 * (Adding in slices kept a page's thread free while the wasm ran there;
 * in a worker it only let the search index's warm-up run between the
 * slices: 6.5 s of a 21 s 200 MB import, issue 15.)
 * @param {LocalTree} tree the tree it runs for
 * @param {number} buffer the import buffer's id (used up)
 * @param {string} format
 * @param {((p: {read: number, total: number}) => void)|undefined} onProgress
 * @param {AbortSignal|undefined} signal
 * @param {number} sliceBytes
 * @returns {Promise<object>} the envelope of importFinish, or an error envelope
 */
export async function importJob(tree, buffer, format, onProgress, signal, sliceBytes) {
  const start = JSON.parse(tree._handle.importStart(buffer, format));
  if (!start.ok) return start;
  const { job } = start.value;
  const progress = (p) => {
    try {
      onProgress?.(p);
    } catch (err) {
      console.error("sessiontree: an onProgress callback threw", err);
    }
  };
  let budget = Math.min(sliceBytes, 64 << 10);
  let read = 0;
  let step;
  for (;;) {
    if (signal?.aborted) {
      // Nothing is stored before importFinish.
      tree._handle.importCancel(job);
      return errorEnvelope(ERROR.INVALID_ARGUMENT, "import aborted; nothing was imported");
    }
    const t0 = performance.now();
    // Reading adds nothing; through the Writer all the same, in turn
    // with the calls around it.
    step = await tree._mutate(() => tree._handle.importStep(job, budget));
    if (step.ok === false) {
      tree._handle.importCancel(job);
      return step;
    }
    const ms = Math.max(performance.now() - t0, 1);
    budget = Math.max(16 << 10, Math.min(sliceBytes, Math.round(((step.read - read) * SLICE_MS) / ms)));
    read = step.read;
    progress({ read: step.read, total: step.total });
    if (step.done || step.read * 2 >= step.total) break; // read: the rest is storing
    await yieldToPage();
  }
  if (!step.done) await yieldToPage(); // an abort sent meanwhile is seen here
  const aborted = errorEnvelope(ERROR.INVALID_ARGUMENT, "import aborted; nothing was imported");
  if (signal?.aborted) {
    tree._handle.importCancel(job);
    return aborted;
  }
  // Stored in pieces in one transaction: the second half of the bar moves
  // with the nodes written (of those the sessions added), and an abort
  // until the commit undoes the whole import.
  const { total } = step;
  let added = null;
  const onStored = (text, nodes) => {
    added ??= storedNodes(text);
    if (added > 0) progress({ read: Math.max(step.read, Math.round(total / 2 + (total / 2) * Math.min(nodes / added, 1))), total });
  };
  const env = await tree._mutatePaged(() => tree._handle.importFinish(job), { signal, aborted: JSON.stringify(aborted), onStored });
  tree._importWasmBytes = tree._memory.buffer.byteLength; // the import's peak, for tests and benchmarks
  // Failed or aborted before importFinish ran (a closed Writer, an abort
  // while it took in other tabs' changes): the job and its bytes are still
  // there. A finished job is no longer known: nothing happens then.
  if (!env.ok) tree._handle.importCancel(job);
  if (env.ok && !step.done) progress({ read: total, total });
  return env;
}

/**
 * The nodes an import's report says it added (what its drain holds), from
 * importFinish's envelope text; 0 for an error.
 * @param {string} text
 * @returns {number}
 */
function storedNodes(text) {
  const env = JSON.parse(text);
  return env.ok ? env.value.sessions.reduce((n, s) => n + s.added, 0) : 0;
}
