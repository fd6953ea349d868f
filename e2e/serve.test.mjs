// tools/serve.mjs: MIME types, 403/404, index.html, compression (on the
// fly and precompressed siblings), ETag/304, CLI line, security headers;
// and in headless Chromium, the real explorer and chat demo working under
// the header CSP, which refuses framing from another origin.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import http from 'node:http';
import { spawn } from 'node:child_process';
import { startServer, APP_CSP, BASELINE_CSP, DEMO_CSP } from '../tools/serve.mjs';
import { setup } from './helpers.mjs';

const SERVE = new URL('../tools/serve.mjs', import.meta.url);
let dir;
let srv;

// Raw request (fetch would decompress bodies and normalise "..").
function get(urlPath, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port: srv.port, path: urlPath, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
  });
}

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'serve-test-'));
  const root = path.join(dir, 'root');
  fs.mkdirSync(path.join(root, 'static', 'sub'), { recursive: true });
  fs.mkdirSync(path.join(root, '.git'));
  fs.writeFileSync(path.join(root, '.git', 'config'), 'secret');
  fs.writeFileSync(path.join(dir, 'outside.txt'), 'outside');
  fs.symlinkSync(path.join(dir, 'outside.txt'), path.join(root, 'static', 'link.txt'));
  fs.writeFileSync(path.join(root, 'static', 'index.html'), '<!doctype html><title>x</title>' + 'hello '.repeat(500));
  fs.writeFileSync(path.join(root, 'static', 'chat-demo.html'), '<!doctype html><title>demo</title>');
  fs.mkdirSync(path.join(root, 'e2e'));
  fs.writeFileSync(path.join(root, 'e2e', 'fixture.html'), '<!doctype html><title>fixture</title>');
  fs.writeFileSync(path.join(root, 'static', 'app.js'), 'console.log(1);\n'.repeat(500));
  fs.writeFileSync(path.join(root, 'static', 'app.d.ts'), 'export {};\n');
  fs.writeFileSync(path.join(root, 'static', 'pic.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  fs.writeFileSync(path.join(root, 'static', 'm.wasm'), Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
  // Precompressed sibling: newer than the file, with recognisable content.
  fs.writeFileSync(path.join(root, 'static', 'pre.json'), JSON.stringify({ real: true }));
  fs.writeFileSync(path.join(root, 'static', 'pre.json.gz'), zlib.gzipSync('{"from":"sibling"}'));
  const old = new Date(Date.now() - 60_000);
  fs.utimesSync(path.join(root, 'static', 'pre.json'), old, old);
  // Stale sibling: older than the file, must be ignored.
  fs.writeFileSync(path.join(root, 'static', 'stale.json.br'), zlib.brotliCompressSync('{"stale":true}'));
  fs.utimesSync(path.join(root, 'static', 'stale.json.br'), old, old);
  fs.writeFileSync(path.join(root, 'static', 'stale.json'), '{"fresh":true}');
  srv = await startServer({ root, port: 0 });
});

after(async () => {
  await srv?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('startServer returns url, baseURL and a real port', () => {
  assert.ok(srv.port > 0);
  assert.equal(srv.url, `http://127.0.0.1:${srv.port}/static/`);
  assert.equal(srv.baseURL, `http://127.0.0.1:${srv.port}/`);
});

test('MIME types', async () => {
  const cases = {
    '/static/m.wasm': 'application/wasm',
    '/static/app.js': 'text/javascript; charset=utf-8',
    '/static/app.d.ts': 'text/plain; charset=utf-8',
    '/static/pic.png': 'image/png',
    '/static/index.html': 'text/html; charset=utf-8',
  };
  for (const [p, type] of Object.entries(cases)) {
    const r = await get(p);
    assert.equal(r.status, 200, p);
    assert.equal(r.headers['content-type'], type, p);
    assert.equal(r.headers['cache-control'], 'no-cache', p);
    assert.ok(r.headers.etag, p);
  }
});

test('directory serves index.html; no trailing slash redirects', async () => {
  const r = await get('/static/');
  assert.equal(r.status, 200);
  assert.match(r.body.toString(), /^<!doctype html>/);
  const r2 = await get('/static?x=1');
  assert.equal(r2.status, 301);
  assert.equal(r2.headers.location, '/static/?x=1');
  assert.equal((await get('/static/sub/')).status, 404);
  assert.equal((await get('/nope.js')).status, 404);
});

test('path traversal, dot folders and escaping symlinks are refused', async () => {
  for (const p of ['/../outside.txt', '/static/../../outside.txt', '/static/%2e%2e/%2e%2e/outside.txt',
    '/static/..%2f..%2foutside.txt', '/.git/config', '/static/link.txt']) {
    assert.equal((await get(p)).status, 403, p);
  }
});

test('compression on the fly: br preferred, gzip, identity', async () => {
  const plain = (await get('/static/app.js')).body;
  const br = await get('/static/app.js', { 'accept-encoding': 'gzip, deflate, br' });
  assert.equal(br.headers['content-encoding'], 'br');
  assert.equal(br.headers.vary, 'Accept-Encoding');
  assert.ok(br.body.length < plain.length);
  assert.deepEqual(zlib.brotliDecompressSync(br.body), plain);
  const gz = await get('/static/app.js', { 'accept-encoding': 'gzip' });
  assert.equal(gz.headers['content-encoding'], 'gzip');
  assert.deepEqual(zlib.gunzipSync(gz.body), plain);
  const none = await get('/static/app.js', { 'accept-encoding': 'br;q=0, gzip;q=0' });
  assert.equal(none.headers['content-encoding'], undefined);
  const png = await get('/static/pic.png', { 'accept-encoding': 'br' });
  assert.equal(png.headers['content-encoding'], undefined, 'png is not recompressed');
  const wasm = await get('/static/m.wasm', { 'accept-encoding': 'br' });
  assert.equal(wasm.headers['content-type'], 'application/wasm');
  assert.equal(wasm.headers['content-encoding'], 'br');
});

test('warm: every compressible file under static/ and js/ is compressed before it is asked for, symlinks and dot folders passed over', async () => {
  const warmed = await startServer({ root: path.join(dir, 'root'), port: 0, warm: true });
  try {
    // static/: index.html, chat-demo.html, app.js, m.wasm, pre.json, stale.json (not the png, the .d.ts, or link.txt, a symlink).
    assert.equal(await warmed.warmed, 6);
    const body = await new Promise((resolve, reject) => http.get(warmed.baseURL + 'static/app.js', { headers: { 'accept-encoding': 'br' } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks)));
    }).on('error', reject));
    assert.equal(zlib.brotliDecompressSync(body).toString(), 'console.log(1);\n'.repeat(500));
  } finally {
    await warmed.close();
  }
  assert.equal(await srv.warmed, 0, 'without warm nothing is compressed ahead');
});

test('precompressed sibling used only when newer than the file', async () => {
  const pre = await get('/static/pre.json', { 'accept-encoding': 'gzip' });
  assert.equal(pre.headers['content-encoding'], 'gzip');
  assert.equal(zlib.gunzipSync(pre.body).toString(), '{"from":"sibling"}');
  const stale = await get('/static/stale.json', { 'accept-encoding': 'br' });
  assert.equal(stale.headers['content-encoding'], 'br');
  assert.equal(zlib.brotliDecompressSync(stale.body).toString(), '{"fresh":true}');
});

test('ETag and 304', async () => {
  const first = await get('/static/app.js', { 'accept-encoding': 'br' });
  const again = await get('/static/app.js', { 'accept-encoding': 'br', 'if-none-match': first.headers.etag });
  assert.equal(again.status, 304);
  assert.equal(again.body.length, 0);
  const other = await get('/static/app.js', { 'if-none-match': '"nope"' });
  assert.equal(other.status, 200);
});

test('CLI prints exactly one line with the explorer URL', async () => {
  const child = spawn(process.execPath, [SERVE.pathname, '--root', dir, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const line = await new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
        if (out.includes('\n')) resolve(out);
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}`)));
    });
    assert.match(line, /^sessiontree explorer: http:\/\/127\.0\.0\.1:\d+\/static\/\n$/);
  } finally {
    child.kill('SIGTERM');
  }
});

test('security headers: the app CSP on static/ pages and scripts, a baseline elsewhere, nosniff and no referrer everywhere', async () => {
  // The policy itself: what the pages' <meta> tags need, and what only a header can say.
  const directives = new Map(APP_CSP.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]));
  assert.deepEqual(Object.fromEntries(directives), {
    'default-src': "'self'",
    'script-src': "'self' 'wasm-unsafe-eval'",
    'style-src': "'self'",
    'img-src': "'self' data:",
    'connect-src': "'self'",
    'worker-src': "'self'",
    'object-src': "'none'",
    'base-uri': "'none'",
    'form-action': "'self'",
    'frame-ancestors': "'self'",
  });
  assert.equal(BASELINE_CSP, "object-src 'none'; base-uri 'none'; frame-ancestors 'self'");
  // The chat demo may reach the model endpoint its user sets: any HTTPS host, plain HTTP on this machine only.
  assert.equal(DEMO_CSP, APP_CSP.replace("connect-src 'self'", "connect-src 'self' https: http://localhost:* http://127.0.0.1:*"));
  const cases = [
    ['/static/', 200, APP_CSP],
    ['/static/index.html', 200, APP_CSP],
    ['/static/chat-demo.html', 200, DEMO_CSP],
    ['/static/app.js', 200, APP_CSP],
    ['/e2e/fixture.html', 200, BASELINE_CSP],
    ['/static/pic.png', 200, BASELINE_CSP],
    ['/static/m.wasm', 200, BASELINE_CSP],
    ['/nope.js', 404, BASELINE_CSP],
    ['/.git/config', 403, BASELINE_CSP],
    ['/static', 301, BASELINE_CSP],
  ];
  for (const [p, status, csp] of cases) {
    const r = await get(p);
    assert.equal(r.status, status, p);
    assert.equal(r.headers['content-security-policy'], csp, p);
    assert.equal(r.headers['x-content-type-options'], 'nosniff', p);
    assert.equal(r.headers['referrer-policy'], 'no-referrer', p);
  }
  const first = await get('/static/index.html');
  const again = await get('/static/index.html', { 'if-none-match': first.headers.etag });
  assert.equal(again.status, 304);
  assert.equal(again.headers['content-security-policy'], APP_CSP, '304 too');
});

test('the header CSP matches the pages: explorer and chat demo run under it with no violation; another origin cannot frame them', async () => {
  const env = await setup();
  try {
    const { context, baseURL } = env;
    await context.addInitScript(() => {
      window.__violations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    for (const page of ['static/', 'static/chat-demo.html']) {
      const p = await env.newPage();
      const resp = await p.goto(baseURL + page);
      assert.equal(resp.headers()['content-security-policy'], page.endsWith('chat-demo.html') ? DEMO_CSP : APP_CSP, page);
      await p.waitForSelector('body[data-ready="true"]');
      assert.deepEqual(await p.evaluate(() => window.__violations), [], `${page}: no CSP violation`);
      await p.close();
    }
    // localhost is another origin than 127.0.0.1: frame-ancestors 'self' refuses it.
    const framer = await env.newPage();
    const refused = new Promise((resolve) => {
      framer.on('console', (msg) => {
        if (/frame-ancestors/.test(msg.text())) resolve(msg.text());
      });
      setTimeout(() => resolve('no refusal of the frame within 10 s'), 10_000).unref();
    });
    // A page of that origin with no frame-src of its own (the 404 page).
    const other = baseURL.replace('127.0.0.1', 'localhost');
    await framer.goto(other + 'no-such-page');
    await framer.evaluate((src) => {
      const f = document.createElement('iframe');
      f.src = src;
      document.body.append(f);
    }, baseURL + 'static/');
    assert.match(await refused, /frame-ancestors 'self'/);
    const framed = framer.frames().find((f) => f !== framer.mainFrame());
    assert.ok(!framed || !framed.url().startsWith(baseURL), `the frame did not load the explorer (${framed?.url()})`);
    // The browser's own console error about the refused frame is what this test expects.
    // So is the 404 of the framing page.
    env.errors.splice(0, env.errors.length, ...env.errors.filter((e) => !/frame-ancestors|Refused to frame|status of 404/.test(e)));
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});
