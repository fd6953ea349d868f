// The shim's argument checks (js/api-errors.js): pure, in Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkInitOptions, checkName, MAX_NAME_LENGTH } from '../js/api-errors.js';

test('checkName: a restore point\'s name follows a title\'s rule (at most 1000 characters, no control character or lone surrogate)', () => {
  for (const good of ['before the refactor', 'é'.repeat(MAX_NAME_LENGTH), '😀'.repeat(MAX_NAME_LENGTH), 'שלום 2026-12-05']) assert.equal(checkName('saveSnapshot', 'name', good), null, good.slice(0, 20));
  for (const bad of ['', 'a\nb', 'a\u0000b', 'a\u0085b', 'x\uD800', '\uDC00y', 'x'.repeat(MAX_NAME_LENGTH + 1), 5, null]) {
    const env = checkName('saveSnapshot', 'name', bad);
    assert.equal(env?.ok, false, JSON.stringify(bad)?.slice(0, 30));
    assert.equal(env.error.code, 'INVALID_ARGUMENT');
    assert.match(env.error.message, /^saveSnapshot: argument "name" must be /);
  }
  assert.ok(checkName('saveSnapshot', 'name', 'x'.repeat(5000)).error.message.length < 300, 'a long name is not echoed whole');
});

test('checkInitOptions: init()\'s options are an object of the types the docs give; what is wrong is named', () => {
  // null is the default, as init() read these options before they were checked (a config's empty value).
  for (const good of [undefined, null, {}, { dbName: 'chats', persist: false, worker: true, wasmURL: '/x.wasm', workerURL: new URL('https://a.example/w.js'), memoryBudget: 1 << 30, pageBudget: 0 }, { dbName: null, persist: null, worker: null, wasmURL: null, workerURL: null }]) {
    assert.equal(checkInitOptions(good), null, JSON.stringify(good));
  }
  const cases = [
    [5, /^options must be an object like \{dbName: "chats"\}; got 5$/],
    ['x', /^options must be an object/],
    [[], /^options must be an object/],
    [{ dbName: 5 }, /^option "dbName" must be a non-empty string; got 5$/],
    [{ dbName: '' }, /^option "dbName" must be a non-empty string/],
    [{ dbName: {} }, /^option "dbName" must be a non-empty string/],
    [{ persist: 'no' }, /^option "persist" must be true or false/],
    [{ worker: 0 }, /^option "worker" must be true or false; got 0$/],
    [{ wasmURL: 3 }, /^option "wasmURL" must be a string or a URL/],
    [{ memoryBudget: -1 }, /^option "memoryBudget" must be a positive integer/],
    // A misspelt name was read as absent: "persits: false" kept the sessions, "dbname" wrote into "sessiontree".
    [{ persits: false }, /^unknown option "persits": init takes wasmURL, workerURL, worker, dbName, persist, memoryBudget, pageBudget$/],
    [{ dbname: 'chats' }, /^unknown option "dbname"/],
  ];
  for (const [options, want] of cases) assert.match(checkInitOptions(options) ?? '', want, JSON.stringify(options));
});
