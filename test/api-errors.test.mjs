// The shim's argument checks (js/api-errors.js): pure, in Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkName, MAX_NAME_LENGTH } from '../js/api-errors.js';

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
