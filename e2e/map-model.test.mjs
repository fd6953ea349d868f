// static/map-model.js on the value core's `map` answers for a small
// session (core/mapview_test.go's mapSession): pure data, run in Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildMapModel, nodePoint, nodeId, hitTest, neighbour, locate, fitView, segmentsIn, MARGIN, UNIT_X, UNIT_Y, SEGMENT_HEIGHT } from '../static/map-model.js';

// Segments: 0 [u1 a1] main, 1 [u2] main, 2 [a2] main (cursor), 3 [u3 a3] alt, 4 [a4] side (hidden).
const value = {
  sessionId: 's', nodeCount: 7, count: 5, width: 1.5, height: 2, branches: ['main', 'alt', 'side'],
  parent: [-1, 0, 1, 1, 0], x: [1, 0.5, 0, 1, 1.5], y: [0, 1, 2, 2, 1], length: [2, 1, 1, 2, 1],
  first: ['n0001', 'n0003', 'n0004', 'n0005', 'n0007'], last: ['n0002', 'n0003', 'n0004', 'n0006', 'n0007'],
  branch: [0, 0, 0, 1, 2], flags: [3, 3, 1, 2, 4], hidden: [[4, 1]],
  cursor: { segment: 2, offset: 0, nodeId: 'n0004' }, preferred: { segment: 3, offset: 1, nodeId: 'n0006' },
  labels: [[3, 0, 'idea']], tips: [[2, 0, 0], [3, 1, 1], [4, 0, 2]],
};

test('buildMapModel: children, labels, tips and hidden counts by segment', () => {
  const m = buildMapModel(value);
  assert.deepEqual([...m.firstChild], [1, 2, -1, -1, -1]);
  assert.deepEqual([...m.nextSibling], [-1, 4, 3, -1, -1]);
  assert.deepEqual([...m.prevSibling], [-1, -1, -1, 2, 1]);
  assert.deepEqual(m.labelsOf.get(3), [{ off: 0, text: 'idea' }]);
  assert.deepEqual(m.tipsOf.get(3), [{ off: 1, text: 'alt' }]);
  assert.equal(m.hiddenCount.get(4), 1);
  assert.equal(m.worldWidth, 1.5 * UNIT_X + 2 * MARGIN);
  assert.equal(m.worldHeight, 2 * UNIT_Y + SEGMENT_HEIGHT + 2 * MARGIN);
});

test('nodePoint: exact positions — a run spreads its nodes along one segment', () => {
  const m = buildMapModel(value);
  assert.deepEqual(nodePoint(m, 0, 0), { x: MARGIN + UNIT_X, y: MARGIN });
  assert.deepEqual(nodePoint(m, 0, 1), { x: MARGIN + UNIT_X, y: MARGIN + SEGMENT_HEIGHT });
  assert.deepEqual(nodePoint(m, 2, 0), { x: MARGIN, y: MARGIN + 2 * UNIT_Y });
  assert.deepEqual(nodePoint(m, 3, 1), { x: MARGIN + UNIT_X, y: MARGIN + 2 * UNIT_Y + SEGMENT_HEIGHT });
  assert.deepEqual(nodePoint(m, 4, 0), { x: MARGIN + 1.5 * UNIT_X, y: MARGIN + UNIT_Y });
});

test('hitTest: the node under a point, the nearest of a run, nothing in empty space', () => {
  const m = buildMapModel(value);
  assert.deepEqual(hitTest(m, MARGIN + UNIT_X + 3, MARGIN + SEGMENT_HEIGHT - 2, 1), { seg: 0, off: 1 });
  assert.deepEqual(hitTest(m, MARGIN, MARGIN + 2 * UNIT_Y, 1), { seg: 2, off: 0 });
  assert.equal(hitTest(m, MARGIN + 0.5 * UNIT_X, MARGIN, 1), null);
});

test('neighbour: parent, first child, previous and next sibling at node level', () => {
  const m = buildMapModel(value);
  assert.deepEqual(neighbour(m, { seg: 3, off: 1 }, 'parent'), { seg: 3, off: 0 });
  assert.deepEqual(neighbour(m, { seg: 3, off: 0 }, 'parent'), { seg: 1, off: 0 });
  assert.deepEqual(neighbour(m, { seg: 1, off: 0 }, 'parent'), { seg: 0, off: 1 });
  assert.equal(neighbour(m, { seg: 0, off: 0 }, 'parent'), null);
  assert.deepEqual(neighbour(m, { seg: 0, off: 0 }, 'child'), { seg: 0, off: 1 });
  assert.deepEqual(neighbour(m, { seg: 0, off: 1 }, 'child'), { seg: 1, off: 0 });
  assert.equal(neighbour(m, { seg: 4, off: 0 }, 'child'), null, 'a collapsed hidden branch has no children to walk into');
  assert.deepEqual(neighbour(m, { seg: 2, off: 0 }, 'next'), { seg: 3, off: 0 });
  assert.deepEqual(neighbour(m, { seg: 3, off: 0 }, 'prev'), { seg: 2, off: 0 });
  assert.equal(neighbour(m, { seg: 3, off: 1 }, 'prev'), null);
  assert.deepEqual(neighbour(m, { seg: 1, off: 0 }, 'next'), { seg: 4, off: 0 });
});

test('nodeId and locate: ends are known, a run\'s inner nodes through idAt', () => {
  const m = buildMapModel({ ...value, length: [5, 1, 1, 2, 1] }, { idAt: (seg, off, first) => `${first}+${off}` });
  assert.equal(nodeId(m, 0, 0), 'n0001');
  assert.equal(nodeId(m, 0, 4), 'n0002');
  assert.equal(nodeId(m, 0, 2), 'n0001+2');
  assert.equal(nodeId(buildMapModel(value), 3, 1), 'n0006');
  assert.deepEqual(locate(m, 'n0006'), { seg: 3, off: 1 });
  assert.deepEqual(locate(m, 'n0004'), { seg: 2, off: 0 });
  assert.equal(locate(m, 'nope'), null);
});

test('fitView and segmentsIn: the whole map fits; culling keeps what meets the window', () => {
  const m = buildMapModel(value);
  const v = fitView(m, 800, 600);
  assert.equal(v.zoom, 1.5);
  assert.deepEqual(segmentsIn(m, 0, 0, 10_000, 10_000), [0, 1, 2, 3, 4]);
  assert.deepEqual(segmentsIn(m, 0, MARGIN + 2 * UNIT_Y + 1, 10_000, 10_000), [2, 3]);
});
