// The explorer's pure text helpers (static/node-text.js) in Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countOf } from '../static/node-text.js';

test('countOf says one thing in the singular and any other count in the plural, with grouped digits', () => {
  assert.equal(countOf(1, 'branch', 'branches'), '1 branch');
  assert.equal(countOf(0, 'branch', 'branches'), '0 branches');
  assert.equal(countOf(2, 'node'), '2 nodes');
  assert.equal(countOf(1234567, 'node'), '1,234,567 nodes');
});
