// js/envelope.js and js/protocol.js in Node: reading an envelope's text by
// the heads core publishes, and the generated contract's shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answeredInColumns, envelopeCode, envelopeFailed, envelopeValueText } from '../js/envelope.js';
import { CHUNK_SIZE, ENVELOPE_FAILED_HEAD, ENVELOPE_OK_HEAD, ERROR, HANDLE_METHODS, OPERATIONS, SNAPSHOT_MEMBERS, SNAPSHOT_VERSION, STORAGE_ERROR } from '../js/protocol.js';

const failedText = (code, message) => JSON.stringify({ ok: false, error: { code, message } });

test('envelopes are read by their heads, never by their messages', async (t) => {
  const cases = [
    { name: 'an ok envelope', text: '{"ok":true,"value":{"n":1.0}}', failed: false, code: null, value: '{"n":1.0}' },
    { name: 'an ok envelope whose value is null', text: '{"ok":true,"value":null}', failed: false, code: null, value: 'null' },
    { name: 'a failed envelope', text: failedText('SESSION_NOT_FOUND', 'session "x" not found'), failed: true, code: 'SESSION_NOT_FOUND', value: null },
    { name: 'a failure whose message names another code', text: failedText('INVALID_ARGUMENT', 'not SESSION_NOT_FOUND'), failed: true, code: 'INVALID_ARGUMENT', value: null },
    { name: 'text that is not an envelope', text: 'oops', failed: false, code: null, value: null },
    { name: 'a context answered in columns', text: '{"ok":true,"columns":{}}', failed: false, code: null, value: null },
  ];
  for (const c of cases) {
    await t.test(c.name, () => {
      assert.equal(envelopeFailed(c.text), c.failed);
      assert.equal(envelopeCode(c.text), c.code);
      assert.equal(envelopeValueText(c.text), c.value);
    });
  }
  await t.test('the JSON.stringify of an error envelope (the shim\'s own) has core\'s failed head', () => {
    assert.ok(failedText(STORAGE_ERROR, 'x').startsWith(ENVELOPE_FAILED_HEAD));
    assert.ok(JSON.stringify({ ok: true, value: 1 }).startsWith(ENVELOPE_OK_HEAD));
  });
  await t.test('only a columns answer is one', () => {
    assert.equal(answeredInColumns('{"ok":true,"columns":{"ascii":[0,0]}}'), true);
    assert.equal(answeredInColumns('{"ok":true,"value":{}}'), false);
  });
});

test('the generated contract holds what core\'s table says', () => {
  assert.deepEqual(Object.keys(ERROR), ['INVALID_ARGUMENT', 'SESSION_NOT_FOUND', 'SESSION_ALREADY_EXISTS', 'NODE_NOT_FOUND', 'INVALID_SNAPSHOT', 'NOT_FOUND', 'STORAGE_ERROR']);
  for (const [name, code] of Object.entries(ERROR)) assert.equal(code, name);
  assert.equal(STORAGE_ERROR, ERROR.STORAGE_ERROR);
  assert.ok(Object.isFrozen(OPERATIONS) && Object.isFrozen(OPERATIONS.append.fields));
  assert.deepEqual(OPERATIONS.context, { readOnly: true, keepsCursor: false, public: true, fields: ['sessionId', 'ids'] });
  assert.equal(OPERATIONS.label.keepsCursor, true);
  assert.equal(OPERATIONS.restore.public, false);
  for (const [name, op] of Object.entries(OPERATIONS)) assert.ok(!(op.readOnly && op.keepsCursor), `${name}: a read-only operation changes no cursor to keep`);
  assert.equal(CHUNK_SIZE, 1000);
  assert.equal(SNAPSHOT_VERSION, 1);
  assert.deepEqual(SNAPSHOT_MEMBERS.slice(0, 2), ['version', 'sessionId']);
  assert.ok(HANDLE_METHODS.includes('callInternal') && HANDLE_METHODS.includes('drainBytes'));
});
