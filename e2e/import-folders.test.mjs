// Whole folders as the coding agents keep them (issue 26), in the explorer:
// a synthetic home folder holding each tool's layout (Codex date folders,
// Gemini CLI tmp/<hash>/chats, an Aider repository, Claude Code projects,
// Pi sessions, a Cline task folder, OpenCode storage) imported through
// "Open a folder…" (the <input webkitdirectory>), then the session list
// filtered by tool and project (session-filter.js), the context at the
// cursor of each agent's session, a refresh after a rollout grew (only its
// new nodes added, the report saying so), "Refresh folder" on a directory
// handle (showDirectoryPicker stood in for by an origin-private folder:
// headless Chromium has no picker to click), remembered across a reload,
// and a cancelled import that leaves nothing. e2e/folders.test.mjs covers
// tree.importFiles itself (every layout, a grown Cline task, the signal).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { setup, openExplorer, openShimPage, artifactPath, explorerCall, importReport, REPO_ROOT, ARTIFACTS_DIR } from './helpers.mjs';

const TESTDATA = path.join(REPO_ROOT, 'core', 'testdata');
const ROLLOUT = 'rollout-2025-10-06T09-15-00-0199a213-81c0-7800-8aa1-bbab2a035a53.jsonl';
const CODEX_PATH = `.codex/sessions/2025/10/06/${ROLLOUT}`;
const codexLines = fs.readFileSync(path.join(TESTDATA, 'imports', 'codex', ROLLOUT), 'utf8').split('\n').filter((l) => l !== '').map((l) => l + '\n');
/** The rollout's first lines (up to the reply after its rollback): the folder is imported once with these, then the rest (a compaction and a turn) is appended. */
const FIRST = 24;

const CLAUDE = '{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"cc-web","cwd":"/home/me/web","timestamp":"2026-01-02T03:04:05.000Z","message":{"role":"user","content":"Add a footer"}}\n' +
  '{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"cc-web","timestamp":"2026-01-02T03:04:06.000Z","message":{"role":"assistant","content":[{"type":"text","text":"Footer added."}]}}\n';
const PI = '{"type":"session","version":3,"id":"pi-cli","timestamp":"2026-01-02T03:04:05.000Z","cwd":"/home/me/cli"}\n' +
  '{"type":"message","id":"m1","parentId":null,"timestamp":"2026-01-02T03:04:08.000Z","message":{"role":"user","content":"Parse the flags"}}\n';
const PI_MORE = '{"type":"message","id":"m2","parentId":"m1","timestamp":"2026-01-02T03:04:09.000Z","message":{"role":"assistant","content":[{"type":"text","text":"Flags parsed."}]}}\n';

/** Copy every file under from into to (folders made as needed). */
function copyTree(from, to) {
  for (const e of fs.readdirSync(from, { withFileTypes: true })) {
    if (e.isDirectory()) copyTree(path.join(from, e.name), path.join(to, e.name));
    else {
      fs.mkdirSync(to, { recursive: true });
      fs.copyFileSync(path.join(from, e.name), path.join(to, e.name));
    }
  }
}

/** A home folder with each tool's layout, under e2e/artifacts (the directory the input is given). */
function homeFolder() {
  const root = path.join(ARTIFACTS_DIR, 'folder-import', 'home');
  fs.rmSync(root, { recursive: true, force: true });
  const write = (p, data) => {
    fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
    fs.writeFileSync(path.join(root, p), data);
  };
  write(CODEX_PATH, codexLines.slice(0, FIRST).join(''));
  write('.gemini/tmp/e3b0c442/chats/session-2026-03-02T10-00-7c1b2f0e.jsonl', fs.readFileSync(path.join(TESTDATA, 'imports', 'gemini', 'session-2026-03-02T10-00-7c1b2f0e.jsonl')));
  write('code/shop/.aider.chat.history.md', fs.readFileSync(path.join(TESTDATA, 'imports', 'aider', '.aider.chat.history.md')));
  write('.claude/projects/-home-me-web/cc-web.jsonl', CLAUDE);
  write('.pi/agent/sessions/--home-me-cli--/2026-01-02.jsonl', PI);
  copyTree(path.join(TESTDATA, 'folders', 'cline'), path.join(root, 'cline'));
  copyTree(path.join(TESTDATA, 'folders', 'opencode'), path.join(root, '.local/share/opencode'));
  return root;
}

/** Wait for the report titled title; its title, session, file, warning and error lines. */
const report = importReport;

/** The session list as shown: each row's title and its tool · project line. */
const listed = (page) => page.locator('#session-list li').evaluateAll((lis) => lis.map((li) => `${li.querySelector('.session-title').textContent} | ${li.querySelector('.session-source')?.textContent ?? ''}`));
/** The options of a select, as shown. */
const options = (page, id) => page.locator(`#${id} option`).allTextContents();

/** The roles at the cursor of a session and its last message's text (first 40 characters). */
async function contextOf(page, sessionId) {
  const v = await explorerCall(page, { operation: 'context', sessionId });
  const last = v.messages.at(-1).content;
  const text = typeof last === 'string' ? last : last.map((b) => b.text ?? '').join('');
  return { roles: v.messages.map((m) => m.role).join(' '), last: text.slice(0, 40) };
}

test('explorer: a home folder of every agent imports with tools, projects and titles; the list filters by tool and project; a grown rollout adds only its new nodes', async () => {
  const root = homeFolder();
  const env = await setup({ contextOptions: { viewport: { width: 1280, height: 800 } } });
  try {
    const { page } = env;
    env.page.setDefaultNavigationTimeout(120_000); // a loaded machine; the page's own work is what is checked
    await openExplorer(page, env.baseURL);
    // Enter on Import… clicks the file input (the click is caught before
    // Chromium's file chooser, whose event the driver did not always see).
    await page.evaluate(() => document.getElementById('import-file').addEventListener('click', (e) => {
      e.preventDefault();
      window.__importClicked = e.target.multiple;
    }, { once: true }));
    await page.focus('#import-button');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.__importClicked !== undefined);
    assert.equal(await page.evaluate(() => window.__importClicked), true, 'Enter on Import… opens the file chooser, for several files');
    await page.setInputFiles('#open-folder', root);
    const first = await report(page, 'Imported 9 sessions');
    assert.ok(first.files.includes('Codex · /home/dev/bookshop1 session'), first.files.join('\n'));
    assert.ok(first.files.includes('Aider · home/code/shop2 sessions'), first.files.join('\n'));
    // Sessions of several projects: each line says its project.
    assert.match(first.sessions.find((l) => l.startsWith('Add a test for the price parser')) ?? '', /\u2068\/home\/dev\/bookshop\u2069 · \d+ nodes/, first.sessions.join('\n'));
    assert.deepEqual(first.errors, []);

    const sessions = (await explorerCall(page, { operation: 'sessions' })).map((s) => `${s.tool ?? '-'} ${s.project ?? '-'} | ${s.title}`).sort();
    assert.deepEqual(sessions, [
      '- - | Demo: a long weekend in Lisbon',
      'aider home/code/shop | Add a test',
      'aider home/code/shop | Make add() handle strings like "1" + "2"',
      'claude-code /home/me/web | Add a footer',
      'cline /home/dev/app | Add a README that explains how to run the app',
      'codex /home/dev/bookshop | Add a test for the price parser',
      'gemini e3b0c442 | Debug the failing npm test',
      'opencode /home/dev/site | Find the files that render the header',
      'opencode /home/dev/site | Fix the header layout',
      'pi /home/me/cli | Parse the flags',
    ]);
    const ids = Object.fromEntries((await explorerCall(page, { operation: 'sessions' })).map((s) => [s.tool ?? 'demo', s.sessionId]));
    assert.equal((await contextOf(page, ids.gemini)).roles, 'user assistant user assistant user assistant');
    assert.deepEqual(await contextOf(page, ids.pi), { roles: 'user', last: 'Parse the flags' });
    assert.deepEqual(await contextOf(page, ids['claude-code']), { roles: 'user assistant', last: 'Footer added.' });
    const codexBefore = await contextOf(page, ids.codex);

    // The filters: every tool with its sessions and their nodes, the projects of the tool chosen.
    assert.deepEqual(await options(page, 'tool-filter'), [
      'All tools (10 · 97 nodes)', 'Aider (2 · 20 nodes)', 'OpenCode (2 · 15 nodes)', 'Claude Code (1 · 2 nodes)', 'Cline / Roo Code (1 · 9 nodes)',
      'Codex (1 · 22 nodes)', 'Gemini CLI (1 · 14 nodes)', 'Made here (1 · 13 nodes)', 'Pi (1 · 2 nodes)',
    ]);
    await page.selectOption('#tool-filter', 'opencode');
    assert.deepEqual(await listed(page), ['Fix the header layout | OpenCode · \u2068/home/dev/site\u2069', 'Find the files that render the header | OpenCode · \u2068/home/dev/site\u2069']);
    assert.deepEqual(await options(page, 'project-filter'), ['All projects (2 · 15 nodes)', '\u2068/home/dev/site\u2069 (2 · 15 nodes)']);
    await page.selectOption('#tool-filter', '*');
    await page.selectOption('#project-filter', 'home/code/shop');
    assert.deepEqual((await listed(page)).map((l) => l.split(' | ')[1]), ['Aider · \u2068home/code/shop\u2069', 'Aider · \u2068home/code/shop\u2069']);
    await page.fill('#session-filter', 'strings');
    assert.deepEqual((await listed(page)).map((l) => l.split(' | ')[0]), ['Make add() handle strings like "1" + "2"'], 'the text filter narrows the project further');
    await page.fill('#session-filter', '');
    await page.selectOption('#project-filter', '*');
    // By last activity: the demo was made at this load, every import's newest message is older.
    const dates = await options(page, 'date-filter');
    assert.equal(dates[0], 'Any time (10)');
    assert.ok(dates.includes('Today (1)'), dates.join(' | '));
    await page.selectOption('#date-filter', 'today');
    assert.deepEqual((await listed(page)).map((l) => l.split(' | ')[0]), ['Demo: a long weekend in Lisbon']);
    await page.selectOption('#date-filter', '*');
    assert.equal((await listed(page)).length, 10);
    // Keyboard: the select takes focus from the text filter with Tab.
    await page.focus('#session-filter');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'tool-filter');
    // The top bar's Import… is a button (it was a label, out of the Tab
    // order): Tab reaches it after the search box (Enter on it opens the
    // file chooser: checked before the import above).
    await page.focus('#global-search');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'import-button');
    await page.locator('#report-close').click();
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: artifactPath(`import-folders-desktop-${scheme}.png`) });
    }

    // The rollout grew: the same folder again adds its new nodes, and nothing else.
    fs.appendFileSync(path.join(root, CODEX_PATH), codexLines.slice(FIRST).join(''));
    await page.setInputFiles('#open-folder', root);
    const again = await report(page, /^Updated 1 session \(\+\d+ nodes\) · 8 already here$/);
    const codexLine = again.sessions[0];
    assert.ok(codexLine.startsWith('Add a test for the price parser'), `the session that grew is listed first: ${again.sessions.join('\n')}`);
    assert.match(codexLine, / · \d+ new$/, again.sessions.join('\n'));
    assert.equal(again.sessions.filter((l) => l.endsWith('already here, nothing new')).length, 8);
    assert.equal((await explorerCall(page, { operation: 'sessions' })).length, 10, 'no session doubled');
    const codex = (await explorerCall(page, { operation: 'sessions' })).find((s) => s.sessionId === ids.codex);
    assert.equal(codex.nodeCount, 29, 'the whole rollout, as one import of it gives');
    const grownTools = await options(page, 'tool-filter');
    assert.deepEqual([grownTools[0], grownTools.find((o) => o.startsWith('Codex'))], ['All tools (10 · 104 nodes)', 'Codex (1 · 29 nodes)'], 'the sizes follow the refresh');
    // The compaction starts the history again (a new path, off the one the cursor was on): nobody
    // moved the cursor since the first import, so it follows the rollout's to the grown tip.
    assert.notDeepEqual(codexBefore, await contextOf(page, ids.codex));
    assert.equal(codex.cursor, 'L28');
    assert.deepEqual(await contextOf(page, ids.codex), { roles: 'system developer user user assistant user assistant', last: 'Done: prices print as 1,234.56.' }, 'the context is what the model saw last');
    assert.deepEqual(env.errors, []);

    await page.locator('#report-close').click();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('#tab-sessions').click();
    await page.selectOption('#tool-filter', 'aider');
    for (const id of ['tool-filter', 'project-filter', 'import-folder-button']) {
      const box = await page.locator(`#${id}`).boundingBox();
      assert.ok(box && box.height >= 40, `${id} is a touch target: ${JSON.stringify(box)}`);
    }
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: artifactPath(`import-folders-phone-${scheme}.png`) });
    }
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth), 0, 'nothing sideways');
  } finally {
    await env.close();
  }
});

/** Make showDirectoryPicker answer an origin-private folder "agents" holding a Pi session of JSONL text pi. */
function stubFolder(page, pi) {
  return page.evaluate(async (pi) => {
    const root = await navigator.storage.getDirectory();
    let d = await root.getDirectoryHandle('agents', { create: true });
    const top = d;
    for (const name of ['.pi', 'agent', 'sessions', '--home-me-cli--']) d = await d.getDirectoryHandle(name, { create: true });
    const w = await (await d.getFileHandle('2026-01-02.jsonl', { create: true })).createWritable();
    await w.write(pi);
    await w.close();
    window.showDirectoryPicker = async () => top;
  }, pi);
}

test('explorer: "Refresh folder" keeps its height in a sessions pane short of room (the imported session erased: the demo, then the import hint)', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1280, height: 800 } } });
  try {
    const { page, errors } = env;
    await openExplorer(page, env.baseURL);
    await stubFolder(page, PI);
    await page.locator('#import-folder-button').click();
    await report(page, 'Imported 1 session');
    for (const s of await explorerCall(page, { operation: 'sessions' })) if (s.sessionId !== 'demo') await explorerCall(page, { operation: 'delete', sessionId: s.sessionId, permanent: true });
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    const refresh = page.locator('#refresh-folder');
    await refresh.waitFor();
    const box = await refresh.evaluate((b) => ({ height: b.clientHeight, content: b.scrollHeight }));
    assert.ok(box.height >= box.content, `the button is ${box.height} px tall, its text and padding ${box.content}`);
    await page.screenshot({ path: artifactPath('import-folders-refresh-empty.png') });
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('explorer: "Refresh folder" re-reads the folder of a directory handle, remembered across a reload; Cancel leaves nothing', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1280, height: 800 } } });
  try {
    const { page } = env;
    env.page.setDefaultNavigationTimeout(120_000);
    await openExplorer(page, env.baseURL);
    assert.equal(await page.locator('#refresh-folder').isHidden(), true, 'no folder yet');
    const stub = (pi) => stubFolder(page, pi);
    await stub(PI);
    await page.locator('#import-folder-button').click(); // the sessions pane's button: the same path as the top bar's
    await report(page, 'Imported 1 session');
    const refresh = page.locator('#refresh-folder');
    assert.equal(await refresh.textContent(), 'Refresh folder \u2068agents\u2069');
    // Close the first report: the second has the same title, and must not be read for it.
    await page.locator('#report-close').click();
    await page.locator('#import-report').waitFor({ state: 'hidden' });
    await stub(PI + PI_MORE);
    await refresh.click();
    const grown = await report(page, /^Updated 1 session \(\+1 node\)$/);
    assert.deepEqual(grown.sessions, ['Parse the flags3 nodes · 1 branch · 1 new']);

    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    await refresh.waitFor(); // recalled from IndexedDB
    assert.ok((await options(page, 'tool-filter')).includes('Pi (1 · 3 nodes)'), 'the tool and the node count are stored with the session and come back after the reload');
    await refresh.click();
    assert.deepEqual((await report(page, 'Already here: 1 session, nothing new')).sessions, ['Parse the flags3 nodes · 1 branch · already here, nothing new']);

    // Cancel while the folder is read: the progress bar's button, pressed at the first progress.
    // The page holds the store's write lock until then (as another tab's writer would), so the
    // import cannot be stored before its Cancel reaches the worker however slow this machine is:
    // a CI run once stored all 8 files before the click's abort arrived. (An abort heard while
    // the import waited for the lock was then not honoured: also fixed, see e2e/folders.test.mjs.)
    const before = await explorerCall(page, { operation: 'sessions' });
    await page.evaluate(() => new Promise((held) => {
      navigator.locks.request('sessiontree-write:sessiontree', () => new Promise((letGo) => {
        window.releaseTestLock = letGo;
        held();
      }));
    }));
    await page.evaluate(() => {
      const tree = window.explorer.tree;
      const importFiles = tree.importFiles.bind(tree);
      const cancel = () => {
        document.getElementById('import-cancel').click();
        setTimeout(() => window.releaseTestLock(), 1000); // the abort's message goes first (the worker waits idle for the lock)
      };
      tree.importFiles = (entries, options) => importFiles(entries, { ...options, onProgress: (p) => (options.onProgress(p), cancel()) });
    });
    const line = (i) => JSON.stringify({ type: 'user', uuid: `c${i}`, parentUuid: i ? `c${i - 1}` : null, sessionId: 'cancel-me', message: { role: 'user', content: 'x'.repeat(400) } }) + '\n';
    const big = path.join(ARTIFACTS_DIR, 'folder-import', 'big');
    fs.rmSync(big, { recursive: true, force: true });
    fs.mkdirSync(path.join(big, 'projects', '-p'), { recursive: true });
    for (let k = 0; k < 8; k++) fs.writeFileSync(path.join(big, 'projects', '-p', `s${k}.jsonl`), Array.from({ length: 600 }, (_, i) => line(k * 600 + i)).join(''));
    await page.setInputFiles('#open-folder', big);
    const cancelled = await report(page, 'Nothing imported');
    assert.deepEqual(cancelled.errors, ['import cancelled; nothing was imported']);
    assert.deepEqual(await explorerCall(page, { operation: 'sessions' }), before, 'nothing half-written');
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('explorer: after a reload (the stored sessions not in memory), the same folder grown adds its new nodes, and every file says what became of it', async () => {
  const root = path.join(ARTIFACTS_DIR, 'folder-import', 'paged');
  fs.rmSync(root, { recursive: true, force: true });
  copyTree(path.join(TESTDATA, 'folders', 'cline'), path.join(root, 'cline'));
  fs.mkdirSync(path.join(root, '.claude', 'projects', '-home-me-web'), { recursive: true });
  fs.writeFileSync(path.join(root, '.claude', 'projects', '-home-me-web', 'cc-web.jsonl'), CLAUDE);
  const env = await setup({ contextOptions: { viewport: { width: 1280, height: 800 } } });
  try {
    const { page } = env;
    env.page.setDefaultNavigationTimeout(120_000);
    await openExplorer(page, env.baseURL);
    await page.setInputFiles('#open-folder', root);
    await report(page, 'Imported 2 sessions');
    const before = (await explorerCall(page, { operation: 'sessions' })).find((s) => s.tool === 'cline');

    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    copyTree(path.join(TESTDATA, 'folders', 'cline-grown'), path.join(root, 'cline'));
    await page.setInputFiles('#open-folder', root);
    const again = await report(page, /^Updated 1 session \(\+\d+ nodes?\) · 1 already here$/);
    assert.match(again.sessions.find((l) => l.startsWith('Add a README')) ?? '', / · \d+ new$/, again.sessions.join('\n'));
    assert.ok(again.files.every((f) => !f.includes('undefined')), again.files.join('\n'));
    const after = (await explorerCall(page, { operation: 'sessions' })).find((s) => s.tool === 'cline');
    assert.ok(after.nodeCount > before.nodeCount, `${before.nodeCount} → ${after.nodeCount} nodes`);
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('explorer: a folder with nothing usable lists each file with its reason, once (no run-on warning)', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1366, height: 850 } } });
  try {
    const { page, baseURL } = env;
    await openExplorer(page, baseURL);
    const junk = path.join(ARTIFACTS_DIR, 'folder-import', 'junk');
    fs.rmSync(junk, { recursive: true, force: true });
    fs.mkdirSync(path.join(junk, 'sub'), { recursive: true });
    fs.writeFileSync(path.join(junk, 'notes.md'), '# notes\n');
    fs.writeFileSync(path.join(junk, 'a.bin'), Buffer.from([0, 1, 2, 3]));
    fs.writeFileSync(path.join(junk, 'sub', 'cut.json'), '{"conversations": [');
    await page.setInputFiles('#open-folder', junk);
    const r = await report(page, 'Nothing imported');
    assert.equal(await page.locator('#import-report').evaluate((e) => e.classList.contains('failed')), true);
    assert.deepEqual(r.files.map((f) => f.split(/skipped: /)[0]).sort(), ['junk/a.bin', 'junk/notes.md', 'junk/sub/cut.json']);
    const cut = r.files.find((f) => f.startsWith('junk/sub/cut.json'));
    assert.ok(r.files.every((f) => /skipped: .+/.test(f)), r.files.join('\n'));
    assert.match(cut, /^junk\/sub\/cut\.jsonskipped: .*JSON/);
    assert.deepEqual([r.warnings, r.errors], [[], []]);
    await page.screenshot({ path: artifactPath('import-folder-junk-1366x850.png') });
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('importFiles: files given the same path are each reported with what they gave, in one import and in batches, with the store in its worker and in the page thread', async () => {
  const env = await setup();
  try {
    const page = await openShimPage(env);
    const got = await page.evaluate(async () => {
      const line = (uuid) => new TextEncoder().encode(JSON.stringify({ type: 'user', uuid, parentUuid: null, sessionId: 'cc-1', timestamp: '2026-01-02T03:04:05.000Z', message: { role: 'user', content: `hello ${uuid}` } }) + '\n');
      const files = () => [
        { path: 'a/x.jsonl', data: line('u1') },
        { path: 'a/x.jsonl', data: line('u2') },
        { path: 'a/x.jsonl', data: new TextEncoder().encode('# notes') },
      ];
      const out = {};
      for (const [name, worker, batched] of [['worker', true, false], ['page thread', false, false], ['batches', false, true]]) {
        const tree = await window.sessiontree.init({ persist: false, worker });
        if (batched) {
          // One file a batch, as a folder of more than BATCH_BYTES is imported.
          const callInternal = tree._handle.callInternal.bind(tree._handle);
          tree._handle.callInternal = (text) => (JSON.parse(text).operation === 'import.batches' ? JSON.stringify({ ok: true, value: { batches: [[0], [1], [2]], skipped: [] } }) : callInternal(text));
        }
        const r = await tree.importFiles(files());
        out[name] = r.ok ? r.value.files.map((f) => `${f.path} ${f.tool ?? '-'} ${f.sessions} ${(f.skipped ?? '').slice(0, 30)}`) : r.error;
        await tree.close();
      }
      return out;
    });
    const want = ['a/x.jsonl claude-code 1 ', 'a/x.jsonl claude-code 1 ', 'a/x.jsonl - 0 import data is not JSON, JSON '];
    assert.deepEqual(got, { worker: want, 'page thread': want, batches: want });
  } finally {
    await env.close();
  }
});
