// The explorer page (static/index.html) with the real shim and wasm:
// demo session, jump by click, import by file picker with its report,
// snapshot export, reload. Screenshots go to e2e/artifacts/explorer-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { setup, artifactPath, explorerCall, FIXTURES_DIR } from './helpers.mjs';

const FIXTURES = FIXTURES_DIR + '/librechat/';
const CHATGPT_TREE = FIXTURES + 'chatgpt-tree.json';
const CHATGPT_MODERN = FIXTURES + 'chatgpt-modern-export.json';
const TREE_SESSION = 'd5dc5307-6807-41a0-8b04-4acee626eeb7';

const call = explorerCall;

async function open(page, url) {
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]');
}

/** Open the explorer at url and import file with its picker, its report's title `reported` awaited. */
async function openImported(page, url, file, reported) {
  await open(page, url);
  await page.setInputFiles('#import-file', file);
  await page.locator('#report-title', { hasText: reported }).waitFor();
}

/** Texts of the context pane, one per message. */
function contextTexts(page) {
  return page.locator('session-tree-panel .messages .message-body').allTextContents();
}

test('explorer: demo session, jump by click, import with report, export, reload', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1400, height: 820 }, acceptDownloads: true } });
  try {
    const { page, baseURL, errors } = env;
    await open(page, baseURL + 'static/');

    // The demo session was created through the API and is selected.
    const sessions = await call(page, { operation: 'sessions' });
    assert.deepEqual(sessions.map((s) => [s.sessionId, s.nodeCount]), [['demo', 13]]);
    const branches = await call(page, { operation: 'branches', sessionId: 'demo' });
    assert.deepEqual(branches.map((b) => [b.name, b.nodeCount, b.active]), [
      ['main', 7, true],
      ['budget', 2, false],
      ['rainy-day', 3, false],
      ['main-2', 1, false],
    ]);
    assert.equal(await page.locator('.row').count(), 13);
    assert.equal(await page.locator('session-tree-panel .title').textContent(), 'Demo: a long weekend in Lisbon');
    assert.equal(await page.locator('session-tree-panel .head .stats').textContent(), '13 nodes · 4 branches · on main');
    assert.equal(await page.locator('.row.cursor').getAttribute('data-node-id'), branches[0].tip);
    assert.equal(await page.locator('#import-hint').textContent().then((t) => t.includes('Import a ChatGPT or Claude.ai export, an Open WebUI, LibreChat, LobeChat, Chatbot UI or SillyTavern chat, a coding agent\'s history (Claude Code, Codex, Gemini CLI, Cline, OpenCode, Aider, Pi), OpenAI messages, or a snapshot')), true);
    // Forks are drawn: a tee connector for each fork child but the last.
    assert.equal(await page.locator('.row .g-tee').count() > 0, true);
    await page.screenshot({ path: artifactPath('explorer-demo.png') });

    // Clicking the regenerated answer (tip of main-2) previews it; Continue
    // from here jumps there.
    const target = branches.find((b) => b.name === 'main-2').tip;
    await page.locator(`session-tree-panel .row[data-node-id="${target}"]`).click();
    await page.locator('session-tree-panel .act-jump').click();
    await page.locator(`.row.cursor[data-node-id="${target}"]`).waitFor();
    const status = await call(page, { operation: 'session', sessionId: 'demo' });
    assert.deepEqual([status.cursor, status.activeBranch], [target, 'main-2']);
    assert.deepEqual(await contextTexts(page), [
      'You are a friendly travel planner. Keep answers short and practical.',
      'I have a long weekend in Lisbon in May (Friday to Monday). What should I not miss?',
      'Three days is a good length. Friday: Alfama and the castle, then fado in the evening. Saturday: Belém — the monastery, the tower and a pastel de nata at the old bakery. Sunday: a day trip to Sintra (Pena Palace and Quinta da Regaleira). Monday morning: LX Factory before you fly.',
      'Sintra sounds rushed. Can you make Sunday more relaxed?',
      'Go on Saturday instead and split it: Sintra in the morning, Cascais by the sea in the afternoon, back by train along the coast.',
    ]);

    // The budget branch shows its image part as a placeholder, never fetched.
    const budgetTip = branches.find((b) => b.name === 'budget').tip;
    await page.locator(`session-tree-panel .row[data-node-id="${budgetTip}"]`).click();
    await page.locator('session-tree-panel .act-jump').click();
    await page.locator(`.row.cursor[data-node-id="${budgetTip}"]`).waitFor();
    assert.equal(await page.locator('session-tree-panel .messages .placeholder.image').textContent(), '[image https://example.com/photos/hostel-room.jpg — not loaded]');
    assert.equal(await page.locator('session-tree-panel .messages img').count(), 0);

    // An append made by other code on the page shows at once.
    await call(page, { operation: 'append', sessionId: 'demo', message: { role: 'user', content: 'Appended from devtools' } });
    await page.locator('.row.cursor .preview', { hasText: 'Appended from devtools' }).waitFor();
    // The panel draws the row before its context pane: wait for the message there.
    await page.locator('session-tree-panel .messages .message-body', { hasText: 'Appended from devtools' }).waitFor();
    assert.equal((await contextTexts(page)).at(-1), 'Appended from devtools');

    // Import by the file picker: the ChatGPT tree export.
    await page.setInputFiles('#import-file', CHATGPT_TREE);
    await page.locator('#report-title', { hasText: 'Imported 1 session' }).waitFor();
    await page.locator('session-tree-panel .title', { hasText: 'Assist user with summary' }).waitFor();
    const imported = (await call(page, { operation: 'sessions' })).find((s) => s.sessionId === TREE_SESSION);
    assert.equal(imported.nodeCount, 12);
    assert.equal(await page.locator('.row').count(), 12);
    assert.equal(await page.locator('.row.cursor').getAttribute('data-node-id'), imported.cursor);
    assert.equal(await page.locator('#report-warnings li').count(), 0);
    assert.equal(await page.locator('#session-list .session.selected .session-title').textContent(), 'Assist user with summary');
    // A context card naming its model keeps its branch name whole; the model name gives way (its whole name in the tooltip).
    await page.locator('session-tree-panel .message-head .model').first().waitFor();
    const heads = await page.locator('session-tree-panel .message-head:has(.model)').evaluateAll((hs) => hs.map((h) => {
      const b = h.querySelector('.branch-name');
      const m = h.querySelector('.model');
      return { branch: b.textContent, whole: b.scrollWidth <= b.clientWidth, model: m.title };
    }));
    assert.ok(heads.length >= 3, `${heads.length} cards with a model`);
    for (const h of heads) assert.deepEqual(h, { branch: 'main', whole: true, model: 'model text-davinci-002-render-sha' });
    await page.screenshot({ path: artifactPath('explorer-import.png') });
    // The same file again adds nothing, and the report says so.
    await page.locator('#report-close').click();
    await page.setInputFiles('#import-file', []);
    await page.setInputFiles('#import-file', CHATGPT_TREE);
    await page.locator('#report-title', { hasText: 'Already here: 1 session, nothing new' }).waitFor();
    assert.match(await page.locator('#report-sessions .report-session-size').first().textContent(), /^12 nodes · 3 branches · already here, nothing new$/);
    assert.equal((await call(page, { operation: 'sessions' })).find((s) => s.sessionId === TREE_SESSION).nodeCount, 12);
    // An empty file is named as such, in the user's words.
    await page.locator('#report-close').click();
    await page.setInputFiles('#import-file', { name: 'empty.json', mimeType: 'application/json', buffer: Buffer.alloc(0) });
    await page.locator('#report-title', { hasText: 'Nothing imported' }).waitFor();
    assert.deepEqual(await page.locator('#report-warnings li').allTextContents(), ['empty.json: the file is empty: nothing to import']);

    // The modern export: two conversations, a warning for the one without mapping.
    await page.setInputFiles('#import-file', CHATGPT_MODERN);
    await page.locator('#report-title', { hasText: 'Imported 2 sessions' }).waitFor();
    const names = await page.locator('#report-sessions .report-session-title').allTextContents();
    assert.deepEqual(names, ['Deploying the staging cluster', 'Weeknight pasta']);
    assert.match(await page.locator('#report-sessions .report-session-size').first().textContent(), /^5 nodes/);
    // The conversation without mapping: named with its reason (under "skipped" when the core
    // reports skipped conversations, else as a warning), and listed once.
    const skippedText = 'has no messages (its "mapping" is missing); skipped'; // the label names the conversation
    const listed = [...(await page.locator('#report-skipped li .warning-text').allTextContents()), ...(await page.locator('#report-warnings li .warning-text').allTextContents())];
    assert.deepEqual(listed, [skippedText]);
    await page.screenshot({ path: artifactPath('explorer-report.png') });
    await page.locator('#report-close').click();
    assert.equal(await page.locator('#import-report').isHidden(), true);

    // Export: the download is the session's snapshot.save value.
    const selected = await page.evaluate(() => window.explorer.state.selected);
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#export-button').click().then(() => page.locator('#export-list [data-format="snapshot"]').click())]);
    assert.equal(download.suggestedFilename(), `${selected}.snapshot.json`);
    await page.locator('#status', { hasText: `Exported a snapshot of the whole session as \u2068${selected}.snapshot.json\u2069` }).waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'export-button', 'the chosen item went with its menu: focus on Export, not <body>');
    // The menu's keys (WAI-ARIA's menu button): End and Home reach the last and first items; Tab closes it and goes on from Export.
    await page.keyboard.press('Enter');
    await page.locator('#export-list').waitFor();
    const focusedItem = () => page.evaluate(() => document.activeElement.dataset.format ?? document.activeElement.id);
    const formats = await page.locator('#export-list button').evaluateAll((bs) => bs.filter((b) => b.checkVisibility()).map((b) => b.dataset.format));
    assert.equal(await focusedItem(), formats[0]);
    await page.keyboard.press('End');
    assert.equal(await focusedItem(), formats.at(-1));
    await page.keyboard.press('Home');
    assert.equal(await focusedItem(), formats[0]);
    const after = await page.evaluate(() => { const all = [...document.querySelectorAll('button, input, select, a[href], [tabindex="0"]')].filter((e) => e.checkVisibility() && !e.disabled && !e.closest('#export-list')); return all[all.indexOf(document.getElementById('export-button')) + 1]?.id; });
    assert.ok(after, 'a control with an id follows Export');
    await page.keyboard.press('Tab');
    await page.locator('#export-list').waitFor({ state: 'hidden' });
    assert.equal(await page.evaluate(() => document.activeElement.id), after, 'Tab went on from Export, the menu closed');
    const text = fs.readFileSync(await download.path(), 'utf8');
    const saved = await call(page, { operation: 'snapshot.save', sessionId: selected });
    assert.deepEqual(JSON.parse(text), saved);
    // Byte-exact, not re-encoded by JSON.parse: the export's own numbers keep their digits.
    assert.equal(text.includes('"create_time":1756000001.0,'), true);

    // The core's other export formats, when it has them: Markdown of the cursor path.
    if ((await page.locator('#export-list [data-format="markdown"]').count()) === 1) {
      const [md] = await Promise.all([page.waitForEvent('download'), page.locator('#export-button').click().then(() => page.locator('#export-list [data-format="markdown"]').click())]);
      const exported = await call(page, { operation: 'export', sessionId: selected, format: 'markdown' });
      const title = await page.locator(`#session-list li[data-session-id="${selected}"] .session-title`).textContent();
      const named = await page.evaluate(async ([id, t]) => (await import('/static/explorer-export.js')).readableFileName(id, t, '.md'), [selected, title]);
      assert.equal(md.suggestedFilename(), named, `named by its title (the core's name: ${exported.filename})`);
      assert.ok(named.startsWith(title.slice(0, 10)), named);
      assert.equal(fs.readFileSync(await md.path(), 'utf8'), exported.text);
      assert.match(exported.text, /How do I roll back the deploy\?/);
    }

    // Reload: every session, the selection and the cursors are back.
    const before = await call(page, { operation: 'sessions' });
    const demoBefore = await call(page, { operation: 'session', sessionId: 'demo' });
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    // (`sessions` lists them in restore order after a reload: compare by id.)
    const byId = (list) => [...list].sort((a, b) => (a.sessionId < b.sessionId ? -1 : 1));
    assert.deepEqual(byId(await call(page, { operation: 'sessions' })), byId(before));
    assert.deepEqual(await call(page, { operation: 'session', sessionId: 'demo' }), demoBefore);
    assert.equal(await page.evaluate(() => window.explorer.state.selected), selected);
    assert.equal(await page.locator('#session-list .session').count(), 4);
    await page.locator('#session-list .session-button', { hasText: 'Demo: a long weekend in Lisbon' }).click();
    await page.locator('session-tree-panel .title', { hasText: 'Demo: a long weekend in Lisbon' }).waitFor();
    assert.equal(await page.locator('.row').count(), 14);
    assert.equal(await page.locator('.row.cursor .preview').textContent(), 'Appended from devtools');

    assert.deepEqual(errors, [], 'no console errors, page errors or dialogs');
  } finally {
    await env.close();
  }
});

test('explorer: dark theme and the drop overlay render', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1400, height: 820 }, colorScheme: 'dark' } });
  try {
    const { page, baseURL, errors } = env;
    await open(page, baseURL + 'static/');
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.equal(bg, 'rgb(15, 18, 23)');
    await page.screenshot({ path: artifactPath('explorer-dark.png') });

    // Drag-and-drop of a snapshot file onto the page imports it.
    const snapshot = JSON.stringify({
      version: 1,
      sessionId: 'dropped',
      cursor: 'n2',
      activeBranch: 'main',
      nodes: [
        { id: 'n1', parentId: null, branch: 'main', kind: 'message', timestamp: '2026-01-02T03:04:05.000Z', message: { role: 'user', content: 'dropped <b>not bold</b>' } },
        { id: 'n2', parentId: 'n1', branch: 'main', kind: 'message', timestamp: '2026-01-02T03:04:06.000Z', message: { role: 'assistant', content: 'ok' } },
      ],
    });
    const dt = await page.evaluateHandle((text) => {
      const d = new DataTransfer();
      d.items.add(new File([text], 'dropped.snapshot.json', { type: 'application/json' }));
      return d;
    }, snapshot);
    await page.dispatchEvent('body', 'dragenter', { dataTransfer: dt });
    assert.equal(await page.locator('#drop-overlay').isVisible(), true);
    await page.screenshot({ path: artifactPath('explorer-drop.png') });
    await page.dispatchEvent('body', 'drop', { dataTransfer: dt });
    await page.locator('session-tree-panel .title', { hasText: 'dropped' }).waitFor();
    assert.equal(await page.locator('#drop-overlay').isHidden(), true);
    // The panel draws the tree and its head first, the context after a
    // paint (static/panel-loader.js _load): wait for it, then read it all.
    await page.locator('session-tree-panel .messages .message-body', { hasText: 'not bold' }).waitFor();
    assert.deepEqual(await contextTexts(page), ['dropped <b>not bold</b>', 'ok']);
    assert.equal(await page.locator('session-tree-panel .messages b').count(), 0);
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('explorer: search over every session highlights hits and opens them', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1400, height: 820 } } });
  try {
    const { page, baseURL, errors } = env;
    await open(page, baseURL + 'static/');
    // The box is offered because the tree has `search` (tree.hasOperation).
    assert.equal(await page.evaluate(() => window.explorer.tree.hasOperation('search')), true);
    assert.equal(await page.locator('#global-search-box').isVisible(), true);
    await page.setInputFiles('#import-file', CHATGPT_TREE);
    await page.locator('#report-title', { hasText: 'Imported 1 session' }).waitFor();
    await page.locator('#report-close').click();
    await page.locator('#global-search').fill('Chiado');
    await page.locator('#global-hits li[role="option"]').first().waitFor();
    const first = page.locator('#global-hits li[role="option"]').first();
    assert.equal(await first.getAttribute('data-session-id'), 'demo');
    assert.deepEqual(await first.locator('mark').allTextContents(), ['Chiado']);
    assert.match(await first.locator('.hit-session').textContent(), /^\u2068Demo: a long weekend in Lisbon\u2069 · assistant · main$/);
    // The results are wider than the box (a snippet needs the room; they were as narrow as the box) and stay in the window.
    for (const width of [1400, 1000, 760]) {
      await page.setViewportSize({ width, height: 820 });
      const [box, hits] = [await page.locator('#global-search').boundingBox(), await page.locator('#global-hits').boundingBox()];
      assert.ok(hits.width >= Math.min(560, width - 24) - 1 || hits.width >= box.width, `${width}: results ${hits.width} px wide, the box ${box.width}`);
      assert.ok(hits.width > box.width || box.width >= 560, `${width}: the results (${hits.width} px) are wider than the box (${box.width} px)`);
      assert.ok(hits.x >= 0 && hits.x + hits.width <= width, `${width}: the results span ${hits.x}…${hits.x + hits.width}`);
    }
    await page.setViewportSize({ width: 1400, height: 820 });
    await page.screenshot({ path: artifactPath('explorer-search.png') });
    await page.locator('#global-search').press('Enter');
    await page.locator('session-tree-panel .title', { hasText: 'Demo: a long weekend in Lisbon' }).waitFor();
    const nodeId = await first.getAttribute('data-node-id').catch(() => null);
    const active = await page.evaluate(() => window.explorer.panel.selectedNodeId);
    const rows = (await call(page, { operation: 'tree', sessionId: 'demo' })).rows;
    assert.equal(rows.find((r) => r.id === active).preview.includes('Chiado'), true);
    assert.equal(nodeId === null || nodeId === active, true);
    // A hit on another branch than the cursor's opens as a click on its row
    // does: its path is the one the context pane shows (it showed the cursor's).
    const cursorBefore = (await call(page, { operation: 'session', sessionId: 'demo' })).cursor;
    await page.locator('#global-search').fill('Gulbenkian');
    await page.locator('#global-hits li[role="option"]', { hasText: 'Gulbenkian' }).first().waitFor();
    await page.locator('#global-search').press('Enter');
    await page.waitForFunction(() => /Gulbenkian/.test(document.querySelector('#panel')?.shadowRoot?.querySelector('.messages .message:last-child .message-body')?.textContent ?? ''));
    const viewed = await page.evaluate(() => window.explorer.panel._model.viewNode);
    assert.match(rows.find((r) => r.id === viewed)?.preview ?? '', /Gulbenkian/, 'the hit is the node viewed');
    assert.notEqual(viewed, cursorBefore);
    assert.equal((await call(page, { operation: 'session', sessionId: 'demo' })).cursor, cursorBefore, 'the cursor stays where it was');
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('explorer: search over every session finds sessions by title, typos and accents forgiven, above the messages', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1400, height: 820 } } });
  try {
    const { page, baseURL, errors } = env;
    await openImported(page, baseURL + 'static/', CHATGPT_MODERN, 'Imported 2 sessions');
    await page.locator('#report-close').click();
    await call(page, { operation: 'create', sessionId: 'dessert', title: 'Crème brûlée à la maison' });
    await call(page, { operation: 'append', sessionId: 'dessert', message: { role: 'user', content: 'How long in the oven?' } });
    await page.evaluate(() => window.explorer.refresh());
    const list = page.locator('#global-hits');
    /** The dropdown as lines: a heading as "# text", an item as "session-id[@node]: its lines". */
    const lines = () => list.locator('li').evaluateAll((ls) => ls.map((l) => (l.getAttribute('role') === 'option'
      ? `${l.dataset.sessionId}${l.dataset.nodeId ? '@' : ''}: ${[...l.children].map((c) => c.textContent).join(' | ')}`
      : `# ${l.textContent}`)));
    // Emptied first, so the dropdown shown is the query's, once its messages are searched.
    const search = async (query) => {
      await page.locator('#global-search').fill('');
      await list.waitFor({ state: 'hidden' });
      await page.locator('#global-search').fill(query);
      await page.locator('#global-hits[aria-busy="false"]').waitFor();
    };

    // Accents and case folded; the words marked on the title as written; the session has no message about it.
    await search('creme BRULEE');
    assert.deepEqual(await lines(), ['# 1 session by title', 'dessert: Crème brûlée à la maison | 1 node · just now', '# No matches in messages']);
    assert.deepEqual(await list.locator('.title-hit mark').allTextContents(), ['Crème', 'brûlée']);
    assert.equal(await list.locator('.title-hit').getAttribute('title'), 'dessert', 'the id is the tooltip');
    await page.screenshot({ path: artifactPath('explorer-search-titles.png') });

    // A typo in a title's word; the messages the core finds follow, under their own heading.
    const staging = '6b0f0d9c-0000-4000-8000-000000000001';
    await search('stagnig');
    const got = await lines();
    assert.deepEqual(got.slice(0, 2), ['# 1 session by title', `${staging}: Deploying the staging cluster | ChatGPT · 5 nodes · ${got[1].slice(-10)}`]);
    assert.match(got[1], /· \d{4}-\d\d-\d\d$/, 'an old session: its date');
    assert.deepEqual(await list.locator('.title-hit mark').allTextContents(), ['staging']);
    assert.match(got[2], /^# \d+ match(es)? in messages$/);
    assert.ok(got.length > 3 && got.slice(3).every((l) => l.startsWith(`${staging}@: \u2068Deploying the staging cluster\u2069 · `)), got.join('\n'));
    assert.ok(got.some((l) => /helm rollback staging/.test(l)), got.join('\n'));
    assert.equal(await list.locator('.hits-head.group').count(), 1);

    // Arrows walk the items over the headings; Enter opens a session found by title.
    await page.locator('#global-search').press('ArrowDown');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.nodeId ?? 'session'), 'session');
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.evaluate(() => typeof document.activeElement.dataset.nodeId), 'string', 'the first message, past its heading');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await page.locator('session-tree-panel .title', { hasText: 'Deploying the staging cluster' }).waitFor();
    assert.equal(await list.isHidden(), true);
    assert.equal(await page.locator('#session-list li.selected').getAttribute('data-session-id'), staging);

    // The start of an id finds its session (the id shown); a click opens it.
    const pasta = '6b0f0d9c-0000-4000-8000-000000000003';
    await search(pasta.slice(0, 36));
    assert.deepEqual((await lines()).slice(0, 2), ['# 1 session by title', `${pasta}: Weeknight pasta | ${pasta} · ChatGPT · 2 nodes · 2025-08-24`]);
    await list.locator('.title-hit').click();
    await page.locator('session-tree-panel .title', { hasText: 'Weeknight pasta' }).waitFor();

    // Enter in the box opens the best title.
    await page.locator('#global-search').fill('Crème brûlée à la maison');
    await page.locator('#global-search').press('Enter');
    await page.locator('session-tree-panel .title', { hasText: 'Crème brûlée à la maison' }).waitFor();

    // The dropdown in light and dark, wide and on a phone.
    for (const [width, height] of [[1400, 820], [390, 844]]) {
      await page.setViewportSize({ width, height });
      for (const scheme of ['light', 'dark']) {
        await page.emulateMedia({ colorScheme: scheme });
        await search('stagnig');
        await page.screenshot({ path: artifactPath(`explorer-search-titles-${width}-${scheme}.png`) });
      }
    }
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('explorer: a search over every session names a session whose stored records cannot be read, and finds the rest', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1400, height: 820 } } });
  try {
    const { page, baseURL, errors } = env;
    await openImported(page, baseURL + 'static/', CHATGPT_MODERN, 'Imported 2 sessions');
    await page.evaluate(() => window.explorer.tree.flush());
    // Damaged outside sessiontree: the pasta session's meta says more nodes than are stored.
    await page.evaluate(async () => {
      const req = (r) => new Promise((resolve, reject) => ((r.onsuccess = () => resolve(r.result)), (r.onerror = () => reject(r.error))));
      const db = await req(indexedDB.open('sessiontree'));
      const store = db.transaction('sessions', 'readwrite').objectStore('sessions');
      const meta = await req(store.get('6b0f0d9c-0000-4000-8000-000000000003'));
      await req(store.put({ ...meta, nodeCount: meta.nodeCount + 5, tail: false }, meta.sessionId));
      db.close();
    });
    await open(page, baseURL + 'static/');
    await page.locator('#global-search').fill('the');
    await page.locator('#global-hits[aria-busy="false"]').waitFor();
    const last = page.locator('#global-hits li.error');
    assert.equal(await page.locator('#global-hits li').evaluateAll((ls) => ls.findIndex((l) => l.classList.contains('error'))), 3, 'under the heading of the messages, over their hits');
    assert.equal(await last.textContent(), 'Not searched: “\u2068Weeknight pasta\u2069”: its stored records cannot be read (open it to see why, or move it to the trash)');
    assert.match(await last.getAttribute('title'), /session "6b0f0d9c-0000-4000-8000-000000000003" has .* but its metadata says \d+ nodes/);
    const sessions = await page.locator('#global-hits li[role="option"]').evaluateAll((ls) => [...new Set(ls.map((l) => l.dataset.sessionId))]);
    assert.ok(sessions.includes('6b0f0d9c-0000-4000-8000-000000000001'), sessions.join());
    assert.ok(!sessions.includes('6b0f0d9c-0000-4000-8000-000000000003'), sessions.join());
    await page.screenshot({ path: artifactPath('explorer-search-skipped.png') });
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('explorer: "/" from anywhere on the page focuses the session\'s search box; on a phone\'s sessions pane, the box over every session', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1280, height: 800 } } });
  try {
    const { page, baseURL, errors } = env;
    await open(page, baseURL + 'static/');
    await page.locator('#sessions-pane h2').click(); // focus on the page, outside the panel
    await page.keyboard.press('/');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'panel');
    assert.equal(await page.evaluate(() => document.activeElement.shadowRoot.activeElement?.className), 'search', 'the panel\'s search box has focus');
    // Typed into a box, "/" is a character.
    await page.locator('#session-filter').focus();
    await page.keyboard.type('a/b');
    assert.equal(await page.locator('#session-filter').inputValue(), 'a/b');
    await page.locator('#session-filter').fill('');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('#tab-sessions').click();
    await page.keyboard.press('/');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'global-search');
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});
