// The chat adapter (js/openai.js, sessiontree/openai) against a scripted
// OpenAI-compatible server on 127.0.0.1 (e2e/openai-server.mjs): the SSE
// parser and the message mapping in Node; then in Chromium, with the real
// shim and wasm (e2e/fixtures/openai.html), a reply streamed chunk by
// chunk, an abort mid-stream, a 500, retries, a malformed SSE line and a
// network drop — after each the tree holds what it held plus exactly the
// completed reply or nothing, and after a reload nothing half-written is
// there. Then the chat demo (static/chat-demo.html) against the same
// server: settings, a streamed reply, regenerate and edit with their
// "‹ 2 / 2 ›" arrows, stop, an error, a reload, the echo bot again;
// screenshots in e2e/artifacts/chat-demo-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, artifactPath } from './helpers.mjs';
import { APP_CSP, DEMO_CSP } from '../tools/serve.mjs';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './helpers.mjs';
import { startChatServer, sse, delta, DONE_EVENT } from './openai-server.mjs';
import { SSEParser, toChatMessages, chatCompletionsURL, streamChatCompletion, reply, regenerate, edit } from '../js/openai.js';

test('the SSE parser: CRLF, CR and LF line ends cut anywhere, comments, multi-line data, fields, a BOM, an unterminated last event', () => {
  const stream = '\uFEFF: hello\r\nevent: message\r\ndata: {"a":\r\ndata: 1}\r\n\r\nid: 7\rretry: 10\rdata:x\r\rjunk line\ndata\n\ndata: [DONE]';
  // Every cut of the stream into two pieces gives the same events.
  for (let cut = 0; cut <= stream.length; cut++) {
    const p = new SSEParser();
    const events = [...p.push(stream.slice(0, cut)), ...p.push(stream.slice(cut)), ...p.end()];
    assert.deepEqual(events, [
      { event: 'message', data: '{"a":\n1}' },
      { event: 'message', data: 'x' },
      { event: 'message', data: '' },
      { event: 'message', data: '[DONE]' },
    ], `cut at ${cut}`);
    assert.equal(p.comments, 1);
  }
  const p = new SSEParser();
  assert.deepEqual([...p.push('event: error\ndata: {"error":{}}\n\n')], [{ event: 'error', data: '{"error":{}}' }]);
});

test('toChatMessages: roles, vendor fields, reasoning, tool calls and results, images', () => {
  const { messages, warnings } = toChatMessages([
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: [{ type: 'text', text: 'Look' }, { type: 'image', data: 'AAAA', mimeType: 'image/png' }] },
    { role: 'assistant', content: '<think>hmm</think>\nIt is a cat.', model: 'x', reasoning_content: 'r', timestamp: 5 },
    { role: 'assistant', content: [{ type: 'thinking', thinking: 'plan' }, { type: 'text', text: 'Checking.' }, { type: 'toolCall', id: 'c1', name: 'ls', arguments: { dir: '/' } }] },
    { role: 'toolResult', toolCallId: 'c1', toolName: 'ls', content: [{ type: 'text', text: 'a b' }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c2', content: 'ok' }] },
    { role: 'custom', content: 'not for the model' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c3', type: 'function', function: { name: 'f', arguments: '{}' } }] },
    { role: 'user', content: [{ type: 'audio', data: 'x' }, { type: 'text', text: 'hi' }] },
  ]);
  assert.deepEqual(messages, [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: [{ type: 'text', text: 'Look' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] },
    { role: 'assistant', content: 'It is a cat.' },
    { role: 'assistant', content: 'Checking.', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{"dir":"/"}' } }] },
    { role: 'tool', content: 'a b', tool_call_id: 'c1' },
    { role: 'tool', tool_call_id: 'c2', content: 'ok' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c3', type: 'function', function: { name: 'f', arguments: '{}' } }] },
    { role: 'user', content: 'hi' },
  ]);
  assert.deepEqual(warnings, ['messages[6]: role "custom" has no Chat Completions role; left out', 'messages[8].content[0]: part of type "audio" left out']);
  assert.equal(chatCompletionsURL('http://localhost:11434/v1/'), 'http://localhost:11434/v1/chat/completions');
  assert.equal(chatCompletionsURL('https://x.test/api/chat/completions'), 'https://x.test/api/chat/completions');
  assert.equal(chatCompletionsURL('ftp://x.test/v1'), null);
});

test('in Node: tool calls and reasoning assembled from deltas, a JSON answer, an error in the stream; bad arguments are envelopes naming the field', async () => {
  const chat = await startChatServer();
  try {
    const settings = (scenario) => ({ baseURL: chat.baseURL + scenario + '/v1', model: 'm', body: { temperature: 0.2, model: 'never sent' } });
    const msgs = [{ role: 'user', content: 'hi' }];
    const chunk = (d, finish = null) => sse({ choices: [{ index: 0, delta: d, finish_reason: finish }] });
    chat.plan('tools', {
      chunks: [
        chunk({ role: 'assistant', reasoning_content: 'Think' }),
        chunk({ reasoning_content: 'ing.' }),
        chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{"di' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: 'r":"/"}' } }] }, 'tool_calls'),
        sse({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 5 } }),
        DONE_EVENT,
      ],
    });
    const tools = await streamChatCompletion(settings('tools'), msgs);
    assert.deepEqual(tools, { ok: true, value: { text: '', reasoning: 'Thinking.', toolCalls: [{ id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{"dir":"/"}' } }], finishReason: 'tool_calls', model: null, usage: { prompt_tokens: 3, completion_tokens: 5 }, attempts: 1 } });
    assert.deepEqual(chat.requests.at(-1).body, { temperature: 0.2, model: 'm', messages: msgs, stream: true });

    chat.plan('json', { status: 200, json: { model: 'j', choices: [{ index: 0, message: { role: 'assistant', content: 'Whole answer.' }, finish_reason: 'stop' }] } });
    const deltas = [];
    const json = await streamChatCompletion(settings('json'), msgs, { onDelta: (d) => deltas.push(d.text) });
    assert.equal(json.ok, true);
    assert.equal(json.value.text, 'Whole answer.');
    assert.deepEqual(deltas, ['Whole answer.']);

    chat.plan('inband', { chunks: [sse(delta('a')), sse({ error: { message: 'context length exceeded' } }), DONE_EVENT] });
    const inband = await streamChatCompletion(settings('inband'), msgs);
    assert.equal(inband.error.code, 'HTTP_ERROR');
    assert.equal(inband.error.message, 'the server reported an error in the stream: context length exceeded');

    chat.plan('early', { chunks: [sse(delta('cut'))] });
    const early = await streamChatCompletion(settings('early'), msgs, { retries: 0 });
    assert.equal(early.error.code, 'NETWORK_ERROR');
    assert.match(early.error.message, /ended after \d+ bytes before \[DONE\]$/);

    chat.plan('throws', { chunks: [sse(delta('x')), DONE_EVENT] });
    const thrown = await streamChatCompletion(settings('throws'), msgs, { onDelta: () => { throw new Error('page bug'); } });
    assert.deepEqual(thrown, { ok: false, error: { code: 'INVALID_ARGUMENT', message: 'options.onDelta threw: page bug; nothing was appended', partial: 'x', attempts: 1 } });

    const aborted = new AbortController();
    aborted.abort();
    assert.equal((await streamChatCompletion(settings('json'), msgs, { signal: aborted.signal })).error.code, 'ABORTED');
  } finally {
    await chat.close();
  }
  const tree = { call: async () => assert.fail('no call for a bad argument') };
  const ok = { baseURL: 'http://127.0.0.1:9/v1', model: 'm' };
  const cases = [
    [() => reply(null, 's', ok), 'reply: tree must be a SessionTree (an object with call()); got null'],
    [() => reply(tree, '', ok), 'reply: sessionId must be a non-empty string; got ""'],
    [() => reply(tree, 's', { baseURL: 'ftp://x', model: 'm' }), 'reply: settings.baseURL must be an http(s) URL such as http://localhost:11434/v1; got "ftp://x"'],
    [() => reply(tree, 's', { baseURL: 'http://x/v1' }), 'reply: settings.model must be a non-empty string; got undefined'],
    [() => reply(tree, 's', ok, { retries: -1 }), 'reply: options.retries must be an integer from 0 to 10; got -1'],
    [() => regenerate(tree, 's', 'n', ok, { signal: 'stop' }), 'regenerate: options.signal must be an AbortSignal; got "stop"'],
    [() => edit(tree, 's', 'n', 42), 'edit: content must be a string or an array of content parts; got 42'],
    [() => streamChatCompletion(ok, []), 'streamChatCompletion: messages must be a non-empty array; got []'],
  ];
  for (const [fn, message] of cases) assert.deepEqual(await fn(), { ok: false, error: { code: 'INVALID_ARGUMENT', message } });
});

/** tsc --noEmit --strict (the pinned TypeScript) on one file: its exit code and report. */
async function tsc(file) {
  const args = [path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--lib', 'es2022,dom', '--pretty', 'false', file];
  try {
    const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: REPO_ROOT });
    return { code: 0, out: stdout };
  } catch (err) {
    if (typeof err.code !== 'number') throw err;
    return { code: err.code, out: err.stdout };
  }
}

test('openai.d.ts: a typed page compiles; a misspelled settings field does not', async () => {
  const good = path.join('e2e', 'fixtures', 'openai-typed.ts');
  assert.deepEqual(await tsc(good), { code: 0, out: '' });
  const bad = path.join('e2e', 'fixtures', 'openai-typed-bad.ts');
  fs.writeFileSync(bad, fs.readFileSync(good, 'utf8').replace('baseURL: "http', 'baseUrl: "http'));
  try {
    const r = await tsc(bad);
    assert.notEqual(r.code, 0, `tsc must fail: ${r.out}`);
    assert.match(r.out, /openai-typed-bad\.ts\(8,\d+\): error TS2561: Object literal may only specify known properties, but 'baseUrl' does not exist in type 'ChatSettings'\. Did you mean to write 'baseURL'\?/);
  } finally {
    fs.rmSync(bad, { force: true });
  }
});

/** The page's tree: call(request) there, asserting ok; the value. */
async function call(page, request) {
  const env = await page.evaluate((r) => window.openaiTest.tree.call(r), request);
  assert.equal(env.ok, true, `${request.operation}: ${JSON.stringify(env.error)}`);
  return env.value;
}

/** The session's nodes (id, parent, message) and its context, to compare before and after. */
async function state(page, sessionId) {
  const snap = await call(page, { operation: 'snapshot.save', sessionId });
  const ctx = await call(page, { operation: 'context', sessionId });
  return { nodes: snap.nodes.map((n) => ({ id: n.id, parentId: n.parentId, message: n.message })), cursor: ctx.cursor, messages: ctx.messages };
}

async function openPage(env) {
  await env.page.goto(env.baseURL + 'e2e/fixtures/openai.html');
  await env.page.waitForFunction(() => window.openaiTest, null);
  return env.page;
}

/** Begin openai[fn] in the page; resolve to its envelope once it settles. */
async function run(page, fn, args, options = {}) {
  await page.evaluate(([f, a, o]) => window.openaiTest.start(f, a, o), [fn, args, options]);
  await page.waitForFunction(() => window.openaiTest.result !== null, null);
  return page.evaluate(() => window.openaiTest.result);
}

test('in Chromium: streamed, aborted, failed, retried, malformed and dropped replies; the tree after each and after a reload', async () => {
  const chat = await startChatServer();
  const env = await setup();
  try {
    const page = await openPage(env);
    const S = 'chat';
    const settings = (scenario) => ({ baseURL: chat.baseURL + scenario + '/v1', model: 'test-model', apiKey: 'sk-test' });
    await call(page, { operation: 'create', sessionId: S });
    await call(page, { operation: 'append', sessionId: S, message: { role: 'system', content: 'Be brief.' } });
    const user = await call(page, { operation: 'append', sessionId: S, message: { role: 'user', content: 'Say hello' } });

    // 1. Streamed chunk by chunk: each chunk is sent only after the page has
    // seen the one before, and nothing is appended until [DONE].
    const chunks = ['Hel', 'lo, ', 'world', '!'];
    chat.plan('stream', { gate: true, chunks: [...chunks.map((c) => sse(delta(c))), sse(delta('', 'stop')), DONE_EVENT] });
    const before = await state(page, S);
    await page.evaluate(([a]) => window.openaiTest.start('reply', a), [[S, settings('stream')]]);
    for (let k = 1; k <= chunks.length; k++) {
      chat.allow(1);
      await page.waitForFunction((n) => window.openaiTest.deltas.length === n, k);
      assert.deepEqual(await page.evaluate(() => window.openaiTest.deltas), chunks.slice(0, k));
      assert.deepEqual(await state(page, S), before, `nothing appended after ${k} chunks`);
    }
    chat.allow(2);
    await page.waitForFunction(() => window.openaiTest.result !== null);
    const streamed = await page.evaluate(() => window.openaiTest.result);
    assert.equal(streamed.ok, true, JSON.stringify(streamed.error));
    assert.equal(streamed.value.text, 'Hello, world!');
    assert.equal(streamed.value.finishReason, 'stop');
    assert.equal(streamed.value.attempts, 1);
    assert.deepEqual(streamed.value.node.message, { role: 'assistant', content: 'Hello, world!', model: 'test-model' });
    assert.equal(streamed.value.node.parentId, user.id);
    const sent = chat.requests.at(-1);
    assert.equal(sent.headers.authorization, 'Bearer sk-test');
    assert.deepEqual(sent.body, { model: 'test-model', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Say hello' }], stream: true });
    const afterStream = await state(page, S);
    assert.deepEqual(afterStream.nodes, [...before.nodes, { id: streamed.value.node.id, parentId: user.id, message: streamed.value.node.message }]);
    assert.deepEqual(afterStream.messages, [...before.messages, streamed.value.node.message]);
    assert.equal(afterStream.cursor, streamed.value.node.id);

    // Each failure below leaves the tree exactly as it was.
    await call(page, { operation: 'append', sessionId: S, message: { role: 'user', content: 'And again?' } });
    const stable = await state(page, S);

    // 2. Abort mid-stream: two chunks seen, then the page aborts.
    chat.plan('abort', { gate: true, chunks: [sse(delta('ab')), sse(delta('cd')), sse(delta('ef')), DONE_EVENT] });
    await page.evaluate(([a]) => window.openaiTest.start('reply', a), [[S, settings('abort')]]);
    chat.allow(2);
    await page.waitForFunction(() => window.openaiTest.deltas.length === 2);
    await page.evaluate(() => window.openaiTest.controller.abort());
    await page.waitForFunction(() => window.openaiTest.result !== null);
    const aborted = await page.evaluate(() => window.openaiTest.result);
    assert.deepEqual(aborted, { ok: false, error: { code: 'ABORTED', message: 'the reply was aborted; nothing was appended', partial: 'abcd', attempts: 1 } });
    assert.deepEqual(await state(page, S), stable, 'after the abort');
    chat.allow(1); // the server's next write finds the connection gone
    await waitFor(() => chat.requests.at(-1).closed, 'the server saw the client go away');

    // 3. A 500, with no retries: the server's message in the envelope.
    chat.plan('e500', { status: 500, json: { error: { message: 'model overloaded', type: 'server_error' } } });
    const e500 = await run(page, 'reply', [S, settings('e500')], { retries: 0 });
    assert.equal(e500.ok, false);
    assert.equal(e500.error.code, 'HTTP_ERROR');
    assert.equal(e500.error.status, 500);
    assert.match(e500.error.message, /answered 500 Internal Server Error: model overloaded$/);
    assert.deepEqual(await state(page, S), stable, 'after the 500');

    // 4. Retries: a 503 then a stream (retried once, with backoff); a 401 is never retried.
    chat.plan('retry', { status: 503, text: 'busy' }, { chunks: [sse(delta('Retried.', 'stop')), DONE_EVENT] });
    const retried = await run(page, 'reply', [S, settings('retry')], { retries: 2, retryDelay: 5 });
    assert.equal(retried.ok, true, JSON.stringify(retried.error));
    assert.equal(retried.value.attempts, 2);
    assert.deepEqual(await page.evaluate(() => window.openaiTest.retries), [{ attempt: 1, code: 'HTTP_ERROR' }]);
    assert.deepEqual((await state(page, S)).nodes, [...stable.nodes, { id: retried.value.node.id, parentId: stable.cursor, message: { role: 'assistant', content: 'Retried.', model: 'test-model' } }]);
    // Back to the user message, to answer it again below.
    await call(page, { operation: 'jump', sessionId: S, nodeId: stable.cursor });
    const stable2 = await state(page, S);
    const count = chat.requests.length;
    chat.plan('e401', { status: 401, json: { error: { message: 'Invalid API key' } } });
    const e401 = await run(page, 'reply', [S, settings('e401')], { retries: 3, retryDelay: 1 });
    assert.equal(e401.error.code, 'HTTP_ERROR');
    assert.match(e401.error.message, /401 Unauthorized: Invalid API key$/);
    assert.equal(chat.requests.length, count + 1, 'a 401 is not retried');

    // 5. A malformed SSE line after a delta: the reply fails, nothing kept.
    chat.plan('malformed', { chunks: [sse(delta('Part')), 'data: {"choices": [oops\n\n', sse(delta('never')), DONE_EVENT] });
    const bad = await run(page, 'reply', [S, settings('malformed')]);
    assert.equal(bad.error.code, 'BAD_RESPONSE');
    assert.equal(bad.error.message, 'malformed event in the stream (its data is not JSON): {"choices": [oops');
    assert.equal(bad.error.partial, 'Part');
    assert.deepEqual(await state(page, S), stable2, 'after the malformed line');

    // 6. A network drop mid-stream, after a delta: not retried.
    chat.plan('drop', { gate: true, chunks: [sse(delta('Half a rep'))], end: 'drop' });
    const n = chat.requests.length;
    await page.evaluate(([a]) => window.openaiTest.start('reply', a, { retries: 2, retryDelay: 1 }), [[S, settings('drop')]]);
    chat.allow(1);
    await page.waitForFunction(() => window.openaiTest.deltas.length === 1);
    chat.allow(1);
    await page.waitForFunction(() => window.openaiTest.result !== null);
    const dropped = await page.evaluate(() => window.openaiTest.result);
    assert.equal(dropped.error.code, 'NETWORK_ERROR');
    assert.match(dropped.error.message, /^the stream from http:\/\/127\.0\.0\.1:\d+\/drop\/v1\/chat\/completions broke after \d+ bytes: /);
    assert.equal(dropped.error.partial, 'Half a rep');
    assert.equal(chat.requests.length, n + 1, 'no retry once a delta was shown');
    assert.deepEqual(await state(page, S), stable2, 'after the drop');
    // A drop before any delta is retried.
    chat.plan('drop0', { chunks: [': connected\n\n'], end: 'drop' }, { chunks: [sse(delta('Whole.', 'stop'))] });
    const again = await run(page, 'reply', [S, settings('drop0')], { retries: 1, retryDelay: 1 });
    assert.equal(again.ok, true, JSON.stringify(again.error));
    assert.equal(again.value.attempts, 2);

    // The cursor moves while a reply streams: the reply still answers the
    // node it was asked at (appended there, on a new branch), and the
    // cursor goes to it.
    const asked = (await state(page, S)).cursor;
    chat.plan('moved', { gate: true, chunks: [sse(delta('Late.')), DONE_EVENT] });
    await page.evaluate(([a]) => window.openaiTest.start('reply', a), [[S, settings('moved')]]);
    chat.allow(1);
    await page.waitForFunction(() => window.openaiTest.deltas.length === 1);
    await call(page, { operation: 'jump', sessionId: S, nodeId: user.id });
    chat.allow(1);
    await page.waitForFunction(() => window.openaiTest.result !== null);
    const late = await page.evaluate(() => window.openaiTest.result);
    assert.equal(late.ok, true, JSON.stringify(late.error));
    assert.equal(late.value.node.parentId, asked);
    assert.equal((await state(page, S)).cursor, late.value.node.id);

    // 7. Regenerate the streamed reply (a sibling under the same user
    // message) and edit the user message (a sibling user message).
    chat.plan('regen', { chunks: [sse(delta('Hi there!', 'stop')), DONE_EVENT] });
    const regen = await run(page, 'regenerate', [S, streamed.value.node.id, settings('regen')]);
    assert.equal(regen.ok, true, JSON.stringify(regen.error));
    assert.equal(regen.value.node.parentId, user.id);
    assert.deepEqual(chat.requests.at(-1).body.messages, [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Say hello' }]);
    const edited = await page.evaluate(([s, id]) => window.openaiTest.openai.edit(window.openaiTest.tree, s, id, 'Say hi'), [S, user.id]);
    assert.equal(edited.ok, true, JSON.stringify(edited.error));
    assert.equal(edited.value.parentId, user.parentId);
    assert.deepEqual(edited.value.message, { role: 'user', content: 'Say hi' });
    const root = (await state(page, S)).nodes[0].id;
    const rootEdit = await page.evaluate(([s, id]) => window.openaiTest.openai.edit(window.openaiTest.tree, s, id, 'x'), [S, root]);
    // The edit of the root (the system message) is a new root beside it.
    assert.equal(rootEdit.ok, true, JSON.stringify(rootEdit.error));
    assert.equal(rootEdit.value.parentId, null);
    assert.deepEqual(rootEdit.value.message, { role: 'system', content: 'x' });
    assert.equal((await state(page, S)).cursor, rootEdit.value.id);
    // A regenerate that fails puts the cursor back.
    const beforeFail = await state(page, S);
    const failed = await run(page, 'regenerate', [S, streamed.value.node.id, settings('e500')], { retries: 0 });
    assert.equal(failed.error.code, 'HTTP_ERROR');
    assert.deepEqual(await state(page, S), beforeFail, 'after a failed regenerate');

    // 8. After a reload, the stored tree is the one in memory: every reply
    // complete, no partial text anywhere.
    const final = await state(page, S);
    await openPage(env);
    assert.deepEqual(await state(page, S), final);
    const texts = final.nodes.map((x) => x.message?.content);
    assert.deepEqual(texts, ['Be brief.', 'Say hello', 'Hello, world!', 'And again?', 'Retried.', 'Whole.', 'Late.', 'Hi there!', 'Say hi', 'x']);
    // Chromium logs each failed load it was made to see: those and nothing else.
    const provoked = /^console\.error: Failed to load resource: (the server responded with a status of (500|503|401) |net::ERR_INCOMPLETE_CHUNKED_ENCODING).*\/(e500|retry|e401|drop|drop0)\/v1\/chat\/completions/;
    assert.deepEqual(env.errors.filter((e) => !provoked.test(e)), []);
    assert.equal(env.errors.length, 6);
  } finally {
    await env.close();
    await chat.close();
  }
});

/** Poll a Node-side condition (the server's records) until it holds. */
async function waitFor(fn, what) {
  for (let i = 0; i < 1500; i++) {
    if (fn()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.fail(`timed out waiting for: ${what}`);
}

test('the chat demo against the loopback server: settings, streamed reply, regenerate and edit with arrows, stop, error, reload, echo bot; screenshots', async () => {
  const chat = await startChatServer();
  const env = await setup({ contextOptions: { viewport: { width: 1366, height: 850 } } });
  try {
    const { page, context } = env;
    const { baseURL } = env;
    assert.notEqual(DEMO_CSP, APP_CSP);
    await context.addInitScript(() => {
      window.__violations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    const open = async () => {
      const response = await page.goto(baseURL + 'static/chat-demo.html');
      assert.equal(response.headers()['content-security-policy'], DEMO_CSP);
      await page.waitForSelector('body[data-ready="true"]');
    };
    await open();
    const demoCall = async (request) => {
      const r = await page.evaluate((q) => window.chatDemo.tree.call(q), { sessionId: 'chat-demo', ...request });
      assert.equal(r.ok, true, JSON.stringify(r.error));
      return r.value;
    };
    const bubbles = () => page.locator('#history .bubble').evaluateAll((els) => els.map((e) => [e.dataset.role, e.querySelector('.text')?.textContent ?? '', e.querySelector('.sib-pos')?.textContent ?? '']));
    const say = async (text) => {
      await page.locator('#input').fill(text);
      await page.keyboard.press('Enter');
    };
    // A streamed reply is over: its bubble is gone and Stop is Send again.
    const settled = async () => {
      await page.locator('#history .bubble.streaming').waitFor({ state: 'detached' });
      await page.locator('#send', { hasText: /^Send$/ }).waitFor();
    };

    // Settings: kept in localStorage, shown in the header.
    await page.locator('#settings-open').click();
    await page.locator('#set-base').fill('not a url');
    await page.locator('#settings-save').click();
    await page.locator('#settings-error', { hasText: 'must be an http:// or https:// URL' }).waitFor();
    const base = chat.baseURL + 'demo/v1';
    await page.locator('#set-base').fill(base);
    await page.locator('#set-model').fill('test-model');
    await page.locator('#set-key').fill('sk-demo');
    await page.locator('#settings-save').click();
    await page.locator('#settings').waitFor({ state: 'hidden' });
    assert.equal(await page.locator('#bot-name').textContent(), `test-model @ ${new URL(chat.baseURL).host}`);
    assert.deepEqual(JSON.parse(await page.evaluate(() => localStorage.getItem('sessiontree-chat-demo-endpoint'))), { baseURL: base, model: 'test-model', apiKey: 'sk-demo', system: 'You are a helpful assistant.' });

    // A streamed reply: the bubble grows chunk by chunk; the tree gets it at the end.
    chat.plan('demo', { gate: true, chunks: [sse(delta('Hello')), sse(delta(' from')), sse(delta(' the **model**.')), DONE_EVENT] });
    await say('Hi model');
    const streaming = page.locator('#history .bubble.streaming .text');
    chat.allow(1);
    await streaming.filter({ hasText: /^Hello$/ }).waitFor();
    assert.deepEqual((await demoCall({ operation: 'context' })).messages.map((m) => m.role), ['system', 'user']);
    assert.equal(await page.locator('#send').textContent(), 'Stop');
    chat.allow(1);
    await streaming.filter({ hasText: /^Hello from$/ }).waitFor();
    await page.screenshot({ path: artifactPath('chat-demo-streaming.png') });
    chat.allow(2);
    await page.locator('#history .bubble[data-role="assistant"]:not(.streaming) strong', { hasText: 'model' }).waitFor();
    await settled();
    assert.deepEqual(await bubbles(), [['system', 'You are a helpful assistant.', ''], ['user', 'Hi model', ''], ['assistant', 'Hello from the model.', '']]);
    assert.equal(chat.requests.at(-1).headers.authorization, 'Bearer sk-demo');
    assert.deepEqual(chat.requests.at(-1).body.messages, [{ role: 'system', content: 'You are a helpful assistant.' }, { role: 'user', content: 'Hi model' }]);

    // Regenerate: a second reply beside the first, "2 / 2"; ‹ shows the first again.
    chat.plan('demo', { chunks: [sse(delta('Second answer.')), DONE_EVENT] });
    await page.locator('#history .bubble[data-role="assistant"] .act.regen').click();
    await page.locator('#history .bubble[data-role="assistant"] .sib-pos', { hasText: '2 / 2' }).waitFor();
    await settled();
    assert.deepEqual((await bubbles()).slice(1), [['user', 'Hi model', ''], ['assistant', 'Second answer.', '2 / 2']]);
    await page.locator('#history .bubble[data-role="assistant"] .sib-prev').click();
    await page.locator('#history .bubble[data-role="assistant"] .sib-pos', { hasText: '1 / 2' }).waitFor();
    // Focus stays on the arrows (‹ is disabled now, so on ›).
    await page.waitForFunction(() => document.activeElement?.matches('#history .bubble[data-role="assistant"] .sib-next'));
    assert.deepEqual((await bubbles()).at(-1), ['assistant', 'Hello from the model.', '1 / 2']);

    // Edit: a sibling user message (and its answer), "2 / 2" on the user message.
    chat.plan('demo', { chunks: [sse(delta('Edited answer.')), DONE_EVENT] });
    await page.locator('#history .bubble[data-role="user"] .act.edit').click();
    await page.locator('#history .editor textarea').fill('Hi again');
    await page.locator('#history .editor button[type="submit"]').click();
    await page.locator('#history .bubble[data-role="assistant"]:not(.streaming) .text', { hasText: 'Edited answer.' }).waitFor();
    await settled();
    assert.deepEqual(await bubbles(), [['system', 'You are a helpful assistant.', ''], ['user', 'Hi again', '2 / 2'], ['assistant', 'Edited answer.', '']]);
    const nodes = await demoCall({ operation: 'list' });
    const users = nodes.filter((n) => n.role === 'user');
    assert.equal(users.length, 2);
    assert.equal(users[0].parentId, users[1].parentId, 'the edited message is a sibling of the old one');
    for (const [scheme, w, h] of [['light', 1366, 850], ['dark', 1366, 850], ['light', 390, 844], ['dark', 390, 844]]) {
      await page.setViewportSize({ width: w, height: h });
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: artifactPath(`chat-demo-${w}-${scheme}.png`) });
    }
    await page.locator('#settings-open').click();
    await page.screenshot({ path: artifactPath('chat-demo-390-dark-settings.png') });
    await page.locator('#settings-cancel').click();
    await page.setViewportSize({ width: 1366, height: 850 });
    await page.emulateMedia({ colorScheme: 'light' });

    // Stop mid-stream: nothing kept, the status says so.
    const before = await demoCall({ operation: 'context' });
    chat.plan('demo', { gate: true, chunks: [sse(delta('Half')), sse(delta(' more'))], end: 'hold' });
    await say('A long one');
    chat.allow(1);
    await streaming.filter({ hasText: /^Half$/ }).waitFor();
    await page.locator('#send').click();
    await page.locator('#status', { hasText: 'Stopped. The partial reply was not kept.' }).waitFor();
    await page.locator('#history .bubble.streaming').waitFor({ state: 'detached' });
    const stopped = await demoCall({ operation: 'context' });
    assert.deepEqual(stopped.messages, [...before.messages, { role: 'user', content: 'A long one' }]);

    // An error: the server's message in the status, nothing kept.
    chat.plan('demo', { status: 400, json: { error: { message: 'model "test-model" not found' } } });
    await page.locator('#history .bubble[data-role="user"]').last().locator('.act.edit').click();
    await page.locator('#history .editor textarea').fill('Try again');
    await page.locator('#history .editor button[type="submit"]').click();
    await page.locator('#status.error', { hasText: 'model "test-model" not found' }).waitFor();
    const failed = await demoCall({ operation: 'context' });
    assert.deepEqual(failed.messages.at(-1), { role: 'user', content: 'Try again' });

    // A reload: the settings and the complete history are back, nothing half-written.
    const kept = await bubbles();
    await open();
    assert.deepEqual(await bubbles(), kept);
    assert.equal(await page.locator('#bot-name').textContent(), `test-model @ ${new URL(chat.baseURL).host}`);
    const all = (await demoCall({ operation: 'snapshot.save' })).nodes.map((n) => n.message.content);
    assert.deepEqual(all, ['You are a helpful assistant.', 'Hi model', 'Hello from the **model**.', 'Second answer.', 'Hi again', 'Edited answer.', 'A long one', 'Try again']);

    // Back to the echo bot.
    await page.locator('#settings-open').click();
    await page.locator('#settings-echo').click();
    // The header is drawn again once the settings are cleared: wait for it, then read it.
    await page.locator('#bot-name', { hasText: /^echo bot$/ }).waitFor();
    assert.equal(await page.locator('#bot-name').textContent(), 'echo bot');
    assert.equal(await page.evaluate(() => localStorage.getItem('sessiontree-chat-demo-endpoint')), null);
    await say('Echo me');
    await page.locator('#history .bubble .text', { hasText: 'You said “Echo me” (2 words).' }).waitFor();
    assert.deepEqual(await page.evaluate(() => window.__violations), []);
    const provoked = /Failed to load resource: the server responded with a status of 400 .*\/demo\/v1\/chat\/completions/;
    assert.deepEqual(env.errors.filter((e) => !provoked.test(e)), []);
  } finally {
    await env.close();
    await chat.close();
  }
});

test('the chat demo on a phone: sending keeps the page where it is (the panel below never pulls it down)', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true } });
  try {
    const { page, baseURL, errors } = env;
    await page.goto(baseURL + 'static/chat-demo.html');
    await page.waitForSelector('body[data-ready="true"]');
    const where = () => page.evaluate(() => ({ scrollY: Math.round(scrollY), input: Math.round(document.querySelector('#input').getBoundingClientRect().top) }));
    const start = await where();
    for (let i = 0; i < 3; i++) {
      await page.locator('#input').fill(`hello ${i}`);
      await page.keyboard.press('Enter');
      // The echo bot's reply and the panel's row of it are both drawn.
      await page.waitForFunction((n) => document.querySelectorAll('#history > li').length >= n, 2 * (i + 1));
      await page.locator('#panel .row', { hasText: `You said “hello ${i}”` }).first().waitFor();
      assert.deepEqual(await where(), start, `after message ${i}`);
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'input');
    }
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('the chat demo by keyboard: after Regenerate, an edit\'s Escape and its Save & send, focus is on the same action of the bubble drawn anew, not on <body>', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1366, height: 850 } } });
  try {
    const { page, baseURL, errors } = env;
    await page.goto(baseURL + 'static/chat-demo.html');
    await page.waitForSelector('body[data-ready="true"]');
    // The chat is the page's main landmark (axe: landmark-one-main); the tree beside it stays complementary.
    assert.deepEqual(await page.evaluate(() => [document.querySelectorAll('main').length, document.querySelector('main')?.getAttribute('aria-label'), document.querySelector('main aside') === null]), [1, 'Chat', true]);
    for (const [i, text] of ['one', 'two'].entries()) {
      await page.locator('#input').fill(text);
      await page.keyboard.press('Enter');
      await page.waitForFunction((n) => document.querySelectorAll('#history > li.bubble').length === n, 2 * (i + 1));
    }
    const focused = () => page.evaluate(() => {
      const a = document.activeElement;
      const li = a?.closest('#history > li');
      return { tag: a?.tagName, cls: a?.className ?? '', position: li ? [...li.parentElement.children].indexOf(li) : -1, text: li?.querySelector('.text')?.textContent ?? '', pos: li?.querySelector('.sib-pos')?.textContent ?? '' };
    });
    // Regenerate (the last reply, at position 3) by keyboard: the new reply's Regenerate has focus.
    await page.locator('#history > li').nth(3).locator('.act.regen').focus();
    await page.keyboard.press('Enter');
    await page.locator('#history > li').nth(3).locator('.sib-pos', { hasText: '2 / 2' }).waitFor();
    await page.waitForFunction(() => document.activeElement !== document.body);
    assert.deepEqual(await focused(), { tag: 'BUTTON', cls: 'act regen', position: 3, text: 'You said “two” (1 word).', pos: '2 / 2' });
    // Edit (the user's "two", at position 2), then Escape: its Edit has focus again.
    await page.locator('#history > li').nth(2).locator('.act.edit').focus();
    await page.keyboard.press('Enter');
    await page.locator('#history .editor textarea').waitFor();
    await page.waitForFunction(() => document.activeElement?.matches('#history .editor textarea'));
    await page.keyboard.press('Escape');
    await page.locator('#history .editor').waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement !== document.body);
    assert.deepEqual(await focused(), { tag: 'BUTTON', cls: 'act edit', position: 2, text: 'two', pos: '' });
    // Edit again, Save & send by Enter: the new version's Edit has focus once its answer is drawn.
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.matches('#history .editor textarea'));
    await page.keyboard.press('Control+A');
    await page.keyboard.type('three');
    await page.keyboard.press('Enter');
    await page.locator('#history > li').nth(3).locator('.text', { hasText: 'You said “three” (1 word).' }).waitFor();
    await page.waitForFunction(() => document.activeElement !== document.body);
    assert.deepEqual(await focused(), { tag: 'BUTTON', cls: 'act edit', position: 2, text: 'three', pos: '2 / 2' });
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});
