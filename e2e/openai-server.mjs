// A scripted OpenAI-compatible Chat Completions server for the chat
// adapter's tests (e2e/openai.test.mjs): Node's http only, bound to
// 127.0.0.1 on a free port, CORS open (the page under test is on another
// port, so another origin).
//
//   const chat = await startChatServer();
//   chat.plan('ok', { chunks: [sse(delta('Hel')), sse(delta('lo')), DONE_EVENT] });
//   settings = { baseURL: chat.baseURL + 'ok/v1', model: 'm' }
//
// The first path segment names a scenario; each request to it takes the
// next of its plans (the last one is kept for the requests after it):
// - {status, json?, text?, headers?}: one plain answer (e.g. a 500);
// - {chunks: string[], gate?: boolean, end?: 'close'|'drop'|'hold'}: an
//   SSE stream written chunk by chunk as given (raw strings, so a test
//   can send a malformed line, CRLF or a line cut in two). With gate, each
//   chunk waits for a credit from chat.allow(n), so a test sees one chunk
//   arrive before the next is sent (and a gated drop waits for one more). end: 'close' (default) ends the body,
//   'drop' destroys the socket (a network drop mid-stream), 'hold' keeps
//   it open until the client goes away.
// plan() also takes back the credits not used yet.
// Every request is recorded in chat.requests: {scenario, headers, body,
// closed} (closed: the client went away before the server ended).

import http from 'node:http';

/** One SSE event carrying obj as its data. */
export const sse = (obj) => `data: ${JSON.stringify(obj)}\n\n`;
/** The stream's end. */
export const DONE_EVENT = 'data: [DONE]\n\n';

/** A chat.completion.chunk with a content delta (and a finish_reason when given). */
export function delta(content, finish = null) {
  return { id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 1764590000, model: 'test-model', choices: [{ index: 0, delta: { content }, finish_reason: finish }] };
}

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Allow-Headers': 'content-type, authorization, accept, x-test',
  'Access-Control-Max-Age': '600',
};

/**
 * Start the server.
 * @returns {Promise<{baseURL: string, requests: object[], plan: (scenario: string, ...plans: object[]) => void,
 *   allow: (n?: number) => void, close: () => Promise<void>}>} baseURL ends with "/"
 */
export async function startChatServer() {
  const plans = new Map();
  const requests = [];
  let credits = 0;
  let waiters = [];
  const credit = () =>
    new Promise((resolve) => {
      if (credits > 0) {
        credits--;
        resolve();
      } else waiters.push(resolve);
    });

  const server = http.createServer((req, res) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, CORS);
      res.end();
      return;
    }
    const scenario = decodeURIComponent(new URL(req.url, 'http://x').pathname.split('/')[1] ?? '');
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (raw += c));
    req.on('end', async () => {
      let body = null;
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
      const record = { scenario, headers: req.headers, body, closed: false };
      requests.push(record);
      res.on('close', () => {
        if (!res.writableFinished) record.closed = true;
      });
      const queue = plans.get(scenario) ?? [];
      const plan = queue.length > 1 ? queue.shift() : queue[0];
      if (!plan) {
        res.writeHead(404, { ...CORS, 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `no plan for scenario ${scenario}` } }));
        return;
      }
      if (plan.status !== undefined) {
        const text = plan.json !== undefined ? JSON.stringify(plan.json) : plan.text ?? '';
        res.writeHead(plan.status, { ...CORS, 'Content-Type': plan.json !== undefined ? 'application/json' : 'text/plain', ...(plan.headers ?? {}) });
        res.end(text);
        return;
      }
      req.socket.setNoDelay(true);
      res.writeHead(200, { ...CORS, 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache' });
      res.flushHeaders();
      for (const chunk of plan.chunks) {
        if (plan.gate) await credit();
        if (res.destroyed) return;
        res.write(chunk);
      }
      const end = plan.end ?? 'close';
      if (plan.gate && end === 'drop') await credit();
      if (end === 'drop') res.socket.destroy();
      else if (end === 'close') res.end();
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    baseURL: `http://127.0.0.1:${server.address().port}/`,
    requests,
    plan(scenario, ...list) {
      plans.set(scenario, list);
      credits = 0; // credits left over from an earlier scenario never pass a new one's gate
    },
    allow(n = 1) {
      credits += n;
      while (credits > 0 && waiters.length > 0) {
        credits--;
        waiters.shift()();
      }
    },
    close() {
      for (const w of waiters) w();
      waiters = [];
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
