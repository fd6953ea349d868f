// Page tests of the real shim (js/sessiontree.js) and the real wasm in
// headless Chromium: the seed example through tree.call, errors as
// envelopes, persistence across reloads, a failed IndexedDB read at init,
// named restore points and a 100,000-deep chain.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { failSessionsReads, setup, openShimPage, stubStore, watchPage } from './helpers.mjs';

let env;
/** A second browser context (its own IndexedDB) for the tests run with the store in the page's thread. */
let pageThread;
before(async () => {
  env = await setup();
  pageThread = await env.browser.newContext();
});
after(async () => {
  await pageThread?.close();
  await env?.close();
});

/** Where the test running now has the store: undefined (the worker, the default) or false (init({worker: false})). */
let worker;

/**
 * Opens the shim test page in a fresh page of the shared context; for a
 * test run with the store in the page's thread, of the second context, with
 * ?worker=0 (the fixture then calls init with {worker: false}).
 */
const shimPage = async () => {
  if (worker !== false) return openShimPage(env);
  const page = watchPage(await pageThread.newPage(), env.errors);
  await page.goto(env.baseURL + 'e2e/fixtures/shim.html?worker=0');
  await page.waitForFunction(() => window.sessiontree);
  return page;
};

/**
 * A test run twice: with the store in its worker, then in the page's own
 * thread (init({worker: false})), the documented fallback where there is
 * no Worker. Page errors of either fail the test.
 */
function both(name, fn) {
  test(name, async () => {
    worker = undefined;
    await fn();
    assert.deepEqual(env.errors, []);
  });
  test(name + ' (store in the page thread)', async () => {
    worker = false;
    try {
      await fn();
    } finally {
      worker = undefined;
    }
    assert.deepEqual(env.errors, []);
  });
}

both('the seed example gives exactly the documented context, branches and snapshot', async () => {
  const page = await shimPage();
  const r = await page.evaluate(async () => {
    const tree = await window.sessiontree.init({ dbName: 'seed' });
    const out = {};
    out.create = await tree.call({ operation: 'create', sessionId: 'demo' });
    const a = await tree.call({ operation: 'append', sessionId: 'demo', message: { role: 'user', content: 'Explore option A' } });
    const b = await tree.call({ operation: 'append', sessionId: 'demo', message: { role: 'assistant', content: 'Baseline answer' } });
    out.branch = await tree.call({ operation: 'branch', sessionId: 'demo', nodeId: a.value.id, branch: 'option-b' });
    const c = await tree.call({ operation: 'append', sessionId: 'demo', message: { role: 'user', content: 'Explore option B' }, branch: 'option-b' });
    out.ids = { a: a.value.id, b: b.value.id, c: c.value.id };
    out.context = await tree.call({ operation: 'context', sessionId: 'demo' });
    out.branches = await tree.call({ operation: 'branches', sessionId: 'demo' });
    out.snapshot = await tree.call({ operation: 'snapshot.save', sessionId: 'demo' });
    out.load = await tree.call(JSON.stringify({ operation: 'snapshot.load', sessionId: 'demo', snapshot: { version: 1, sessionId: 'demo', cursor: null, activeBranch: 'main', nodes: [] } }));
    out.after = await tree.call({ operation: 'snapshot.save', sessionId: 'demo' });
    return out;
  });
  assert.equal(r.create.ok, true);
  assert.match(r.ids.a, /^[0-9a-f]{8}$/);
  assert.equal(new Set(Object.values(r.ids)).size, 3);
  assert.deepEqual(r.context, {
    ok: true,
    value: {
      cursor: r.ids.c,
      messages: [
        { role: 'user', content: 'Explore option A' },
        { role: 'user', content: 'Explore option B' },
      ],
      state: r.context.value.state,
    },
  });
  assert.deepEqual(r.branches.value, [
    { name: 'main', tip: r.ids.b, base: null, nodeCount: 2, active: false },
    { name: 'option-b', tip: r.ids.c, base: r.ids.a, nodeCount: 1, active: true },
  ]);
  assert.equal(r.snapshot.value.version, 1);
  assert.equal(r.snapshot.value.nodes.length, 3);
  assert.equal(r.snapshot.value.activeBranch, 'option-b');
  assert.equal(r.load.ok, true);
  assert.equal(r.load.value.nodeCount, 0);
  assert.deepEqual(r.after.value, { version: 1, sessionId: 'demo', cursor: null, activeBranch: 'main', nodes: [] });
  await page.close();
});

both('every error code arrives as an envelope, never a rejection, and changes nothing', async () => {
  const page = await shimPage();
  const r = await page.evaluate(async () => {
    const tree = await window.sessiontree.init({ persist: false });
    await tree.call({ operation: 'create', sessionId: 's' });
    const n = await tree.call({ operation: 'append', sessionId: 's', message: { role: 'user', content: 'hi' } });
    const before = JSON.stringify(await tree.call({ operation: 'snapshot.save', sessionId: 's' }));
    const requests = [
      '{"operation":',
      { operation: 'append', sessionId: 's', message: { content: 'no role' } },
      { operation: 'context', sessionId: 'nope' },
      { operation: 'create', sessionId: 's' },
      { operation: 'jump', sessionId: 's', nodeId: 'zzz' },
      { operation: 'snapshot.load', sessionId: 's', snapshot: { version: 9 } },
      { operation: 'append', sessionId: 's', branch: 'ghost', message: { role: 'user', content: 'x' } },
      { operation: 'create', sessionId: 1n },
    ];
    const codes = [];
    for (const req of requests) {
      try {
        const env = await tree.call(req);
        codes.push(env.ok ? 'OK' : env.error.code);
      } catch (err) {
        codes.push('REJECTED ' + err.message);
      }
    }
    const after = JSON.stringify(await tree.call({ operation: 'snapshot.save', sessionId: 's' }));
    return { codes, same: before === after, node: n.value.id };
  });
  assert.deepEqual(r.codes, [
    'INVALID_ARGUMENT',
    'INVALID_ARGUMENT',
    'SESSION_NOT_FOUND',
    'SESSION_ALREADY_EXISTS',
    'NODE_NOT_FOUND',
    'INVALID_SNAPSHOT',
    'NOT_FOUND',
    'INVALID_ARGUMENT',
  ]);
  assert.equal(r.same, true);
  await page.close();
});

both('a reload restores every session, node, cursor and active branch', async () => {
  const page = await shimPage();
  const saved = await page.evaluate(async () => {
    const tree = await window.sessiontree.init({ dbName: 'reload' });
    for (const id of ['one', 'two']) {
      await tree.call({ operation: 'create', sessionId: id, title: 'Session ' + id });
      const a = await tree.call({ operation: 'append', sessionId: id, message: { role: 'user', content: 'q ' + id } });
      await tree.call({ operation: 'append', sessionId: id, message: { role: 'assistant', content: 'a ' + id } });
      await tree.call({ operation: 'branch.summary', sessionId: id, nodeId: a.value.id, branch: 'alt', summary: 'went elsewhere' });
      await tree.call({ operation: 'append', sessionId: id, message: { role: 'user', content: [{ type: 'text', text: 'again 🙂' }] } });
      await tree.call({ operation: 'jump', sessionId: id, nodeId: a.value.id });
    }
    const out = {};
    for (const id of ['one', 'two']) out[id] = (await tree.call({ operation: 'snapshot.save', sessionId: id })).value;
    out.sessions = (await tree.call({ operation: 'sessions' })).value;
    return out;
  });
  await page.reload();
  await page.waitForFunction(() => window.sessiontree);
  const restored = await page.evaluate(async () => {
    const tree = await window.sessiontree.init({ dbName: 'reload' });
    const out = {};
    for (const id of ['one', 'two']) out[id] = (await tree.call({ operation: 'snapshot.save', sessionId: id })).value;
    out.sessions = (await tree.call({ operation: 'sessions' })).value;
    return out;
  });
  assert.deepEqual(restored, saved);
  assert.equal(saved.one.nodes.length, 4);
  assert.equal(saved.one.activeBranch, 'main');
  assert.equal(saved.sessions.length, 2);
  assert.equal(saved.sessions[0].title, 'Session one');
  await page.close();
});

test('a failed IndexedDB read at init rejects and leaves the stored data untouched', async () => {
  const page = await shimPage();
  const stored = await page.evaluate(async () => {
    const tree = await window.sessiontree.init({ dbName: 'fragile' });
    await tree.call({ operation: 'create', sessionId: 'keep' });
    await tree.call({ operation: 'append', sessionId: 'keep', message: { role: 'user', content: 'precious' } });
    tree.close();
    return (await tree.call({ operation: 'snapshot.save', sessionId: 'keep' })).value;
  });
  await page.close();

  const broken = await env.newPage();
  await stubStore(broken, failSessionsReads, 'simulated read failure'); // the meta records init reads
  await broken.goto(env.baseURL + 'e2e/fixtures/shim.html');
  await broken.waitForFunction(() => window.sessiontree);
  const result = await broken.evaluate(async () => {
    try {
      await window.sessiontree.init({ dbName: 'fragile' });
      return 'resolved';
    } catch (err) {
      return String(err.message);
    }
  });
  assert.match(result, /reading IndexedDB database "fragile" failed, nothing was changed: simulated read failure/);
  await broken.close();

  const again = await shimPage();
  const back = await again.evaluate(async () => {
    const tree = await window.sessiontree.init({ dbName: 'fragile' });
    return (await tree.call({ operation: 'snapshot.save', sessionId: 'keep' })).value;
  });
  assert.deepEqual(back, stored);
  await again.close();
});

both('named restore points are kept, listed and restored', async () => {
  const page = await shimPage();
  const r = await page.evaluate(async () => {
    const tree = await window.sessiontree.init({ dbName: 'points' });
    await tree.call({ operation: 'create', sessionId: 's' });
    await tree.call({ operation: 'append', sessionId: 's', message: { role: 'user', content: 'one' } });
    const saved = await tree.saveSnapshot('s', 'before');
    await tree.call({ operation: 'append', sessionId: 's', message: { role: 'assistant', content: 'two' } });
    const list = await tree.listSnapshots('s');
    const restored = await tree.restoreSnapshot('s', 'before');
    const missing = await tree.restoreSnapshot('s', 'nope');
    const ctx = await tree.call({ operation: 'context', sessionId: 's' });
    return { saved, list, restored, missing, messages: ctx.value.messages };
  });
  assert.equal(r.saved.ok, true);
  assert.equal(r.saved.value.name, 'before');
  assert.equal(r.saved.value.nodeCount, 1);
  assert.deepEqual(r.list.value.map((s) => [s.name, s.nodeCount]), [['before', 1]]);
  assert.equal(r.restored.value.nodeCount, 1);
  assert.equal(r.missing.error.code, 'NOT_FOUND');
  assert.deepEqual(r.messages, [{ role: 'user', content: 'one' }]);
  await page.close();
});

test('a restore point keeps a message exactly as sent, numbers beyond 2^53 included', async () => {
  const page = await shimPage();
  const r = await page.evaluate(async () => {
    const tree = await window.sessiontree.init({ dbName: 'points-exact' });
    await tree.call({ operation: 'create', sessionId: 'big' });
    const text = '{"operation":"append","sessionId":"big","message":{"role":"user","content":"n","seed":12345678901234567890}}';
    const appended = JSON.parse(await tree.callText(text));
    const saved = await tree.saveSnapshot('big', 'p');
    await tree.call({ operation: 'append', sessionId: 'big', message: { role: 'assistant', content: 'later' } });
    const restored = await tree.restoreSnapshot('big', 'p');
    return { appended: appended.ok, saved, restored: restored.ok, context: await tree.callText({ operation: 'context', sessionId: 'big' }) };
  });
  assert.equal(r.appended, true);
  assert.equal(r.saved.value.nodeCount, 1);
  assert.equal(r.restored, true);
  assert.match(r.context, /"messages":\[\{"role":"user","content":"n","seed":12345678901234567890\}\]/);
  await page.close();
});

both('a 100,000-deep chain loads, answers context, tree and list, and survives a reload', async () => {
  const page = await shimPage();
  const n = 100000;
  const r = await page.evaluate(async (n) => {
    const tree = await window.sessiontree.init({ dbName: 'deep' });
    const nodes = [];
    for (let i = 0; i < n; i++) {
      nodes.push({ id: 'c' + i, parentId: i ? 'c' + (i - 1) : null, branch: 'main', kind: 'message', timestamp: '2026-11-29T12:00:00.000Z', message: { role: i % 2 ? 'assistant' : 'user', content: 'message ' + i } });
    }
    const snapshot = { version: 1, sessionId: 'deep', cursor: 'c' + (n - 1), activeBranch: 'main', nodes };
    const load = await tree.call({ operation: 'snapshot.load', sessionId: 'deep', snapshot });
    const ctx = await tree.call({ operation: 'context', sessionId: 'deep' });
    const t = await tree.call({ operation: 'tree', sessionId: 'deep' });
    const list = await tree.call({ operation: 'list', sessionId: 'deep' });
    const save = await tree.call({ operation: 'snapshot.save', sessionId: 'deep' });
    return {
      load: load.value.nodeCount,
      depth: load.value.depth,
      messages: ctx.value.messages.length,
      last: ctx.value.messages[n - 1],
      rows: t.value.rows.length,
      deepestIndent: t.value.rows[n - 1].indent,
      list: list.value.length,
      same: JSON.stringify(save.value) === JSON.stringify(snapshot),
    };
  }, n);
  assert.deepEqual(r, { load: n, depth: n, messages: n, last: { role: 'assistant', content: 'message 99999' }, rows: n, deepestIndent: 0, list: n, same: true });
  await page.reload();
  await page.waitForFunction(() => window.sessiontree);
  const back = await page.evaluate(async () => {
    const tree = await window.sessiontree.init({ dbName: 'deep' });
    const s = await tree.call({ operation: 'session', sessionId: 'deep' });
    return [s.value.nodeCount, s.value.cursor, s.value.depth];
  });
  assert.deepEqual(back, [n, 'c99999', n]);
  await page.close();
});

both('subscribe reports each change with its operation; remote answers the panel calls', async () => {
  const page = await shimPage();
  const r = await page.evaluate(async () => {
    const tree = await window.sessiontree.init({ persist: false });
    const events = [];
    const off = tree.subscribe((e) => events.push(e));
    await tree.call({ operation: 'create', sessionId: 's' });
    const a = await tree.call({ operation: 'append', sessionId: 's', message: { role: 'user', content: 'hi' } });
    await tree.remote.jump('s', a.value.id);
    const fork = await tree.remote.fork('s', a.value.id, 'side');
    const list = await tree.remote.list('s');
    const session = await tree.remote.session('s');
    off();
    await tree.call({ operation: 'append', sessionId: 's', message: { role: 'user', content: 'unheard' } });
    const same = (await window.sessiontree.init({ persist: false })) === tree;
    return { events, id: a.value.id, fork: fork.value.session, list: list.value.tree.rows.length, session: session.value.session.nodeCount, same };
  });
  // The fields every event had; what changed besides (cursor, nodeIds, …) is e2e/chat-ops.test.mjs's.
  assert.deepEqual(r.events.map(({ type, sessionId, nodeId }) => ({ type, sessionId, nodeId })).map((e) => JSON.parse(JSON.stringify(e))), [
    { type: 'create', sessionId: 's', nodeId: undefined },
    { type: 'append', sessionId: 's', nodeId: r.id },
    { type: 'jump', sessionId: 's', nodeId: r.id },
    { type: 'fork', sessionId: r.fork.sessionId, nodeId: r.id },
  ].map((e) => JSON.parse(JSON.stringify(e))));
  assert.equal(r.fork.activeBranch, 'side');
  assert.equal(r.list, 1);
  assert.equal(r.session, 1);
  assert.equal(r.same, false, 'persist:false gives an independent tree');
  await page.close();
});

both('a lone surrogate in a string request is answered as in the same request given as an object', async () => {
  const page = await shimPage();
  const r = await page.evaluate(async () => {
    const tree = await window.sessiontree.init({ persist: false });
    const lone = String.fromCharCode(0xd800);
    const asObject = (req) => tree.call(req);
    const asString = (req) => tree.call(JSON.stringify(req).replace(/\\ud800/g, lone));
    const create = { operation: 'create', sessionId: 'x' + lone };
    const idObject = await asObject(create);
    const idString = await asString(create);
    await tree.call({ operation: 'create', sessionId: 's' });
    const append = { operation: 'append', sessionId: 's', message: { role: 'user', content: 'a' + lone + 'b' } };
    const textString = await tree.callText(JSON.stringify(append).replace(/\\ud800/g, lone));
    const context = await tree.callText({ operation: 'context', sessionId: 's' });
    const outside = await tree.call('{"operation":"sessions"' + lone + '}');
    return { idObject, idString, textString: JSON.parse(textString).ok, context, outside, sessions: (await tree.call({ operation: 'sessions' })).value.map((x) => x.sessionId) };
  });
  assert.equal(r.idObject.ok, false);
  assert.deepEqual(r.idString, r.idObject, 'the id is refused with the same envelope');
  assert.equal(r.textString, true);
  assert.match(r.context, /"content":"a\\ud800b"/, 'kept as the escape, never U+FFFD');
  assert.equal(r.outside.ok, false);
  assert.equal(r.outside.error.code, 'INVALID_ARGUMENT');
  assert.deepEqual(r.sessions, ['s']);
  await page.close();
});

test('callText hands back a message byte for byte, big numbers included', async () => {
  const page = await shimPage();
  const message = '{"role":"assistant","content":[{"type":"text","text":"价格 🙂‍↔️ <b>&amp;</b>"}],"vendor":{"n":12345678901234567890,"f":1.50e+10}}';
  const r = await page.evaluate(async (message) => {
    const tree = await window.sessiontree.init({ persist: false });
    await tree.call({ operation: 'create', sessionId: 's' });
    await tree.callText(`{"operation":"append","sessionId":"s","message":${message}}`);
    return tree.callText({ operation: 'context', sessionId: 's' });
  }, message);
  assert.ok(r.includes(`"messages":[${message}]`), r);
  await page.close();
});

test('call gives the same context value as callText for text with accents, CJK and emoji, mostly ASCII or not', async () => {
  const page = await shimPage();
  const r = await page.evaluate(async () => {
    const tree = await window.sessiontree.init({ persist: false });
    const out = [];
    for (const [id, text] of [['mostly', 'deploy the pipeline again, then check the logs of the build — café 🙂'], ['cjk', '价格很高的部署流水线失败了，我们需要检查构建日志']]) {
      await tree.call({ operation: 'create', sessionId: id });
      for (let i = 0; i < 600; i++) await tree.call({ operation: 'append', sessionId: id, message: { role: i % 2 ? 'assistant' : 'user', content: `${text} ${i}` } });
      const parsed = await tree.call({ operation: 'context', sessionId: id });
      const text2 = await tree.callText({ operation: 'context', sessionId: id });
      out.push({ same: JSON.stringify(parsed) === JSON.stringify(JSON.parse(text2)), n: parsed.value.messages.length, last: parsed.value.messages[599].content, textASCII: /^[\x00-\x7f]*$/.test(text2) });
    }
    return out;
  });
  assert.deepEqual(r, [
    { same: true, n: 600, last: 'deploy the pipeline again, then check the logs of the build — café 🙂 599', textASCII: false },
    { same: true, n: 600, last: '价格很高的部署流水线失败了，我们需要检查构建日志 599', textASCII: false },
  ]);
  await page.close();
});

both('call builds a context from the wasm\'s columns: the same value as callText, keys in stored order, cached or copied', async () => {
  const page = await shimPage();
  const r = await page.evaluate(async () => {
    const same = async (tree, id) => {
      const parsed = await tree.call({ operation: 'context', sessionId: id });
      const text = await tree.callText({ operation: 'context', sessionId: id });
      return { same: JSON.stringify(parsed) === JSON.stringify(JSON.parse(text)), n: parsed.ok ? parsed.value.messages.length : parsed.error.code };
    };
    const out = {};
    for (const persist of [false, true]) {
      const tree = await window.sessiontree.init(persist ? { dbName: 'columns-' + Math.random() } : { persist: false });
      await tree.call({ operation: 'create', sessionId: 's' });
      const messages = [
        '{"role":"user","content":"\ufeffa byte order mark first, kept"}',
        '{"content":"content before role","role":"assistant"}',
        '{"role":"user","content":"escapes \\n \\t \\" \\\\ \\u00e9 and an escaped pair \\ud83c\\udf89"}',
        '{"role":"user","content":"a lone surrogate \\ud800 stays as JSON.parse keeps it"}',
        '{"role":"assistant","content":[{"type":"text","text":"parts"}],"n":12}',
        '{"role":"tool","content":"🙂 wide text, a new role"}',
        '{"role":"user","content":""}',
      ];
      for (const m of messages) await tree.callText(`{"operation":"append","sessionId":"s","message":${m}}`);
      for (let i = 0; i < 50; i++) await tree.call({ operation: 'append', sessionId: 's', message: { role: i % 2 ? 'assistant' : 'user', content: `turn ${i} — café` } });
      const key = persist ? 'persisted' : 'memory';
      out[key] = [await same(tree, 's'), await same(tree, 's')]; // filled, then from the cache
      const first = (await tree.call({ operation: 'context', sessionId: 's' })).value.messages;
      out[key].push({ bom: first[0].content.charCodeAt(0), keys: Object.keys(first[1]).join(','), lone: first[3].content.charCodeAt(17), pair: first[2].content.endsWith('🎉') });
      // A short branch: its texts are copied out of the cache.
      const nodes = (await tree.call({ operation: 'list', sessionId: 's' })).value;
      await tree.call({ operation: 'jump', sessionId: 's', nodeId: nodes.nodes ? nodes.nodes[1].id : nodes[1].id });
      await tree.call({ operation: 'append', sessionId: 's', message: { role: 'user', content: 'a short branch' } });
      out[key].push(await same(tree, 's'));
      // A context asked for while a write is queued answers from JSON.
      const pending = tree.call({ operation: 'append', sessionId: 's', message: { role: 'user', content: 'queued' } });
      out[key].push(await same(tree, 's'));
      await pending;
      out[key].push(await same(tree, 'missing'));
    }
    return out;
  });
  for (const key of ['memory', 'persisted']) {
    assert.deepEqual(r[key], [
      { same: true, n: 57 }, { same: true, n: 57 },
      { bom: 0xfeff, keys: 'content,role', lone: 0xd800, pair: true },
      { same: true, n: 3 }, { same: true, n: 4 }, { same: true, n: 'SESSION_NOT_FOUND' },
    ], key);
  }
  await page.close();
});

test('null and non-function arguments get envelopes, not exceptions', async () => {
  const page = await shimPage();
  const r = await page.evaluate(async () => {
    const tree = await window.sessiontree.init(null);
    const out = [];
    out.push((await tree.command('/tree list', null)).error.code);
    out.push((await tree.importText('{}', undefined, null)).error.code);
    out.push((await tree.search('x', null)).ok);
    const off = tree.subscribe(null);
    out.push(typeof off);
    await tree.call({ operation: 'create', sessionId: 'n' + Date.now() });
    return out;
  });
  assert.deepEqual(r, ['INVALID_ARGUMENT', 'INVALID_ARGUMENT', true, 'function']);
  assert.ok(env.errors.some((e) => e.includes('subscribe takes a function')));
  env.errors.length = 0;
  await page.close();
});

test('the store runs in a module worker by default, in the page thread with worker: false, without Worker or when the default worker cannot start; a wrong workerURL or wasmURL rejects', async () => {
  const page = await shimPage();
  const r = await page.evaluate(async () => {
    const out = {};
    const tree = await window.sessiontree.init({ persist: false });
    out.worker = { ok: (await tree.call({ operation: 'create', sessionId: 'w' })).ok, pageRunsGo: typeof globalThis.sessiontreeWasm !== 'undefined' || typeof globalThis.Go !== 'undefined', instance: tree instanceof window.sessiontree.SessionTree };
    const missing = async (options) => {
      try {
        await window.sessiontree.init({ persist: false, ...options });
        return 'resolved';
      } catch (err) {
        return String(err.message);
      }
    };
    out.badWorker = await missing({ workerURL: '/no/such/worker.js' });
    out.badWasm = await missing({ wasmURL: '/no/such/sessiontree.wasm' });
    const local = await window.sessiontree.init({ persist: false, worker: false });
    out.local = { ok: (await local.call({ operation: 'create', sessionId: 'l' })).ok, pageRunsGo: typeof globalThis.sessiontreeWasm !== 'undefined', instance: local instanceof window.sessiontree.SessionTree };
    return out;
  });
  assert.deepEqual(r.worker, { ok: true, pageRunsGo: false, instance: true });
  assert.match(r.badWorker, /^sessiontree: the store worker http:\/\/127\.0\.0\.1:\d+\/no\/such\/worker\.js failed/);
  assert.notEqual(r.badWasm, 'resolved');
  assert.deepEqual(r.local, { ok: true, pageRunsGo: true, instance: true });
  await page.close();

  // No Worker at all: init() falls back to the page's thread by itself.
  const noWorker = await env.newPage();
  await noWorker.addInitScript(() => {
    delete window.Worker;
  });
  await noWorker.goto(env.baseURL + 'e2e/fixtures/shim.html');
  await noWorker.waitForFunction(() => window.sessiontree);
  const fallback = await noWorker.evaluate(async () => {
    const tree = await window.sessiontree.init({ persist: false });
    const ctx = (await tree.call({ operation: 'create', sessionId: 'f' })).ok && (await tree.call({ operation: 'append', sessionId: 'f', message: { role: 'user', content: 'here' } })).ok;
    return { worker: typeof Worker, ctx, pageRunsGo: typeof globalThis.sessiontreeWasm !== 'undefined' };
  });
  assert.deepEqual(fallback, { worker: 'undefined', ctx: true, pageRunsGo: true });
  await noWorker.close();

  // A default worker that cannot start (here: its script is missing) also
  // falls back, with a warning; an explicit workerURL rejected above.
  const broken = await env.newPage();
  const warnings = [];
  broken.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
  await broken.addInitScript(() => {
    const Real = window.Worker;
    window.Worker = class extends Real {
      constructor(url, options) {
        super(new URL('/no/such/worker.js', location.href), options);
      }
    };
  });
  await broken.goto(env.baseURL + 'e2e/fixtures/shim.html');
  await broken.waitForFunction(() => window.sessiontree);
  const fell = await broken.evaluate(async () => {
    const tree = await window.sessiontree.init({ persist: false });
    return { ok: (await tree.call({ operation: 'create', sessionId: 'f' })).ok, pageRunsGo: typeof globalThis.sessiontreeWasm !== 'undefined' };
  });
  assert.deepEqual(fell, { ok: true, pageRunsGo: true });
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /^sessiontree: the store worker \(the package's own: js\/worker\.bundle\.js, or the name your bundler gave it\) failed.*; running the store in the page's thread$/);
  await broken.close();
  assert.deepEqual(env.errors, []);
});

both('importText reports progress and can be aborted while reading: nothing is imported, and a later import runs', async () => {
  const page = await shimPage();
  const r = await page.evaluate(async () => {
    // An Open WebUI export of 200 chats of 20 messages (about 0.8 MB).
    const chats = [];
    for (let c = 0; c < 200; c++) {
      const messages = {};
      for (let m = 0; m < 20; m++) {
        messages[`c${c}m${m}`] = { id: `c${c}m${m}`, parentId: m ? `c${c}m${m - 1}` : null, childrenIds: m < 19 ? [`c${c}m${m + 1}`] : [], role: m % 2 ? 'assistant' : 'user', content: `chat ${c} message ${m} ` + 'some words of a turn '.repeat(8), timestamp: 1700000000 + m };
      }
      chats.push({ id: `chat${c}`, title: `chat ${c}`, chat: { history: { currentId: `c${c}m19`, messages } } });
    }
    const text = JSON.stringify(chats);
    const tree = await window.sessiontree.init({ persist: false });
    const controller = new AbortController();
    const seen = [];
    const aborted = await tree.importText(text, 'auto', {
      sliceBytes: 16 << 10,
      signal: controller.signal,
      onProgress: (p) => {
        seen.push(p);
        if (seen.length === 2) controller.abort();
      },
    });
    const after = (await tree.call({ operation: 'sessions' })).value.length;
    const progress = [];
    const done = await tree.importText(text, 'auto', { sliceBytes: 64 << 10, onProgress: (p) => progress.push(p) });
    return { aborted, seenBeforeAbort: seen.length, after, done: done.ok && done.value.sessions.length, slices: progress.length, last: progress.at(-1), total: (await tree.call({ operation: 'sessions' })).value.length };
  });
  assert.deepEqual(r.aborted, { ok: false, error: { code: 'INVALID_ARGUMENT', message: 'import aborted; nothing was imported' } });
  assert.ok(r.seenBeforeAbort >= 2);
  assert.equal(r.after, 0, 'nothing of the aborted import stays');
  assert.equal(r.done, 200);
  assert.ok(r.slices > 3, `slices: ${r.slices}`);
  assert.equal(r.last.read, r.last.total);
  assert.equal(r.total, 200);
  await page.close();
});

both('a large context (more than 10,000 messages, over 1 MiB of non-ASCII text) built in slices equals callText\'s, before and after an append', async () => {
  const page = await shimPage();
  const r = await page.evaluate(async () => {
    const tree = await window.sessiontree.init({ persist: false });
    const n = 30000;
    const nodes = [];
    for (let i = 0; i < n; i++) {
      // 2-, 3- and 4-byte characters, so slices of 1 MiB split some of them.
      const content = i % 7 === 0 ? `plain ${i}` : `é${i} 中文 🙂${'ü'.repeat(20 + (i % 13))}`;
      nodes.push({ id: 'w' + i, parentId: i ? 'w' + (i - 1) : null, branch: 'main', kind: 'message', timestamp: '2026-11-29T12:00:00.000Z', message: i % 5 === 0 ? { content, role: 'user' } : { role: 'assistant', content } });
    }
    await tree.call({ operation: 'snapshot.load', sessionId: 'wide', snapshot: { version: 1, sessionId: 'wide', cursor: 'w' + (n - 1), activeBranch: 'main', nodes } });
    const same = async () => {
      const [parsed, text] = await Promise.all([tree.call({ operation: 'context', sessionId: 'wide' }), tree.callText({ operation: 'context', sessionId: 'wide' })]);
      return { same: JSON.stringify(parsed) === JSON.stringify(JSON.parse(text)), n: parsed.value.messages.length, bytes: new TextEncoder().encode(text).length };
    };
    const out = [await same()];
    await tree.call({ operation: 'append', sessionId: 'wide', message: { role: 'user', content: 'après 🙂' } });
    out.push(await same());
    // Two at once: both built, in order, from the same caches.
    const [a, b] = await Promise.all([tree.call({ operation: 'context', sessionId: 'wide' }), tree.call({ operation: 'context', sessionId: 'wide' })]);
    out.push(JSON.stringify(a) === JSON.stringify(b) && a.value.messages.at(-1).content === 'après 🙂');
    return out;
  });
  assert.equal(r[0].same, true);
  assert.equal(r[0].n, 30000);
  assert.ok(r[0].bytes > 2e6, `context bytes ${r[0].bytes}`);
  assert.deepEqual(r[1].same, true);
  assert.equal(r[1].n, 30001);
  assert.equal(r[2], true);
  await page.close();
});
