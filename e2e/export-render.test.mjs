// The Markdown export rendered as a careless viewer would: a page without a
// Content-Security-Policy renders the export of a session full of XSS
// payloads (session id with backticks, title, branch, roles and labels with
// HTML, content with <img onerror>, <script>, javascript: and data: links,
// <a href="javascript:…">) with markdown-it and with marked, both with
// default options, inserts the HTML so that scripts would run
// (createContextualFragment), clicks every link, and asserts that no
// payload ran and that the payloads show as text. A control renders the
// raw payloads with marked to show that the page does catch a payload
// that runs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { setup, openShimPage, REPO_ROOT } from './helpers.mjs';

const MARKED = fs.readFileSync(path.join(REPO_ROOT, 'node_modules/marked/lib/marked.umd.js'), 'utf8');
const MARKDOWN_IT = fs.readFileSync(path.join(REPO_ROOT, 'node_modules/markdown-it/dist/browser/markdown-it.umd.min.js'), 'utf8');

// Every payload reports to window.ran under its own name when it runs.
const run = (name) => `window.ran.push('${name}')`;
const CONTENT = [
  `<img src=x onerror="${run('img')}">`,
  `<script>${run('script')}</script>`,
  `[click](javascript:${run('js-link')})`,
  `[click](data:text/html,<script>${run('data-link')}</script>)`,
  `<a href="javascript:${run('a-href')}">click</a>`,
  `[ref]\n\n[ref]: javascript:${run('ref')}`,
  `<javascript:${run('autolink')}>`,
  `Some **bold**, a [good link](https://example.com/), and code:\n\n\`\`\`html\n<script>${run('fenced')}</script>\n\`\`\``,
  // Fences after other blocks, indented, or closed in a way only some renderers accept.
  `| a | b |\n|---|---|\n| \`x\` | y |\n\`\`\`\n<img src=x onerror="${run('table-fence')}">\n\`\`\``,
  `- item\n  \`\`\`\n<img src=x onerror="${run('list-fence')}">`,
  `> quote\n\`\`\`\n<img src=x onerror="${run('quote-fence')}">\n\`\`\``,
  // marked closes a fence at "```~~~", markdown-it does not.
  `\`\`\`\ncode\n\`\`\`~~~\n<img src=x onerror="${run('half-close')}">\n\`\`\`\n<img src=x onerror="${run('after-half-close')}">`,
  // An indented fence: CommonMark opens one, so it must not close where a column-0 fence opens.
  `  \`\`\`\n<img src=x onerror="${run('indented-open')}">\n\`\`\`\n<img src=x onerror="${run('indented-between')}">\n\`\`\``,
  `\`\`\`\nleft open <img src=x onerror="${run('open-fence')}">`,
].join('\n\n');
const PAYLOAD = {
  sessionId: "s`<img src=x onerror=\"" + run('id') + "\">`x",
  title: `<img src=x onerror="${run('title')}">`,
  branch: "b`<svg onload=\"" + run('branch') + "\">",
  role: `<img src=x onerror="${run('role')}">`,
  label: `*<img src=x onerror="${run('label')}">*`,
};

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

/** Renders markdown with each renderer in a page without CSP; returns what happened. */
async function render(markdown) {
  const page = await env.newPage();
  await page.setContent('<!doctype html><html><head><meta charset="utf-8"></head><body></body></html>');
  await page.addScriptTag({ content: MARKED });
  await page.addScriptTag({ content: MARKDOWN_IT });
  const out = await page.evaluate(async (md) => {
    window.ran = [];
    const html = {
      'markdown-it': window.markdownit().render(md),
      marked: window.marked.parse(md),
    };
    const result = {};
    for (const [name, h] of Object.entries(html)) {
      const box = document.createElement('div');
      document.body.replaceChildren(box);
      box.append(document.createRange().createContextualFragment(h)); // scripts in h would run
      await new Promise((r) => setTimeout(r, 300)); // onerror/onload of broken images
      const links = [...box.querySelectorAll('a[href]')].map((a) => a.getAttribute('href'));
      for (const a of box.querySelectorAll('a[href]')) {
        a.addEventListener('click', (e) => {
          if (!/^javascript:/i.test(a.href)) e.preventDefault(); // no navigation away
        });
        a.click();
      }
      await new Promise((r) => setTimeout(r, 100));
      result[name] = {
        ran: window.ran.splice(0),
        links,
        elements: [...box.querySelectorAll('script, img, svg, iframe, object, embed')].map((e) => e.tagName.toLowerCase()),
        handlers: [...box.querySelectorAll('*')].flatMap((e) => [...e.attributes].filter((a) => /^on/i.test(a.name)).map((a) => a.name)),
        text: box.textContent,
      };
    }
    return result;
  }, markdown);
  await page.close();
  return out;
}

test('the Markdown export of XSS payloads runs no script in markdown-it or marked', async () => {
  const page = await openShimPage(env);
  const exported = await page.evaluate(async (p) => {
    const tree = await window.sessiontree.init({ dbName: 'export-render' });
    const must = async (req) => {
      const r = await tree.call(req);
      if (!r.ok) throw new Error(JSON.stringify(r.error));
      return r.value;
    };
    await must({ operation: 'create', sessionId: p.sessionId, title: p.title });
    const a = await must({ operation: 'append', sessionId: p.sessionId, message: { role: p.role, content: p.content } });
    await must({ operation: 'branch', sessionId: p.sessionId, nodeId: a.id, branch: p.branch });
    await must({ operation: 'append', sessionId: p.sessionId, branch: p.branch, message: { role: 'assistant', content: [{ type: 'text', text: p.content }] } });
    await must({ operation: 'label', sessionId: p.sessionId, nodeId: a.id, label: p.label });
    return (await must({ operation: 'export', sessionId: p.sessionId, format: 'markdown' })).text;
  }, { ...PAYLOAD, content: CONTENT });
  await page.close();
  assert.match(exported, /^# /);

  const out = await render(exported);
  for (const [name, r] of Object.entries(out)) {
    assert.deepEqual(r.ran, [], `${name}: no payload ran`);
    assert.deepEqual(r.elements, [], `${name}: no script, img, svg, iframe, object or embed element`);
    assert.deepEqual(r.handlers, [], `${name}: no on* attribute`);
    assert.deepEqual(r.links, ['https://example.com/', 'https://example.com/'], `${name}: only the safe link (once per message) is a link`);
    for (const text of ['<script>', 'onerror=', '<a href="javascript:', 'javascript:window.ran', 'data:text/html', PAYLOAD.title, PAYLOAD.sessionId, PAYLOAD.branch]) {
      assert.ok(r.text.includes(text), `${name}: ${JSON.stringify(text)} shows as text`);
    }
  }
  assert.deepEqual(env.errors, []);
});

test('control: the raw payloads do run under marked, so the page would catch them', async () => {
  const out = await render(CONTENT);
  assert.ok(out.marked.ran.includes('img'), `marked ran ${JSON.stringify(out.marked.ran)}`);
  assert.ok(out.marked.ran.includes('script'), `marked ran ${JSON.stringify(out.marked.ran)}`);
  assert.ok(out.marked.ran.includes('js-link'), `marked ran ${JSON.stringify(out.marked.ran)}`);
  env.errors.splice(0); // the control's own payloads may log
});
