// Whole folders at once: tree.importFiles on a synthetic folder of each
// layout (Cline task folder, OpenCode storage tree, LobeChat export, Claude
// Code project, Pi sessions), a refresh after a file grew, a cancelled
// import (also one cancelled while it waits for the write lock), and the
// explorer's "Open a folder…" with a real directory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { setup, openExplorer, artifactPath, REPO_ROOT, ARTIFACTS_DIR } from './helpers.mjs';

const FOLDERS = path.join(REPO_ROOT, 'core', 'testdata', 'folders');

/** Every file under dir as {path, data} (data a string), paths relative to dir's parent. */
function entries(dir, prefix = path.basename(dir)) {
  const out = [];
  const stack = [[dir, prefix]];
  while (stack.length > 0) {
    const [d, p] = stack.pop();
    for (const name of fs.readdirSync(d).sort()) {
      const full = path.join(d, name);
      if (fs.statSync(full).isDirectory()) stack.push([full, `${p}/${name}`]);
      else out.push({ path: `${p}/${name}`, data: fs.readFileSync(full, 'utf8') });
    }
  }
  return out;
}

const CLAUDE = '{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"cc-web","cwd":"/home/me/web","timestamp":"2026-01-02T03:04:05.000Z","message":{"role":"user","content":"Add a footer"}}\n' +
  '{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"cc-web","timestamp":"2026-01-02T03:04:06.000Z","message":{"role":"assistant","content":[{"type":"text","text":"Footer added."}]}}\n';
const PI = '{"type":"session","version":3,"id":"pi-cli","timestamp":"2026-01-02T03:04:05.000Z","cwd":"/home/me/cli"}\n' +
  '{"type":"message","id":"m1","parentId":null,"timestamp":"2026-01-02T03:04:08.000Z","message":{"role":"user","content":"Parse the flags"}}\n';

/** A folder holding one of each layout, written under e2e/artifacts for the explorer's directory picker. */
function mixedFolder() {
  const root = path.join(ARTIFACTS_DIR, 'folder-import', 'agents');
  fs.rmSync(root, { recursive: true, force: true });
  const write = (p, data) => {
    fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
    fs.writeFileSync(path.join(root, p), data);
  };
  for (const e of entries(path.join(FOLDERS, 'cline'), 'cline')) write(e.path, e.data);
  for (const e of entries(path.join(FOLDERS, 'opencode'), 'opencode')) write(e.path, e.data);
  write('lobechat/lobechat-v7.json', fs.readFileSync(path.join(FOLDERS, 'lobechat', 'lobechat-v7.json')));
  write('.claude/projects/-home-me-web/cc-web.jsonl', CLAUDE);
  write('.pi/agent/sessions/--home-me-cli--/2026-01-02.jsonl', PI);
  write('README.txt', 'not a session');
  return root;
}

const summary = (v) => v.sessions.map((s) => `${s.tool} ${s.sessionId} ${s.project ?? ''} | ${s.title} | ${s.added}/${s.nodeCount}`).sort();

test('importFiles: every layout imports with its tool, project and title; a grown file adds only what is new; a cancelled import leaves nothing', async () => {
  const env = await setup();
  try {
    await env.page.goto(env.baseURL + 'e2e/fixtures/shim.html');
    await env.page.locator('#status', { hasText: 'ready' }).waitFor({ timeout: 10000 });
    const folder = [
      ...entries(path.join(FOLDERS, 'cline'), 'cline'),
      ...entries(path.join(FOLDERS, 'opencode'), 'opencode'),
      { path: 'lobechat/lobechat-v7.json', data: fs.readFileSync(path.join(FOLDERS, 'lobechat', 'lobechat-v7.json')) },
      { path: '.claude/projects/-home-me-web/cc-web.jsonl', data: new TextEncoder().encode(CLAUDE) },
      { path: '.pi/agent/sessions/--home-me-cli--/2026-01-02.jsonl', data: PI },
    ].map((e) => ({ path: e.path, data: typeof e.data === 'string' ? e.data : Array.from(e.data) }));
    const grown = entries(path.join(FOLDERS, 'cline-grown'), 'cline');
    const out = await env.page.evaluate(async ({ folder, grown }) => {
      const tree = await window.sessiontree.init({ dbName: 'folders-test' });
      const files = folder.map((e) => ({ path: e.path, data: typeof e.data === 'string' ? e.data : new Blob([new Uint8Array(e.data)]) }));
      const progress = [];
      const first = await tree.importFiles(files, { onProgress: (p) => progress.push(p) });
      const text = async (id) => (await tree.call({ operation: 'context', sessionId: id })).value.messages.map((m) => `${m.role}: ${typeof m.content === 'string' ? m.content : m.content.map((b) => b.text ?? b.thinking ?? b.type).join(' ')}`);
      const contexts = { cline: await text('1733000000000'), opencode: await text('ses_01a'), lobechat: await text('lobechat-tp_sql'), pi: await text('pi-cli') };
      const again = await tree.importFiles(files);
      const refreshed = await tree.importFiles(grown);
      const abort = new AbortController();
      const before = (await tree.call({ operation: 'sessions' })).value.length;
      // Forty files of 512 KB: the abort, sent at the first progress event, arrives while the
      // rest is still being read.
      const line = (i) => JSON.stringify({ type: 'user', uuid: `c${i}`, parentUuid: i ? `c${i - 1}` : null, sessionId: 'cancel-me', message: { role: 'user', content: 'x'.repeat(400) } }) + '\n';
      const big = Array.from({ length: 40 }, (_, k) => ({ path: `big/projects/-p/s${k}.jsonl`, data: Array.from({ length: 1200 }, (_, i) => line(k * 1200 + i)).join('') }));
      const cancelled = await tree.importFiles(big, { signal: abort.signal, onProgress: () => abort.abort() });
      const after = (await tree.call({ operation: 'sessions' })).value.length;
      const bad = await tree.importFiles([{ path: '', data: 'x' }]);
      // A directory handle (the origin's private file system here) is walked in the worker.
      const root = await navigator.storage.getDirectory();
      const dir = await root.getDirectoryHandle('agents', { create: true });
      let d = dir;
      for (const name of ['.pi', 'agent', 'sessions', '--home-me-opfs--']) d = await d.getDirectoryHandle(name, { create: true });
      const w = await (await d.getFileHandle('s.jsonl', { create: true })).createWritable();
      await w.write(folder.find((e) => e.path.startsWith('.pi/')).data.replace(/pi-cli/, 'pi-opfs').replace('/home/me/cli', '/home/me/opfs'));
      await w.close();
      const handled = await tree.importFiles(dir);
      return { first, progress, contexts, again, refreshed, cancelled, before, after, bad, handled };
    }, { folder, grown });

    assert.equal(out.first.ok, true, JSON.stringify(out.first.error));
    assert.deepEqual(summary(out.first.value), [
      'claude-code cc-web /home/me/web | Add a footer | 2/2',
      'cline 1733000000000 /home/dev/app | Add a README that explains how to run the app | 9/9',
      'lobechat lobechat-inbox Inbox | Hello there | 2/2',
      'lobechat lobechat-tp_sql SQL Tutor | Joining tables | 7/7',
      'opencode ses_01a /home/dev/site | Fix the header layout | 12/12',
      'opencode ses_01b /home/dev/site | Find the files that render the header | 3/3',
      'pi pi-cli /home/me/cli | Parse the flags | 2/2',
    ]);
    assert.deepEqual(out.first.value.warnings.map((w) => w.message.split(': ')[0]).sort(), ['lobechat/lobechat-v7.json'], 'each warning names its file (a Claude Code transcript names no current message by design: not reported)');
    assert.equal(out.first.value.files.length, folder.length, 'one line per file');
    assert.equal(out.progress.at(-1).read, out.progress.at(-1).total);
    assert.deepEqual(out.contexts.cline.map((l) => l.split(':')[0]), ['user', 'assistant', 'user', 'assistant']);
    assert.equal(out.contexts.opencode.at(-1), "assistant: You're welcome.");
    assert.deepEqual(out.contexts.lobechat, ['system: You are a careful SQL tutor.', 'user: How do I join two tables?', 'assistant: Use an INNER JOIN with ON a.id = b.a_id.', 'user: And keep rows without a match?', 'assistant: Use a LEFT JOIN.']);
    assert.deepEqual(out.contexts.pi, ['user: Parse the flags']);

    assert.equal(out.again.ok, true);
    assert.deepEqual(out.again.value.sessions.map((s) => s.added), [0, 0, 0, 0, 0, 0, 0], 'the same folder again adds nothing');
    assert.deepEqual(summary(out.refreshed.value), ['cline 1733000000000 /home/dev/app | Add a README that explains how to run the app | 3/12']);

    assert.equal(out.cancelled.ok, false);
    assert.equal(out.cancelled.error.message, 'import aborted; nothing was imported');
    assert.equal(out.after, out.before, 'a cancelled import adds no session');
    assert.equal(out.handled.ok, true, JSON.stringify(out.handled.error));
    assert.deepEqual(summary(out.handled.value), ['pi pi-opfs /home/me/opfs | Parse the flags | 2/2']);
    assert.deepEqual(out.handled.value.files.map((f) => f.path), ['agents/.pi/agent/sessions/--home-me-opfs--/s.jsonl']);
    assert.equal(out.bad.ok, false);
    assert.match(out.bad.error.message, /entries\[0\] must be a File or \{path, data\} with a non-empty path/);
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('explorer: "Open a folder…" imports a directory of every layout and reports each tool and project', async () => {
  const dir = mixedFolder();
  const env = await setup({ contextOptions: { viewport: { width: 1280, height: 800 } } });
  try {
    env.page.setDefaultNavigationTimeout(120_000); // a loaded machine; the page's own work is what is checked
    await openExplorer(env.page, env.baseURL);
    const button = env.page.locator('#open-folder-button');
    assert.match(await button.getAttribute('title'), /Claude Code, Codex, Gemini CLI, Pi, Cline \/ Roo Code, OpenCode, Aider, LobeChat/);
    await env.page.setInputFiles('#open-folder', dir);
    const report = env.page.locator('#import-report');
    await report.waitFor();
    assert.equal(await env.page.locator('#report-title').textContent(), 'Imported 7 sessions');
    const lines = await env.page.locator('#report-files li').allTextContents();
    assert.ok(lines.includes('Cline / Roo Code · /home/dev/app1 session'), lines.join('\n'));
    assert.ok(lines.includes('OpenCode · /home/dev/site2 sessions'), lines.join('\n'));
    assert.ok(lines.includes('agents/README.txtskipped: not a session file (JSON, JSON lines or an Aider history)'), lines.join('\n'));
    await env.page.locator('#session-list li', { hasText: 'Fix the header layout' }).waitFor();
    for (const scheme of ['light', 'dark']) {
      await env.page.emulateMedia({ colorScheme: scheme });
      await env.page.screenshot({ path: artifactPath(`open-folder-desktop-${scheme}.png`) });
    }
    await env.page.setViewportSize({ width: 390, height: 844 });
    for (const scheme of ['light', 'dark']) {
      await env.page.emulateMedia({ colorScheme: scheme });
      await env.page.screenshot({ path: artifactPath(`open-folder-phone-${scheme}.png`) });
    }
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('importFiles: files left out by name (a node_modules, a .git) are never copied into the store; a folder of only those is refused listing them, unread', async () => {
  const env = await setup();
  try {
    await env.page.goto(env.baseURL + 'e2e/fixtures/shim.html');
    await env.page.locator('#status', { hasText: 'ready' }).waitFor({ timeout: 10000 });
    const out = await env.page.evaluate(async (pi) => {
      const tree = await window.sessiontree.init({ persist: false, worker: false });
      const sizes = [];
      const buffer = tree._handle.importBuffer.bind(tree._handle);
      tree._handle.importBuffer = (n) => (sizes.push(n), buffer(n));
      const r = await tree.importFiles([
        { path: 'proj/.pi/agent/sessions/--home-me-cli--/s.jsonl', data: pi },
        { path: 'proj/node_modules/left-pad/package.json', data: 'x'.repeat(100_000) },
        { path: 'proj/.git/logs/HEAD.json', data: '{}' },
      ]);
      const junk = await tree.importFiles([{ path: 'p/node_modules/a/package.json', data: '{}' }, { path: 'p/notes.txt', data: 'hi' }]);
      return { sizes, sessions: r.value.sessions.map((s) => s.sessionId), files: r.value.files.map((f) => `${f.path}: ${f.skipped ?? f.tool}`), junk };
    }, PI);
    assert.deepEqual(out.sizes, [Buffer.byteLength(PI)], 'only the session file was copied in');
    assert.deepEqual(out.sessions, ['pi-cli']);
    assert.deepEqual(out.files, [
      'proj/.pi/agent/sessions/--home-me-cli--/s.jsonl: pi',
      'proj/node_modules/left-pad/package.json: inside node_modules (packages), not a session file; skipped',
      'proj/.git/logs/HEAD.json: inside .git (version control), not a session file; skipped',
    ]);
    assert.equal(out.junk.ok, false);
    assert.equal(out.junk.error.message, 'nothing imported: p/node_modules/a/package.json: inside node_modules (packages), not a session file; skipped; p/notes.txt: not a session file (JSON, JSON lines or an Aider history); skipped');
    assert.equal(out.junk.error.files.length, 2);
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('importFiles and importFile (a snapshot): a Cancel while the import waits for the write lock (another tab writing) stores nothing, in the worker and on the page', async () => {
  const env = await setup();
  try {
    await env.page.goto(env.baseURL + 'e2e/fixtures/shim.html');
    await env.page.locator('#status', { hasText: 'ready' }).waitFor({ timeout: 10000 });
    const out = await env.page.evaluate(async (pi) => {
      const results = {};
      // Hold the store's write lock (as another tab's writer), start an import with start(signal),
      // Cancel it once it waits for the lock, let the lock go; resolves to the import's answer.
      const cancelWhileLocked = async (dbName, start) => {
        let release;
        await new Promise((held) => navigator.locks.request(`sessiontree-write:${dbName}`, () => new Promise((letGo) => ((release = letGo), held()))));
        const abort = new AbortController();
        const answer = await start(abort.signal); // resolves once the import is queued behind the lock
        await new Promise((r) => setTimeout(r, 300));
        abort.abort();
        await new Promise((r) => setTimeout(r, 300)); // the abort reaches the worker first
        release();
        return answer.promise;
      };
      for (const worker of [true, false]) {
        const dbName = `abort-lock-${worker}`;
        const tree = await window.sessiontree.init({ dbName, worker });
        const env = await cancelWhileLocked(dbName, async (signal) => {
          // Progress reaches half once every file is read: the import then waits for the lock.
          let read = false;
          const promise = tree.importFiles([{ path: 'p/.pi/agent/sessions/--home-me-cli--/s.jsonl', data: pi }], { signal, onProgress: (p) => (read ||= p.read * 2 >= p.total) });
          while (!read) await new Promise((r) => setTimeout(r, 20));
          return { promise };
        });
        const sessions = (await tree.call({ operation: 'sessions' })).value.length;
        const again = await tree.importFiles([{ path: 'p/.pi/agent/sessions/--home-me-cli--/s.jsonl', data: pi }]);
        // A snapshot file of a session the store does not have (snapshot.load's own path), the same way.
        const snapshot = (await tree.call({ operation: 'snapshot.save', sessionId: 'pi-cli' })).value;
        const file = new Blob([JSON.stringify({ ...snapshot, sessionId: 'pi-copy' })]);
        const snap = await cancelWhileLocked(dbName, async (signal) => ({ promise: tree.importFile(file, { signal }) }));
        const ids = (await tree.call({ operation: 'sessions' })).value.map((s) => s.sessionId);
        results[worker ? 'worker' : 'page'] = { env, sessions, again: again.ok && again.value.sessions.length, snap, ids };
        await tree.close();
      }
      return results;
    }, PI);
    for (const where of ['worker', 'page']) {
      assert.deepEqual(out[where].env, { ok: false, error: { code: 'INVALID_ARGUMENT', message: 'import aborted; nothing was imported' } }, where);
      assert.equal(out[where].sessions, 0, `${where}: nothing stored`);
      assert.equal(out[where].again, 1, `${where}: the next import is stored`);
      assert.deepEqual(out[where].snap, { ok: false, error: { code: 'INVALID_ARGUMENT', message: 'import aborted; nothing was imported' } }, `${where}: snapshot file`);
      assert.deepEqual(out[where].ids, ['pi-cli'], `${where}: the snapshot's session was not stored`);
    }
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});
