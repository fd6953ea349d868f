// static/rows-controller.js — the panel's rows without a DOM: layout,
// folds, filters, compact runs, the highlighted row and keys, appends,
// hits, the head line and the context rows. Plain Node (no browser).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RowsController, itemKey, nextSliceSize, previewOf } from '../static/rows-controller.js';

/**
 * Rows shaped like `tree`'s, in preorder:
 *   a (system) → b (user) → c (assistant) → d (user) → e (assistant, cursor, tip of main)
 *                         ↘ f (assistant, branch side, label "look", tip of side)
 *   g (user, a second root, hidden)
 */
function rows() {
  const r = (id, parentId, role, depth, childCount, more = {}) => ({ id, parentId, branch: 'main', kind: 'message', role, preview: `text ${id}`, depth, childCount, onPath: false, cursor: false, hidden: false, preferred: false, ...more });
  return [
    r('a', null, 'system', 1, 1, { onPath: true }),
    r('b', 'a', 'user', 2, 2, { onPath: true }),
    r('c', 'b', 'assistant', 3, 1, { onPath: true }),
    r('d', 'c', 'user', 4, 1, { onPath: true }),
    r('e', 'd', 'assistant', 5, 0, { onPath: true, cursor: true, tipOf: 'main' }),
    r('f', 'b', 'assistant', 3, 0, { branch: 'side', label: 'look', tipOf: 'side' }),
    r('g', null, 'user', 1, 0, { hidden: true, hiddenRoot: true }),
  ];
}

/** A controller showing rows() of session "s", laid out. */
function loaded() {
  const c = new RowsController();
  const value = { sessionId: 's', cursor: 'e', activeBranch: 'main', rows: rows(), count: 7, offset: 0 };
  c.value = value;
  c.session = { sessionId: 's', title: 'A title', depth: 5, branchCount: 2 };
  c.setRows(value.rows);
  c.active = 'e';
  c.relayout();
  return c;
}

const keys = (c) => c.layout.items.map(itemKey);

test('a new controller has no rows, no layout and nothing selected', () => {
  const c = new RowsController();
  assert.deepEqual([c.value, c.partial, c.active, c.selectedNodeId, c.selectedRow, c.extent, c.base, c.activeIndex], [null, null, null, null, null, 0, 0, -1]);
  assert.equal(c.itemIndex.has('a'), false);
  assert.deepEqual(c.head(null), { title: 'No session', tooltip: null, stats: '' });
  assert.deepEqual(c.head('x'), { title: 'x', tooltip: null, stats: '' });
  assert.equal(c.keyAction('ArrowDown', 10), null, 'no items: the tree does not take the key');
});

test('relayout: the default filter leaves hidden nodes out, a placeholder in their place; lookups and head follow', () => {
  const c = loaded();
  assert.deepEqual(keys(c), ['a', 'b', 'c', 'd', 'e', 'f', 'gap:g']);
  assert.deepEqual(c.layout.items[6], { type: 'gap', hidden: true, id: 'g', count: 1, guide: '' });
  assert.deepEqual([c.layout.hiddenGaps, c.layout.roots, c.itemIndex.get('gap:g')], [1, 1, 6]);
  assert.equal(c.layout.shown, 6);
  assert.deepEqual([c.itemIndex.get('e'), c.itemIndex.get('g'), c.activeIndex], [4, undefined, 4]);
  assert.equal(c.rowById.get('f').branch, 'side');
  assert.equal(c.parentOf.get('f'), 'b');
  assert.deepEqual([...c.starts].sort(), ['a', 'f', 'g']);
  assert.deepEqual([...c.branchNames].sort(), ['main', 'side']);
  assert.deepEqual(c.head('s'), { title: 'A title', tooltip: 's', stats: '7 nodes · 6 shown · 2 branches · on main' });
  c.setFilter('all');
  assert.deepEqual(keys(c), ['a', 'b', 'c', 'd', 'e', 'f', 'g']);
  assert.deepEqual(c.layout.items.map((i) => i.root), [1, undefined, undefined, undefined, undefined, undefined, 2]);
  assert.equal(c.head('s').stats, '7 nodes · 2 branches · on main');
  c.setFilter('labeled');
  assert.deepEqual(keys(c), ['e', 'f'], 'the cursor always stays');
});

test('a highlighted node that goes out of view passes to its nearest shown ancestor', () => {
  const c = loaded();
  c.active = 'd';
  c.toggleFold('b');
  assert.deepEqual(keys(c), ['a', 'b', 'gap:g']);
  assert.equal(c.layout.items[1].folded, true);
  assert.equal(c.active, 'b');
  c.toggleFold('b');
  assert.deepEqual(keys(c), ['a', 'b', 'c', 'd', 'e', 'f', 'gap:g']);
  assert.equal(c.active, 'b');
});

test('a previewed node hidden out of view passes the preview to its nearest shown ancestor; one only folded away keeps it', () => {
  const c = loaded();
  c.active = 'f';
  c.setView('f');
  c.toggleFold('b');
  assert.deepEqual([c.active, c.viewNode], ['b', 'f'], 'a fold leaves the preview where it was');
  c.toggleFold('b');
  c.active = 'f';
  c.value.rows[5] = { ...c.value.rows[5], hidden: true, hiddenRoot: true };
  c.setRows(c.value.rows);
  c.relayout();
  assert.deepEqual(keys(c), ['a', 'b', 'c', 'd', 'e', 'gap:f', 'gap:g']);
  assert.deepEqual([c.active, c.viewNode], ['b', 'b']);
  c.setFilter('all');
  c.setView('f');
  c.setFilter('default');
  assert.equal(c.viewNode, 'b', 'a filter that leaves the hidden node out moves the preview too');
});

test('a hidden placeholder expands in place: its rows show (still flagged hidden), the filter stays', () => {
  const c = loaded();
  c.expandRun('g');
  assert.deepEqual(keys(c), ['a', 'b', 'c', 'd', 'e', 'f', 'g']);
  assert.equal(c.filter, 'default');
  assert.equal(c.layout.items[6].row.hidden, true);
});

test('no placeholder for a hidden subtree that holds the cursor: the cursor row shows', () => {
  const c = loaded();
  c.rowById.get('e').cursor = false;
  c.rowById.get('g').cursor = true;
  c.relayout();
  assert.deepEqual(keys(c), ['a', 'b', 'c', 'd', 'e', 'f', 'g']);
  assert.equal(c.layout.hiddenGaps, 0);
});

test('the ★: only the end of the preferred path is starred', () => {
  const c = loaded();
  for (const id of ['a', 'b', 'c']) c.rowById.get(id).preferred = true;
  c.relayout();
  assert.deepEqual(c.layout.items.filter((i) => i.starred).map((i) => i.row.id), ['c']);
});

test('reveal unfolds the ancestors and switches to "all" for a filtered-out node; false for an unknown one', () => {
  const c = loaded();
  c.toggleFold('b');
  assert.equal(c.reveal('e'), true);
  assert.equal(c.folded.has('b'), false);
  assert.equal(c.itemIndex.get('e'), 4);
  c.setFilter('default');
  assert.equal(c.reveal('g'), true);
  assert.equal(c.filter, 'all');
  assert.equal(c.itemIndex.get('g'), 6);
  assert.equal(c.reveal('nope'), false);
});

test('compact runs: the interior of a long linear run becomes a gap; expanding shows it', () => {
  const c = new RowsController();
  const chain = Array.from({ length: 8 }, (_, k) => ({ id: `n${k}`, parentId: k === 0 ? null : `n${k - 1}`, branch: 'main', kind: 'message', role: 'user', preview: `p${k}`, depth: k + 1, childCount: k === 7 ? 0 : 1, onPath: true, cursor: k === 7, hidden: false, preferred: false }));
  c.value = { sessionId: 's', cursor: 'n7', activeBranch: 'main', rows: chain };
  c.setRows(chain);
  c.setCompactRuns(true);
  assert.deepEqual(keys(c), ['n0', 'gap:n1', 'n7']);
  assert.equal(c.layout.items[1].count, 6);
  assert.equal(c.itemIndex.get('gap:n1'), 1);
  c.active = 'gap:n1';
  assert.equal(c.selectedNodeId, null, 'a gap is highlighted, no node is selected');
  assert.deepEqual(c.keyAction('Enter', 10), { type: 'expand', id: 'n1' });
  c.expandRun('n1');
  assert.deepEqual(keys(c), ['n0', 'n1', 'gap:n2', 'n7'], 'the run after the expanded node is still long: it starts one node later');
  assert.equal(c.active, null);
  c.expandRun('n2');
  assert.deepEqual(keys(c), ['n0', 'n1', 'n2', 'gap:n3', 'n7']);
  c.setCompactRuns(true);
  assert.deepEqual(keys(c), ['n0', 'gap:n1', 'n7'], 'turning compact runs on again folds every run again');
});

test('keyAction: arrows, pages, Home/End, folding and Enter as actions', () => {
  const c = loaded();
  c.active = null;
  const cases = [
    [null, 'ArrowDown', { type: 'select', key: 'a' }],
    [null, 'ArrowUp', { type: 'select', key: 'a' }],
    ['a', 'ArrowUp', { type: 'select', key: 'a' }],
    ['c', 'ArrowDown', { type: 'select', key: 'd' }],
    ['a', 'PageDown', { type: 'select', key: 'd' }],
    ['f', 'PageDown', { type: 'select', key: 'gap:g' }],
    ['f', 'PageUp', { type: 'select', key: 'c' }],
    ['c', 'Home', { type: 'select', key: 'a' }],
    ['c', 'End', { type: 'select', key: 'gap:g' }],
    ['gap:g', 'Enter', { type: 'expand', id: 'g' }],
    ['b', 'ArrowLeft', { type: 'fold', id: 'b' }],
    ['c', 'ArrowLeft', { type: 'select', key: 'b' }],
    ['a', 'ArrowLeft', { type: 'none' }],
    ['c', 'ArrowRight', { type: 'select', key: 'd' }],
    ['e', 'ArrowRight', { type: 'none' }],
    ['e', 'Enter', { type: 'activate', id: 'e' }],
    ['e', ' ', { type: 'activate', id: 'e' }],
    ['e', 'x', null],
  ];
  for (const [active, key, want] of cases) {
    c.active = active;
    assert.deepEqual(c.keyAction(key, 3), want, `${key} on ${active}`);
  }
  c.toggleFold('b');
  c.active = 'b';
  assert.deepEqual(c.keyAction('ArrowRight', 3), { type: 'fold', id: 'b' }, 'ArrowRight on a folded node unfolds it');
});

test('insertAppended: the node goes after its parent subtree, becomes the cursor and the tip, the path moves', () => {
  const c = loaded();
  const ok = c.insertAppended({ id: 'h', parentId: 'f', branch: 'side', kind: 'message', message: { role: 'user', content: 'x' } }, '  a   new\nmessage ');
  assert.equal(ok, true);
  const ids = c.value.rows.map((r) => r.id);
  assert.deepEqual(ids, ['a', 'b', 'c', 'd', 'e', 'f', 'h', 'g']);
  const h = c.rowById.get('h');
  assert.deepEqual([h.preview, h.depth, h.cursor, h.onPath, h.tipOf, h.role], ['a new message', 4, true, true, 'side', 'user']);
  assert.equal(c.rowById.get('f').tipOf, undefined, 'the old tip of side is no tip');
  assert.equal(c.rowById.get('f').childCount, 1);
  assert.deepEqual(c.value.rows.filter((r) => r.onPath).map((r) => r.id), ['a', 'b', 'f', 'h']);
  assert.deepEqual(c.value.rows.filter((r) => r.cursor).map((r) => r.id), ['h']);
  assert.deepEqual([c.value.cursor, c.value.activeBranch], ['h', 'side']);
  assert.equal(c.active, 'h', 'the highlight was on the cursor: it follows the cursor to the new node');
  assert.equal(c.itemIndex.get('h'), 6);
});

test('following: a highlight on the cursor, with no other path previewed, follows an append; one elsewhere or previewing stays', () => {
  const append = (c) => c.insertAppended({ id: 'h', parentId: 'e', branch: 'main', kind: 'message', message: { role: 'user', content: 'x' } }, 'x');
  const onCursor = loaded();
  assert.equal(onCursor.following, true);
  assert.equal(append(onCursor), true);
  assert.deepEqual([onCursor.value.cursor, onCursor.active, onCursor.following], ['h', 'h', true]);
  const elsewhere = loaded();
  elsewhere.active = 'c';
  assert.equal(elsewhere.following, false);
  append(elsewhere);
  assert.deepEqual([elsewhere.value.cursor, elsewhere.active], ['h', 'c']);
  const previewing = loaded();
  assert.equal(previewing.setView('f'), true);
  assert.equal(previewing.following, false, 'the highlight is on the cursor, but another path is previewed');
  append(previewing);
  assert.deepEqual([previewing.active, previewing.viewNode], ['e', 'f']);
  const nothing = new RowsController();
  assert.equal(nothing.following, true, 'nothing highlighted and no cursor: the first node will be');
});

test('insertAppended refuses a node it cannot place, changing nothing', () => {
  const c = loaded();
  const before = JSON.stringify(c.value.rows);
  assert.equal(c.insertAppended({ id: 'h', parentId: 'nope', branch: 'main', kind: 'message', message: { role: 'user' } }, 'x'), false);
  assert.equal(c.insertAppended({ id: 'h', parentId: 'e', branch: 'main', kind: 'model_change' }, ''), false);
  assert.equal(JSON.stringify(c.value.rows), before);
});

test('setHits: a snippet equal to the preview is highlighted in the row, others are plain hits; unknown nodes are left out', () => {
  const c = loaded();
  c.setHits({ hits: [{ nodeId: 'c', snippet: 'text c', ranges: [[5, 6]] }, { nodeId: 'd', snippet: '…text d and more', ranges: [[1, 5]] }, { nodeId: 'zz', snippet: 'x', ranges: [] }] });
  assert.deepEqual([...c.hits], [['c', [[5, 6]]], ['d', []]]);
  c.setHits(null);
  assert.equal(c.hits.size, 0);
});

test('branch names, summaries, selection and the context rows', () => {
  const c = loaded();
  assert.equal(c.freeBranchName(), 'branch-1');
  c.branchNames.add('branch-1');
  assert.equal(c.freeBranchName(), 'branch-2');
  assert.equal(c.defaultSummary('c'), 'Branched from: text c');
  assert.equal(c.defaultSummary('nope'), '');
  c.active = 'f';
  assert.equal(c.selectedRow.label, 'look');
  assert.deepEqual(c.contextRows(60), { total: 5, hidden: 0, rows: c.value.rows.slice(0, 5) });
  const last2 = c.contextRows(2);
  assert.deepEqual([last2.total, last2.hidden, last2.rows.map((r) => r.id)], [5, 3, ['d', 'e']]);
  c.resetView();
  assert.deepEqual([c.active, c.compareFrom, c.folded.size, c.hits.size], [null, null, 0, 0]);
});

test('a window of a large session: extent, base, head and whether the view lies outside it', () => {
  const c = loaded();
  c.partial = { count: 100, offset: 40, loaded: 25 };
  c.relayout();
  assert.deepEqual([c.extent, c.base], [100, 40]);
  assert.equal(c.head('s').stats, '100 nodes · 2 branches · on main · loading rows 25%');
  assert.equal(c.outsideWindow(40, 47), false);
  assert.equal(c.outsideWindow(39, 45), true);
  assert.equal(c.outsideWindow(41, 48), true);
  // The window holds only the end of the path: the session's depth counts it whole.
  c.session.depth = 90;
  const ctx = c.contextRows(60);
  assert.deepEqual([ctx.total, ctx.hidden, ctx.rows.length], [90, 30, 5]);
});

test('nextSliceSize aims at the task time within the limits; previewOf collapses and cuts like the core', () => {
  const limits = { taskMs: 50, min: 1000, max: 100000 };
  assert.equal(nextSliceSize(5000, 25, limits), 10000);
  assert.equal(nextSliceSize(5000, 500, limits), 1000);
  assert.equal(nextSliceSize(50000, 1, limits), 100000);
  assert.equal(nextSliceSize(3000, 0, limits), 100000, 'a slice that took no time counts as 1 ms');
  assert.equal(previewOf(' a \n b '), 'a b');
  assert.equal(previewOf('é'.repeat(81)), 'é'.repeat(80) + '…');
  assert.equal(previewOf('x'.repeat(80)), 'x'.repeat(80));
});

test('sibling arrows and newest paths pass over a hidden subtree the view leaves out', () => {
  const c = loaded();
  // Roots a and g (hidden): the default view counts a alone, "all" both, as does g's subtree opened.
  assert.deepEqual(c.siblings('a'), { index: 0, count: 1, ids: ['a'] });
  c.setFilter('all');
  assert.deepEqual(c.siblings('a'), { index: 0, count: 2, ids: ['a', 'g'] });
  c.setFilter('default');
  c.expandedRuns.add('g');
  assert.deepEqual(c.siblings('a').ids, ['a', 'g']);
  c.expandedRuns.clear();
  // A path inside a hidden subtree steps among its own versions, hidden or not.
  assert.deepEqual(c.siblings('g'), { index: 1, count: 2, ids: ['a', 'g'] });

  // f (b's last child) hidden: b's newest path goes down c instead, and c counts alone.
  const hidden = rows().map((r) => (r.id === 'f' ? { ...r, hidden: true, hiddenRoot: true } : r));
  c.value = { ...c.value, rows: hidden };
  c.setRows(hidden);
  c.relayout();
  assert.equal(c.newestLeaf('b'), 'e');
  assert.deepEqual(c.siblings('c'), { index: 0, count: 1, ids: ['c'] });
  c.setFilter('all');
  assert.equal(c.newestLeaf('b'), 'f');
  assert.deepEqual(c.siblings('c').ids, ['c', 'f']);

  // c's subtree hidden, the cursor (e) in it, so the view shows it: counted and stepped through,
  // as is an opened hidden subtree, down to its leaf.
  const cursorInside = rows().map((r) => (['c', 'd', 'e'].includes(r.id) ? { ...r, hidden: true, hiddenRoot: r.id === 'c' } : r));
  c.value = { ...c.value, rows: cursorInside };
  c.setRows(cursorInside);
  c.setFilter('default');
  assert.deepEqual(c.siblings('f').ids, ['c', 'f']);
  const opened = rows().map((r) => (['c', 'd', 'e'].includes(r.id) ? { ...r, hidden: true, hiddenRoot: r.id === 'c', preferred: r.id === 'c', onPath: false } : r));
  c.value = { ...c.value, rows: opened };
  c.setRows(opened);
  c.relayout();
  assert.deepEqual(c.siblings('f').ids, ['f'], 'closed, not on the cursor\'s path: left out');
  c.expandedRuns.add('c');
  assert.deepEqual(c.siblings('f').ids, ['c', 'f']);
  assert.equal(c.newestLeaf('b'), 'e', 'an opened hidden subtree (c, preferred) is walked to its leaf');
  // Opened under "default" only: another filter leaves it out, as its rows do; "labeled" shows a labeled hidden node.
  c.setFilter('no-tools');
  assert.deepEqual(c.siblings('f').ids, ['f']);
  c.setFilter('labeled');
  assert.deepEqual(c.siblings('f').ids, ['f'], 'c has no label');
  c.expandedRuns.clear();
  const labeled = opened.map((r) => (r.id === 'c' ? { ...r, label: 'kept' } : r));
  c.value = { ...c.value, rows: labeled };
  c.setRows(labeled);
  assert.deepEqual(c.siblings('f').ids, ['c', 'f'], 'a labeled hidden node shows under "labeled"');
  // The cursor's own row shows under every filter: hidden, it still counts.
  const cursorHidden = opened.map((r) => (r.id === 'c' ? { ...r, cursor: true } : r.id === 'e' ? { ...r, cursor: false } : r));
  c.value = { ...c.value, rows: cursorHidden };
  c.setRows(cursorHidden);
  for (const f of ['no-tools', 'user', 'labeled']) {
    c.setFilter(f);
    assert.deepEqual(c.siblings('f').ids, ['c', 'f'], f);
  }
});
