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
