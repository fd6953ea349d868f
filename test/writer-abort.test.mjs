// js/store/writer.js in Node (fake-indexeddb, a fake lock manager): a call
// given a signal and an `aborted` answer (an import's importFinish) that is
// aborted before it runs never runs and answers `aborted` — while it waits
// for the write lock (another tab writing), when it was aborted before it
// was queued, and when the abort comes as its transaction begins — and the
// other calls queued with it are stored as if it had not been there; one
// aborted after it changed something is undone with its transaction.
import 'fake-indexeddb/auto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase } from '../js/store/schema.js';
import { Writer } from '../js/store/writer.js';
import { FakeLocks } from './fake-locks.mjs';
import { block, chain, utf8 } from './changes.mjs';

let dbs = 0;
const ABORTED = '{"ok":false,"error":{"code":"INVALID_ARGUMENT","message":"import aborted; nothing was imported"}}';

/**
 * A Writer on a new database with a stand-in for the wasm handle: a core
 * call changes nothing unless it calls change(id), which makes the next
 * drain give an import of three nodes into session id.
 */
async function writer(locks) {
  const db = await openDatabase(`writer-abort-${++dbs}`);
  let pending = new Uint8Array(0);
  const drainBytes = () => {
    const bytes = pending;
    pending = new Uint8Array(0);
    return bytes;
  };
  const handle = { callInternal: () => '{"ok":true}', drain: () => '', drainBytes };
  const w = new Writer(db, handle, { gen: 0, metas: [], emit: () => {}, keepsCursor: () => true, locks, channel: null });
  const change = (id) => (pending = utf8(block({ sessionId: id, operation: 'import', nodes: chain('n', 0, 3) })));
  /** Resolves to how many sessions are stored. */
  const stored = () => new Promise((resolve) => (db.transaction('sessions').objectStore('sessions').count().onsuccess = (e) => resolve(e.target.result)));
  return { db, w, change, stored };
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

test('a snapshot file whose import is cancelled after it failed on its own (its session came meanwhile) answers the abort, not its own failure', async () => {
  const { importSnapshot } = await import('../js/local-import.js');
  const { SNAPSHOT_MEMBERS, SNAPSHOT_VERSION } = await import('../js/protocol.js');
  const file = new TextEncoder().encode(JSON.stringify({ [SNAPSHOT_MEMBERS[0]]: SNAPSHOT_VERSION, [SNAPSHOT_MEMBERS[1]]: 'came-meanwhile', nodes: [] }));
  const controller = new AbortController();
  let looks = 0;
  const tree = {
    _hasSession: () => looks++ > 0, // absent when the file is read, there inside the write (another tab stored it)
    _handle: { call: () => assert.fail('the snapshot is not loaded over the session'), callInternal: () => '{"ok":true}' },
    // As the Writer: the call ran (and answered SESSION_ALREADY_EXISTS), the Cancel came before the commit.
    _mutate: async (fn) => {
      const text = fn();
      controller.abort();
      return JSON.parse(text);
    },
  };
  assert.deepEqual(await importSnapshot(tree, file, null, controller.signal), JSON.parse(ABORTED));
});

test('a call aborted after it ran but changed nothing (a try held back for a paged-out session) leaves the calls beside it stored', async () => {
  const { w, change, stored } = await writer(new FakeLocks());
  const controller = new AbortController();
  const importing = w.run(() => (controller.abort(), '{"ok":true,"value":"nothing changed"}'), { signal: controller.signal, aborted: ABORTED });
  const beside = w.run(() => (change('beside'), '{"ok":true,"value":"beside"}'));
  assert.equal(await importing, '{"ok":true,"value":"nothing changed"}', 'its own answer: it changed nothing');
  assert.equal(await beside, '{"ok":true,"value":"beside"}', 'not a STORAGE_ERROR: nothing of the aborted call was to undo');
  assert.equal(await stored(), 1, 'the session beside it is stored');
  await w.close('done');
});

test('a call aborted after it changed something, before the commit, is undone with the calls of its transaction', async () => {
  const { w, change, stored } = await writer(new FakeLocks());
  const controller = new AbortController();
  const importing = w.run(() => (change('imported'), controller.abort(), '{"ok":true,"value":"imported"}'), { signal: controller.signal, aborted: ABORTED });
  const beside = w.run(() => (change('beside'), '{"ok":true,"value":"beside"}'));
  assert.equal(await importing, ABORTED);
  assert.match(await beside, /"code":"STORAGE_ERROR".*cancelled/);
  assert.equal(await stored(), 0, 'nothing is stored');
  await w.close('done');
});
