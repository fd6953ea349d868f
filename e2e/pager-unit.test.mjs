// The pure parts of paging (js/store/pager.js, js/local-paging.js), in
// Node without a browser: the page.stub request built from meta records,
// and the sessionId a request's text names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stubRequest, PAGED_OUT_HEAD } from '../js/store/pager.js';
import { requestSession } from '../js/local-paging.js';

const meta = { sessionId: 's"1', title: 't', createdAt: 'c', updatedAt: 'u', nodeCount: 3, cursor: null, activeBranch: 'main', folded: 0, gen: 4 };

test('stubRequest gives each session its summary, and its cursor only when it is followed', () => {
  const cases = [
    { name: 'every cursor followed', follow: undefined, want: [{ sessionId: 's"1', title: 't', createdAt: 'c', updatedAt: 'u', nodeCount: 3, cursor: '', activeBranch: 'main' }] },
    { name: 'this tab keeps its own cursor', follow: () => false, want: [{ sessionId: 's"1', title: 't', createdAt: 'c', updatedAt: 'u', nodeCount: 3 }] },
  ];
  for (const c of cases) {
    const request = JSON.parse(new TextDecoder().decode(stubRequest([meta], c.follow)));
    assert.deepEqual(request, { operation: 'page.stub', sessions: c.want }, c.name);
  }
  assert.deepEqual(JSON.parse(new TextDecoder().decode(stubRequest([{ ...meta, title: undefined }]))).sessions[0].title, '', 'a meta without title stubs an empty one');
});

test('requestSession reads the sessionId member of a short request text as core does, and nothing of a long one', () => {
  const cases = [
    [JSON.stringify({ operation: 'context', sessionId: 'a"b\\c' }), 'a"b\\c'],
    [JSON.stringify({ operation: 'sessions' }), null],
    ['{"operation":"search","query":{"sessionId":"nested"}}', null],
    ['{"sessionId":"first","operation":"tree","sessionId":"last"}', 'last'],
    ['{"sessionId":', null],
    [JSON.stringify({ sessionId: 'x', operation: 'append', message: { role: 'user', content: 'y'.repeat(5000) } }), null],
  ];
  for (const [text, want] of cases) assert.equal(requestSession(text), want, text.slice(0, 60));
  assert.ok('{"ok":false,"error":{"code":"PAGED_OUT","message":"x"}}'.startsWith(PAGED_OUT_HEAD));
});

test('the Pager weighs a session by the bytes drained for it, and pages out the least recently used past its budget', async () => {
  const { Pager } = await import('../js/store/pager.js');
  const paged = [];
  // A Writer and a handle of the least the Pager asks of them: between() runs a job at once.
  const writer = { known: new Map(), owned: new Set(), closedReason: null, between: (fn) => Promise.resolve().then(fn) };
  const handle = { callInternal: (text) => (JSON.parse(text).operation === 'page.out' ? (paged.push(JSON.parse(text).sessionId), '{"ok":true,"value":{}}') : '{"ok":true,"value":{}}') };
  const pager = new Pager(null, handle, writer, { metas: [], budget: 1000 });
  assert.equal(typeof writer.onSizes, 'function', 'the Pager listens to what the Writer drains');
  // An import drained 600 bytes for a and 300 for b: their events touch them after.
  writer.onSizes(new Map([['a', 600], ['b', 300]]));
  pager.changed('a');
  pager.changed('b');
  assert.deepEqual([...pager.lru], [['a', 600], ['b', 300]]);
  assert.equal(pager.bytes, 900);
  // An append of 250 bytes to b: it grows, and the budget is passed: a, the least recently used, is paged out.
  writer.onSizes(new Map([['b', 250]]));
  pager.changed('b');
  await pager.evicting;
  assert.deepEqual(paged, ['a']);
  assert.deepEqual([...pager.lru], [['b', 550]]);
  assert.equal(pager.bytes, 550);
  assert.equal(pager.isPaged('a'), true);
  // Without drained bytes a session is weighed by its stored nodes (NODE_BYTES each).
  writer.known.set('c', { count: 2 });
  pager.changed('c');
  assert.equal(pager.lru.get('c'), 800);
});
