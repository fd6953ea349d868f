// Page tests of the text commands, entry kinds and annotations through the
// real shim and wasm: the Go golden transcripts (core/testdata/commands-*.txt)
// are replayed with tree.command and must come out byte for byte; /fork,
// usage errors, entries and annotations across a reload, and change events.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { setup, REPO_ROOT, openShimPage } from './helpers.mjs';

const TESTDATA = path.join(REPO_ROOT, 'core', 'testdata');
const read = (name) => fs.readFileSync(path.join(TESTDATA, name), 'utf8');

/**
 * Split a golden transcript ("> line" then its output) into the command
 * lines; the transcript is rebuilt in the page and compared whole.
 */
function commandLines(transcript) {
  return transcript.split('\n').filter((l) => l.startsWith('> ')).map((l) => l.slice(2));
}

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

/** Opens the shim test page in a fresh page of the shared context. */
const shimPage = () => openShimPage(env);

/** Runs lines with tree.command in the page and returns the transcript. */
async function replay(page, { dbName, sessionId, snapshot, lines }) {
  return page.evaluate(async ({ dbName, sessionId, snapshot, lines }) => {
    const tree = await window.sessiontree.init(dbName ? { dbName } : { persist: false });
    const loaded = await tree.command('/tree snapshot load ' + snapshot, { sessionId });
    if (!loaded.ok) throw new Error(loaded.error.message);
    let out = '';
    for (const line of lines) {
      const env = await tree.command(line, { sessionId });
      out += `> ${line}\n` + (env.ok ? env.value.text : `! ${env.error.code}: ${env.error.message}\n`);
    }
    return out;
  }, { dbName, sessionId, snapshot, lines });
}

/** The 10,000-node chain of core/deep_test.go's chainSnapshot. */
function chainSnapshot(id, n) {
  const nodes = [];
  for (let i = 0; i < n; i++) {
    const parent = i > 0 ? `"c${i - 1}"` : 'null';
    const role = i % 2 === 1 ? 'assistant' : 'user';
    nodes.push(`{"id":"c${i}","parentId":${parent},"branch":"main","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{"role":"${role}","content":"message ${i}"}}`);
  }
  return `{"version":1,"sessionId":"${id}","cursor":"c${n - 1}","activeBranch":"main","nodes":[${nodes.join(',')}]}`;
}

test('the branchy golden transcript (labels, hidden subtree, preferred path) comes out identical in the page', async () => {
  const page = await shimPage();
  const golden = read('commands-branchy.txt');
  const got = await replay(page, { sessionId: 'b', snapshot: read('annotations.snapshot.json'), lines: commandLines(golden) });
  assert.equal(got, golden);
  assert.deepEqual(env.errors, []);
  await page.close();
});

test('a 10,000-node linear run is compacted the same way in the page', async () => {
  const page = await shimPage();
  const golden = read('commands-long.txt');
  const got = await replay(page, { sessionId: 'long', snapshot: chainSnapshot('long', 10000), lines: commandLines(golden) });
  assert.equal(got, golden);
  assert.ok(golden.split('\n').length < 40, 'not 10,000 lines');
  await page.close();
});

test('the error transcript (usage, NOT_FOUND, INVALID_ARGUMENT) is identical in the page', async () => {
  const page = await shimPage();
  // The seed example's session as the Go test builds it (ids n0001…n0003).
  const seed = JSON.parse(read('annotations.snapshot.json'));
  const snapshot = JSON.stringify({
    version: 1, sessionId: 'demo', cursor: 'n0003', activeBranch: 'option-b',
    nodes: [
      { id: 'n0001', parentId: null, branch: 'main', kind: 'message', timestamp: seed.nodes[0].timestamp, message: { role: 'user', content: 'Explore option A' } },
      { id: 'n0002', parentId: 'n0001', branch: 'main', kind: 'message', timestamp: seed.nodes[0].timestamp, message: { role: 'assistant', content: 'Baseline answer' } },
      { id: 'n0003', parentId: 'n0001', branch: 'option-b', kind: 'message', timestamp: seed.nodes[0].timestamp, message: { role: 'user', content: 'Explore option B' } },
    ],
  });
  const golden = read('commands-errors.txt');
  const got = await replay(page, { sessionId: 'demo', snapshot, lines: commandLines(golden) });
  assert.equal(got, golden);
  await page.close();
});

test('/fork refuses an assistant message and turns a user message into a draft', async () => {
  const page = await shimPage();
  const r = await page.evaluate(async () => {
    const tree = await window.sessiontree.init({ persist: false });
    await tree.call({ operation: 'create', sessionId: 's' });
    const u1 = await tree.call({ operation: 'append', sessionId: 's', message: { role: 'user', content: 'First question' } });
    const a1 = await tree.call({ operation: 'append', sessionId: 's', message: { role: 'assistant', content: 'First answer' } });
    const u2 = await tree.call({ operation: 'append', sessionId: 's', message: { role: 'user', content: 'Second question, to rewrite' } });
    const refused = await tree.command(`/fork ${a1.value.id}`, { sessionId: 's' });
    const fork = await tree.command(`/fork "${u2.value.id}"`, { sessionId: 's' });
    const context = await tree.call({ operation: 'context', sessionId: fork.value.data.sessionId });
    const unknown = await tree.command('/tree frobnicate', { sessionId: 's' });
    const wrong = await tree.command(`/tree jump ${u1.value.id} extra`, { sessionId: 's' });
    const help = await tree.command('/tree help');
    return { ids: [u1.value.id, a1.value.id, u2.value.id], refused, fork: fork.value, context: context.value, unknown, wrong, help: help.value.text.split('\n').length };
  });
  assert.deepEqual(r.refused, { ok: false, error: { code: 'INVALID_ARGUMENT', message: `/fork needs a user message; node "${r.ids[1]}" is an assistant message` } });
  assert.equal(r.fork.command, '/fork');
  assert.equal(r.fork.draft, 'Second question, to rewrite');
  assert.equal(r.fork.data.nodeCount, 2);
  assert.equal(r.fork.data.cursor, r.ids[1]);
  assert.deepEqual(r.context.messages, [{ role: 'user', content: 'First question' }, { role: 'assistant', content: 'First answer' }]);
  assert.equal(r.unknown.error.code, 'NOT_FOUND');
  assert.match(r.unknown.error.message, /^unknown command "\/tree frobnicate"; usage: \/tree list \| /);
  assert.deepEqual(r.wrong.error, { code: 'INVALID_ARGUMENT', message: '/tree jump takes 1 argument; usage: /tree jump <nodeId>' });
  assert.equal(r.help, 19); // 18 commands of tree3 + /tree search
  await page.close();
});

test('entries, their state, and annotations survive a reload from IndexedDB', async () => {
  const page = await shimPage();
  const before = await page.evaluate(async () => {
    const tree = await window.sessiontree.init({ dbName: 'tree3-reload' });
    const events = [];
    tree.subscribe((e) => events.push(e.type));
    await tree.call({ operation: 'create', sessionId: 'p' });
    const call = (fields) => tree.call({ operation: 'append', sessionId: 'p', ...fields });
    const root = await call({ message: { role: 'system', content: 'Be brief.' } });
    await call({ entry: { kind: 'model_change', provider: 'openai', model: 'gpt-5' } });
    await call({ entry: { kind: 'thinking_level_change', level: 'high' } });
    const ask = await call({ message: { role: 'user', content: 'Summarise the plan' } });
    await call({ entry: { kind: 'active_tools_change', tools: ['search'] } });
    await call({ entry: { kind: 'compaction', summary: 'Earlier: plan drafted.', firstKeptNodeId: ask.value.id, tokensBefore: 5120 } });
    await call({ entry: { kind: 'custom_message', customType: 'note', content: 'Keep it short.' } });
    await call({ entry: { kind: 'custom', customType: 'ui', data: { fold: [1, 2] } } });
    await call({ entry: { kind: 'session_info', name: 'Planning' } });
    const bad = await call({ entry: { kind: 'model_change', provider: 'openai' } });
    await tree.command(`/tree label ${ask.value.id} the ask`, { sessionId: 'p' });
    await tree.command(`/tree hide ${root.value.id}`, { sessionId: 'p' });
    await tree.command(`/tree unhide ${root.value.id}`, { sessionId: 'p' });
    await tree.command(`/tree prefer ${ask.value.id}`, { sessionId: 'p' });
    await tree.command(`/tree jump ${ask.value.id}`, { sessionId: 'p' });
    const atAsk = (await tree.call({ operation: 'context', sessionId: 'p' })).value;
    await tree.remote.jump('p', root.value.id);
    await tree.flush();
    return {
      events,
      bad,
      atAsk,
      snapshot: (await tree.call({ operation: 'snapshot.save', sessionId: 'p' })).value,
      text: (await tree.command('/tree tree', { sessionId: 'p' })).value.text,
      list: (await tree.call({ operation: 'list', sessionId: 'p' })).value,
    };
  });
  await page.reload();
  await page.waitForFunction(() => window.sessiontree);
  const after = await page.evaluate(async () => {
    const tree = await window.sessiontree.init({ dbName: 'tree3-reload' });
    const last = (await tree.call({ operation: 'list', sessionId: 'p' })).value.at(-1).id;
    await tree.call({ operation: 'jump', sessionId: 'p', nodeId: last });
    const ctx = (await tree.call({ operation: 'context', sessionId: 'p' })).value;
    await tree.call({ operation: 'jump', sessionId: 'p', nodeId: (await tree.call({ operation: 'list', sessionId: 'p' })).value[0].id });
    return {
      ctx,
      snapshot: (await tree.call({ operation: 'snapshot.save', sessionId: 'p' })).value,
      text: (await tree.command('/tree tree', { sessionId: 'p' })).value.text,
      list: (await tree.call({ operation: 'list', sessionId: 'p' })).value,
    };
  });
  assert.deepEqual(before.bad.error, { code: 'INVALID_ARGUMENT', message: 'entry.model is missing (a model_change entry has provider, model)' });
  assert.deepEqual(before.events, [
    'create', 'append', 'append', 'append', 'append', 'append', 'append', 'append', 'append', 'append',
    'label', 'hide', 'hide', 'prefer', 'jump', 'jump',
  ]);
  assert.deepEqual(before.atAsk.state, { model: { provider: 'openai', model: 'gpt-5' }, thinkingLevel: 'high', activeTools: null, sessionName: null });
  assert.equal(before.snapshot.annotations.length, 4);
  assert.deepEqual(after.snapshot, before.snapshot);
  assert.equal(after.text, before.text);
  assert.deepEqual(after.list, before.list);
  assert.match(after.text, /\[label: the ask\]  ★ preferred/);
  assert.deepEqual(after.ctx, {
    cursor: before.snapshot.nodes.at(-1).id,
    messages: [
      { role: 'user', content: 'The conversation history before this point was compacted into the following summary:\n\n<summary>\nEarlier: plan drafted.\n</summary>' },
      { role: 'user', content: 'Summarise the plan' },
      { role: 'user', content: 'Keep it short.' },
    ],
    state: { model: { provider: 'openai', model: 'gpt-5' }, thinkingLevel: 'high', activeTools: ['search'], sessionName: 'Planning' },
  });
  assert.deepEqual(env.errors, []);
  await page.close();
});

test('the panel service answers status and tree in one reply', async () => {
  const page = await shimPage();
  const r = await page.evaluate(async () => {
    const tree = await window.sessiontree.init({ persist: false });
    await tree.call({ operation: 'create', sessionId: 'panel' });
    const a = await tree.call({ operation: 'append', sessionId: 'panel', message: { role: 'user', content: 'hello' } });
    await tree.call({ operation: 'append', sessionId: 'panel', message: { role: 'assistant', content: 'hi' } });
    await tree.call({ operation: 'label', sessionId: 'panel', nodeId: a.value.id, label: 'greeting' });
    const jump = await tree.remote.jump('panel', a.value.id);
    return { id: a.value.id, jump: jump.value };
  });
  assert.equal(r.jump.session.cursor, r.id);
  assert.equal(r.jump.tree.rows.length, 2);
  assert.equal(r.jump.tree.rows[0].label, 'greeting');
  assert.deepEqual(r.jump.tree.rows.map((row) => row.onPath), [true, false]);
  assert.match(r.jump.tree.text, /hello  \[label: greeting\]  ← cursor/);
  await page.close();
});
