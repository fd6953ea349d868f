// A persisted init() reads the session list in the page's own thread
// while its worker starts (js/store/listing.js readList, js/sessiontree.js
// Connection.init): it answers `sessions` before the worker runs at all,
// holds every other call until the worker's tree has started and answers
// them in the order they were made; when the package's default worker
// cannot start, the store runs in the page's thread instead, and a worker
// that was asked for by URL and cannot start closes the tree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './helpers.mjs';
import { writeSessions } from './stored-sessions.mjs';

const SHIM = 'e2e/fixtures/shim.html';

async function open(env, ...setupScripts) {
  const page = await env.newPage();
  for (const script of setupScripts) await page.addInitScript(script);
  await page.goto(env.baseURL + SHIM);
  await page.waitForFunction(() => window.sessiontree !== undefined);
  return page;
}

/** An init script: window.order gets "sessions read" at each success of a getAll of the "sessions" store (a read of the whole list). */
function logListReads() {
  window.order = [];
  const getAll = IDBObjectStore.prototype.getAll;
  IDBObjectStore.prototype.getAll = function (...args) {
    const request = getAll.apply(this, args);
    if (this.name === 'sessions') request.addEventListener('success', () => window.order.push('sessions read'));
    return request;
  };
}

/** Store count sessions of 2 messages in database db, from a page of their own. */
async function stored(env, db, count) {
  const page = await open(env);
  await page.evaluate(async (db) => (await window.sessiontree.init({ dbName: db })).close(), db);
  await writeSessions(page, { db, count, nodes: 2 });
  await page.close();
}

test('a persisted init() answers `sessions` from the page\'s own read before its worker runs; calls made meanwhile wait and answer in order, and the list is core\'s', async () => {
  const env = await setup();
  try {
    const db = 'page-list';
    await stored(env, db, 30);
    const page = await open(env);
    const r = await page.evaluate(async (db) => {
      const channel = new BroadcastChannel('late-a');
      const heard = [];
      channel.onmessage = ({ data }) => heard.push(data);
      const tree = await window.sessiontree.init({ dbName: db, workerURL: '/e2e/fixtures/late-worker.js?channel=late-a' });
      const early = await tree.call({ operation: 'sessions' });
      // Each early answer is the caller's own: changing one changes no other.
      const changed = await tree.call({ operation: 'sessions' });
      changed.value[0].title = 'changed by its caller';
      changed.value.length = 1;
      const again = await tree.call({ operation: 'sessions' });
      // A request whose getter throws never throws out of call(), before the worker runs too.
      let threw = null;
      let bad = null;
      try {
        bad = tree.call({ get operation() { throw new Error('a getter that throws'); } });
      } catch (err) {
        threw = String(err);
      }
      const settled = [];
      const track = (name, p) => p.then((env) => (settled.push(name), env));
      const create = track('create', tree.call({ operation: 'create', sessionId: 'made-meanwhile', title: 'made while the worker waited' }));
      const after = track('sessions', tree.call({ operation: 'sessions' }));
      const append = track('append', tree.call({ operation: 'append', sessionId: 's0003', message: { role: 'user', content: 'made while the worker waited' } }));
      const text = track('callText', tree.callText({ operation: 'session', sessionId: 'made-meanwhile' }));
      await new Promise((resolve) => setTimeout(resolve, 300));
      const before = { settled: [...settled], heard: [...heard] };
      while (!heard.includes('loaded')) await new Promise((resolve) => setTimeout(resolve, 20));
      channel.postMessage('start');
      const answers = { create: await create, after: await after, append: await append, text: JSON.parse(await text), bad: await bad, threw };
      const core = await tree.call({ operation: 'sessions' });
      const context = await tree.call({ operation: 'context', sessionId: 's0003' });
      return { early, again, before, settled, answers, core, context: context.value.messages.map((m) => m.content) };
    }, db);
    assert.equal(r.early.ok, true);
    assert.equal(r.early.value.length, 30);
    assert.deepEqual(r.again, r.early, 'a caller that changes its answer changes no later one');
    assert.equal(r.again.value.length, 30);
    assert.equal(r.early.value[0].title, 'title 0');
    assert.deepEqual(r.before.settled, [], 'every call but the first `sessions` waits for the worker');
    assert.equal(r.answers.create.ok, true, JSON.stringify(r.answers.create));
    assert.equal(r.answers.append.ok, true, JSON.stringify(r.answers.append));
    assert.deepEqual(r.answers.after.value.map((s) => s.sessionId).slice(-2), ['s0029', 'made-meanwhile'], 'the `sessions` made after the create answers after it');
    assert.equal(r.answers.text.value.title, 'made while the worker waited');
    assert.equal(r.answers.threw, null, 'call() did not throw');
    assert.deepEqual([r.answers.bad.ok, r.answers.bad.error.code], [false, 'INVALID_ARGUMENT'], JSON.stringify(r.answers.bad));
    assert.equal(r.settled.indexOf('create') < r.settled.indexOf('sessions'), true, JSON.stringify(r.settled));
    assert.deepEqual(r.context, ['session 3 message 0', 'session 3 message 1', 'made while the worker waited']);
    const untouched = (list) => list.filter((s) => s.sessionId !== 's0003' && s.sessionId !== 'made-meanwhile');
    assert.deepEqual(untouched(r.early.value), untouched(r.core.value), 'the page\'s list is core\'s');
    await page.close();
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('init() answers once the newest sessions are read, before the rest of the list: a page newest first answers from them, a page past them once the list is read, each as core pages it', async () => {
  const env = await setup();
  try {
    const db = 'page-list-head';
    await stored(env, db, 500);
    // s0100 was appended to under a held lock (tail: true): its node record after its meta puts it first.
    const writer = await open(env);
    await writer.evaluate(async (db) => {
      const req = (r) => new Promise((resolve, reject) => ((r.onsuccess = () => resolve(r.result)), (r.onerror = () => reject(r.error))));
      const idb = await req(indexedDB.open(db));
      const tx = idb.transaction(['sessions', 'nodes'], 'readwrite');
      const meta = await req(tx.objectStore('sessions').get('s0100'));
      await req(tx.objectStore('sessions').put({ ...meta, tail: true, tailMark: 1 }, 's0100'));
      const last = JSON.parse(await req(tx.objectStore('nodes').get(['s0100', 1])));
      await req(tx.objectStore('nodes').put(JSON.stringify({ ...last, id: 's0100n2', parentId: last.id, timestamp: '2027-01-01T00:00:00.000Z' }), ['s0100', 2]));
      idb.close();
    }, db);
    await writer.close();
    // Every read of the whole "sessions" store, in order with init's answer and the first page's.
    const page = await open(env, logListReads);
    const r = await page.evaluate(async (db) => {
      const channel = new BroadcastChannel('late-head');
      const heard = [];
      channel.onmessage = ({ data }) => heard.push(data);
      const tree = await window.sessiontree.init({ dbName: db, workerURL: '/e2e/fixtures/late-worker.js?channel=late-head' });
      window.order.push('init');
      const first = await tree.call({ operation: 'sessions', order: 'updated', limit: 50 });
      window.order.push('first page');
      const walk = async () => {
        const pages = [];
        for (let before = null; ;) {
          const env = await tree.call({ operation: 'sessions', order: 'updated', limit: 120, ...(before ? { before } : {}) });
          pages.push(env);
          if (!env.ok || env.value.length < 120) return pages;
          before = { updatedAt: env.value[119].updatedAt, sessionId: env.value[119].sessionId };
        }
      };
      const early = await walk();
      while (!heard.includes('loaded')) await new Promise((resolve) => setTimeout(resolve, 20));
      channel.postMessage('start');
      await tree.call({ operation: 'context', sessionId: 's0001' }); // answered by the wasm: the tree has started
      return { order: window.order, first, early, core: await walk() };
    }, db);
    assert.deepEqual(r.order.slice(0, 3), ['init', 'first page', 'sessions read'], 'init and the first page answered before the list was read');
    assert.deepEqual(r.first.value.slice(0, 3).map((s) => [s.sessionId, s.nodeCount]), [['s0100', 3], ['s0499', 2], ['s0498', 2]]);
    assert.equal(r.first.value.length, 50);
    assert.deepEqual(r.early, r.core, 'every page before the wasm started is core\'s');
    assert.equal(r.early.flatMap((e) => e.value).length, 500);
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('the package\'s worker is made once the page has read the session list (its start would share the cores with the read), and takes every record read before it', async () => {
  const env = await setup();
  try {
    const db = 'page-list-first';
    await stored(env, db, 40);
    // Every Worker made and every success of a read of the "sessions" store, in order.
    const page = await open(env, logListReads, () => {
      const NativeWorker = window.Worker;
      window.Worker = class extends NativeWorker {
        constructor(...args) {
          window.order.push('worker');
          super(...args);
        }
      };
    });
    const r = await page.evaluate(async (db) => {
      const tree = await window.sessiontree.init({ dbName: db });
      const list = await tree.call({ operation: 'sessions' });
      const context = await tree.call({ operation: 'context', sessionId: 's0039' });
      return { order: window.order, listed: list.value.length, messages: context.value.messages.length, counts: (await tree._debug()).readCounts };
    }, db);
    assert.deepEqual(r.order, ['sessions read', 'worker'], 'the page read the list, then made the worker (which read no list of its own)');
    assert.deepEqual([r.listed, r.messages], [40, 2]);
    assert.deepEqual(r.counts, { chunks: 0, nodes: 2, metas: 0, given: 1 });
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('the worker takes the meta records the page read instead of reading them again (the trash comes back whole, a meta with tail: true is brought up to date); when another tab wrote since the page read them, it reads them itself', async () => {
  const env = await setup();
  try {
    const db = 'page-list-given';
    await stored(env, db, 10);
    const trashing = await open(env);
    await trashing.evaluate(async (db) => {
      const tree = await window.sessiontree.init({ dbName: db });
      await tree.call({ operation: 'delete', sessionId: 's0002' });
      await tree.flush(); // its meta written without tail: true (a tail would send both reads to the worker's own)
      await tree.close();
    }, db);
    await trashing.close();

    const page = await open(env);
    const given = await page.evaluate(async (db) => {
      const tree = await window.sessiontree.init({ dbName: db });
      const list = await tree.call({ operation: 'sessions' });
      const trash = await tree.call({ operation: 'trash.list' });
      const context = await tree.call({ operation: 'context', sessionId: 's0002' });
      const restored = await tree.call({ operation: 'trash.restore', sessionId: 's0002' });
      const after = await tree.call({ operation: 'context', sessionId: 's0002' });
      return { listed: list.value.length, trash: trash.value.map((t) => t.sessionId), inTrash: context.error?.code, restored: restored.ok, messages: after.value.messages.map((m) => m.content), counts: (await tree._debug()).readCounts };
    }, db);
    assert.deepEqual(given, { listed: 9, trash: ['s0002'], inTrash: 'SESSION_NOT_FOUND', restored: true, messages: ['session 2 message 0', 'session 2 message 1'], counts: { chunks: 0, nodes: 2, metas: 0, given: 1 } });
    await page.close();

    // The page reads the list; another tab appends before the worker runs
    // (it hears nothing of it then); the worker finds the gen moved and
    // reads the meta records itself.
    const late = await open(env);
    const other = await open(env);
    await late.evaluate(async (db) => {
      const channel = new BroadcastChannel('late-given');
      const heard = [];
      channel.onmessage = ({ data }) => heard.push(data);
      window.tree = await window.sessiontree.init({ dbName: db, workerURL: '/e2e/fixtures/late-worker.js?channel=late-given' });
      window.early = (await window.tree.call({ operation: 'sessions' })).value.find((s) => s.sessionId === 's0001').nodeCount;
      while (!heard.includes('loaded')) await new Promise((resolve) => setTimeout(resolve, 20));
      window.startWorker = () => channel.postMessage('start');
    }, db);
    const appended = await other.evaluate(async (db) => {
      const tree = await window.sessiontree.init({ dbName: db });
      const env = await tree.call({ operation: 'append', sessionId: 's0001', message: { role: 'user', content: 'from the other tab' } });
      await tree.flush();
      await tree.close();
      return env.ok;
    }, db);
    assert.equal(appended, true);
    const read = await late.evaluate(async () => {
      window.startWorker();
      const list = await window.tree.call({ operation: 'context', sessionId: 's0001' });
      const sessions = await window.tree.call({ operation: 'sessions' });
      return { early: window.early, messages: list.value.messages.map((m) => m.content), nodeCount: sessions.value.find((s) => s.sessionId === 's0001').nodeCount, counts: (await window.tree._debug()).readCounts };
    });
    assert.deepEqual(read, { early: 2, messages: ['session 1 message 0', 'session 1 message 1', 'from the other tab'], nodeCount: 3, counts: { chunks: 0, nodes: 3, metas: 1, given: 0 } });
    await late.close();
    await other.close();

    // A tab killed before its meta flush leaves a meta with tail: true and
    // node records after its nodeCount (written here as such a tab leaves
    // them): the page brings it up to date from them and answers from its
    // list before the worker runs; the worker takes its records and reads
    // the node records after that meta.
    const tailing = await open(env);
    await tailing.evaluate(async (db) => {
      const req = (r) => new Promise((resolve, reject) => ((r.onsuccess = () => resolve(r.result)), (r.onerror = () => reject(r.error))));
      const idb = await req(indexedDB.open(db));
      const tx = idb.transaction(['sessions', 'nodes'], 'readwrite');
      const meta = await req(tx.objectStore('sessions').get('s0003'));
      meta.tail = true;
      tx.objectStore('sessions').put(meta, 's0003');
      const node = { id: 's0003n2', parentId: 's0003n1', branch: 'side', kind: 'message', timestamp: '2026-06-01T00:00:00.000Z', message: { role: 'user', content: 'after the meta' } };
      tx.objectStore('nodes').put(JSON.stringify(node), ['s0003', 2]);
      await new Promise((resolve, reject) => ((tx.oncomplete = resolve), (tx.onabort = () => reject(tx.error))));
      idb.close();
    }, db);
    await tailing.close();
    const next = await open(env);
    const taken = await next.evaluate(async (db) => {
      const channel = new BroadcastChannel('late-tail');
      const heard = [];
      channel.onmessage = ({ data }) => heard.push(data);
      const tree = await Promise.race([
        window.sessiontree.init({ dbName: db, workerURL: '/e2e/fixtures/late-worker.js?channel=late-tail' }),
        new Promise((resolve) => setTimeout(() => resolve(null), 5000)),
      ]);
      if (tree === null) return { early: 'init() waited for the worker' };
      const pick = (list) => list.value.find((s) => s.sessionId === 's0003');
      const { nodeCount, cursor, activeBranch, updatedAt } = pick(await tree.call({ operation: 'sessions' }));
      while (!heard.includes('loaded')) await new Promise((resolve) => setTimeout(resolve, 20));
      channel.postMessage('start');
      const context = await tree.call({ operation: 'context', sessionId: 's0003' });
      const core = pick(await tree.call({ operation: 'sessions' }));
      return { early: { nodeCount, cursor, activeBranch, updatedAt }, core: { nodeCount: core.nodeCount, cursor: core.cursor, activeBranch: core.activeBranch, updatedAt: core.updatedAt }, last: context.value.messages.at(-1).content, counts: (await tree._debug()).readCounts };
    }, db);
    const derived = { nodeCount: 3, cursor: 's0003n2', activeBranch: 'side', updatedAt: '2026-06-01T00:00:00.000Z' };
    assert.deepEqual(taken, { early: derived, core: derived, last: 'after the meta', counts: { chunks: 0, nodes: 1 + 3, metas: 0, given: 1 } });
    await next.close();
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('a worker that reads the list itself (another tab wrote since the page read it) sends it to the page, which answers `sessions` from it before the store starts', async () => {
  const env = await setup();
  try {
    const db = 'page-list-listed';
    await stored(env, db, 30);
    const page = await open(env);
    const other = await open(env);
    // Its worker runs once "start" is posted, and its Go program once "run" is.
    const before = await page.evaluate(async (db) => {
      window.channel = new BroadcastChannel('listed-a');
      window.tree = await window.sessiontree.init({ dbName: db, workerURL: '/e2e/fixtures/held-wasm-worker.js?channel=listed-a&late' });
      return (await window.tree.call({ operation: 'sessions' })).value.map((s) => s.sessionId);
    }, db);
    assert.equal(before.length, 30);
    const made = await other.evaluate(async (db) => {
      const tree = await window.sessiontree.init({ dbName: db });
      const env = await tree.call({ operation: 'create', sessionId: 'made-meanwhile', title: 'made by another tab' });
      await tree.close();
      return env.ok;
    }, db);
    assert.equal(made, true);
    const r = await page.evaluate(async () => {
      window.channel.postMessage('start');
      // The Go program is held: a list holding the other tab's session is the worker's, answered here.
      const deadline = performance.now() + 20000;
      let early = null;
      while (performance.now() < deadline) {
        early = (await window.tree.call({ operation: 'sessions' })).value.map((s) => s.sessionId);
        if (early.includes('made-meanwhile')) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      window.channel.postMessage('run');
      return { early };
    });
    assert.equal(r.early.length, 31);
    assert.equal(r.early.at(-1), 'made-meanwhile');
    const core = await page.evaluate(async () => (await window.tree.call({ operation: 'sessions' })).value.map((s) => s.sessionId));
    assert.deepEqual(core, r.early, 'the list is core\'s');
    await page.close();
    await other.close();
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('when the default worker cannot start after init() answered from the page\'s list, the store runs in the page\'s thread; a worker asked for by URL that cannot start closes the tree', async () => {
  const env = await setup();
  try {
    const db = 'page-list-fallback';
    await stored(env, db, 12);
    const warnings = [];
    const broken = await open(env, () => {
      const Real = window.Worker;
      window.Worker = class extends Real {
        constructor(url, options) {
          super(new URL('/e2e/fixtures/failing-worker.js', location.href), options);
        }
      };
    });
    broken.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
    const fell = await broken.evaluate(async (db) => {
      const tree = await window.sessiontree.init({ dbName: db });
      const list = await tree.call({ operation: 'sessions' });
      const append = await tree.call({ operation: 'append', sessionId: 's0004', message: { role: 'user', content: 'in the page' } });
      const context = await tree.call({ operation: 'context', sessionId: 's0004' });
      await tree.flush();
      return { listed: list.value.length, append: append.ok, last: context.value.messages.at(-1).content, pageRunsGo: typeof globalThis.sessiontreeWasm !== 'undefined' };
    }, db);
    assert.deepEqual(fell, { listed: 12, append: true, last: 'in the page', pageRunsGo: true });
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /^sessiontree: the store worker \(the package's own: js\/worker\.bundle\.js, or the name your bundler gave it\) failed.*; running the store in the page's thread$/);
    await broken.close();

    // What the page's thread stored is there for the next page, in its worker.
    const next = await open(env);
    const last = await next.evaluate(async (db) => {
      const tree = await window.sessiontree.init({ dbName: db });
      return (await tree.call({ operation: 'context', sessionId: 's0004' })).value.messages.at(-1).content;
    }, db);
    assert.equal(last, 'in the page');

    const closed = await next.evaluate(async (db) => {
      const events = [];
      const tree = await window.sessiontree.init({ dbName: db + '-other', workerURL: '/no/such/worker.js' }).catch((err) => err);
      if (tree instanceof Error) return { rejected: tree.message };
      tree.subscribe((e) => events.push(e));
      const append = await tree.call({ operation: 'append', sessionId: 's0001', message: { role: 'user', content: 'x' } });
      return { append: append.error?.code, events: events.map((e) => [e.type, e.state, e.reason]) };
    }, db);
    // A database the page never stored in has no list to answer from: init rejects, as it always did.
    assert.match(closed.rejected ?? '', /^sessiontree: the store worker .*no\/such\/worker\.js failed/);
    await next.close();

    // A stored one has: init answers from it, then the tree closes.
    const asked = await open(env);
    const shut = await asked.evaluate(async (db) => {
      const tree = await window.sessiontree.init({ dbName: db, workerURL: '/e2e/fixtures/failing-worker.js' });
      const events = [];
      tree.subscribe((e) => events.push(e));
      const list = await tree.call({ operation: 'sessions' });
      const append = await tree.call({ operation: 'append', sessionId: 's0001', message: { role: 'user', content: 'x' } });
      const after = await tree.call({ operation: 'sessions' });
      return { listed: list.value.length, append: append.error?.code, message: append.error?.message, after: after.error?.code, events: events.map((e) => [e.type, e.state, e.reason]) };
    }, db);
    assert.equal(shut.listed, 12);
    assert.equal(shut.append, 'STORAGE_ERROR');
    assert.match(shut.message, /the store worker .*failing-worker\.js failed: .*this worker fails on purpose/);
    assert.equal(shut.after, 'STORAGE_ERROR');
    assert.deepEqual(shut.events, [['storage', 'closed', 'failed']]);
    await asked.close();
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});
