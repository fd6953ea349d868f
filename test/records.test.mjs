// js/store/records.js in Node: the change blocks core drains, the records
// writeChanges plans for them (against a fake transaction that records
// every put and delete), and the internal requests built from records.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byCreation, CHUNK_SIZE, diskState, mergeRequest, parseChangeBytes, restoreRequest, writeChanges } from '../js/store/records.js';
import { CHUNK_SIZE as CONTRACT_CHUNK_SIZE } from '../js/protocol.js';

import { block, chain, node, text, utf8 } from './changes.mjs';

// nodeRange builds key ranges; Node has no IndexedDB.
globalThis.IDBKeyRange ??= { bound: (lower, upper) => ({ lower, upper }) };

test('the chunk size is the contract\'s', () => {
  assert.equal(CHUNK_SIZE, CONTRACT_CHUNK_SIZE);
  assert.equal(CHUNK_SIZE, 1000);
});

test('parseChangeBytes reads blocks, their nodes as bytes and their annotations', () => {
  const nodes = [node('a', 0), node('a', 1, 'a0'), node('a', 2, 'a1')];
  const bytes = utf8(block({ sessionId: 'é', nodes, annotations: ['{"nodeId":"a0","label":"x"}'] }) + block({ sessionId: 't', operation: 'label', from: 3 }));
  const blocks = parseChangeBytes(bytes);
  assert.equal(blocks.length, 2);
  const [a, b] = blocks;
  assert.equal(a.sessionId, 'é');
  assert.equal(a.count, 3);
  assert.deepEqual([0, 1, 2].map((i) => a.node(i)), nodes, 'each node without its trailing comma');
  assert.equal(text(a.chunk(0, 3)), nodes.join(',\n'), 'a chunk is the nodes joined by ",\\n", cut from the bytes');
  assert.equal(text(a.chunk(1, 2)), nodes[1]);
  assert.deepEqual(a.annotations, ['{"nodeId":"a0","label":"x"}']);
  assert.equal(b.operation, 'label');
  assert.equal(b.count, 0);
  assert.deepEqual(b.annotations, []);
  assert.deepEqual(parseChangeBytes(new Uint8Array(0)), []);
});

test('a block\'s node ids are read from the start of each line, escapes and all', () => {
  const lines = [
    '{"id":"plain","parentId":null,"kind":"message"}',
    '{"id":"q\\"uo\\\\te","parentId":"plain","kind":"message"}',
    '{"id":"\\u00e9t\u00e9 🌍","kind":"message"}',
    '{"kind":"message","id":"later"}',
  ];
  const [b] = parseChangeBytes(utf8(block({ nodes: lines })));
  assert.deepEqual([0, 1, 2, 3].map((i) => b.nodeId(i)), ['plain', 'q"uo\\te', 'été 🌍', 'later']);
  assert.deepEqual([0, 1, 2, 3].map((i) => b.nodeId(i)), lines.map((l) => JSON.parse(l).id), 'as JSON.parse reads them');
});

test('parseChangeBytes refuses bytes that are not core\'s blocks', async (t) => {
  const good = block({ nodes: [node('a', 0), node('a', 1)] });
  const cases = [
    { name: 'a block cut in its nodes', bytes: good.slice(0, good.lastIndexOf('\n', good.length - 2) + 1), want: /truncated change record/ },
    { name: 'a header without its newline', bytes: '{"sessionId":"s"', want: /truncated change record/ },
    { name: 'a node line that does not end in ","', bytes: good.replace(node('a', 0) + ',', node('a', 0)), want: /session "s": node line 0 does not end in ","/ },
    { name: 'a header that is not JSON', bytes: 'nope\n', want: SyntaxError },
  ];
  for (const c of cases) await t.test(c.name, () => assert.throws(() => parseChangeBytes(utf8(c.bytes)), c.want));
});

/**
 * A transaction double: object stores whose put, delete and getAll act on
 * Maps keyed by the JSON of the key, and a log of every put and delete.
 */
function fakeTx(initial = {}) {
  const data = {};
  const log = [];
  const key = (k) => JSON.stringify(k);
  const inRange = (k, r) => key(k) >= key(r.lower) && k[0] === r.lower[0] && k[1] >= r.lower[1] && k[1] <= r.upper[1];
  const request = (result) => {
    const req = { result };
    queueMicrotask(() => req.onsuccess?.());
    return req;
  };
  for (const [name, entries] of Object.entries(initial)) data[name] = new Map(entries.map(([k, v]) => [key(k), { k, v }]));
  const tx = {
    log,
    data,
    objectStore(name) {
      data[name] ??= new Map();
      const m = data[name];
      return {
        put(v, k) {
          log.push(['put', name, k]);
          m.set(key(k), { k, v });
        },
        delete(k) {
          log.push(['delete', name, 'lower' in k ? [k.lower[0], k.lower[1], k.upper[1]] : k]);
          for (const [kk, e] of m) if ('lower' in k ? inRange(e.k, k) : kk === key(k)) m.delete(kk);
        },
        getAll(r) {
          return request([...m.values()].filter((e) => inRange(e.k, r)).sort((x, y) => x.k[1] - y.k[1]).map((e) => e.v));
        },
      };
    },
  };
  return tx;
}


test('writeChanges plans the records of a new session: chunk records, the last one shorter, and one meta, deleting nothing', () => {
  const tx = fakeTx();
  const blocks = parseChangeBytes(utf8(block({ operation: 'import', nodes: chain('n', 0, CHUNK_SIZE + 2), annotations: ['{"a":1}'] })));
  const written = writeChanges(tx, blocks, 7, () => undefined);
  assert.ok(written instanceof Map, 'no fold: answered at once');
  const puts = tx.log.filter(([op]) => op === 'put').map(([, store, k]) => `${store}:${JSON.stringify(k)}`);
  assert.deepEqual(puts, ['annotations:["s",0]', 'chunks:["s",0]', `chunks:["s",${CHUNK_SIZE}]`, 'sessions:"s"']);
  assert.deepEqual(tx.log.filter(([op]) => op === 'delete'), [], 'a session not stored has no records to delete');
  const meta = tx.data.sessions.get('"s"').v;
  assert.equal(meta.gen, 7);
  assert.equal(meta.op, 'import');
  assert.equal(meta.folded, CHUNK_SIZE + 2);
  assert.equal(meta.epoch, 7, 'a new session\'s epoch is the gen that wrote it');
  assert.equal(meta.tail, undefined, 'no defer: no tail');
  assert.equal(meta.tailMark, undefined, 'no defer: out of the "tail" index');
  assert.deepEqual({ ...written.get('s'), meta: undefined }, { epoch: 7, count: CHUNK_SIZE + 2, folded: CHUNK_SIZE + 2, acount: 1, tail: false, meta: undefined, deferred: false });
  assert.equal(text(tx.data.chunks.get('["s",0]').v).split(',\n').length, CHUNK_SIZE);
  assert.equal(text(tx.data.chunks.get(`["s",${CHUNK_SIZE}]`).v).split(',\n').length, 2);
});

test('writeChanges appends node records from where the stored ones end, and a reset starts a new epoch: its gen', async (t) => {
  const stored = diskState({ sessionId: 's', nodeCount: 3, annotationCount: 0, folded: 0, epoch: 2 });
  await t.test('an append puts one node record and the meta', () => {
    const tx = fakeTx();
    const blocks = parseChangeBytes(utf8(block({ from: 3, nodes: [node('n', 3, 'n2')] })));
    const written = writeChanges(tx, blocks, 9, () => stored);
    assert.deepEqual(tx.log, [['put', 'nodes', ['s', 3]], ['put', 'sessions', 's']]);
    assert.equal(written.get('s').count, 4);
    assert.equal(written.get('s').epoch, 2);
  });
  await t.test('a reset replaces the records and its epoch becomes the gen', () => {
    const tx = fakeTx();
    const blocks = parseChangeBytes(utf8(block({ operation: 'snapshot.load', reset: true, nodes: chain('m', 0, 2) })));
    const written = writeChanges(tx, blocks, 9, () => stored);
    assert.equal(tx.log.filter(([op]) => op === 'delete').length, 3);
    assert.equal(written.get('s').epoch, 9);
    assert.equal(tx.data.sessions.get('"s"').v.epoch, 9);
  });
  await t.test('a block that does not continue what is stored throws and names the session', () => {
    const blocks = parseChangeBytes(utf8(block({ from: 5, nodes: [node('n', 5, 'n4')] })));
    assert.throws(() => writeChanges(fakeTx(), blocks, 9, () => stored), /session "s" has 3 stored nodes but the change starts at 5/);
  });
  await t.test('a meta that disagrees with the records written throws', () => {
    const blocks = parseChangeBytes(utf8(block({ from: 3, nodes: [node('n', 3, 'n2')], meta: { sessionId: 's', nodeCount: 9, annotationCount: 0 } })));
    assert.throws(() => writeChanges(fakeTx(), blocks, 9, () => stored), /has 9 nodes and 0 annotations in memory but 4 and 0 stored/);
  });
});

test('writeChanges folds a tail of CHUNK_SIZE node records into a chunk record', async () => {
  const k = CHUNK_SIZE - 1;
  const initial = { nodes: chain('n', 0, k).map((n, i) => [['s', i], n]) };
  const tx = fakeTx(initial);
  const stored = diskState({ sessionId: 's', nodeCount: k, annotationCount: 0, folded: 0 });
  const blocks = parseChangeBytes(utf8(block({ from: k, nodes: chain('n', k, k + 2) })));
  const written = await writeChanges(tx, blocks, 3, () => stored);
  assert.equal(written.get('s').folded, CHUNK_SIZE);
  assert.equal(tx.data.chunks.size, 1);
  assert.deepEqual([...tx.data.nodes.values()].map((e) => e.k), [['s', CHUNK_SIZE]], 'only the node after the chunk is left a node record');
  assert.equal(tx.data.sessions.get('"s"').v.folded, CHUNK_SIZE);
});

test('writeChanges writes a drain in pieces: a block with more writes no meta; the next goes on from it', () => {
  const tx = fakeTx();
  const n = CHUNK_SIZE + 1;
  const meta = { sessionId: 's', nodeCount: n, annotationCount: 0, cursor: null, activeBranch: 'main' };
  const first = parseChangeBytes(utf8(block({ operation: 'import', nodes: chain('n', 0, CHUNK_SIZE), more: true, meta })));
  const written = writeChanges(tx, first, 4, () => undefined);
  assert.equal(tx.data.sessions, undefined, 'no meta before the last block');
  const second = parseChangeBytes(utf8(block({ operation: 'import', from: CHUNK_SIZE, nodes: chain('n', CHUNK_SIZE, n), meta })));
  writeChanges(tx, second, 4, () => undefined, null, written);
  assert.equal(tx.data.sessions.get('"s"').v.nodeCount, n);
  assert.equal(tx.data.chunks.size, 2, 'the last piece is a chunk too');
  assert.equal(tx.data.nodes.size, 0);
  assert.equal(tx.data.sessions.get('"s"').v.folded, n);
});

test('writeChanges writes a drain in pieces onto stored node records: the next piece goes on from what the fold of the one before left', async () => {
  // One stored node record (no chunk), then an append.many drained in two
  // pieces, the first long enough to fold: the second must start from the
  // folded count, not fold the first piece's records again.
  const tx = fakeTx({ nodes: [[['s', 0], node('n', 0)]] });
  const stored = diskState({ sessionId: 's', nodeCount: 1, annotationCount: 0, folded: 0 });
  const n = 1 + CHUNK_SIZE + 5;
  const meta = { sessionId: 's', nodeCount: n, annotationCount: 0, cursor: `n${n - 1}`, activeBranch: 'main' };
  const first = parseChangeBytes(utf8(block({ operation: 'append.many', from: 1, nodes: chain('n', 1, 1 + CHUNK_SIZE), more: true, meta })));
  const written = await writeChanges(tx, first, 4, () => stored);
  const second = parseChangeBytes(utf8(block({ operation: 'append.many', from: 1 + CHUNK_SIZE, nodes: chain('n', 1 + CHUNK_SIZE, n), meta })));
  const after = await writeChanges(tx, second, 4, () => stored, null, written);
  assert.equal(after.get('s').count, n);
  assert.equal(after.get('s').folded, CHUNK_SIZE);
  assert.deepEqual([...tx.data.chunks.values()].map((e) => e.k), [['s', 0]]);
  assert.equal(tx.data.nodes.size, n - CHUNK_SIZE, 'the records after the chunk stay node records');
  assert.equal(tx.data.sessions.get('"s"').v.folded, CHUNK_SIZE);
});

test('writeChanges with defer leaves an append\'s meta unwritten only when it follows from the node', async (t) => {
  const last = node('n', 2, 'n1');
  const diskMeta = { sessionId: 's', title: 'T', createdAt: 'c', nodeCount: 3, annotationCount: 0, folded: 0, epoch: 0, gen: 4, op: 'append', tail: true, tailMark: 1, cursor: 'n2', activeBranch: 'main', updatedAt: 't2' };
  const next = JSON.parse(node('n', 3, 'n2'));
  const derived = { ...diskMeta, nodeCount: 4, cursor: next.id, updatedAt: next.timestamp };
  delete derived.tail;
  delete derived.tailMark;
  delete derived.folded;
  delete derived.gen;
  const cases = [
    { name: 'an append that moves only count, cursor, branch and time writes its node alone', meta: derived, deferred: true },
    { name: 'a changed title is written', meta: { ...derived, title: 'U' }, deferred: false },
    { name: 'a meta member the stored meta lacks (a later core\'s) is written', meta: { ...derived, deletedAt: 'd' }, deferred: false },
    { name: 'a cursor that is not the new node is written', meta: { ...derived, cursor: 'n1' }, deferred: false },
  ];
  for (const c of cases) {
    await t.test(c.name, () => {
      const stored = { ...diskState(diskMeta), last };
      const tx = fakeTx();
      const written = writeChanges(tx, parseChangeBytes(utf8(block({ from: 3, nodes: [JSON.stringify(next)], meta: { ...c.meta } }))), 5, () => stored, () => true);
      assert.equal(written.get('s').deferred, c.deferred);
      if (c.deferred) {
        assert.deepEqual(tx.log, [['put', 'nodes', ['s', 3]]], 'one record per append');
        assert.equal(written.get('s').pending.nodeCount, 4);
      } else {
        assert.deepEqual(tx.log, [['put', 'nodes', ['s', 3]], ['put', 'sessions', 's']]);
        assert.equal(tx.data.sessions.get('"s"').v.tail, true);
        assert.equal(tx.data.sessions.get('"s"').v.tailMark, 1, 'in the "tail" index (store/schema.js)');
      }
    });
  }
});

test('restoreRequest and mergeRequest build core\'s internal requests around stored bytes', () => {
  const meta = { sessionId: 's', title: 'T', createdAt: 'c', updatedAt: 'u' };
  const snapshot = utf8('{"version":1,"sessionId":"s","cursor":null,"activeBranch":"main","nodes":[]}');
  assert.deepEqual(JSON.parse(text(restoreRequest(meta, snapshot))), { operation: 'restore', title: 'T', createdAt: 'c', updatedAt: 'u', snapshot: JSON.parse(text(snapshot)) });
  const merge = JSON.parse(mergeRequest(meta, [node('n', 0)], ['{"a":1}'], { cursor: 'n0' }));
  assert.deepEqual(merge, { operation: 'sync.merge', sessionId: 's', title: 'T', updatedAt: 'u', cursor: 'n0', nodes: [JSON.parse(node('n', 0))], annotations: [{ a: 1 }] });
});

test('diskState reads a version-1 meta record with its missing fields as 0, and byCreation orders by createdAt then id', () => {
  assert.deepEqual({ ...diskState({ nodeCount: 4 }), meta: null }, { epoch: 0, count: 4, folded: 0, acount: 0, tail: false, meta: null });
  const metas = [{ createdAt: '2', sessionId: 'a' }, { createdAt: '1', sessionId: 'b' }, { createdAt: '1', sessionId: 'a' }];
  assert.deepEqual(metas.sort(byCreation).map((m) => m.createdAt + m.sessionId), ['1a', '1b', '2a']);
});
