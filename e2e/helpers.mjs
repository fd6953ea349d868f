// Shared helpers for the browser end-to-end tests (run: npm run test:e2e).
//
// Chromium is Debian's /usr/bin/chromium (scripts/ensure-chromium.sh installs
// it); playwright-core never downloads a browser. With
// SESSIONTREE_BROWSER=firefox in the environment, launch, launchPersistent
// and setup give Firefox ESR instead (e2e/firefox.mjs: puppeteer-core over
// WebDriver BiDi, dressed in the part of playwright-core's API the tests
// use); e2e/firefox.test.mjs runs chosen tests so. Pages are served over HTTP
// by tools/serve.mjs on 127.0.0.1 and a free port (.wasm needs
// application/wasm and instantiateStreaming does not work from file://).
//
//   import { setup, artifactPath } from './helpers.mjs';
//   const env = await setup();
//   try {
//     await env.page.goto(env.baseURL + 'static/');
//     ...
//     assert.deepEqual(env.errors, []);
//   } finally {
//     await env.close();
//   }

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../tools/serve.mjs';
import { sharedFirefox, launchFirefoxPersistent } from './firefox.mjs';

export const E2E_DIR = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(E2E_DIR, '..');
export const ARTIFACTS_DIR = path.join(E2E_DIR, 'artifacts');
/**
 * The shared fixtures (real public exports, ../shared/fixtures beside the
 * repository, as the Go tests read them): $SESSIONTREE_FIXTURES when set.
 */
export const FIXTURES_DIR = process.env.SESSIONTREE_FIXTURES || path.resolve(REPO_ROOT, '..', 'shared', 'fixtures');

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The engine of this process's page tests, from $SESSIONTREE_BROWSER:
 * "chromium" (the default) or "firefox".
 */
export const BROWSER = process.env.SESSIONTREE_BROWSER === 'firefox' ? 'firefox' : 'chromium';

/**
 * Launches headless Chromium. When BROWSER is "firefox": a handle on the
 * test process's one headless Firefox ESR (e2e/firefox.mjs sharedFirefox;
 * its close() closes the contexts made through it), options ignored.
 */
export function launch(options = {}) {
  if (BROWSER === 'firefox') return sharedFirefox();
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, ...options });
}

/**
 * Launches Chromium with a persistent profile in userDataDir (IndexedDB
 * survives a browser restart). Returns a BrowserContext.
 */
export function launchPersistent(userDataDir, options = {}) {
  if (BROWSER === 'firefox') return launchFirefoxPersistent(userDataDir, options);
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    ...options,
  });
}

/** Path of an artifact (screenshot, trace...) under e2e/artifacts/, created on demand. */
export function artifactPath(name) {
  fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
  return path.join(ARTIFACTS_DIR, name);
}

/**
 * Watches a page: console errors (except the 404 of Chromium's own
 * /favicon.ico request), uncaught exceptions (pageerror) and dialogs
 * (alert/confirm/prompt, which the app must never open: each is recorded and
 * dismissed so the page does not hang) are pushed onto `errors` as strings.
 */
export function watchPage(page, errors) {
  page.on('console', (msg) => {
    if (msg.type() === 'error') {
      const loc = msg.location();
      // Chromium asks for /favicon.ico by itself; its 404 is not the page's fault.
      if (loc?.url?.endsWith('/favicon.ico') && msg.text().startsWith('Failed to load resource')) return;
      errors.push(`console.error: ${msg.text()}${loc?.url ? ` (${loc.url}:${loc.lineNumber})` : ''}`);
    }
  });
  page.on('pageerror', (err) => errors.push(`pageerror: ${err?.stack || err}`));
  page.on('dialog', (dialog) => {
    errors.push(`dialog (${dialog.type()}): ${dialog.message()}`);
    dialog.dismiss().catch(() => {});
  });
  return page;
}

/** How long one navigation or wait of a page test may take before it fails, in ms. */
export const STEP_TIMEOUT_MS = 180_000;

/**
 * Wait until fn(arg), evaluated in the page (it may be async), is truthy,
 * polling every interval ms; rejects after timeout ms naming what it
 * waited for. page.waitForFunction does not await a promise its function
 * returns (a promise is truthy), so a wait on an async call goes here.
 * @param {import('playwright-core').Page} page
 * @param {Function} fn @param {any} [arg]
 * @param {{timeout?: number, interval?: number}} [options]
 * @returns {Promise<any>} fn's last value
 */
export async function waitUntil(page, fn, arg, { timeout = 30_000, interval = 100 } = {}) {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await page.evaluate(fn, arg);
    if (v) return v;
    if (Date.now() > end) throw new Error(`waitUntil: still false after ${timeout} ms: ${fn.toString().slice(0, 200)}`);
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}

/**
 * Starts the static server (root: repo root, free port) and a browser with
 * one context and one watched page.
 *
 * @param {{root?: string, persistentDir?: string, contextOptions?: object}} [opts]
 *   persistentDir: use a persistent profile there (browser is then null).
 * @returns {Promise<{browser, context, page, server, baseURL: string,
 *   errors: string[], newPage: () => Promise<import('playwright-core').Page>,
 *   close: () => Promise<void>}>}
 *   baseURL ends with '/', e.g. http://127.0.0.1:PORT/ (explorer: baseURL + 'static/').
 */
export async function setup({ root = REPO_ROOT, persistentDir, contextOptions = {} } = {}) {
  const errors = [];
  const server = await startServer({ root, port: 0 });
  let browser = null;
  let context;
  try {
    if (persistentDir) {
      context = await launchPersistent(persistentDir, contextOptions);
    } else {
      browser = await launch();
      context = await browser.newContext(contextOptions);
    }
  } catch (err) {
    await server.close();
    throw err;
  }
  // Waits are for order, not speed: a page may take long to load and a
  // selector long to show on a machine busy with other jobs (Playwright's
  // default is 30 s); a test that hangs is stopped by the test runner.
  context.setDefaultTimeout?.(STEP_TIMEOUT_MS); // the Firefox adapter (e2e/firefox.mjs) has no such setting: its own defaults apply
  context.setDefaultNavigationTimeout?.(STEP_TIMEOUT_MS);

  const newPage = async () => watchPage(await context.newPage(), errors);
  const page = persistentDir && context.pages().length > 0 ? watchPage(context.pages()[0], errors) : await newPage();

  let closed = false;
  return {
    browser,
    context,
    page,
    server,
    baseURL: server.baseURL,
    errors,
    newPage,
    async close() {
      if (closed) return;
      closed = true;
      try {
        await context.close();
        if (browser) await browser.close();
      } finally {
        await server.close();
      }
    },
  };
}

/**
 * Opens the shim test page (e2e/fixtures/shim.html, which puts the shim
 * on window.sessiontree) in a fresh page of env's shared context.
 * @param {{newPage: () => Promise<import("playwright-core").Page>, baseURL: string}} env what setup() resolved to
 * @returns {Promise<import("playwright-core").Page>}
 */
export async function openShimPage(env) {
  const page = await env.newPage();
  await page.goto(env.baseURL + 'e2e/fixtures/shim.html');
  await page.waitForFunction(() => window.sessiontree);
  return page;
}

/**
 * A stub for stubStore (pass it with the message as its arg): every read
 * of the "sessions" store fails with an UnknownError DOMException of that
 * message, through its indexes too (getAll, getAllRecords, openCursor), as
 * a disk failing start-up's reads of the session list would.
 * @param {string} message
 */
export function failSessionsReads(message) {
  for (const [proto, names] of [[IDBObjectStore.prototype, ['getAll']], [IDBIndex.prototype, ['getAll', 'getAllRecords', 'openCursor']]]) {
    for (const name of names) {
      const read = proto[name];
      if (typeof read !== 'function') continue;
      proto[name] = function (...args) {
        if ((this instanceof IDBIndex ? this.objectStore : this).name === 'sessions') throw new DOMException(message, 'UnknownError');
        return read.apply(this, args);
      };
    }
  }
}

/**
 * Stub browser APIs for the store wherever it runs: fn(arg) runs in the
 * page before its scripts (page.addInitScript, for init({worker: false}))
 * and in every store worker the page starts — the shim fixture then starts
 * e2e/fixtures/held-worker.js, which holds the page's messages until fn has
 * run there. In the worker, `window` is the worker's global scope, so a
 * stub written for the page (window.x, IDBObjectStore.prototype) works
 * there unchanged. Call before the page loads the shim. In Firefox (no
 * evaluating in a worker over WebDriver BiDi) fn(arg) is written as a
 * module under e2e/artifacts/stubs/ that the worker
 * e2e/fixtures/stubbed-worker.js imports before it takes the page's
 * messages, so fn must not close over anything but arg.
 * @param {import('playwright-core').Page} page
 * @param {(arg: any) => void} fn @param {any} [arg]
 */
export async function stubStore(page, fn, arg) {
  await page.addInitScript(fn, arg);
  if (BROWSER === 'firefox') {
    // No evaluating in a worker over WebDriver BiDi: the worker imports the stub.
    const stub = stubModule(fn, arg);
    await page.addInitScript((stub) => {
      window.__sessiontreeInit = { workerURL: new URL('/e2e/fixtures/stubbed-worker.js?stub=' + encodeURIComponent(new URL(stub, location.href).href), location.href).href };
    }, stub);
    return;
  }
  await page.addInitScript(() => {
    window.__sessiontreeInit = { workerURL: new URL('/e2e/fixtures/held-worker.js', location.href).href };
  });
  page.on('worker', async (worker) => {
    if (!worker.url().includes('/e2e/fixtures/held-worker.js')) return;
    try {
      await worker.evaluate(() => {
        self.window = self;
      });
      await worker.evaluate(fn, arg);
      await worker.evaluate(() => {
        self.__stubbed = true;
      });
    } catch (err) {
      if (!page.isClosed()) console.error('stubStore: the stub failed in the worker:', err);
    }
  });
}

let stubModules = 0;

/**
 * fn(arg) as an ES module under e2e/artifacts/stubs/ (a new file each
 * time, so no import is answered from a cache), for a worker to import
 * (e2e/fixtures/stubbed-worker.js). Returns its URL path, e.g.
 * "/e2e/artifacts/stubs/1234-1.js".
 * @param {(arg: any) => any} fn @param {any} [arg]
 */
function stubModule(fn, arg) {
  const name = `${process.pid}-${++stubModules}.js`;
  fs.mkdirSync(path.join(ARTIFACTS_DIR, 'stubs'), { recursive: true });
  fs.writeFileSync(path.join(ARTIFACTS_DIR, 'stubs', name), `await (${fn})(${arg === undefined ? '' : JSON.stringify(arg)});\n`);
  return '/e2e/artifacts/stubs/' + name;
}

/**
 * Run fn(arg) in the page and in its store workers (to change what a
 * stubStore stub reads, e.g. a quota left): resolves to the page's result.
 * In Firefox the workers import fn(arg) as a module, told to on the
 * BroadcastChannel "e2e-in-store" (e2e/fixtures/stubbed-worker.js).
 * @param {import('playwright-core').Page} page
 * @param {(arg: any) => any} fn @param {any} [arg]
 */
export async function inStore(page, fn, arg) {
  if (BROWSER === 'firefox') {
    // Each stubbed worker of the page imports fn as a module and says so.
    const to = page.workers().map((w) => w.url()).filter((u) => u.includes('/e2e/fixtures/stubbed-worker.js'));
    if (to.length) {
      await page.evaluate(({ run, to }) => new Promise((resolve) => {
        const channel = new BroadcastChannel('e2e-in-store');
        const left = new Set(to);
        channel.onmessage = ({ data }) => {
          if (data.done !== run) return;
          left.delete(data.from);
          if (left.size === 0) {
            channel.close();
            resolve();
          }
        };
        channel.postMessage({ run, to });
      }), { run: new URL(stubModule(fn, arg), page.url()).href, to });
    }
    return page.evaluate(fn, arg);
  }
  for (const worker of page.workers()) await worker.evaluate(fn, arg);
  return page.evaluate(fn, arg);
}

/**
 * Open the explorer (static/) in page and wait until it is ready and its
 * panel shows the cursor row.
 * @param {import('playwright-core').Page} page
 * @param {string} baseURL the server's root URL, ending in "/"
 * @returns {Promise<import('playwright-core').Locator>} the panel (#panel)
 */
export async function openExplorer(page, baseURL) {
  await page.goto(baseURL + 'static/');
  await page.waitForSelector('body[data-ready="true"]');
  const panel = page.locator('#panel');
  await panel.locator('.row.cursor').waitFor();
  return panel;
}

/**
 * Send request through the explorer's shared tree and return the
 * envelope's value, failing the test (naming the operation and the error)
 * when the call does not answer ok.
 * @param {import('playwright-core').Page} page
 * @param {object} request
 */
export async function explorerCall(page, request) {
  const env = await page.evaluate((r) => window.explorer.tree.call(r), request);
  if (!env.ok) throw new Error(`${request.operation}: ${JSON.stringify(env.error)}`);
  return env.value;
}

/**
 * Wait for the explorer's import report titled title (a substring) and
 * give it as text: its title, session lines, file lines, warnings (errors
 * among them) and errors alone (those among the warnings, then the failed
 * file lines as "name: reason").
 * @param {import('playwright-core').Page} page
 * @param {string} title
 */
export async function importReport(page, title) {
  try {
    await page.locator('#report-title', { hasText: title }).waitFor();
  } catch (err) {
    // Say what the page showed instead: another report, or a status line (an import refused).
    const shown = await page.evaluate(() => ({
      report: document.getElementById('import-report')?.hidden === false ? document.getElementById('report-title')?.textContent : '(no report shown)',
      status: document.getElementById('status')?.textContent ?? '',
      progress: document.getElementById('import-progress')?.hidden === false ? document.getElementById('progress-label')?.textContent : '(no progress bar)',
    })).catch(() => ({}));
    err.message += `\nthe page showed: ${JSON.stringify(shown)}`;
    throw err;
  }
  return {
    title: await page.locator('#report-title').textContent(),
    sessions: await page.locator('#report-sessions li').allTextContents(),
    files: await page.locator('#report-files li').allTextContents(),
    warnings: await page.locator('#report-warnings li').allTextContents(),
    // Failures: of one file, under warnings; of several, a ZIP or a folder, on their file's line only.
    errors: [
      ...(await page.locator('#report-warnings li.error').allTextContents()),
      ...(await page.locator('#report-files li.error').evaluateAll((ls) => ls.map((l) => `${l.querySelector('.report-file-name').textContent}: ${l.querySelector('.report-file-text').textContent}`))),
    ],
  };
}
