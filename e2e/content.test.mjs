// Real content reads right (issue 28): a ChatGPT answer written with web
// search (e2e/fixtures/chatgpt-cited.mjs) shows numbered citation links
// with their sources' titles and a Sources list, its code fence after a
// marker as code, and no private-use character anywhere — in the
// explorer, the share file and the Markdown export; search snippets have
// none either. Row previews are plain text, and rows without text say what
// they are, muted.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { setup, artifactPath, explorerCall } from './helpers.mjs';
import { citedExport, SOURCES } from './fixtures/chatgpt-cited.mjs';

const PRIVATE_USE = /[\ue000-\uf8ff]/;

/** null, or the text around the first private-use character of text. */
function privateUse(text) {
  const m = PRIVATE_USE.exec(text);
  return m ? JSON.stringify(text.slice(Math.max(0, m.index - 80), m.index + 80)) : null;
}

let env;
let dir;
before(async () => {
  env = await setup({ contextOptions: { viewport: { width: 1280, height: 800 }, acceptDownloads: true } });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'content-'));
});
after(async () => {
  await env?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Every text and attribute value under the document, shadow roots included. */
function allText(page) {
  return page.evaluate(() => {
    const out = [];
    const stack = [document.documentElement];
    while (stack.length > 0) {
      const n = stack.pop();
      if (n.nodeType === Node.TEXT_NODE) out.push(n.data);
      if (n.nodeType !== Node.ELEMENT_NODE) continue;
      for (const a of n.attributes) out.push(a.value);
      if (n.shadowRoot) stack.push(...n.shadowRoot.childNodes);
      stack.push(...n.childNodes);
    }
    return out.join('\n');
  });
}

/** The citations and sources drawn under root (a CSS selector of the answer). */
function citations(page, root) {
  return page.evaluate((root) => {
    const box = document.querySelector('session-tree-panel')?.shadowRoot?.querySelector(root) ?? document.querySelector(root);
    return {
      cites: [...box.querySelectorAll('sup.cite a')].map((a) => ({ n: a.textContent, href: a.getAttribute('href'), title: a.title, target: a.target, rel: a.rel })),
      sources: [...box.querySelectorAll('.sources li')].map((li) => ({ n: li.value, title: li.querySelector('a').textContent, href: li.querySelector('a').getAttribute('href'), host: li.querySelector('.source-host')?.textContent, rel: li.querySelector('a').rel })),
      code: [...box.querySelectorAll('pre > code')].map((c) => ({ cls: c.className, text: c.textContent })),
      table: box.querySelectorAll('table td').length,
      list: box.querySelectorAll('ul > li').length,
    };
  }, root);
}

/** Pick `format` in the Export menu and return the download's name and text. */
async function download(page, format) {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.locator('#export-button').click().then(() => page.locator(`#export-list [data-format="${format}"]`).click()),
  ]);
  return { name: file.suggestedFilename(), text: fs.readFileSync(await file.path(), 'utf8') };
}

const CITES = [
  ['[1]', 0], ['[1]', 0], ['[2]', 1], ['[2]', 1], ['[3]', 2],
];

test('a ChatGPT answer with citation markers: numbered links to its sources, code after a marker as code, no private-use character; the same in the share file and the Markdown export', async () => {
  const { page, baseURL, errors } = env;
  await page.goto(baseURL + 'static/');
  await page.waitForSelector('body[data-ready="true"]');
  await page.setInputFiles('#import-file', { name: 'conversations.json', mimeType: 'application/json', buffer: Buffer.from(citedExport()) });
  await page.locator('#report-title', { hasText: 'Imported 1 session' }).waitFor();
  await page.locator('#report-close').click();
  await page.locator('session-tree-panel .title', { hasText: 'Capital of France' }).waitFor();
  const answer = 'session-tree-panel .messages .message:last-child .message-body';
  await page.locator(`${answer} .sources`).waitFor();

  const drawn = await citations(page, '.messages .message:last-child .message-body');
  assert.deepEqual(drawn.cites.map((c) => c.n), CITES.map(([n]) => n));
  drawn.cites.forEach((c, k) => {
    const s = SOURCES[CITES[k][1]];
    assert.equal(c.href, s.url);
    assert.equal(c.title, `${s.title} — ${s.host}`);
    assert.equal(c.target, '_blank');
    assert.equal(c.rel, 'noopener noreferrer');
  });
  assert.deepEqual(drawn.sources, SOURCES.map((s, k) => ({ n: k + 1, title: s.title, href: s.url, host: s.host, rel: 'noopener noreferrer' })));
  assert.deepEqual(drawn.code.map((c) => c.cls.split(' ')[0]), ['language-xml'], 'the fence after a marker is one code block');
  assert.match(drawn.code[0].text, /^<urlset xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">\n {2}<url>/);
  assert.equal(drawn.table, 2, 'the table renders');
  assert.ok(drawn.list >= 2, 'the list renders');
  assert.match(await page.locator(answer).textContent(), /known for the Eiffel Tower and its museums/);
  assert.equal(privateUse(await allText(page)), null, 'no private-use character in the explorer');

  // Search snippets have no marker either.
  const sessionId = await page.evaluate(() => window.explorer.state.selected);
  const found = await explorerCall(page, { operation: 'search', query: 'capital france' });
  assert.ok(found.hits.length > 0);
  for (const hit of found.hits) assert.doesNotMatch(hit.snippet, PRIVATE_USE);

  for (const [scheme, w, h, tag] of [['light', 1280, 800, 'desktop'], ['dark', 1280, 800, 'desktop'], ['light', 390, 844, 'phone'], ['dark', 390, 844, 'phone']]) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: w, height: h });
    if (tag === 'phone') await page.locator('#pane-tabs [data-pane="context"], .pane-tab[data-pane="context"]').first().click().catch(() => {});
    await page.locator(`${answer} .sources`).scrollIntoViewIfNeeded();
    await page.screenshot({ path: artifactPath(`content-cited-${tag}-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });

  // The Markdown export: [n] footnotes, a Sources list, the fence at the start of its line.
  const md = await download(page, 'markdown');
  assert.doesNotMatch(md.text, PRIVATE_USE);
  assert.match(md.text, /Paris is the capital of France\. \[1\]\n/);
  assert.match(md.text, /known for the Eiffel Tower and its museums\. \[1\]\[2\]/);
  assert.match(md.text, /A sitemap for a site about it: \[3\]\n```xml\n<urlset/);
  assert.match(md.text, /\nSources:\n\n- \\\[1\\\] \[Paris - Wikipedia\]\(https:\/\/en\.wikipedia\.org\/wiki\/Paris\) — en\.wikipedia\.org\n- \\\[2\\\] \[Paris travel guide\]\(https:\/\/www\.lonelyplanet\.com\/france\/paris\) — lonelyplanet\.com\n- \\\[3\\\] \[XML sitemaps protocol\]\(https:\/\/www\.sitemaps\.org\/protocol\.html\) — sitemaps\.org\n/);

  // The share file: the same links and sources, offline from file://.
  const shared = await download(page, 'html');
  const file = path.join(dir, shared.name);
  fs.writeFileSync(file, shared.text);
  const context = await env.browser.newContext({ offline: true });
  try {
    const v = await context.newPage();
    await v.goto(pathToFileURL(file).href);
    await v.waitForSelector('body[data-ready="true"]');
    await v.locator('#context .selected-item .sources').waitFor();
    const inShare = await citations(v, '#context .selected-item');
    assert.deepEqual(inShare.cites.map((c) => [c.n, c.href, c.rel]), drawn.cites.map((c) => [c.n, c.href, c.rel]));
    assert.deepEqual(inShare.sources, drawn.sources);
    assert.deepEqual(inShare.code.map((c) => c.cls.split(' ')[0]), ['language-xml']);
    assert.equal(privateUse(await allText(v)), null, 'no private-use character in the share file');
  } finally {
    await context.close();
  }
  assert.ok(sessionId);
  assert.deepEqual(errors, []);
});

test('row previews are plain text, and rows without text say what they are, muted', async () => {
  const { page } = env;
  const rows = await page.evaluate(() => [...document.querySelector('session-tree-panel').shadowRoot.querySelectorAll('.row')].map((r) => {
    const p = r.querySelector('.preview');
    return { text: p.textContent, described: p.classList.contains('described'), color: getComputedStyle(p).color, normal: getComputedStyle(r.querySelector('.role')).color };
  }));
  assert.deepEqual(rows.map((r) => [r.text, r.described]), [
    ['system (hidden by ChatGPT)', true],
    ['Here are bold words and a question: what is the capital of France?', false],
    ['called search', true],
    ['search("capital of France")', false],
    ['tool result: web', true],
    ['Paris is the capital of France. It is known for the Eiffel Tower and its museums…', false],
  ]);
  const muted = rows.filter((r) => r.described).map((r) => r.color);
  assert.equal(new Set(muted).size, 1, 'every described row has the muted colour');
  assert.notEqual(muted[0], rows[1].color, 'a row with text is not muted');
});
