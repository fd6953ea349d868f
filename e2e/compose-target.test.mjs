// static/compose-target.js: where the composer's next message goes and
// what it sends, and the RowsController's pendingBranch it reads. Pure
// data, run in Node (no browser).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendRequest, composeTarget, targetText, shortId, COMPOSER_ROLES } from '../static/compose-target.js';
import { RowsController } from '../static/rows-controller.js';

// a → b (tip of main) and a → c (tip of side); d the tip of other under b.
const rows = new Map([
  ['a', { id: 'a', branch: 'main' }],
  ['b', { id: 'b', branch: 'main', tipOf: 'main' }],
  ['c', { id: 'c', branch: 'side', tipOf: 'side' }],
]);
const model = (over) => ({ value: { cursor: 'b', activeBranch: 'main' }, viewNode: null, pendingBranch: null, rowById: rows, ...over });

test('composeTarget and targetText say where the next message goes', () => {
  const cases = [
    ['no session', { value: null }, null, 'Pick a session to write in it.'],
    ['an empty session starts it', { value: { cursor: null, activeBranch: 'main' } }, { at: null, branch: 'main', how: 'root', preview: false }, 'Starts the session, on branch main.'],
    ['the cursor at its branch tip replies there', {}, { at: 'b', branch: 'main', how: 'tip', preview: false }, 'Replying at b, on branch main.'],
    ['a cursor inside its branch opens a new one', { value: { cursor: 'a', activeBranch: 'main' } }, { at: 'a', branch: 'main', how: 'new', preview: false }, 'Replying at a, on a new branch from main (not its newest node).'],
    ['a branch with no node yet gets its first', { value: { cursor: 'a', activeBranch: 'idea' }, pendingBranch: 'idea' }, { at: 'a', branch: 'idea', how: 'empty', preview: false }, 'Replying at a, on the new branch idea (no message yet: this one is its first).'],
    ['a previewed tip is continued on its branch', { viewNode: 'c' }, { at: 'c', branch: 'side', how: 'tip', preview: true, leaves: null }, "Previewing: Send continues from c (the session's cursor moves there), on branch side."],
    ['a previewed inner node opens a new branch', { viewNode: 'a' }, { at: 'a', branch: 'main', how: 'new', preview: true, leaves: null }, "Previewing: Send continues from a (the session's cursor moves there), on a new branch from main (not its newest node)."],
    ['leaving an empty branch is said', { viewNode: 'c', value: { cursor: 'a', activeBranch: 'idea' }, pendingBranch: 'idea' }, { at: 'c', branch: 'side', how: 'tip', preview: true, leaves: 'idea' }, "Previewing: Send continues from c (the session's cursor moves there), on branch side. The empty branch idea is left (it has no message)."],
  ];
  for (const [name, over, want, text] of cases) {
    const got = composeTarget(model(over));
    assert.deepEqual(got, want, `${name}: composeTarget = ${JSON.stringify(got)}`);
    assert.equal(targetText(got), text, `${name}: targetText`);
  }
});

test('appendRequest sends the text exactly: a message for user and assistant, a custom note entry', () => {
  assert.deepEqual(COMPOSER_ROLES.map((r) => r.value), ['user', 'assistant', 'note']);
  assert.deepEqual(appendRequest('s', 'user', '  hi\n'), { operation: 'append', sessionId: 's', message: { role: 'user', content: '  hi\n' } });
  assert.deepEqual(appendRequest('s', 'assistant', '**yes**'), { operation: 'append', sessionId: 's', message: { role: 'assistant', content: '**yes**' } });
  assert.deepEqual(appendRequest('s', 'note', 'remember'), { operation: 'append', sessionId: 's', entry: { kind: 'custom', customType: 'note', data: { text: 'remember' } } });
});

test('RowsController.pendingBranch: the active branch while it has no node, else null', () => {
  const c = new RowsController();
  assert.equal(c.pendingBranch, null, 'no session');
  const row = (id, parentId, branch, more = {}) => ({ id, parentId, branch, kind: 'message', role: 'user', preview: id, depth: 1, childCount: 0, onPath: true, cursor: false, hidden: false, preferred: false, ...more });
  const rows = [row('a', null, 'main'), row('b', 'a', 'main', { cursor: true, tipOf: 'main' })];
  c.value = { sessionId: 's', cursor: 'b', activeBranch: 'main', rows, count: 2, offset: 0 };
  c.setRows(rows);
  assert.equal(c.pendingBranch, null, 'the active branch has nodes');
  c.value = { ...c.value, activeBranch: 'idea' };
  assert.equal(c.pendingBranch, 'idea', 'a branch just named by branch');
  c.partial = { count: 10, offset: 0, loaded: 0 };
  assert.equal(c.pendingBranch, null, 'not said while a large session loads');
  c.partial = null;
  c.value = { ...c.value, cursor: null, rows: [] };
  c.setRows([]);
  assert.equal(c.pendingBranch, null, 'an empty session');
});

test('targetText names a long node id (an imported UUID) by its first 8 characters, once', () => {
  const uuid = 'aaa292cc-1842-4dbf-bd79-13cf7150366a';
  assert.equal(shortId(uuid), 'aaa292cc…');
  assert.equal(shortId('n0001'), 'n0001');
  assert.equal(shortId('123456789012'), '123456789012');
  assert.equal(targetText({ at: uuid, branch: 'main-2', how: 'new', preview: true, leaves: null }), "Previewing: Send continues from aaa292cc… (the session's cursor moves there), on a new branch from main-2 (not its newest node).");
  assert.equal(targetText({ at: uuid, branch: 'main', how: 'tip', preview: false }), 'Replying at aaa292cc…, on branch main.');
});
