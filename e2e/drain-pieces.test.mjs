// The Writer drains core's changes in pieces of 2 MiB (DrainChangesUpTo)
// and writes each in the same transaction: a session larger than a piece
// is cut at multiples of 1,000 nodes, its blocks before the last say
// `more`, and a block that goes on from one writes whole chunk records.
// A persisted load of such a session, with annotations, reads back the
// same after a reload, as chunk records of 1,000 nodes and the rest as one
// shorter chunk (schema 5), and appends after it fold as before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openShimPage } from './helpers.mjs';

const NODES = 12_345; // ≈ 5 MB of node lines: three pieces

/** Counts of a session's records in the database: [chunks, nodes, annotations]. */
async function records(page, dbName, sessionId) {
  return page.evaluate(({ dbName, sessionId }) => new Promise((resolve, reject) => {
    const open = indexedDB.open(dbName);
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const tx = db.transaction(['chunks', 'nodes', 'annotations'], 'readonly');
      const range = IDBKeyRange.bound([sessionId, 0], [sessionId, Infinity]);
      const counts = ['chunks', 'nodes', 'annotations'].map((name) => tx.objectStore(name).count(range));
      tx.oncomplete = () => {
        db.close();
        resolve(counts.map((r) => r.result));
      };
      tx.onerror = () => reject(tx.error);
    };
  }), { dbName, sessionId });
}

test(`a persisted load of ${NODES} nodes, drained in pieces, reads back the same after a reload, and appends after it fold into chunks`, async () => {
  const env = await setup();
  try {
    const dbName = 'drain-pieces';
    let page = await openShimPage(env);
    const saved = await page.evaluate(async ({ dbName, n }) => {
      const tree = await window.sessiontree.init({ dbName });
      const words = 'the quick brown fox jumps over the lazy dog while the ferry leaves at noon'.split(' ');
      const nodes = [];
      for (let i = 0; i < n; i++) {
        const content = Array.from({ length: 60 }, (_, k) => words[(i * 7 + k) % words.length]).join(' ') + ` ${i} ✓`;
        nodes.push({ id: `n${i}`, parentId: i === 0 ? null : `n${i - 1}`, branch: 'main', kind: 'message', timestamp: '2026-12-01T12:00:00.000Z', message: { role: i % 2 ? 'assistant' : 'user', content } });
      }
      const load = await tree.call({ operation: 'snapshot.load', sessionId: 'big', snapshot: { version: 1, sessionId: 'big', cursor: `n${n - 1}`, activeBranch: 'main', nodes } });
      if (!load.ok) throw new Error(JSON.stringify(load.error));
      for (const nodeId of ['n1', `n${n - 2}`]) {
        const label = await tree.call({ operation: 'label', sessionId: 'big', nodeId, label: `at ${nodeId}` });
        if (!label.ok) throw new Error(JSON.stringify(label.error));
      }
      return tree.callText({ operation: 'snapshot.save', sessionId: 'big' });
    }, { dbName, n: NODES });
    assert.ok(saved.length > 2 * (2 << 20), `the snapshot is ${saved.length} bytes: more than two pieces of 2 MiB`);
    assert.deepEqual(await records(page, dbName, 'big'), [13, 0, 2], 'twelve chunk records of 1,000 nodes, one of the last 345, both annotations');

    await page.close();
    page = await openShimPage(env);
    const again = await page.evaluate(async ({ dbName }) => {
      const tree = await window.sessiontree.init({ dbName });
      const text = await tree.callText({ operation: 'snapshot.save', sessionId: 'big' });
      for (let i = 0; i < 1002; i++) {
        const env = await tree.call({ operation: 'append', sessionId: 'big', message: { role: 'user', content: `more ${i}` } });
        if (!env.ok) throw new Error(JSON.stringify(env.error));
      }
      await tree.flush();
      return text;
    }, { dbName });
    assert.equal(again, saved, 'after a reload the session reads back byte for byte');
    assert.deepEqual(await records(page, dbName, 'big'), [14, 2, 2], '1,002 appends after it: one more chunk folded, two node records');

    await page.close();
    page = await openShimPage(env);
    const count = await page.evaluate(async ({ dbName }) => {
      const tree = await window.sessiontree.init({ dbName });
      return (await tree.call({ operation: 'session', sessionId: 'big' })).value.nodeCount;
    }, { dbName });
    assert.equal(count, NODES + 1002);
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});
