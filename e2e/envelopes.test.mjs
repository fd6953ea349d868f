// Page tests of issue 19 item 2: every public method of the JS API answers
// an envelope — INVALID_ARGUMENT naming the argument for bad arguments,
// STORAGE_ERROR with the browser's reason for a closed store and a failed
// IndexedDB request — and never rejects or throws, with the store in its
// worker and in the page's thread. Methods whose answer is not an envelope
// (storage, refresh, flush, close, subscribe, hasOperation) never reject
// either and do what their JSDoc says with bad arguments.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openShimPage, stubStore, waitUntil, watchPage } from './helpers.mjs';

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
 * Opens the shim test page (the store in its worker, or with ?worker=0 in
 * the page's thread, in the second context), after stub (see stubStore)
 * when one is given.
 */
const shimPage = async (stub) => {
  if (worker !== false && !stub) return openShimPage(env);
  const page = watchPage(await (worker === false ? pageThread : env.context).newPage(), env.errors);
  if (stub) await stubStore(page, stub);
  await page.goto(env.baseURL + 'e2e/fixtures/shim.html' + (worker === false ? '?worker=0' : ''));
  await page.waitForFunction(() => window.sessiontree);
  return page;
};

/** Page errors the test expects (removed from env.errors before the check). */
let expected = [];

/** A test run with the store in its worker, then in the page's thread; unexpected page errors fail it. */
function both(name, fn) {
  for (const mode of [undefined, false]) {
    test(name + (mode === false ? ' (store in the page thread)' : ''), async () => {
      worker = mode;
      expected = [];
      env.errors.length = 0;
      let left;
      try {
        await fn();
      } finally {
        worker = undefined;
        left = env.errors.filter((e) => !expected.some((re) => re.test(e)));
        env.errors.length = 0;
      }
      assert.deepEqual(left, []);
    });
  }
}

/** A one-chat Open WebUI export, as text. */
const IMPORT_TEXT = JSON.stringify([{ id: 'chat1', title: 'imported', chat: { history: { currentId: 'm2', messages: {
  m1: { id: 'm1', parentId: null, childrenIds: ['m2'], role: 'user', content: 'hello', timestamp: 1700000000 },
  m2: { id: 'm2', parentId: 'm1', childrenIds: [], role: 'assistant', content: 'hi there', timestamp: 1700000001 },
} } } }]);

/**
 * In the page: run every helper with the arguments of each case and give
 * back what it answered, or how it rejected or threw ("threw Name: msg").
 * Cases are [label, method path, arguments]; an argument "$node" is the
 * id of the node appended in session "s", "$import" a small export file's
 * text, and options {signal: "$signal"} get a fresh AbortSignal.
 */
async function runCases(page, dbName, cases, { close = false } = {}) {
  return page.evaluate(async ({ dbName, cases, close, importText, GETTER_NAMES }) => {
    const tree = await window.sessiontree.init({ dbName });
    await tree.call({ operation: 'create', sessionId: 's' });
    const node = (await tree.call({ operation: 'append', sessionId: 's', message: { role: 'user', content: 'one' } })).value.id;
    const saved = await tree.saveSnapshot('s', 'p');
    if (!saved.ok) throw new Error('saveSnapshot: ' + JSON.stringify(saved));
    const before = await tree.callText({ operation: 'snapshot.save', sessionId: 's' });
    if (close) tree.close();
    const out = [];
    for (const [label, path, args] of cases) {
      const fn = path.split('.').reduce((o, k) => o[k], tree);
      const self = path.startsWith('remote.') ? tree.remote : tree;
      const revoked = () => {
        const r = Proxy.revocable({}, {});
        r.revoke();
        return r.proxy;
      };
      const odd = {
        $map: () => new Map([['title', 'T'], ['permanent', true], ['newSessionId', 'from-a-map']]),
        $throwing: () => new Proxy({}, { get: () => { throw new Error('boom'); } }),
        $revoked: revoked,
        $protoThrows: () => new Proxy({}, { getPrototypeOf: () => { throw new Error('proto boom'); } }),
        // An object whose every option (and entry field) is a getter that throws.
        $getters: () => Object.defineProperties({}, Object.fromEntries(GETTER_NAMES.map((k) => [k, { enumerable: true, get: () => { throw new Error(`getter ${k} boom`); } }]))),
        $importBlob: () => new Blob([importText]),
      };
      const made = (a) => (a === '$node' ? node : a === '$import' ? importText : a?.signal === '$signal' ? { ...a, signal: new AbortController().signal } : typeof a === 'string' && odd[a] ? odd[a]() : a);
      const real = args.map((a) => (Array.isArray(a) ? a.map(made) : made(a))); // an array's elements too (importFiles' entries)
      let answer;
      try {
        answer = await fn.apply(self, real);
        if (typeof answer === 'string') answer = { text: true, ...JSON.parse(answer) };
        else if (typeof answer === 'function') answer = 'a function';
        else if (answer === undefined) answer = 'undefined';
      } catch (err) {
        answer = `threw ${err?.name}: ${err?.message}`;
      }
      out.push([label, answer]);
    }
    const after = await tree.callText({ operation: 'snapshot.save', sessionId: 's' });
    const sessions = (await tree.call({ operation: 'sessions' })).value.map((x) => x.sessionId);
    return { out, unchanged: before === after, sessions };
  }, { dbName, cases, close, importText: IMPORT_TEXT, GETTER_NAMES });
}

/** The members the $getters argument of runCases has, each a getter that throws: every option and entry field a method reads. */
const GETTER_NAMES = ['sessionId', 'limit', 'roles', 'branch', 'nodeId', 'signal', 'onProgress', 'format', 'sliceBytes', 'name', 'budget', 'existingSnapshots', 'requestPersist', 'path', 'data', 'length'];

/** The bad values of the brief: undefined, an empty object, a number, an empty string. */
const BAD = [undefined, {}, 5, ''];
const label = (v) => (v === undefined ? 'undefined' : JSON.stringify(v));

both('each init() of a database holds its shared tree: a close() lets go of one hold, and the last closes the tree', async () => {
  const page = await shimPage();
  const got = await page.evaluate(async () => {
    const db = 'held-twice';
    const append = (tree, content) => tree.call({ operation: 'append', sessionId: 's', message: { role: 'user', content } });
    // React's StrictMode in development: the effect runs, its cleanup closes, it runs again.
    const first = await window.sessiontree.init({ dbName: db });
    const second = await window.sessiontree.init({ dbName: db });
    await first.call({ operation: 'create', sessionId: 's' });
    first.close();
    const afterOne = await append(second, 'after one close');
    second.close();
    const afterBoth = await append(second, 'after both');
    const third = await window.sessiontree.init({ dbName: db });
    const reopened = await third.call({ operation: 'context', sessionId: 's' });
    third.close();
    return { same: first === second, afterOne: afterOne.ok, afterBoth: afterBoth.error?.code, fresh: third !== first, contents: reopened.value?.messages.map((m) => m.content) };
  });
  assert.deepEqual(got, { same: true, afterOne: true, afterBoth: 'STORAGE_ERROR', fresh: true, contents: ['after one close'] });
  await page.close();
});

both('every helper answers INVALID_ARGUMENT naming the argument for undefined, {}, a number and an empty string, and changes nothing', async () => {
  const page = await shimPage();
  // [label, method, args, the argument's name as the message must show it]
  const cases = [];
  const add = (path, args, name) => cases.push([`${path}(${args.map(label).join(', ')})`, path, args, name]);
  for (const v of BAD) {
    add('call', [v], 'request');
    add('callText', [v], 'request');
    add('command', [v], v === '' ? 'command' : 'line');
    add('search', [v], 'query');
    add('remote.list', [v], 'sessionId');
    add('remote.session', [v], 'sessionId');
    add('remote.jump', [v, '$node'], 'sessionId');
    add('remote.jump', ['s', v], 'nodeId');
    add('remote.fork', [v, '$node'], 'sessionId');
    add('remote.fork', ['s', v], 'nodeId');
    add('importText', [v], 'text');
    add('saveSnapshot', [v, 'x'], 'sessionId');
    add('listSnapshots', [v], 'sessionId');
    add('restoreSnapshot', [v, 'p'], 'sessionId');
    add('restoreSnapshot', ['s', v], 'name');
    if (v !== undefined) {
      add('remote.fork', ['s', '$node', v], 'branch');
      add('importText', ['$import', v], 'format');
      add('saveSnapshot', ['s', v], 'name');
    }
    if (v !== undefined && typeof v !== 'object') {
      add('command', ['/tree list', v], 'options');
      add('search', ['one', v], 'options');
      add('importText', ['$import', 'auto', v], 'options');
      // The thin methods' options: refused, not read as none (create(id, "title") made an untitled session).
      add('create', ['made-by-bad-options', v], 'options');
      add('append', ['s', { role: 'user', content: 'not stored' }, v], 'options');
      add('context', ['s', v], 'options');
      add('fork', ['s', '$node', v], 'options');
      add('clone', ['s', v], 'options');
      add('tree', ['s', v], 'options');
      add('delete', ['s', v], 'options');
      add('appendMany', ['s', [{ role: 'user', content: 'not stored' }], v], 'options');
    }
  }
  add('importText', ['$import', 'auto', { onProgress: 5 }], 'options.onProgress');
  add('importText', ['$import', 'auto', { signal: {} }], 'options.signal');
  add('importText', ['$import', 'auto', { sliceBytes: 0 }], 'options.sliceBytes');
  add('importText', ['$import', 'auto', { sliceBytes: '4096' }], 'options.sliceBytes');
  add('search', ['one', []], 'options');
  // Options that are an object of a class with no fields (read as none), or that throw when read;
  // requests that cannot be read at all: each an envelope, never a throw or a rejection.
  for (const odd of ['$map', '$throwing', '$revoked']) {
    add('create', ['made-by-bad-options', odd], 'options');
    add('clone', ['s', odd], 'options');
    add('delete', ['s', odd], 'options');
    add('append', ['s', { role: 'user', content: 'not stored' }, odd], 'options');
    add('appendMany', ['s', [{ role: 'user', content: 'not stored' }], odd], 'options');
    add('context', ['s', odd], 'options');
  }
  // The methods that read an options object, a file, entries or a target: reading them may throw too.
  for (const odd of ['$getters', '$revoked', '$protoThrows']) {
    add('command', ['/tree list', odd], 'options');
    add('search', ['one', odd], 'options');
    add('importText', ['$import', 'auto', odd], 'options');
    add('importFile', ['$importBlob', odd], 'options');
    add('importFile', [odd], 'file');
    add('importFiles', [odd], 'entries');
    add('importFiles', [[odd]], 'entries');
    add('importZip', ['$importBlob', odd], 'options');
    add('importZip', [odd], 'file');
    add('loadSnapshot', ['s', '{}', odd], 'options');
    if (odd === '$protoThrows') continue; // read as the plain {} it wraps: no snapshot, no target (core's own errors)
    add('loadSnapshot', ['s', odd], 'snapshot');
    add('switchTo', ['s', odd], 'target');
  }
  for (const odd of ['$revoked', '$protoThrows']) {
    add('call', [odd], 'request');
    add('callText', [odd], 'request');
  }
  add('search', ['one', { limit: 0 }], 'limit');
  const r = await runCases(page, 'bad-args', cases.map(([l, p, a]) => [l, p, a]));
  assert.equal(r.out.length, cases.length);
  for (const [i, [lbl, answer]] of r.out.entries()) {
    const name = cases[i][3];
    assert.equal(typeof answer, 'object', `${lbl}: ${answer}`);
    assert.equal(answer.ok, false, `${lbl} answered ok`);
    assert.equal(answer.error.code, 'INVALID_ARGUMENT', `${lbl}: ${JSON.stringify(answer.error)}`);
    assert.ok(answer.error.message.includes(name), `${lbl}: the message names ${name}: ${answer.error.message}`);
  }
  // The helpers' own checks name the method and the argument exactly.
  const byLabel = new Map(r.out);
  assert.equal(byLabel.get('listSnapshots({})').error.message, 'listSnapshots: argument "sessionId" must be a non-empty string; got {}');
  assert.equal(byLabel.get('listSnapshots(undefined)').error.message, 'listSnapshots: argument "sessionId" must be a non-empty string; got undefined');
  assert.equal(byLabel.get('restoreSnapshot(undefined, "p")').error.message, 'restoreSnapshot: argument "sessionId" must be a non-empty string; got undefined');
  assert.equal(byLabel.get('restoreSnapshot("s", 5)').error.message, 'restoreSnapshot: argument "name" must be a non-empty string; got 5');
  assert.equal(byLabel.get('saveSnapshot("s", "")').error.message, 'saveSnapshot: argument "name" must be a non-empty string; got ""');
  assert.equal(byLabel.get('importText(5)').error.message, 'importText: argument "text" must be the file\'s text as a string; got 5');
  assert.equal(byLabel.get('search("one", 5)').error.message, 'search: argument "options" must be an object; got 5');
  assert.equal(byLabel.get('create("made-by-bad-options", 5)').error.message, 'create: argument "options" must be an object; got 5');
  assert.equal(byLabel.get('create("made-by-bad-options", "$map")').error.message, 'create: argument "options" must be an object of options; got a Map, which has no fields');
  assert.equal(byLabel.get('create("made-by-bad-options", "$throwing")').error.message, 'create: argument "options" cannot be read: boom');
  assert.ok(r.unchanged, 'session s is as it was');
  assert.deepEqual(r.sessions, ['s'], 'nothing was created or imported');
  await page.close();
});

both('bytes of a detached ArrayBuffer (transferred elsewhere) answer INVALID_ARGUMENT envelopes, never a rejection', async () => {
  const page = await shimPage();
  const r = await page.evaluate(async () => {
    const tree = await window.sessiontree.init({ persist: false });
    const detached = () => {
      const b = new TextEncoder().encode('{"operation":"sessions"}');
      structuredClone(b.buffer, { transfer: [b.buffer] });
      return b;
    };
    const out = {};
    const cases = {
      'call(view)': () => tree.call(detached()),
      'call(buffer)': () => tree.call(detached().buffer),
      'callText(view)': () => tree.callText(detached()).then(JSON.parse),
      'importFile(view)': () => tree.importFile(detached()),
      'importFiles([{data: view}])': () => tree.importFiles([{ path: 'a.json', data: detached() }]),
    };
    for (const [name, fn] of Object.entries(cases)) {
      try {
        const env = await fn();
        out[name] = env.ok ? 'OK' : `${env.error.code}: ${env.error.message}`;
      } catch (err) {
        out[name] = 'REJECTED ' + err.message;
      }
    }
    return { out };
  });
  const detachedMessage = 'is an ArrayBuffer (or a view of one) that was transferred elsewhere (detached), so it holds nothing to read';
  assert.deepEqual(r.out, {
    'call(view)': `INVALID_ARGUMENT: request ${detachedMessage}`,
    'call(buffer)': `INVALID_ARGUMENT: request ${detachedMessage}`,
    'callText(view)': `INVALID_ARGUMENT: request ${detachedMessage}`,
    'importFile(view)': `INVALID_ARGUMENT: importFile: argument "file" ${detachedMessage}`,
    'importFiles([{data: view}])': r.out['importFiles([{data: view}])'],
  });
  assert.match(r.out['importFiles([{data: view}])'], /entries\[0\]\.data is an ArrayBuffer \(or a view of one\) that was transferred elsewhere \(detached\)/);
});

both('the helpers that answer no envelope never reject or throw on bad arguments, as documented', async () => {
  const page = await shimPage();
  const cases = [];
  for (const v of [...BAD, null, 'x', []]) {
    cases.push([`storage(${label(v)})`, 'storage', [v]]);
    cases.push([`subscribe(${label(v)})`, 'subscribe', [v]]);
    cases.push([`hasOperation(${label(v)})`, 'hasOperation', [v]]);
  }
  cases.push(['storage($getters)', 'storage', ['$getters']], ['storage($revoked)', 'storage', ['$revoked']]);
  cases.push(['refresh()', 'refresh', []], ['flush()', 'flush', []]);
  const r = await runCases(page, 'no-envelope', cases);
  for (const [lbl, answer] of r.out) {
    if (lbl.startsWith('storage(')) {
      assert.deepEqual({ persistent: answer.persistent, state: answer.state, reason: answer.reason }, { persistent: true, state: 'open', reason: null }, lbl);
      assert.equal(typeof answer.quota, 'number', lbl);
    } else if (lbl.startsWith('subscribe(')) {
      assert.equal(answer, 'a function', lbl);
    } else if (lbl.startsWith('hasOperation(')) {
      assert.equal(answer, false, lbl);
    } else {
      assert.equal(answer, 'undefined', lbl);
    }
  }
  // subscribe with a non-function subscribes nothing and says so on the console.
  const logged = env.errors.filter((e) => e.includes('sessiontree: subscribe takes a function; nothing was subscribed'));
  assert.equal(logged.length, 7, env.errors.join('\n'));
  expected.push(/sessiontree: subscribe takes a function; nothing was subscribed/);
  assert.ok(r.unchanged);
  await page.close();
});

both('close() stores the calls made before it, then closes: only later ones answer STORAGE_ERROR', async () => {
  const page = await shimPage();
  const dbName = 'close-drains-' + (worker === false ? 'page' : 'worker');
  const r = await page.evaluate(async (dbName) => {
    const opts = { dbName, ...(new URLSearchParams(location.search).get('worker') === '0' ? { worker: false } : {}) };
    const tree = await window.sessiontree.init(opts);
    await tree.create('s');
    const made = [];
    for (let i = 0; i < 30; i++) made.push(tree.call({ operation: 'append', sessionId: 's', message: { role: 'user', content: 'before ' + i } }));
    tree.close();
    const later = await tree.call({ operation: 'append', sessionId: 's', message: { role: 'user', content: 'after' } });
    const answers = await Promise.all(made);
    const state = await tree.storage();
    const again = await window.sessiontree.init(opts);
    const stored = (await again.context('s')).value.messages.map((m) => m.content);
    again.close();
    return { ok: answers.filter((a) => a.ok).length, later: later.ok ? 'OK' : `${later.error.code}: ${later.error.message}`, state: state.state, stored };
  }, dbName);
  assert.equal(r.ok, 30, 'every call made before close() is stored');
  assert.equal(r.later, 'STORAGE_ERROR: storage error: the tree was closed; the change was not made');
  assert.equal(r.state, 'closed');
  assert.deepEqual(r.stored, Array.from({ length: 30 }, (_, i) => 'before ' + i));
  await page.close();
});

both('after close() every helper that writes or reads IndexedDB answers STORAGE_ERROR naming the reason; reads of memory keep answering', async () => {
  const page = await shimPage();
  const cases = [
    ['call append', 'call', [{ operation: 'append', sessionId: 's', message: { role: 'user', content: 'late' } }]],
    ['callText append', 'callText', [{ operation: 'append', sessionId: 's', message: { role: 'user', content: 'late' } }]],
    ['command /tree list', 'command', ['/tree list', { sessionId: 's' }]],
    ['remote.jump', 'remote.jump', ['s', '$node']],
    ['remote.fork', 'remote.fork', ['s', '$node']],
    ['importText', 'importText', ['$import']],
    ['importText with progress', 'importText', ['$import', 'auto', { sliceBytes: 64, signal: '$signal' }]],
    ['saveSnapshot', 'saveSnapshot', ['s', 'q']],
    ['saveSnapshot unnamed', 'saveSnapshot', ['s']],
    ['listSnapshots', 'listSnapshots', ['s']],
    ['restoreSnapshot', 'restoreSnapshot', ['s', 'p']],
    // Reads answered from memory:
    ['call sessions', 'call', [{ operation: 'sessions' }]],
    ['search', 'search', ['one']],
    ['remote.list', 'remote.list', ['s']],
    ['remote.session', 'remote.session', ['s']],
    // No envelope:
    ['storage', 'storage', []],
    ['refresh', 'refresh', []],
    ['flush', 'flush', []],
    ['close again', 'close', []],
  ];
  const r = await runCases(page, 'closed', cases, { close: true });
  const byLabel = new Map(r.out);
  for (const lbl of ['call append', 'callText append', 'command /tree list', 'remote.jump', 'remote.fork', 'importText', 'importText with progress', 'saveSnapshot', 'saveSnapshot unnamed', 'listSnapshots', 'restoreSnapshot']) {
    const answer = byLabel.get(lbl);
    assert.equal(typeof answer, 'object', `${lbl}: ${answer}`);
    assert.equal(answer.ok, false, `${lbl} answered ok`);
    assert.equal(answer.error.code, 'STORAGE_ERROR', `${lbl}: ${JSON.stringify(answer.error)}`);
    assert.match(answer.error.message, /^storage error: the tree was closed; \S/, lbl);
  }
  assert.equal(byLabel.get('saveSnapshot').error.message, 'storage error: the tree was closed; the snapshot was not saved');
  assert.equal(byLabel.get('listSnapshots').error.message, 'storage error: the tree was closed; the restore points could not be read');
  assert.equal(byLabel.get('restoreSnapshot').error.message, 'storage error: the tree was closed; nothing was restored');
  assert.equal(byLabel.get('importText').error.message, 'storage error: the tree was closed; nothing was imported');
  assert.deepEqual(byLabel.get('call sessions').value.map((s) => s.sessionId), ['s']);
  assert.equal(byLabel.get('search').value.total, 1);
  assert.equal(byLabel.get('remote.list').ok, true);
  assert.equal(byLabel.get('remote.session').value.session.sessionId, 's');
  const storage = byLabel.get('storage');
  assert.deepEqual({ persistent: storage.persistent, state: storage.state, reason: storage.reason }, { persistent: true, state: 'closed', reason: 'the tree was closed' });
  assert.equal(byLabel.get('refresh'), 'undefined');
  assert.equal(byLabel.get('flush'), 'undefined');
  assert.equal(byLabel.get('close again'), 'undefined');
  assert.ok(r.unchanged, 'nothing changed in memory');
  assert.deepEqual(r.sessions, ['s']);
  await page.close();

  // Nothing written after close() reached the database.
  const again = await shimPage();
  const stored = await again.evaluate(async () => {
    const tree = await window.sessiontree.init({ dbName: 'closed' });
    const ctx = await tree.call({ operation: 'context', sessionId: 's' });
    const points = await tree.listSnapshots('s');
    if (!points.ok) return points;
    return { messages: ctx.value.messages, points: points.value.map((p) => p.name), sessions: (await tree.call({ operation: 'sessions' })).value.map((s) => s.sessionId) };
  });
  assert.deepEqual(stored, { messages: [{ role: 'user', content: 'one' }], points: ['p'], sessions: ['s'] });
  await again.close();
});

both('with persist: false close() has nothing to close: every helper keeps answering, as documented', async () => {
  const page = await shimPage();
  const r = await page.evaluate(async () => {
    const tree = await window.sessiontree.init({ persist: false });
    await tree.call({ operation: 'create', sessionId: 's' });
    tree.close();
    const append = await tree.call({ operation: 'append', sessionId: 's', message: { role: 'user', content: 'after' } });
    const save = await tree.saveSnapshot('s', 'p');
    const list = await tree.listSnapshots('s');
    const restore = await tree.restoreSnapshot('s', 'p');
    return { append: append.ok, save: save.ok, list: list.value.map((p) => p.name), restore: restore.ok, storage: (await tree.storage()).state, bad: await tree.listSnapshots(5) };
  });
  assert.deepEqual(r, { append: true, save: true, list: ['p'], restore: true, storage: 'memory', bad: { ok: false, error: { code: 'INVALID_ARGUMENT', message: 'listSnapshots: argument "sessionId" must be a non-empty string; got 5' } } });
  await page.close();
});

both('a tree the browser stopped saving (a newer schema opened in another tab) answers the restore point helpers and changes with STORAGE_ERROR naming why', async () => {
  const page = await shimPage();
  const r = await page.evaluate(async () => {
    const tree = await window.sessiontree.init({ dbName: 'upgraded' });
    await tree.call({ operation: 'create', sessionId: 's' });
    await tree.saveSnapshot('s', 'p');
    const closed = new Promise((resolve) => tree.subscribe((e) => e.type === 'storage' && resolve(e)));
    const opened = await new Promise((resolve) => {
      const req = indexedDB.open('upgraded', 99);
      req.onsuccess = () => {
        req.result.close();
        resolve('opened');
      };
      req.onblocked = () => resolve('blocked');
      req.onerror = () => resolve('error');
    });
    const event = await closed;
    return {
      opened,
      event,
      save: await tree.saveSnapshot('s', 'q'),
      list: await tree.listSnapshots('s'),
      restore: await tree.restoreSnapshot('s', 'p'),
      importText: await tree.importText('[{"id":"c","title":"t","chat":{"history":{"currentId":null,"messages":{}}}}]'),
      append: await tree.call({ operation: 'append', sessionId: 's', message: { role: 'user', content: 'x' } }),
      storage: await tree.storage(),
    };
  });
  assert.equal(r.opened, 'opened');
  assert.equal(r.event.reason, 'versionchange');
  const why = r.event.message;
  assert.match(why, /newer version .* reload it$/);
  assert.deepEqual(r.save, { ok: false, error: { code: 'STORAGE_ERROR', message: `storage error: ${why}; the snapshot was not saved` } });
  assert.deepEqual(r.list, { ok: false, error: { code: 'STORAGE_ERROR', message: `storage error: ${why}; the restore points could not be read` } });
  assert.deepEqual(r.restore, { ok: false, error: { code: 'STORAGE_ERROR', message: `storage error: ${why}; nothing was restored` } });
  assert.deepEqual(r.importText, { ok: false, error: { code: 'STORAGE_ERROR', message: `storage error: ${why}; nothing was imported` } });
  assert.deepEqual(r.append, { ok: false, error: { code: 'STORAGE_ERROR', message: `storage error: ${why}; the change was not made` } });
  assert.equal(r.storage.state, 'closed');
  await page.close();
});

/**
 * A stub of IndexedDB for the snapshots store: a put of a value larger
 * than window.quotaLeft aborts its transaction with a QuotaExceededError
 * whose message is empty (as Chromium's is), and getAll/get throw
 * UnknownError while window.readFails is set.
 */
function snapshotStoreStub() {
  window.quotaLeft = Infinity;
  window.readFails = false;
  const put = IDBObjectStore.prototype.put;
  IDBObjectStore.prototype.put = function (value, ...rest) {
    const req = put.call(this, value, ...rest);
    const size = typeof value === 'string' ? value.length : JSON.stringify(value).length;
    if (size > window.quotaLeft) {
      const tx = this.transaction;
      Object.defineProperty(tx, 'error', { get: () => new DOMException('', 'QuotaExceededError') });
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
  for (const method of ['get', 'getAll']) {
    const real = IDBObjectStore.prototype[method];
    IDBObjectStore.prototype[method] = function (...args) {
      if (window.readFails && this.name === 'snapshots') throw new DOMException('simulated read failure', 'UnknownError');
      return real.apply(this, args);
    };
  }
}

both('saveSnapshot over quota and failed snapshot reads answer STORAGE_ERROR with the browser\'s reason, never an empty one', async () => {
  const page = await shimPage(snapshotStoreStub);
  const r = await page.evaluate(async () => {
    const tree = await window.sessiontree.init({ dbName: 'quota-points' });
    await tree.call({ operation: 'create', sessionId: 's' });
    await tree.call({ operation: 'append', sessionId: 's', message: { role: 'user', content: 'x'.repeat(5000) } });
    const small = await tree.saveSnapshot('s', 'small');
    return { small };
  });
  assert.equal(r.small.ok, true, JSON.stringify(r.small));
  // The stub runs in the thread that has the store: set the quota there.
  const set = async (fn, arg) => {
    for (const w of page.workers()) await w.evaluate(fn, arg);
    await page.evaluate(fn, arg);
  };
  await set(() => (window.quotaLeft = 1000));
  const over = await page.evaluate(async () => {
    const tree = await window.sessiontree.init({ dbName: 'quota-points' });
    return { big: await tree.saveSnapshot('s', 'big'), list: await tree.listSnapshots('s'), append: await tree.call({ operation: 'append', sessionId: 's', message: { role: 'user', content: 'fits' } }) };
  });
  assert.deepEqual(over.big, { ok: false, error: { code: 'STORAGE_ERROR', message: "storage full: the browser's storage quota for this site is used up (QuotaExceededError); the snapshot was not saved" } });
  assert.deepEqual(over.list.value.map((p) => p.name), ['small'], 'the failed restore point is not kept');
  assert.equal(over.append.ok, true, 'the tree keeps working');
  await set(() => (window.readFails = true));
  const reads = await page.evaluate(async () => {
    const tree = await window.sessiontree.init({ dbName: 'quota-points' });
    return { list: await tree.listSnapshots('s'), restore: await tree.restoreSnapshot('s', 'small') };
  });
  assert.deepEqual(reads.list, { ok: false, error: { code: 'STORAGE_ERROR', message: 'storage error: IndexedDB failed (UnknownError: simulated read failure); the restore points could not be read' } });
  assert.deepEqual(reads.restore, { ok: false, error: { code: 'STORAGE_ERROR', message: 'storage error: IndexedDB failed (UnknownError: simulated read failure); nothing was restored' } });
  await page.close();
});

test('a store worker that failed answers every envelope helper with STORAGE_ERROR, and the others never reject', async () => {
  const page = await shimPage();
  await page.evaluate(async () => {
    window.tree = await window.sessiontree.init({ dbName: 'worker-dies' });
    await window.tree.call({ operation: 'create', sessionId: 's' });
  });
  // An uncaught error in the worker reaches its onerror in the page: the
  // connection counts as failed from then on.
  const [w] = page.workers();
  await w.evaluate(() => setTimeout(() => {
    throw new Error('simulated worker crash');
  }, 0));
  await waitUntil(page, async () => (await window.tree.storage()).state === 'closed');
  const r = await page.evaluate(async () => {
    const tree = window.tree;
    const out = {};
    const run = async (name, fn) => {
      try {
        const v = await fn();
        out[name] = typeof v === 'string' ? JSON.parse(v) : v === undefined ? 'undefined' : v;
      } catch (err) {
        out[name] = `threw ${err?.name}: ${err?.message}`;
      }
    };
    await run('call', () => tree.call({ operation: 'sessions' }));
    await run('callText', () => tree.callText({ operation: 'sessions' }));
    await run('command', () => tree.command('/tree help'));
    await run('search', () => tree.search('x'));
    await run('remote.list', () => tree.remote.list('s'));
    await run('importText', () => tree.importText('[]'));
    await run('saveSnapshot', () => tree.saveSnapshot('s', 'p'));
    await run('listSnapshots', () => tree.listSnapshots('s'));
    await run('restoreSnapshot', () => tree.restoreSnapshot('s', 'p'));
    await run('refresh', () => tree.refresh());
    await run('flush', () => tree.flush());
    await run('storage', () => tree.storage());
    await run('close', () => tree.close());
    return out;
  });
  for (const name of ['call', 'callText', 'command', 'search', 'remote.list', 'importText', 'saveSnapshot', 'listSnapshots', 'restoreSnapshot']) {
    assert.equal(r[name].ok, false, `${name}: ${JSON.stringify(r[name])}`);
    assert.equal(r[name].error.code, 'STORAGE_ERROR', name);
    assert.match(r[name].error.message, /^storage error: the store did not answer \(Error: sessiontree: the store worker .* failed: .*simulated worker crash\); reload the page$/, name);
  }
  assert.equal(r.refresh, 'undefined');
  assert.equal(r.flush, 'undefined');
  assert.equal(r.close, 'undefined');
  assert.equal(r.storage.state, 'closed');
  assert.match(r.storage.reason, /simulated worker crash/);
  await page.close();
  const left = env.errors.filter((e) => !/simulated worker crash/.test(e));
  env.errors.length = 0;
  assert.deepEqual(left, []);
});
