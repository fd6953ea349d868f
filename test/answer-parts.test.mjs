// js/answer-parts.js: a worker's answer with long lists cut into parts
// and put back as it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PART_CHARS, PART_ITEMS, joinParts, readLongList, splitAnswer } from '../js/answer-parts.js';

const sessions = (n) => Array.from({ length: n }, (_, i) => ({ sessionId: `s${i}`, nodeCount: 2 }));

/** What the page receives: the parts as js/sessiontree.js gathers them, then the value joined. */
function roundTrip(value) {
  const cut = splitAnswer(structuredClone(value));
  if (cut === null) return null;
  const parts = [];
  for (const [at, part] of structuredClone(cut.parts)) (parts[at] ??= []).push(part);
  return joinParts(structuredClone(cut.value), cut.split, parts);
}

test('an import answer with more sessions and warnings than PART_ITEMS comes back whole', () => {
  const env = { ok: true, value: { format: 'openai', sessions: sessions(2 * PART_ITEMS + 7), warnings: sessions(PART_ITEMS + 1).map((s) => ({ message: s.sessionId })), skipped: [{ sessionId: 'x' }] } };
  const cut = splitAnswer(env);
  assert.equal(cut.parts.length, 3 + 2, 'three parts of sessions, two of warnings');
  assert.deepEqual(cut.split, [1, 2]);
  assert.equal(env.value.sessions.length, 2 * PART_ITEMS + 7, 'the value given is not changed');
  assert.deepEqual(cut.value.value.sessions, []);
  assert.deepEqual(roundTrip(env), env);
});

test('short lists and answers without lists are not cut', () => {
  assert.equal(splitAnswer({ ok: true, value: { sessions: sessions(PART_ITEMS) } }), null);
  for (const v of [null, undefined, 'text', 3, { ok: true, value: null }, { columns: true, rows: new Int32Array(2) }]) assert.equal(splitAnswer(v), null, `splitAnswer(${String(v)})`);
});

test('readLongList reads a long sessions envelope as {envelope}, which comes back whole', () => {
  const text = JSON.stringify({ ok: true, value: sessions(PART_ITEMS + 1).map((s) => ({ ...s, title: 'x'.repeat(200) })) });
  assert.ok(text.length >= PART_CHARS);
  const read = readLongList(text);
  assert.deepEqual(read, { envelope: JSON.parse(text) });
  assert.deepEqual(roundTrip(read), read);
});

test('readLongList leaves short answers, errors and values that are not lists as text', () => {
  const short = JSON.stringify({ ok: true, value: sessions(3) });
  assert.equal(readLongList(short), short);
  const long = JSON.stringify({ ok: true, value: { text: 'x'.repeat(PART_CHARS) } });
  assert.equal(readLongList(long), long);
  const few = JSON.stringify({ ok: true, value: ['x'.repeat(PART_CHARS)] });
  assert.equal(readLongList(few), few);
  assert.deepEqual(readLongList({ columns: true }), { columns: true });
});
