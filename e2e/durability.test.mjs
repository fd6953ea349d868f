// Nothing lost, ever (issue 7): two tabs, a killed tab, storage errors,
// schema upgrades and persistent storage, in headless Chromium through the
// shim page (e2e/fixtures/shim.html exposes js/sessiontree.js as
// window.sessiontree). Each test starts a fresh browser context, so its
// IndexedDB starts empty.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { failSessionsReads, setup, stubStore, inStore, waitUntil } from './helpers.mjs';

const SHIM = 'e2e/fixtures/shim.html';

/** Open the shim page on a (new or given) page and wait for the module. */
async function open(env, page) {
  page ??= await env.newPage();
  await page.goto(env.baseURL + SHIM);
  await page.waitForFunction(() => window.sessiontree !== undefined);
  return page;
}

/** init() in the page under window.tree; resolves to the error text if it rejects. */
function initTree(page, options = { dbName: 'durable' }) {
  return page.evaluate(async (options) => {
    try {
      window.events = [];
      window.tree = await window.sessiontree.init(options);
      window.tree.subscribe((e) => window.events.push(e));
      return null;
    } catch (err) {
      return String(err?.message ?? err);
    }
  }, options);
}

/** Reload the page and init() again; the stored tree must come back. */
async function reload(page) {
  await page.reload();
  await page.waitForFunction(() => window.sessiontree !== undefined);
  assert.equal(await initTree(page), null);
}

/** Two pages of one context with a tree each on the same database. */
async function twoPages(env) {
  const pages = [await open(env, env.page), await open(env)];
  for (const p of pages) assert.equal(await initTree(p), null);
  return pages;
}

/**
 * The nodes of a session once both pages have taken in every change: the
 * same in both, and on disk (page a is reloaded).
 */
async function agreedList(a, b, sessionId) {
  await Promise.all([a.evaluate(() => window.tree.refresh()), b.evaluate(() => window.tree.refresh())]);
  const list = await value(a, { operation: 'list', sessionId });
  assert.deepEqual(await value(b, { operation: 'list', sessionId }), list);
  await reload(a);
  assert.deepEqual(await value(a, { operation: 'list', sessionId }), list, 'what both pages wrote is on disk');
  return list;
}

/** One call in the page; resolves to its envelope. */
function call(page, request) {
  return page.evaluate((request) => window.tree.call(request), request);
}

/** The value of a call that must succeed. */
async function value(page, request) {
  const env = await call(page, request);
  assert.equal(env.ok, true, `${JSON.stringify(request).slice(0, 200)} failed: ${JSON.stringify(env.error)}`);
  return env.value;
}

/** A version-1 snapshot of n message nodes in one chain, ids p00000…; text grows the nodes. */
function chainSnapshot(sessionId, n, text = '') {
  const nodes = [];
  for (let i = 0; i < n; i++) {
    nodes.push({
      id: 'p' + String(i).padStart(5, '0'),
      parentId: i === 0 ? null : 'p' + String(i - 1).padStart(5, '0'),
      branch: 'main',
      kind: 'message',
      timestamp: '2026-11-29T12:00:00.000Z',
      message: { role: i % 2 ? 'assistant' : 'user', content: `message ${i} ${text}` },
    });
  }
  return { version: 1, sessionId, cursor: n ? nodes[n - 1].id : null, activeBranch: 'main', nodes };
}

test('two pages appending 500 messages each, interleaved and partly under the same node, keep all 1,000 nodes with distinct ids and show the same tree', async () => {
  const env = await setup();
  try {
    const [a, b] = await twoPages(env);
    await value(a, { operation: 'create', sessionId: 's', title: 'shared' });
    const root = await value(a, { operation: 'append', sessionId: 's', message: { role: 'system', content: 'root' } });

    // Both pages append at once. Every 25th message each page first jumps
    // back to the root, so both append under the same node at nearly the
    // same moment; the rest continue each page's own line.
    const run = (page, tag) => page.evaluate(async ({ tag, rootId }) => {
      const pending = [];
      for (let i = 0; i < 500; i++) {
        if (i % 25 === 0) pending.push(window.tree.call({ operation: 'jump', sessionId: 's', nodeId: rootId }));
        pending.push(window.tree.call({ operation: 'append', sessionId: 's', message: { role: 'user', content: `${tag} ${i}` } }));
        if (i % 10 === 9) await Promise.all(pending.splice(0)); // interleave with the other page
      }
      const envs = await Promise.all(pending);
      return envs.filter((e) => !e.ok).map((e) => e.error);
    }, { tag, rootId: root.id });
    const [failedA, failedB] = await Promise.all([run(a, 'A'), run(b, 'B')]);
    assert.deepEqual(failedA, []);
    assert.deepEqual(failedB, []);

    await Promise.all([a.evaluate(() => window.tree.refresh()), b.evaluate(() => window.tree.refresh())]);
    const listA = await value(a, { operation: 'list', sessionId: 's' });
    const listB = await value(b, { operation: 'list', sessionId: 's' });
    assert.equal(listA.length, 1001);
    assert.deepEqual(listB, listA, 'both pages show the same nodes in the same order');
    assert.equal(new Set(listA.map((n) => n.id)).size, 1001, 'ids are distinct');
    const texts = listA.map((n) => n.preview).filter((t) => t !== 'root').sort();
    const want = [];
    for (const tag of ['A', 'B']) for (let i = 0; i < 500; i++) want.push(`${tag} ${i}`);
    assert.deepEqual(texts, want.sort(), 'every message of both pages is there once');
    const underRoot = listA.filter((n) => n.parentId === root.id);
    assert.ok(underRoot.some((n) => n.preview.startsWith('A ')) && underRoot.some((n) => n.preview.startsWith('B ')), 'appends under the same node made a fork');
    assert.ok(await b.evaluate(() => window.events.some((e) => e.remote === true && e.sessionId === 's')), 'page B was told about page A\'s changes');

    // After a reload each page restores the same tree from disk.
    for (const p of [a, b]) {
      await reload(p);
      assert.deepEqual(await value(p, { operation: 'list', sessionId: 's' }), listA);
    }
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('a page sees what another page appends without calling anything, and a new session made there', async () => {
  const env = await setup();
  try {
    const [a, b] = await twoPages(env);
    await value(a, { operation: 'create', sessionId: 'live' });
    const n = await value(a, { operation: 'append', sessionId: 'live', message: { role: 'user', content: 'hello from A' } });
    await b.waitForFunction((id) => window.events.some((e) => e.sessionId === 'live' && e.remote && e.nodeId === id), n.id);
    const status = await value(b, { operation: 'session', sessionId: 'live' });
    assert.equal(status.nodeCount, 1);
    assert.equal(status.cursor, n.id, 'a page that had not placed its cursor adopts the writer\'s');
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('a page writing in turn holds the write lock and reads the stored gen once; a write of another page in between is taken in before its next write', async () => {
  const env = await setup();
  try {
    const [a, b] = await twoPages(env);
    // The create and 30 appends are made in the page, each right after the
    // last resolved: no gap in which the lock's 250 ms linger could end
    // (round trips from the test process can take longer on a busy machine).
    const made = await a.evaluate(async () => {
      const out = [];
      const create = await window.tree.call({ operation: 'create', sessionId: 'lock' });
      if (!create.ok) throw new Error(JSON.stringify(create.error));
      for (let i = 0; i < 30; i++) {
        const env = await window.tree.call({ operation: 'append', sessionId: 'lock', message: { role: 'user', content: `a ${i}` } });
        if (!env.ok) throw new Error(JSON.stringify(env.error));
        out.push(env.value);
      }
      return out;
    });
    const statsA = await a.evaluate(async () => (await window.tree._debug()).writer);
    assert.equal(statsA.genReads, 1, 'only the first transaction under the lock read the gen');
    assert.equal(statsA.genSkipped, 30, 'the 30 appends after it skipped the read');
    assert.equal(statsA.lockWaits, 1);

    // Page B asks for the lock while A is idle and holds it: A lets go, B
    // reads the gen, takes in A's 31 changes and appends under A's cursor
    // (B never placed its own). B's append runs twice: it finds the session
    // paged out, loads it, and runs again. Both tries are under one hold of
    // the lock, the second skipping the read, unless B let go in between
    // (a load past the lock's linger on a busy machine, or A asking for it):
    // then it took the lock again and read the gen again, once.
    const fromB = await value(b, { operation: 'append', sessionId: 'lock', message: { role: 'user', content: 'b' } });
    assert.equal(fromB.parentId, made[29].id);
    const statsB = await b.evaluate(async () => (await window.tree._debug()).writer);
    assert.equal(statsB.genReads + statsB.genSkipped, 2, 'two tries of the append: paged out, then loaded');
    assert.ok(statsB.lockWaits === 1 || statsB.lockWaits === 2, `B took the lock ${statsB.lockWaits} times`);
    assert.equal(statsB.genReads, statsB.lockWaits, 'B read the gen once each time it took the lock');

    // A takes the lock again, reads the gen, takes B's node in, and appends
    // under its own cursor: B's node and A's new one are siblings.
    const again = await value(a, { operation: 'append', sessionId: 'lock', message: { role: 'user', content: 'a again' } });
    assert.equal(again.parentId, made[29].id);
    const { genReads, genSkipped, lockWaits } = await a.evaluate(async () => (await window.tree._debug()).writer);
    assert.deepEqual({ genReads, genSkipped, lockWaits }, { genReads: 2, genSkipped: 30, lockWaits: 2 });
    assert.equal((await agreedList(a, b, 'lock')).length, 32);
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('without Web Locks every write reads the stored gen, and two pages still keep each other\'s writes', async () => {
  const env = await setup();
  try {
    const noLocks = () => Object.defineProperty(Object.getPrototypeOf(navigator), 'locks', { get: () => undefined });
    const a = await env.newPage();
    const b = await env.newPage();
    for (const p of [a, b]) {
      await stubStore(p, noLocks);
      await open(env, p);
      assert.equal(await initTree(p), null);
    }
    await value(a, { operation: 'create', sessionId: 'plain' });
    for (let i = 0; i < 10; i++) {
      await value(a, { operation: 'append', sessionId: 'plain', message: { role: 'user', content: `a ${i}` } });
      await value(b, { operation: 'append', sessionId: 'plain', message: { role: 'user', content: `b ${i}` } });
    }
    const stats = await a.evaluate(async () => (await window.tree._debug()).writer);
    assert.deepEqual({ genReads: stats.genReads, genSkipped: stats.genSkipped, lockWaits: stats.lockWaits }, { genReads: 11, genSkipped: 0, lockWaits: 0 });
    await Promise.all([a.evaluate(() => window.tree.refresh()), b.evaluate(() => window.tree.refresh())]);
    const list = await value(a, { operation: 'list', sessionId: 'plain' });
    assert.equal(list.length, 20);
    assert.deepEqual(await value(b, { operation: 'list', sessionId: 'plain' }), list);
    assert.deepEqual(list.map((n) => n.preview), Array.from({ length: 10 }, (_, i) => [`a ${i}`, `b ${i}`]).flat(), 'alternate writes, in order');
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('two pages appending in turn at the same time both keep writing: neither holds the write lock until the other stops', async () => {
  // Each page makes 40 appends, one call after another, then 40 more
  // every 30 ms (a page streaming an answer). A page asking for the lock
  // while the holder was itself waiting for it used to go unheard, and
  // the holder then kept the lock as long as it kept writing: one page
  // made 745 appends and the other 2. Order, not time, says whether they
  // take turns: until the first page is done, the other has landed at
  // least a quarter as many appends (however slow the machine).
  const env = await setup();
  try {
    const [a, b] = await twoPages(env);
    await value(a, { operation: 'create', sessionId: 'busy' });
    const APPENDS = 40;
    const run = (page, tag, gap) => page.evaluate(async ({ tag, gap, n }) => {
      // Start together: each page says it is ready and waits to hear the
      // other, then makes its first append and waits until the other has
      // made its first too (on a loaded machine one page could otherwise
      // make all its appends before the other's first call was made: a
      // race of the pages' start, not of the write lock).
      const channel = new BroadcastChannel(`start ${gap}`);
      const heard = new Set();
      let wake = () => {};
      channel.onmessage = (e) => {
        if (heard.has(e.data)) return;
        heard.add(e.data);
        if (e.data === 'ready') channel.postMessage('ready'); // the other may have said it before this page listened
        wake();
      };
      const hear = async (word) => {
        while (!heard.has(word)) await new Promise((resolve) => (wake = resolve));
      };
      channel.postMessage('ready');
      await hear('ready');
      for (let i = 0; i < n; i++) {
        const env = await window.tree.call({ operation: 'append', sessionId: 'busy', message: { role: 'user', content: `${tag} ${i}` } });
        if (!env.ok) throw new Error(JSON.stringify(env.error));
        if (i === 0) {
          channel.postMessage('wrote');
          await hear('wrote');
        }
        if (gap) await new Promise((resolve) => setTimeout(resolve, gap));
      }
      channel.close();
    }, { tag, gap, n: APPENDS });
    let total = 0;
    for (const gap of [0, 30]) {
      await Promise.all([run(a, `a${gap}`, gap), run(b, `b${gap}`, gap)]);
      total += 2 * APPENDS;
      const order = (await agreedList(a, b, 'busy')).map((n) => n.preview).filter((p) => p.startsWith(`a${gap} `) || p.startsWith(`b${gap} `));
      assert.equal(order.length, 2 * APPENDS, `gap ${gap} ms: every append landed`);
      for (const tag of [`a${gap}`, `b${gap}`]) {
        assert.deepEqual(order.filter((p) => p.startsWith(tag + ' ')), Array.from({ length: APPENDS }, (_, i) => `${tag} ${i}`), `${tag}: in the order made`);
      }
      // From the moment both write (the later page's first append) until
      // the first page is done, each lands at least a quarter as many as
      // the other.
      const first = (tag) => order.indexOf(`${tag} 0`);
      const last = (tag) => order.indexOf(`${tag} ${APPENDS - 1}`);
      const from = Math.max(first(`a${gap}`), first(`b${gap}`));
      const to = Math.min(last(`a${gap}`), last(`b${gap}`));
      const window = order.slice(from, to + 1);
      const counts = [`a${gap} `, `b${gap} `].map((tag) => window.filter((p) => p.startsWith(tag)).length);
      const shown = `gap ${gap} ms: ${counts.join(' and ')} appends while both wrote (order: ${order.map((p) => p[0]).join('')})`;
      assert.ok(to > from, shown);
      assert.ok(Math.min(...counts) * 4 >= Math.max(...counts), shown);
    }
    const list = await agreedList(a, b, 'busy');
    assert.equal(list.length, total);
    assert.equal(new Set(list.map((n) => n.id)).size, total);
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('three pages writing at random moments, alone and in bursts, lose and duplicate nothing: every successful call is on disk once', async () => {
  const env = await setup();
  try {
    const pages = [...(await twoPages(env)), await open(env)];
    assert.equal(await initTree(pages[2]), null);
    await value(pages[0], { operation: 'create', sessionId: 'shared' });
    await Promise.all(pages.map((p) => p.evaluate(() => window.tree.refresh())));
    const made = await Promise.all(pages.map((page, k) => page.evaluate(async (k) => {
      const ids = [];
      const own = `own${k}`;
      const check = (env) => {
        if (!env.ok) throw new Error(JSON.stringify(env.error));
        return env.value;
      };
      check(await window.tree.call({ operation: 'create', sessionId: own }));
      for (let round = 0; round < 25; round++) {
        // One call, or a burst of three made together (one transaction).
        const burst = round % 3 === 0 ? 3 : 1;
        const calls = [];
        for (let i = 0; i < burst; i++) {
          const sessionId = (round + i) % 2 ? own : 'shared';
          calls.push(window.tree.call({ operation: 'append', sessionId, message: { role: 'user', content: `${k}.${round}.${i}` } }));
        }
        for (const env of await Promise.all(calls)) ids.push(check(env).id);
        await new Promise((resolve) => setTimeout(resolve, (round * 7 + k * 5) % 23));
      }
      return ids;
    }, k)));
    const all = made.flat();
    assert.equal(new Set(all).size, all.length, 'ids are distinct');
    await Promise.all(pages.map((p) => p.evaluate(() => window.tree.refresh())));
    const stored = async (page) => {
      const lists = [];
      for (const sessionId of ['shared', 'own0', 'own1', 'own2']) lists.push(await value(page, { operation: 'list', sessionId }));
      return lists;
    };
    const lists = await stored(pages[0]);
    assert.deepEqual(lists.flat().map((n) => n.id).sort(), [...all].sort(), 'every node made is in memory once');
    for (const page of pages.slice(1)) assert.deepEqual(await stored(page), lists);
    await reload(pages[0]);
    assert.deepEqual(await stored(pages[0]), lists, 'and on disk');
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('a page whose request for the write lock is refused writes nothing: the page holding the lock never writes over its nodes', async () => {
  // Writing without the lock while another page skips the gen read under
  // it wrote two nodes at one key: the session on disk became corrupt
  // ("node … has parentId …, which is not an earlier node") and every
  // later write of the holding page failed.
  const env = await setup();
  try {
    const a = await open(env, env.page);
    const b = await env.newPage();
    await stubStore(b, () => {
      LockManager.prototype.request = () => Promise.reject(new DOMException('refused for the test', 'InvalidStateError'));
    });
    await open(env, b);
    for (const p of [a, b]) assert.equal(await initTree(p), null);
    await value(a, { operation: 'create', sessionId: 'refused' });
    const append = (page, content) => call(page, { operation: 'append', sessionId: 'refused', message: { role: 'user', content } });
    const refusal = { ok: false, error: { code: 'STORAGE_ERROR', message: 'storage error: the lock for writing could not be taken (InvalidStateError: refused for the test); the change was not made' } };
    assert.equal((await append(a, 'a 0')).ok, true);
    for (let i = 1; i <= 10; i++) {
      const [fromA, fromB] = await Promise.all([append(a, `a ${i}`), append(b, `b ${i}`)]);
      assert.equal(fromA.ok, true, JSON.stringify(fromA.error));
      assert.deepEqual(fromB, refusal);
    }
    // A read of page b that arrives while its Writer has a pull queued (page
    // a announces each write) waits in that transaction and is refused with
    // the lock too: b's list is asked again until it comes back, up to 20
    // times. (A read that need not wait for the lock is left for later.)
    await Promise.all([a.evaluate(() => window.tree.refresh()), b.evaluate(() => window.tree.refresh())]);
    const list = await value(a, { operation: 'list', sessionId: 'refused' });
    let fromB = null;
    for (let i = 0; i < 20 && !fromB?.ok; i++) {
      if (i > 0) await b.waitForTimeout(50);
      fromB = await call(b, { operation: 'list', sessionId: 'refused' });
    }
    assert.equal(fromB.ok, true, JSON.stringify(fromB.error));
    assert.deepEqual(fromB.value, list);
    await reload(a);
    assert.deepEqual(await value(a, { operation: 'list', sessionId: 'refused' }), list, 'what page a wrote is on disk');
    assert.deepEqual(list.map((n) => n.preview), Array.from({ length: 11 }, (_, i) => `a ${i}`));
    const c = await open(env);
    assert.equal(await initTree(c), null, 'the stored session restores');
    assert.deepEqual(await value(c, { operation: 'list', sessionId: 'refused' }), list);
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('close() right after calls that read their input first or import in steps (a snapshot file, a file, a long text) stores them; a change made after close() is refused; in the worker and in the page', async () => {
  const env = await setup();
  try {
    for (const worker of [true, false]) {
      const page = await env.newPage();
      await page.goto(env.baseURL + SHIM);
      await page.waitForFunction(() => window.sessiontree !== undefined);
      const got = await page.evaluate(async (worker) => {
        const db = `close-begun-${worker}`;
        let tree = await window.sessiontree.init({ dbName: db, worker });
        const snapshot = new Blob([JSON.stringify({ version: 1, sessionId: 'L', cursor: null, activeBranch: 'main', nodes: [] })]);
        const loaded = tree.loadSnapshot('L', snapshot);
        const file = tree.importFile(new Blob([JSON.stringify([{ role: 'user', content: 'from a file' }])]));
        // 300 conversations: imported in several slices, the last after close().
        const chats = Array.from({ length: 300 }, (_, i) => ({ name: `C${i}`, messages: Array.from({ length: 15 }, (_, k) => ({ role: k % 2 ? 'assistant' : 'user', content: `chat ${i} message ${k} `.repeat(20) })) }));
        const text = tree.importText(JSON.stringify(chats));
        tree.close();
        const after = await tree.create('after-close');
        const answers = [await loaded, await file, await text].map((e) => (e.ok ? 'ok' : e.error.message));
        const imported = (await text).value?.sessions.length;
        tree = await window.sessiontree.init({ dbName: db, worker });
        const ids = (await tree.call({ operation: 'sessions' })).value.map((s) => s.sessionId);
        tree.close();
        return { answers, imported, after: after.ok ? 'stored' : after.error.code, count: ids.length, L: ids.includes('L'), afterClose: ids.includes('after-close') };
      }, worker);
      assert.deepEqual(got, { answers: ['ok', 'ok', 'ok'], imported: 300, after: 'STORAGE_ERROR', count: 302, L: true, afterClose: false }, `worker: ${worker}`);
      await page.close();
    }
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('a tree closed while it holds the write lock, writes, or waits for it lets go: a tree opened again in the same page and another page keep writing', async () => {
  const env = await setup();
  try {
    const [a, b] = await twoPages(env);
    await value(a, { operation: 'create', sessionId: 'reopen' });
    const append = (content) => ({ operation: 'append', sessionId: 'reopen', message: { role: 'user', content } });
    // close() right after the call, or 0, 2 or 5 ms later (the call waits,
    // runs or has committed), then init() again in the same page.
    const closedWrites = [];
    for (const delay of [null, 0, 2, 5]) {
      await value(a, append(`a before ${delay}`)); // a holds the lock now
      const env = await a.evaluate(async ({ delay, request }) => {
        const pending = window.tree.call(request);
        if (delay !== null) await new Promise((resolve) => setTimeout(resolve, delay));
        window.tree.close();
        const env = await pending;
        window.tree = await window.sessiontree.init({ dbName: 'durable' });
        return env;
      }, { delay, request: append(`closing ${delay}`) });
      if (!env.ok) assert.equal(env.error.code, 'STORAGE_ERROR');
      closedWrites.push([`closing ${delay}`, env.ok]);
      await value(a, append(`a after ${delay}`));
      await value(b, append(`b after ${delay}`));
    }
    // Page b holds the lock (as its writer would); a's call waits for it,
    // a's tree is closed (the call, made before, is still stored once the
    // lock is free) and opened again, and its next call queues behind.
    await b.evaluate(() => new Promise((held) => {
      navigator.locks.request('sessiontree-write:durable', () => new Promise((release) => {
        window.releaseTestLock = release;
        held();
      }));
    }));
    const waited = a.evaluate(async ({ first, second }) => {
      const pending = window.tree.call(first);
      await new Promise((resolve) => setTimeout(resolve, 20));
      window.tree.close();
      window.tree = await window.sessiontree.init({ dbName: 'durable' });
      return [await pending, await window.tree.call(second)];
    }, { first: append('waiting closed'), second: append('waiting reopened') });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await b.evaluate(() => window.releaseTestLock());
    const [closed, reopened] = await waited;
    assert.equal(closed.ok, true, 'a call made before close() is stored');
    assert.equal(reopened.ok, true);
    await value(b, append('b last'));
    const previews = (await agreedList(a, b, 'reopen')).map((n) => n.preview);
    for (const [content, ok] of closedWrites) assert.equal(previews.includes(content), ok, `${content} is stored exactly when its call succeeded`);
    assert.deepEqual(previews.filter((p) => !p.startsWith('closing')), [
      ...[null, 0, 2, 5].flatMap((d) => [`a before ${d}`, `a after ${d}`, `b after ${d}`]),
      'waiting closed', 'waiting reopened', 'b last',
    ]);
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('a session erased and made again under its id in one page reaches the other page as the new session: its text, not the erased one, and appends go on from its nodes', async () => {
  const env = await setup();
  try {
    const a = await open(env, env.page);
    assert.equal(await initTree(a), null);
    await value(a, { operation: 'append.many', sessionId: 'x', create: true, messages: [{ role: 'user', content: 'apple pie' }] });
    const b = await open(env);
    // Without a worker the two calls below join one transaction: page a
    // never reads the erased session's tombstone, only the new session.
    assert.equal(await initTree(b, { dbName: 'durable', worker: false }), null);
    await value(b, { operation: 'context', sessionId: 'x' });
    const [erased, made] = await b.evaluate(() => Promise.all([
      window.tree.call({ operation: 'delete', sessionId: 'x', permanent: true }),
      window.tree.call({ operation: 'append.many', sessionId: 'x', create: true, messages: [{ role: 'user', content: 'banana bread' }] }),
    ]));
    assert.deepEqual(erased.value, { erased: ['x'] });
    await a.evaluate(() => window.tree.refresh());
    const context = await value(a, { operation: 'context', sessionId: 'x' });
    assert.deepEqual(context.messages, [{ role: 'user', content: 'banana bread' }], 'the new session, as stored');
    assert.deepEqual((await value(a, { operation: 'search', query: 'apple' })).hits, [], 'the erased text is gone');
    const next = await value(a, { operation: 'append', sessionId: 'x', message: { role: 'user', content: 'cherry' } });
    assert.equal(next.parentId, made.value.nodeIds[0]);
    await reload(a);
    assert.deepEqual((await value(a, { operation: 'context', sessionId: 'x' })).messages.map((m) => m.content), ['banana bread', 'cherry']);
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('annotations (labels, hidden subtrees) are stored, reach the other page and survive a reload', async () => {
  const env = await setup();
  try {
    const [a, b] = await twoPages(env);
    await value(a, { operation: 'create', sessionId: 'notes' });
    const n1 = await value(a, { operation: 'append', sessionId: 'notes', message: { role: 'user', content: 'one' } });
    const n2 = await value(a, { operation: 'append', sessionId: 'notes', message: { role: 'assistant', content: 'two' } });
    await value(a, { operation: 'label', sessionId: 'notes', nodeId: n1.id, label: 'start' });
    await b.evaluate(() => window.tree.refresh());
    await value(b, { operation: 'hide', sessionId: 'notes', nodeId: n2.id });
    await a.evaluate(() => window.tree.refresh());
    const snapA = await value(a, { operation: 'snapshot.save', sessionId: 'notes' });
    const snapB = await value(b, { operation: 'snapshot.save', sessionId: 'notes' });
    assert.deepEqual(snapA.annotations.map((x) => x.kind), ['label', 'hide']);
    assert.deepEqual(snapB.annotations, snapA.annotations);
    await reload(a);
    assert.deepEqual(await value(a, { operation: 'snapshot.save', sessionId: 'notes' }), snapA);
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('a page closed in the middle of a 10,000-node snapshot load holds the old or the new session, complete', async (t) => {
  const env = await setup();
  try {
    const page = await open(env, env.page);
    assert.equal(await initTree(page), null);
    await value(page, { operation: 'create', sessionId: 'big' });
    for (let i = 0; i < 3; i++) await value(page, { operation: 'append', sessionId: 'big', message: { role: 'user', content: `old ${i}` } });
    const old = await value(page, { operation: 'snapshot.save', sessionId: 'big' });
    const fresh = chainSnapshot('big', 10000, 'x'.repeat(100));
    await page.close();

    const outcomes = [];
    for (const delay of ['first chunk written', 0, 30, 150]) {
      const p = await env.newPage();
      if (typeof delay === 'string') {
        // Tell the test the moment the load's transaction writes its first
        // chunk record, and keep that transaction open from then on (a
        // chain of reads in it, and its explicit commit() ignored), so the
        // page is closed mid-transaction however fast the rest of the load
        // would have been.
        await stubStore(p, () => {
          const commit = IDBTransaction.prototype.commit;
          IDBTransaction.prototype.commit = function () {
            if (!window.__told) commit.call(this);
          };
          const put = IDBObjectStore.prototype.put;
          IDBObjectStore.prototype.put = function (...args) {
            const request = put.apply(this, args);
            if (this.name === 'chunks' && !window.__told) {
              window.__told = true;
              const store = this;
              const spin = () => (store.count().onsuccess = spin);
              spin();
              console.log('MIDLOAD');
            }
            return request;
          };
        });
      }
      await open(env, p);
      assert.equal(await initTree(p), null);
      const told = new Promise((resolve) => p.on('console', (m) => m.text() === 'MIDLOAD' && resolve()));
      await p.evaluate((snap) => {
        window.loading = window.tree.call({ operation: 'snapshot.load', sessionId: 'big', snapshot: snap });
      }, fresh);
      if (typeof delay === 'string') await told;
      else await new Promise((r) => setTimeout(r, delay));
      await p.close();

      const check = await open(env);
      assert.equal(await initTree(check), null);
      const snap = await value(check, { operation: 'snapshot.save', sessionId: 'big' });
      if (snap.nodes.length === 3) {
        assert.deepEqual(snap, old);
        outcomes.push('old');
      } else {
        assert.deepEqual(snap.nodes, fresh.nodes);
        outcomes.push('new');
        // Put the old one back for the next round.
        await value(check, { operation: 'snapshot.load', sessionId: 'big', snapshot: old });
      }
      await check.close();
    }
    t.diagnostic(`outcomes by close time (first chunk written, 0, 30, 150 ms): ${outcomes.join(', ')}`);
    assert.equal(outcomes[0], 'old', 'a page closed while its transaction is open keeps the old session');
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('an exceeded quota (stubbed QuotaExceededError) gives a STORAGE_ERROR envelope, memory is rolled back and the earlier data survives a reload', async () => {
  const env = await setup();
  try {
    const page = env.page;
    // Chromium's CDP quota override (Storage.overrideQuotaForOrigin) does
    // not apply to this headless build, so the quota is stubbed: a put of a
    // value above window.quotaLeft bytes aborts its transaction before
    // commit with a QuotaExceededError, as a full disk does.
    await stubStore(page, () => {
      window.quotaLeft = Infinity;
      const put = IDBObjectStore.prototype.put;
      IDBObjectStore.prototype.put = function (value, ...rest) {
        const req = put.call(this, value, ...rest);
        const size = typeof value === 'string' ? value.length : JSON.stringify(value).length;
        if (size > window.quotaLeft) {
          const tx = this.transaction;
          Object.defineProperty(tx, 'error', { get: () => new DOMException('the quota has been exceeded', 'QuotaExceededError') });
          queueMicrotask(() => {
            try {
              tx.abort();
            } catch {
              // already finished
            }
          });
        }
        return req;
      };
    });
    await open(env, page);
    assert.equal(await initTree(page), null);
    await value(page, { operation: 'create', sessionId: 'q', title: 'kept' });
    const first = await value(page, { operation: 'append', sessionId: 'q', message: { role: 'user', content: 'small and safe' } });
    const before = await value(page, { operation: 'snapshot.save', sessionId: 'q' });
    await inStore(page, () => (window.quotaLeft = 200_000));

    // Random text: IndexedDB compresses large values, so repeated characters would fit.
    await page.evaluate(() => {
      const bytes = new Uint8Array(1_500_000);
      for (let i = 0; i < bytes.length; i += 65536) crypto.getRandomValues(bytes.subarray(i, i + 65536));
      window.big = Array.from(bytes, (x) => x.toString(16).padStart(2, '0')).join('');
    });
    const cases = [
      { what: 'an append', request: { operation: 'append', sessionId: 'q', message: { role: 'user', content: '<big>' } } },
      { what: 'a session made with its messages', request: { operation: 'append.many', sessionId: 'q2', create: true, messages: [{ role: 'user', content: '<big>' }] } },
      { what: 'a snapshot load', request: { operation: 'snapshot.load', sessionId: 'q', snapshot: { version: 1, sessionId: 'q', cursor: null, activeBranch: 'main', nodes: [{ id: 'b1', parentId: null, branch: 'main', kind: 'message', timestamp: '2026-11-29T12:00:00.000Z', message: { role: 'user', content: '<big>' } }] } } },
    ];
    for (const { what, request } of cases) {
      const env2 = await page.evaluate((text) => window.tree.call(text.replace('"<big>"', () => JSON.stringify(window.big))), JSON.stringify(request));
      assert.equal(env2.ok, false, `${what} succeeded beyond the quota`);
      assert.equal(env2.error.code, 'STORAGE_ERROR', what);
      assert.match(env2.error.message, /^storage full: .*QuotaExceededError.*the change was not saved and was undone$/, what);
      assert.deepEqual(await value(page, { operation: 'snapshot.save', sessionId: 'q' }), before, `${what}: memory is what is stored`);
      assert.deepEqual((await value(page, { operation: 'sessions' })).map((s) => s.sessionId), ['q'], what);
    }

    // Small writes still work within the quota, then the reload restores them.
    const next = await value(page, { operation: 'append', sessionId: 'q', message: { role: 'assistant', content: 'still fine' } });
    assert.equal(next.parentId, first.id);
    const after = await value(page, { operation: 'snapshot.save', sessionId: 'q' });
    await reload(page);
    assert.deepEqual(await value(page, { operation: 'snapshot.save', sessionId: 'q' }), after);
    assert.deepEqual((await value(page, { operation: 'sessions' })).map((s) => s.sessionId), ['q']);
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('init rejects when IndexedDB cannot be opened or read, unless persist is false, and touches nothing stored', async () => {
  const env = await setup();
  try {
    const page = await open(env, env.page);
    assert.equal(await initTree(page), null);
    await value(page, { operation: 'create', sessionId: 'keep' });
    await value(page, { operation: 'append', sessionId: 'keep', message: { role: 'user', content: 'do not lose me' } });
    const stored = await value(page, { operation: 'snapshot.save', sessionId: 'keep' });
    await page.close();

    const stubs = [
      {
        name: 'indexedDB.open throws (blocked by policy)',
        script: () => {
          IDBFactory.prototype.open = function () {
            throw new DOMException('access to IndexedDB is blocked by policy', 'SecurityError');
          };
        },
        want: /^sessiontree: cannot open IndexedDB database "durable": access to IndexedDB is blocked by policy$/,
      },
      {
        name: 'indexedDB.open fails (private mode)',
        script: () => {
          IDBFactory.prototype.open = function () {
            const req = new EventTarget();
            Object.defineProperty(req, 'error', { value: new DOMException('the user agent does not allow storage', 'InvalidStateError') });
            setTimeout(() => req.onerror?.(new Event('error')), 0);
            return req;
          };
        },
        want: /^sessiontree: cannot open IndexedDB database "durable": InvalidStateError: the user agent does not allow storage$/,
      },
      {
        name: 'IndexedDB is missing',
        script: () => {
          delete window.indexedDB;
          Object.defineProperty(window, 'indexedDB', { value: undefined });
        },
        want: /IndexedDB is not available in this browser context; use init\(\{persist: false\}\)/,
      },
      {
        name: 'a read fails at start-up',
        // Start-up reads the meta records only (sessions are paged in on demand).
        script: failSessionsReads,
        arg: 'the disk said no',
        want: /^sessiontree: reading IndexedDB database "durable" failed, nothing was changed: the disk said no$/,
      },
    ];
    for (const stub of stubs) {
      const p = await env.newPage();
      await stubStore(p, stub.script, stub.arg);
      await open(env, p);
      const err = await initTree(p);
      assert.match(String(err), stub.want, stub.name);
      assert.equal(await initTree(p, { persist: false }), null, `${stub.name}: persist false still works`);
      assert.deepEqual((await value(p, { operation: 'sessions' })), [], `${stub.name}: the in-memory tree is empty`);
      await p.close();
    }

    const check = await open(env);
    assert.equal(await initTree(check), null);
    assert.deepEqual(await value(check, { operation: 'snapshot.save', sessionId: 'keep' }), stored, 'nothing stored was touched');
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('a newer schema opened in another tab closes this tab\'s connection and tells the app; an old tab blocking the upgrade is reported', async () => {
  const env = await setup();
  try {
    const a = await open(env, env.page);
    assert.equal(await initTree(a), null);
    await value(a, { operation: 'create', sessionId: 'v' });

    const b = await open(env);
    const opened = await b.evaluate(() => new Promise((resolve) => {
      const req = indexedDB.open('durable', 99);
      req.onsuccess = () => {
        req.result.close();
        resolve('opened');
      };
      req.onblocked = () => resolve('blocked');
      req.onerror = () => resolve('error');
    }));
    assert.equal(opened, 'opened', 'this tab let go of the database');
    // The worker's storage event reaches the page after b's open may have: waited for.
    const event = await waitUntil(a, () => window.events.find((e) => e.type === 'storage'));
    assert.equal(event.state, 'closed');
    assert.equal(event.reason, 'versionchange');
    assert.match(event.message, /newer version .* another tab; this tab no longer saves changes: reload it/);
    const refused = await call(a, { operation: 'append', sessionId: 'v', message: { role: 'user', content: 'x' } });
    assert.equal(refused.error.code, 'STORAGE_ERROR');
    assert.equal((await value(a, { operation: 'session', sessionId: 'v' })).nodeCount, 0, 'nothing changed in memory');
    assert.equal((await a.evaluate(() => window.tree.storage())).state, 'closed');

    // A tab of this build opening the database a newer one stored is told to reload.
    const late = await open(env);
    assert.equal(await initTree(late), 'sessiontree: IndexedDB database "durable" was stored by a newer version of this site (schema above 7); reload the page to get that version');

    // An old tab holding version 1 open without letting go blocks our upgrade.
    const old = await open(env);
    await old.evaluate(() => new Promise((resolve) => {
      const req = indexedDB.open('old-db', 1);
      req.onupgradeneeded = () => {
        for (const s of ['sessions', 'nodes', 'snapshots']) req.result.createObjectStore(s);
      };
      req.onsuccess = () => {
        window.keep = req.result; // no onversionchange: it never closes
        resolve();
      };
    }));
    const c = await open(env);
    // init() settles with the reason (it does not wait for the old tab).
    const err = await initTree(c, { dbName: 'old-db' });
    assert.match(String(err), /^sessiontree: IndexedDB database "old-db" is held open at version 1 by another tab, which blocks the upgrade to version 7; close the other tabs of this site and reload$/);
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('a version-1 database is upgraded keeping every session, node, annotation and restore point', async () => {
  const env = await setup();
  try {
    const page = await open(env, env.page);
    const snap = chainSnapshot('legacy', 2500, 'v1');
    snap.cursor = 'p01000';
    // Write the version-1 layout directly, as the foundation release did.
    await page.evaluate((snap) => new Promise((resolve, reject) => {
      const req = indexedDB.open('durable', 1);
      req.onupgradeneeded = () => {
        for (const s of ['sessions', 'nodes', 'snapshots']) req.result.createObjectStore(s);
      };
      req.onsuccess = () => {
        const db = req.result;
        const tx = db.transaction(['sessions', 'nodes', 'snapshots'], 'readwrite');
        tx.objectStore('sessions').put({ sessionId: 'legacy', title: 'from v1', cursor: snap.cursor, activeBranch: 'main', createdAt: '2026-11-01T00:00:00.000Z', updatedAt: '2026-11-02T00:00:00.000Z', nodeCount: snap.nodes.length, annotationCount: 2 }, 'legacy');
        tx.objectStore('sessions').put({ sessionId: 'empty', title: '', cursor: null, activeBranch: 'main', createdAt: '2026-11-03T00:00:00.000Z', updatedAt: '2026-11-03T00:00:00.000Z', nodeCount: 0 }, 'empty');
        snap.nodes.forEach((n, i) => tx.objectStore('nodes').put(JSON.stringify(n), ['legacy', i]));
        // Annotation records as issue 3 stored them within version 1.
        tx.objectStore('nodes').put(JSON.stringify({ kind: 'label', nodeId: 'p00002', label: 'kept', timestamp: '2026-11-01T00:00:01.000Z' }), ['legacy', 'a', 0]);
        tx.objectStore('nodes').put(JSON.stringify({ kind: 'hide', nodeId: 'p00003', hidden: true, timestamp: '2026-11-01T00:00:02.000Z' }), ['legacy', 'a', 1]);
        tx.objectStore('snapshots').put({ sessionId: 'legacy', name: 'before', createdAt: '2026-11-01T00:00:00.000Z', nodeCount: 1, snapshot: JSON.stringify({ ...snap, nodes: snap.nodes.slice(0, 1), cursor: 'p00000' }) }, ['legacy', 'before']);
        tx.oncomplete = () => {
          db.close();
          resolve();
        };
        tx.onabort = () => reject(tx.error);
      };
    }), snap);

    assert.equal(await initTree(page), null);
    const status = await value(page, { operation: 'session', sessionId: 'legacy' });
    assert.deepEqual(
      { title: status.title, cursor: status.cursor, nodeCount: status.nodeCount, createdAt: status.createdAt, updatedAt: status.updatedAt },
      { title: 'from v1', cursor: 'p01000', nodeCount: 2500, createdAt: '2026-11-01T00:00:00.000Z', updatedAt: '2026-11-02T00:00:00.000Z' },
    );
    const saved = await value(page, { operation: 'snapshot.save', sessionId: 'legacy' });
    assert.deepEqual(saved.nodes, snap.nodes);
    assert.deepEqual(saved.annotations.map((a) => [a.kind, a.nodeId]), [['label', 'p00002'], ['hide', 'p00003']]);
    assert.deepEqual((await value(page, { operation: 'sessions' })).map((s) => s.sessionId), ['legacy', 'empty']);
    assert.deepEqual((await page.evaluate(() => window.tree.listSnapshots('legacy'))).value.map((s) => s.name), ['before']);

    // The next write folds the v1 node records into chunks; a reload reads them back.
    await value(page, { operation: 'jump', sessionId: 'legacy', nodeId: 'p02499' });
    const added = await value(page, { operation: 'append', sessionId: 'legacy', message: { role: 'user', content: 'after the upgrade' } });
    const layout = await page.evaluate(() => new Promise((resolve) => {
      const req = indexedDB.open('durable');
      req.onsuccess = () => {
        const db = req.result;
        const tx = db.transaction(['chunks', 'nodes', 'annotations'], 'readonly');
        const out = { version: db.version };
        tx.objectStore('chunks').count().onsuccess = (e) => (out.chunks = e.target.result);
        tx.objectStore('nodes').count().onsuccess = (e) => (out.nodes = e.target.result);
        tx.objectStore('annotations').count().onsuccess = (e) => (out.annotations = e.target.result);
        tx.oncomplete = () => {
          db.close();
          resolve(out);
        };
      };
    }));
    assert.deepEqual(layout, { version: 7, chunks: 2, nodes: 501, annotations: 2 });
    await reload(page);
    const reloaded = await value(page, { operation: 'snapshot.save', sessionId: 'legacy' });
    assert.deepEqual(reloaded.nodes, [...snap.nodes, added]);
    assert.deepEqual(reloaded.annotations, saved.annotations);
    const restored = await page.evaluate(() => window.tree.restoreSnapshot('legacy', 'before'));
    assert.equal(restored.ok, true);
    assert.equal(restored.value.nodeCount, 1);
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('storage() reports usage, quota and persistence for the explorer', async () => {
  const env = await setup();
  try {
    const page = await open(env, env.page);
    assert.equal(await initTree(page), null);
    const info = await page.evaluate(() => window.tree.storage({ requestPersist: true }));
    assert.equal(info.persistent, true);
    assert.equal(info.state, 'open');
    assert.equal(info.reason, null);
    assert.equal(typeof info.usage, 'number');
    assert.ok(info.quota > 0);
    assert.equal(typeof info.persisted, 'boolean');
    assert.equal(info.persistPending, false, 'Chromium answers persist() at once');
    assert.equal(await initTree(page, { persist: false }), null);
    assert.equal((await page.evaluate(() => window.tree.storage())).state, 'memory');
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('chunk records are UTF-8 bytes, chunks stored as text by the earlier build still restore, and call takes a request as bytes', async () => {
  const env = await setup();
  try {
    const page = await open(env, env.page);
    assert.equal(await initTree(page), null);
    const snap = chainSnapshot('bytes', 2300, 'naïve café 日本語 😀');
    // The request crosses as UTF-8 bytes, as a snapshot file read with arrayBuffer() would.
    const loaded = await page.evaluate(async (snap) => {
      const bytes = new TextEncoder().encode(JSON.stringify({ operation: 'snapshot.load', sessionId: 'bytes', snapshot: snap }));
      const fromBytes = await window.tree.call(bytes);
      const fromBuffer = await window.tree.callText(bytes.buffer.slice(0));
      return { fromBytes, fromBuffer: JSON.parse(fromBuffer) };
    }, snap);
    assert.equal(loaded.fromBytes.ok, true, JSON.stringify(loaded.fromBytes.error));
    assert.equal(loaded.fromBytes.value.nodeCount, 2300);
    assert.equal(loaded.fromBuffer.ok, true);

    const kinds = await page.evaluate(() => new Promise((resolve) => {
      const req = indexedDB.open('durable');
      req.onsuccess = () => {
        const db = req.result;
        const tx = db.transaction(['chunks'], 'readwrite');
        const store = tx.objectStore('chunks');
        const out = [];
        store.openCursor().onsuccess = (e) => {
          const c = e.target.result;
          if (!c) return;
          out.push(c.value instanceof Uint8Array ? 'bytes' : typeof c.value);
          // Rewrite the first chunk the way the earlier build stored it: text.
          if (out.length === 1) c.update(new TextDecoder().decode(c.value));
          c.continue();
        };
        tx.oncomplete = () => {
          db.close();
          resolve(out);
        };
      };
    }));
    assert.deepEqual(kinds, ['bytes', 'bytes', 'bytes']);

    await reload(page);
    const saved = await value(page, { operation: 'snapshot.save', sessionId: 'bytes' });
    assert.deepEqual(saved.nodes, snap.nodes, 'a text chunk, a byte chunk and a 300-node byte chunk make the same session');
    const bad = await page.evaluate(() => window.tree.call(new TextEncoder().encode('{"operation":"session","sessionId":')));
    assert.equal(bad.ok, false);
    assert.equal(bad.error.code, 'INVALID_ARGUMENT');
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});
