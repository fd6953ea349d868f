// Page tests of the memory budget and of the store's restart (issue 19,
// item 1), in headless Chromium with the real shim and wasm: a request
// that would pass the budget is refused naming its size and the limit and
// changes nothing; a series of snapshot.loads is refused once the budget
// is reached and the tab keeps working; a Go runtime that exits with calls
// in flight answers them STORAGE_ERROR, restarts its worker from
// IndexedDB and tells subscribers; in the page's thread every helper
// answers STORAGE_ERROR after the exit and init() starts again.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openShimPage } from './helpers.mjs';

let env;
before(async () => {
  env = await setup();
});
after(() => env?.close());

/**
 * The shim page, the store in its worker (worker undefined) or in the
 * page's thread (false: ?worker=0, every init() gets {worker: false}).
 * Both share the context's IndexedDB: each test names its own databases.
 */
async function shimPage(worker) {
  const page = await openShimPage(env);
  if (worker === false) {
    await page.goto(env.baseURL + 'e2e/fixtures/shim.html?worker=0');
    await page.waitForFunction(() => window.sessiontree);
  }
  return page;
}

/** A test run with the store in its worker, then in the page's thread; page errors fail it. */
function both(name, fn) {
  for (const worker of [undefined, false]) {
    test(name + (worker === false ? ' (store in the page thread)' : ''), async () => {
      await fn(worker);
      assert.deepEqual(env.errors, []);
    });
  }
}

/**
 * In the page: window.snapshotText(id, n, size) is the JSON text of a
 * snapshot of one chain of n message nodes with about size characters of
 * text each, built as one string (no JSON.stringify of a large object).
 */
async function defineSnapshots(page) {
  await page.evaluate(() => {
    window.snapshotText = (id, n, size) => {
      const filler = 'lorem ipsum dolor sit amet '.repeat(Math.ceil(size / 27)).slice(0, size);
      const nodes = new Array(n);
      for (let i = 0; i < n; i++) {
        nodes[i] = `{"id":"n${i}","parentId":${i === 0 ? 'null' : `"n${i - 1}"`},"branch":"main","kind":"message","timestamp":"2026-12-01T12:00:00.000Z","message":{"role":"${i % 2 ? 'assistant' : 'user'}","content":"${i} ${filler}"}}`;
      }
      return `{"version":1,"sessionId":${JSON.stringify(id)},"cursor":"n${n - 1}","activeBranch":"main","nodes":[${nodes.join(',')}]}`;
    };
  });
}

both('a request, a load and an import that would pass the budget are refused naming their size and the limit, and change nothing', async (worker) => {
  const page = await shimPage(worker);
  await defineSnapshots(page);
  const budget = 48 << 20;
  const r = await page.evaluate(async ({ budget, worker }) => {
    const tree = await window.sessiontree.init({ dbName: `budget-refused-${worker}`, memoryBudget: budget, worker });
    await tree.create('small');
    await tree.append('small', { role: 'user', content: 'hello' });
    const before = (await tree.call({ operation: 'sessions' })).value;
    // 21 MB of request: × 3 (RequestGrowth) passes 48 MiB whatever is in use.
    const text = window.snapshotText('big', 50_000, 380);
    const request = `{"operation":"snapshot.load","sessionId":"big","snapshot":${text}}`;
    const bytes = new TextEncoder().encode(request);
    const call = await tree.call(request);
    const callBytes = await tree.call(bytes);
    const load = await tree.loadSnapshot('big', new Blob([text]));
    const file = await tree.importFile(new Blob([text]));
    const imported = await tree.importText(text);
    const after = (await tree.call({ operation: 'sessions' })).value;
    const context = await tree.context('small');
    return { size: bytes.length, blobSize: new Blob([text]).size, call, callBytes, load, file, imported, before, after, context };
  }, { budget, worker });
  for (const [name, env] of Object.entries({ call: r.call, callBytes: r.callBytes, load: r.load, file: r.file, importText: r.imported })) {
    assert.equal(env.ok, false, name);
    assert.equal(env.error.code, 'INVALID_ARGUMENT', `${name}: ${env.error.message}`);
    assert.match(env.error.message, new RegExp(`memory budget of ${budget} bytes`), name);
    assert.match(env.error.message, /nothing was changed/, name);
  }
  assert.match(r.callBytes.error.message, new RegExp(`^request of ${r.size} bytes refused`), 'the bytes are refused before they are copied');
  assert.match(r.load.error.message, /^request of \d+ bytes refused/);
  assert.match(r.file.error.message, new RegExp(`^import buffer of ${r.blobSize} bytes refused`));
  assert.match(r.imported.error.message, /^import buffer of \d+ bytes refused/);
  assert.deepEqual(r.after, r.before, 'the store is unchanged');
  assert.deepEqual(r.context.value.messages, [{ role: 'user', content: 'hello' }]);
  await page.close();
});

both('a budget reached by a series of snapshot.loads refuses the next one, and the tab keeps working; clones that fill it are refused and reads still answer', async (worker) => {
  const page = await shimPage(worker);
  await defineSnapshots(page);
  const budget = 160 << 20;
  const r = await page.evaluate(async ({ budget, worker }) => {
    const tree = await window.sessiontree.init({ persist: false, memoryBudget: budget, worker });
    const text = window.snapshotText('s', 20_000, 380); // ~8.4 MB
    const loads = [];
    let refused = null;
    for (let i = 0; i < 40 && !refused; i++) {
      const env = await tree.loadSnapshot(`s${i}`, text.replace('"sessionId":"s"', `"sessionId":"s${i}"`));
      if (env.ok) loads.push(env.value.nodeCount);
      else refused = env.error;
    }
    const debug = await tree._debug();
    const sessions = await tree.call({ operation: 'sessions' });
    const appended = await tree.append('s0', { role: 'user', content: 'after the budget' });
    const context = await tree.context('s0');
    const created = await tree.create('fresh');
    // Clones are small requests that grow the heap: the budget sees the
    // growth at the next call (the wasm memory grew) and refuses them too;
    // reads still answer once the store is full.
    let clones = 0;
    let cloneRefused = null;
    for (; clones < 60 && !cloneRefused; clones++) {
      const env = await tree.clone('s0');
      if (!env.ok) cloneRefused = env.error;
    }
    const full = {
      sessions: (await tree.call({ operation: 'sessions' })).ok,
      context: (await tree.context('s0')).value?.messages.length,
      search: (await tree.search('lorem', { limit: 1 })).ok,
      append: await tree.append('s0', { role: 'user', content: 'full' }),
    };
    return { size: text.length, loads, refused, debug, sessions: sessions.value.length, appended: appended.ok, tail: context.value.messages.at(-1), count: context.value.messages.length, created: created.ok, clones, cloneRefused, full };
  }, { budget, worker });
  console.log(`memory: ${r.loads.length} loads of ${(r.size / 1e6).toFixed(1)} MB fit a ${budget}-byte budget; then in use ${r.debug.memory.inUse} bytes, wasm memory ${r.debug.wasmBytes} bytes`);
  assert.ok(r.loads.length >= 2, `${r.loads.length} loads fit`);
  assert.ok(r.loads.every((n) => n === 20_000));
  assert.ok(r.refused, 'a load was refused within 40');
  assert.equal(r.refused.code, 'INVALID_ARGUMENT');
  assert.match(r.refused.message, new RegExp(`^request of \\d+ bytes refused: .* memory budget of ${budget} bytes`));
  assert.ok(r.debug.memory.inUse <= budget, `in use ${r.debug.memory.inUse} ≤ the budget`);
  assert.equal(r.sessions, r.loads.length, 'every load that answered ok is there, the refused one is not');
  assert.ok(r.appended && r.created);
  assert.equal(r.count, 20_001);
  assert.deepEqual(r.tail, { role: 'user', content: 'after the budget' });
  console.log(`memory: ${r.clones - 1} clones fit before one was refused`);
  assert.ok(r.cloneRefused, 'a clone was refused within 60');
  assert.equal(r.cloneRefused.code, 'INVALID_ARGUMENT');
  assert.match(r.cloneRefused.message, new RegExp(`memory budget of ${budget} bytes`));
  assert.deepEqual({ ...r.full, append: r.full.append.error?.code }, { sessions: true, context: 20_001, search: true, append: 'INVALID_ARGUMENT' }, 'a full store reads and refuses changes');
  await page.close();
});

test('init refuses a memoryBudget that is not a positive integer up to 2^32', async () => {
  const page = await openShimPage(env);
  const messages = await page.evaluate(async () => {
    const out = [];
    for (const memoryBudget of [0, -1, 1.5, '1000', 2 ** 33]) {
      out.push(await window.sessiontree.init({ persist: false, memoryBudget }).then(() => 'resolved', (err) => err.message));
      out.push(await window.sessiontree.init({ persist: false, memoryBudget, worker: false }).then(() => 'resolved', (err) => err.message));
    }
    return out;
  });
  for (const m of messages) assert.match(m, /^sessiontree: init: option "memoryBudget" must be a positive integer of bytes up to 4294967296; got /);
  await page.close();
});

/** The page's store worker (js/worker.bundle.js, init()'s default), once it is running. */
async function storeWorker(page) {
  await page.waitForFunction(() => true);
  for (;;) {
    const w = page.workers().find((x) => x.url().endsWith('/js/worker.bundle.js'));
    if (w) return w;
    await page.waitForEvent('worker');
  }
}

test('a Go runtime that exits with calls in flight answers them STORAGE_ERROR, restarts from IndexedDB, tells subscribers, and works on', async () => {
  const page = await openShimPage(env);
  await page.evaluate(async () => {
    const tree = await window.sessiontree.init({ dbName: 'restart' });
    window.tree = tree;
    window.events = [];
    tree.subscribe((e) => window.events.push(e));
    await tree.create('keep');
    for (let i = 0; i < 5; i++) await tree.append('keep', { role: 'user', content: `kept ${i}` });
    const saved = await tree.saveSnapshot('keep', 'point');
    if (!saved.ok) throw new Error(JSON.stringify(saved));
    // Hold the write lock, so the calls below wait in the worker's Writer
    // (in flight) until the runtime exits.
    await new Promise((granted) => {
      navigator.locks.request('sessiontree-write:restart', () => new Promise((letGo) => {
        window.letGo = letGo;
        granted();
      }));
    });
    window.inflight = [
      tree.append('keep', { role: 'user', content: 'never acknowledged' }),
      tree.create('lost'),
      tree.callText({ operation: 'append', sessionId: 'keep', message: { role: 'user', content: 'x' } }),
      tree.loadSnapshot('lost2', { version: 1, sessionId: 'lost2', cursor: null, activeBranch: 'main', nodes: [] }),
      tree.call({ operation: 'sessions' }), // a read queued behind the writes
    ];
  });
  const first = await storeWorker(page);
  // As the runtime's own "fatal error: out of memory" would: a line on
  // stderr, then the exit.
  await first.evaluate(() => globalThis.sessiontreeWasm.exit(2, 'fatal error: out of memory (forced by the test)'));
  const { inflight, during } = await page.evaluate(async () => {
    const answers = await Promise.all(window.inflight);
    // Answered as the restart began: a call made now waits for the new worker.
    const during = window.tree.call({ operation: 'session', sessionId: 'keep' });
    window.letGo();
    return { inflight: answers.map((a) => (typeof a === 'string' ? JSON.parse(a) : a)), during: await during };
  });
  const reason = 'the Go runtime exited (code 2: fatal error: out of memory (forced by the test))';
  for (const a of inflight) {
    assert.equal(a.ok, false);
    assert.equal(a.error.code, 'STORAGE_ERROR');
    assert.equal(a.error.message, `storage error: the store restarted; nothing acknowledged was lost (${reason})`);
  }
  assert.equal(during.ok, true, JSON.stringify(during));
  assert.equal(during.value.nodeCount, 5, 'a call made during the restart is answered by the restored store');
  await page.waitForFunction(() => window.events.some((e) => e.type === 'restarted'));
  const r = await page.evaluate(async () => {
    const tree = window.tree;
    const restarted = window.events.filter((e) => e.type === 'restarted');
    const sessions = (await tree.call({ operation: 'sessions' })).value.map((s) => [s.sessionId, s.nodeCount]);
    const context = (await tree.context('keep')).value.messages.map((m) => m.content);
    const appended = await tree.append('keep', { role: 'assistant', content: 'after the restart' });
    const text = JSON.parse(await tree.callText({ operation: 'session', sessionId: 'keep' }));
    const search = await tree.search('restart');
    const points = await tree.listSnapshots('keep');
    const saved = await tree.saveSnapshot('keep', 'later');
    const restored = await tree.restoreSnapshot('keep', 'point');
    const imported = await tree.importText(JSON.stringify([{ id: 'owui', title: 'Imported', chat: { history: { currentId: 'm1', messages: { m1: { id: 'm1', parentId: null, role: 'user', content: 'imported after the restart', timestamp: 1700000000 } } } } }]));
    const after = (await tree.context('keep')).value.messages.length;
    return { restarted, sessions, context, appended: appended.ok, text: text.value.nodeCount, hits: search.value?.total, points: points.value?.map((p) => p.name), saved: saved.ok, restored: restored.ok, imported: imported.ok ? imported.value.sessions.length : imported.error, after };
  });
  console.log(`restart: ${r.restarted[0].ms.toFixed(0)} ms from the exit to the trees restored`);
  assert.equal(r.restarted.length, 1);
  assert.equal(r.restarted[0].reason, reason);
  assert.deepEqual(r.sessions, [['keep', 5]], 'every acknowledged node is there, nothing in flight is');
  assert.deepEqual(r.context, ['kept 0', 'kept 1', 'kept 2', 'kept 3', 'kept 4']);
  assert.equal(r.appended, true);
  assert.equal(r.text, 6);
  assert.equal(r.hits, 1);
  assert.deepEqual(r.points, ['point']);
  assert.equal(r.saved, true);
  assert.equal(r.restored, true);
  assert.equal(r.imported, 1);
  assert.equal(r.after, 5, 'the restore point brought back 5 nodes');
  assert.equal(page.workers().filter((w) => w.url().endsWith('/js/worker.bundle.js')).length, 1, 'the old worker was ended');
  assert.deepEqual(env.errors, []);
  await page.close();
});

test('in the page thread, a Go runtime that exits leaves every helper answering STORAGE_ERROR, and init() again restores the store', async () => {
  const page = await shimPage(false);
  const r = await page.evaluate(async () => {
    const tree = await window.sessiontree.init({ dbName: 'exit-local', worker: false });
    const events = [];
    tree.subscribe((e) => events.push(e));
    await tree.create('keep');
    for (let i = 0; i < 3; i++) await tree.append('keep', { role: 'user', content: `kept ${i}` });
    await tree.saveSnapshot('keep', 'point');
    const inflight = tree.append('keep', { role: 'user', content: 'in flight' }); // queued for its transaction
    globalThis.sessiontreeWasm.exit(2);
    const answers = {
      inflight: await inflight,
      call: await tree.call({ operation: 'sessions' }),
      callText: JSON.parse(await tree.callText({ operation: 'sessions' })),
      context: await tree.context('keep'),
      append: await tree.append('keep', { role: 'user', content: 'x' }),
      search: await tree.search('kept'),
      command: await tree.command('/tree list', { sessionId: 'keep' }),
      remote: await tree.remote.list('keep'),
      importText: await tree.importText('[]'),
      importFile: await tree.importFile(new Blob(['[]'])),
      loadSnapshot: await tree.loadSnapshot('keep', '{}'),
      saveSnapshot: await tree.saveSnapshot('keep', 'p'),
      listSnapshots: await tree.listSnapshots('keep'),
      restoreSnapshot: await tree.restoreSnapshot('keep', 'point'),
    };
    await tree.flush();
    await tree.refresh();
    const storage = await tree.storage();
    const again = await window.sessiontree.init({ dbName: 'exit-local', worker: false });
    const context = (await again.context('keep')).value.messages.map((m) => m.content);
    const appended = (await again.append('keep', { role: 'user', content: 'after init again' })).ok;
    return { answers, events, storage: storage.state, same: again === tree, context, appended };
  });
  for (const [name, a] of Object.entries(r.answers)) {
    assert.equal(a.ok, false, name);
    assert.equal(a.error.code, 'STORAGE_ERROR', `${name}: ${a.error.message}`);
    assert.match(a.error.message, /the store stopped: the Go runtime exited \(code 2\); nothing acknowledged was lost/, name);
  }
  assert.deepEqual(r.events.filter((e) => e.type === 'storage').map((e) => [e.state, e.reason]), [['closed', 'exited']]);
  assert.equal(r.storage, 'closed');
  assert.equal(r.same, false, 'init() again gives a new tree');
  assert.deepEqual(r.context, ['kept 0', 'kept 1', 'kept 2']);
  assert.equal(r.appended, true);
  assert.deepEqual(env.errors, []);
  await page.close();
});

test('init refuses options of the wrong type, naming them (a number as dbName opened the database "5")', async () => {
  const page = await openShimPage(env);
  const messages = await page.evaluate(async () => {
    const out = [];
    for (const options of [5, 'x', { dbName: 5 }, { dbName: '' }, { persist: 'no' }, { worker: 0 }]) {
      out.push(await window.sessiontree.init(options).then(() => 'resolved', (err) => err.message));
    }
    return out;
  });
  assert.deepEqual(messages, [
    'sessiontree: init: options must be an object like {dbName: "chats"}; got 5',
    'sessiontree: init: options must be an object like {dbName: "chats"}; got "x"',
    'sessiontree: init: option "dbName" must be a non-empty string; got 5',
    'sessiontree: init: option "dbName" must be a non-empty string; got ""',
    'sessiontree: init: option "persist" must be true or false; got "no"',
    'sessiontree: init: option "worker" must be true or false; got 0',
  ]);
  await page.close();
});
