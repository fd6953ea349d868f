// One record per append (js/store/writer.js, "One record per append"):
// under the held write lock an append whose meta follows from its node
// writes only the node record after a meta stored with tail: true. These
// tests check the three ends of that protocol: the Writer really leaves
// the metas out and writes them once the calls pause; a meta with tail:
// true followed by node records (a tab killed before its flush) restores
// with every node, the cursor on the last; and a tab taking the lock takes
// in such node records although the gen did not move.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './helpers.mjs';

const SHIM = 'e2e/fixtures/shim.html';
const DB = 'tail';

async function open(env, page) {
  page ??= await env.newPage();
  await page.goto(env.baseURL + SHIM);
  await page.waitForFunction(() => window.sessiontree !== undefined);
  return page;
}

function initTree(page, options = { dbName: DB }) {
  return page.evaluate(async (options) => {
    window.tree = await window.sessiontree.init(options);
  }, options);
}

async function value(page, request) {
  const env = await page.evaluate((request) => window.tree.call(request), request);
  assert.equal(env.ok, true, `${JSON.stringify(request).slice(0, 200)} failed: ${JSON.stringify(env.error)}`);
  return env.value;
}

/** The stored meta record of a session and its node record count (read in the page, outside the store). */
function stored(page, sessionId) {
  return page.evaluate(async ({ db, sessionId }) => {
    const req = (r) => new Promise((resolve, reject) => ((r.onsuccess = () => resolve(r.result)), (r.onerror = () => reject(r.error))));
    const idb = await req(indexedDB.open(db));
    const tx = idb.transaction(['sessions', 'nodes'], 'readonly');
    const meta = await req(tx.objectStore('sessions').get(sessionId));
    const nodes = await req(tx.objectStore('nodes').count(IDBKeyRange.bound([sessionId, 0], [sessionId, Infinity])));
    idb.close();
    return { meta, nodes };
  }, { db: DB, sessionId });
}

/**
 * Write what a tab killed before its flush leaves: the session's meta with
 * tail: true (gen + 1 when bump, as a writer stamps it) and `count` node
 * records after its last, chained under it. Resolves to the new nodes' ids.
 */
function writeTail(page, sessionId, { count, bump }) {
  return page.evaluate(async ({ db, sessionId, count, bump }) => {
    const req = (r) => new Promise((resolve, reject) => ((r.onsuccess = () => resolve(r.result)), (r.onerror = () => reject(r.error))));
    const idb = await req(indexedDB.open(db));
    const tx = idb.transaction(['sessions', 'nodes'], 'readwrite', { durability: 'strict' });
    const done = new Promise((resolve, reject) => ((tx.oncomplete = resolve), (tx.onabort = () => reject(tx.error))));
    const meta = await req(tx.objectStore('sessions').get(sessionId));
    const tail = await req(tx.objectStore('nodes').getAll(IDBKeyRange.bound([sessionId, 0], [sessionId, Infinity])));
    let parent = JSON.parse(tail.at(-1)).id;
    let seq = meta.folded + tail.length;
    const ids = [];
    for (let i = 0; i < count; i++) {
      const id = `k${seq}`;
      tx.objectStore('nodes').put(JSON.stringify({ id, parentId: parent, branch: 'main', kind: 'message', timestamp: `2026-12-01T10:00:0${i}.000Z`, message: { role: 'user', content: `killed tab's append ${i}` } }), [sessionId, seq]);
      ids.push(id);
      parent = id;
      seq++;
    }
    if (bump) {
      const gens = await req(tx.objectStore('sessions').getAll());
      tx.objectStore('sessions').put({ ...meta, tail: true, gen: Math.max(...gens.map((m) => m.gen)) + 1 }, sessionId);
    }
    await done;
    idb.close();
    return ids;
  }, { db: DB, sessionId, count, bump });
}

test('appends awaited in turn under the lock leave their meta unwritten, and the meta is written without tail once the calls pause', async () => {
  const env = await setup();
  try {
    const page = await open(env, env.page);
    await initTree(page, { dbName: DB, worker: false }); // the Writer's counters are read here
    await value(page, { operation: 'create', sessionId: 's' });
    const last = await page.evaluate(async () => {
      let env;
      for (let i = 0; i < 40; i++) {
        env = await window.tree.call({ operation: 'append', sessionId: 's', message: { role: 'user', content: `in turn ${i}` } });
        if (!env.ok) throw new Error(JSON.stringify(env.error));
      }
      return env.value.id;
    });
    assert.ok(await page.evaluate(() => window.tree._writer.metaDeferred) > 0, 'some appends wrote their node record alone');
    // Once the calls pause, the flush writes the meta as it is in memory.
    await page.waitForFunction(() => window.tree._writer.tailed.size === 0);
    const { meta, nodes } = await stored(page, 's');
    assert.equal(nodes, 40);
    assert.equal(meta.nodeCount, 40);
    assert.equal(meta.cursor, last);
    assert.equal(meta.tail, false);
    await page.reload();
    await page.waitForFunction(() => window.sessiontree !== undefined);
    await initTree(page);
    assert.equal((await value(page, { operation: 'session', sessionId: 's' })).cursor, last);
  } finally {
    await env.close();
  }
});

test('a meta with tail: true followed by node records (a tab killed before its flush) restores every node, the cursor on the last', async () => {
  const env = await setup();
  try {
    const page = await open(env, env.page);
    await initTree(page);
    await value(page, { operation: 'create', sessionId: 'k', title: 'killed' });
    for (let i = 0; i < 3; i++) await value(page, { operation: 'append', sessionId: 'k', message: { role: 'user', content: `kept ${i}` } });
    await page.evaluate(() => window.tree.flush());
    await page.evaluate(() => window.tree.close());
    await page.reload();
    await page.waitForFunction(() => window.sessiontree !== undefined);
    const ids = await writeTail(page, 'k', { count: 2, bump: true });
    await initTree(page);
    const snap = await value(page, { operation: 'snapshot.save', sessionId: 'k' });
    assert.deepEqual(snap.nodes.map((n) => n.message.content), ['kept 0', 'kept 1', 'kept 2', "killed tab's append 0", "killed tab's append 1"]);
    assert.equal(snap.cursor, ids[1]);
    const session = await value(page, { operation: 'session', sessionId: 'k' });
    assert.equal(session.title, 'killed');
    assert.equal(session.updatedAt, '2026-12-01T10:00:01.000Z');
    const next = await value(page, { operation: 'append', sessionId: 'k', message: { role: 'user', content: 'after' } });
    assert.equal(next.parentId, ids[1]);
    await page.reload();
    await page.waitForFunction(() => window.sessiontree !== undefined);
    await initTree(page);
    assert.equal((await value(page, { operation: 'snapshot.save', sessionId: 'k' })).nodes.length, 6);
  } finally {
    await env.close();
  }
});

test('a tab taking the lock takes in node records stored after a tail: true meta, though the gen did not move', async () => {
  const env = await setup();
  try {
    const a = await open(env, env.page);
    const b = await open(env);
    await initTree(a);
    await initTree(b);
    await value(a, { operation: 'create', sessionId: 'w' });
    await value(a, { operation: 'append', sessionId: 'w', message: { role: 'user', content: 'from a' } });
    // A's own flush (after the calls pause) is written before the test
    // writes as another tab would: only a tab holding the lock writes.
    for (;;) {
      const { meta } = await stored(a, 'w');
      if (meta.tail === false && meta.nodeCount === 1) break;
    }
    // The meta says tail: true (gen + 1, so B takes it in), then a node
    // record follows it with no new gen: what a tab leaves that let go of
    // the lock between an append and its flush.
    await writeTail(a, 'w', { count: 0, bump: true });
    await b.evaluate(() => window.tree.refresh());
    const [id] = await writeTail(a, 'w', { count: 1, bump: false });
    const fromB = await value(b, { operation: 'append', sessionId: 'w', message: { role: 'user', content: 'from b' } });
    assert.equal(fromB.parentId, id, "B appended under the node it took in, the stored cursor");
    assert.deepEqual((await value(b, { operation: 'snapshot.save', sessionId: 'w' })).nodes.map((n) => n.message.content), ['from a', "killed tab's append 0", 'from b']);
  } finally {
    await env.close();
  }
});
