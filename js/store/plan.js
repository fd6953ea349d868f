// The pure parts of the Writer's plan for one transaction (store/writer.js):
// what to write given what was drained and what is known of the disk, with
// no IndexedDB, no lock and no wasm, so Node tests them (test/plan.test.mjs).

/**
 * The meta records a flush writes: one per session whose meta was left
 * with `tail: true` (tailed), as it is in memory, without tail (nor tailMark) and stamped
 * gen — except a session this transaction just wrote with its meta
 * (written, not deferred), which is flushed next time. A session written
 * now with its meta deferred is flushed with the meta it would have had
 * (its `pending`).
 * @param {Map<string, object>} tailed sessionId → the meta record to become, for sessions stored with tail
 * @param {Map<string, {deferred: boolean, pending?: object}>} written the states writeChanges returned for this transaction
 * @param {number} gen the gen this transaction stamps
 * @returns {[string, object][]} [sessionId, meta record] to put, in tailed's order
 */
export function flushRecords(tailed, written, gen) {
  const out = [];
  for (const [id, meta] of tailed) {
    const w = written.get(id);
    if (w && !w.deferred) continue; // written with tail just now: flushed next time
    const { tailMark, ...rest } = w ? w.pending : meta; // out of the "tail" index (store/schema.js)
    out.push([id, { ...rest, gen, tail: false }]);
  }
  return out;
}
