// js/store/plan.js in Node: what a flush writes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { flushRecords } from '../js/store/plan.js';

test('a flush writes each tailed session\'s meta without tail, but one just written with its meta', async (t) => {
  const meta = (id, nodeCount) => ({ sessionId: id, nodeCount, tail: true, tailMark: 1, gen: 1 });
  const tailed = new Map([['a', meta('a', 3)], ['b', meta('b', 5)], ['c', meta('c', 7)]]);
  const cases = [
    { name: 'nothing written now: every tailed meta, stamped and without tail', written: new Map(), want: [['a', 3], ['b', 5], ['c', 7]] },
    { name: 'a session written now with its meta is left for next time', written: new Map([['b', { deferred: false }]]), want: [['a', 3], ['c', 7]] },
    { name: 'a session written now with its meta deferred is flushed with the meta it would have had', written: new Map([['c', { deferred: true, pending: meta('c', 8) }]]), want: [['a', 3], ['b', 5], ['c', 8]] },
  ];
  for (const c of cases) {
    await t.test(c.name, () => {
      const got = flushRecords(tailed, c.written, 9);
      assert.deepEqual(got.map(([id, r]) => [id, r.nodeCount]), c.want);
      for (const [id, r] of got) {
        assert.equal(r.gen, 9, id);
        assert.equal(r.tail, false, id);
        assert.equal('tailMark' in r, false, `${id}: out of the "tail" index`);
      }
    });
  }
  assert.equal(tailed.get('a').tail, true, 'the tailed metas are copied, not changed');
  assert.deepEqual(flushRecords(new Map(), new Map(), 2), []);
});
