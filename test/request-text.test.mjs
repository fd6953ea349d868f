// js/request-text.js in Node: the pure text functions the shim builds and
// routes requests with (no wasm, no IndexedDB).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  byteOrderMark, concatUTF8, escapeLoneSurrogates, leadingMembers, PARSE_LIMIT, requestHead, requestJSON, requestOperation, snapshotSessionId, spliceJSON, withoutBOM,
} from '../js/request-text.js';

const utf8 = (s) => new TextEncoder().encode(s);
const text = (b) => new TextDecoder().decode(b);

test('concatUTF8 joins texts and bytes into one UTF-8 array', () => {
  assert.equal(text(concatUTF8(['a', utf8('é'), '', 'z'])), 'aéz');
  assert.equal(concatUTF8([]).length, 0);
});

test('spliceJSON puts raw members after the plain ones, as they are', async (t) => {
  const cases = [
    { name: 'plain fields only', fields: { a: 1 }, raws: [], want: '{"a":1}' },
    { name: 'no plain fields', fields: {}, raws: [['x', '[1]']], want: '{"x":[1]}' },
    { name: 'an undefined field is left out', fields: { a: 1, b: undefined }, raws: [['r', 'null']], want: '{"a":1,"r":null}' },
    { name: 'a session named like a placeholder stays itself', fields: { sessionId: '__N__', title: '$&' }, raws: [['nodes', '[]']], want: '{"sessionId":"__N__","title":"$&","nodes":[]}' },
    { name: 'a key is JSON-escaped', fields: {}, raws: [['a"b', '1']], want: '{"a\\"b":1}' },
  ];
  for (const c of cases) {
    await t.test(c.name, () => {
      const got = spliceJSON(c.fields, c.raws);
      assert.equal(typeof got, 'string');
      assert.equal(got, c.want);
      assert.doesNotThrow(() => JSON.parse(got));
    });
  }
  await t.test('a raw member given as bytes makes the whole request bytes', () => {
    const got = spliceJSON({ operation: 'restore' }, [['snapshot', utf8('{"v":"é"}')]]);
    assert.ok(got instanceof Uint8Array);
    assert.deepEqual(JSON.parse(text(got)), { operation: 'restore', snapshot: { v: 'é' } });
  });
});

test('requestHead reads the operation of a request that starts with it, escapes decoded as JSON does', async (t) => {
  const cases = [
    ['{"operation":"append","sessionId":"s"}', 'append'],
    [' {\n "operation" : "tree.rows" }', 'tree.rows'],
    ['{"sessionId":"s","operation":"append"}', null],
    ['{"operation":"app\\u0065nd"}', 'append'],
    ['{"operation":5}', null],
    ['{"operation":"append"', 'append'],
    ['{"operation":"app', null],
    ['{"operation":"append" "x"}', null],
    ['{"operation":"a\u0001b"}', null],
    ['not json', null],
  ];
  for (const [input, want] of cases) {
    await t.test(`${JSON.stringify(input)} gives ${want}`, () => {
      assert.equal(requestHead(input), want);
      assert.equal(requestHead(utf8(input)), want);
    });
  }
});

test('requestOperation reads the operation as core does, parsing when asked to confirm', async (t) => {
  const always = () => true;
  const never = () => false;
  const cases = [
    { name: 'a head name not confirmed is taken', input: '{"operation":"append","x":1}', confirm: never, want: 'append' },
    { name: 'a confirmed head name is checked by parsing: a later member wins', input: '{"operation":"list","operation":"append"}', confirm: always, want: 'append' },
    { name: 'a request whose operation is not first is parsed', input: '{"sessionId":"s","operation":"context"}', confirm: never, want: 'context' },
    { name: 'an escaped name is parsed', input: '{"operation":"con\\u0074ext"}', confirm: never, want: 'context' },
    { name: 'bad JSON has no operation', input: '{"operation":', confirm: always, want: '' },
    { name: 'an array has no operation', input: '[1]', confirm: always, want: '' },
    { name: 'a non-string operation is none', input: '{"x":1,"operation":3}', confirm: always, want: '' },
  ];
  for (const c of cases) {
    await t.test(c.name, () => {
      assert.equal(requestOperation(c.input, c.confirm), c.want);
      assert.equal(requestOperation(utf8(c.input), c.confirm), c.want);
    });
  }
  await t.test('a request over PARSE_LIMIT that does not start with its operation is not parsed', () => {
    const big = '{"data":"' + 'x'.repeat(PARSE_LIMIT) + '","operation":"import"}';
    assert.equal(requestOperation(big, always), '');
  });
});

test('escapeLoneSurrogates writes lone surrogates as JSON escapes and leaves pairs', async (t) => {
  const cases = [
    ['plain', 'plain'],
    ['pair 😀', 'pair 😀'],
    ['lone \uD800 high', 'lone \\ud800 high'],
    ['lone \uDC00 low', 'lone \\udc00 low'],
    ['\uDC00\uD800', '\\udc00\\ud800'],
  ];
  for (const [input, want] of cases) {
    await t.test(JSON.stringify(want), () => assert.equal(escapeLoneSurrogates(input), want));
  }
});

test('snapshotSessionId reads the session of a snapshot in snapshot.save order', async (t) => {
  const cases = [
    ['{"version":1,"sessionId":"abc","nodes":[]}', 'abc'],
    [' {\n"version" : 1 ,"sessionId":"a\\"b"', 'a"b'],
    ['{"sessionId":"abc","version":1}', null],
    ['{"version":2,"sessionId":"abc"}', null],
    ['{"version":1,"sessionId":5}', null],
    ['[]', null],
  ];
  for (const [input, want] of cases) {
    await t.test(`${JSON.stringify(input)} gives ${want}`, () => assert.equal(snapshotSessionId(utf8(input)), want));
  }
});

test('leadingMembers reads the first members of an object as JSON does, stopping at what it cannot read whole', async (t) => {
  const cases = [
    { name: 'strings, numbers and literals, up to the count', input: '{"a":"x","b":-1.5e2,"c":true,"d":null}', count: 3, want: [['a', 'x'], ['b', -150], ['c', true]] },
    { name: 'escaped keys and values are decoded', input: '{"op\\u0065ration":"a\\"b"}', count: 2, want: [['operation', 'a"b']] },
    { name: 'an object value stops the reading', input: '{"a":1,"b":{"c":2},"d":3}', count: 3, want: [['a', 1]] },
    { name: 'a number the text ends in may go on: not read', input: '{"a":12', count: 1, want: [] },
    { name: 'white space anywhere JSON allows it', input: ' \n{ "a" :\t"x" ,"b":"y"}', count: 5, want: [['a', 'x'], ['b', 'y']] },
    { name: 'not an object: nothing', input: '["a"]', count: 1, want: [] },
    { name: 'a number that is not JSON: nothing', input: '{"a":01}', count: 1, want: [] },
  ];
  for (const c of cases) {
    await t.test(c.name, () => {
      const got = leadingMembers(c.input, c.count);
      assert.deepEqual(got.map(([k, v]) => [k, v]), c.want);
      for (const [, v, start, end] of got) assert.deepEqual(JSON.parse(c.input.slice(start, end)), v, 'the span is the value\'s text');
    });
  }
});

test('byteOrderMark names the encoding a file starts with; withoutBOM drops a UTF-8 mark and decodes UTF-16', () => {
  assert.equal(byteOrderMark(Uint8Array.of(0xef, 0xbb, 0xbf, 0x7b)), 'utf-8');
  assert.equal(byteOrderMark(Uint8Array.of(0xff, 0xfe, 0x7b, 0)), 'utf-16le');
  assert.equal(byteOrderMark(Uint8Array.of(0xfe, 0xff, 0, 0x7b)), 'utf-16be');
  assert.equal(byteOrderMark(Uint8Array.of(0x7b, 0x7d)), null);
  assert.equal(byteOrderMark(Uint8Array.of(0xef, 0xbb)), null, 'a cut mark is no mark');
  assert.equal(byteOrderMark(new Uint8Array(0)), null);
  assert.deepEqual(withoutBOM(Uint8Array.of(0xef, 0xbb, 0xbf, 0x7b, 0x7d)), utf8('{}'));
  assert.equal(withoutBOM(Uint8Array.of(0xff, 0xfe, 0x7b, 0, 0xe9, 0, 0x7d, 0)), '{é}');
  assert.equal(withoutBOM(Uint8Array.of(0xfe, 0xff, 0, 0x7b, 0, 0x7d)), '{}');
  assert.equal(withoutBOM('\ufeff{}'), '{}');
  assert.deepEqual(withoutBOM(utf8('{}')), utf8('{}'));
});

test('requestJSON: a top-level member JSON would drop or make null is refused by name; undefined stays absent; deeper values are JSON.stringify\'s', () => {
  assert.deepEqual(requestJSON({ operation: 'session', sessionId: 's', gone: undefined }), { text: '{"operation":"session","sessionId":"s"}' });
  for (const [v, why] of [[NaN, 'NaN'], [Infinity, 'Infinity'], [-Infinity, '-Infinity'], [() => 1, 'a function'], [Symbol('x'), 'a Symbol']]) {
    assert.equal(requestJSON({ operation: 'fork', newSessionId: v }).error, `field "newSessionId" is ${why}, which JSON cannot carry: give a string, a finite number, a boolean, null, an array or an object`);
  }
  assert.deepEqual(requestJSON({ operation: 'append', message: { role: 'user', content: 'x', score: NaN } }), { text: '{"operation":"append","message":{"role":"user","content":"x","score":null}}' });
  // An object of a class with no fields of its own is named, not sent as {} ("no operation field").
  assert.equal(requestJSON(new Blob(['{"operation":"sessions"}'])).error, 'request is a Blob, which has no fields: give an object like {operation: "session", sessionId: "demo"} or its JSON text');
  assert.equal(requestJSON(new Map([['operation', 'sessions']])).error, 'request is a Map, which has no fields: give an object like {operation: "session", sessionId: "demo"} or its JSON text');
  // A class's own fields, an object without a prototype, and {} itself go as JSON does.
  class Request { operation = 'sessions'; }
  assert.deepEqual(requestJSON(new Request()), { text: '{"operation":"sessions"}' });
  assert.deepEqual(requestJSON(Object.assign(Object.create(null), { operation: 'sessions' })), { text: '{"operation":"sessions"}' });
  assert.deepEqual(requestJSON({}), { text: '{}' });
  assert.match(requestJSON({ operation: 'x', n: 1n }).error, /^request cannot be encoded as JSON: /);
  assert.equal(requestJSON(undefined).error, 'request must be an object like {operation: "session", sessionId: "demo"}');
  assert.deepEqual(requestJSON({ operation: 'list', toJSON: () => ({ operation: 'session', sessionId: 's' }) }), { text: '{"operation":"session","sessionId":"s"}' }, 'a toJSON says what is sent');
});
