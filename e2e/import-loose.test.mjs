// Loose files and snapshot entries of ZIPs on the explorer (issue 26):
// every chosen or dropped file goes to the store as a file
// (tree.importFile, read in its worker), whatever its size, with the same
// envelope importText gave for its text (report wording, warnings naming
// the file, merges, encodings), the empty-file message and Cancel as
// before; the page reads no export's text. A sessiontree snapshot of a
// session already here, loose or inside a ZIP, asks "replace or add a
// copy" (importZip holds such an entry: existingSnapshots "hold").
// Screenshot: e2e/artifacts/import-zip-snapshot-choice-1366x850-light.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { zipSync, strToU8 } from 'fflate';
import { setup, artifactPath, openExplorer, explorerCall, importReport, FIXTURES_DIR } from './helpers.mjs';

const claude = fs.readFileSync(path.join(FIXTURES_DIR, 'claude-code/dag_compact_after_rewind.jsonl'), 'utf8');
const owui = fs.readFileSync(path.join(FIXTURES_DIR, 'librechat/openwebui-export.json'), 'utf8');

/** A Claude Code transcript with a broken second line (a warning that names no session). */
const broken = '{"type":"user","uuid":"u","parentUuid":null,"sessionId":"cc-z","timestamp":"2026-01-02T03:04:05.000Z","message":{"role":"user","content":"hi"}}\n{"type":\n{"type":"assistant","uuid":"a","parentUuid":"u","sessionId":"cc-z","timestamp":"2026-01-02T03:04:06.000Z","message":{"role":"assistant","content":"yo"}}\n';

/** The Claude Code transcript with a byte that is not UTF-8 inside its first text. */
function invalidUTF8() {
  const bytes = Buffer.from(claude);
  const at = bytes.indexOf('"text":"') + 10;
  return Buffer.concat([bytes.subarray(0, at), Buffer.from([0xff]), bytes.subarray(at)]);
}

/** A file for setInputFiles. */
const upload = (name, bytes, mimeType = 'application/json') => ({ name, mimeType, buffer: Buffer.from(bytes) });

/** Wait for the import report and return its title, files, sessions and warnings as text. */
const report = importReport;

/**
 * Record, on the explorer's page, every importFile, importText and
 * importZip call of its tree (then made as before) and every Blob read as
 * text (its size): window.importCalls.
 */
async function spyImports(page) {
  await page.evaluate(() => {
    const calls = (window.importCalls = { importFile: [], importText: [], importZip: [], blobText: [] });
    const tree = window.explorer.tree;
    for (const name of ['importFile', 'importText', 'importZip']) {
      const original = tree[name].bind(tree);
      tree[name] = (first, ...rest) => {
        calls[name].push(typeof first === 'string' ? first.length : `${first.name ?? 'blob'} ${first.size} ${JSON.stringify(rest[0]?.existingSnapshots ?? null)}`);
        return original(first, ...rest);
      };
    }
    const text = Blob.prototype.text;
    Blob.prototype.text = function () {
      calls.blobText.push(this.size);
      return text.call(this);
    };
  });
}

test('import-loose: importFile gives the envelope and the session importText gave for the small files the explorer read as text', async () => {
  const env = await setup();
  try {
    const { page, baseURL, errors } = env;
    await page.goto(baseURL + 'e2e/fixtures/shim.html');
    await page.locator('#status', { hasText: 'ready' }).waitFor();
    const snapshot = JSON.stringify({ version: 1, sessionId: 'snap', title: 'A snapshot', cursor: 'a', activeBranch: 'main', nodes: [{ id: 'a', parentId: null, branch: 'main', kind: 'message', timestamp: '2026-01-02T03:04:05.006Z', message: { role: 'user', content: 'hi' } }] });
    // The file with a byte that is not UTF-8 first: the transcript then merges into its session.
    const files = {
      'invalid-utf8.jsonl': [...invalidUTF8()],
      'claude.jsonl': [...Buffer.from(claude)],
      'openwebui.json': [...Buffer.from(owui)],
      'bom.json': [...Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(owui)])],
      'broken.jsonl': [...Buffer.from(broken)],
      'snap.snapshot.json': [...Buffer.from(snapshot)],
      'nothing.json': [...Buffer.from('{"hello":"world"}')],
    };
    const out = await page.evaluate(async (files) => {
      const asText = await window.sessiontree.init({ dbName: 'as-text' });
      const asFile = await window.sessiontree.init({ dbName: 'as-file' });
      const result = {};
      // Each file twice, so the second import shows the merge ("already here").
      for (const round of [1, 2]) {
        for (const [name, bytes] of Object.entries(files)) {
          const file = new File([new Uint8Array(bytes)], name);
          const text = await asText.importText(await file.text());
          const bytesIn = await asFile.importFile(file);
          const stored = async (tree, env) => Promise.all((env.value?.sessions ?? []).map(async (s) => (await tree.callText({ operation: 'snapshot.save', sessionId: s.sessionId }))));
          result[`${name} ${round}`] = { text, file: bytesIn, textStored: await stored(asText, text), fileStored: await stored(asFile, bytesIn) };
        }
      }
      return result;
    }, files);
    for (let [name, { text, file, textStored, fileStored }] of Object.entries(out)) {
      if (name.startsWith('invalid-utf8.jsonl')) {
        // The bytes say what was replaced; the text was decoded on the page before the store saw it.
        assert.equal(file.value.warnings.length, 1, name);
        assert.match(file.value.warnings[0].message, /^the file is not valid UTF-8: 1 byte \(the first on line \d+\) read as U\+FFFD$/, name);
        file = { ...file, value: { ...file.value, warnings: [] } };
      }
      assert.deepEqual(file, text, name);
      assert.deepEqual(fileStored, textStored, name);
    }
    // Real values, so that the two paths do not agree on something wrong.
    const first = (name) => out[name].file;
    assert.deepEqual(first('invalid-utf8.jsonl 1').value.sessions.map((s) => [s.sessionId, s.title, s.nodeCount, s.existing, s.added]), [['s1', 'St\ufffdart', 12, false, 12]]);
    assert.deepEqual(first('claude.jsonl 1').value.warnings.map((w) => w.message), [], 'a transcript naming no current message is the format, not a fault');
    assert.deepEqual(first('claude.jsonl 2').value.sessions.map((s) => [s.sessionId, s.existing, s.added]), [['s1', true, 0]]);
    assert.deepEqual(first('bom.json 1').value.sessions.map((s) => [s.sessionId, s.existing, s.added]), [['reasoning-chat', true, 0], ['tool-chat', true, 0], ['simple-chat', true, 0]]);
    assert.match(first('broken.jsonl 1').value.warnings[0].message, /^line 2 is not valid JSON/);
    assert.deepEqual([first('snap.snapshot.json 1').value.format, first('snap.snapshot.json 1').value.sessions[0].sessionId], ['snapshot', 'snap']);
    assert.deepEqual([first('nothing.json 1').error.code, first('nothing.json 1').error.reason], ['INVALID_ARGUMENT', 'NOTHING_TO_IMPORT']);
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('import-loose: chosen files go to the store as files (no text read on the page); the report (each failure once, on its file\'s line), warnings, merges, empty files and Cancel', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1366, height: 850 } } });
  try {
    const { page, baseURL, errors } = env;
    await openExplorer(page, baseURL);
    await spyImports(page);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(owui, 'utf16le')]);
    await page.setInputFiles('#import-file', [upload('claude.jsonl', claude), upload('broken.jsonl', broken), upload('openwebui-utf16.json', utf16), upload('empty\u202enosj.json', ''), upload('notes.json', '{"hello":"world"}'), upload('empty.zip', '', 'application/zip')]);
    const r = await report(page, 'Imported 5 sessions');
    // The demo session of the first visit is still here: the report offers to move it to the trash.
    assert.equal(await page.locator('#report-demo').isVisible(), true, 'offered after an import that made sessions');
    // A file no format reads, loose: an error naming the file, in core's words (the same as importText's).
    const undetected = r.files[4].slice('notes.json'.length);
    // Core's reason, and only the names of the formats it tried (not each one's description: ~1,500 characters).
    assert.equal(undetected, 'could not detect the format of the import data: it is a JSON object with the keys "hello". The formats read: snapshot, chatgpt, openwebui, librechat, chatbotui, claudeai, pi, sillytavern, claude-code, aider, gemini, codex, lobechat, cline, openai.');
    assert.deepEqual(r.files, [
      'claude.jsonl1 session (claude-code)',
      'broken.jsonl1 session (claude-code)',
      'openwebui-utf16.json3 sessions (openwebui)',
      // A name's bidi override (U+202E) is shown as an escape, not obeyed (it would show "empty" then "nosj.json" reversed: "empty.json").
      'empty\\u{202e}nosj.jsonthe file is empty: nothing to import',
      `notes.json${undetected}`,
      // A 0-byte ZIP is empty, as a 0-byte JSON file is (not "a damaged ZIP").
      'empty.zipthe file is empty: nothing to import',
    ]);
    // Each failure is said once, on its file's line, in red: not again under warnings.
    assert.deepEqual(await page.locator('#report-files li.error .report-file-name').allTextContents(), ['empty\\u{202e}nosj.json', 'notes.json', 'empty.zip']);
    assert.deepEqual(r.sessions, ['Start12 nodes · 2 branches', 'hi2 nodes · 1 branch', 'Chat with reasoning2 nodes · 1 branch', 'Chat with tool call2 nodes · 1 branch', 'Simple linear chat2 nodes · 1 branch']);
    // Warnings that name no session name their file.
    assert.deepEqual(r.warnings, [
      'broken.jsonl: line 2 is not valid JSON: unexpected end of JSON input at line 2, column 9; it is skipped',
      'openwebui-utf16.json: the file is UTF-16 (little-endian); it was read as such',
    ]);
    let calls = await page.evaluate(() => window.importCalls);
    assert.deepEqual(calls.importFile, [`claude.jsonl ${Buffer.byteLength(claude)} null`, `broken.jsonl ${broken.length} null`, `openwebui-utf16.json ${utf16.length} null`, 'notes.json 17 null']);
    assert.deepEqual(calls.importText, []);
    // Only the heads of files are read as text on the page (to tell a snapshot of a session here).
    assert.deepEqual(calls.blobText, [4089, broken.length, 4096, 17]);

    // The same file again merges into its session: nothing new, and the report says so.
    await page.locator('#report-close').click();
    await page.setInputFiles('#import-file', []);
    await page.setInputFiles('#import-file', upload('claude.jsonl', claude));
    await report(page, 'Already here: 1 session, nothing new');
    assert.equal(await page.locator('#report-demo').isHidden(), true, 'not offered when nothing new was made');
    assert.match(await page.locator('#report-sessions .report-session-size').first().textContent(), /^12 nodes · 2 branches · already here, nothing new$/);

    // A file over 512 KB shows the progress bar with Cancel; Cancel imports nothing.
    await page.locator('#report-close').click();
    await page.evaluate(() => {
      const tree = window.explorer.tree;
      const importFile = tree.importFile.bind(tree);
      window.__importFile = importFile; // put back after Cancel
      // Held until Cancel is clicked, so the click comes first whatever the machine's speed.
      tree.importFile = (file, options) => new Promise((resolve) => options.signal.addEventListener('abort', () => resolve(importFile(file, options)), { once: true }));
    });
    const big = JSON.stringify([{ role: 'system', content: 'x'.repeat(600 * 1024) }, { role: 'user', content: 'big' }]);
    await page.setInputFiles('#import-file', upload('big.json', big));
    await page.locator('#import-progress:not([hidden])').waitFor();
    assert.equal(await page.locator('#progress-label').textContent(), 'Importing big.json…');
    // A second import while it runs is refused, saying why: one progress bar, one report.
    const before = (await page.evaluate(() => window.importCalls)).importFile.length;
    await page.setInputFiles('#import-file', upload('claude.jsonl', claude));
    await page.locator('#status.error', { hasText: 'An import is running: wait for it to end, or Cancel it, then import again' }).waitFor();
    assert.equal((await page.evaluate(() => window.importCalls)).importFile.length, before, 'the second file was not imported');
    assert.equal(await page.locator('#import-progress').isVisible(), true, 'the first import\'s bar stays');
    await page.locator('#import-cancel').click();
    const cancelled = await report(page, 'Nothing imported');
    assert.deepEqual(cancelled.warnings, ['big.json: import cancelled; nothing was imported']);
    calls = await page.evaluate(() => window.importCalls);
    assert.deepEqual(calls.importText, []);
    assert.ok(calls.blobText.every((size) => size <= 4096), calls.blobText.join(', '));

    // A new session again: the offer, taken, moves the demo to the trash with Undo.
    await page.evaluate(() => { window.explorer.tree.importFile = window.__importFile; });
    await page.locator('#report-close').click();
    await page.setInputFiles('#import-file', upload('other.jsonl', claude.replaceAll('"s1"', '"s9"')));
    await report(page, 'Imported 1 session');
    await page.locator('#report-demo-trash').click();
    await page.locator('#undo-bar:not([hidden])', { hasText: 'to the trash' }).waitFor();
    assert.equal(await page.locator('#report-demo').isHidden(), true);
    assert.equal((await explorerCall(page, { operation: 'sessions' })).some((s) => s.sessionId === 'demo'), false, 'the demo left the list');
    assert.deepEqual((await explorerCall(page, { operation: 'trash.list' })).map((s) => s.sessionId), ['demo']);
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

/** A snapshot of one session, as snapshot.save writes it. */
const snapshotOf = (sessionId, texts) => JSON.stringify({
  version: 1, sessionId, title: `Snapshot ${sessionId}`, cursor: `n${texts.length - 1}`, activeBranch: 'main',
  nodes: texts.map((content, i) => ({ id: `n${i}`, parentId: i === 0 ? null : `n${i - 1}`, branch: 'main', kind: 'message', timestamp: `2026-01-02T03:04:0${i}.000Z`, message: { role: i % 2 ? 'assistant' : 'user', content } })),
});

test('import-loose: importZip with existingSnapshots "hold" reports a snapshot of a session the store has, with its bytes, and imports the rest', async () => {
  const env = await setup();
  try {
    const { page, baseURL, errors } = env;
    await page.goto(baseURL + 'e2e/fixtures/shim.html');
    await page.locator('#status', { hasText: 'ready' }).waitFor();
    const zip = [...zipSync({ 'old.snapshot.json': strToU8(snapshotOf('old', ['hi', 'yo', 'more'])), 'new.snapshot.json': strToU8(snapshotOf('new', ['a'])), 'cc.jsonl': strToU8(broken) })];
    const out = await page.evaluate(async ({ zip, old }) => {
      const tree = await window.sessiontree.init({ dbName: 'hold' });
      await tree.loadSnapshot('old', old);
      const file = new File([new Uint8Array(zip)], 'x.zip');
      const held = await tree.importZip(file, { existingSnapshots: 'hold' });
      const entries = await Promise.all(held.value.entries.map(async (e) => ({ ...e, data: e.data instanceof Blob ? await e.data.text() : undefined, envelope: e.envelope ? [e.envelope.ok, e.envelope.value?.format] : undefined, refs: undefined })));
      const oldAfterHold = (await tree.call({ operation: 'session', sessionId: 'old' })).value.nodeCount;
      const merged = await tree.importZip(file);
      const bad = await tree.importZip(file, { existingSnapshots: 'ask' });
      return { entries, oldAfterHold, merged: merged.value.entries.map((e) => [e.kind, e.name, e.envelope.value.sessions.map((s) => [s.sessionId, s.existing, s.added])]), bad: bad.error, old: (await tree.call({ operation: 'session', sessionId: 'old' })).value.nodeCount };
    }, { zip, old: snapshotOf('old', ['hi', 'yo']) });
    assert.deepEqual(out.entries, [
      { kind: 'snapshot', name: 'x.zip › old.snapshot.json', size: snapshotOf('old', ['hi', 'yo', 'more']).length, sessionId: 'old', data: snapshotOf('old', ['hi', 'yo', 'more']), envelope: undefined, refs: undefined },
      { kind: 'text', name: 'x.zip › new.snapshot.json', size: snapshotOf('new', ['a']).length, envelope: [true, 'snapshot'], data: undefined, refs: undefined },
      { kind: 'text', name: 'x.zip › cc.jsonl', size: broken.length, envelope: [true, 'claude-code'], data: undefined, refs: undefined },
    ]);
    assert.equal(out.oldAfterHold, 2, 'a held snapshot changes nothing');
    // Without the option such an entry merges, as importFile merges it.
    assert.deepEqual(out.merged, [
      ['text', 'x.zip › old.snapshot.json', [['old', true, 1]]],
      ['text', 'x.zip › new.snapshot.json', [['new', true, 0]]],
      ['text', 'x.zip › cc.jsonl', [['cc-z', true, 0]]],
    ]);
    assert.equal(out.old, 3);
    assert.deepEqual(out.bad, { code: 'INVALID_ARGUMENT', message: 'importZip: argument "options.existingSnapshots" must be "merge" or "hold"; got "ask"' });
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('import-loose: a snapshot of a session here inside a ZIP asks "replace or add a copy", as a loose one does; the other entries import', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1366, height: 850 }, colorScheme: 'light' } });
  try {
    const { page, baseURL, errors } = env;
    await openExplorer(page, baseURL);
    const text = (await page.evaluate(() => window.explorer.tree.callText({ operation: 'snapshot.save', sessionId: 'demo' }))).replace(/^\{"ok":true,"value":/, '').slice(0, -1);
    const savedContext = await explorerCall(page, { operation: 'context', sessionId: 'demo' });
    await explorerCall(page, { operation: 'append', sessionId: 'demo', message: { role: 'user', content: 'Something new' } });
    await spyImports(page);
    const zip = upload('backup.zip', zipSync({ 'demo.snapshot.json': strToU8(text), 'cc.jsonl': strToU8(broken) }), 'application/zip');
    const choice = page.getByRole('dialog', { name: 'This session is already here' });

    // Replace: the session becomes the entry's, the state before is a restore point.
    await page.locator('#import-file').setInputFiles(zip);
    await choice.waitFor();
    assert.equal(await page.locator('#snapshot-choice-text').textContent(), 'This snapshot is of “\u2068Demo: a long weekend in Lisbon\u2069” (demo), already a session here (14 nodes; 13 in the file).');
    await page.screenshot({ path: artifactPath('import-zip-snapshot-choice-1366x850-light.png') });
    await choice.getByRole('button', { name: 'Replace it' }).click();
    let r = await report(page, 'Imported 1 session · replaced 1 session');
    assert.deepEqual(r.files, ['backup.zip › demo.snapshot.json1 session (snapshot)', 'backup.zip › cc.jsonl1 session (claude-code)']);
    assert.ok(r.sessions.some((l) => /^Demo: a long weekend in Lisbon13 nodes · \d+ branches · replacedThe state before is kept as restore point “\u2068Before import /.test(l)), r.sessions.join('\n'));
    assert.ok(!r.warnings.some((w) => /replaced/.test(w)), r.warnings.join('\n'));
    assert.deepEqual(await explorerCall(page, { operation: 'context', sessionId: 'demo' }), savedContext);
    assert.deepEqual((await page.evaluate(() => window.explorer.tree.listSnapshots('demo'))).value.map((p) => p.nodeCount), [14]);
    // The ZIP went to the store whole, asked to hold such entries; the page read only the held entry's text.
    let calls = await page.evaluate(() => window.importCalls);
    assert.deepEqual(calls.importZip, [`backup.zip ${zip.buffer.length} "hold"`]);
    assert.deepEqual(calls.importFile, []);
    assert.deepEqual(calls.importText, [text.length]);
    assert.deepEqual(calls.blobText, [Buffer.byteLength(text)]);

    // A copy: a new session beside it, titled as a copy.
    await page.locator('#report-close').click();
    await page.setInputFiles('#import-file', []);
    await page.locator('#import-file').setInputFiles(zip);
    await choice.waitFor();
    assert.equal(await page.evaluate(() => document.activeElement.value), 'copy');
    await page.keyboard.press('Enter');
    r = await report(page, 'Imported 1 session · 1 already here');
    assert.deepEqual(r.files, ['backup.zip › demo.snapshot.json1 session (snapshot)', 'backup.zip › cc.jsonl1 session (claude-code)']);
    const sessions = await explorerCall(page, { operation: 'sessions' });
    assert.deepEqual(sessions.map((s) => [s.sessionId, s.nodeCount]).sort(), [['cc-z', 2], ['demo', 13], ['demo-copy', 13]]);
    assert.equal(await page.locator('#session-list .session[data-session-id="demo-copy"] .session-title').textContent(), 'Demo: a long weekend in Lisbon (copy)');

    // Escape: that entry imports nothing, and the report says why.
    await page.locator('#report-close').click();
    await page.setInputFiles('#import-file', []);
    await page.locator('#import-file').setInputFiles(zip);
    await choice.waitFor();
    await page.keyboard.press('Escape');
    r = await report(page, 'Already here: 1 session, nothing new');
    assert.match(await page.locator('#report-skipped').textContent(), /already a session here; you chose to import nothing/);
    assert.equal((await explorerCall(page, { operation: 'sessions' })).length, 3);
    calls = await page.evaluate(() => window.importCalls);
    assert.deepEqual(calls.importFile, []);
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('import-loose: one file no format reads is reported as an error, in a few lines: core\'s reason and the names of the formats tried', async () => {
  for (const [width, height] of [[1366, 850], [390, 844]]) {
    const env = await setup({ contextOptions: { viewport: { width, height } } });
    try {
      const { page, baseURL, errors } = env;
      await openExplorer(page, baseURL);
      await page.setInputFiles('#import-file', [upload('notes.json', '{}')]);
      const r = await report(page, 'Nothing imported');
      assert.equal(await page.locator('#report-warnings-title').textContent(), '1 error');
      assert.deepEqual(r.errors, ['notes.json: could not detect the format of the import data: it is a JSON object with no keys. The formats read: snapshot, chatgpt, openwebui, librechat, chatbotui, claudeai, pi, sillytavern, claude-code, aider, gemini, codex, lobechat, cline, openai.']);
      const box = await page.locator('#import-report').boundingBox();
      assert.ok(box.height < height * 0.6, `${width}px: the report is ${box.height} px tall`);
      await page.screenshot({ path: artifactPath(`import-undetected-${width}x${height}.png`) });
      assert.deepEqual(errors, []);
    } finally {
      await env.close();
    }
  }
});

test('import-loose: a report of many sessions at 1280 × 800 takes at most 30 % of the window and leaves the session list room for two rows', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1280, height: 800 } } });
  try {
    const { page, baseURL, errors } = env;
    await openExplorer(page, baseURL);
    const lines = Array.from({ length: 15 }, (_, i) => JSON.stringify({ messages: [{ role: 'user', content: `question ${i + 1}` }, { role: 'assistant', content: `answer ${i + 1}` }] }));
    await page.setInputFiles('#import-file', [upload('chats.jsonl', lines.join('\n'), 'application/jsonl')]);
    await report(page, 'Imported 15 sessions');
    await page.screenshot({ path: artifactPath('import-report-many-1280x800.png') });
    const box = await page.locator('#import-report').boundingBox();
    assert.ok(box.height <= 800 * 0.3 + 1, `the report is ${box.height} px tall`);
    const { list, row } = await page.evaluate(() => ({
      list: document.getElementById('session-list').getBoundingClientRect().height,
      row: Math.max(...[...document.querySelectorAll('#session-list .session')].map((s) => s.getBoundingClientRect().height)),
    }));
    assert.ok(list >= 2 * row, `the session list is ${list} px tall beside the report, its rows ${row} px`);
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('import-loose: a file chosen from the first visit\'s "Import a file…", which the import hides, leaves focus on the report, not on the page\'s body; its × gives it to Import…', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1366, height: 850 } } });
  try {
    const { page, baseURL, errors } = env;
    await openExplorer(page, baseURL);
    const [chooser] = await Promise.all([page.waitForEvent('filechooser', { timeout: 10_000 }), page.locator('#hint-import').click()]);
    assert.equal(await page.evaluate(() => document.activeElement.id), 'hint-import');
    await chooser.setFiles(path.join(FIXTURES_DIR, 'librechat', 'chatgpt-tree.json'));
    await report(page, 'Imported 1 session');
    await page.waitForFunction(() => document.activeElement?.id === 'report-close');
    await page.keyboard.press('Enter'); // the report's ×
    await page.locator('#import-report').waitFor({ state: 'hidden' });
    assert.equal(await page.evaluate(() => document.activeElement.id), 'import-button');
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});
