// What the fixture apps' page test (e2e/apps.test.mjs) needs besides the
// browser: the package packed once per run, each app's locked dependencies
// installed from npm's cache, a static server that sends a strict CSP on
// every response, and the chat every app goes through.

import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import assert from 'node:assert/strict';
import { REPO_ROOT } from '../helpers.mjs';
import { DONE_EVENT, delta, sse } from '../openai-server.mjs';

const run = promisify(execFile);
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
export const APPS_DIR = path.join(REPO_ROOT, 'e2e', 'apps');

/**
 * npm pack of the repository into .cache/apps/ (its prepack runs make
 * build), once per call. @returns {Promise<string>} the tarball's path
 */
export async function pack() {
  const dir = path.join(REPO_ROOT, '.cache', 'apps');
  fs.mkdirSync(dir, { recursive: true });
  const { stdout } = await run(NPM, ['pack', '--json', '--pack-destination', dir], { cwd: REPO_ROOT, maxBuffer: 1 << 26 });
  const [{ filename }] = JSON.parse(stdout.slice(stdout.search(/^\[\s*$/m)));
  return path.join(dir, filename);
}

/**
 * Install an app: its locked dependencies with npm ci from npm's cache
 * (skipped while node_modules is newer than the lock file), then the
 * tarball with npm install --no-save --offline (the lock file stays as
 * committed). Fails, naming the step, when npm cannot: nothing is skipped.
 * @param {string} app the app's folder @param {string} tarball
 */
export async function install(app, tarball) {
  const stamp = path.join(app, 'node_modules', '.sessiontree-ci');
  const lock = path.join(app, 'package-lock.json');
  const npm = async (args) => {
    try {
      await run(NPM, [...args, '--no-audit', '--no-fund'], { cwd: app, maxBuffer: 1 << 26 });
    } catch (err) {
      throw new Error(`npm ${args.join(' ')} failed in ${path.relative(REPO_ROOT, app)}: ${err.stderr || err.message}`);
    }
  };
  if (!fs.existsSync(stamp) || fs.statSync(stamp).mtimeMs < fs.statSync(lock).mtimeMs) {
    await npm(['ci', '--prefer-offline']);
    fs.writeFileSync(stamp, '');
  }
  await npm(['install', '--no-save', '--offline', tarball]);
}

/**
 * Copy an app's files into another app (each name a file or folder of
 * from, replacing what a previous run copied): the Vite 4 and Vite 6 apps
 * hold only their dependencies (package.json and lock) and run the Vite 5
 * app's page, resolved from their own node_modules.
 * @param {string} from @param {string} to @param {string[]} names
 */
export function copyInto(from, to, names) {
  for (const name of names) {
    fs.rmSync(path.join(to, name), { recursive: true, force: true });
    fs.cpSync(path.join(from, name), path.join(to, name), { recursive: true });
  }
}

/**
 * The policy every built app is served with: the strict one of
 * docs/EMBED.md, plus the chat server and, for a page with inline scripts
 * (a Next.js static export), their hashes (inlineScriptHashes).
 * @param {string} connect the chat server's origin @param {string[]} [scriptHashes] 'sha256-…' sources
 */
export function strictCSP(connect, scriptHashes = []) {
  return `default-src 'self'; script-src 'self' 'wasm-unsafe-eval'${scriptHashes.map((h) => ` '${h}'`).join('')}; style-src 'self'; img-src 'self' data:; connect-src 'self' ${connect}; worker-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'`;
}

/**
 * The sha256 sources of every inline <script> (one with no src) of the
 * HTML files in dir, each once: what a strict script-src must list for a
 * static export whose pages carry inline scripts, instead of
 * 'unsafe-inline'. The hash is of the script's text as written between
 * its tags (CSP Level 2, "hash-source").
 * @param {string} dir @returns {string[]} e.g. ["sha256-…"]
 */
export function inlineScriptHashes(dir) {
  const hashes = new Set();
  for (const f of fs.readdirSync(dir, { recursive: true })) {
    if (!String(f).endsWith('.html')) continue;
    const html = fs.readFileSync(path.join(dir, String(f)), 'utf8');
    for (const m of html.matchAll(/<script(\s[^>]*)?>([^]*?)<\/script>/g)) {
      if (/\ssrc=/.test(m[1] ?? '')) continue;
      hashes.add(`sha256-${crypto.createHash('sha256').update(m[2], 'utf8').digest('base64')}`);
    }
  }
  return [...hashes];
}

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.wasm': 'application/wasm', '.svg': 'image/svg+xml', '.json': 'application/json', '.txt': 'text/plain; charset=utf-8' };

/**
 * Serve a built app's folder on 127.0.0.1 with `csp` as a header on every
 * response (pages and worker scripts alike); "/" and folders serve
 * index.html, "/x" serves x.html when there is one (a static export).
 * @returns {Promise<{baseURL: string, close: () => Promise<void>}>}
 */
export async function serveBuilt(root, csp) {
  const server = http.createServer((req, res) => {
    let p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let file = path.join(root, p);
    if (!file.startsWith(root)) file = '';
    if (file && fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    if (file && !fs.existsSync(file) && fs.existsSync(file + '.html')) file += '.html';
    const headers = { 'Content-Security-Policy': csp, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache' };
    if (!file || !fs.existsSync(file)) {
      res.writeHead(404, headers);
      res.end('not found');
      return;
    }
    res.writeHead(200, { ...headers, 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseURL: `http://127.0.0.1:${server.address().port}/`,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/** A streamed reply of text. */
const answer = (text) => ({ chunks: [sse(delta(text)), sse(delta('', 'stop')), DONE_EVENT] });

/** The chat's answers, in the order the scenario asks for them. */
export const ANSWERS = ['Answer A', 'Answer B', 'Answer C:\n\n```python\nprint("c")\n```'];

/**
 * The chat every app goes through, on a page already watched for errors:
 * send "hello" (Answer A), edit it (Answer B), regenerate (Answer C, with
 * a code block the panel highlights), click Answer A's row in the panel
 * (row-click="jump": the app's messages follow), rename the chat, add a
 * second chat and delete it (chatsScenario), reload, and find the cursor
 * kept, every branch in the panel, the new title and no deleted chat.
 * @param {import('playwright-core').Page} page
 * @param {string} url the app's page, with ?api= set
 * @param {{plan: Function}} chat the loopback server (e2e/openai-server.mjs)
 * @param {string} scenario its scenario name in the api URL
 */
export async function chatScenario(page, url, chat, scenario) {
  chat.plan(scenario, ...ANSWERS.map(answer));
  const texts = () => page.locator('[data-testid=messages] li .text').allTextContents();
  const waitTexts = (want) => appTexts(page, want);
  const ready = () => appReady(page);
  const app = await openAndEdit(page, url);
  await app.getByRole('button', { name: 'Regenerate' }).click();
  await waitTexts(['You are a test bot.', 'hello (edited)', ANSWERS[2]]);
  await ready();
  // The panel shows the cursor's path with Answer C's code highlighted
  // (a grammar loaded on demand from the bundle).
  const panel = page.locator('session-tree-panel');
  await panel.locator('code.hljs').first().waitFor();
  // The panel has drawn the whole tree with its cursor on Answer C: a click
  // while it still redraws its rows could land on another row than the one aimed at.
  await page.waitForFunction(() => {
    const root = document.querySelector('session-tree-panel')?.shadowRoot;
    return root?.querySelectorAll('.row[data-node-id]').length === 6 && (root.querySelector('.row.cursor')?.textContent ?? '').includes('Answer C');
  });
  // A click on Answer A's row moves the cursor (row-click="jump"): the app's messages follow.
  // On a busy machine (a dev server serving modules one by one) the panel may still redraw
  // after the regenerate's change event: wait for its reload to end. A click that reached no
  // row (no jump event, the app unchanged) is tried once more; a jump to the wrong node fails.
  const rowA = panel.locator('.row[data-node-id]', { hasText: 'Answer A' });
  for (let attempt = 1; ; attempt++) {
    await page.evaluate(() => document.querySelector('session-tree-panel')?.updateComplete);
    await rowA.click();
    try {
      await waitTexts(['You are a test bot.', 'hello', 'Answer A']);
      break;
    } catch (err) {
      if (attempt === 2 || (await page.getByTestId('jumped').textContent()) !== '') throw err;
    }
  }
  // The app's messages follow the store's change event, which can come before the panel's jump
  // event (fired once the jump call answers): wait for that one too, then check it.
  await page.waitForFunction(() => (document.querySelector('[data-testid="jumped"]')?.textContent ?? '') !== '', null, { timeout: 60_000 }).catch(() => {});
  assert.notEqual(await page.getByTestId('jumped').textContent(), '', 'the panel\'s jump event reached the app (onjump)');
  await chatsScenario(page);
  await page.reload();
  await ready();
  await waitTexts(['You are a test bot.', 'hello', 'Answer A']);
  await chatsAfterReload(page);
  await page.waitForFunction(() => document.querySelector('session-tree-panel')?.shadowRoot?.querySelectorAll('.row[data-node-id]').length === 6);
  const rows = (await panel.locator('.row[data-node-id]').allTextContents()).join('\n');
  for (const want of ['You are a test bot.', 'hello', 'Answer A', 'hello (edited)', 'Answer B', 'Answer C']) assert.ok(rows.includes(want), `the panel shows ${JSON.stringify(want)} after a reload: ${rows}`);
  assert.deepEqual(await texts(), ['You are a test bot.', 'hello', 'Answer A']);
}

/** The page's [data-testid=id] items, sorted (their .title spans when there are any). */
const listed = (id) => [...document.querySelectorAll(`[data-testid=${id}] li`)].map((li) => (li.querySelector('.title') ?? li).textContent).sort();

/**
 * Wait until the page's [data-testid=testid] list reads want (in any
 * order), reading it again each 100 ms for up to 20 s (a string to
 * waitForFunction would be an eval, which the strict CSP refuses).
 */
async function waitList(page, testid, want) {
  const w = JSON.stringify([...want].sort());
  let got;
  for (const end = Date.now() + 20_000; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    got = JSON.stringify(await page.evaluate(listed, testid));
    if (got === w) return;
  }
  throw new Error(`the app's ${testid} read ${got}, not ${w}`);
}

/** Search across sessions in the app for query: the ids of the sessions found. */
async function searchFor(page, query) {
  const chats = page.getByRole('region', { name: 'Chats' });
  await chats.getByLabel('Search').fill(query);
  await chats.getByRole('button', { name: 'Search' }).click();
  await page.waitForFunction(() => /found$/.test(document.querySelector('[data-testid=searched]')?.textContent ?? ''));
  return (await page.locator('[data-testid=hits] li').allTextContents()).sort();
}

/**
 * The chat list's part of the scenario: rename the chat (its title shows),
 * add a second chat with appendMany (found by search across sessions),
 * delete it from the list (gone from the list and from search).
 * @param {import('playwright-core').Page} page
 */
export async function chatsScenario(page) {
  const chats = page.getByRole('region', { name: 'Chats' });
  const ready = () => page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent === 'ready');
  await chats.getByLabel('Title').fill('Trip to Lyon');
  await chats.getByRole('button', { name: 'Rename' }).click();
  await waitList(page, 'chats', ['Trip to Lyon']);
  await ready();
  await chats.getByRole('button', { name: 'New chat' }).click();
  await waitList(page, 'chats', ['Scratch', 'Trip to Lyon']);
  await ready();
  assert.deepEqual(await searchFor(page, 'zanzibar'), ['scratch'], 'the new chat is found by search across sessions');
  await ready();
  await chats.getByRole('button', { name: 'Delete Scratch' }).click();
  await waitList(page, 'chats', ['Trip to Lyon']);
  await ready();
  assert.deepEqual(await searchFor(page, 'zanzibar'), [], 'the deleted chat is gone from search');
  await ready();
}

/** After the reload: the new title, and the deleted chat neither listed nor found. */
export async function chatsAfterReload(page) {
  await waitList(page, 'chats', ['Trip to Lyon']);
  assert.deepEqual(await searchFor(page, 'zanzibar'), [], 'the deleted chat is not found after a reload');
  assert.deepEqual(await searchFor(page, 'hello'), ['chat'], 'the kept chat is');
}

/**
 * The short chat of a dev server's page test, on a page already watched
 * for errors: the store starts (status "ready"), "hello" is sent (Answer
 * A), then edited (Answer B), and the panel shows both branches of the
 * fork, with the cursor on Answer B. What the builds' chatScenario does
 * besides (regenerate, jump, rename, delete, reload) is about the package,
 * not about how a bundler serves it, and stays with the builds.
 * @param {import('playwright-core').Page} page
 * @param {string} url the app's page, with ?api= set
 * @param {{plan: Function}} chat the loopback server (e2e/openai-server.mjs)
 * @param {string} scenario its scenario name in the api URL
 */
export async function devChatScenario(page, url, chat, scenario) {
  chat.plan(scenario, answer(ANSWERS[0]), answer(ANSWERS[1]));
  await openAndEdit(page, url);
  await page.waitForFunction(() => {
    const root = document.querySelector('session-tree-panel')?.shadowRoot;
    return root?.querySelectorAll('.row[data-node-id]').length === 5 && (root.querySelector('.row.cursor')?.textContent ?? '').includes('Answer B');
  });
  const rows = (await page.locator('session-tree-panel .row[data-node-id]').allTextContents()).join('\n');
  for (const want of ['hello', 'Answer A', 'hello (edited)', 'Answer B']) assert.ok(rows.includes(want), `the panel shows ${JSON.stringify(want)}: ${rows}`);
}

/** Wait until the app's status reads "ready". */
const appReady = (page) => page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent === 'ready');

/**
 * Wait until the app's messages read want (up to 20 s); on a timeout,
 * fail naming what it shows and its status.
 */
async function appTexts(page, want) {
  try {
    await page.waitForFunction((w) => JSON.stringify([...document.querySelectorAll('[data-testid=messages] li .text')].map((e) => e.textContent)) === w, JSON.stringify(want), { timeout: 20000 });
  } catch (err) {
    const shown = await page.locator('[data-testid=messages] li .text').allTextContents();
    const status = await page.getByTestId('status').textContent();
    throw new Error(`the app shows ${JSON.stringify(shown)} (status ${JSON.stringify(status)}), not ${JSON.stringify(want)}: ${err.message}`);
  }
}

/**
 * The start every scenario shares: open the app (a dev server compiles
 * or pre-bundles on its first request, and the machine may be busy), send
 * "hello" (Answer A), edit it (Answer B), each once the app is ready.
 * @returns {Promise<import('playwright-core').Locator>} the app's Chat region
 */
async function openAndEdit(page, url) {
  const app = page.getByRole('region', { name: 'Chat' });
  await page.goto(url, { timeout: 120_000 });
  await appReady(page);
  await app.getByLabel('Message').fill('hello');
  await app.getByRole('button', { name: 'Send' }).click();
  await appTexts(page, ['You are a test bot.', 'hello', 'Answer A']);
  await appReady(page);
  await app.getByRole('button', { name: 'Edit' }).click();
  await appTexts(page, ['You are a test bot.', 'hello (edited)', 'Answer B']);
  await appReady(page);
  return app;
}
