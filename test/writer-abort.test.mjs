// js/store/writer.js in Node (fake-indexeddb, a fake lock manager): a call
// given a signal and an `aborted` answer (an import's importFinish) that is
// aborted before it runs never runs and answers `aborted` — while it waits
// for the write lock (another tab writing), when it was aborted before it
// was queued, and when the abort comes as its transaction begins — and the
// other calls queued with it are stored as if it had not been there.
import 'fake-indexeddb/auto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase } from '../js/store/schema.js';
import { Writer } from '../js/store/writer.js';
import { FakeLocks } from './fake-locks.mjs';

let dbs = 0;
const ABORTED = '{"ok":false,"error":{"code":"INVALID_ARGUMENT","message":"import aborted; nothing was imported"}}';

/** A Writer on a new database, its core calls changing nothing (the wasm handle is a stand-in). */
async function writer(locks) {
  const db = await openDatabase(`writer-abort-${++dbs}`);
  const handle = { callInternal: () => '{"ok":true}', drain: () => '', drainBytes: () => new Uint8Array(0) };
  const w = new Writer(db, handle, { gen: 0, metas: [], emit: () => {}, keepsCursor: () => true, locks, channel: null });
  return { db, w };
}

/** Hold the lock of database name as another tab would; resolves to the function that lets it go. */
function holdLock(locks, name) {
  return new Promise((held) => locks.request(`sessiontree-write:${name}`, () => new Promise((letGo) => held(letGo))));
}

const tick = (ms) => new Promise((r) => setTimeout(r, ms));

test('a call aborted while it waits for the write lock answers at once and never runs; the call queued with it runs once the lock comes', async () => {
  const locks = new FakeLocks();
  const { db, w } = await writer(locks);
  const letGo = await holdLock(locks, db.name);
  const ran = [];
  const controller = new AbortController();
  const importing = w.run(() => (ran.push('import'), '{"ok":true,"value":"import"}'), { signal: controller.signal, aborted: ABORTED });
  const append = w.run(() => (ran.push('append'), '{"ok":true,"value":"append"}'));
  let early;
  try {
    await tick(30);
    controller.abort();
    early = await Promise.race([importing, tick(200).then(() => 'still waiting')]);
  } finally {
    letGo();
  }
  assert.equal(early, ABORTED, 'answered before the lock was let go');
  assert.equal(await importing, ABORTED);
  assert.equal(await append, '{"ok":true,"value":"append"}');
  assert.deepEqual(ran, ['append']);
  await w.close('done');
});

test('a call whose signal aborted before it was queued answers at once and never runs', async () => {
  const { w } = await writer(new FakeLocks());
  const controller = new AbortController();
  controller.abort();
  let ran = false;
  assert.equal(await w.run(() => ((ran = true), '{"ok":true}'), { signal: controller.signal, aborted: ABORTED }), ABORTED);
  assert.equal(ran, false);
  await w.close('done');
});

test('a call aborted as its transaction begins, before it runs, never runs; the call before it in the batch is stored with its own answer', async () => {
  const { db, w } = await writer(new FakeLocks());
  const ran = [];
  const controller = new AbortController();
  const transaction = db.transaction.bind(db);
  db.transaction = (...args) => {
    const tx = transaction(...args);
    queueMicrotask(() => controller.abort()); // after the transaction began, before the gen read comes back
    return tx;
  };
  const append = w.run(() => (ran.push('append'), '{"ok":true,"value":"append"}'));
  const importing = w.run(() => (ran.push('import'), '{"ok":true,"value":"import"}'), { signal: controller.signal, aborted: ABORTED });
  assert.equal(await append, '{"ok":true,"value":"append"}', 'not a STORAGE_ERROR: the aborted call never ran');
  assert.equal(await importing, ABORTED);
  assert.deepEqual(ran, ['append']);
  await w.close('done');
});
