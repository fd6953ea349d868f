// sessiontree/react (react/index.js) in React 19 with StrictMode, in
// Chromium: e2e/fixtures/react-hooks.js bundled by esbuild with react and
// react-dom (dev dependencies), the package's js/sessiontree.js left
// external (the real module). The hooks are given the app's own tree (a
// fake one): they must not start the page's default store beside it, and
// useMessages must never answer one session's messages for another.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { ARTIFACTS_DIR, E2E_DIR, setup, waitUntil } from './helpers.mjs';

let env;
before(async () => {
  const outdir = path.join(ARTIFACTS_DIR, 'react-hooks');
  fs.mkdirSync(outdir, { recursive: true });
  await esbuild.build({
    entryPoints: { app: path.join(E2E_DIR, 'fixtures', 'react-hooks.js') },
    bundle: true, format: 'esm', outdir, logLevel: 'error',
    define: { 'process.env.NODE_ENV': '"development"' },
    plugins: [{
      name: 'shim-external',
      setup(b) {
        b.onResolve({ filter: /\/js\/sessiontree\.js$/ }, () => ({ path: '/js/sessiontree.js', external: true }));
      },
    }],
  });
  env = await setup();
});
after(() => env?.close());

async function open() {
  const page = await env.newPage();
  const workers = [];
  page.on('worker', (w) => workers.push(w.url()));
  await page.goto(env.baseURL + 'e2e/fixtures/react-hooks.html');
  await waitUntil(page, () => window.renders.some((r) => r.content === 'in a' && r.sessions === 2));
  return { page, workers };
}

test('useSessions reads every session, or the page a query asks for', async () => {
  const { page } = await open();
  await waitUntil(page, () => window.renders.some((r) => r.newest === 'b'));
  const last = await page.evaluate(() => window.renders.at(-1));
  assert.deepEqual([last.sessions, last.newest], [2, 'b'], 'every session; the newest one, newest first');
  assert.deepEqual(env.errors, []);
});

test('hooks given a tree start no store of their own', async () => {
  const { page, workers } = await open();
  await page.waitForTimeout(500);
  const dbs = await page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name));
  assert.deepEqual(workers, [], 'no store worker');
  assert.ok(!dbs.includes('sessiontree'), `no default database: ${dbs}`);
  assert.deepEqual(env.errors, []);
});

test("useMessages never shows a session's messages for another", async () => {
  const { page } = await open();
  for (const next of ['b', null, 'a']) {
    await page.evaluate((id) => window.show(id), next);
    if (next) await waitUntil(page, (id) => window.renders.at(-1).content === `in ${id}`, next);
    else await page.waitForTimeout(100);
  }
  const renders = await page.evaluate(() => window.renders);
  const wrong = renders.filter((r) => r.content !== null && r.content !== `in ${r.id}`);
  assert.deepEqual(wrong, [], 'renders with another session\'s messages');
  const waiting = renders.filter((r) => r.id === 'b' && r.content === null);
  assert.ok(waiting.length > 0 && waiting.every((r) => r.loading), 'loading until b\'s answer');
  assert.deepEqual(env.errors, []);
});
