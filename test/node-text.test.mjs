// The explorer's pure text helpers (static/node-text.js) in Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeBidi, countOf, highlightPieces, isolate, leadTrimmed, queryTooLong } from '../static/node-text.js';

test('countOf says one thing in the singular and any other count in the plural, with grouped digits', () => {
  assert.equal(countOf(1, 'branch', 'branches'), '1 branch');
  assert.equal(countOf(0, 'branch', 'branches'), '0 branches');
  assert.equal(countOf(2, 'node'), '2 nodes');
  assert.equal(countOf(1234567, 'node'), '1,234,567 nodes');
});

test('leadTrimmed brings a snippet\'s first match within its first units: cut at a space, "…" before, the ranges moved', () => {
  const text = 'I am trying to activate a Python virtual environment on Windows and it fails';
  const at = text.indexOf('virtual');
  const { text: cut, ranges } = leadTrimmed(text, [[at, at + 7], [at + 8, at + 19]]);
  assert.equal(cut, '…a Python virtual environment on Windows and it fails');
  assert.deepEqual(highlightPieces(cut, ranges).filter((p) => p.hit).map((p) => p.text), ['virtual', 'environment']);
  assert.ok(ranges[0][0] <= 12, `the match starts at ${ranges[0][0]}`);
  // Near the start already, or no match: unchanged.
  assert.deepEqual(leadTrimmed('short virtual', [[6, 13]]), { text: 'short virtual', ranges: [[6, 13]] });
  assert.deepEqual(leadTrimmed(text, []), { text, ranges: [] });
  // No space near: cut 12 units before the match, never inside a surrogate pair.
  const emoji = '😀'.repeat(30) + 'match';
  const e = leadTrimmed(emoji, [[60, 65]]);
  assert.equal(highlightPieces(e.text, e.ranges).find((p) => p.hit).text, 'match');
  assert.equal(e.text.codePointAt(1), 0x1f600, 'starts with a whole emoji after the "…"');
});

test('isolate sets a title apart from our sentence (U+2068 … U+2069) and balances its own isolates so none closes ours', () => {
  assert.equal(isolate('Trip to Porto'), '\u2068Trip to Porto\u2069');
  assert.equal(isolate('\u202Eabc def'), '\u2068\u202Eabc def\u2069', 'an override ends at the isolate\'s end');
  assert.equal(isolate('a\u2069\u202Eb'), '\u2068a\u202Eb\u2069', 'an unmatched U+2069 would close ours: dropped');
  assert.equal(isolate('\u2067abc'), '\u2068\u2067abc\u2069\u2069', 'an isolate left open is closed before ours');
  assert.equal(isolate('\u2066x\u2069 \u2067y\u2069'), '\u2068\u2066x\u2069 \u2067y\u2069\u2069', 'balanced isolates are kept');
  assert.equal(isolate(''), '\u2068\u2069');
});

test('queryTooLong says a query over core\'s longest (code points, as core counts) is too long, and nothing of one search takes', async () => {
  const { MAX_QUERY_LENGTH } = await import('../js/protocol.js');
  assert.equal(queryTooLong('x'.repeat(MAX_QUERY_LENGTH)), null);
  assert.equal(queryTooLong('😀'.repeat(MAX_QUERY_LENGTH)), null, '2,000 UTF-16 units but 1,000 characters: search takes it');
  assert.equal(queryTooLong('x'.repeat(1500)), `Too long to search: 1,500 characters; a search takes at most ${MAX_QUERY_LENGTH.toLocaleString('en')}.`);
});

test('closeBidi closes the bidirectional controls text leaves open, innermost first, and leaves balanced text as it is', () => {
  assert.equal(closeBidi('plain'), 'plain');
  assert.equal(closeBidi('\u202Eabc'), '\u202Eabc\u202C');
  assert.equal(closeBidi('\u202Eabc\u202C def'), '\u202Eabc\u202C def');
  assert.equal(closeBidi('\u2067a\u202Eb'), '\u2067a\u202Eb\u202C\u2069', 'an override inside an isolate: the override first');
  assert.equal(closeBidi('\u2068a\u202Eb\u2069c'), '\u2068a\u202Eb\u2069c', 'a PDI closes its isolate and the embeddings opened inside it');
  assert.equal(closeBidi('a\u202Cb\u2069'), 'a\u202Cb\u2069', 'closers with nothing open change nothing');
  assert.equal(closeBidi('\u202Ba\u2066b'), '\u202Ba\u2066b\u2069\u202C');
});
