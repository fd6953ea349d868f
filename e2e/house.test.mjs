// The shim after issue 14, in headless Chromium through the shim page
// (e2e/fixtures/shim.html exposes js/sessiontree.js as window.sessiontree):
// requests are built from JSON pieces (no placeholder a session's id or
// title could collide with), routed by the text that is sent, internal
// operations are unreachable from call, and the operation table comes
// from the wasm. Each test starts a fresh browser context (empty IndexedDB).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openShimPage } from './helpers.mjs';

const DB = 'house';

/**
 * Ids and titles that once collided with the shim's placeholders
 * ("__N__", "__S__", "__A__") or that mean something to
 * String.prototype.replace ("$&", "$'").
 */
const NAMES = ['__N__', '__S__', '__A__', '"$&"', "$'"];

/** init() on page under window.tree, on database DB. */
async function initTree(page) {
  const failed = await page.evaluate(async (dbName) => {
    try {
      window.tree = await window.sessiontree.init({ dbName });
      return null;
    } catch (err) {
      return String(err?.message ?? err);
    }
  }, DB);
  assert.equal(failed, null);
}

/** A shim page with a tree on DB. */
async function treePage(env) {
  const page = await openShimPage(env);
  await initTree(page);
  return page;
}

/** Reload the page and init() again. */
async function reload(page) {
  await page.reload();
  await page.waitForFunction(() => window.sessiontree !== undefined);
  await initTree(page);
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

/** Every record of every object store of DB, read in the page (chunk bytes as text). */
function dumpDatabase(page) {
  return page.evaluate(async (dbName) => {
    const done = (req) => new Promise((resolve, reject) => {
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const db = await done(indexedDB.open(dbName));
    try {
      const names = [...db.objectStoreNames];
      const tx = db.transaction(names, 'readonly');
      const out = {};
      for (const name of names) {
        const store = tx.objectStore(name);
        const [keys, values] = await Promise.all([done(store.getAllKeys()), done(store.getAll())]);
        out[name] = keys.map((k, i) => [k, values[i] instanceof Uint8Array ? new TextDecoder().decode(values[i]) : values[i]]);
      }
      return out;
    } finally {
      db.close();
    }
  }, DB);
}

/** What a page's tree holds: every session's status and nodes. */
async function everything(page) {
  const sessions = await value(page, { operation: 'sessions' });
  const out = {};
  for (const s of sessions) {
    out[s.sessionId] = {
      status: await value(page, { operation: 'session', sessionId: s.sessionId }),
      list: await value(page, { operation: 'list', sessionId: s.sessionId }),
    };
  }
  return out;
}

test('sessions whose ids and titles look like placeholders work across two tabs and a reload', async () => {
  const env = await setup();
  try {
    const a = await treePage(env);
    const b = await treePage(env);
    await value(a, { operation: 'create', sessionId: 'plain', title: 'plain' });
    for (const name of NAMES) {
      await value(a, { operation: 'create', sessionId: name, title: name });
      const first = await value(a, { operation: 'append', sessionId: name, message: { role: 'user', content: `first of ${name}` } });
      await value(a, { operation: 'label', sessionId: name, nodeId: first.id, label: name });
    }
    // b takes every session in whole (restore), then only what is new (sync.merge).
    await b.evaluate(() => window.tree.refresh());
    for (const name of NAMES) {
      const second = await value(a, { operation: 'append', sessionId: name, message: { role: 'assistant', content: `second of ${name}` } });
      await value(a, { operation: 'label', sessionId: name, nodeId: second.id, label: `${name} again` });
    }
    await b.evaluate(() => window.tree.refresh());
    // Writes in b still work, to these sessions and to others.
    for (const name of [...NAMES, 'plain']) {
      await value(b, { operation: 'append', sessionId: name, message: { role: 'user', content: `from b to ${name}` } });
    }
    await a.evaluate(() => window.tree.refresh());
    for (const name of NAMES) {
      const list = await value(a, { operation: 'list', sessionId: name });
      // Previews are plain text: a name such as __N__ reads as Markdown emphasis there (N).
      const shown = name.replace(/^__(.+)__$/, '$1');
      assert.deepEqual(list.map((n) => n.preview), [`first of ${shown}`, `second of ${shown}`, `from b to ${shown}`], `session ${name} in a`);
      assert.deepEqual(await value(b, { operation: 'list', sessionId: name }), list, `session ${name} is the same in b`);
      const status = await value(b, { operation: 'session', sessionId: name });
      assert.equal(status.title, name);
      const rows = (await value(b, { operation: 'tree', sessionId: name })).rows;
      assert.deepEqual(rows.map((r) => r.label ?? null), [name, `${name} again`, null], `labels of ${name} reached b`);
    }
    // b wrote last, so its cursors are the stored ones (a keeps its own until it reloads).
    const before = await everything(b);
    assert.deepEqual(Object.keys(before).sort(), [...NAMES, 'plain'].sort());
    await reload(a);
    assert.deepEqual(await everything(a), before, 'a reload brings back the same sessions');
    await reload(b);
    assert.deepEqual(await everything(b), before);
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('a named restore point of a session named like a placeholder comes back with the saved context', async () => {
  const env = await setup();
  try {
    const page = await treePage(env);
    for (const name of NAMES) {
      await value(page, { operation: 'create', sessionId: name, title: name });
      await value(page, { operation: 'append', sessionId: name, message: { role: 'user', content: `saved in ${name} ($& $' __S__)` } });
      const saved = await page.evaluate((name) => window.tree.saveSnapshot(name, name), name);
      assert.equal(saved.ok, true, JSON.stringify(saved.error));
      const context = await value(page, { operation: 'context', sessionId: name });
      await value(page, { operation: 'append', sessionId: name, message: { role: 'assistant', content: 'after the save' } });
      assert.equal((await value(page, { operation: 'context', sessionId: name })).messages.length, 2);
      const restored = await page.evaluate((name) => window.tree.restoreSnapshot(name, name), name);
      assert.equal(restored.ok, true, `restoring ${name}: ${JSON.stringify(restored.error)}`);
      assert.equal(restored.value.sessionId, name);
      assert.deepEqual(await value(page, { operation: 'context', sessionId: name }), context, `context of ${name} after the restore`);
      await reload(page);
      assert.deepEqual(await value(page, { operation: 'context', sessionId: name }), context, `context of ${name} after a reload`);
    }
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('a request is routed by the text that is sent: a toJSON append and bytes are stored, a repeated operation key is refused', async () => {
  const env = await setup();
  try {
    const page = await treePage(env);
    await value(page, { operation: 'create', sessionId: 's' });
    const r = await page.evaluate(async () => {
      const tree = window.tree;
      const out = {};
      // The object says "list"; what is sent (and run) is an append.
      out.toJSON = await tree.call({
        operation: 'list',
        sessionId: 's',
        toJSON: () => ({ operation: 'append', sessionId: 's', message: { role: 'user', content: 'sent by toJSON' } }),
      });
      // Which of two "operation" members was meant cannot be known: refused, whichever way it is routed.
      out.repeated = await tree.call('{"operation":"list","sessionId":"s","operation":"append","message":{"role":"user","content":"repeated key"}}');
      out.repeatedBytes = await tree.call(new TextEncoder().encode('{"operation":"context","sessionId":"s","operation":"append","message":{"role":"user","content":"repeated bytes"}}'));
      out.bytes = await tree.call(new TextEncoder().encode('{"sessionId":"s","message":{"role":"user","content":"as bytes"},"operation":"append"}'));
      // A context that is one: answered from the columns path, same value.
      out.context = await tree.call({ operation: 'context', sessionId: 's' });
      out.contextBytes = await tree.call(new TextEncoder().encode('{"sessionId":"s","operation":"context"}'));
      return out;
    });
    for (const k of ['toJSON', 'bytes']) assert.equal(r[k].ok, true, `${k}: ${JSON.stringify(r[k].error)}`);
    for (const k of ['repeated', 'repeatedBytes']) assert.deepEqual(r[k], { ok: false, error: { code: 'INVALID_ARGUMENT', message: 'field "operation" appears more than once in the request; give each field once' } }, k);
    assert.equal(r.toJSON.value.message.content, 'sent by toJSON');
    assert.equal(r.bytes.value.message.content, 'as bytes');
    const texts = ['sent by toJSON', 'as bytes'];
    assert.deepEqual(r.context.value.messages.map((m) => m.content), texts);
    assert.deepEqual(r.contextBytes, r.context);
    const dump = await dumpDatabase(page);
    assert.deepEqual(dump.nodes.map(([, v]) => JSON.parse(v).message.content), texts, 'every append is in IndexedDB');
    await reload(page);
    assert.deepEqual((await value(page, { operation: 'context', sessionId: 's' })).messages.map((m) => m.content), texts, 'present after a reload');
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('the internal operations are unknown to call and callText, in every form, and change nothing, also after a reload', async () => {
  const env = await setup();
  try {
    const page = await treePage(env);
    await value(page, { operation: 'create', sessionId: 's', title: 'kept' });
    const first = await value(page, { operation: 'append', sessionId: 's', message: { role: 'user', content: 'one' } });
    await value(page, { operation: 'append', sessionId: 's', message: { role: 'assistant', content: 'two' } });
    await value(page, { operation: 'label', sessionId: 's', nodeId: first.id, label: 'start' });
    await page.evaluate(() => window.tree.flush()); // the metas the appends left for later are written
    const before = { tree: await everything(page), db: await dumpDatabase(page) };
    const node = { id: 'feedbeef', parentId: first.id, branch: 'main', kind: 'message', timestamp: '2026-12-01T00:00:00.000Z', message: { role: 'user', content: 'injected' } };
    const requests = [
      { operation: 'sync.merge', sessionId: 's', nodes: [node] },
      { operation: 'sync.merge', sessionId: 's', nodes: [node], cursor: 'feedbeef', activeBranch: 'main' },
      { operation: 'restore', snapshot: { version: 1, sessionId: 'r', cursor: null, activeBranch: 'main', nodes: [] }, title: 'restored' },
      { operation: 'restore', snapshot: { version: 1, sessionId: 's', cursor: null, activeBranch: 'main', nodes: [] } },
      { operation: 'sync.forget', sessionId: 's' },
    ];
    const r = await page.evaluate(async (requests) => {
      const tree = window.tree;
      const events = [];
      const off = tree.subscribe((e) => events.push(e));
      const answers = [];
      for (const req of requests) {
        const text = JSON.stringify(req);
        answers.push(await tree.call(req));
        answers.push(await tree.call(text));
        answers.push(await tree.call(new TextEncoder().encode(text)));
        answers.push(JSON.parse(await tree.callText(req)));
        answers.push(await tree.call({ toJSON: () => req }));
      }
      await tree.flush();
      off();
      return { answers, events, operations: Object.keys(tree.operations) };
    }, requests);
    assert.equal(r.answers.length, requests.length * 5);
    for (const [i, a] of r.answers.entries()) {
      const op = requests[Math.floor(i / 5)].operation;
      assert.equal(a.ok, false, `${op} (form ${i % 5}) answered ok`);
      assert.equal(a.error.code, 'INVALID_ARGUMENT');
      assert.match(a.error.message, new RegExp(`^unknown operation "${op.replace('.', '\\.')}"`));
      const known = /\(known: ([^)]*)\)/.exec(a.error.message);
      assert.ok(known, a.error.message);
      assert.deepEqual(known[1].split(', '), [...r.operations].sort(), 'the error names the public operations only');
    }
    assert.deepEqual(r.events, [], 'no change was reported');
    assert.deepEqual(await everything(page), before.tree, 'memory is unchanged');
    assert.deepEqual(await dumpDatabase(page), before.db, 'IndexedDB is unchanged');
    // The session is there and writable: not forgotten, nothing injected.
    const again = await call(page, { operation: 'create', sessionId: 's' });
    assert.equal(again.error?.code, 'SESSION_ALREADY_EXISTS');
    assert.equal((await call(page, { operation: 'session', sessionId: 'r' })).error?.code, 'SESSION_NOT_FOUND');
    await reload(page);
    assert.deepEqual(await everything(page), before.tree, 'unchanged after a reload');
    assert.deepEqual(await dumpDatabase(page), before.db);
    const third = await value(page, { operation: 'append', sessionId: 's', message: { role: 'user', content: 'three' } });
    assert.equal(third.parentId, before.tree.s.status.cursor);
    assert.deepEqual((await value(page, { operation: 'list', sessionId: 's' })).map((n) => n.preview), ['one', 'two', 'three']);
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('tree.operations and hasOperation report the wasm\'s public operations and their flags', async () => {
  const env = await setup();
  try {
    const page = await treePage(env);
    const r = await page.evaluate(async () => {
      const memory = await window.sessiontree.init({ persist: false });
      const out = {};
      for (const [key, tree] of [['stored', window.tree], ['memory', memory]]) {
        const ops = tree.operations;
        out[key] = {
          entries: Object.entries(ops).map(([name, f]) => [name, { ...f }]),
          frozen: Object.isFrozen(ops) && Object.values(ops).every(Object.isFrozen),
          prototype: Object.getPrototypeOf(ops),
          same: tree.operations === ops,
          has: ['append', 'diff', 'tree.rows', 'restore', 'sync.merge', 'sync.forget', 'toString', '__proto__', 'constructor', '', 'nope'].map((n) => tree.hasOperation(n)),
          hasNonString: [tree.hasOperation(42), tree.hasOperation(null), tree.hasOperation(undefined), tree.hasOperation({})],
        };
      }
      // The wasm's own table, straight from the handle (in the store's thread).
      out.wasm = JSON.parse((await window.tree._debug()).operations);
      return out;
    });
    const publicOps = r.wasm.filter((o) => o.public);
    const want = publicOps.map((o) => [o.name, { readOnly: o.readOnly, keepsCursor: o.keepsCursor }]);
    assert.deepEqual(r.wasm.filter((o) => !o.public).map((o) => o.name).sort(), ['import.batches', 'import.report', 'page.damaged', 'page.faults', 'page.out', 'page.stub', 'restore', 'sync.forget', 'sync.merge', 'sync.trash']);
    for (const key of ['stored', 'memory']) {
      const t = r[key];
      assert.deepEqual(t.entries, want, `${key}: every public operation, as the wasm reports it`);
      assert.equal(t.frozen, true);
      assert.equal(t.prototype, null);
      assert.equal(t.same, true);
      // append, diff, tree.rows; restore, sync.merge, sync.forget; toString, __proto__, constructor, "", nope
      assert.deepEqual(t.has, [true, true, true, false, false, false, false, false, false, false, false]);
      assert.deepEqual(t.hasNonString, [false, false, false, false]);
    }
    const flags = Object.fromEntries(want);
    assert.deepEqual(Object.keys(flags).filter((n) => flags[n].readOnly).sort(), ['branches', 'context', 'diff', 'export', 'family', 'leaf', 'list', 'map', 'node', 'remote.list', 'remote.session', 'search', 'session', 'sessions', 'snapshot.save', 'trash.list', 'tree', 'tree.rows']);
    assert.deepEqual(Object.keys(flags).filter((n) => flags[n].keepsCursor).sort(), ['hide', 'label', 'prefer', 'rename']);
    assert.equal(flags.append.readOnly, false);
    assert.equal(flags.command.readOnly, false, 'a command may change the store');
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});
