// A context asked for while a persisted store starts is answered from its
// session's stored records on a store of its own, before the start hands
// core every stored session as a stub (js/first-context.js, issue 24):
// the answer is the one the store gives once it runs, byte for byte; a
// call made before it is never passed (an append asked for first shows in
// the context), one made after it sees what it saw; a session that is not
// stored, or in the trash, waits for the store, which answers the error.
// e2e/fixtures/held-wasm-worker.js holds the Go program's start until the
// test has seen its calls reach the worker.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './helpers.mjs';
import { writeSessions } from './stored-sessions.mjs';
import { FIRST_CONTEXT_NODES } from '../js/first-context.js';

const SHIM = 'e2e/fixtures/shim.html';
const DB = 'first-context';

async function open(env) {
  const page = await env.newPage();
  await page.goto(env.baseURL + SHIM);
  await page.waitForFunction(() => window.sessiontree !== undefined);
  return page;
}

/**
 * Store, through the store itself, the sessions the test opens: "a" with
 * a branch, a summary, a custom message, a compaction and an annotation,
 * its fork "f" and clone "c", "t" in the trash, beside 40 plain ones; and
 * return each one's context as call() and callText() answer it.
 */
async function stored(env) {
  const page = await open(env);
  await page.evaluate(async (db) => (await window.sessiontree.init({ dbName: db })).close(), DB);
  await writeSessions(page, { db: DB, count: 40, nodes: 3 });
  const want = await page.evaluate(async (db) => {
    const tree = await window.sessiontree.init({ dbName: db });
    const ok = async (request) => {
      const env = await tree.call(request);
      if (!env.ok) throw new Error(JSON.stringify(env.error));
      return env.value;
    };
    await ok({ operation: 'create', sessionId: 'a', title: 'the first context' });
    const ids = [];
    for (let i = 0; i < 12; i++) ids.push((await ok({ operation: 'append', sessionId: 'a', message: { role: i % 2 ? 'assistant' : 'user', content: `message ${i} é 😀` } })).id);
    await ok({ operation: 'branch.summary', sessionId: 'a', nodeId: ids[4], branch: 'sum', summary: 'a «summary»' });
    await ok({ operation: 'append', sessionId: 'a', entry: { kind: 'custom_message', customType: 't', content: 'custom text' } });
    await ok({ operation: 'append', sessionId: 'a', entry: { kind: 'compaction', summary: 'compact', firstKeptNodeId: ids[2] } });
    await ok({ operation: 'append', sessionId: 'a', message: { role: 'user', content: 'after the compaction' } });
    await ok({ operation: 'fork', sessionId: 'a', nodeId: ids[7], newSessionId: 'f' });
    await ok({ operation: 'clone', sessionId: 'a', newSessionId: 'c' });
    await ok({ operation: 'append', sessionId: 'f', message: { role: 'assistant', content: 'after the fork' } });
    await ok({ operation: 'create', sessionId: 't', title: 'in the trash' });
    await ok({ operation: 'append', sessionId: 't', message: { role: 'user', content: 'gone' } });
    await ok({ operation: 'delete', sessionId: 't' });
    const want = {};
    for (const id of ['a', 'f', 'c', 's0007']) want[id] = { call: await tree.call({ operation: 'context', sessionId: id }), text: await tree.callText({ operation: 'context', sessionId: id }) };
    await tree.flush();
    await tree.close();
    return want;
  }, DB);
  await page.close();
  return want;
}

/**
 * In a fresh page whose worker's Go program is held, make the calls
 * `calls` names ([method, request] in order) at once, let the start go on
 * once they all reached the worker, and return their answers, the
 * contexts answered before the stubs, and each context asked again.
 */
function calls(page, channel, list) {
  return page.evaluate(async ({ db, channel, list }) => {
    const heard = new BroadcastChannel(channel);
    let reached = 0;
    heard.onmessage = ({ data }) => data === 'call' && reached++;
    const tree = await window.sessiontree.init({ dbName: db, workerURL: `/e2e/fixtures/held-wasm-worker.js?channel=${channel}` });
    const pending = list.map(([method, request]) => tree[method](request));
    while (reached < list.length) await new Promise((resolve) => setTimeout(resolve, 10));
    heard.postMessage('run');
    const answers = await Promise.all(pending);
    const debug = await tree._debug();
    const again = {};
    for (const [, request] of list) if (request.operation === 'context') again[request.sessionId] = await tree.call(request);
    const loads = (await tree._debug()).pager.loads; // the store's loads of paged-out sessions, the contexts asked again included
    await tree.close();
    heard.close();
    // As the page reads them (a context's messages may be built as they are read: js/context-columns.js).
    return JSON.parse(JSON.stringify({ answers, firstContexts: debug.firstContexts, again, loads }));
  }, { db: DB, channel, list });
}

test('a context asked for while the store starts is answered before the stubs, exactly as the store answers it; a session not stored or in the trash waits for the store', async () => {
  const env = await setup();
  try {
    const want = await stored(env);
    assert.equal(want.a.call.value.messages.at(-1).content, 'after the compaction');
    const page = await open(env);
    const r = await calls(page, 'first-a', [
      ['call', { operation: 'context', sessionId: 'f' }],
      ['callText', { operation: 'context', sessionId: 'a' }],
      ['call', { operation: 'context', sessionId: 's0007' }],
      ['call', { operation: 'context', sessionId: 't' }],
      ['call', { operation: 'context', sessionId: 'c' }],
      ['call', { operation: 'context', sessionId: 'nobody' }],
    ]);
    await page.close();
    // f, a and s0007 before the stubs; t (in the trash) waits, and so do the two after it.
    assert.equal(r.firstContexts, 3);
    assert.deepEqual(r.answers[0], want.f.call);
    assert.equal(r.answers[1], want.a.text);
    assert.deepEqual(r.answers[2], want.s0007.call);
    assert.equal(r.answers[3].ok, false);
    assert.equal(r.answers[3].error.code, 'SESSION_NOT_FOUND');
    assert.deepEqual(r.answers[4], want.c.call);
    assert.equal(r.answers[5].error.code, 'SESSION_NOT_FOUND');
    // The store, once it runs, answers the same.
    for (const id of ['f', 'a', 's0007', 'c']) assert.deepEqual(r.again[id], want[id].call, id);
    assert.deepEqual(r.again.t, r.answers[3]);
  } finally {
    await env.close();
  }
});

test('a context answered while the store starts passes no call made before it and misses none made after it', async () => {
  const env = await setup();
  try {
    const want = await stored(env);
    const before = want.f.call.value.messages.length;
    // An append asked for first: the context after it waits for the store and shows it.
    let page = await open(env);
    const first = await calls(page, 'first-b', [
      ['call', { operation: 'append', sessionId: 'f', message: { role: 'user', content: 'asked for first' } }],
      ['call', { operation: 'context', sessionId: 'f' }],
    ]);
    await page.close();
    assert.equal(first.answers[0].ok, true);
    assert.equal(first.firstContexts, 0);
    assert.equal(first.answers[1].value.messages.length, before + 1);
    assert.equal(first.answers[1].value.messages.at(-1).content, 'asked for first');
    // A context asked for first answers before the append made after it, which lands.
    page = await open(env);
    const second = await calls(page, 'first-c', [
      ['call', { operation: 'context', sessionId: 'f' }],
      ['call', { operation: 'append', sessionId: 'f', message: { role: 'user', content: 'asked for second' } }],
    ]);
    await page.close();
    assert.equal(second.firstContexts, 1);
    assert.equal(second.answers[0].value.messages.length, before + 1);
    assert.equal(second.answers[0].value.messages.at(-1).content, 'asked for first');
    assert.equal(second.answers[1].ok, true);
    assert.equal(second.again.f.value.messages.length, before + 2);
    assert.equal(second.again.f.value.messages.at(-1).content, 'asked for second');
  } finally {
    await env.close();
  }
});

test('a session of more than FIRST_CONTEXT_NODES nodes is loaded once, by the store: its first context waits for the store, and the next call on it reads nothing again', async () => {
  const env = await setup();
  try {
    await stored(env);
    let page = await open(env);
    const want = await page.evaluate(async ({ db, n }) => {
      const tree = await window.sessiontree.init({ dbName: db });
      const messages = Array.from({ length: n }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `turn ${i}` }));
      const made = await tree.call({ operation: 'append.many', sessionId: 'big', create: true, messages });
      if (!made.ok) throw new Error(JSON.stringify(made.error));
      const want = await tree.call({ operation: 'context', sessionId: 'big' });
      await tree.flush();
      await tree.close();
      return want;
    }, { db: DB, n: FIRST_CONTEXT_NODES + 1 });
    await page.close();
    page = await open(env);
    const r = await calls(page, 'first-big', [['call', { operation: 'context', sessionId: 'big' }]]);
    await page.close();
    assert.equal(r.firstContexts, 0);
    assert.equal(r.answers[0].value.messages.length, FIRST_CONTEXT_NODES + 1);
    assert.deepEqual(r.answers[0], want);
    assert.deepEqual(r.again.big, want);
    assert.equal(r.loads, 1, 'one load: the context asked again found the session in memory');
    // A small session is answered before the stubs, as before.
    page = await open(env);
    const small = await calls(page, 'first-small', [['call', { operation: 'context', sessionId: 'a' }]]);
    await page.close();
    assert.equal(small.firstContexts, 1);
    assert.equal(small.loads, 1, 'the store loads it for the context asked again');
  } finally {
    await env.close();
  }
});

test('the search index takes in a loaded session only once no call waits: a context whose 50,000-node session loads is answered before any index slice runs', async () => {
  const env = await setup();
  try {
    const page = await open(env);
    const r = await page.evaluate(async (db) => {
      let tree = await window.sessiontree.init({ dbName: db });
      const messages = Array.from({ length: 50000 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `turn ${i} of a long agent session` }));
      if (!(await tree.call({ operation: 'append.many', sessionId: 'huge', create: true, messages })).ok) throw new Error('append.many failed');
      await tree.flush();
      await tree.close();
      tree = await window.sessiontree.init({ dbName: db }); // the same worker: the session is paged out, not loaded
      await new Promise((resolve) => setTimeout(resolve, 500)); // the start's own index slices are done
      const before = await tree._debug();
      const context = await tree.call({ operation: 'context', sessionId: 'huge' });
      const after = await tree._debug();
      await tree.close();
      return { n: context.value.messages.length, paged: before.pager.paged, loads: after.pager.loads - before.pager.loads, indexMs: after.indexMs - before.indexMs };
    }, DB + '-huge');
    await page.close();
    assert.deepEqual({ ...r, indexMs: undefined }, { n: 50000, paged: 1, loads: 1, indexMs: undefined });
    assert.equal(r.indexMs, 0, 'no index slice ran between the call and its answer');
  } finally {
    await env.close();
  }
});
