// The store's records against IndexedDB in Node (fake-indexeddb, a dev
// dependency): what writeChanges puts in real transactions, read back by
// readAllSessions as the snapshot core restores from; restore points.
import 'fake-indexeddb/auto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase, STORES } from '../js/store/schema.js';
import { CHUNK_SIZE, chunkNodeCount, diskState, maxGen, parseChangeBytes, readAllSessions, readNodes, writeChanges } from '../js/store/records.js';
import { getSnapshot, listSnapshots, putSnapshot } from '../js/store/restore-points.js';
import { block, chain, text, utf8 } from './changes.mjs';

let dbs = 0;
/** A new, empty database. */
const freshDB = () => openDatabase(`t${++dbs}`);

/**
 * Write change blocks (their text) in one readwrite transaction, as the
 * Writer does; resolves to the written states once it commits.
 */
async function commit(db, blocksText, gen, stored = new Map()) {
  const tx = db.transaction(STORES, 'readwrite');
  const done = new Promise((resolve, reject) => {
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error('aborted'));
  });
  let written;
  try {
    written = await writeChanges(tx, parseChangeBytes(utf8(blocksText)), gen, (id) => stored.get(id));
  } catch (err) {
    tx.abort();
    await done.catch(() => {});
    throw err;
  }
  await done;
  return written;
}

/** Every stored session's snapshot, parsed. */
async function snapshots(db) {
  const { gen, sessions } = await readAllSessions(db);
  return { gen, snaps: sessions.map((s) => JSON.parse(text(s.snapshot))), metas: sessions.map((s) => s.meta) };
}

test('a session written and read back is the snapshot of its nodes and annotations', async () => {
  const db = await freshDB();
  const nodes = chain('n', 0, 3);
  await commit(db, block({ operation: 'import', nodes, annotations: ['{"nodeId":"n0","label":"x"}'] }), 1);
  const { gen, snaps, metas } = await snapshots(db);
  assert.equal(gen, 1);
  assert.deepEqual(snaps, [{ version: 1, sessionId: 's', cursor: 'n2', activeBranch: 'main', nodes: nodes.map((n) => JSON.parse(n)), annotations: [{ nodeId: 'n0', label: 'x' }] }]);
  assert.equal(metas[0].op, 'import');
  db.close();
});

test('appends across transactions fold into chunk records and read back in order', async () => {
  const db = await freshDB();
  const n = CHUNK_SIZE + 5;
  let written = await commit(db, block({ operation: 'import', nodes: chain('n', 0, 3) }), 1);
  assert.equal(written.get('s').folded, 3, 'a session written whole is chunk records only');
  written = await commit(db, block({ from: 3, nodes: chain('n', 3, CHUNK_SIZE + 2) }), 2, written);
  assert.equal(written.get('s').folded, 3, 'a tail under CHUNK_SIZE stays node records');
  written = await commit(db, block({ from: CHUNK_SIZE + 2, nodes: chain('n', CHUNK_SIZE + 2, n) }), 3, written);
  assert.equal(written.get('s').folded, CHUNK_SIZE + 3, 'CHUNK_SIZE node records fold into one chunk after the short one');
  const { snaps } = await snapshots(db);
  assert.deepEqual(snaps[0].nodes.map((x) => x.id), chain('n', 0, n).map((x) => JSON.parse(x).id));
  const tx = db.transaction(STORES, 'readonly');
  assert.equal(await maxGen(tx.objectStore('sessions')), 3);
  const chunks = await new Promise((resolve) => (tx.objectStore('chunks').getAll().onsuccess = (e) => resolve(e.target.result)));
  assert.deepEqual(chunks.map(chunkNodeCount), [3, CHUNK_SIZE]);
  db.close();
});

test('a session written whole is stored in chunks of any length, and read from any node', async () => {
  const db = await freshDB();
  const n = 2 * CHUNK_SIZE + 503;
  const ids = chain('n', 0, n).map((x) => JSON.parse(x).id);
  let written = await commit(db, block({ operation: 'import', nodes: chain('n', 0, CHUNK_SIZE + 500) }), 1);
  assert.equal(written.get('s').folded, CHUNK_SIZE + 500);
  written = await commit(db, block({ from: CHUNK_SIZE + 500, nodes: chain('n', CHUNK_SIZE + 500, n) }), 2, written);
  assert.equal(written.get('s').folded, 2 * CHUNK_SIZE + 500, 'whole chunks of an append after the chunks go straight into a chunk record');
  const tx = db.transaction(STORES, 'readonly');
  const meta = await new Promise((resolve) => (tx.objectStore('sessions').get('s').onsuccess = (e) => resolve(e.target.result)));
  const keys = await new Promise((resolve) => (tx.objectStore('chunks').getAllKeys().onsuccess = (e) => resolve(e.target.result)));
  assert.deepEqual(keys, [['s', 0], ['s', CHUNK_SIZE], ['s', CHUNK_SIZE + 500]]);
  for (const from of [0, 1, CHUNK_SIZE - 1, CHUNK_SIZE, CHUNK_SIZE + 499, CHUNK_SIZE + 500, 2 * CHUNK_SIZE + 499, 2 * CHUNK_SIZE + 500, n - 1, n]) {
    const nodes = await readNodes(tx, meta, from);
    assert.deepEqual(nodes.map((x) => JSON.parse(x).id), ids.slice(from), `from ${from}`);
  }
  db.close();
});

test('a drain in pieces stores the session in chunk records only', async () => {
  const db = await freshDB();
  const n = CHUNK_SIZE + 7;
  const meta = { sessionId: 's', nodeCount: n, annotationCount: 0, cursor: `n${n - 1}`, activeBranch: 'main' };
  const tx = db.transaction(STORES, 'readwrite');
  const done = new Promise((resolve) => (tx.oncomplete = resolve));
  let written = await writeChanges(tx, parseChangeBytes(utf8(block({ operation: 'import', nodes: chain('n', 0, CHUNK_SIZE), more: true, meta }))), 1, () => undefined);
  written = await writeChanges(tx, parseChangeBytes(utf8(block({ operation: 'import', from: CHUNK_SIZE, nodes: chain('n', CHUNK_SIZE, n), meta }))), 1, () => undefined, null, written);
  await done;
  assert.equal(written.get('s').folded, n);
  const { snaps } = await snapshots(db);
  assert.deepEqual(snaps[0].nodes.map((x) => x.id), chain('n', 0, n).map((x) => JSON.parse(x).id));
  const counts = db.transaction(['chunks', 'nodes'], 'readonly');
  const count = (name) => new Promise((resolve) => (counts.objectStore(name).count().onsuccess = (e) => resolve(e.target.result)));
  assert.deepEqual([await count('chunks'), await count('nodes')], [2, 0]);
  db.close();
});

test('a reset replaces a session\'s records; a block that does not continue the stored ones commits nothing', async () => {
  const db = await freshDB();
  const written = await commit(db, block({ nodes: chain('n', 0, 4) }), 1);
  await commit(db, block({ operation: 'snapshot.load', reset: true, nodes: chain('m', 0, 2) }), 2, written);
  let { snaps, metas } = await snapshots(db);
  assert.deepEqual(snaps[0].nodes.map((x) => x.id), ['m0', 'm1']);
  assert.equal(metas[0].epoch, 2, 'the gen of the reset');
  const stored = new Map([['s', diskState(metas[0])]]);
  await assert.rejects(commit(db, block({ from: 7, nodes: chain('m', 7, 8) }), 3, stored), /session "s" has 2 stored nodes but the change starts at 7/);
  ({ snaps, metas } = await snapshots(db));
  assert.deepEqual(snaps[0].nodes.map((x) => x.id), ['m0', 'm1'], 'the failed transaction changed nothing');
  assert.equal(metas[0].gen, 2);
  db.close();
});

test('restore points are kept by session and name, a name replacing its older record', async () => {
  const db = await freshDB();
  const record = (name, nodeCount) => ({ sessionId: 's', name, createdAt: 'c', nodeCount, snapshot: '{}' });
  await putSnapshot(db, record('a', 1));
  await putSnapshot(db, record('b', 2));
  await putSnapshot(db, record('a', 3));
  await putSnapshot(db, { ...record('a', 9), sessionId: 't' });
  assert.deepEqual((await listSnapshots(db, 's')).map((r) => [r.name, r.nodeCount]), [['a', 3], ['b', 2]]);
  assert.equal((await getSnapshot(db, 't', 'a')).nodeCount, 9);
  assert.equal(await getSnapshot(db, 's', 'zz'), undefined);
  db.close();
});

test('the Pager loads a paged-out session from its records and then calls onLoaded (the search index builds after loads)', async () => {
  const { Pager } = await import('../js/store/pager.js');
  const db = await freshDB();
  await commit(db, block({ operation: 'import', nodes: chain('n', 0, 3) }), 1);
  const { metas } = await snapshots(db);
  const taken = [];
  const handle = { callInternal: (request) => (taken.push(JSON.parse(text(request)).operation), '{"ok":true,"value":{}}') };
  const writer = { known: new Map(), owned: new Set(), closedReason: null, between: (fn) => Promise.resolve().then(fn) };
  let loaded = 0;
  const pager = new Pager(db, handle, writer, { metas, budget: 1 << 20, onLoaded: () => loaded++ });
  assert.equal(pager.isPaged('s'), true);
  await pager.load(['s']);
  assert.deepEqual(taken, ['restore']);
  assert.equal(pager.isPaged('s'), false);
  assert.equal(loaded, 1, 'once, after the load');
  await pager.load(['s']);
  assert.equal(loaded, 1, 'a session already loaded loads nothing and calls nothing');
  db.close();
});

test('a stub loaded after another tab changed it sends that change\'s event, which the pull then finds taken in', async () => {
  const { Pager } = await import('../js/store/pager.js');
  const db = await freshDB();
  // This tab last saw s with 2 nodes and t with 1; another tab appended to s, erased t and moved u's cursor only.
  const seen = await commit(db, block({ nodes: chain('n', 0, 2) }) + block({ sessionId: 't', nodes: chain('t', 0, 1) }) + block({ sessionId: 'u', nodes: chain('u', 0, 2) }), 1);
  await commit(db, block({ from: 2, nodes: chain('n', 2, 3) }), 2, seen);
  const uMeta = (await snapshots(db)).metas.find((m) => m.sessionId === 'u');
  const del = db.transaction(STORES, 'readwrite');
  del.objectStore('sessions').delete('t');
  del.objectStore('sessions').put({ ...uMeta, cursor: 'u0', gen: 3 }, 'u');
  await new Promise((resolve) => (del.oncomplete = resolve));
  const pulls = [];
  const writer = { known: new Map(seen), owned: new Set(), missed: [], closedReason: null, between: (fn) => Promise.resolve().then(fn), pull: () => pulls.push('pull') };
  const taken = [];
  const handle = { callInternal: (request) => (taken.push(JSON.parse(text(request)).operation), '{"ok":true,"value":{}}') };
  const pager = new Pager(db, handle, writer, { metas: [...seen.values()].map((k) => k.meta), budget: 1 << 20 });
  await pager.load(['s', 't', 'u']);
  assert.deepEqual(taken, ['restore', 'sync.forget', 'restore']);
  assert.deepEqual(writer.missed.map((e) => [e.sessionId, e.operation, e.nodeCount ?? null, e.remote, e.erased ?? false]), [
    ['s', 'append', 3, true, false],
    ['t', 'trash.empty', null, true, true],
  ], 'the append and the erasure are heard; a moved cursor alone is not, as in a pull');
  assert.equal(pulls.length, 2, 'a pull is queued to send them');
  assert.equal(writer.known.get('s').count, 3, 'the pull then finds s as loaded');
  assert.equal(writer.known.has('t'), false);
  db.close();
});
