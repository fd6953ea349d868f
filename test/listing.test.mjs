// The session list read from the meta records (js/store/listing.js): a
// record damaged outside sessiontree fails its own session, never the list.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deriveTail, liveMetas, sessionsFromMetas } from '../js/store/listing.js';

const meta = (id, fields = {}) => ({ sessionId: id, title: id, createdAt: `2026-01-0${id.length}T00:00:00Z`, updatedAt: '2026-01-01T00:00:00Z', nodeCount: 2, gen: 1, ...fields });

test('liveMetas leaves out records that name no session and takes a damaged count or gen as 0', () => {
  const all = [meta('a', { gen: 4 }), null, 'text', 7, { title: 'no id' }, meta(''), { ...meta('x'), sessionId: 5 }, meta('bb', { nodeCount: '3', gen: 'nine' }), meta('ccc', { nodeCount: -1 }), meta('dddd', { nodeCount: 2 ** 60 }), meta('eeeee', { erased: true, gen: 6 })];
  const { gen, metas } = liveMetas(all);
  assert.equal(gen, 6);
  assert.deepEqual(metas.map((m) => [m.sessionId, m.nodeCount]), [['a', 2], ['bb', 0], ['ccc', 0], ['dddd', 0]]);
  assert.deepEqual(sessionsFromMetas(metas).map((s) => s.nodeCount), [2, 0, 0, 0]);
});

test('deriveTail brings a lagging meta up to its last node record, and leaves it as it was when that record is damaged', () => {
  const lagging = meta('a', { tail: true });
  deriveTail(lagging, JSON.stringify({ id: 'n3', branch: 'side', timestamp: '2026-02-01T00:00:00Z' }), 3);
  assert.deepEqual([lagging.nodeCount, lagging.cursor, lagging.activeBranch, lagging.updatedAt, lagging.op], [3, 'n3', 'side', '2026-02-01T00:00:00Z', 'append']);
  for (const bad of ['not json{', 'null', '7']) {
    const m = meta('b', { tail: true });
    const before = structuredClone(m);
    deriveTail(m, bad, 3);
    assert.deepEqual(m, before, bad);
  }
});

test('sessionsFromMetas gives a member that is no string as core lists it (packStubs sends it as ""), so a page newest first sorts it where core does', () => {
  const damaged = [meta('a', { updatedAt: 5, title: 7, cursor: 3, tool: 4, project: 6 }), meta('b', { updatedAt: null, title: null, cursor: '' }), meta('c', { updatedAt: undefined, tool: 'claude-code', project: 'p' })];
  assert.deepEqual(sessionsFromMetas(damaged), [
    { sessionId: 'a', title: '', nodeCount: 2, cursor: null, activeBranch: 'main', updatedAt: '' },
    { sessionId: 'b', title: '', nodeCount: 2, cursor: null, activeBranch: 'main', updatedAt: '' },
    { sessionId: 'c', title: 'c', nodeCount: 2, cursor: null, activeBranch: 'main', updatedAt: '', tool: 'claude-code', project: 'p' },
  ]);
});
