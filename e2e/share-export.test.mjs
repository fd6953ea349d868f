// The share file (static/share-export.js, share-viewer.js): a session
// exported from the explorer's Export menu as one HTML file, saved to a
// temporary folder and opened from file:// in Chromium with JavaScript on
// and the network off. It shows the whole tree (the same rows, in the same
// order, as the store's own `tree`), the context of a node selected in it
// (the same messages as `context` after a jump there), and its search finds
// a message by a word in it; the page asks for nothing but its own file.
// A session whose ids, branch names, roles, labels, title and messages
// hold XSS payloads runs no script in the file (with its CSP, and with the
// CSP bypassed, so that the sanitizing alone is tested), has no on*
// attribute and no javascript: link. The Markdown export's two scopes are
// downloaded from the same menu. Screenshots of the opened file at
// 1366×850 and 390×844, light and dark, go to e2e/artifacts/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import puppeteer from 'puppeteer-core';
import { setup, openExplorer, explorerCall, artifactPath, watchPage, REPO_ROOT } from './helpers.mjs';

let env;
let dir;
before(async () => {
  env = await setup();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'share-export-'));
});
after(async () => {
  await env?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Pick `format` in the explorer's Export menu and return the download's name and text. */
async function download(page, format) {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.locator('#export-button').click().then(() => page.locator(`#export-list [data-format="${format}"]`).click()),
  ]);
  return { name: file.suggestedFilename(), text: fs.readFileSync(await file.path(), 'utf8') };
}

/**
 * Open a share file from file:// in a new context (network off), recording
 * every request, dialog and page error. Resolves when the viewer is ready.
 */
async function openShare(file, options = {}) {
  const context = await env.browser.newContext({ offline: true, ...options });
  const page = await context.newPage();
  const requests = [];
  const problems = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('dialog', (d) => {
    problems.push(`dialog: ${d.message()}`);
    d.dismiss().catch(() => {});
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(pathToFileURL(file).href);
  if (options.javaScriptEnabled !== false) await page.waitForSelector('body[data-ready="true"]');
  return { context, page, requests, problems, url: pathToFileURL(file).href };
}

test('the share file of the demo opens offline from file:// with the whole tree, any node\'s context and search', async () => {
  const { page } = env;
  await openExplorer(page, env.baseURL);
  assert.equal(await page.evaluate(() => window.explorer.state.selected), 'demo');
  const shared = await download(page, 'html');
  assert.equal(shared.name, 'Demo a long weekend in Lisbon (demo).html', 'named by the title (its ":" taken out) and the id');
  const names = await page.evaluate(async () => {
    const { readableFileName } = await import('/static/explorer-export.js');
    return [
      readableFileName('d5dc5307-6807-41a0-8b04-4acee626eeb7', 'Assist user with summary', '.md'),
      readableFileName('s/1', undefined, '.md'),
      readableFileName('s1', 's1', '.html'),
      readableFileName('s1', 'a/b\\c: "d"?\n\te. ', '.md'),
      readableFileName('s1', 'é'.repeat(70), '.map.svg'),
    ];
  });
  assert.deepEqual(names, [
    'Assist user with summary (d5dc5307).md',
    's_1.md',
    's1.html',
    'a b c d e (s1).md',
    `${'é'.repeat(60)} (s1).map.svg`,
  ]);
  assert.match(shared.text, /^<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-/);
  await page.locator('#status', { hasText: 'Exported the whole tree as \u2068Demo a long weekend in Lisbon (demo).html\u2069' }).waitFor();
  const file = path.join(dir, shared.name);
  fs.writeFileSync(file, shared.text);

  const tree = await explorerCall(page, { operation: 'tree', sessionId: 'demo', showHidden: true });
  const v = await openShare(file);
  try {
    // The whole tree: the store's rows, in its order.
    const drawn = await v.page.evaluate(() => ({
      rows: document.querySelectorAll('#tree .row').length,
      ids: JSON.parse(document.getElementById('share-data').textContent).rows.map((r) => r.id),
      cursor: document.querySelector('#tree .row.cursor')?.dataset.row,
    }));
    assert.equal(drawn.rows, tree.rows.length);
    assert.equal(drawn.rows, 13);
    assert.deepEqual(drawn.ids, tree.rows.map((r) => r.id));
    assert.equal(drawn.cursor, String(tree.rows.findIndex((r) => r.cursor)));

    // The context of a node selected in it: what `context` gives at that node.
    const target = tree.rows.find((r) => r.preview.startsWith('Go on Saturday'));
    await v.page.locator('#tree .row', { hasText: 'Go on Saturday' }).click();
    await v.page.waitForFunction(() => document.querySelector('#context .selected-item')?.textContent.includes('Go on Saturday'));
    await explorerCall(page, { operation: 'jump', sessionId: 'demo', nodeId: target.id });
    const ctx = await explorerCall(page, { operation: 'context', sessionId: 'demo' });
    const shown = await v.page.evaluate(() =>
      [...document.querySelectorAll('#context .context-item.in-context')].map((li) => ({
        role: li.querySelector('article').dataset.role,
        id: li.querySelector('.node-id').textContent,
        text: li.querySelector('.message-body').textContent,
      })),
    );
    assert.equal(shown.length, ctx.messages.length);
    assert.equal(shown.at(-1).id, target.id);
    ctx.messages.forEach((m, k) => {
      assert.equal(shown[k].role, m.role, `message ${k}: role`);
      assert.equal(shown[k].text, m.content, `message ${k}: text`);
    });
    assert.match(await v.page.locator('#context-stats').textContent(), /^5 nodes root → selected node · 5 messages to the model$/);
    assert.equal(await v.page.evaluate(() => location.hash), `#node=${encodeURIComponent(target.id)}`);
    // The context list scrolls and holds no control: the keyboard reaches it (Tab), with a visible ring.
    for (let k = 0; k < 60 && !(await v.page.evaluate(() => document.activeElement?.id === 'context')); k++) await v.page.keyboard.press('Tab');
    assert.deepEqual(await v.page.evaluate(() => {
      const c = document.getElementById('context');
      return { focused: document.activeElement === c, tabIndex: c.tabIndex, outline: getComputedStyle(c).outlineStyle };
    }), { focused: true, tabIndex: 0, outline: 'solid' });
    // A link to a node opens the file there.
    const budget = tree.rows.find((r) => r.preview.startsWith('About €70'));
    const linked = await v.context.newPage();
    await linked.goto(`${v.url}#node=${encodeURIComponent(budget.id)}`);
    await linked.waitForSelector('body[data-ready="true"]');
    assert.match(await linked.locator('#tree .row.selected').textContent(), /About €70 a day/);
    assert.match(await linked.locator('#context-stats').textContent(), /^5 nodes root → selected node/);
    await linked.close();

    // Search by a word of one message (any case, accents ignored), then open the hit.
    await v.page.locator('#tree .row.cursor').click();
    await v.page.locator('#share-search').fill('CASCAIS');
    await v.page.waitForFunction(() => document.getElementById('search-count').textContent === '1 match');
    assert.equal(await v.page.locator('#search-results mark').first().textContent(), 'Cascais');
    assert.equal(await v.page.locator('#tree .row.match').count(), 1);
    await v.page.locator('#search-results .result').first().click();
    await v.page.waitForFunction(() => document.querySelector('#tree .row.selected')?.textContent.includes('Go on Saturday'));
    assert.match(await v.page.locator('#context .selected-item').textContent(), /Cascais by the sea/);
    await v.page.locator('#share-search').fill('belem monastery');
    await v.page.waitForFunction(() => document.getElementById('search-count').textContent === '2 matches');
    assert.deepEqual(await v.page.locator('#search-results mark').allTextContents(), ['Belém', 'monastery', 'Belém', 'monastery']);
    // Typos, within the store's allowance: a transposition, a letter left out, one too many, a word's
    // start with a letter left out; the word found is marked.
    for (const [query, marked] of [['monsatery', 'monastery'], ['cascis', 'Cascais'], ['gulbenkiann', 'Gulbenkian'], ['gulbnk', 'Gulbenkian']]) {
      await v.page.locator('#share-search').fill(query);
      await v.page.waitForFunction(() => /^\d+ match(es)?$/.test(document.getElementById('search-count').textContent));
      assert.equal(await v.page.locator('#search-results mark').first().textContent(), marked, query);
    }
    // Three characters or fewer: no typos (a substring only).
    await v.page.locator('#share-search').fill('cxs');
    await v.page.waitForFunction(() => document.getElementById('search-count').textContent === 'no match');
    await v.page.locator('#share-search').fill('no such word anywhere');
    await v.page.waitForFunction(() => document.getElementById('search-count').textContent === 'no match');
    await v.page.locator('#share-search').fill('');

    // Keyboard: ↓ from a row selects the next one.
    await v.page.locator('#tree .row').first().click();
    await v.page.keyboard.press('ArrowDown');
    await v.page.waitForFunction(() => document.activeElement?.dataset.row === '1' && document.activeElement.classList.contains('selected'));

    await v.page.locator('#tree .row.cursor').click();
    await screenshots(v.page, 'demo');
    await v.page.setViewportSize({ width: 1366, height: 850 });
    await v.page.emulateMedia({ colorScheme: 'light' });
    await v.page.locator('#share-search').fill('sintra');
    await v.page.waitForFunction(() => /^\d+ matches$/.test(document.getElementById('search-count').textContent));
    await v.page.screenshot({ path: artifactPath('share-demo-search-1366x850-light.png') });
    assert.deepEqual(v.requests, [v.url], 'the file asks for nothing but itself');
    assert.deepEqual(v.problems, []);
  } finally {
    await v.context.close();
  }

  // Without JavaScript the file is every node's rendered message, in tree order.
  const plain = await openShare(file, { javaScriptEnabled: false });
  try {
    assert.equal(await plain.page.locator('#all-nodes article').count(), 13);
    assert.equal(await plain.page.locator('#all-nodes article').first().isVisible(), true);
    assert.deepEqual(plain.requests, [plain.url]);
  } finally {
    await plain.context.close();
  }
  assert.deepEqual(env.errors, []);
});

test('the share file with hidden nodes left out holds nothing of them, its cursor at the nearest shown node', async () => {
  const { page } = env;
  await openExplorer(page, env.baseURL);
  const all = (await explorerCall(page, { operation: 'tree', sessionId: 'demo', showHidden: true })).rows;
  const before = await explorerCall(page, { operation: 'session', sessionId: 'demo' });
  // Hide the rainy-day subtree (a summary and the two nodes under it) and put the cursor in it.
  const summary = all.find((r) => r.kind === 'summary');
  const under = all.filter((r) => r.parentId === summary.id);
  const inside = [summary, ...under, ...all.filter((r) => under.some((u) => u.id === r.parentId))];
  assert.equal(inside.length, 3);
  await explorerCall(page, { operation: 'hide', sessionId: 'demo', nodeId: summary.id, hidden: true });
  await explorerCall(page, { operation: 'jump', sessionId: 'demo', nodeId: inside.at(-1).id });
  try {
    const shown = (await explorerCall(page, { operation: 'tree', sessionId: 'demo', showHidden: true })).rows.filter((r) => !r.hidden);
    assert.equal(shown.length, 10);
    const shared = await download(page, 'html-shown');
    assert.equal(shared.name, 'Demo a long weekend in Lisbon (demo).shown.html', 'not the whole tree\'s name: both files may be kept side by side');
    await page.locator('#status', { hasText: 'Exported the tree without its hidden nodes as \u2068Demo a long weekend in Lisbon (demo).shown.html\u2069' }).waitFor();
    for (const r of inside) assert.equal(shared.text.includes(r.id), false, `the file does not name hidden node ${r.id}`);
    const hiddenWords = inside.map((r) => r.preview.split(/\s+/).find((w) => w.length > 6 && !shown.some((s) => s.preview.includes(w)))).filter(Boolean);
    assert.ok(hiddenWords.length > 0);
    for (const w of hiddenWords) assert.equal(shared.text.includes(w), false, `the file does not hold "${w}"`);
    const file = path.join(dir, 'shown.html');
    fs.writeFileSync(file, shared.text);
    const v = await openShare(file);
    try {
      const drawn = await v.page.evaluate(() => ({
        ids: JSON.parse(document.getElementById('share-data').textContent).rows.map((r) => r.id),
        dimmed: document.querySelectorAll('#tree .row.hidden-node').length,
        cursor: document.querySelector('#tree .row.cursor')?.dataset.row,
        meta: document.querySelector('.share-meta').textContent,
        map: document.querySelector('.share-map summary')?.textContent,
        mapHidden: [...document.querySelectorAll('.share-map text')].some((t) => t.textContent.includes('hidden')),
      }));
      assert.deepEqual(drawn.ids, shown.map((r) => r.id), 'the rows of the default view, in its order');
      assert.equal(drawn.dimmed, 0);
      assert.equal(drawn.cursor, String(shown.findIndex((r) => r.id === summary.parentId)), 'the cursor at its nearest shown ancestor');
      assert.match(drawn.meta, / · 10 nodes \(3 hidden left out\) · exported /);
      assert.match(drawn.map, /^Map · 10 nodes, /);
      assert.equal(drawn.mapHidden, false);
      assert.deepEqual(v.problems, []);
    } finally {
      await v.context.close();
    }
    // The whole tree keeps them, dimmed.
    const whole = await download(page, 'html');
    for (const r of inside) assert.ok(whole.text.includes(r.id));
  } finally {
    await explorerCall(page, { operation: 'hide', sessionId: 'demo', nodeId: summary.id, hidden: false });
    await explorerCall(page, { operation: 'jump', sessionId: 'demo', nodeId: before.cursor });
  }
  assert.deepEqual(env.errors, []);
});

test('the share file marks what the model sees after a compaction, as context does; its pure helpers keep the data safe', async () => {
  const { page } = env;
  await openExplorer(page, env.baseURL);
  const id = 'share-compaction';
  await explorerCall(page, { operation: 'create', sessionId: id, title: 'Compacted' });
  const say = (role, content) => explorerCall(page, { operation: 'append', sessionId: id, message: { role, content } });
  await say('user', 'first question');
  await say('assistant', 'first answer');
  const kept = await say('user', 'second question');
  await say('assistant', 'second answer');
  await explorerCall(page, { operation: 'append', sessionId: id, entry: { kind: 'model_change', provider: 'openai', model: 'gpt-5' } });
  await explorerCall(page, { operation: 'append', sessionId: id, entry: { kind: 'compaction', summary: 'they talked twice', firstKeptNodeId: kept.id } });
  await say('user', 'third question');
  const ctx = await explorerCall(page, { operation: 'context', sessionId: id });
  assert.equal(ctx.messages.length, 4); // the compaction's message, second question and answer, third question

  const built = await page.evaluate(async (sessionId) => {
    const m = await import('/static/share-export.js');
    const f = await m.buildShareFile(window.explorer.tree, sessionId, { now: new Date('2026-12-01T12:00:00Z') });
    const tricky = { s: '</script><!--<script>\u2028\u2029' };
    return {
      text: f.text,
      json: m.scriptJSON(tricky),
      back: JSON.parse(m.scriptJSON(tricky)).s === tricky.s,
      rows: m.shareRows([
        { id: 'a', parentId: null, kind: 'message', branch: 'main', message: { role: 'user', content: 'A' } },
        { id: 'b', parentId: 'a', kind: 'message', branch: 'main', message: { role: 'assistant', content: 'B' } },
        { id: 'c', parentId: 'a', kind: 'message', branch: 'x', message: { role: 'assistant', content: 'C' } },
        { id: 'd', parentId: 'b', kind: 'summary', branch: 'main', summary: 'D' },
        { id: 'e', parentId: null, kind: 'message', branch: 'main', message: { role: 'user', content: 'E' } },
      ]).map((r) => [r.id, r.parent, r.guide, r.children, r.context]),
      // b hidden (and d under it): a keeps one child, c's guide is a chain's.
      shownRows: m.shareRows([
        { id: 'a', parentId: null, kind: 'message', branch: 'main', message: { role: 'user', content: 'A' } },
        { id: 'b', parentId: 'a', kind: 'message', branch: 'main', message: { role: 'assistant', content: 'B' } },
        { id: 'c', parentId: 'a', kind: 'compaction', branch: 'x', entry: { summary: 'S', firstKeptNodeId: 'b' } },
        { id: 'd', parentId: 'b', kind: 'summary', branch: 'main', summary: 'D' },
      ], [{}, { hidden: true }, {}, { hidden: true }], { hidden: false }).map((r) => [r.id, r.parent, r.guide, r.children, r.keep]),
      name: m.shareFileName('a/b:c'),
    };
  }, id);
  assert.equal(built.json.includes('<'), false);
  assert.equal(built.back, true);
  assert.deepEqual(built.rows, [['a', -1, '', 2, true], ['b', 0, 't', 1, true], ['d', 1, 'l', 0, true], ['c', 0, 'e', 0, true], ['e', -1, '', 0, true]]);
  assert.deepEqual(built.shownRows, [['a', -1, '', 1, -1], ['c', 0, '', 0, -1]]);
  assert.equal(built.name, 'a_b_c.html');
  assert.match(built.text, /exported 2026-12-01 12:00 UTC/);

  const file = path.join(dir, 'compaction.html');
  fs.writeFileSync(file, built.text);
  const v = await openShare(file);
  try {
    const shown = await v.page.evaluate(() => ({
      stats: document.getElementById('context-stats').textContent,
      sent: [...document.querySelectorAll('#context .context-item.in-context article')].map((a) => a.dataset.role),
      notSent: [...document.querySelectorAll('#context .context-item.not-in-context .message-body')].map((b) => b.textContent),
      entries: [...document.querySelectorAll('#context article.entry')].map((a) => a.dataset.role),
    }));
    assert.equal(shown.stats, '7 nodes root → cursor · 4 messages to the model');
    assert.deepEqual(shown.sent, ['user', 'assistant', 'compaction', 'user']);
    assert.deepEqual(shown.notSent, ['first question', 'first answer']);
    assert.deepEqual(shown.entries, ['model_change']);
    assert.deepEqual(v.problems, []);
  } finally {
    await v.context.close();
  }
  assert.deepEqual(env.errors, []);
});

/** The share file at 1366×850 and 390×844, light and dark, under e2e/artifacts/. */
async function screenshots(page, name) {
  for (const [w, h] of [[1366, 850], [390, 844]]) {
    await page.setViewportSize({ width: w, height: h });
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForFunction((s) => matchMedia(`(prefers-color-scheme: ${s})`).matches, scheme);
      const box = await page.evaluate(() => {
        const r = (sel) => document.querySelector(sel).getBoundingClientRect();
        return { tree: r('.tree-pane').height, context: r('.context-pane').height, width: document.documentElement.scrollWidth };
      });
      assert.ok(box.tree >= 200 && box.context >= 200, `${w}×${h}: panes ${JSON.stringify(box)} at least 200 px tall`);
      assert.ok(box.width <= w, `${w}×${h}: no sideways scrolling (${box.width} px wide)`);
      await page.screenshot({ path: artifactPath(`share-${name}-${w}x${h}-${scheme}.png`) });
    }
  }
}

// Every payload sets window.__xss_<name> when it runs; some alert() too.
const flag = (name) => `window.__xss_${name}=1`;
const XSS = {
  sessionId: `x"><img src=x onerror="${flag('sid')}">`,
  title: `</title><script>${flag('title')}</script><!--`,
  branch: `b"><svg onload="${flag('branch')}">`,
  role: `<img src=x onerror=${flag('role')}>`,
  label: `</script><script>${flag('label')}</script>`,
  ids: [`"><img src=x onerror="${flag('id1')}">`, `</script><script>${flag('id2')};alert(2)</script>`, `<!--<script>${flag('id3')}</script>`],
  content: [
    `<img src=x onerror="${flag('img')};alert(1)">`,
    `</script><script>${flag('script')}</script>`,
    `<!-- <script>${flag('comment')}</script> -->`,
    `[click](javascript:${flag('jslink')})`,
    `<a href="javascript:${flag('ahref')}">click</a>`,
    `[ref]\n\n[ref]: javascript:${flag('ref')}`,
    `<p title="a" onmouseover="${flag('quote')}">"quoted" 'single'</p>`,
    `Fine: a [good link](https://example.com/) and \`</script>\` in code.`,
  ].join('\n\n'),
};

/** A snapshot of the XSS session: a root, a reply on a payload branch, a reply to that; labels on two nodes. */
function xssSnapshot() {
  const [a, b, c] = XSS.ids;
  const node = (id, parentId, branch, role, content) => ({ id, parentId, branch, kind: 'message', timestamp: '2026-12-01T10:00:00.000Z', message: { role, content } });
  return {
    version: 1,
    sessionId: XSS.sessionId,
    title: XSS.title,
    cursor: c,
    activeBranch: XSS.branch,
    nodes: [
      node(a, null, 'main', 'user', XSS.content),
      node(b, a, XSS.branch, XSS.role, [{ type: 'text', text: XSS.content }]),
      node(c, b, XSS.branch, 'assistant', `${XSS.content}\n\n\`\`\`html\n</script><img src=x onerror="${flag('fenced')}">\n\`\`\``),
    ],
    annotations: [
      { kind: 'label', nodeId: a, label: XSS.label, timestamp: '2026-12-01T10:00:01.000Z' },
      { kind: 'label', nodeId: c, label: `"${XSS.label}`, timestamp: '2026-12-01T10:00:02.000Z' },
    ],
  };
}

/** What the opened file holds and ran: flags set, on* attributes, links, scripts, images. */
function inspect(page) {
  return page.evaluate(() => ({
    ran: Object.keys(window).filter((k) => k.startsWith('__xss_')),
    handlers: [...document.querySelectorAll('*')].flatMap((e) => [...e.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${e.tagName}.${a.name}`)),
    hrefs: [...document.querySelectorAll('[href], [src], [action], [formaction]')].map((e) => e.getAttribute('href') ?? e.getAttribute('src') ?? e.getAttribute('action') ?? e.getAttribute('formaction')),
    scripts: [...document.scripts].map((s) => s.type || 'classic'),
    // The one SVG allowed is the map we draw (details.share-map), and in it
    // only the shapes and text we draw: no script, foreignObject, use, image or link.
    elements: [...document.querySelectorAll('img, svg:not(details.share-map > .share-map-box > svg), iframe, object, embed, style:not(head > style), form, base, meta:not(head > meta)')].map((e) => e.tagName.toLowerCase()),
    mapTags: [...new Set([...document.querySelectorAll('details.share-map svg *')].map((e) => e.tagName.toLowerCase()))].filter((t) => !['g', 'path', 'line', 'polyline', 'rect', 'circle', 'text', 'title', 'tspan', 'desc'].includes(t)),
    maps: document.querySelectorAll('details.share-map svg').length,
    title: document.title,
    ids: JSON.parse(document.getElementById('share-data').textContent).rows.map((r) => r.id),
    text: document.body.textContent,
  }));
}

test('XSS payloads in every field of a session run nothing in its share file, with or without the file\'s CSP', async () => {
  const { page } = env;
  await openExplorer(page, env.baseURL);
  await explorerCall(page, { operation: 'snapshot.load', sessionId: XSS.sessionId, snapshot: xssSnapshot() });
  const item = page.locator('#session-list .session').filter({ has: page.locator('.session-id', { hasText: XSS.sessionId }) });
  await item.locator('.session-button').click();
  await page.waitForFunction((id) => window.explorer.state.selected === id, XSS.sessionId);
  const shared = await download(page, 'html');
  const file = path.join(dir, 'xss.html');
  fs.writeFileSync(file, shared.text);
  // The data's script element holds no "<" at all; the page's only other script is the viewer.
  const data = /<script type="application\/json" id="share-data">([^]*?)<\/script>/.exec(shared.text)[1];
  assert.equal(data.includes('<'), false);
  assert.equal(shared.text.match(/<script/g).length, 2);

  for (const bypassCSP of [false, true]) {
    const v = await openShare(file, { bypassCSP });
    try {
      // Selecting every node puts each one's rendering in the context pane too.
      for (let k = 0; k < 3; k++) await v.page.locator('#tree .row').nth(k).click();
      await v.page.locator('#share-search').fill('click');
      await v.page.waitForFunction(() => document.getElementById('search-count').textContent === '3 matches');
      for (const a of await v.page.locator('#context a:not([href])').all()) await a.click();
      const out = await inspect(v.page);
      const why = bypassCSP ? 'with the CSP bypassed' : 'with the CSP';
      assert.deepEqual(out.ran, [], `${why}: no payload ran`);
      assert.deepEqual(v.problems, [], `${why}: no dialog, no error`);
      assert.deepEqual(out.handlers, [], `${why}: no on* attribute`);
      assert.deepEqual(out.scripts, ['application/json', 'classic']);
      assert.deepEqual(out.elements, [], `${why}: no img, svg but the map, iframe, form, base or stray style`);
      assert.equal(out.maps, 1, `${why}: the map is drawn once`);
      assert.deepEqual(out.mapTags, [], `${why}: the map holds only shapes and text`);
      assert.deepEqual([...new Set(out.hrefs)], ['https://example.com/'], `${why}: only the safe link is a link`);
      assert.deepEqual(out.ids, XSS.ids, 'ids come through the JSON exactly');
      assert.equal(out.title, `${XSS.title} · sessiontree`);
      for (const text of ['<img src=x onerror=', '</script><script>', '<!-- <script>', 'javascript:window.__xss_jslink=1', '"quoted"', XSS.label, XSS.branch, XSS.sessionId]) {
        assert.ok(out.text.includes(text), `${why}: ${JSON.stringify(text)} shows as text`);
      }
      assert.deepEqual(v.requests, [v.url]);
      if (bypassCSP) {
        // Control: with the CSP bypassed, an on* attribute does run here, so the run above would have caught one.
        await v.page.evaluate(() => {
          const img = document.createElement('img');
          img.setAttribute('onerror', 'window.__xss_control=1');
          img.src = 'x';
          document.body.append(img);
        });
        await v.page.waitForFunction(() => window.__xss_control === 1);
      } else {
        await v.page.screenshot({ path: artifactPath('share-xss-1366x850-light.png') });
      }
    } finally {
      await v.context.close();
    }
  }
  assert.deepEqual(env.errors, []);
});

test('a share file shows the first three lines of a long title, the whole title its tooltip and its text, at desktop and phone widths', async () => {
  const { page } = env;
  await openExplorer(page, env.baseURL);
  const title = Array.from({ length: 143 }, (_, k) => `word${k}`).join(' ').slice(0, 1000);
  await explorerCall(page, { operation: 'create', sessionId: 'long-title', title });
  await explorerCall(page, { operation: 'append', sessionId: 'long-title', message: { role: 'user', content: 'hello' } });
  const item = page.locator('#session-list .session').filter({ has: page.locator('.session-id', { hasText: 'long-title' }) });
  await item.locator('.session-button').click();
  await page.waitForFunction(() => window.explorer.state.selected === 'long-title');
  const shared = await download(page, 'html');
  const file = path.join(dir, 'long-title.html');
  fs.writeFileSync(file, shared.text);
  for (const [width, height] of [[1366, 850], [390, 844]]) {
    const v = await openShare(file, { viewport: { width, height } });
    try {
      const h1 = await v.page.locator('.share-head h1').evaluate((h) => ({ text: h.textContent, tooltip: h.title, height: h.getBoundingClientRect().height, lineHeight: parseFloat(getComputedStyle(h).lineHeight) }));
      assert.equal(h1.text, title);
      assert.equal(h1.tooltip, title);
      assert.equal(await v.page.locator('#share-search').getAttribute('placeholder'), 'Search the one node');
      assert.ok(h1.height <= 3 * h1.lineHeight + 1, `${width}px: the heading is ${h1.height} px tall, at most three lines of ${h1.lineHeight} px`);
      assert.ok(h1.height >= 3 * h1.lineHeight - 1, `${width}px: three lines shown`);
      await v.page.screenshot({ path: artifactPath(`share-long-title-${width}x${height}.png`) });
    } finally {
      await v.context.close();
    }
  }
  assert.deepEqual(env.errors, []);
});

test('the Markdown export offers this path or the whole tree, and each file says which', async () => {
  const { page } = env;
  await openExplorer(page, env.baseURL);
  await page.locator('#session-list .session-button', { hasText: 'Demo: a long weekend in Lisbon' }).click();
  await page.waitForFunction(() => window.explorer.state.selected === 'demo');
  const labels = await page.locator('#export-list button').allTextContents();
  assert.deepEqual(labels, ['Snapshot .snapshot.json', 'Markdown · this path.md', 'Markdown · whole tree.tree.md', 'Share file · whole tree.html', 'Share file · hidden left out.shown.html', 'OpenAI messages.openai.json', 'Pi session.jsonl', 'Map · SVG.map.svg', 'Map · PNG.map.png']);

  const pathFile = await download(page, 'markdown');
  const pathExport = await explorerCall(page, { operation: 'export', sessionId: 'demo', format: 'markdown', scope: 'path' });
  assert.equal(pathFile.name, 'Demo a long weekend in Lisbon (demo).md');
  assert.equal(pathFile.text, pathExport.text);
  assert.equal(pathExport.scope, 'path');
  const session = await explorerCall(page, { operation: 'session', sessionId: 'demo' });
  const depth = (await explorerCall(page, { operation: 'context', sessionId: 'demo' })).messages.length;
  assert.equal(pathFile.text.split('\n')[2], `Scope: this path, root → cursor (${depth} of 13 nodes) · session \`demo\` · cursor \`${session.cursor}\` · branch \`${session.activeBranch}\``);
  assert.equal(pathFile.text.match(/\n## /g).length, depth);

  const treeFile = await download(page, 'markdown-tree');
  const treeExport = await explorerCall(page, { operation: 'export', sessionId: 'demo', format: 'markdown', scope: 'tree' });
  assert.equal(treeFile.name, 'Demo a long weekend in Lisbon (demo).tree.md');
  assert.equal(treeFile.text, treeExport.text);
  assert.equal(treeExport.scope, 'tree');
  assert.match(treeFile.text.split('\n')[2], /^Scope: the whole tree \(13 nodes, 1 root, depth first; ● marks the path to the cursor\) · session `demo` · /);
  assert.equal(treeFile.text.match(/\n## /g).length, 13);
  for (const word of ['Cascais', 'Gulbenkian', 'hostel bed']) assert.ok(treeFile.text.includes(word), `the tree holds ${word}`);
  assert.equal(pathFile.text.includes('Gulbenkian'), false, 'the path does not hold another branch');
  assert.deepEqual(env.errors, []);
});

test('the whole-tree Markdown of the XSS session runs no script when rendered by markdown-it or marked with default options', async () => {
  const page = await env.newPage();
  await openExplorer(page, env.baseURL);
  await explorerCall(page, { operation: 'snapshot.load', sessionId: XSS.sessionId, snapshot: xssSnapshot() });
  const md = (await explorerCall(page, { operation: 'export', sessionId: XSS.sessionId, format: 'markdown', scope: 'tree' })).text;
  await page.close();
  const view = watchPage(await env.newPage(), env.errors);
  await view.setContent('<!doctype html><html><head><meta charset="utf-8"></head><body></body></html>');
  await view.addScriptTag({ content: fs.readFileSync(path.join(REPO_ROOT, 'node_modules/marked/lib/marked.umd.js'), 'utf8') });
  await view.addScriptTag({ content: fs.readFileSync(path.join(REPO_ROOT, 'node_modules/markdown-it/dist/browser/markdown-it.umd.min.js'), 'utf8') });
  const out = await view.evaluate(async (text) => {
    const result = {};
    for (const [name, html] of Object.entries({ 'markdown-it': window.markdownit().render(text), marked: window.marked.parse(text) })) {
      const box = document.createElement('div');
      document.body.replaceChildren(box);
      box.append(document.createRange().createContextualFragment(html)); // scripts in html would run
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      result[name] = {
        handlers: [...box.querySelectorAll('*')].flatMap((e) => [...e.attributes].filter((a) => /^on/i.test(a.name)).map((a) => a.name)),
        elements: [...box.querySelectorAll('script, img, svg, iframe, object, embed')].map((e) => e.tagName.toLowerCase()),
        links: [...box.querySelectorAll('a[href]')].map((a) => a.getAttribute('href')),
      };
    }
    result.ran = Object.keys(window).filter((k) => k.startsWith('__xss_'));
    return result;
  }, md);
  assert.deepEqual(out.ran, []);
  for (const name of ['markdown-it', 'marked']) {
    assert.deepEqual(out[name].handlers, [], `${name}: no on* attribute`);
    assert.deepEqual(out[name].elements, [], `${name}: no script, img, svg, iframe, object or embed`);
    assert.deepEqual([...new Set(out[name].links)], ['https://example.com/'], `${name}: only the safe link`);
  }
  await view.close();
  assert.deepEqual(env.errors, []);
});

const FIREFOX = process.env.FIREFOX_PATH || '/usr/bin/firefox-esr';

// make test installs Firefox ESR (scripts/ensure-firefox.sh): a missing one fails here, never skips.
test('the share file opens from file:// in Firefox too, with its tree, context and search', async () => {
  assert.ok(fs.existsSync(FIREFOX), `no Firefox at ${FIREFOX} (scripts/ensure-firefox.sh installs it, or set FIREFOX_PATH)`);
  const file = path.join(dir, 'Demo a long weekend in Lisbon (demo).html');
  assert.ok(fs.existsSync(file), 'the first test saved the demo\'s share file');
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true });
  try {
    const page = await browser.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('dialog', (d) => {
      problems.push(`dialog: ${d.message()}`);
      d.dismiss().catch(() => {});
    });
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector('body[data-ready="true"]');
    assert.equal(await page.$$eval('#tree .row', (rows) => rows.length), 13);
    assert.equal(await page.$eval('#context-stats', (e) => e.textContent), '7 nodes root → cursor · 7 messages to the model');
    await page.type('#share-search', 'cascais');
    await page.waitForFunction(() => document.getElementById('search-count').textContent === '1 match');
    await page.click('#search-results .result');
    await page.waitForFunction(() => document.querySelector('#context .selected-item')?.textContent.includes('Cascais by the sea'));
    // The XSS session's file (saved by the XSS test) runs nothing in Firefox either.
    await page.goto(pathToFileURL(path.join(dir, 'xss.html')).href);
    await page.waitForSelector('body[data-ready="true"]');
    for (const row of await page.$$('#tree .row')) await row.click();
    const xss = await page.evaluate(() => ({
      ran: Object.keys(window).filter((k) => k.startsWith('__xss_')),
      handlers: [...document.querySelectorAll('*')].flatMap((e) => [...e.attributes].filter((a) => /^on/i.test(a.name)).map((a) => a.name)),
      rows: document.querySelectorAll('#tree .row').length,
    }));
    assert.deepEqual(xss, { ran: [], handlers: [], rows: 3 });
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});
