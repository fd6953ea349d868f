// static/tree-model.js on the columns of tree.rows, whole and windowed: pure
// data, run in Node (no browser).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rowsFromColumns, indexSlice, indexRows, branchStarts, describeEntry, describeNodeEntry, nodeText, formatTime } from '../static/tree-model.js';

// Six rows in display order: a → b → c, b → d (side), a → e → f (other);
// the cursor on f, d labelled, c the tip of main.
const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
const parent = [-1, 0, 1, 1, 0, 4];
const branchOf = ['main', 'main', 'main', 'side', 'other', 'other'];
const flags = [1, 0, 0, 0, 1, 3];

/** The value of tree.rows for rows [from, to); whole when from is undefined. */
function columns(from, to) {
  const window = from !== undefined;
  from ??= 0;
  to ??= ids.length;
  const k = [...Array(to - from).keys()].map((i) => i + from);
  const branches = [...new Set(k.map((i) => branchOf[i]))];
  return {
    sessionId: 's', cursor: 'f', activeBranch: 'other', count: ids.length, ...(window ? { offset: from } : {}),
    branches, kinds: ['message'], roles: ['user'],
    id: k.map((i) => ids[i]), parent: k.map((i) => parent[i]), branch: k.map((i) => branches.indexOf(branchOf[i])),
    kind: k.map(() => 0), role: k.map(() => 0), preview: k.map((i) => `text ${ids[i]}`), depth: k.map((i) => (parent[i] < 0 ? 1 : i === 1 || i === 4 ? 2 : 3)),
    childCount: k.map((i) => parent.filter((p) => p === i).length), flags: k.map((i) => flags[i]),
    tipOf: k.includes(2) ? [[2, branches.indexOf('main')]] : [], label: k.includes(3) ? [[3, 'look']] : [],
  };
}

test('rowsFromColumns: a window gives its rows, parents outside it null, tips and labels at their rows', () => {
  const whole = rowsFromColumns(columns());
  assert.deepEqual(whole.rows.map((r) => [r.id, r.parentId, r.branch]), ids.map((id, i) => [id, parent[i] < 0 ? null : ids[parent[i]], branchOf[i]]));
  assert.deepEqual([whole.count, whole.offset], [6, 0]);
  const w = rowsFromColumns(columns(2, 4));
  assert.deepEqual([w.count, w.offset], [6, 2]);
  assert.deepEqual(w.rows.map((r) => [r.id, r.parentId, r.tipOf, r.label]), [['c', null, 'main', undefined], ['d', null, undefined, 'look']]);
  const tail = rowsFromColumns(columns(4, 6));
  assert.deepEqual(tail.rows.map((r) => [r.id, r.parentId, r.cursor, r.onPath]), [['e', null, false, true], ['f', 'e', true, true]]);
});

test('rowsFromColumns into an array: slices in order give the whole rows; indexSlice the lookups of the whole', () => {
  const whole = rowsFromColumns(columns()).rows;
  const rows = new Array(6);
  const index = { indexOf: new Map(), starts: new Set(), names: new Set() };
  for (const [from, to] of [[0, 2], [2, 5], [5, 6]]) {
    const c = columns(from, to);
    const v = rowsFromColumns(c, rows);
    assert.equal(v.rows, rows);
    indexSlice(c, rows, index);
  }
  assert.deepEqual(rows, whole);
  assert.deepEqual(index.indexOf, indexRows(whole));
  assert.deepEqual(index.starts, branchStarts(whole));
  assert.deepEqual([...index.starts], ['a', 'd', 'e']);
  assert.deepEqual([...index.names], ['main', 'side', 'other']);
});

test('describeEntry, nodeText and formatTime: the texts the context pane and Copy show', () => {
  const entries = [
    [{ kind: 'model_change', provider: 'p', model: 'm' }, 'Model → p/m'],
    [{ kind: 'thinking_level_change', level: 'high' }, 'Thinking level → high'],
    [{ kind: 'active_tools_change', tools: [] }, 'Tools → none'],
    [{ kind: 'active_tools_change', tools: ['a', 'b'] }, 'Tools → a, b'],
    [{ kind: 'compaction', summary: 's' }, 'Compaction: s'],
    [{ kind: 'custom', customType: 't' }, 'Custom (t)'],
    [{ kind: 'custom_message', content: 'hi', customType: 't' }, 'hi'],
    [{ kind: 'session_info', name: 'n' }, 'Session name → n'],
    [{ kind: 'other', x: 1 }, '{"kind":"other","x":1}'],
  ];
  for (const [entry, want] of entries) assert.equal(describeEntry(entry), want, entry.kind);
  // A stored node's entry has no kind of its own: the node's is given (it read as the entry's JSON).
  assert.equal(describeEntry({ customType: 'claude-code/system/compact_boundary', data: 'Conversation compacted' }, 'custom'), 'Custom (claude-code/system/compact_boundary): Conversation compacted');
  assert.equal(describeEntry({ summary: 'they talked', firstKeptNodeId: 'cb' }, 'compaction'), 'Compaction: they talked');
  assert.equal(describeNodeEntry({ kind: 'custom', entry: { customType: 'x', data: 'y' } }), 'Custom (x): y');
  assert.equal(describeNodeEntry({ kind: 'custom', entry: { kind: 'model_change', provider: 'p', model: 'm' } }), 'Model → p/m');
  assert.equal(nodeText({ kind: 'compaction', entry: { summary: 'they talked', firstKeptNodeId: 'cb' } }), 'Compaction: they talked');
  assert.equal(nodeText({ message: { role: 'user', content: 'hello' } }), 'hello');
  assert.equal(nodeText({ message: { role: 'assistant', content: '', tool_calls: [{ function: { name: 'f' } }, { name: 'g' }] } }), '[tool calls: f, g]');
  assert.equal(nodeText({ summary: 'sum' }), 'sum');
  assert.equal(nodeText({ entry: { kind: 'session_info', name: 'n' } }), 'Session name → n');
  assert.equal(nodeText({}), '');
  const t = new Date(2025, 7, 24, 14, 5);
  assert.equal(formatTime(t.toISOString(), new Date(2025, 7, 24, 23, 0)), '14:05');
  assert.equal(formatTime(t.toISOString(), new Date(2025, 7, 25, 9, 0)), '2025-08-24 14:05');
  assert.equal(formatTime('not a time'), '');
});
