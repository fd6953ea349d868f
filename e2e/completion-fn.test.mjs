// The chat adapter with the app's own completion function (issue 27,
// js/completion-fn.js), in Node: each form a function may answer in (text,
// a message, an async iterable of text, deltas or SDK chunks), its
// failures, an abort, and reply/regenerate/edit on a small tree of the
// adapter's calls (session, node, jump, context, append).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { streamChatCompletion, reply, regenerate, edit } from '../js/openai.js';

const msgs = [{ role: 'user', content: 'hi' }];

async function* pieces(...list) {
  for (const p of list) yield p;
}

test('a completion function answers as text, a message, or pieces streamed to onDelta', async () => {
  const cases = [
    ['text', async () => 'Hello.', { text: 'Hello.', model: null }],
    ['a message', async () => ({ content: 'Hi', reasoning_content: 'think', model: 'local' }), { text: 'Hi', reasoning: 'think', model: 'local' }],
    ['text pieces', () => pieces('Hel', 'lo'), { text: 'Hello', deltas: ['Hel', 'Hello'] }],
    ['delta objects', () => pieces({ reasoning: 'r' }, { content: 'A' }), { text: 'A', reasoning: 'r', deltas: ['', 'A'] }],
    ['SDK chunks', () => pieces({ model: 'gpt', choices: [{ index: 0, delta: { content: 'x' } }] }, { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }), { text: 'x', model: 'gpt', finishReason: 'stop', deltas: ['x'] }],
  ];
  for (const [name, fn, want] of cases) {
    const deltas = [];
    const got = await streamChatCompletion(fn, msgs, { onDelta: (d) => deltas.push(d.text) });
    assert.equal(got.ok, true, name);
    for (const [k, v] of Object.entries(want)) assert.deepEqual(k === 'deltas' ? deltas : got.value[k], v, `${name}: ${k}`);
    assert.equal(got.value.attempts, 1);
  }
  let seen;
  await streamChatCompletion((m, o) => ((seen = [m, o]), 'x'), msgs, {});
  assert.deepEqual(seen[0], msgs, 'the function gets the messages');
  assert.deepEqual(Object.keys(seen[1]), ['signal']);
});

test('a completion function that fails, answers nonsense or is aborted appends nothing and says why', async () => {
  const thrown = await streamChatCompletion(async () => { throw new TypeError('offline'); }, msgs);
  assert.deepEqual(thrown, { ok: false, error: { code: 'COMPLETION_ERROR', message: 'the completion function failed (TypeError: offline); nothing was appended', partial: '', attempts: 1 } });
  async function* broken() {
    yield 'par';
    throw new Error('socket closed');
  }
  const cut = await streamChatCompletion(() => broken(), msgs);
  assert.equal(cut.error.code, 'COMPLETION_ERROR');
  assert.equal(cut.error.partial, 'par');
  assert.equal((await streamChatCompletion(async () => 42, msgs)).error.code, 'BAD_RESPONSE');
  assert.equal((await streamChatCompletion(() => pieces('a', 7), msgs)).error.code, 'BAD_RESPONSE');
  const stop = new AbortController();
  async function* slow() {
    yield 'a';
    stop.abort();
    yield 'b';
  }
  const aborted = await streamChatCompletion(() => slow(), msgs, { signal: stop.signal });
  assert.equal(aborted.error.code, 'ABORTED');
  const onDelta = await streamChatCompletion(() => pieces('a'), msgs, { onDelta: () => { throw new Error('page bug'); } });
  assert.equal(onDelta.error.code, 'INVALID_ARGUMENT');
});

/** A tree of the calls the adapter makes, in memory: one session "s", ids n1, n2, … */
function smallTree() {
  const nodes = new Map();
  let cursor = null;
  let seq = 0;
  const path = (id) => {
    const out = [];
    for (let n = nodes.get(id); n; n = nodes.get(n.parentId)) out.unshift(n);
    return out;
  };
  const ok = (value) => ({ ok: true, value });
  return {
    nodes,
    async call(r) {
      switch (r.operation) {
        case 'session': return ok({ cursor });
        case 'node': return nodes.has(r.nodeId) ? ok(nodes.get(r.nodeId)) : { ok: false, error: { code: 'NODE_NOT_FOUND', message: r.nodeId } };
        case 'jump': cursor = r.nodeId; return ok({ cursor });
        case 'context': return ok({ cursor, messages: cursor ? path(cursor).map((n) => n.message) : [] });
        case 'append': {
          const n = { id: `n${++seq}`, parentId: cursor, kind: 'message', message: r.message };
          nodes.set(n.id, n);
          cursor = n.id;
          return ok(n);
        }
      }
      throw new Error('unexpected ' + r.operation);
    },
  };
}

test('reply, regenerate and edit take the app\'s completion function', async () => {
  const tree = smallTree();
  const asked = [];
  const complete = async (messages) => (asked.push(messages.map((m) => m.content)), `answer ${asked.length}`);
  await tree.call({ operation: 'append', message: { role: 'system', content: 'sys' } });
  await tree.call({ operation: 'append', message: { role: 'user', content: 'q' } });
  const first = await reply(tree, 's', complete);
  assert.equal(first.ok, true);
  assert.deepEqual(first.value.message, { role: 'assistant', content: 'answer 1' }, 'no model field when the function names none');
  const again = await regenerate(tree, 's', first.value.node.id, complete);
  assert.equal(again.value.node.parentId, 'n2', 'a sibling of the first answer');
  assert.equal(again.value.text, 'answer 2');
  const edited = await edit(tree, 's', 'n2', 'q, edited', () => pieces('answer ', '3'));
  assert.equal(edited.ok, true);
  assert.equal(edited.value.edited.parentId, 'n1');
  assert.equal(edited.value.node.parentId, edited.value.edited.id);
  assert.equal(edited.value.text, 'answer 3');
  assert.deepEqual(asked, [['sys', 'q'], ['sys', 'q']]);
  const failed = await regenerate(tree, 's', first.value.node.id, async () => { throw new Error('down'); });
  assert.equal(failed.error.code, 'COMPLETION_ERROR');
  assert.equal((await tree.call({ operation: 'session' })).value.cursor, edited.value.node.id, 'a failed regenerate puts the cursor back');
  assert.equal(tree.nodes.size, 6);
});
