// Import in the page: real Claude Code and Open WebUI exports dropped on
// the explorer and through the shim's tree.importText, and a large export
// read in slices with progress events while the page keeps running.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { setup, artifactPath, FIXTURES_DIR, openExplorer } from './helpers.mjs';

const FIXTURES = FIXTURES_DIR;

function fixture(name) {
  const file = path.join(FIXTURES, name);
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
}

async function openShim(env) {
  await env.page.goto(env.baseURL + 'e2e/fixtures/shim.html');
  await env.page.locator('#status', { hasText: 'ready' }).waitFor();
}

test('import: a Claude Code transcript and an Open WebUI export become sessions with a report', async (t) => {
  const claude = fixture('claude-code/dag_compact_after_rewind.jsonl');
  const owui = fixture('librechat/openwebui-export.json');
  if (!claude || !owui) return t.skip('fixtures are not on this machine');
  const env = await setup();
  try {
    await openShim(env);
    const out = await env.page.evaluate(async ({ claude, owui }) => {
      const tree = await window.sessiontree.init({ dbName: 'import-test' });
      const a = await tree.importText(claude);
      const b = await tree.importText(owui, 'auto', { onProgress: () => {} });
      const again = await tree.importText(owui);
      const ctx = await tree.call({ operation: 'context', sessionId: 's1' });
      const sessions = await tree.call({ operation: 'sessions' });
      return { a, b, again, ctx, sessions };
    }, { claude, owui });

    assert.equal(out.a.ok, true);
    assert.equal(out.a.value.format, 'claude-code');
    assert.deepEqual(out.a.value.sessions.map((s) => [s.sessionId, s.nodeCount, s.cursor, s.branchCount, s.rootCount]), [['s1', 12, 'p1a', 2, 1]]);
    assert.deepEqual(out.a.value.skipped, []);
    assert.deepEqual(out.a.value.warnings, [], 'a Claude Code transcript names no current message by design: its newest leaf is the cursor, unreported');

    assert.equal(out.b.ok, true);
    assert.equal(out.b.value.format, 'openwebui');
    assert.deepEqual(out.b.value.sessions.map((s) => s.sessionId), ['reasoning-chat', 'tool-chat', 'simple-chat']);
    // A second import of the same file adds nothing and says so.
    assert.equal(out.again.ok, true);
    assert.deepEqual(out.again.value.sessions.map((s) => [s.sessionId, s.existing, s.added]),
      [['reasoning-chat', true, 0], ['tool-chat', true, 0], ['simple-chat', true, 0]]);

    assert.equal(out.ctx.value.cursor, 'p1a');
    // After the compact boundary Claude Code sends the summary and what follows.
    assert.equal(out.ctx.value.messages.length, 3);
    assert.deepEqual(out.sessions.value.map((s) => s.sessionId).sort(), ['reasoning-chat', 's1', 'simple-chat', 'tool-chat']);

    // The imported sessions are durable: a new page restores them.
    const page2 = await env.newPage();
    await page2.goto(env.baseURL + 'e2e/fixtures/shim.html');
    await page2.locator('#status', { hasText: 'ready' }).waitFor();
    const restored = await page2.evaluate(async () => {
      const tree = await window.sessiontree.init({ dbName: 'import-test' });
      return (await tree.call({ operation: 'session', sessionId: 'tool-chat' })).value;
    });
    assert.equal(restored.nodeCount, 2);
    assert.equal(restored.cursor, 'ta2');
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('import: a large export is read in slices with progress while the page keeps running', async () => {
  const env = await setup();
  try {
    await openShim(env);
    const out = await env.page.evaluate(async () => {
      // An Open WebUI export of 400 chats × 60 messages (~12 MB).
      const chats = [];
      const filler = 'x'.repeat(400);
      for (let c = 0; c < 400; c++) {
        const messages = {};
        for (let m = 0; m < 60; m++) {
          const id = `c${c}m${m}`;
          messages[id] = { id, parentId: m ? `c${c}m${m - 1}` : null, childrenIds: m < 59 ? [`c${c}m${m + 1}`] : [], role: m % 2 ? 'assistant' : 'user', content: `message ${m} ${filler}`, timestamp: 1700000000 + m };
        }
        chats.push({ id: `chat${c}`, title: `chat ${c}`, chat: { history: { currentId: `c${c}m59`, messages } } });
      }
      const text = JSON.stringify(chats);
      const tree = await window.sessiontree.init({ persist: false });
      const progress = [];
      let beats = 0;
      let maxGap = 0;
      let last = performance.now();
      const timer = setInterval(() => {
        const now = performance.now();
        maxGap = Math.max(maxGap, now - last);
        last = now;
        beats++;
      }, 0);
      const t0 = performance.now();
      const env = await tree.importText(text, 'auto', { onProgress: (p) => progress.push(p) });
      const ms = performance.now() - t0;
      clearInterval(timer);
      return { bytes: text.length, ok: env.ok, sessions: env.ok ? env.value.sessions.length : env.error, progress, beats, maxGap, ms };
    });
    assert.equal(out.ok, true);
    assert.equal(out.sessions, 400);
    assert.ok(out.progress.length > 5, `progress events: ${out.progress.length}`);
    for (let i = 1; i < out.progress.length; i++) assert.ok(out.progress[i].read >= out.progress[i - 1].read);
    const lastP = out.progress.at(-1);
    assert.equal(lastP.read, lastP.total);
    assert.ok(out.beats > 5, 'timers ran during the import');
    console.log(`# imported ${(out.bytes / 1e6).toFixed(1)} MB in ${out.ms.toFixed(0)} ms, ${out.progress.length} slices, longest gap between timer ticks ${out.maxGap.toFixed(0)} ms`);
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('import: dropping a Claude Code transcript and an Open WebUI export on the explorer shows the report and opens the sessions', async (t) => {
  const claude = fixture('claude-code/sidechain_integrated.jsonl');
  const owui = fixture('librechat/openwebui-export.json');
  if (!claude || !owui) return t.skip('fixtures are not on this machine');
  const env = await setup({ contextOptions: { viewport: { width: 1400, height: 820 } } });
  try {
    const { page, baseURL, errors } = env;
    await page.goto(baseURL + 'static/');
    await page.waitForSelector('body[data-ready="true"]');
    const dt = await page.evaluateHandle(({ claude, owui }) => {
      const d = new DataTransfer();
      d.items.add(new File([claude], 'sidechain_integrated.jsonl', { type: '' }));
      d.items.add(new File([owui], 'openwebui-export.json', { type: 'application/json' }));
      return d;
    }, { claude, owui });
    await page.dispatchEvent('body', 'dragenter', { dataTransfer: dt });
    await page.dispatchEvent('body', 'drop', { dataTransfer: dt });
    await page.locator('#report-title', { hasText: 'Imported 4 sessions' }).waitFor();

    const rows = await page.locator('#report-sessions li').allTextContents();
    assert.equal(rows.length, 4);
    assert.match(rows[0], /6 nodes/);
    assert.match(rows[1], /^Chat with reasoning/);
    const warnings = await page.locator('#report-warnings li').allTextContents();
    assert.equal(warnings.length, 2, warnings.join('\n')); // a transcript names no current message by design: not reported
    assert.match(warnings[0], /names parent "8ae40e91-fa63-40a9-969d-70c0c1d6175e", which is not in the conversation; it becomes a root/);
    // The transcript lacks its first prompt: it is titled by its sub-agent's task (the Task call's
    // description), and its warning's session is named by that title, the id its tooltip.
    assert.match(rows[0], /^Research data-border-color usage and CSS class mat\.\.\./);
    const label = page.locator('#report-warnings li').first().locator('.warning-session');
    assert.deepEqual(await label.evaluate((l) => [l.tagName, l.textContent, l.title, l.dataset.sessionId]), ['SPAN', 'Research data-border-color usage and CSS class mat...', '88a8d761-7b9a-4bf1-a8ca-c1febe6bf358', '88a8d761-7b9a-4bf1-a8ca-c1febe6bf358']);

    // Open the Claude Code session: its cursor path is in the context pane.
    await page.locator('#session-list li[data-session-id="88a8d761-7b9a-4bf1-a8ca-c1febe6bf358"] .session-button').click();
    await page.locator('session-tree-panel .row.cursor[data-node-id="91c82c1c-29b0-4149-a261-e5582d944ac6"]').waitFor();
    assert.equal(await page.locator('session-tree-panel .row').count(), 6);
    // The context pane is drawn after the rows (until then it shows the session shown before): wait for this one's.
    await page.locator('session-tree-panel .messages .message-body', { hasText: 'Excellent research!' }).first().waitFor();
    const texts = await page.locator('session-tree-panel .messages .message-body').allTextContents();
    assert.equal(texts.length, 3);
    assert.match(texts[2], /Excellent research!/);

    // And an Open WebUI chat.
    await page.locator('#session-list li[data-session-id="tool-chat"] .session-button').click();
    await page.locator('session-tree-panel .title', { hasText: 'Chat with tool call' }).waitFor();
    await page.locator('session-tree-panel .messages .message-body', { hasText: 'weather in Paris' }).first().waitFor();
    const chat = await page.locator('session-tree-panel .messages .message-body').allTextContents();
    assert.deepEqual(chat.length, 2);
    assert.equal(chat[0], "What's the weather in Paris?");
    assert.match(chat[1], /The weather in Paris is 18C with rain\./);
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('import in the explorer: an export saved as UTF-16, and the OpenAI messages file of the Export menu, become sessions', async () => {
  const owui = fixture('librechat/openwebui-export.json');
  assert.ok(owui, 'the Open WebUI fixture is on this machine');
  const { openExplorer, explorerCall } = await import('./helpers.mjs');
  const env = await setup({ contextOptions: { viewport: { width: 1366, height: 850 } } });
  try {
    const { page, baseURL, errors } = env;
    await openExplorer(page, baseURL);
    // UTF-16 LE with its byte order mark, as PowerShell's > writes it.
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(owui, 'utf16le')]);
    await page.setInputFiles('#import-file', { name: 'openwebui-utf16.json', mimeType: 'application/json', buffer: utf16 });
    await page.locator('#report-title', { hasText: 'Imported 3 sessions' }).waitFor();
    assert.deepEqual(await page.locator('#report-warnings li').allTextContents(), ['the file is UTF-16 (little-endian); it was read as such']);
    const ids = (await explorerCall(page, { operation: 'sessions' })).map((s) => s.sessionId);
    assert.deepEqual(['reasoning-chat', 'tool-chat', 'simple-chat'].filter((id) => ids.includes(id)), ['reasoning-chat', 'tool-chat', 'simple-chat']);
    await page.locator('#report-close').click();

    // The demo's path as OpenAI messages, imported back: a session with the same context.
    const exported = await explorerCall(page, { operation: 'export', sessionId: 'demo', format: 'openai' });
    const demo = await explorerCall(page, { operation: 'context', sessionId: 'demo' });
    await page.setInputFiles('#import-file', []);
    await page.setInputFiles('#import-file', { name: exported.filename, mimeType: 'application/json', buffer: Buffer.from(exported.text) });
    await page.locator('#report-title', { hasText: 'Imported 1 session' }).waitFor();
    const made = (await explorerCall(page, { operation: 'sessions' })).find((s) => s.sessionId.startsWith('openai-'));
    assert.ok(made, 'an openai- session was made');
    const back = await explorerCall(page, { operation: 'context', sessionId: made.sessionId });
    assert.deepEqual(back.messages, demo.messages);
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('import in the explorer: a warning names its session by title, the id its tooltip, and says the rest once', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1400, height: 820 } } });
  try {
    const { page, baseURL, errors } = env;
    await page.goto(baseURL + 'static/');
    await page.waitForSelector('body[data-ready="true"]');
    const id = '0b7f3c2e-5d41-4a8e-9c3b-2f6d7e8a9b10';
    const line = (o) => JSON.stringify({ sessionId: id, timestamp: '2025-10-09T08:53:56.974Z', ...o });
    const transcript = [
      line({ type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'Plan the sidechain refactor' } }),
      line({ type: 'assistant', uuid: 'a1', parentUuid: 'u1', message: { role: 'assistant', content: [{ type: 'text', text: 'Start with the parser.' }] } }),
      line({ type: 'user', uuid: 'u2', parentUuid: 'a1' }),
    ].join('\n');
    await page.setInputFiles('#import-file', { name: `${id}.jsonl`, mimeType: '', buffer: Buffer.from(transcript) });
    await page.locator('#report-title', { hasText: 'Imported 1 session' }).waitFor();
    const items = await page.locator('#report-warnings li').evaluateAll((ls) => ls.map((l) => {
      const label = l.querySelector('.warning-session');
      return [label.tagName, label.textContent, label.title, l.querySelector('.warning-text').textContent];
    }));
    assert.deepEqual(items, [['SPAN', 'Plan the sidechain refactor', id, 'line 3: record "u2" has an unusable message (its message must be a JSON object); it is kept as a custom entry that does not reach the model']]);
    assert.equal(await page.locator('#report-sessions .report-session-title').getAttribute('title'), id);
    await page.locator('#import-report').screenshot({ path: artifactPath('import-report-titles.png') });
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('the import report covers no control: it sits in the page\'s flow under the top bar, and a control focused by keyboard shows whole', async () => {
  for (const [width, height, scheme] of [[1280, 800, 'light'], [1280, 800, 'dark'], [390, 844, 'light'], [390, 844, 'dark']]) {
    const env = await setup({ contextOptions: { viewport: { width, height }, colorScheme: scheme } });
    try {
      const { page, baseURL, errors } = env;
      const panel = await openExplorer(page, baseURL);
      const messages = [{ role: 'user', content: 'Hello there' }, { role: 'assistant', content: 'Hi! How can I help?' }, { role: 'user', content: 'Plan a trip' }];
      await page.locator('#import-file').setInputFiles({ name: 'chat.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(messages)) });
      await page.locator('#report-title', { hasText: 'Imported 1 session' }).waitFor();
      await panel.locator('.row.cursor', { hasText: 'Plan a trip' }).waitFor();
      // Every control that can take focus, in the page and in the panel, drawn and outside the report: none under it.
      const covered = await page.evaluate(() => {
        const report = document.getElementById('import-report');
        const r = report.getBoundingClientRect();
        const under = [];
        for (const root of [document, document.getElementById('panel').shadowRoot]) {
          for (const e of root.querySelectorAll('button, input, select, textarea, a[href], [tabindex]')) {
            const b = e.getBoundingClientRect();
            if (report.contains(e) || b.width === 0 || b.height === 0 || !e.checkVisibility({ visibilityProperty: true })) continue;
            if (b.left < r.right && b.right > r.left && b.top < r.bottom && b.bottom > r.top) under.push(`${e.localName}.${e.className} ${e.textContent.trim().slice(0, 20)}`);
          }
        }
        return under;
      });
      assert.deepEqual(covered, [], `controls under the report at ${width}x${height}`);
      // Focus moved by keyboard to the control at the foot of the pane (the composer's Send; on a phone, Branch…): nothing is over it.
      const foot = width < 700 ? panel.locator('.actions .act-branch') : panel.locator('.composer-send');
      await foot.focus();
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Tab');
      assert.equal(await foot.evaluate((e) => e.getRootNode().activeElement === e), true);
      assert.equal(await foot.evaluate((e) => {
        const b = e.getBoundingClientRect();
        return e.getRootNode().elementFromPoint(b.left + b.width / 2, b.top + b.height / 2) === e;
      }), true, 'the focused control is the one seen at its place');
      await page.screenshot({ path: artifactPath(`import-report-${width}x${height}-${scheme}.png`) });
      assert.deepEqual(errors, []);
    } finally {
      await env.close();
    }
  }
});
