// tree.storedContext (js/store/stored-context.js): the last nodes of a
// stored session's path read from its records in the page's thread, the
// store not asked (a paged-out session of 100,000 nodes takes it a second
// or more to load); and <session-tree-panel> showing them while a session
// opens (issue 24: "opening a session shows its first rows before the
// whole session is read").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './helpers.mjs';

const SHIM = 'e2e/fixtures/shim.html';

async function open(env) {
  const page = await env.newPage();
  await page.goto(env.baseURL + SHIM);
  await page.waitForFunction(() => window.sessiontree !== undefined);
  return page;
}

/**
 * In the page: a snapshot text of `n` nodes on one path (every seventh
 * node also has a sibling on branch "side", so the newest records hold
 * nodes off the path), its cursor the last of the path.
 */
function branchySnapshot(sessionId, n) {
  const nodes = [];
  let parent = null;
  const t = (i) => new Date(Date.UTC(2026, 0, 1, 0, 0, 0, i)).toISOString();
  for (let i = 0; i < n; i++) {
    const id = `p${i}`;
    nodes.push({ id, parentId: parent, branch: 'main', kind: 'message', timestamp: t(2 * i), message: { role: i % 2 ? 'assistant' : 'user', content: `message ${i} of the path, **bold** ${'x'.repeat(i % 50)}` } });
    if (i % 7 === 3) nodes.push({ id: `s${i}`, parentId: parent, branch: 'side', kind: 'message', timestamp: t(2 * i + 1), message: { role: 'user', content: `a sibling of ${id}` } });
    parent = id;
  }
  return JSON.stringify({ version: 1, sessionId, cursor: parent, activeBranch: 'main', nodes });
}

test('storedContext reads the last nodes of the path to the cursor from the stored records, through chunk and node records, without the store', async () => {
  const env = await setup();
  try {
    const page = await open(env);
    const made = await page.evaluate(async (src) => {
      const branchy = new Function(`return (${src})`)();
      const tree = await window.sessiontree.init({ dbName: 'stored-context' });
      // 2,600 path nodes and their siblings: chunk records (a load), then 40 appends (node records).
      const load = await tree.loadSnapshot('long', branchy('long', 2600));
      if (!load.ok) throw new Error(JSON.stringify(load.error));
      for (let i = 0; i < 40; i++) await tree.append('long', { role: i % 2 ? 'assistant' : 'user', content: `appended ${i}` });
      await tree.create('short', { title: 'Short one' });
      for (const content of ['one', 'two', 'three']) await tree.append('short', { role: 'user', content });
      const snap = (await tree.snapshotSave('long')).value;
      await tree.create('empty');
      await tree.flush();
      await tree.close();
      return { nodes: snap.nodes.length, snap };
    }, branchySnapshot.toString());
    assert.equal(made.nodes, 2600 + Math.ceil((2600 - 3) / 7) + 40);
    const byId = new Map(made.snap.nodes.map((n) => [n.id, n]));
    const path = [];
    for (let id = made.snap.cursor; id !== null; id = byId.get(id).parentId) path.unshift(byId.get(id));
    assert.equal(path.length, 2640);

    // A new page: the store is started (its sessions paged out), then asked nothing about them.
    const fresh = await open(env);
    const got = await fresh.evaluate(async () => {
      const tree = await window.sessiontree.init({ dbName: 'stored-context' });
      const ask = (id, options) => tree.storedContext(id, options);
      const out = {
        long: await ask('long'),
        long150: await ask('long', { limit: 150 }),
        short: await ask('short', { limit: 10 }),
        empty: await ask('empty'),
        none: await ask('none'),
        badLimit: await ask('long', { limit: 0 }),
        badId: await ask(''),
        debug: await tree._debug(),
      };
      await tree.delete('short');
      out.trashed = await ask('short');
      await tree.close();
      const memory = await window.sessiontree.init({ persist: false });
      await memory.create('m');
      out.memory = await memory.storedContext('m');
      await memory.close();
      return out;
    });
    const meta = (v) => ({ ...v, nodes: undefined });
    assert.deepEqual(got.long, { ok: true, value: { ...meta(got.long.value), nodes: path.slice(-20) } });
    assert.deepEqual(meta(got.long.value), { sessionId: 'long', title: '', nodeCount: made.nodes, cursor: made.snap.cursor, activeBranch: 'main', updatedAt: got.long.value.updatedAt, nodes: undefined, complete: false });
    assert.equal(got.long.value.updatedAt, path.at(-1).timestamp);
    // 150 nodes: the 40 appended (node records) and 110 from the last chunk records, siblings passed over.
    assert.deepEqual(got.long150.value.nodes, path.slice(-150));
    assert.deepEqual(got.short.value.nodes.map((n) => n.message.content), ['one', 'two', 'three']);
    assert.deepEqual({ title: got.short.value.title, complete: got.short.value.complete, nodeCount: got.short.value.nodeCount }, { title: 'Short one', complete: true, nodeCount: 3 });
    assert.deepEqual({ nodes: got.empty.value.nodes, cursor: got.empty.value.cursor, complete: got.empty.value.complete }, { nodes: [], cursor: null, complete: true });
    assert.deepEqual([got.none, got.trashed, got.memory], [{ ok: true, value: null }, { ok: true, value: null }, { ok: true, value: null }]);
    assert.equal(got.badLimit.ok, false);
    assert.equal(got.badLimit.error.code, 'INVALID_ARGUMENT');
    assert.match(got.badLimit.error.message, /options\.limit/);
    assert.equal(got.badId.error.code, 'INVALID_ARGUMENT');
    // The store read no node of them (all three stay paged out): storedContext read the records in the page.
    assert.deepEqual({ chunks: got.debug.readCounts.chunks, nodes: got.debug.readCounts.nodes, paged: got.debug.pager.paged }, { chunks: 0, nodes: 0, paged: 3 });
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('storedContext follows a path back to an early node over thousands of newer ones (ids plain or not), cut past TAIL_SCAN_NODES, and gives null for a damaged cursor or path node', async () => {
  const env = await setup();
  try {
    const page = await open(env);
    const got = await page.evaluate(async () => {
      const { TAIL_SCAN_NODES } = await import('/js/store/stored-context.js');
      const tree = await window.sessiontree.init({ dbName: 'stored-context-far' });
      /** A chain of n nodes (ids prefix + i), the cursor moved back to its second node and a, b, c appended there. */
      const edited = async (sessionId, prefix, n) => {
        const nodes = [];
        for (let i = 0; i < n; i++) nodes.push({ id: prefix + i, parentId: i ? prefix + (i - 1) : null, branch: 'main', kind: 'message', timestamp: '2026-01-01T00:00:00.000Z', message: { role: 'user', content: `m${i}` } });
        const load = await tree.loadSnapshot(sessionId, JSON.stringify({ version: 1, sessionId, cursor: prefix + (n - 1), activeBranch: 'main', nodes }));
        if (!load.ok) throw new Error(JSON.stringify(load.error));
        await tree.jump(sessionId, prefix + 1);
        for (const content of ['a', 'b', 'c']) await tree.append(sessionId, { role: 'user', content });
      };
      await edited('plain', 'p', 3500);
      await edited('accented', 'ñ<', 3500); // an id told by decoding each node's start
      await edited('far', 'f', TAIL_SCAN_NODES + 1000);
      await tree.create('damaged');
      for (const content of ['one', 'two', 'three']) await tree.append('damaged', { role: 'user', content });
      await tree.create('cursor');
      await tree.append('cursor', { role: 'user', content: 'x' });
      await tree.flush();
      const texts = (v) => v && { contents: v.nodes.map((n) => n.message.content), complete: v.complete };
      const out = {
        plain: texts((await tree.storedContext('plain')).value),
        accented: texts((await tree.storedContext('accented')).value),
        far: texts((await tree.storedContext('far')).value),
        damagedBefore: texts((await tree.storedContext('damaged')).value),
      };
      await tree.close();
      // Records damaged outside sessiontree: a path node's parentId a number, a cursor a number.
      const db = await new Promise((resolve, reject) => {
        const req = indexedDB.open('stored-context-far');
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      const tx = db.transaction(['sessions', 'nodes'], 'readwrite');
      const nodes = tx.objectStore('nodes');
      const key = ['damaged', 1];
      const second = await new Promise((resolve) => (nodes.get(key).onsuccess = (e) => resolve(e.target.result)));
      nodes.put(JSON.stringify({ ...JSON.parse(second), parentId: 7 }), key);
      const sessions = tx.objectStore('sessions');
      const meta = await new Promise((resolve) => (sessions.get('cursor').onsuccess = (e) => resolve(e.target.result)));
      sessions.put({ ...meta, cursor: 42 }, 'cursor');
      await new Promise((resolve) => (tx.oncomplete = resolve));
      db.close();
      const again = await window.sessiontree.init({ dbName: 'stored-context-far' });
      out.damaged = await again.storedContext('damaged');
      out.cursor = await again.storedContext('cursor');
      out.nan = await again.storedContext('plain', { limit: NaN });
      await again.close();
      return out;
    });
    assert.deepEqual(got.plain, { contents: ['m0', 'm1', 'a', 'b', 'c'], complete: true });
    assert.deepEqual(got.accented, { contents: ['m0', 'm1', 'a', 'b', 'c'], complete: true });
    assert.deepEqual(got.far, { contents: ['a', 'b', 'c'], complete: false }, 'past TAIL_SCAN_NODES the path is cut');
    assert.deepEqual(got.damagedBefore, { contents: ['one', 'two', 'three'], complete: true });
    assert.deepEqual([got.damaged, got.cursor], [{ ok: true, value: null }, { ok: true, value: null }]);
    assert.equal(got.nan.error.code, 'INVALID_ARGUMENT');
    assert.match(got.nan.error.message, /got NaN$/);
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});
