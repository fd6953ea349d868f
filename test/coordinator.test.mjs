// js/store/coordinator.js in Node: two coordinators (two tabs) on one
// fake-indexeddb database, on Node's BroadcastChannel, with a fake lock
// manager that serializes like navigator.locks (Node has no Web Locks).
import 'fake-indexeddb/auto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase } from '../js/store/schema.js';
import { requestPromise } from '../js/store/records.js';
import { Coordinator } from '../js/store/coordinator.js';
import { FakeLocks } from './fake-locks.mjs';

let dbs = 0;

/**
 * One tab's coordinator on database name: its writes, lets-go and the
 * other tabs' announcements are recorded in log (as "A wrote", …).
 */
function tab(label, name, locks, log, gen = 0) {
  let busy = false;
  let heard = () => {};
  const c = new Coordinator(name, {
    gen,
    locks,
    channel: new BroadcastChannel('sessiontree:' + name),
    idle: () => !busy,
    lastBusy: () => performance.now(),
    onWrite: () => {
      log.push(`${label} heard a write`);
      heard();
    },
    onLetGo: () => log.push(`${label} let go`),
    stats: { lockWaits: 0 },
  });
  return {
    c,
    setBusy: (b) => (busy = b),
    /** Resolves at the next write another tab announces. */
    nextWrite: () => new Promise((resolve) => (heard = resolve)),
  };
}

/** Write one meta record stamped gen in a readwrite transaction (as a Writer's commit does). */
async function stamp(db, sessionId, gen) {
  const tx = db.transaction(['sessions'], 'readwrite');
  tx.objectStore('sessions').put({ sessionId, gen, createdAt: '2026-01-01T00:00:00Z', nodeCount: 0, annotationCount: 0 }, sessionId);
  await new Promise((resolve, reject) => {
    tx.oncomplete = resolve;
    tx.onabort = () => reject(tx.error);
  });
}

/** The gen a transaction of c sees (read, or c's own when skip). */
async function seenGen(db, c, skip) {
  const tx = db.transaction(['sessions'], 'readonly');
  return c.diskGen(tx, skip);
}

test('two coordinators on one database see each other\'s gens', async () => {
  const name = `coord${++dbs}`;
  const db = await openDatabase(name);
  const locks = new FakeLocks();
  const log = [];
  const a = tab('A', name, locks, log);
  const b = tab('B', name, locks, log);
  try {
    assert.equal(await a.c.takeLock(), null);
    assert.equal(await seenGen(db, a.c, a.c.unread), 0, 'A reads the gen: its lock is not verified yet');
    await stamp(db, 's1', 1);
    a.c.committed(1, true);
    assert.equal(a.c.unread, true, 'a write under the lock verifies it');
    const heard = b.nextWrite();
    a.c.announce(1);
    await heard;
    assert.equal(b.c.gen, 0, 'B has not looked yet');
    const bSees = await seenGen(db, b.c, b.c.unread);
    assert.equal(bSees, 1, 'B reads the gen A stamped: it must pull');
    b.c.committed(bSees, false);
    assert.equal(b.c.gen, 1);
    assert.equal(await seenGen(db, a.c, a.c.unread), 1, 'A, under its verified lock, takes its own gen unread');
    assert.deepEqual(log, ['B heard a write']);
  } finally {
    a.c.close();
    b.c.close();
    db.close();
  }
});

test('the write lock goes from tab to tab in turn, the holder letting go when asked', async (t) => {
  await t.test('an idle holder lets go at once when another tab asks', async () => {
    const name = `coord${++dbs}`;
    const locks = new FakeLocks();
    const log = [];
    const a = tab('A', name, locks, log);
    const b = tab('B', name, locks, log);
    await a.c.takeLock();
    log.push('A holds');
    await b.c.takeLock();
    log.push('B holds');
    assert.deepEqual(log, ['A holds', 'A let go', 'B holds']);
    assert.equal(a.c.mustTake, true, 'A must ask again before writing');
    assert.equal(b.c.mustTake, false);
    assert.equal(b.c.stats.lockWaits, 1);
    a.c.close();
    b.c.close();
  });

  await t.test('a busy holder keeps the lock until its transaction is done', async () => {
    const name = `coord${++dbs}`;
    const locks = new FakeLocks();
    const log = [];
    const a = tab('A', name, locks, log);
    const b = tab('B', name, locks, log);
    await a.c.takeLock();
    a.setBusy(true);
    const bHolds = b.c.takeLock().then(() => log.push('B holds'));
    while (!a.c.wantedByOther) await new Promise((resolve) => setTimeout(resolve, 5)); // B's want reaches A
    assert.equal(a.c.mustTake, false, 'A still holds the lock while busy');
    log.push('A committed');
    a.setBusy(false);
    a.c.afterBatch(false);
    await bHolds;
    assert.deepEqual(log, ['A committed', 'A let go', 'B holds']);
    a.c.close();
    b.c.close();
  });
});

test('a refused lock request resolves to its reason and leaves the lock unheld', async () => {
  const name = `coord${++dbs}`;
  const err = new DOMException('the lock manager is gone', 'InvalidStateError');
  const a = tab('A', name, new FakeLocks(err), []);
  const warn = console.warn;
  console.warn = () => {};
  try {
    assert.equal(await a.c.takeLock(), 'InvalidStateError: the lock manager is gone');
  } finally {
    console.warn = warn;
  }
  assert.equal(a.c.mustTake, true);
  assert.equal(a.c.unread, false);
  a.c.close();
});

test('with no lock manager a coordinator never takes a lock and always reads the gen', async () => {
  const name = `coord${++dbs}`;
  const db = await openDatabase(name);
  const a = tab('A', name, null, []);
  await stamp(db, 's1', 4);
  assert.equal(a.c.mustTake, false);
  a.c.committed(4, true);
  assert.equal(a.c.unread, false);
  assert.equal(await seenGen(db, a.c, a.c.unread), 4);
  const tx = db.transaction(['sessions'], 'readonly');
  assert.equal(await requestPromise(tx.objectStore('sessions').count()), 1);
  a.c.close();
  db.close();
});

test('close posts the pending announcement at once and lets go of the lock', async () => {
  const name = `coord${++dbs}`;
  const locks = new FakeLocks();
  const log = [];
  const a = tab('A', name, locks, log);
  const b = tab('B', name, locks, log);
  await a.c.takeLock();
  a.c.committed(7, true);
  a.c.announce(7);
  const heard = b.nextWrite();
  a.c.close();
  await heard;
  assert.deepEqual(log, ['A let go', 'B heard a write']);
  assert.equal(a.c.mustTake, true);
  b.c.close();
});
