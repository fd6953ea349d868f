// The kept list (js/store/list-keep.js, js/store/listing.js readRecords)
// against IndexedDB in Node (fake-indexeddb, a dev dependency): the
// records it and those stamped since make, the parts a read without it
// hands on, what makes it stale, and the writes it refuses.
import 'fake-indexeddb/auto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase } from '../js/store/schema.js';
import { readRecords, requestPromise } from '../js/store/listing.js';
import { keptListStale, writeKeptList } from '../js/store/list-keep.js';

let dbs = 0;

const meta = (i, fields = {}) => ({ sessionId: `s${String(i).padStart(5, '0')}`, title: `title ${i}`, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z', nodeCount: 1, gen: i + 1, epoch: i + 1, ...fields });

/** Run fn(tx) in a transaction over stores and resolve to its value once the transaction completes. */
async function inTx(db, stores, mode, fn) {
  const tx = db.transaction(stores, mode);
  const done = new Promise((resolve, reject) => ((tx.oncomplete = resolve), (tx.onabort = () => reject(tx.error))));
  const value = await fn(tx);
  await done;
  return value;
}

/** A database of count meta records (gens 1 … count), and its kept list of them when kept. */
async function history(count, { kept = false } = {}) {
  const db = await openDatabase(`kept${++dbs}`);
  const records = Array.from({ length: count }, (_, i) => meta(i));
  await inTx(db, ['sessions', 'search'], 'readwrite', (tx) => {
    for (const m of records) tx.objectStore('sessions').put(m, m.sessionId);
    if (kept) tx.objectStore('search').put(JSON.stringify(records), ['list', count]);
  });
  return db;
}

/** readRecords in a read-only transaction: the records and the sizes of the parts it handed on. */
async function read(db, withParts = true) {
  const parts = [];
  const records = await inTx(db, ['sessions', 'search'], 'readonly', (tx) => readRecords(tx, withParts ? (p) => parts.push(p.length) : null));
  return { records, parts };
}

const put = (db, store, value, key) => inTx(db, [store], 'readwrite', (tx) => tx.objectStore(store).put(value, key));

test('without a kept list the page reads the first 1,000 records as its first part, then 1,000 at a time; the store\'s own read takes them in one', async () => {
  for (const [count, parts] of [[100, [100]], [300, [300]], [1000, [1000, 0]], [2300, [1000, 1000, 300]]]) {
    const db = await history(count);
    const got = await read(db);
    assert.deepEqual(got.parts, parts, `${count} records`);
    assert.deepEqual(got.records.map((m) => m.sessionId), Array.from({ length: count }, (_, i) => meta(i).sessionId));
    assert.equal((await read(db, false)).records.length, count);
    db.close();
  }
});

test('a kept list and the records stamped above its gen make every record, in one part; a damaged one is passed over for the whole store', async () => {
  const db = await history(300, { kept: true });
  await put(db, 'sessions', meta(5, { title: 'renamed since', gen: 301 }), meta(5).sessionId);
  await put(db, 'sessions', meta(999, { gen: 302 }), meta(999).sessionId);
  const got = await read(db);
  assert.deepEqual(got.parts, [301]);
  assert.equal(got.records.find((m) => m.sessionId === meta(5).sessionId).title, 'renamed since');
  assert.equal(got.records.at(-1).sessionId, meta(999).sessionId);
  // Marked in the kept list alone: it was read.
  const marked = Array.from({ length: 300 }, (_, i) => meta(i, i === 7 ? { title: 'from the kept list' } : {}));
  await put(db, 'search', JSON.stringify(marked), ['list', 300]);
  assert.equal((await read(db)).records[7].title, 'from the kept list');
  for (const damaged of [42, 'not json {', '{"an":"object"}', '[]', JSON.stringify([...marked, marked[0]])]) {
    await put(db, 'search', damaged, ['list', 300]);
    const whole = await read(db);
    assert.equal(whole.records.length, 301, JSON.stringify(damaged).slice(0, 40));
    assert.equal(whole.records[7].title, 'title 7', 'read from the store');
  }
  db.close();
});

test('the kept list is stale with none, after 32 records stamped since or a tombstone since, never under 256 records', async () => {
  const stale = (db, count = 300) => inTx(db, ['sessions', 'search'], 'readonly', (tx) => keptListStale(tx, count));
  const none = await history(300);
  assert.equal(await stale(none), true);
  assert.equal(await stale(none, 255), false);
  none.close();
  const db = await history(300, { kept: true });
  assert.equal(await stale(db), false);
  for (let i = 0; i < 31; i++) await put(db, 'sessions', meta(i, { gen: 301 + i }), meta(i).sessionId);
  assert.equal(await stale(db), false, '31 since');
  await put(db, 'sessions', meta(31, { gen: 332 }), meta(31).sessionId);
  assert.equal(await stale(db), true, '32 since');
  db.close();
  const erased = await history(300, { kept: true });
  await put(erased, 'sessions', { sessionId: meta(3).sessionId, erased: true, gen: 301, createdAt: '', nodeCount: 0 }, meta(3).sessionId);
  assert.equal(await stale(erased), true, 'a tombstone since');
  erased.close();
});

test('writeKeptList replaces the list kept before, and refuses after an erasure since or a session of the list made again since', async () => {
  const keys = (db) => inTx(db, ['search'], 'readonly', (tx) => requestPromise(tx.objectStore('search').getAllKeys()));
  const records = Array.from({ length: 300 }, (_, i) => meta(i));
  const ids = records.map((m) => m.sessionId);
  const db = await history(300, { kept: true });
  await put(db, 'search', { bytes: new Uint8Array(1) }, 'index');
  await put(db, 'sessions', meta(400, { gen: 301 }), meta(400).sessionId);
  assert.equal(await writeKeptList(db, JSON.stringify([...records, meta(400, { gen: 301 })]), 301, [...ids, meta(400).sessionId]), true);
  assert.deepEqual(await keys(db), ['index', ['list', 301]]);
  // Made again since (epoch above gen), then erased since: both refuse, and the list stays.
  await put(db, 'sessions', meta(2, { gen: 302, epoch: 302 }), meta(2).sessionId);
  assert.equal(await writeKeptList(db, JSON.stringify(records), 301, ids), false);
  assert.equal(await writeKeptList(db, '[]', 302, []), true, 'a list that does not hold it may be written');
  await put(db, 'sessions', { sessionId: meta(9).sessionId, erased: true, gen: 303, createdAt: '', nodeCount: 0 }, meta(9).sessionId);
  assert.equal(await writeKeptList(db, '[]', 302, []), false);
  assert.deepEqual(await keys(db), ['index', ['list', 302]]);
  db.close();
  assert.equal(await writeKeptList(db, '[]', 400, []), false, 'a closed database writes nothing');
});
