// The page tests in a second engine: Firefox ESR (Debian's firefox-esr,
// scripts/ensure-firefox.sh), driven by puppeteer-core over WebDriver BiDi.
//
// The tests of shim, durability, first-context, page-list, paging,
// paging-differential, panel, kept-list and session-actions named below run
// unchanged in Firefox: each file runs in a child `node --test` with
// SESSIONTREE_BROWSER=firefox (e2e/helpers.mjs then hands out Firefox pages
// dressed as playwright-core's, e2e/firefox.mjs) and --test-name-pattern
// for exactly these names; each is reported here as a subtest under its
// own name, and a name that no longer runs (renamed or removed) fails.
// The chosen tests cover what differs between engines (IndexedDB, Web
// Locks, BroadcastChannel, module workers, wasm, storage estimates, the
// panel's drawing and clicks) in a short run (one Firefox per file, a
// context per test); every other test of those files passes in Firefox as
// well when the file is run with SESSIONTREE_BROWSER=firefox, except those
// of CHROMIUM_ONLY.
// Then tests of what only Firefox needs: a browser killed with SIGKILL
// during appends and started again on its profile, and
// navigator.storage.persist() left unanswered by a permission prompt.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { E2E_DIR, REPO_ROOT } from './helpers.mjs';
import { launchFirefoxPersistent, launchFirefox } from './firefox.mjs';
import { startServer } from '../tools/serve.mjs';

/** The tests run in Firefox, by file, under their exact names. */
const CHOSEN = {
  'shim.test.mjs': [
    'the seed example gives exactly the documented context, branches and snapshot',
    'the seed example gives exactly the documented context, branches and snapshot (store in the page thread)',
    'every error code arrives as an envelope, never a rejection, and changes nothing',
    'every error code arrives as an envelope, never a rejection, and changes nothing (store in the page thread)',
    'a reload restores every session, node, cursor and active branch',
    'a reload restores every session, node, cursor and active branch (store in the page thread)',
    'a failed IndexedDB read at init rejects and leaves the stored data untouched',
    'named restore points are kept, listed and restored',
    'subscribe reports each change with its operation; remote answers the panel calls',
    'a lone surrogate in a string request is answered as in the same request given as an object',
    'the store runs in a module worker by default, in the page thread with worker: false, without Worker or when the default worker cannot start; a wrong workerURL or wasmURL rejects',
  ],
  'durability.test.mjs': [
    'a page sees what another page appends without calling anything, and a new session made there',
    'a page writing in turn holds the write lock and reads the stored gen once; a write of another page in between is taken in before its next write',
    'an exceeded quota (stubbed QuotaExceededError) gives a STORAGE_ERROR envelope, memory is rolled back and the earlier data survives a reload',
    'storage() reports usage, quota and persistence for the explorer',
  ],
  'first-context.test.mjs': [
    'a context asked for while the store starts is answered before the stubs, exactly as the store answers it; a session not stored or in the trash waits for the store',
    'a context answered while the store starts passes no call made before it and misses none made after it',
  ],
  'page-list.test.mjs': [
    'init() answers once the newest sessions are read, before the rest of the list: a page newest first answers from them, a page past them once the list is read, each as core pages it',
    'a persisted init() answers `sessions` from the page\'s own read before its worker runs; calls made meanwhile wait and answer in order, and the list is core\'s',
    'when the default worker cannot start after init() answered from the page\'s list, the store runs in the page\'s thread; a worker asked for by URL that cannot start closes the tree',
  ],
  'paging.test.mjs': [
    '3,000 stored sessions: sessions before any node record is read, a never-opened session answers, eviction keeps the bytes, two tabs lose nothing',
    'a database written at every earlier schema version opens with its sessions paged, and they load',
    'after close(), a loaded session still answers from memory and a paged-out one answers STORAGE_ERROR naming it, in the worker and in the page',
    'two tabs appending to one paged-out session without waiting: each tab\'s appends stay in the order made, each under its previous one',
    'meta records damaged outside sessiontree fail their own sessions: the others list, open, search and take appends; a search across every session passes over them and names them',
  ],
  // Its name carries the seed and the number of calls, which the environment may set (see that file).
  'paging-differential.test.mjs': [
    `paging differential, seed ${Number(process.env.SESSIONTREE_PAGING_SEED ?? 20261207) >>> 0}, ${Number(process.env.SESSIONTREE_PAGING_OPS ?? 480)} calls: a tree paging its sessions in and out answers as an in-memory one`,
  ],
  'panel.test.mjs': [
    'Continue from here after a click fires jump and updates the context; actions change the tree as the store says',
  ],
  'kept-list.test.mjs': [
    'a history of 600 sessions lists from the kept list and the records written since exactly as from the store read whole; an erasure deletes the kept list',
  ],
  'session-actions.test.mjs': [
    'session actions: rename by keyboard (kept across a reload and seen by another tab), move to trash with Undo, restore and erase from the Trash dialog',
  ],
  'stored-context.test.mjs': [
    'storedContext reads the last nodes of the path to the cursor from the stored records, through chunk and node records, without the store',
  ],
  'panel-opening.test.mjs': [
    'persisted, a session slow to open shows its title, node count and last nodes as stored, as rows and messages, until it answers',
  ],
};

// CHROMIUM_ONLY: tests of those files that pass in Chromium only, and why.
// - panel.test.mjs "panel and overlay modes render (dark)": playwright-core
//   emulates the dark scheme per context (colorScheme); WebDriver BiDi in
//   Firefox 153 has no prefers-color-scheme emulation, so the page is light.

/** The escaped form of a test name for --test-name-pattern (a whole-name match). */
const exactly = (name) => '^' + name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '$';

/**
 * Run the named tests of file (in e2e/) in Firefox in a child node --test;
 * resolves to a Map from test name to {ok, ms, error}, with the child's
 * exit code and output tail.
 * @param {string} file @param {string[]} names
 */
function runInFirefox(file, names) {
  const env = { ...process.env, SESSIONTREE_BROWSER: 'firefox' };
  // The child is a test runner of its own, not a file of this one.
  delete env.NODE_TEST_CONTEXT;
  const args = ['--test', '--test-concurrency=1', '--test-reporter=tap', ...names.map((n) => `--test-name-pattern=${exactly(n)}`), path.join(E2E_DIR, file)];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ results: parseTap(out), code, tail: out.slice(-4000) }));
  });
}

/**
 * The top-level results of a node --test TAP report: name → {ok, ms, error}
 * (error: the YAML block's error text of a failed test). Skipped tests
 * (names not matching the pattern) are left out.
 * @param {string} tap
 */
function parseTap(tap) {
  const results = new Map();
  const lines = tap.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^(not )?ok \d+ - (.*?)(?: # (SKIP|TODO)\b.*)?$/.exec(lines[i]);
    if (!m || m[3]) continue;
    const name = m[2].replace(/\\#/g, '#').replace(/\\\\/g, '\\');
    let ms = null;
    const error = [];
    let inError = false;
    for (let j = i + 1; j < lines.length && lines[j] !== '  ...'; j++) {
      const line = lines[j];
      if (/^\S/.test(line)) break;
      const d = /^ {2}duration_ms: ([\d.]+)/.exec(line);
      if (d) ms = Number(d[1]);
      if (/^ {2}\S/.test(line)) inError = /^ {2}(error|stack):/.test(line);
      if (inError) error.push(line.slice(2));
    }
    results.set(name, { ok: !m[1], ms, error: error.join('\n') });
  }
  return results;
}

for (const [file, names] of Object.entries(CHOSEN)) {
  test(`${file}: ${names.length} tests in Firefox ESR`, async (t) => {
    const { results, code, tail } = await runInFirefox(file, names);
    for (const name of names) {
      await t.test(name, (st) => {
        const r = results.get(name);
        assert.ok(r, `did not run in Firefox (renamed or removed? update CHOSEN in e2e/firefox.test.mjs); child exited ${code}:\n${tail}`);
        if (!r.ok) assert.fail(`failed in Firefox after ${r.ms} ms:\n${r.error}`);
        st.diagnostic(`${Math.round(r.ms)} ms in Firefox`);
      });
    }
    assert.equal(code, 0, `the Firefox run of ${file} exited ${code}:\n${tail}`);
  });
}

/** Open the shim page on page and wait for the module. */
async function openShim(page, baseURL) {
  await page.goto(baseURL + 'e2e/fixtures/shim.html');
  await page.waitForFunction(() => window.sessiontree !== undefined);
}

test('Firefox killed with SIGKILL during appends keeps every acknowledged append: started again on its profile, the tree restores them all', async (t) => {
  // One kill (two browser starts, a few seconds each here); raise ROUNDS to
  // kill it more often.
  const ROUNDS = 1;
  const server = await startServer({ root: REPO_ROOT, port: 0 });
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'sessiontree-firefox-'));
  let context = null;
  try {
    const acked = new Set();
    let stored = [];
    for (let round = 0; round < ROUNDS; round++) {
      context = await launchFirefoxPersistent(profile);
      const page = context.pages()[0] ?? (await context.newPage());
      const errors = [];
      page.on('pageerror', (err) => errors.push(String(err)));
      await openShim(page, server.baseURL);
      const restored = await page.evaluate(async () => {
        window.tree = await window.sessiontree.init({ dbName: 'killed' });
        const list = await window.tree.call({ operation: 'list', sessionId: 'k' });
        if (list.ok) return list.value.map((n) => n.id);
        const created = await window.tree.call({ operation: 'create', sessionId: 'k' });
        if (!created.ok) throw new Error(JSON.stringify(created.error));
        return [];
      });
      assert.deepEqual([...acked].filter((id) => !restored.includes(id)), [], `round ${round}: every acknowledged append is stored`);
      assert.ok(restored.length >= stored.length, `round ${round}: nothing stored before was lost`);
      stored = restored;
      // Each append the page saw acknowledged is logged as "ACK id"; four
      // loops keep several writes in flight, so the kill lands in one.
      const seen = new Promise((resolve) => {
        let fresh = 0;
        page.on('console', (m) => {
          const ack = /^ACK (\S+)$/.exec(m.text());
          if (!ack) return;
          acked.add(ack[1]);
          if (++fresh === 200) resolve();
        });
      });
      const appending = page.evaluate(async (round) => {
        const loop = async (k) => {
          for (let i = 0; ; i++) {
            const env = await window.tree.call({ operation: 'append', sessionId: 'k', message: { role: 'user', content: `round ${round} loop ${k} append ${i}` } });
            if (!env.ok) throw new Error(JSON.stringify(env.error));
            console.log('ACK ' + env.value.id);
          }
        };
        await Promise.all([0, 1, 2, 3].map(loop));
      }, round).catch((err) => err);
      await seen;
      // The whole browser at once: its process group (Firefox's content
      // processes are its children), as a crash or a power cut would.
      process.kill(-context.raw.browser().process().pid, 'SIGKILL');
      const ended = await appending;
      assert.ok(ended instanceof Error, 'the appends stopped with the browser');
      assert.deepEqual(errors, []);
      context = null;
    }
    // Started once more: everything acknowledged before each kill is there.
    context = await launchFirefoxPersistent(profile);
    const page = context.pages()[0] ?? (await context.newPage());
    await openShim(page, server.baseURL);
    const last = await page.evaluate(async () => {
      const tree = await window.sessiontree.init({ dbName: 'killed' });
      const list = await tree.call({ operation: 'list', sessionId: 'k' });
      return list.value.map((n) => n.id);
    });
    assert.deepEqual([...acked].filter((id) => !last.includes(id)), [], 'every acknowledged append is stored');
    assert.ok(last.length >= stored.length);
    t.diagnostic(`${acked.size} acknowledged appends over ${ROUNDS} kill(s), ${last.length} stored`);
  } finally {
    await context?.close().catch(() => {});
    await server.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
});

test('storage({requestPersist: true}) answers within its bound while Firefox\'s permission prompt for persist() stays unanswered', async () => {
  // Without dom.storageManager.prompt.testing (FIREFOX_PREFS sets it for
  // the other tests) Firefox asks the user, and headless nobody answers:
  // navigator.storage.persist() stays pending.
  const server = await startServer({ root: REPO_ROOT, port: 0 });
  const browser = await launchFirefox({ prefs: { 'dom.storageManager.prompt.testing': false, 'dom.storageManager.prompt.testing.allow': false } });
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    await openShim(page, server.baseURL);
    const r = await page.evaluate(async () => {
      const pending = await Promise.race([navigator.storage.persist().then(() => 'answered'), new Promise((resolve) => setTimeout(() => resolve('pending'), 500))]);
      const tree = await window.sessiontree.init({ dbName: 'prompt' });
      const info = await tree.storage({ requestPersist: true });
      return { pending, info, after: await tree.storage() };
    });
    assert.equal(r.pending, 'pending', 'the prompt is up and unanswered');
    assert.equal(r.info.persisted, false, 'what the browser holds now');
    assert.equal(r.info.state, 'open');
    assert.equal(r.info.persistent, true);
    assert.equal(typeof r.info.usage, 'number');
    assert.ok(r.info.quota > 0, `quota ${r.info.quota}`);
    assert.equal(r.info.persistPending, true, 'the answer is still to come');
    assert.deepEqual({ ...r.after, persistPending: true }, r.info);
  } finally {
    await browser.close();
    await server.close();
  }
});
