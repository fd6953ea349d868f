// The pure parts of paging (js/store/pager.js, js/local-paging.js), in
// Node without a browser: the page.stub request built from meta records,
// and the sessionId a request's text names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { packStubs, stubRequest, PAGED_OUT_HEAD } from '../js/store/pager.js';
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

/** Read packStubs' bytes back into page.stub's JSON summaries (core/internal/store/paging_packed.go's layout), as a check of the writer. */
function unpack(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const u32 = () => ((at += 4), view.getUint32(at - 4, true));
  const str = () => {
    const n = u32();
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(at, (at += n)));
  };
  const list = [];
  for (let count = u32(); count > 0; count--) {
    const nodes = u32();
    const flags = bytes[at++];
    const e = { sessionId: str() };
    if (flags & 1) e.title = str();
    e.createdAt = str();
    e.updatedAt = str();
    if (flags & 2) e.cursor = str();
    if (flags & 4) e.activeBranch = str();
    e.tool = str();
    e.project = str();
    if (flags & 8) e.source = { sessionId: str(), ...(flags & 16 ? { nodeId: str() } : {}), via: str() };
    e.nodeCount = nodes === 0xffffffff ? -1 : nodes;
    list.push(e);
  }
  assert.equal(at, bytes.length, 'nothing follows the last summary');
  return list;
}

test('packStubs writes the summaries stubRequest writes as JSON, every cursor followed', () => {
  const metas = [
    meta,
    { sessionId: 'é🙂', title: 'Fork of "x"', createdAt: '2026-01-02T03:04:05.000Z', updatedAt: '2026-01-03T00:00:00.000Z', nodeCount: 12, cursor: 'n0012', activeBranch: 'side', tool: 'codex', project: '/home/me/p', source: { sessionId: 'a', nodeId: 'n0002', via: 'fork' } },
    { sessionId: 'c', nodeCount: null, source: { sessionId: 'a', nodeId: null, via: 'clone' } },
    { sessionId: 'd', title: 'bad count', nodeCount: 1.5 },
  ];
  const json = JSON.parse(new TextDecoder().decode(stubRequest(metas))).sessions;
  const packed = unpack(packStubs(metas));
  assert.equal(packed.length, json.length);
  for (let i = 0; i < json.length; i++) {
    const want = { tool: '', project: '', createdAt: '', updatedAt: '', ...json[i], nodeCount: Number.isInteger(json[i].nodeCount ?? 0) ? json[i].nodeCount ?? 0 : -1 };
    if (want.source && want.source.nodeId === null) delete want.source.nodeId;
    assert.deepEqual(packed[i], want, `summary ${i}`);
  }
  assert.deepEqual(unpack(packStubs([])), []);
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
