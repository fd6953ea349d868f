// Exports as they are downloaded, imported on the explorer: a ChatGPT ZIP
// and a Claude.ai ZIP (built here with fflate's zipSync from small JSON in
// each export's layout) through the file input and by drag and drop,
// several files at once, a folder of Claude Code transcripts (the
// webkitdirectory input), and damaged ZIPs, which give a clear error in
// the report and no exception. The store reads the ZIPs (tree.importZip, in
// its worker); the page hands it the File.
// Screenshots: e2e/artifacts/import-zip-<width>x<height>.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { zipSync, strToU8, Zip, ZipDeflate } from 'fflate';
import { setup, artifactPath, openExplorer, explorerCall, importReport } from './helpers.mjs';

// ------------------------------------------------------------ the exports

/** A ChatGPT mapping entry holding a message. */
function gptNode(id, parent, children, role, parts, contentType = 'text', metadata = {}) {
  return {
    id,
    message: { id, author: { role, name: null, metadata: {} }, create_time: 1714585000 + children.length, content: { content_type: contentType, parts }, status: 'finished_successfully', metadata, recipient: 'all' },
    parent,
    children,
  };
}

/**
 * ChatGPT conversations.json: "gpt-a" (5 messages, a retried answer makes
 * 2 branches; the first message has an image and a file attachment) and
 * "gpt-b" (2 messages, with voice audio in its own folder of the ZIP).
 */
function chatgptExport() {
  const a = {
    title: 'Photo of a heron',
    create_time: 1714585000.5,
    update_time: 1714585090.25,
    mapping: {
      'a-root': { id: 'a-root', message: null, parent: null, children: ['a-u1'] },
      'a-u1': gptNode('a-u1', 'a-root', ['a-a1', 'a-a1b'], 'user', [
        { content_type: 'image_asset_pointer', asset_pointer: 'file-service://file-HeRon123', size_bytes: 2048, width: 64, height: 48 },
        'What bird is this?',
      ], 'multimodal_text', { attachments: [{ id: 'file-NoTes456', name: 'notes.pdf', size: 300, mime_type: 'application/pdf' }] }),
      'a-a1': gptNode('a-a1', 'a-u1', ['a-u2'], 'assistant', ['A grey heron.']),
      'a-a1b': gptNode('a-a1b', 'a-u1', [], 'assistant', ['Probably a heron.']),
      'a-u2': gptNode('a-u2', 'a-a1', ['a-a2'], 'user', ['Where do they nest?']),
      'a-a2': gptNode('a-a2', 'a-u2', [], 'assistant', ['In colonies, high in trees.']),
    },
    current_node: 'a-a2',
    conversation_id: 'gpt-a',
    id: 'gpt-a',
  };
  const b = {
    title: 'Voice chat',
    create_time: 1714586000,
    update_time: 1714586010,
    mapping: {
      'b-root': { id: 'b-root', message: null, parent: null, children: ['b-u1'] },
      'b-u1': gptNode('b-u1', 'b-root', ['b-a1'], 'user', ['Say hello']),
      'b-a1': gptNode('b-a1', 'b-u1', [], 'assistant', ['Hello!']),
    },
    current_node: 'b-a1',
    conversation_id: 'gpt-b',
    id: 'gpt-b',
  };
  return [a, b];
}

/** The ZIP ChatGPT hands out: conversations.json, account JSON, the HTML view and media files. */
function chatgptZip() {
  return zipSync({
    'conversations.json': strToU8(JSON.stringify(chatgptExport())),
    'user.json': strToU8(JSON.stringify({ id: 'user-1', email: 'a@example.com' })),
    'message_feedback.json': strToU8('[]'),
    'chat.html': strToU8('<html><body>the same chats</body></html>'),
    'file-HeRon123-heron.png': new Uint8Array(2048).fill(1),
    'file-NoTes456-notes.pdf': new Uint8Array(300).fill(2),
    'gpt-b/audio/file_00000000aa11-0b1c.wav': new Uint8Array(5000).fill(3),
    'dalle-generations/file-Unused789-sunset.webp': new Uint8Array(700).fill(4),
  });
}

/** A Claude.ai chat message. */
function claudeMessage(uuid, parent, sender, text) {
  return { uuid, text, content: [{ type: 'text', text, citations: [] }], sender, created_at: '2025-03-02T09:00:00.000000Z', updated_at: '2025-03-02T09:00:00.000000Z', attachments: [], files: [], parent_message_uuid: parent };
}

const CLAUDE_ROOT = '00000000-0000-4000-8000-000000000000';

/**
 * Claude.ai conversations.json: "claude-1" (4 messages: a retried answer,
 * 2 branches) and "claude-2" (2 messages).
 */
function claudeExport() {
  return [
    {
      uuid: 'claude-1', name: 'Packing for rain', summary: '', created_at: '2025-03-02T09:00:00.000000Z', updated_at: '2025-03-02T09:20:00.000000Z',
      current_leaf_message_uuid: 'c1-h2',
      chat_messages: [
        claudeMessage('c1-h1', CLAUDE_ROOT, 'human', 'What should I pack for Bergen?'),
        claudeMessage('c1-a1', 'c1-h1', 'assistant', 'A waterproof shell.'),
        claudeMessage('c1-a1b', 'c1-h1', 'assistant', 'An umbrella.'),
        claudeMessage('c1-h2', 'c1-a1', 'human', 'And shoes?'),
      ],
    },
    {
      uuid: 'claude-2', name: 'A haiku', summary: '', created_at: '2025-03-03T09:00:00.000000Z', updated_at: '2025-03-03T09:01:00.000000Z',
      current_leaf_message_uuid: 'c2-a1',
      chat_messages: [
        claudeMessage('c2-h1', CLAUDE_ROOT, 'human', 'Write a haiku about rain.'),
        claudeMessage('c2-a1', 'c2-h1', 'assistant', 'Grey roofs drum softly'),
      ],
    },
  ];
}

/** The ZIP Claude.ai hands out (here inside a folder, as unpacking tools often leave it). */
function claudeZip() {
  return zipSync({
    'data-2025-03-03/conversations.json': strToU8(JSON.stringify(claudeExport())),
    'data-2025-03-03/users.json': strToU8(JSON.stringify([{ uuid: 'u1', full_name: 'A', email_address: 'a@example.com' }])),
    'data-2025-03-03/projects.json': strToU8(JSON.stringify([{ uuid: 'p1', name: 'Trips', docs: [] }])),
  });
}

/** A Claude Code transcript of n messages (JSON lines) in session sessionId. */
function claudeCode(sessionId, n) {
  const lines = [];
  for (let i = 0; i < n; i++) {
    const user = i % 2 === 0;
    lines.push(JSON.stringify({
      parentUuid: i === 0 ? null : `${sessionId}-${i - 1}`, isSidechain: false, type: user ? 'user' : 'assistant', sessionId,
      uuid: `${sessionId}-${i}`, timestamp: `2025-11-19T22:5${i}:00.000Z`,
      message: user ? { role: 'user', content: `question ${i}` } : { role: 'assistant', content: [{ type: 'text', text: `answer ${i}` }] },
    }));
  }
  return lines.join('\n') + '\n';
}

// ---------------------------------------------------------------- helpers

/** The explorer on a fresh profile, at a size. */
async function explorer(viewport = { width: 1366, height: 850 }) {
  const env = await setup({ contextOptions: { viewport } });
  await openExplorer(env.page, env.baseURL);
  return env;
}

/** Wait for the import report and return its title, files, sessions and warnings as text. */
const report = importReport;

/** Node count of each listed session, by id (the demo session left out). */
async function nodeCounts(page) {
  const list = await explorerCall(page, { operation: 'sessions' });
  return Object.fromEntries(list.filter((s) => s.sessionId !== 'demo').map((s) => [s.sessionId, s.nodeCount]).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** A file for setInputFiles. */
const upload = (name, bytes, mimeType = 'application/zip') => ({ name, mimeType, buffer: Buffer.from(bytes) });

// ------------------------------------------------------------------ tests

test('import-zip: a ChatGPT ZIP through the file input imports every conversation and lists its attachments', async () => {
  const env = await explorer();
  try {
    const { page, errors } = env;
    await page.setInputFiles('#import-file', upload('chatgpt-export.zip', chatgptZip()));
    const r = await report(page, 'Imported 2 sessions');
    assert.deepEqual(await nodeCounts(page), { 'gpt-a': 5, 'gpt-b': 2 });
    const a = await explorerCall(page, { operation: 'session', sessionId: 'gpt-a' });
    assert.equal(a.cursor, 'a-a2');
    assert.equal(r.sessions.length, 2);
    assert.match(r.sessions[0], /^Photo of a heron5 nodes · 2 branches$/);
    // One line per file of the ZIP that was read or left out.
    assert.deepEqual(r.files, [
      'chatgpt-export.zip › conversations.json2 sessions (chatgpt)',
      'chatgpt-export.zip › user.jsonskipped: account data, not conversations',
      'chatgpt-export.zip › message_feedback.jsonskipped: account data, not conversations',
      'chatgpt-export.zip › chat.htmlskipped: the export\'s web page view (its JSON holds the same conversations)',
      'chatgpt-export.zipskipped: 1 file not stored, named by no conversation read: file-Unused789-sunset.webp (image/webp, 700 B)',
    ]);
    // Attachments: by name, type and size, on the message naming them.
    const att = r.warnings.filter((w) => /attachment/.test(w));
    assert.deepEqual(att, [
      'Photo of a heron2 attachments in the ZIP, recorded here but not stored: file-HeRon123-heron.png (image/png, 2.0 kB) on message a-u1; file-NoTes456-notes.pdf (application/pdf, 300 B) on message a-u1',
      'Voice chat1 attachment in the ZIP, recorded here but not stored: file_00000000aa11-0b1c.wav (audio/wav, 5.0 kB)',
    ]);
    // Each names its conversation by title, the id its tooltip.
    const labels = page.locator('#report-warnings .warning-session');
    assert.deepEqual(await labels.evaluateAll((ls) => ls.map((l) => `${l.textContent} (${l.title})`)), ['Photo of a heron (gpt-a)', 'Voice chat (gpt-b)']);
    // The first imported session is opened.
    await page.locator('#session-list li[data-session-id="gpt-a"].selected').waitFor();
    await page.locator('#panel .row.cursor[data-node-id="a-a2"]').waitFor();
    await page.screenshot({ path: artifactPath('import-zip-1366x850.png') });
    // The ZIP was unzipped by the store, in its worker (fflate is in the worker's bundle): the page never loads it.
    const loaded = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname).filter((p) => p.includes('fflate') || p.includes('zip-read')));
    assert.deepEqual(loaded, []);
    // The service worker keeps the worker's bundle and the unbundled modules, so a ZIP imports offline too.
    const sw = await page.evaluate(async () => (await fetch('/static/sw.js')).text());
    assert.ok(sw.includes('"./store-worker.bundle.js"') && sw.includes('"../js/vendor/fflate.js"') && sw.includes('"./import-files.js"'));
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('import-zip: a Claude.ai ZIP dropped on the page imports its conversations and skips users.json and projects.json', async () => {
  const env = await explorer();
  try {
    const { page, errors } = env;
    const bytes = [...claudeZip()];
    const dt = await page.evaluateHandle((bytes) => {
      const d = new DataTransfer();
      d.items.add(new File([new Uint8Array(bytes)], 'data-2025-03-03.zip', { type: 'application/zip' }));
      return d;
    }, bytes);
    await page.dispatchEvent('body', 'dragenter', { dataTransfer: dt });
    assert.equal(await page.locator('#drop-overlay').isVisible(), true);
    await page.dispatchEvent('body', 'drop', { dataTransfer: dt });
    const r = await report(page, 'Imported 2 sessions');
    assert.equal(await page.locator('#drop-overlay').isVisible(), false);
    assert.deepEqual(await nodeCounts(page), { 'claude-1': 4, 'claude-2': 2 });
    const c1 = await explorerCall(page, { operation: 'session', sessionId: 'claude-1' });
    assert.equal(c1.cursor, 'c1-h2');
    assert.deepEqual(r.files, [
      'data-2025-03-03.zip › data-2025-03-03/conversations.json2 sessions (claudeai)',
      'data-2025-03-03.zip › data-2025-03-03/users.jsonskipped: account data, not conversations',
      'data-2025-03-03.zip › data-2025-03-03/projects.jsonskipped: account data, not conversations',
    ]);
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('import-zip: several files at once (two ZIPs and a transcript) through the file input', async () => {
  const env = await explorer();
  try {
    const { page, errors } = env;
    await page.setInputFiles('#import-file', [
      upload('chatgpt-export.zip', chatgptZip()),
      upload('claude.zip', claudeZip()),
      upload('session.jsonl', strToU8(claudeCode('cc-one', 3)), 'application/x-ndjson'),
    ]);
    const r = await report(page, 'Imported 5 sessions');
    assert.deepEqual(await nodeCounts(page), { 'cc-one': 3, 'claude-1': 4, 'claude-2': 2, 'gpt-a': 5, 'gpt-b': 2 });
    assert.ok(r.files.includes('session.jsonl1 session (claude-code)'), r.files.join('\n'));
    assert.equal(r.files.length, 5 + 3 + 1);
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('import-zip: a dropped set of several files imports each', async () => {
  const env = await explorer();
  try {
    const { page, errors } = env;
    const files = { zip: [...claudeZip()], a: claudeCode('cc-drop-a', 2), b: claudeCode('cc-drop-b', 4) };
    const dt = await page.evaluateHandle(({ zip, a, b }) => {
      const d = new DataTransfer();
      d.items.add(new File([new Uint8Array(zip)], 'claude.zip', { type: 'application/zip' }));
      d.items.add(new File([a], 'a.jsonl'));
      d.items.add(new File([b], 'b.jsonl'));
      return d;
    }, files);
    await page.dispatchEvent('body', 'drop', { dataTransfer: dt });
    await report(page, 'Imported 4 sessions');
    assert.deepEqual(await nodeCounts(page), { 'cc-drop-a': 2, 'cc-drop-b': 4, 'claude-1': 4, 'claude-2': 2 });
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('import-zip: a folder of Claude Code transcripts and a ZIP through "Import a folder…" imports every .jsonl and the ZIP, and skips the rest', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sessiontree-folder-'));
  const root = path.join(dir, 'my-project');
  fs.mkdirSync(path.join(root, 'older'), { recursive: true });
  fs.writeFileSync(path.join(root, 'first.jsonl'), claudeCode('cc-first', 4));
  fs.writeFileSync(path.join(root, 'second.jsonl'), claudeCode('cc-second', 2));
  fs.writeFileSync(path.join(root, 'older', 'third.jsonl'), claudeCode('cc-third', 5));
  fs.writeFileSync(path.join(root, 'notes.txt'), 'not an export');
  fs.writeFileSync(path.join(root, 'settings.json'), JSON.stringify({ theme: 'dark' }));
  fs.writeFileSync(path.join(root, 'chatgpt-export.zip'), chatgptZip());
  const env = await explorer();
  try {
    const { page, errors } = env;
    // Without showDirectoryPicker (Firefox, Safari, phones) the button opens the
    // folder input, the one "Open a folder…" uses (open-folder.js).
    await page.evaluate(() => { window.showDirectoryPicker = undefined; });
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.locator('#import-folder-button').click()]);
    assert.equal(await chooser.element().evaluate((e) => e.id), 'open-folder');
    await chooser.setFiles(root);
    const r = await report(page, 'Imported 5 sessions');
    assert.deepEqual(await nodeCounts(page), { 'cc-first': 4, 'cc-second': 2, 'cc-third': 5, 'gpt-a': 5, 'gpt-b': 2 });
    const line = (name) => r.files.find((f) => f.startsWith(name));
    assert.equal(line('my-project/notes.txt'), 'my-project/notes.txtskipped: not a session file (JSON, JSON lines or an Aider history)');
    assert.match(line('my-project/settings.json'), /^my-project\/settings\.jsonskipped: /);
    assert.equal(line('my-project/older/third.jsonl'), 'my-project/older/third.jsonlClaude Code · 1 session');
    assert.equal(line('my-project/chatgpt-export.zip › conversations.json'), 'my-project/chatgpt-export.zip › conversations.json2 sessions (chatgpt)');
    assert.equal(r.warnings.filter((w) => /error/i.test(w)).length, 0);
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('import-zip: a damaged ZIP gives a clear error in the report, not an exception', async () => {
  const good = chatgptZip();
  // Cut inside conversations.json's compressed data (the first entry).
  const cut = good.subarray(0, 120);
  // A ZIP signature followed by nothing a ZIP holds.
  const junk = new Uint8Array(600).fill(0x41);
  junk.set([0x50, 0x4b, 0x03, 0x04]);
  // Not a ZIP at all, named like one.
  const text = strToU8('hello, I am not a zip');
  // Flipped bytes inside the compressed data.
  const corrupt = good.slice();
  for (let i = 60; i < 90; i++) corrupt[i] ^= 0x5a;
  const env = await explorer();
  try {
    const { page, errors } = env;
    await page.setInputFiles('#import-file', [upload('cut.zip', cut), upload('junk.zip', junk), upload('text.zip', text), upload('corrupt.zip', corrupt)]);
    const r = await report(page, 'Nothing imported');
    assert.equal(await page.locator('#import-report').evaluate((e) => e.classList.contains('failed')), true);
    // Each failure once: on its file's line, not again under warnings.
    assert.deepEqual(r.warnings, []);
    assert.deepEqual(r.errors, [
      'cut.zip: the ZIP is damaged or cut off (invalid zip data); only the entries before the damage were read',
      'cut.zip › conversations.json: the ZIP ends inside this entry (cut off); it was not imported',
      'junk.zip: not a ZIP file, or a damaged one: no entry found in it',
      'text.zip: not a ZIP file, or a damaged one: no entry found in it',
      'corrupt.zip › conversations.json: the entry is damaged (invalid distance); it was not imported',
    ]);
    // The rest of the damaged ZIP is still accounted for, file by file.
    assert.equal(r.files.length, 9, r.files.join('\n'));
    assert.match(r.files[8], /^corrupt\.zipskipped: 4 files not stored, named by no conversation read: file-HeRon123-heron\.png/);
    assert.deepEqual(await nodeCounts(page), {});
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('import-zip: the report after a ZIP import fits a phone (390×844)', async () => {
  const env = await explorer({ width: 390, height: 844 });
  try {
    const { page, errors } = env;
    await page.locator('#tab-sessions').click();
    const folder = await page.locator('#import-folder-button').boundingBox();
    assert.ok(folder && folder.height >= 40, `folder button ${JSON.stringify(folder)}`);
    await page.setInputFiles('#import-file', upload('chatgpt-export.zip', chatgptZip()));
    await report(page, 'Imported 2 sessions');
    const box = await page.locator('#import-report').boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 390, `report ${JSON.stringify(box)}`);
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
    assert.equal(sideways, 0);
    await page.screenshot({ path: artifactPath('import-zip-390x844.png') });
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('import-zip: a ZIP cut off after its conversations.json still imports the conversations and says it is damaged', async () => {
  // Incompressible media last, so the cut falls inside it.
  const noise = new Uint8Array(20_000);
  for (let i = 0, x = 7; i < noise.length; i++) noise[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
  const zip = zipSync({ 'conversations.json': strToU8(JSON.stringify(claudeExport())), 'photo.png': noise }, { level: 0 });
  const cut = zip.subarray(0, zip.length - 8_000);
  const env = await explorer();
  try {
    const { page, errors } = env;
    await page.setInputFiles('#import-file', upload('claude-cut.zip', cut));
    const r = await report(page, 'Imported 2 sessions');
    assert.deepEqual(await nodeCounts(page), { 'claude-1': 4, 'claude-2': 2 });
    const failures = r.errors;
    assert.equal(failures.length, 1, failures.join('\n'));
    assert.match(failures[0], /^claude-cut\.zip: the ZIP is damaged or cut off \(.+\); only the entries before the damage were read$/);
    assert.equal(r.files[1], 'claude-cut.zip › conversations.json2 sessions (claudeai)');
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('import-zip: a dropped folder is walked (readEntries in batches, subfolders) and Claude.ai attachments match by file name', async () => {
  const env = await setup();
  try {
    const { page, baseURL, errors } = env;
    await page.goto(baseURL + 'e2e/fixtures/smoke.html');
    const out = await page.evaluate(async () => {
      const { sourcesFromDrop, readImports } = await import('/static/import-files.js');
      const { matchAttachments: matchBytes } = await import('/js/zip-attachments.js');
      const matchAttachments = (text, attachments) => matchBytes(new TextEncoder().encode(text), attachments);
      // FileSystemEntry stand-ins: a synthetic DataTransfer cannot hold a folder.
      const fileEntry = (dir, name, text) => ({ isDirectory: false, name, fullPath: `${dir}/${name}`, file: (ok) => ok(new File([text], name)) });
      const dirEntry = (fullPath, children, batch = 2) => ({
        isDirectory: true,
        name: fullPath.slice(fullPath.lastIndexOf('/') + 1),
        fullPath,
        createReader() {
          let at = 0;
          return { readEntries: (ok) => setTimeout(() => ok(children.slice(at, (at += batch)))) };
        },
      });
      const sub = dirEntry('/proj/sub', [fileEntry('/proj/sub', 'c.jsonl', '{}')]);
      const root = dirEntry('/proj', [fileEntry('/proj', 'b.jsonl', '{}'), sub, fileEntry('/proj', 'a.jsonl', '{}'), fileEntry('/proj', 'readme.md', '# hi'), fileEntry('/proj', 'x.json', '[]')]);
      const broken = { isDirectory: true, name: 'locked', fullPath: '/locked', createReader: () => ({ readEntries: (ok, fail) => fail(new DOMException('not allowed', 'NotReadableError')) }) };
      const loose = new File(['{"a":1}'], 'loose.json');
      const dt = {
        items: [
          { kind: 'file', webkitGetAsEntry: () => root, getAsFile: () => null },
          { kind: 'file', webkitGetAsEntry: () => broken, getAsFile: () => null },
          { kind: 'file', webkitGetAsEntry: () => null, getAsFile: () => loose },
          { kind: 'string', webkitGetAsEntry: () => null, getAsFile: () => null },
        ],
      };
      const { sources, unreadable } = await sourcesFromDrop(dt);
      const pieces = [];
      for await (const p of readImports(sources)) pieces.push(p.kind === 'file' ? `${p.kind} ${p.name}` : `${p.kind} ${p.name}: ${p.reason ?? p.message}`);
      const claude = [{ uuid: 'c1', name: 'With files', chat_messages: [{ uuid: 'm1', sender: 'human', attachments: [{ file_name: 'notes.txt', file_size: 12 }], files: [{ file_name: 'cat.jpg', file_uuid: 'uuid-cat' }] }] }];
      const matched = await matchAttachments(JSON.stringify(claude), [
        { name: 'notes.txt', type: 'text/plain', size: 12 },
        { name: 'files/uuid-cat.jpg', type: 'image/jpeg', size: 900 },
        { name: 'other.png', type: 'image/png', size: 5 },
      ]);
      // The scan that cuts an export into conversations: quotes, backslashes and brackets inside strings.
      const tricky = [
        { id: 'g1', title: 'a \\"}]{[ \\\\', mapping: { m: { message: { id: 'm', content: { parts: ['}}]]"'] } } } } },
        { id: 'g2', title: '\\\\', mapping: { n: { message: { id: 'n', content: { parts: [{ asset_pointer: 'sediment://file_00ff' }] } } } } },
      ];
      const scanned = await matchAttachments(JSON.stringify(tricky), [{ name: 'file_00ff-1.png', type: 'image/png', size: 3 }]);
      return {
        paths: sources.map((s) => `${s.path}${s.inFolder ? ' (folder)' : ''}`), unreadable, pieces, matched, scanned,
        notJSON: await matchAttachments('{"a":', [{ name: 'x.png', type: '', size: 1 }]),
        lines: await matchAttachments('{"a":1}\n{"b":2}', [{ name: 'x.png', type: '', size: 1 }]),
      };
    });
    assert.deepEqual(out.paths, ['proj/a.jsonl (folder)', 'proj/b.jsonl (folder)', 'proj/readme.md (folder)', 'proj/x.json (folder)', 'proj/sub/c.jsonl (folder)', 'loose.json']);
    assert.deepEqual(out.unreadable, [{ name: 'locked', reason: 'the folder cannot be read (not allowed)' }]);
    assert.deepEqual(out.pieces, ['file proj/a.jsonl', 'file proj/b.jsonl', 'skip proj/readme.md: not an export file (.md)', 'file proj/x.json', 'file proj/sub/c.jsonl', 'file loose.json']);
    assert.deepEqual(out.matched, [{
      conversationId: 'c1', title: 'With files',
      files: [
        { file: { name: 'notes.txt', type: 'text/plain', size: 12 }, messageId: 'm1' },
        { file: { name: 'files/uuid-cat.jpg', type: 'image/jpeg', size: 900 }, messageId: 'm1' },
      ],
    }]);
    assert.deepEqual(out.scanned, [{ conversationId: 'g2', title: '\\\\', files: [{ file: { name: 'file_00ff-1.png', type: 'image/png', size: 3 }, messageId: 'n' }] }]);
    assert.deepEqual(out.notJSON, []);
    assert.deepEqual(out.lines, []);
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('import-zip: a large ChatGPT ZIP is unzipped in chunks while the page keeps running', async () => {
  // 300 conversations × 40 messages (~13 MB of JSON), one image.
  const filler = 'x'.repeat(900);
  const conversations = [];
  for (let c = 0; c < 300; c++) {
    const mapping = { [`r${c}`]: { id: `r${c}`, message: null, parent: null, children: [`c${c}m0`] } };
    for (let m = 0; m < 40; m++) {
      const id = `c${c}m${m}`;
      const parts = c === 7 && m === 0 ? [{ content_type: 'image_asset_pointer', asset_pointer: 'file-service://file-Big1' }, 'look'] : [`message ${m} ${filler}`];
      mapping[id] = gptNode(id, m === 0 ? `r${c}` : `c${c}m${m - 1}`, m < 39 ? [`c${c}m${m + 1}`] : [], m % 2 ? 'assistant' : 'user', parts, c === 7 && m === 0 ? 'multimodal_text' : 'text');
    }
    conversations.push({ title: `chat ${c}`, create_time: 1714585000 + c, update_time: 1714585000 + c, mapping, current_node: `c${c}m39`, conversation_id: `big-${c}`, id: `big-${c}` });
  }
  const json = JSON.stringify(conversations);
  const zip = zipSync({ 'conversations.json': strToU8(json), 'file-Big1-cat.png': new Uint8Array(10_000).fill(9) });
  const env = await explorer();
  try {
    const { page, errors } = env;
    // The reading alone (unzip, attachments matched): the store's reader, run in the page to time it.
    const reading = await page.evaluate(async (bytes) => {
      const { readZip } = await import('/js/zip-read.js');
      const file = new File([new Uint8Array(bytes)], 'big.zip');
      let n = 0;
      let maxGap = 0;
      let last = performance.now();
      const timer = setInterval(() => {
        const now = performance.now();
        maxGap = Math.max(maxGap, now - last);
        last = now;
        n++;
      }, 0);
      const t0 = performance.now();
      const pieces = [];
      for (const p of await readZip(file)) pieces.push({ kind: p.kind, size: p.size, refs: p.refs?.length });
      const ms = performance.now() - t0;
      clearInterval(timer);
      return { pieces, ms, n, maxGap };
    }, [...zip]);
    assert.deepEqual(reading.pieces, [{ kind: 'text', size: json.length, refs: 1 }]);
    console.log(`# reading the ZIP alone: ${reading.ms.toFixed(0)} ms, ${reading.n} timer ticks, longest gap ${reading.maxGap.toFixed(0)} ms`);
    await page.evaluate(() => {
      window.beats = { n: 0, maxGap: 0, last: performance.now() };
      window.beatTimer = setInterval(() => {
        const now = performance.now();
        window.beats.maxGap = Math.max(window.beats.maxGap, now - window.beats.last);
        window.beats.last = now;
        window.beats.n++;
      }, 0);
    });
    const t0 = Date.now();
    await page.setInputFiles('#import-file', upload('big.zip', zip));
    const r = await report(page, 'Imported 300 sessions');
    const ms = Date.now() - t0;
    const beats = await page.evaluate(() => {
      clearInterval(window.beatTimer);
      return window.beats;
    });
    const counts = await nodeCounts(page);
    assert.equal(Object.keys(counts).length, 300);
    assert.equal(counts['big-7'], 40);
    assert.deepEqual(r.warnings.filter((w) => /attachment/.test(w)), ['chat 71 attachment in the ZIP, recorded here but not stored: file-Big1-cat.png (image/png, 10.0 kB) on message c7m0']);
    assert.ok(beats.n > 20, `timer ticks during the import: ${beats.n}`);
    console.log(`# ZIP of ${(zip.length / 1e6).toFixed(2)} MB (${(json.length / 1e6).toFixed(1)} MB of JSON) imported in ${ms} ms; ${beats.n} timer ticks, longest gap ${beats.maxGap.toFixed(0)} ms`);
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('import-zip: a ZIP written as a stream (no sizes in the entry headers) imports, and its attachments get their sizes', async () => {
  const chunks = [];
  const zip = new Zip((err, data) => {
    if (err) throw err;
    chunks.push(data);
  });
  for (const [name, bytes] of [['conversations.json', strToU8(JSON.stringify(chatgptExport()))], ['file-HeRon123-heron.png', new Uint8Array(2048).fill(1)]]) {
    const entry = new ZipDeflate(name, { level: 6 });
    zip.add(entry);
    entry.push(bytes, true);
  }
  zip.end();
  const env = await explorer();
  try {
    const { page, errors } = env;
    await page.setInputFiles('#import-file', upload('streamed.zip', Buffer.concat(chunks)));
    const r = await report(page, 'Imported 2 sessions');
    assert.deepEqual(await nodeCounts(page), { 'gpt-a': 5, 'gpt-b': 2 });
    assert.deepEqual(r.warnings.filter((w) => /attachment/.test(w)), ['Photo of a heron1 attachment in the ZIP, recorded here but not stored: file-HeRon123-heron.png (image/png, 2.0 kB) on message a-u1']);
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('import-zip: a conversations.json saved as UTF-16 inside a ZIP imports as its UTF-8 would; a warning of one of its files names the file', async () => {
  const env = await explorer();
  try {
    const { page, errors } = env;
    const text = JSON.stringify(chatgptExport());
    const utf16 = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]); // big-endian
    // Beside it, a transcript with a broken line: its warning names the file it is in.
    const transcript = '{"type":"user","uuid":"u","parentUuid":null,"sessionId":"cc-z","message":{"role":"user","content":"hi"}}\n{"type":\n{"type":"assistant","uuid":"a","parentUuid":"u","sessionId":"cc-z","message":{"role":"assistant","content":"yo"}}\n';
    await page.setInputFiles('#import-file', upload('utf16.zip', zipSync({ 'conversations.json': new Uint8Array(utf16), 'cc/session.jsonl': strToU8(transcript) })));
    const r = await report(page, 'Imported 3 sessions');
    assert.deepEqual(await nodeCounts(page), { 'cc-z': 2, 'gpt-a': 5, 'gpt-b': 2 });
    assert.ok(r.warnings.some((w) => w.startsWith('utf16.zip › cc/session.jsonl: line 2 is not valid JSON')), r.warnings.join('\n'));
    assert.equal((await explorerCall(page, { operation: 'context', sessionId: 'gpt-b' })).messages.at(-1).content, 'Hello!');
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});
