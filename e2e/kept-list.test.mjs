// The kept list (js/store/list-keep.js): a history of 600 sessions is
// listed from one record holding every meta record and the records
// written since, exactly as from the store read whole, through appends
// left as tails, renames, new sessions, the trash, an erasure (which
// deletes it: it holds the erased session's title) and a damaged record.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './helpers.mjs';
import { writeSessions } from './stored-sessions.mjs';

const SHIM = 'e2e/fixtures/shim.html';
const DB = 'kept-list';
const SESSIONS = 600;

async function open(env) {
  const page = await env.newPage();
  await page.goto(env.baseURL + SHIM);
  await page.waitForFunction(() => window.sessiontree !== undefined);
  return page;
}

/** The kept list's keys and records in database db: {keys: [["list", gen]…], records: object[][]}. */
function keptList(page, db) {
  return page.evaluate(async (db) => {
    const req = (r) => new Promise((resolve, reject) => ((r.onsuccess = () => resolve(r.result)), (r.onerror = () => reject(r.error))));
    const idb = await req(indexedDB.open(db));
    const store = idb.transaction('search').objectStore('search');
    const range = IDBKeyRange.bound(['list'], ['list', []]);
    const [keys, values] = await Promise.all([req(store.getAllKeys(range)), req(store.getAll(range))]);
    const gen = (await req(idb.transaction('sessions').objectStore('sessions').index('gen').openKeyCursor(null, 'prev')))?.key ?? 0;
    idb.close();
    return { keys, records: values.map((v) => JSON.parse(v)), gen };
  }, db);
}

/** Poll fn until it resolves truthy, failing after ms with what it waited for. */
async function eventually(fn, ms, what) {
  for (const end = Date.now() + ms; !(await fn()); ) {
    if (Date.now() > end) throw new Error(`after ${ms} ms, still waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Put value as the kept list of database db at key ["list", gen]. */
function putKept(page, db, value, gen) {
  return page.evaluate(async ({ db, value, gen }) => {
    const req = (r) => new Promise((resolve, reject) => ((r.onsuccess = () => resolve(r.result)), (r.onerror = () => reject(r.error))));
    const idb = await req(indexedDB.open(db));
    const tx = idb.transaction('search', 'readwrite');
    tx.objectStore('search').delete(IDBKeyRange.bound(['list'], ['list', []]));
    if (value !== null) tx.objectStore('search').put(value, ['list', gen]);
    await new Promise((resolve, reject) => ((tx.oncomplete = resolve), (tx.onabort = () => reject(tx.error))));
    idb.close();
  }, { db, value, gen });
}

/**
 * Make the calls of requests in page's tree, then write the kept list
 * `kept` (as keptList read it) into database db as a start that read it
 * would: resolves to whether it was stored.
 */
function writeAfter(page, db, requests, kept) {
  return page.evaluate(async ({ db, requests, json, gen }) => {
    for (const request of requests) {
      const env = await window.tree.call(request);
      if (!env.ok) throw new Error(JSON.stringify(env.error));
    }
    const { writeKeptList } = await import('/js/store/list-keep.js');
    const idb = await new Promise((resolve) => (indexedDB.open(db).onsuccess = (e) => resolve(e.target.result)));
    const stored = await writeKeptList(idb, json, gen, JSON.parse(json).map((m) => m.sessionId));
    idb.close();
    return stored;
  }, { db, requests, json: JSON.stringify(kept.records[0]), gen: kept.gen });
}

/**
 * A fresh page's init(): its `sessions` answer (the page's own list, read
 * while the wasm starts), the same once the store runs (core's), and how
 * the worker took the records (its read counts).
 */
async function freshList(env, db, options = {}) {
  const page = await open(env);
  const got = await page.evaluate(async ({ db, options }) => {
    window.tree = await window.sessiontree.init({ dbName: db, ...options });
    const early = await window.tree.call({ operation: 'sessions' });
    await window.tree.call({ operation: 'context', sessionId: 's0001' }); // once the store runs
    const late = await window.tree.call({ operation: 'sessions' });
    return { early: early.value, late: late.value, readCounts: (await window.tree._debug()).readCounts };
  }, { db, options });
  return { page, ...got };
}

test('a history of 600 sessions lists from the kept list and the records written since exactly as from the store read whole; an erasure deletes the kept list', async () => {
  const env = await setup();
  try {
    const first = await open(env);
    await first.evaluate(async (db) => (await window.sessiontree.init({ dbName: db })).close(), DB);
    await writeSessions(first, { db: DB, count: SESSIONS, nodes: 3 });

    // A first visit finds none and writes it, a while after its start, at the stored gen.
    const a = await freshList(env, DB);
    assert.equal(a.early.length, SESSIONS);
    assert.deepEqual(a.late, a.early);
    await eventually(async () => (await keptList(first, DB)).keys.length === 1, 15000, 'the kept list is written');
    let kept = await keptList(first, DB);
    assert.deepEqual(kept.keys, [['list', kept.gen]]);
    assert.equal(kept.records[0].length, SESSIONS);

    // Changes after it: appends (left as tails), a rename, a new session, one into the trash.
    await a.page.evaluate(async () => {
      const must = async (request) => {
        const env = await window.tree.call(request);
        if (!env.ok) throw new Error(JSON.stringify(env.error));
      };
      for (let k = 0; k < 5; k++) await must({ operation: 'append', sessionId: 's0005', message: { role: 'user', content: `more ${k}` } });
      await must({ operation: 'rename', sessionId: 's0010', title: 'renamed after the kept list' });
      await must({ operation: 'create', sessionId: 'new-one', title: 'made after the kept list' });
      await must({ operation: 'delete', sessionId: 's0011' });
    });
    const expected = await a.page.evaluate(async () => (await window.tree.call({ operation: 'sessions' })).value);
    await a.page.close(); // killed before any meta flush it had left
    assert.deepEqual((await keptList(first, DB)).keys, kept.keys, 'fewer than LIST_KEEP_CHANGES changes: the kept list stays');

    // Instrumented: a title changed in the kept list alone shows that it was read.
    const marked = kept.records[0].map((m) => (m.sessionId === 's0300' ? { ...m, title: 'from the kept list' } : m));
    await putKept(first, DB, JSON.stringify(marked), kept.gen);
    const b = await freshList(env, DB);
    assert.equal(b.early.find((s) => s.sessionId === 's0300').title, 'from the kept list');
    assert.deepEqual([b.readCounts.metas, b.readCounts.given], [0, 1], 'the worker took the records the page read');
    const withoutMark = (list) => list.map((s) => (s.sessionId === 's0300' ? { ...s, title: 'title 300' } : s));
    assert.deepEqual(withoutMark(b.early), expected);
    assert.deepEqual(withoutMark(b.late), expected, 'core holds what the page listed');
    const five = b.early.find((s) => s.sessionId === 's0005');
    assert.equal(five.nodeCount, 8);
    const context = await b.page.evaluate(async () => (await window.tree.call({ operation: 'context', sessionId: 's0005' })).value.messages.map((m) => m.content));
    assert.deepEqual(context.slice(3), [0, 1, 2, 3, 4].map((k) => `more ${k}`));
    await b.page.close();
    // The store in the page's thread reads it too (its own start's read: store/pager.js readMetas).
    const local = await freshList(env, DB, { worker: false });
    assert.equal(local.late.find((s) => s.sessionId === 's0300').title, 'from the kept list');
    assert.deepEqual(withoutMark(local.late), expected);
    await local.page.close();
    await putKept(first, DB, JSON.stringify(kept.records[0]), kept.gen);

    // The same list with the store read whole (no kept list), and with a damaged one.
    for (const value of [null, 'not json {', '{"an": "object"}', '[]', JSON.stringify([...kept.records[0], kept.records[0][0]])]) {
      await putKept(first, DB, value, kept.gen);
      const c = await freshList(env, DB);
      assert.deepEqual(c.early, expected, `kept list ${JSON.stringify(value)}`);
      assert.deepEqual(c.late, expected);
      await c.page.close();
    }
    await putKept(first, DB, JSON.stringify(kept.records[0]), kept.gen);

    // Erasing a session deletes the kept list (it holds the title); a list kept from before the erasure is not written.
    const d = await freshList(env, DB);
    const stale = await keptList(first, DB);
    const written = await writeAfter(d.page, DB, [{ operation: 'delete', sessionId: 's0020', permanent: true }], stale);
    assert.equal(written, false, 'a kept list read before an erasure is not written after it');
    assert.deepEqual((await keptList(first, DB)).keys, [], 'the erasure deleted the kept list');
    const afterErase = await d.page.evaluate(async () => (await window.tree.call({ operation: 'sessions' })).value);
    await d.page.close();

    // The next page reads the store whole and keeps the list again, without the erased session.
    const e = await freshList(env, DB);
    assert.deepEqual(e.early, afterErase);
    assert.equal(e.early.some((s) => s.sessionId === 's0020'), false);
    await eventually(async () => (await keptList(first, DB)).keys.length === 1, 15000, 'the kept list is written again');
    kept = await keptList(first, DB);
    assert.equal(kept.records[0].find((m) => m.sessionId === 's0020').title, undefined, 'only the tombstone: no title');
    assert.equal(JSON.stringify(kept.records[0]).includes('title 20"'), false);
    await e.page.close();

    // An erasure by a build before the kept list (a tombstone above it, the list left) and 32
    // sessions renamed by direct writes: the next start writes the list again, without the title.
    const newest = await first.evaluate(async (db) => {
      const req = (r) => new Promise((resolve, reject) => ((r.onsuccess = () => resolve(r.result)), (r.onerror = () => reject(r.error))));
      const idb = await req(indexedDB.open(db));
      const tx = idb.transaction(['sessions'], 'readwrite');
      const sessions = tx.objectStore('sessions');
      const gen = (await req(sessions.index('gen').openKeyCursor(null, 'prev'))).key + 1;
      sessions.put({ sessionId: 's0030', erased: true, gen, createdAt: '', nodeCount: 0, annotationCount: 0, op: 'trash.empty' }, 's0030');
      await new Promise((resolve) => (tx.oncomplete = resolve));
      idb.close();
      return gen;
    }, DB);
    assert.equal(JSON.stringify((await keptList(first, DB)).records[0]).includes('"title 30"'), true);
    const f = await freshList(env, DB);
    assert.equal(f.early.some((s) => s.sessionId === 's0030'), false);
    await eventually(async () => (await keptList(first, DB)).keys[0]?.[1] === newest, 15000, 'the kept list is written at the tombstone\'s gen');
    assert.equal(JSON.stringify((await keptList(first, DB)).records[0]).includes('"title 30"'), false);
    await f.page.evaluate(async () => {
      for (let i = 100; i < 132; i++) await window.tree.call({ operation: 'rename', sessionId: `s0${i}`, title: `renamed ${i}` });
    });
    const renamed = (await keptList(first, DB)).gen;
    await f.page.close();
    const g = await freshList(env, DB);
    assert.equal(g.early.find((s) => s.sessionId === 's0131').title, 'renamed 131');
    await eventually(async () => (await keptList(first, DB)).keys[0]?.[1] === renamed, 15000, '32 records written since: the kept list is written again');
    await g.page.close();
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

/** Erase session id straight in database db as a build that keeps no list does (store/erase.js before it): the kept list stays. */
function eraseWithoutList(page, db, id) {
  return page.evaluate(async ({ db, id }) => {
    const req = (r) => new Promise((resolve, reject) => ((r.onsuccess = () => resolve(r.result)), (r.onerror = () => reject(r.error))));
    const idb = await req(indexedDB.open(db));
    const tx = idb.transaction(['sessions', 'chunks', 'nodes', 'annotations', 'snapshots', 'search'], 'readwrite');
    const done = new Promise((resolve, reject) => ((tx.oncomplete = resolve), (tx.onabort = () => reject(tx.error))));
    const gen = (await req(tx.objectStore('sessions').index('gen').openKeyCursor(null, 'prev'))).key + 1;
    for (const name of ['chunks', 'nodes', 'annotations']) tx.objectStore(name).delete(IDBKeyRange.bound([id, 0], [id, Infinity]));
    tx.objectStore('snapshots').delete(IDBKeyRange.bound([id, ''], [id, []]));
    tx.objectStore('search').delete('index');
    tx.objectStore('sessions').put({ sessionId: id, erased: true, gen, createdAt: '', nodeCount: 0, annotationCount: 0, op: 'trash.empty' }, id);
    await done;
    idb.close();
  }, { db, id });
}

test('an erased session\'s title is not kept: not when it was made again under its id after the list was read, nor when a build that keeps no list erased it', async () => {
  const env = await setup();
  const db = DB + '-erased';
  const first = await open(env);
  const holds = async (title) => JSON.stringify((await keptList(first, db)).records).includes(JSON.stringify(title));
  try {
    await first.evaluate(async (db) => (await window.sessiontree.init({ dbName: db })).close(), db);
    await writeSessions(first, { db, count: SESSIONS, nodes: 3 });
    const a = await freshList(env, db);
    await eventually(async () => (await keptList(first, db)).keys.length === 1, 15000, 'the kept list is written');
    const kept = await keptList(first, db);
    await a.page.close();

    // Erased and made again under its id: its tombstone is gone, its old title must not come back.
    const b = await freshList(env, db);
    const written = await writeAfter(b.page, db, [{ operation: 'delete', sessionId: 's0020', permanent: true }, { operation: 'create', sessionId: 's0020', title: 'made again' }], kept);
    assert.equal(written, false, 'a list read before an erasure is not written after the id was made again');
    await b.page.close();

    // The same at a start that finds no list: erased and made again before the start's list is written.
    await putKept(first, db, null, 0);
    const c = await open(env);
    await c.evaluate(async (db) => {
      window.tree = await window.sessiontree.init({ dbName: db });
      for (const request of [{ operation: 'delete', sessionId: 's0030', permanent: true }, { operation: 'create', sessionId: 's0030', title: 'made again' }]) {
        const env = await window.tree.call(request);
        if (!env.ok) throw new Error(JSON.stringify(env.error));
      }
    }, db);
    await new Promise((resolve) => setTimeout(resolve, 5000)); // past the list's write (KEEP_LIST_MS)
    assert.equal(await holds('title 30'), false, 'the erased title is not in a kept list');
    await c.close();

    // Erased by a build that keeps no list (an earlier version 6 one): the next start keeps it again without the title.
    const d = await freshList(env, db);
    await eventually(async () => (await keptList(first, db)).keys.length === 1, 15000, 'the kept list is written');
    await d.page.close();
    assert.equal(await holds('title 40'), true);
    await eraseWithoutList(first, db, 's0040');
    const e = await freshList(env, db);
    assert.equal(e.early.some((s) => s.sessionId === 's0040'), false);
    await eventually(async () => !(await holds('title 40')), 15000, 'the kept list no longer holds the erased title');
    await e.page.close();
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('a meta record that JSON cannot hold (a BigInt member, damaged outside sessiontree) keeps no list: the store starts and lists as without the kept list, in the worker and in the page', async () => {
  const env = await setup();
  const db = DB + '-bigint';
  try {
    const first = await open(env);
    await first.evaluate(async (db) => (await window.sessiontree.init({ dbName: db })).close(), db);
    await writeSessions(first, { db, count: 300, nodes: 3 });
    await first.evaluate(async (db) => {
      const req = (r) => new Promise((resolve, reject) => ((r.onsuccess = () => resolve(r.result)), (r.onerror = () => reject(r.error))));
      const idb = await req(indexedDB.open(db));
      const store = idb.transaction('sessions', 'readwrite').objectStore('sessions');
      await req(store.put({ ...(await req(store.get('s0003'))), extra: 3n }, 's0003'));
      idb.close();
    }, db);
    for (const worker of [true, false]) {
      const page = await open(env);
      const got = await page.evaluate(async ({ db, worker }) => {
        const tree = await window.sessiontree.init({ dbName: db, worker });
        const [sessions, context] = [await tree.call({ operation: 'sessions' }), await tree.call({ operation: 'context', sessionId: 's0003' })];
        return { listed: sessions.value.length, messages: context.value.messages.length };
      }, { db, worker });
      assert.deepEqual(got, { listed: 300, messages: 3 }, `worker: ${worker}`);
      await page.close();
    }
    assert.deepEqual((await keptList(first, db)).keys, []);
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});
