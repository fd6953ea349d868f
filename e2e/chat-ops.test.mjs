// The operations a chat app needs (issue 27): node ids in context, the
// newest leaf and switch, bulk append, rename and delete with the trash,
// in headless Chromium through the shim page (the store in its Worker),
// with two tabs on one database and reloads. Each test starts a fresh
// browser context, so its IndexedDB starts empty.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { setup, REPO_ROOT } from './helpers.mjs';

const SHIM = 'e2e/fixtures/shim.html';
const DB = 'chat-ops';

/** Open the shim page (a new page when none is given), init() a tree on DB as window.tree, its events in window.events. */
async function open(env, page) {
  page ??= await env.newPage();
  await page.goto(env.baseURL + SHIM);
  await page.waitForFunction(() => window.sessiontree !== undefined);
  await page.evaluate(async (dbName) => {
    window.events = [];
    window.tree = await window.sessiontree.init({ dbName });
    window.tree.subscribe((e) => window.events.push(e));
  }, DB);
  return page;
}

/** call() in the page; the envelope's value, failing on an error envelope. */
async function value(page, request) {
  const env = await page.evaluate((r) => window.tree.call(r), request);
  assert.equal(env.ok, true, `${request.operation}: ${JSON.stringify(env.error)}`);
  return env.value;
}

/** A method of the tree in the page, e.g. call(page, 'rename', 's', 'T'): its envelope. */
function method(page, name, ...args) {
  return page.evaluate(({ name, args }) => window.tree[name](...args), { name, args });
}

/** Wait until the page heard an event matching every field of want; resolves to it. */
async function heard(page, want) {
  const handle = await page.waitForFunction((want) => window.events.find((e) => Object.entries(want).every(([k, v]) => e[k] === v)), want, { timeout: 20_000 });
  return handle.jsonValue();
}

/** What IndexedDB DB holds of a session: its meta record and how many node, chunk, annotation and restore-point records. */
function disk(page, sessionId) {
  return page.evaluate(({ db: name, sessionId }) => new Promise((resolve, reject) => {
    const open = indexedDB.open(name);
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const tx = db.transaction(['sessions', 'chunks', 'nodes', 'annotations', 'snapshots'], 'readonly');
      const range = IDBKeyRange.bound([sessionId, 0], [sessionId, Infinity]);
      const out = {};
      tx.objectStore('sessions').get(sessionId).onsuccess = (e) => (out.meta = e.target.result ?? null);
      for (const s of ['chunks', 'nodes', 'annotations']) tx.objectStore(s).count(range).onsuccess = (e) => (out[s] = e.target.result);
      tx.objectStore('snapshots').count(IDBKeyRange.bound([sessionId, ''], [sessionId, []])).onsuccess = (e) => (out.snapshots = e.target.result);
      tx.oncomplete = () => (db.close(), resolve(out));
    };
  }), { db: DB, sessionId });
}

const chat = [
  { role: 'user', content: 'Plan a trip to Lyon' },
  { role: 'assistant', content: 'Day 1: the old town.' },
];

test('one tab: context with ids (the plain context still in columns), leaf and switch, append.many in one transaction and all or nothing, after a reload (on a session not read since: paged out)', async () => {
  const env = await setup();
  try {
    const page = await open(env, env.page);
    const made = await value(page, { operation: 'append.many', sessionId: 'c', create: true, messages: chat });
    const [u1, a1] = made.nodeIds;
    await value(page, { operation: 'jump', sessionId: 'c', nodeId: u1 });
    const a2 = (await value(page, { operation: 'append', sessionId: 'c', message: { role: 'assistant', content: 'Day 1: the museums.' } })).id;

    // Settled first: a context is answered in columns when no write is
    // queued (the append's meta flush may still be).
    await page.evaluate(() => window.tree.flush());
    const before = (await page.evaluate(() => window.tree._debug())).columnAnswers;
    const plain = await method(page, 'context', 'c');
    assert.equal(plain.value.nodeIds, undefined, 'the plain context has no ids');
    assert.equal((await page.evaluate(() => window.tree._debug())).columnAnswers, before + 1, 'the plain context is answered in columns');
    const withIds = await method(page, 'context', 'c', { ids: true });
    assert.deepEqual(withIds.value.messages, plain.value.messages);
    assert.deepEqual(withIds.value.nodeIds, [u1, a2]);
    assert.deepEqual(withIds.value.siblings, [[u1], [a1, a2]]);

    assert.equal((await method(page, 'leaf', 'c', u1)).value.leaf, a2);
    const status = (await method(page, 'switchTo', 'c', { nodeId: a1 })).value;
    assert.equal(status.cursor, a1);
    assert.equal((await method(page, 'switchTo', 'c', { branch: status.activeBranch === 'main' ? 'main-2' : 'main' })).value.cursor, a2);
    assert.equal((await method(page, 'switchTo', 'c', {})).error.code, 'INVALID_ARGUMENT');

    await value(page, { operation: 'create', sessionId: 'm' });
    const writes = async () => {
      const s = (await page.evaluate(() => window.tree._debug())).writer;
      return s.genReads + s.genSkipped;
    };
    const w0 = await writes();
    const messages = Array.from({ length: 50 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `message ${i}` }));
    const got = (await method(page, 'appendMany', 'm', messages)).value;
    assert.equal(got.nodeIds.length, 50);
    assert.equal(await writes(), w0 + 1, 'one transaction');
    const events = await page.evaluate(() => window.events.filter((e) => e.type === 'append.many' && e.sessionId === 'm'));
    assert.equal(events.length, 1);
    assert.deepEqual(events[0].nodeIds, got.nodeIds, 'the event names the new nodes');
    assert.equal(events[0].cursor, got.nodeIds[49]);
    assert.equal(events[0].count, 50);
    assert.equal((await disk(page, 'm')).nodes, 50);
    const bad = await method(page, 'appendMany', 'm', [...messages.slice(0, 3), { content: 'no role' }]);
    assert.equal(bad.ok, false);
    assert.match(bad.error.message, /messages\[3\]/);
    assert.equal((await disk(page, 'm')).nodes, 50, 'nor left a node on disk');
    assert.equal((await value(page, { operation: 'session', sessionId: 'm' })).nodeCount, 50, 'nor in memory');
    const migrated = await method(page, 'appendMany', 'old', messages.slice(0, 4), { create: true, title: 'From the old app' });
    assert.equal(migrated.value.session.title, 'From the old app');

    const memory = await page.evaluate(async () => {
      const t = await window.sessiontree.init({ persist: false });
      const events = [];
      t.subscribe((e) => events.push(e));
      const got = await t.appendMany('mem', [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }], { create: true });
      return { ids: got.value.nodeIds, events };
    });
    assert.deepEqual(memory.events.map((e) => [e.type, e.nodeIds, e.cursor]), [['append.many', memory.ids, memory.ids[1]]], 'without storage too');

    await page.reload();
    await open(env, page);
    // append.many as the first call that needs the nodes of a session not read since the reload (paged out): it loads it.
    const more = await method(page, 'appendMany', 'old', [{ role: 'user', content: 'after the reload' }, { role: 'assistant', content: 'still here' }]);
    assert.equal(more.ok, true, JSON.stringify(more.error));
    assert.equal(more.value.session.nodeCount, 6);
    assert.equal((await value(page, { operation: 'session', sessionId: 'm' })).nodeCount, 50, 'the bad call stored nothing');
    assert.equal((await value(page, { operation: 'session', sessionId: 'old' })).nodeCount, 6);
    assert.deepEqual((await method(page, 'context', 'c', { ids: true })).value.nodeIds, [u1, a2]);
    await page.reload();
    await open(env, page);
    const stored = (await value(page, { operation: 'context', sessionId: 'old' })).messages;
    assert.deepEqual(stored.slice(-2).map((m) => m.content), ['after the reload', 'still here'], 'stored');
    assert.equal(stored.length, 6);
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('two tabs: rename shows the newest title everywhere; delete leaves memory, search and the other tab; the trash restores it whole after a reload; the emptied trash and a permanent delete leave nothing on disk', async () => {
  const env = await setup();
  try {
    const a = await open(env, env.page);
    const b = await open(env);
    await value(a, { operation: 'append.many', sessionId: 'r', create: true, title: 'New Chat', messages: chat });
    await value(a, { operation: 'append.many', sessionId: 'd', create: true, title: 'Secret plans', messages: [{ role: 'user', content: 'zanzibar itinerary' }] });
    await value(a, { operation: 'append.many', sessionId: 'k', create: true, messages: [{ role: 'user', content: 'zanzibar weather' }] });
    assert.equal((await method(a, 'saveSnapshot', 'd', 'before')).ok, true);
    const nodes = await value(a, { operation: 'list', sessionId: 'r' });
    const whole = async (page) => ({ list: await value(page, { operation: 'list', sessionId: 'd' }), context: await value(page, { operation: 'context', sessionId: 'd' }), snapshots: (await method(page, 'listSnapshots', 'd')).value });
    const before = await whole(a);

    // Rename: an appended record; the newest title everywhere.
    await method(a, 'rename', 'r', 'Lyon');
    assert.equal((await method(a, 'rename', 'r', 'Lyon, two days')).value.title, 'Lyon, two days');
    assert.equal((await heard(a, { type: 'rename', title: 'Lyon, two days' })).sessionId, 'r');
    assert.equal((await heard(b, { type: 'rename', remote: true, title: 'Lyon, two days' })).sessionId, 'r');
    assert.equal((await value(b, { operation: 'sessions' })).find((s) => s.sessionId === 'r').title, 'Lyon, two days');

    // Delete: out of memory, search and the other tab; kept on disk in the trash.
    const hits = async (page) => (await value(page, { operation: 'search', query: 'zanzibar' })).hits.map((h) => h.sessionId).sort();
    await b.evaluate(() => window.tree.refresh());
    assert.deepEqual(await hits(b), ['d', 'k']);
    const item = (await method(a, 'delete', 'd')).value;
    assert.equal(item.title, 'Secret plans');
    assert.deepEqual((await value(a, { operation: 'sessions' })).map((s) => s.sessionId), ['r', 'k']);
    assert.deepEqual(await hits(a), ['k']);
    assert.equal((await method(a, 'context', 'd')).error.code, 'SESSION_NOT_FOUND');
    await heard(b, { type: 'delete', remote: true, sessionId: 'd' });
    assert.deepEqual(await hits(b), ['k'], 'gone from the other tab');
    assert.deepEqual((await value(b, { operation: 'sessions' })).map((s) => s.sessionId), ['r', 'k']);
    assert.equal((await disk(a, 'd')).meta.deletedAt, item.deletedAt);

    // After a reload: the title and the trash are as stored; undo.
    await a.reload();
    await open(env, a);
    assert.equal((await value(a, { operation: 'sessions' })).find((s) => s.sessionId === 'r').title, 'Lyon, two days');
    assert.deepEqual(await value(a, { operation: 'list', sessionId: 'r' }), nodes, 'rename added or changed no node');
    const snap = await value(a, { operation: 'snapshot.save', sessionId: 'r' });
    assert.deepEqual(snap.annotations.map((x) => [x.kind, x.nodeId, x.title]), [['title', null, 'Lyon'], ['title', null, 'Lyon, two days']]);
    const old = { version: 1, sessionId: 'v1', title: 'Old', cursor: 'x', activeBranch: 'main', nodes: [{ id: 'x', parentId: null, branch: 'main', kind: 'message', timestamp: '2026-01-01T00:00:00.000Z', message: { role: 'user', content: 'hi' } }] };
    assert.equal((await method(a, 'loadSnapshot', 'v1', old)).value.title, 'Old', 'a snapshot without title records loads as before');
    assert.deepEqual((await method(a, 'trash')).value.map((t) => t.sessionId), ['d'], 'the trash after a reload');
    assert.deepEqual(await hits(a), ['k']);
    assert.equal((await method(a, 'restoreSession', 'd')).value.title, 'Secret plans');
    assert.deepEqual(await hits(a), ['d', 'k'], 'undone: searchable again');
    await heard(b, { type: 'trash.restore', remote: true, sessionId: 'd' });
    assert.deepEqual(await hits(b), ['d', 'k'], 'back in the other tab, each node once');
    assert.equal((await disk(a, 'd')).meta.deletedAt, undefined);
    assert.deepEqual(await whole(a), before, 'back whole: nodes, cursor, restore point');
    assert.deepEqual(await whole(b), before, 'and so in the other tab');

    // Empty the trash (from the other tab): nothing left but a tombstone.
    await method(a, 'delete', 'd');
    await heard(b, { type: 'delete', remote: true, sessionId: 'd', title: 'Secret plans' });
    await b.waitForFunction(() => window.events.filter((e) => e.type === 'delete' && e.sessionId === 'd').length === 2);
    assert.deepEqual((await method(b, 'emptyTrash')).value, { erased: ['d'] });
    const gone = await disk(a, 'd');
    assert.deepEqual({ ...gone, meta: { erased: gone.meta.erased, title: gone.meta.title } }, { meta: { erased: true, title: undefined }, chunks: 0, nodes: 0, annotations: 0, snapshots: 0 }, 'nothing left on disk but a tombstone, restore points included');
    await heard(a, { type: 'trash.empty', remote: true, sessionId: 'd' });
    assert.deepEqual((await method(a, 'trash')).value, [], 'gone from the other tab too');
    await a.reload();
    await open(env, a);
    assert.deepEqual((await method(a, 'trash')).value, []);
    assert.deepEqual(await hits(a), ['k']);
    assert.equal((await method(a, 'create', 'd')).ok, true, 'the id is free again');

    // Delete with permanent: erased at once from memory, disk, search and the other tab, never in the trash.
    assert.deepEqual((await method(a, 'delete', 'k', { permanent: true })).value, { erased: ['k'] });
    const erased = await disk(a, 'k');
    assert.deepEqual({ ...erased, meta: { erased: erased.meta.erased } }, { meta: { erased: true }, chunks: 0, nodes: 0, annotations: 0, snapshots: 0 });
    assert.deepEqual(await hits(a), []);
    // Another tab reads an erased session's tombstone, whatever erased it: it hears trash.empty.
    await heard(b, { type: 'trash.empty', remote: true, sessionId: 'k', erased: true });
    assert.deepEqual(await hits(b), [], 'gone from the other tab');
    assert.deepEqual((await method(b, 'trash')).value, []);
    assert.equal((await method(b, 'context', 'k')).error.code, 'SESSION_NOT_FOUND');
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('docs/EMBED.md "Migrating an existing chat app\'s data": its sample, run as written, moves each chat with its branches once; run again it adds nothing', async () => {
  const doc = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'EMBED.md'), 'utf8');
  const section = doc.slice(doc.indexOf("### Migrating an existing chat app's data"));
  const sample = /```js\n([\s\S]*?)```/.exec(section)[1];
  assert.match(sample, /appendMany\(chat\.id, chat\.messages, \{ create: true, title: chat\.title \}\)/, 'the section holds the sample');
  const oldChats = [
    { id: 'old-1', title: 'Lyon', messages: [{ role: 'user', content: 'Plan a trip to Lyon' }, { role: 'assistant', content: 'Day 1: the old town.' }, { role: 'user', content: 'And day 2?' }, { role: 'assistant', content: 'Day 2: Fourvière.' }],
      branches: [{ from: 1, messages: [{ role: 'user', content: 'Cheaper, please' }, { role: 'assistant', content: 'Stay in Croix-Rousse.' }] }] },
    { id: 'old-2', title: 'Tea', messages: [{ role: 'user', content: 'Green or black?' }, { role: 'assistant', content: 'Green.', name: 'helper' }] },
  ];
  const env = await setup();
  try {
    const page = await open(env);
    const run = () => page.evaluate(async ({ sample, oldChats }) => {
      const fn = new Function('tree', 'oldChats', `return (async () => {\n${sample}\n})();`);
      await fn(window.tree, oldChats);
    }, { sample, oldChats });
    await run();
    const summary = async () => (await value(page, { operation: 'sessions' })).filter((s) => s.sessionId.startsWith('old-')).map((s) => `${s.sessionId} ${s.title} ${s.nodeCount}`).sort();
    assert.deepEqual(await summary(), ['old-1 Lyon 6', 'old-2 Tea 2']);
    const texts = (v) => v.messages.map((m) => m.content);
    assert.deepEqual(texts(await value(page, { operation: 'context', sessionId: 'old-1' })), ['Plan a trip to Lyon', 'Day 1: the old town.', 'Cheaper, please', 'Stay in Croix-Rousse.'], 'the cursor is on the newest leaf: the branch');
    const tea = await value(page, { operation: 'context', sessionId: 'old-2' });
    assert.deepEqual(tea.messages[1], { role: 'assistant', content: 'Green.', name: 'helper' }, 'other fields kept as they are');
    await run();
    assert.deepEqual(await summary(), ['old-1 Lyon 6', 'old-2 Tea 2'], 'a second run moves nothing again');
    await page.reload();
    await open(env, page);
    assert.deepEqual(await summary(), ['old-1 Lyon 6', 'old-2 Tea 2'], 'on disk');
  } finally {
    await env.close();
  }
});

test('calls keep their order past restoreSnapshot and loadSnapshot of a file (which read first): an append made after either, not awaited, lands on what it loaded and stays, with and without the worker', async () => {
  const env = await setup();
  try {
    const page = await open(env, env.page);
    for (const worker of [true, false]) {
      const got = await page.evaluate(async ({ worker }) => {
        const t = await window.sessiontree.init({ dbName: `order-${worker}`, worker });
        const contents = async () => (await t.context('s')).value.messages.map((m) => m.content);
        const snap = { version: 1, sessionId: 's', cursor: 'n0', activeBranch: 'main', nodes: [{ id: 'n0', parentId: null, branch: 'main', kind: 'message', timestamp: '2026-01-01T00:00:00.000Z', message: { role: 'user', content: 'plain text' } }] };
        await t.loadSnapshot('s', snap);
        await t.saveSnapshot('s', 'rp');
        await t.append('s', { role: 'assistant', content: 'added later' });
        // Made together: each call after the restore sees the restored session.
        const [restored, seen, appended] = await Promise.all([
          t.restoreSnapshot('s', 'rp'),
          t.context('s'),
          t.append('s', { role: 'user', content: 'after the restore' }),
        ]);
        const afterRestore = await contents();
        // The same past a snapshot file, which is read before its load.
        const file = new Blob([JSON.stringify(snap)], { type: 'application/json' });
        const [loaded, appended2] = await Promise.all([t.loadSnapshot('s', file), t.append('s', { role: 'user', content: 'after the file' })]);
        await t.flush();
        const afterFile = await contents();
        // Two files, a call made between them: it goes after the first, before the second (which replaces it).
        const second = new Blob([JSON.stringify({ ...snap, nodes: [{ ...snap.nodes[0], message: { role: 'user', content: 'file B' } }] })]);
        const between = await Promise.all([t.loadSnapshot('s', file), t.append('s', { role: 'user', content: 'between' }), t.loadSnapshot('s', second)]);
        const afterTwo = [between.map((e) => e.ok), await contents()];
        t.close();
        return { restored: restored.ok, seen: seen.value.messages.map((m) => m.content), parent: appended.value.parentId, afterRestore, loaded: loaded.ok, parent2: appended2.value.parentId, afterFile, afterTwo };
      }, { worker });
      assert.deepEqual(got, {
        restored: true, seen: ['plain text'], parent: 'n0', afterRestore: ['plain text', 'after the restore'],
        loaded: true, parent2: 'n0', afterFile: ['plain text', 'after the file'],
        afterTwo: [[true, true, true], ['file B']],
      }, `worker: ${worker}`);
    }
    // Stored so: a new page reads the same.
    await page.reload();
    await page.waitForFunction(() => window.sessiontree !== undefined);
    const stored = await page.evaluate(async () => {
      const t = await window.sessiontree.init({ dbName: 'order-true' });
      return (await t.context('s')).value.messages.map((m) => m.content);
    });
    assert.deepEqual(stored, ['file B']);
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('emptyTrash and rename refuse what JSON would turn into "absent": NaN, null, a function, a Symbol erase nothing and clear no title', async () => {
  const env = await setup();
  try {
    const page = await open(env, env.page);
    const got = await page.evaluate(async () => {
      const t = window.tree;
      for (const id of ['keep1', 'keep2']) {
        await t.create(id, { title: id });
        await t.delete(id);
      }
      await t.create('named', { title: 'A title' });
      const out = [];
      for (const bad of [NaN, null, Infinity, () => 1, Symbol('s')]) {
        const e = await t.emptyTrash(bad);
        const r = await t.rename('named', bad);
        out.push([e.ok, e.error?.code, r.ok, r.error?.code]);
      }
      const empty = await t.emptyTrash('');
      out.push([empty.ok, empty.error?.code, false, 'INVALID_ARGUMENT']);
      const raw = await t.call({ operation: 'trash.empty', sessionId: null });
      return { out, raw: [raw.ok, raw.error?.code], trash: (await t.trash()).value.map((x) => x.sessionId).sort(), title: (await t.call({ operation: 'session', sessionId: 'named' })).value.title };
    });
    for (const row of got.out) assert.deepEqual(row, [false, 'INVALID_ARGUMENT', false, 'INVALID_ARGUMENT']);
    assert.deepEqual(got.raw, [false, 'INVALID_ARGUMENT'], 'core refuses a null sessionId too');
    assert.deepEqual(got.trash, ['keep1', 'keep2']);
    assert.equal(got.title, 'A title');
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('every method refuses a member JSON would drop or make null (NaN, Infinity, a function, a Symbol), naming it, and changes nothing; in the worker and on the page', async () => {
  const env = await setup();
  try {
    const page = await open(env, env.page);
    for (const worker of [true, false]) {
      const got = await page.evaluate(async ({ worker, db }) => {
        const t = worker ? window.tree : await window.sessiontree.init({ dbName: `${db}-page`, worker: false });
        await t.create('s1', { title: 'One' });
        const first = (await t.append('s1', { role: 'user', content: 'hello there' })).value.nodeId;
        const before = (await t.call({ operation: 'sessions' })).value.length;
        const calls = [
          ['fork', () => t.fork('s1', first, { newSessionId: NaN })],
          ['append', () => t.append('s1', { role: 'user', content: 'x' }, { branch: Infinity })],
          ['create', () => t.create('t5', { title: () => 1 })],
          ['search', () => t.search('hello', { limit: -Infinity })],
          ['call', () => t.call({ operation: 'session', sessionId: 's1', extra: Symbol('s') })],
        ];
        const out = [];
        for (const [name, run] of calls) {
          const e = await run();
          out.push([name, e.ok, e.error?.code, e.error?.message]);
        }
        const count = (await t.call({ operation: 'session', sessionId: 's1' })).value.nodeCount;
        return { out, sessions: (await t.call({ operation: 'sessions' })).value.length - before, count };
      }, { worker, db: DB });
      assert.deepEqual(got.out.map((r) => r.slice(0, 3)), ['fork', 'append', 'create', 'search', 'call'].map((n) => [n, false, 'INVALID_ARGUMENT']), `worker: ${worker}`);
      assert.deepEqual(got.out.map((r) => r[3].match(/^field "(\w+)" is ([^,]+), which JSON cannot carry/)?.slice(1)), [
        ['newSessionId', 'NaN'], ['branch', 'Infinity'], ['title', 'a function'], ['limit', '-Infinity'], ['extra', 'a Symbol'],
      ], JSON.stringify(got.out));
      assert.equal(got.sessions, 0, 'no session made');
      assert.equal(got.count, 1, 'no node appended');
    }
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('a snapshot whose id, branch or title holds a lone surrogate is INVALID_SNAPSHOT, as an object, as text and as a file, and nothing is stored', async () => {
  const env = await setup();
  try {
    const page = await open(env, env.page);
    const got = await page.evaluate(async () => {
      const t = window.tree;
      const snap = (id, branch, title) => ({ version: 1, sessionId: 'lone', title, cursor: null, activeBranch: 'main', nodes: [{ id, parentId: null, branch, kind: 'message', timestamp: '2024-01-01T00:00:00.000Z', message: { role: 'user', content: 'x' } }] });
      const out = [];
      for (const s of [snap('\uD800', 'main', 't'), snap('a', 'b\uDFFF', 't'), snap('a', 'main', 't\uD800')]) {
        for (const e of [await t.call({ operation: 'snapshot.load', sessionId: 'lone', snapshot: s }), await t.loadSnapshot('lone', JSON.stringify(s)), await t.loadSnapshot('lone', new Blob([JSON.stringify(s)]))]) {
          out.push([e.ok, e.error?.code, e.error?.message.match(/(field "\w+"|nodes\[0\] field "\w+") holds a lone UTF-16 surrogate/)?.[1] ?? e.error?.message]);
        }
      }
      const stored = (await t.call({ operation: 'sessions' })).value.some((s) => s.sessionId === 'lone');
      return { out, stored };
    });
    assert.deepEqual(got.out, [
      ...Array(3).fill([false, 'INVALID_SNAPSHOT', 'nodes[0] field "id"']),
      ...Array(3).fill([false, 'INVALID_SNAPSHOT', 'nodes[0] field "branch"']),
      ...Array(3).fill([false, 'INVALID_SNAPSHOT', 'field "title"']),
    ]);
    assert.equal(got.stored, false);
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});
