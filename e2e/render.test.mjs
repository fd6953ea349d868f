// Rendered messages in the explorer's context pane (static/render-message.js):
// Markdown, fenced code highlighted, a table, raw HTML as text, links that
// open in a new tab and never as javascript:, Open WebUI reasoning blocks as
// "Thinking" sections, tool calls and results, images and attachments — with
// no script run and no on* attribute anywhere; the Raw toggle shows the
// exact source and works by keyboard. Screenshot: e2e/artifacts/render-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, artifactPath, explorerCall, openExplorer } from './helpers.mjs';

const VIEWPORT = { width: 1366, height: 850 };

/** The assistant text of the XSS test: every payload sets window.__xss. */
const EVIL = [
  '<details type="reasoning" done="true" duration="3">',
  '<summary>Thought for 3 seconds</summary>',
  '&gt; Let me break this down: **17 × 15**.',
  '&gt; 17 × 10 = 170, 17 × 5 = 85.',
  '</details>',
  'The answer is **255**, see the *table*:',
  '',
  '| factor | value |',
  '|:-------|------:|',
  '| a      | 17    |',
  '| b      | 15    |',
  '',
  '```python',
  'def product(a, b):',
  '    return a * b  # 255',
  '```',
  '',
  'Raw: <img src=x onerror="window.__xss=1"> and <script>window.__xss=2</script>',
  '',
  '[click me](javascript:window.__xss=3) and <a href="javascript:window.__xss=4">html link</a> and [data](data:text/html,<script>window.__xss=5</script>)',
  '',
  'A real link: [docs](https://example.com/docs) and a bare one https://example.org/x',
  '',
  '![pic](https://example.com/pic.png) <svg onload="window.__xss=6"></svg> <iframe src="javascript:window.__xss=7"></iframe>',
].join('\n');

async function open(page, url) {
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]');
}

const call = explorerCall;

/** Load a session of the given nodes (a chain under one root) and show it in the explorer. */
async function showSession(page, sessionId, messages) {
  const nodes = messages.map((message, k) => ({
    id: `n${k}`,
    parentId: k === 0 ? null : `n${k - 1}`,
    branch: 'main',
    kind: 'message',
    timestamp: `2026-01-01T00:00:${String(k).padStart(2, '0')}.000Z`,
    message,
  }));
  await call(page, { operation: 'snapshot.load', sessionId, snapshot: { version: 1, sessionId, cursor: nodes.at(-1).id, activeBranch: 'main', nodes } });
  await page.evaluate(() => window.explorer.refresh());
  await page.locator(`#session-list li[data-session-id="${sessionId}"] .session-button`).click();
  await page.locator(`session-tree-panel .row.cursor[data-node-id="n${messages.length - 1}"]`).waitFor();
  // This session's last message: the context pane is drawn after the rows, and until then it shows the demo's (7 messages).
  await page.locator(`session-tree-panel .messages .message[data-node-id="n${messages.length - 1}"]`).waitFor();
}

/** Every element of the page and the panel's shadow root with an on* attribute, as "tag@attr". */
function onAttributes(page) {
  return page.evaluate(() => {
    const found = [];
    const roots = [document];
    for (let i = 0; i < roots.length; i++) {
      for (const e of roots[i].querySelectorAll('*')) {
        if (e.shadowRoot) roots.push(e.shadowRoot);
        for (const a of e.attributes) if (/^on/i.test(a.name)) found.push(`${e.localName}@${a.name}`);
      }
    }
    return found;
  });
}

test('a message with Markdown, code, a table, raw HTML, javascript: links and Open WebUI reasoning renders as structure and runs nothing', async () => {
  const env = await setup({ contextOptions: { viewport: VIEWPORT } });
  try {
    const { page, baseURL, errors } = env;
    await open(page, baseURL + 'static/');
    await page.evaluate(() => {
      window.__violations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    await showSession(page, 'render-xss', [
      { role: 'user', content: 'What is 17 × 15? Answer with a table.' },
      { role: 'assistant', content: EVIL },
    ]);
    const panel = page.locator('#panel');
    const msg = panel.locator('.messages .message').nth(1);
    const body = msg.locator('.message-body');

    // The tree row leaves the reasoning markup out (its preview is the first 80 characters: all reasoning).
    assert.equal(await panel.locator('.row.cursor .preview').textContent(), '(thinking…)');
    // Markdown became structure.
    assert.deepEqual(await body.locator(':scope > .markdown strong').allTextContents(), ['255']);
    assert.deepEqual(await body.locator(':scope > .markdown em').allTextContents(), ['table']);
    assert.deepEqual(await body.locator('table th').allTextContents(), ['factor', 'value']);
    assert.deepEqual(await body.locator('table td').allTextContents(), ['a', '17', 'b', '15']);
    assert.deepEqual(await body.locator('table td').evaluateAll((tds) => tds.map((td) => td.className)), ['align-left', 'align-right', 'align-left', 'align-right']);
    // The fenced code is highlighted (highlight.js loaded on demand).
    await body.locator('pre code.hljs .hljs-keyword').first().waitFor();
    assert.equal(await body.locator('pre code').textContent(), 'def product(a, b):\n    return a * b  # 255\n');
    assert.deepEqual(await body.locator('pre code .hljs-keyword').allTextContents(), ['def', 'return']);
    // The reasoning block is a closed "Thinking" section with the text unquoted.
    const think = body.locator('details.thinking');
    assert.equal(await think.count(), 1);
    assert.equal(await think.locator('summary').textContent(), 'Thinking · Thought for 3 seconds');
    assert.equal(await think.evaluate((d) => d.open), false);
    assert.equal(await think.locator('.thinking-body').textContent(), 'Let me break this down: 17 × 15.\n17 × 10 = 170, 17 × 5 = 85.');
    assert.equal(await think.locator('.thinking-body strong').textContent(), '17 × 15');
    const text = await body.textContent();
    assert.doesNotMatch(text, /<details|&gt;|<summary/);
    // Raw HTML shows as text; no element was made from it.
    assert.match(text, /Raw: <img src=x onerror="window.__xss=1"> and <script>window.__xss=2<\/script>/);
    assert.match(text, /<svg onload="window.__xss=6"><\/svg> <iframe src="javascript:window.__xss=7"><\/iframe>/);
    const made = await page.evaluate(() => {
      const root = document.querySelector('#panel').shadowRoot;
      const q = (sel) => document.querySelectorAll(sel).length + root.querySelectorAll(sel).length;
      return { img: q('img:not(.toggle-icon):not(.logo)'), script: root.querySelectorAll('script').length, svg: q('svg'), iframe: q('iframe') };
    });
    assert.deepEqual(made, { img: 0, script: 0, svg: 0, iframe: 0 });
    // The Markdown image is a placeholder, never fetched.
    assert.deepEqual(await body.locator('.placeholder.image').allTextContents(), ['[image pic https://example.com/pic.png — not loaded]']);
    // Links: only the http(s) ones are links, each opening a new tab without an opener.
    const links = await body.locator('a').evaluateAll((as) => as.map((a) => ({ text: a.textContent, href: a.getAttribute('href'), target: a.target, rel: a.rel })));
    assert.deepEqual(links, [
      { text: 'docs', href: 'https://example.com/docs', target: '_blank', rel: 'noopener noreferrer' },
      { text: 'https://example.org/x', href: 'https://example.org/x', target: '_blank', rel: 'noopener noreferrer' },
    ]);
    assert.match(text, /\[click me\]\(javascript:window.__xss=3\)/);
    assert.match(text, /<a href="javascript:window.__xss=4">html link<\/a>/);
    // Clicking the text of the javascript: link runs nothing either.
    await body.getByText('[click me](javascript:window.__xss=3)', { exact: false }).click();
    // No on* attribute anywhere, page or shadow root.
    assert.deepEqual(await onAttributes(page), []);
    await page.waitForTimeout(300);
    assert.equal(await page.evaluate(() => window.__xss), undefined);
    await page.screenshot({ path: artifactPath('render-xss.png') });

    // The Raw toggle shows the exact source, and back; by keyboard too.
    const raw = msg.locator('button.raw-toggle');
    assert.equal(await raw.getAttribute('aria-pressed'), 'false');
    await raw.click();
    assert.equal(await raw.getAttribute('aria-pressed'), 'true');
    assert.equal(await body.locator('pre.raw').textContent(), EVIL);
    assert.equal(await body.locator('details.thinking').count(), 0);
    await page.screenshot({ path: artifactPath('render-raw.png') });
    await raw.focus();
    await page.keyboard.press('Enter');
    assert.equal(await raw.getAttribute('aria-pressed'), 'false');
    assert.equal(await body.locator('pre.raw').count(), 0);
    assert.equal(await body.locator('table th').count(), 2);
    await page.keyboard.press('Space');
    assert.equal(await body.locator('pre.raw').textContent(), EVIL);
    await page.keyboard.press('Space');
    // The Thinking section opens by keyboard.
    await think.locator('summary').focus();
    await page.keyboard.press('Enter');
    assert.equal(await think.evaluate((d) => d.open), true);
    assert.equal(await page.evaluate(() => window.__xss), undefined);
    assert.deepEqual(await page.evaluate(() => window.__violations), []);
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('thinking parts, tool calls and results, images and attachments render as sections and placeholders', async () => {
  const env = await setup({ contextOptions: { viewport: VIEWPORT } });
  try {
    const { page, baseURL, errors } = env;
    await open(page, baseURL + 'static/');
    // A 1×1 PNG, stored in the message itself.
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    await showSession(page, 'render-parts', [
      { role: 'user', content: [{ type: 'text', text: 'Look at `this`:' }, { type: 'image', data: png, mimeType: 'image/png' }, { type: 'file', name: 'report.pdf' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'The user wants the **weather**.' },
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 't1', name: 'get_weather', input: { city: 'Paris', units: 'metric' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: '{"temp":18,"sky":"rain"}' }] },
      { role: 'assistant', content: null, reasoning_content: 'Now call the forecast.', tool_calls: [{ id: 'c2', type: 'function', function: { name: 'forecast', arguments: '{"days":3}' } }] },
      { role: 'tool', name: 'forecast', content: 'rain, rain, sun' },
      { role: 'assistant', content: '<think>\nShort answer.\n</think>\nIt is **18 °C** and raining.' },
    ]);
    const panel = page.locator('#panel');
    const bodies = panel.locator('.messages .message-body');
    // User: text as Markdown, the stored image shown, the file named.
    assert.equal(await bodies.nth(0).locator('code').textContent(), 'this');
    const img = bodies.nth(0).locator('img.inline-image');
    assert.equal(await img.getAttribute('src'), `data:image/png;base64,${png}`);
    assert.equal(await img.evaluate(async (i) => (await i.decode(), i.complete && i.naturalWidth)), 1); // a data: image too loads after it is put in the page
    assert.deepEqual(await bodies.nth(0).locator('.placeholder.attachment').allTextContents(), ['[file report.pdf]']);
    // Assistant: a Thinking section, the text, a tool call with its name and arguments.
    assert.equal(await bodies.nth(1).locator('details.thinking summary').textContent(), 'Thinking');
    assert.equal(await bodies.nth(1).locator('details.thinking strong').textContent(), 'weather');
    assert.equal(await bodies.nth(1).locator('.tool-call .tool-name').textContent(), 'get_weather');
    assert.equal(await bodies.nth(1).locator('.tool-call .tool-args').textContent(), JSON.stringify({ city: 'Paris', units: 'metric' }, null, 2));
    // A tool result part: folded, its JSON pretty-printed.
    const result = bodies.nth(2).locator('details.tool-result');
    assert.equal(await result.locator('summary').textContent(), 'Tool result');
    assert.equal(await result.evaluate((d) => d.open), false);
    assert.equal(await result.locator('pre').textContent(), JSON.stringify({ temp: 18, sky: 'rain' }, null, 2));
    // OpenAI shapes: reasoning_content and tool_calls; a tool message.
    assert.equal(await bodies.nth(3).locator('details.thinking .thinking-body').textContent(), 'Now call the forecast.');
    assert.equal(await bodies.nth(3).locator('.tool-call .tool-name').textContent(), 'forecast');
    assert.equal(await bodies.nth(3).locator('.tool-call .tool-args').textContent(), '{\n  "days": 3\n}');
    assert.equal(await bodies.nth(4).locator('details.tool-result summary').textContent(), 'Tool result: forecast');
    assert.equal(await bodies.nth(4).locator('details.tool-result pre').textContent(), 'rain, rain, sun');
    // A <think> section before the answer.
    assert.equal(await bodies.nth(5).locator('details.thinking .thinking-body').textContent(), 'Short answer.');
    assert.equal(await bodies.nth(5).locator('.markdown strong').textContent(), '18 °C');
    // Raw of a parts message is its JSON; of a string message the string.
    const raw = panel.locator('.messages .message').nth(1).locator('button.raw-toggle');
    await raw.click();
    assert.deepEqual(JSON.parse(await bodies.nth(1).locator('pre.raw').textContent()).content[2], { type: 'tool_use', id: 't1', name: 'get_weather', input: { city: 'Paris', units: 'metric' } });
    await panel.locator('.messages .message').nth(5).locator('button.raw-toggle').click();
    assert.equal(await bodies.nth(5).locator('pre.raw').textContent(), '<think>\nShort answer.\n</think>\nIt is **18 °C** and raining.');
    // No fenced code here: highlight.js was never loaded.
    const loaded = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.includes('/vendor/highlight/')));
    assert.deepEqual(loaded, []);
    assert.deepEqual(await onAttributes(page), []);
    await page.screenshot({ path: artifactPath('render-parts.png') });
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('every grammar render-message.js may ask for is served from static/vendor and precached by the service worker', async () => {
  const env = await setup();
  try {
    const { page, baseURL, errors } = env;
    await page.goto(baseURL + 'e2e/fixtures/smoke.html');
    const out = await page.evaluate(async () => {
      const { CODE_LANGUAGES } = await import('/static/render-message.js');
      const files = [...new Set(Object.values(CODE_LANGUAGES))].sort();
      const sw = await (await fetch('/static/sw.js')).text();
      const missing = [];
      for (const f of files) {
        const res = await fetch(`/static/vendor/highlight/languages/${f}.js`);
        if (!res.ok) missing.push(`${f}: ${res.status}`);
        if (!sw.includes(`"${f}"`)) missing.push(`${f}: not in sw.js`);
      }
      for (const lib of ['markdown-it.js', 'purify.js', 'highlight/core.js']) {
        if (!(await fetch(`/static/vendor/${lib}`)).ok) missing.push(lib);
        if (!sw.includes(`./vendor/${lib}`)) missing.push(`${lib}: not in sw.js`);
      }
      return { count: files.length, missing };
    });
    assert.deepEqual(out, { count: 20, missing: [] });
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('a huge message shows its start as text and is rendered whole only on Show more', async () => {
  const env = await setup({ contextOptions: { viewport: VIEWPORT } });
  try {
    const { page, baseURL, errors } = env;
    await open(page, baseURL + 'static/');
    const line = '**Bold** line of a very long log, with `code` and a [link](https://example.com/x).\n';
    const huge = line.repeat(Math.ceil(3_000_000 / line.length)); // ~3 MB
    await showSession(page, 'render-huge', [
      { role: 'user', content: 'Paste the log' },
      { role: 'assistant', content: huge },
      { role: 'user', content: 'Thanks' },
    ]);
    const msg = page.locator('#panel .messages .message').nth(1);
    const body = msg.locator('.message-body');
    assert.equal(await body.locator('.message-huge-more').textContent(), `A long message (${huge.length.toLocaleString('en')} characters): its start shows as text; Show more renders it whole.`);
    assert.equal(await body.locator('.message-huge').textContent(), huge.slice(0, 4000));
    assert.equal(await body.locator('strong').count(), 0, 'nothing of it is rendered as Markdown yet');
    assert.equal(await body.evaluate((b) => b.classList.contains('collapsed')), true);
    // The message after it is drawn as usual.
    assert.equal(await page.locator('#panel .messages .message').nth(2).locator('.message-body').textContent(), 'Thanks');
    // Raw shows the source's first 100,000 characters, the rest when asked for; and back.
    await msg.locator('.raw-toggle').click();
    assert.equal(await body.locator('.message-huge-more').textContent(), `The first 100,000 of ${huge.length.toLocaleString('en')} characters of the source.`);
    assert.equal(await body.locator('pre.raw').textContent(), huge.slice(0, 100_000));
    await body.locator('button', { hasText: 'Show all of it' }).click();
    assert.equal(await body.locator('pre.raw').evaluate((p) => p.textContent.length), huge.length);
    assert.equal(await body.locator('.message-huge-more').count(), 0);
    await msg.locator('.raw-toggle').click();
    assert.equal(await body.locator('.message-huge').textContent(), huge.slice(0, 4000));
    await msg.locator('.show-more').click();
    await body.locator('strong').first().waitFor();
    assert.equal(await body.evaluate((b) => b.classList.contains('collapsed')), false);
    assert.equal(await body.locator('strong').count(), Math.ceil(3_000_000 / line.length));
    assert.equal(await msg.locator('.show-more').textContent(), 'Show less');
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('a long run of text without spaces gets break points (<wbr>), never inside a character, with its text unchanged; code blocks are left alone', async () => {
  const env = await setup({ contextOptions: { viewport: VIEWPORT } });
  try {
    const { page, baseURL, errors } = env;
    await open(page, baseURL + 'static/');
    const blob = 'QUJD'.repeat(22_500); // a 90,000-character base64 blob (under the huge message's 100,000)
    const emoji = '👩‍👩‍👧'.repeat(40) + 'é'.repeat(40) + '🇵🇹'.repeat(40); // ZWJ sequences, combining marks, flags
    const fence = '```\n' + 'x'.repeat(200) + '\n```';
    await showSession(page, 'render-runs', [
      { role: 'user', content: `paste: ${blob}` },
      { role: 'assistant', content: `${emoji}\n\n${fence}` },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: 'y'.repeat(300) } }] },
    ]);
    // The session shown is this one (its first message), not the one before it.
    await page.locator('#panel .messages .message-body', { hasText: 'paste: QUJD' }).first().waitFor();
    await page.locator('#panel .messages .message-body').nth(2).waitFor();
    const got = await page.locator('#panel .messages .message-body').evaluateAll((bodies) => bodies.map((b) => {
      /** The text before each <wbr>, by its last code unit: none may be a joiner or a high surrogate, nor the next a mark or low surrogate. */
      const bad = [];
      for (const w of b.querySelectorAll('wbr')) {
        const before = w.previousSibling?.data ?? '';
        const after = w.nextSibling?.data ?? '';
        if (/[\u200d\ud800-\udbff]$/.test(before) || /^[\p{M}\u200d\ufe0f\udc00-\udfff]/u.test(after)) bad.push([before.slice(-4), after.slice(0, 4)]);
      }
      return { text: b.textContent, wbr: b.querySelectorAll('wbr').length, inCode: b.querySelectorAll('pre code wbr').length, bad };
    }));
    assert.ok(got[0].text === `paste: ${blob}`, `the text is unchanged: ${got[0].text.length} characters, ${got[0].text.slice(0, 40)}…`);
    assert.ok(got[0].wbr >= 2700 && got[0].wbr <= 2813, `a break point every 32 characters: ${got[0].wbr}`);
    assert.ok(got[1].text.startsWith(emoji), got[1].text.slice(0, 40));
    assert.ok(got[1].wbr > 0);
    assert.deepEqual(got[1].bad, [], 'no break point inside a character, a ZWJ sequence or before a mark');
    assert.equal(got[1].inCode, 0, 'a code block scrolls and is left alone');
    assert.ok(got[2].wbr > 0, 'tool arguments too');
    // Raw shows the exact source, with break points too.
    const raw = page.locator('#panel .messages .message').nth(0).locator('.raw-toggle');
    await raw.click();
    const pre = page.locator('#panel .messages .message').nth(0).locator('pre.raw');
    assert.ok((await pre.textContent()) === `paste: ${blob}`, 'Raw shows the exact source');
    assert.ok((await pre.locator('wbr').count()) > 2700);
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('a long tool result shows folded, with no Show more that would show nothing: its summary opens it', async () => {
  const env = await setup({ contextOptions: { viewport: VIEWPORT } });
  try {
    const { page, baseURL, errors } = env;
    await open(page, baseURL + 'static/');
    const output = 'line of the build log\n'.repeat(100); // 2,200 characters: past the length that collapses a message
    await showSession(page, 'render-tool-long', [
      { role: 'user', content: 'Build it' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'build', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: output },
      { role: 'assistant', content: 'x'.repeat(900) },
    ]);
    const tool = page.locator('#panel .messages .message').nth(2);
    const body = tool.locator('.message-body');
    assert.equal(await tool.locator('.show-more').count(), 0, 'no Show more under the folded result');
    assert.equal(await body.evaluate((b) => b.classList.contains('collapsed')), false);
    const details = body.locator('details.tool-result');
    assert.equal(await details.evaluate((d) => d.open), false);
    await details.locator('summary').click();
    assert.equal(await details.evaluate((d) => d.open), true);
    assert.equal(await details.locator('pre').textContent(), output);
    // A long message that is text still collapses, with its Show more.
    assert.equal(await page.locator('#panel .messages .message').nth(3).locator('.show-more').count(), 1);
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('each message\'s Raw and Copy buttons are named by the message (its place on the path and role), their text unchanged', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1280, height: 800 } } });
  try {
    const { page, baseURL, errors } = env;
    const panel = await openExplorer(page, baseURL);
    const messages = panel.locator('.messages .message');
    await messages.first().waitFor();
    const seen = await messages.evaluateAll((ls) => ls.map((li) => ({
      role: li.querySelector('.role').textContent,
      raw: [li.querySelector('.raw-toggle')?.textContent, li.querySelector('.raw-toggle')?.getAttribute('aria-label')],
      copy: [li.querySelector('.copy').textContent, li.querySelector('.copy').getAttribute('aria-label')],
    })));
    assert.ok(seen.length >= 3);
    seen.forEach((m, k) => {
      assert.deepEqual(m.copy, ['Copy', `Copy message ${k + 1} (${m.role})`]);
      if (m.raw[0] !== undefined) assert.deepEqual(m.raw, ['Raw', `Raw message ${k + 1} (${m.role})`]);
    });
    assert.equal(new Set(seen.map((m) => m.copy[1])).size, seen.length, 'no two Copy buttons share a name');
    // What a screen reader gets: the name, by role (the label starts with the text shown: voice control says "Copy").
    const second = panel.getByRole('button', { name: `Copy message 2 (${seen[1].role})`, exact: true });
    assert.equal(await second.count(), 1);
    assert.equal(await panel.getByRole('button', { name: `Raw message 2 (${seen[1].role})`, exact: true }).count(), 1);
    // Copied: the name says so too, then Copy again.
    await env.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await second.click();
    await panel.getByRole('button', { name: `Copied message 2 (${seen[1].role})`, exact: true }).waitFor();
    await second.waitFor();
    await panel.screenshot({ path: artifactPath('render-message-buttons-1280x800.png') });
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});
