// The package in real apps (issue 27): each fixture app under e2e/apps/
// — its own package.json and committed package-lock.json, the bundler's
// defaults — installs the tarball `npm pack` makes (once per run), is
// built (and for Vite also run by its dev server — Vite 8 with no config,
// Vite 4, 5 and 6 with the sessiontree/vite plugin (4 and 6 on the
// Vite 5 app's page), and Vite 5 once without it to show
// the 504 it prevents; Rollup with node-resolve and sessiontree/rollup; Next.js as a static
// export and Parcel, their inline scripts' hashes in the policy), served with the strict
// CSP of docs/EMBED.md as a header, and chatted in against the loopback
// OpenAI-compatible server: send, edit, regenerate, click a branch in the
// panel (row-click="jump"), rename the chat, add and delete another,
// reload. No console error (a CSP refusal is one),
// no failed request, every branch in the panel. The dev servers of
// Next.js, Parcel and webpack get a shorter chat (send, edit, both
// branches in the panel) with no CSP header, as a dev server sends none.
// A tool that cannot run fails the test with npm's or the bundler's own words.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { launch, watchPage, REPO_ROOT } from './helpers.mjs';
import { startChatServer } from './openai-server.mjs';
import { APPS_DIR, chatScenario, copyInto, devChatScenario, inlineScriptHashes, install, pack, serveBuilt, strictCSP } from './apps/harness.mjs';

const run = promisify(execFile);
const VITE_APP = path.join(APPS_DIR, 'vite-react');
const VITE5_APP = path.join(APPS_DIR, 'vite5-react');
const VITE6_APP = path.join(APPS_DIR, 'vite6-react');
const VITE4_APP = path.join(APPS_DIR, 'vite4-react');
const WEBPACK_APP = path.join(APPS_DIR, 'webpack');
const NEXT_APP = path.join(APPS_DIR, 'next');
const PARCEL_APP = path.join(APPS_DIR, 'parcel');
const ROLLUP_APP = path.join(APPS_DIR, 'rollup');

let tarball;
let browser;
let chat;
before(async () => {
  tarball = await pack();
  chat = await startChatServer();
  browser = await launch();
  await install(VITE_APP, tarball);
  await install(VITE5_APP, tarball);
  for (const app of [VITE6_APP, VITE4_APP]) {
    copyInto(VITE5_APP, app, ['src', 'index.html', 'vite.config.ts']);
    await install(app, tarball);
  }
  await install(WEBPACK_APP, tarball);
  await install(NEXT_APP, tarball);
  await install(PARCEL_APP, tarball);
  await install(ROLLUP_APP, tarball);
});
after(async () => {
  await browser?.close();
  await chat?.close();
});

/**
 * A new context and page watched for console errors, page errors and
 * failed requests (a status of 400 or more, or none), run through fn; the
 * page has one worker, the store's.
 */
async function inPage(fn) {
  const chatOrigin = new URL(chat.baseURL).origin;
  const errors = [];
  const context = await browser.newContext();
  try {
    const page = watchPage(await context.newPage(), errors);
    // A dev server pre-bundles on its first page, and the machine may be
    // busy: waits are for states, with room.
    page.setDefaultTimeout(120_000);
    page.on('response', (r) => r.status() >= 400 && errors.push(`${r.status()} ${r.url()}`));
    // The adapter stops reading a stream at its [DONE] (reader.cancel()),
    // which Chromium reports as an aborted request: not a failure.
    page.on('requestfailed', (r) => (r.failure()?.errorText === 'net::ERR_ABORTED' && r.url().startsWith(chatOrigin)) || errors.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
    await fn(page);
    // Named by the bundler: worker.bundle-<hash>.js (Vite), sessiontree.js (webpack, after the Worker's name).
    assert.equal(page.workers().length, 1, `one store worker: ${page.workers().map((w) => w.url())}`);
  } finally {
    await context.close();
  }
  assert.deepEqual(errors, []);
}

/**
 * Serve a built app's root under the strict CSP (with the sha256 of each
 * inline script in hashes) and chat in its page (page: its path under the
 * root, "" for index.html). @param {string} scenario the chat's scenario
 */
async function serveAndChat(root, scenario, { page: at = '', hashes = [] } = {}) {
  const server = await serveBuilt(root, strictCSP(new URL(chat.baseURL).origin, hashes));
  try {
    await inPage((page) => chatScenario(page, `${server.baseURL}${at}?api=${chat.baseURL}${scenario}/v1`, chat, scenario));
  } finally {
    await server.close();
  }
}

for (const [name, app] of [['Vite + React + TypeScript', VITE_APP], ['Vite 5 + React 18 + TypeScript', VITE5_APP]]) {
  test(`${name}: tsc type-checks the app against the installed package (moduleResolution bundler)`, async () => {
    const tsc = path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    try {
      await run(process.execPath, [tsc, '-p', app, '--pretty', 'false']);
    } catch (err) {
      assert.fail(`tsc failed: ${err.stdout || err.message}`);
    }
  });
}

/**
 * vite build of a Vite app, checked for warnings and for the worker, the
 * wasm and the highlight grammars emitted once each, then served under the
 * strict CSP and chatted in. @param {string} app @param {string} scenario
 */
async function viteBuildAndChat(app, scenario) {
  const dist = path.join(app, 'dist');
  fs.rmSync(dist, { recursive: true, force: true });
  const { stdout, stderr } = await run(process.execPath, [path.join(app, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'], { cwd: app, env: { ...process.env, NO_COLOR: '1' } });
  // Vite's chunk-size advisory is about the app's own bundle (React and the
  // panel together pass 500 kB since the map; loading the map lazily is the
  // way down): the warnings that matter are about how sessiontree is built.
  const printed = (stdout + stderr).replace(/\(!\) Some chunks are larger than \d+ kB[^]*?chunkSizeWarningLimit\.?/, '');
  assert.doesNotMatch(printed, /overwrites a previously emitted file|\bwarn(ing)?\b/i, 'vite build warns about nothing');
  const assets = fs.readdirSync(path.join(dist, 'assets'));
  assert.equal(assets.filter((f) => /^worker\.bundle-.*\.js$/.test(f)).length, 1, `the worker is emitted once: ${assets}`);
  assert.equal(assets.filter((f) => f.endsWith('.wasm')).length, 1, `the wasm is emitted once: ${assets}`);
  assert.ok(assets.some((f) => /^python-.*\.js$/.test(f)), 'the highlight.js grammars are chunks');
  await serveAndChat(dist, scenario);
}

/**
 * A dev server started by argv (node's arguments, run in app with env
 * added to the process's; {port} in argv is a free port of 127.0.0.1), in
 * a process group of its own; resolves once its output includes ready
 * ({port} in it replaced too), fails with that output when the server
 * exits or has not printed it in 120 s.
 * close() ends the whole group (Next.js and Parcel start workers of
 * their own). @param {string} app @param {string[]} argv @param {string} ready
 * @returns {Promise<{url: string, output: () => string, close: () => void}>}
 */
async function devServer(app, argv, ready, env = {}) {
  const port = await freePort();
  const child = spawn(process.execPath, argv.map((a) => a.replace('{port}', String(port))), { cwd: app, detached: true, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const close = () => {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // The group has ended already.
    }
  };
  try {
    await new Promise((resolve, reject) => {
      const want = ready.replace('{port}', String(port));
      const end = Date.now() + 120_000;
      const t = setInterval(() => {
        if (out.includes(want)) clearInterval(t), resolve();
        else if (Date.now() > end) clearInterval(t), reject(new Error(`${path.basename(app)}'s dev server did not print ${JSON.stringify(want)} in 120 s: ${out}`));
      }, 50);
      child.once('exit', (code) => (clearInterval(t), reject(new Error(`${path.basename(app)}'s dev server exited (${code}): ${out}`))));
    });
  } catch (err) {
    close();
    throw err;
  }
  return { url: `http://127.0.0.1:${port}/`, output: () => out, close };
}

/**
 * A Vite app's dev server on a free port of 127.0.0.1, started with
 * --force (pre-bundle again, as a first start does) and env added to the
 * process's; resolves once it listens.
 */
function viteDev(app, env = {}) {
  const vite = path.join(app, 'node_modules', 'vite', 'bin', 'vite.js');
  return devServer(app, [vite, '--host', '127.0.0.1', '--port', '{port}', '--strictPort', '--force'], ':{port}/', env);
}

/** The dev server of a Vite app, chatted in: no error in the page or in Vite's output. */
async function viteDevAndChat(app, scenario) {
  const dev = await viteDev(app);
  try {
    await inPage((page) => chatScenario(page, `${dev.url}?api=${chat.baseURL}${scenario}/v1`, chat, scenario));
    assert.doesNotMatch(dev.output(), /error|failed/i, dev.output());
  } finally {
    dev.close();
  }
}

/**
 * A dev server's short chat (devChatScenario) in a watched page: no
 * console error, no failed request, the store's worker started and its
 * wasm served (200); then no error in the server's output.
 * @param {{url: string, output: () => string, close: () => void}} dev @param {string} scenario
 */
async function devChat(dev, scenario) {
  try {
    const wasm = [];
    await inPage(async (page) => {
      // The wasm's GETs only (a HEAD of it, from anyone, is not a fetch of it).
      page.on('response', (r) => new URL(r.url()).pathname.endsWith('.wasm') && r.request().method() === 'GET' && wasm.push(r.status()));
      await devChatScenario(page, `${dev.url}?api=${chat.baseURL}${scenario}/v1`, chat, scenario);
    });
    assert.deepEqual(wasm, [200], 'the wasm is fetched once, and found');
    assert.doesNotMatch(dev.output(), /error|failed/i, dev.output());
  } finally {
    dev.close();
  }
}

test('Vite + React + TypeScript, production build (vite build, no sessiontree config) under a strict CSP: chat, edit, regenerate, switch branch, rename, delete, reload', async () => {
  await viteBuildAndChat(VITE_APP, 'vite-build');
});

test('Vite + React + TypeScript, dev server (vite, dependency pre-bundling on, no sessiontree config): chat, edit, regenerate, switch branch, rename, delete, reload', async () => {
  await viteDevAndChat(VITE_APP, 'vite-dev');
});

test('Vite 5 + React 18 + TypeScript with the sessiontree/vite plugin, production build under a strict CSP: chat, edit, regenerate, switch branch, rename, delete, reload', async () => {
  await viteBuildAndChat(VITE5_APP, 'vite5-build');
});

test('Vite 5 + React 18 + TypeScript with the sessiontree/vite plugin, dev server (dependency pre-bundling on): chat, edit, regenerate, switch branch, rename, delete, reload', async () => {
  await viteDevAndChat(VITE5_APP, 'vite5-dev');
});

for (const [n, app] of [[6, VITE6_APP], [4, VITE4_APP]]) {
  test(`Vite ${n} + React 18 + TypeScript (the Vite 5 app's page) with the sessiontree/vite plugin, production build under a strict CSP: chat, edit, regenerate, switch branch, rename, delete, reload`, async () => {
    await viteBuildAndChat(app, `vite${n}-build`);
  });

  test(`Vite ${n} + React 18 + TypeScript (the Vite 5 app's page) with the sessiontree/vite plugin, dev server (dependency pre-bundling on): chat, edit, regenerate, switch branch, rename, delete, reload`, async () => {
    await viteDevAndChat(app, `vite${n}-dev`);
  });
}

test('Vite 5 dev server without the sessiontree/vite plugin: the pre-bundled package asks .vite/deps/ for its worker, which is not there (why the plugin exists)', async () => {
  const dev = await viteDev(VITE5_APP, { SESSIONTREE_VITE_PLUGIN: 'off' });
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const failed = page.waitForResponse((r) => /\/\.vite\/deps\/worker\.bundle\.js\b/.test(r.url()), { timeout: 120_000 });
    await page.goto(dev.url, { timeout: 120_000 });
    const r = await failed;
    assert.ok(r.status() >= 400, `${r.status()} ${r.url()}`);
  } finally {
    await context.close();
    dev.close();
  }
});

test('webpack 5 (no webpack config, webpack --mode production) under a strict CSP: chat, edit, regenerate, switch branch, rename, delete, reload', async () => {
  const dist = path.join(WEBPACK_APP, 'dist');
  fs.rmSync(dist, { recursive: true, force: true });
  const { stdout, stderr } = await run(process.execPath, [path.join(WEBPACK_APP, 'node_modules', 'webpack', 'bin', 'webpack.js'), '--mode', 'production'], { cwd: WEBPACK_APP, env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 1 << 24 });
  // webpack's own size hints (a 5 MB wasm, a 270 KB entry) are the only warnings.
  const warnings = (stdout + stderr).split('\n').filter((l) => /^WARNING in /.test(l) && !/size limit|performance recommendations/.test(l));
  assert.deepEqual(warnings, []);
  const files = fs.readdirSync(dist);
  assert.equal(files.filter((f) => f.endsWith('.wasm')).length, 1, `the wasm is emitted once: ${files}`);
  await serveAndChat(WEBPACK_APP, 'webpack', { page: 'index.html' });
});

test('Parcel 2 (no Parcel config, parcel build index.html) under a strict CSP with its inline import map hashed: chat, edit, regenerate, switch branch, rename, delete, reload', async () => {
  const dist = path.join(PARCEL_APP, 'dist');
  fs.rmSync(dist, { recursive: true, force: true });
  // --no-cache: each run installs a new tarball, which Parcel's cache of node_modules would not see.
  const { stdout, stderr } = await run(process.execPath, [path.join(PARCEL_APP, 'node_modules', 'parcel', 'lib', 'bin.js'), 'build', 'index.html', '--no-cache'], { cwd: PARCEL_APP, env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 1 << 24 });
  // Parcel's size flag on the 6 MB wasm (⚠️ in its table of files) is its only warning.
  const printed = (stdout + stderr).replace(/^dist\/sessiontree\.\w+\.wasm\s+⚠️ .*$/m, '');
  assert.doesNotMatch(printed, /\bwarn(ing)?\b|⚠/i, `parcel build warns about nothing: ${printed}`);
  const files = fs.readdirSync(dist);
  assert.equal(files.filter((f) => /^worker\.bundle\.\w+\.js$/.test(f)).length, 1, `the worker is emitted once: ${files}`);
  assert.equal(files.filter((f) => f.endsWith('.wasm')).length, 1, `the wasm is emitted once: ${files}`);
  assert.ok(files.some((f) => /^python\.\w+\.js$/.test(f)), 'the highlight.js grammars are bundles');
  // Parcel writes an inline <script type=importmap> of its bundles' hashed names, which script-src must allow.
  const hashes = inlineScriptHashes(dist);
  assert.equal(hashes.length, 1, 'one inline script, the import map');
  await serveAndChat(dist, 'parcel', { hashes });
});

/** rollup -c in the Rollup app, into a new dist/, with env added to the process's: what it printed. */
async function rollupBuild(env = {}) {
  fs.rmSync(path.join(ROLLUP_APP, 'dist'), { recursive: true, force: true });
  const { stdout, stderr } = await run(process.execPath, [path.join(ROLLUP_APP, 'node_modules', 'rollup', 'dist', 'bin', 'rollup'), '-c'], { cwd: ROLLUP_APP, env: { ...process.env, NO_COLOR: '1', ...env }, maxBuffer: 1 << 24 });
  return stdout + stderr;
}

test('Rollup 4 without the sessiontree/rollup plugin: the build has no worker and no wasm, since Rollup leaves new URL(…, import.meta.url) alone (why the plugin exists)', async () => {
  await rollupBuild({ SESSIONTREE_ROLLUP_PLUGIN: 'off' });
  const files = fs.readdirSync(path.join(ROLLUP_APP, 'dist'), { recursive: true }).map(String);
  assert.deepEqual(files.filter((f) => /worker|\.wasm$/.test(f)), []);
  assert.match(fs.readFileSync(path.join(ROLLUP_APP, 'dist', 'index.js'), 'utf8'), /new URL\("\.\/worker\.bundle\.js", import\.meta\.url\)/, 'the URL is kept as written, pointing beside the bundle');
});

test('Rollup 4 (node-resolve and the sessiontree/rollup plugin, rollup -c) under a strict CSP: chat, edit, regenerate, switch branch, rename, delete, reload', async () => {
  const dist = path.join(ROLLUP_APP, 'dist');
  const printed = await rollupBuild();
  assert.doesNotMatch(printed, /\(!\)|\bwarn(ing)?\b/i, `rollup warns about nothing: ${printed}`);
  const files = fs.readdirSync(dist);
  assert.equal(files.filter((f) => /^worker\.bundle-.*\.js$/.test(f)).length, 1, `the worker is a chunk, once: ${files}`);
  assert.equal(fs.readdirSync(path.join(dist, 'assets')).filter((f) => f.endsWith('.wasm')).length, 1, 'the wasm is emitted once');
  assert.ok(files.some((f) => /^python-.*\.js$/.test(f)), 'the highlight.js grammars are chunks');
  await serveAndChat(ROLLUP_APP, 'rollup', { page: 'index.html' });
});

test('Next.js static export (app router, a client component, next build with output: "export") under a strict CSP with its inline scripts hashed: chat, edit, regenerate, switch branch, rename, delete, reload', async () => {
  const out = path.join(NEXT_APP, 'out');
  fs.rmSync(out, { recursive: true, force: true });
  const { stdout, stderr } = await run(process.execPath, [path.join(NEXT_APP, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'], { cwd: NEXT_APP, env: { ...process.env, NO_COLOR: '1', NEXT_TELEMETRY_DISABLED: '1' }, maxBuffer: 1 << 24 });
  // The warnings that are the fixture's, not the package's: the app sits
  // inside this repository, whose own package-lock.json Next.js finds above
  // it ("inferred your workspace root"; a standalone app has no such file),
  // and under CI a first build has no .next/cache ("No build cache found").
  const printed = (stdout + stderr)
    .replace(/⚠ Warning: Next\.js inferred your workspace root[^]*?Detected additional lockfiles:\s*\n(\s*\* .*\n)+/, '')
    .replace(/⚠ No build cache found\..*\n/, '');
  assert.doesNotMatch(printed, /\bwarn(ing)?\b|⚠/i, `next build warns about nothing: ${printed}`);
  const media = fs.readdirSync(path.join(out, '_next', 'static', 'media'));
  assert.equal(media.filter((f) => f.endsWith('.wasm')).length, 1, `the wasm is emitted once: ${media}`);
  const hashes = inlineScriptHashes(out);
  assert.ok(hashes.length > 0, 'the export has inline scripts, each hashed into the policy');
  await serveAndChat(out, 'next', { hashes });
});

test('Next.js dev server (next dev: Turbopack, no config but the export line; no CSP header in dev): the store starts, its worker and wasm are served, chat, edit, both branches in the panel', async () => {
  const next = path.join(NEXT_APP, 'node_modules', 'next', 'dist', 'bin', 'next');
  await devChat(await devServer(NEXT_APP, [next, 'dev', '--hostname', '127.0.0.1', '--port', '{port}'], 'Ready in', { NEXT_TELEMETRY_DISABLED: '1' }), 'next-dev');
});

test('Parcel 2 dev server (parcel serve index.html, no Parcel config; no CSP header in dev): the store starts, its worker and wasm are served, chat, edit, both branches in the panel', async () => {
  const parcel = path.join(PARCEL_APP, 'node_modules', 'parcel', 'lib', 'bin.js');
  // --no-cache as for parcel build: each run installs a new tarball. Parcel holds the first request until its build is done.
  await devChat(await devServer(PARCEL_APP, [parcel, 'serve', 'index.html', '--host', '127.0.0.1', '--port', '{port}', '--no-cache'], 'Server running at'), 'parcel-dev');
});

// webpack serve alone answers "Cannot GET /": webpack-dev-server serves files from public/ and the
// bundle at /, while this app's index.html sits at its root and loads dist/main.js. Two of
// webpack-cli's flags say so, with no webpack config file: --static . and --output-public-path /dist/.
test('webpack 5 dev server (webpack serve --static . --output-public-path /dist/, no webpack config file; no CSP header in dev): the store starts, its worker and wasm are served, chat, edit, both branches in the panel', async () => {
  const webpack = path.join(WEBPACK_APP, 'node_modules', 'webpack', 'bin', 'webpack.js');
  await devChat(await devServer(WEBPACK_APP, [webpack, 'serve', '--mode', 'development', '--static', '.', '--output-public-path', '/dist/', '--host', '127.0.0.1', '--port', '{port}'], 'compiled successfully'), 'webpack-dev');
});

/** A free TCP port on 127.0.0.1. */
function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}
