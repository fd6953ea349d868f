// What a tab tells its subscribers of changes other tabs stored while it
// started (js/store/take-in.js missedEvents), in Node: the page's read of
// the "sessions" store, then the tree's own, later one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { missedEvents } from '../js/store/take-in.js';

const meta = (sessionId, gen, more = {}) => ({ sessionId, gen, nodeCount: 2, cursor: 'n2', activeBranch: 'main', createdAt: '2026-12-04T10:00:00.000Z', ...more });

test('missedEvents: each session stored after the page\'s read gets its meta\'s event, one gone gets an erasure, the rest nothing', () => {
  const page = [meta('r', 1, { op: 'append.many', title: 'New Chat' }), meta('d', 2, { op: 'append.many' }), meta('k', 2), meta('gone', 2)];
  const later = [
    meta('r', 5, { op: 'rename', title: 'Lyon, two days' }),
    meta('d', 4, { op: 'delete', deletedAt: '2026-12-04T10:01:00.000Z' }),
    meta('k', 2),
    meta('new', 3, { op: 'create', title: 'Made meanwhile' }),
  ];
  const events = missedEvents(page, later);
  assert.deepEqual(events.map((e) => [e.type, e.sessionId, e.remote]), [['rename', 'r', true], ['delete', 'd', true], ['create', 'new', true], ['trash.empty', 'gone', true]]);
  assert.equal(events[0].title, 'Lyon, two days');
  assert.equal(events[1].deletedAt, '2026-12-04T10:01:00.000Z');
  assert.equal(events[3].erased, true);
  assert.deepEqual(missedEvents(later, later), [], 'nothing stored between two reads that agree');
});
