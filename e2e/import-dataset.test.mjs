// A fine-tuning dataset JSONL (one conversation a line, OpenAI chat
// format; bench/gen-exports.mjs genDataset) chosen in the explorer: every
// line a session with its messages, a warning for each line that cannot be
// used, and a report that stays usable — its title sums it up, and each of
// its lists draws its first rows and says how many more there are, with a
// button for the next ones. The session list draws its first page. Chosen
// again, the file adds nothing. bench/dataset.mjs times the same at 60,000
// lines; this test asserts no timing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setup, openExplorer, explorerCall, artifactPath } from './helpers.mjs';
import { genDataset } from '../bench/gen-exports.mjs';

const CONVERSATIONS = 3000;
/** Lines no importer can use: each gets its own warning. */
const BAD_LINES = 150;
/** The rows a report list draws at first (REPORT_ROWS of static/explorer-report.js). */
const REPORT_ROWS = 100;
/** The session list's first page (PAGE_SIZE of static/session-list-pages.js). */
const PAGE_SIZE = 150;

let dir;
let file;
let lines;

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sessiontree-import-dataset-'));
  lines = genDataset({ lines: CONVERSATIONS });
  // A line with a message that cannot be used (its session keeps the others), then lines that are no chat.
  lines.push('{"messages":[{"role":"user","content":"the last question"},{"role":"bogus"}]}\n');
  for (let i = 0; i < BAD_LINES; i++) lines.push(`{"prompt":"not a chat ${i}"}\n`);
  file = path.join(dir, 'train.jsonl');
  fs.writeFileSync(file, lines.join(''));
});

after(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** The rows of a report list, less its last "… and N more" row. */
const rows = (page, list) => page.locator(`#${list} li:not(.report-more)`);

test('explorer: a dataset JSONL of 3,000 conversations imports every line; the report draws its first rows and counts the rest; again it adds nothing', async () => {
  const env = await setup();
  try {
    const { page } = env;
    await openExplorer(page, env.baseURL);
    const before = (await explorerCall(page, { operation: 'sessions' })).length;

    await page.locator('#import-file').setInputFiles(file);
    const sessions = CONVERSATIONS + 1;
    await page.locator('#report-title', { hasText: `Imported ${sessions.toLocaleString('en-US')} sessions` }).waitFor();

    // Every conversation is a session; the list shows the count and draws one page of rows.
    const listed = await explorerCall(page, { operation: 'sessions' });
    assert.equal(listed.length, before + sessions);
    await page.waitForFunction((n) => document.getElementById('session-count').textContent === n, (before + sessions).toLocaleString('en'));
    assert.equal(await page.locator('#session-list li.session').count(), PAGE_SIZE, 'the session list draws its first page, not every row');

    // The report: the first rows and the rest counted, for the sessions and the warnings.
    assert.equal(await rows(page, 'report-sessions').count(), REPORT_ROWS);
    assert.equal(await page.locator('#report-sessions .report-more-text').textContent(), `… and ${(sessions - REPORT_ROWS).toLocaleString('en-US')} more`);
    const warnings = BAD_LINES + 1;
    assert.equal(await page.locator('#report-warnings-title').textContent(), `${warnings} warnings`);
    assert.equal(await rows(page, 'report-warnings').count(), REPORT_ROWS);
    assert.equal(await page.locator('#report-warnings .report-more-text').textContent(), `… and ${warnings - REPORT_ROWS} more`);
    // How the counted rest reads, at desktop and phone widths, light and dark.
    for (const [width, height] of [[1280, 800], [390, 844]]) {
      await page.setViewportSize({ width, height });
      for (const colorScheme of ['light', 'dark']) {
        await page.emulateMedia({ colorScheme });
        await page.locator('#report-sessions .report-more').scrollIntoViewIfNeeded();
        await page.screenshot({ path: artifactPath(`import-dataset-report-more-${width}-${colorScheme}.png`) });
      }
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.locator('#report-warnings .report-more-button').focus();
    await page.keyboard.press('Enter');
    assert.equal(await rows(page, 'report-warnings').count(), warnings, '"Show 100 more" draws the rest');
    assert.equal(await page.locator('#report-warnings .report-more').count(), 0, 'with nothing left, the last row goes');
    // Its button went with it: focus is on the first row it drew (it fell to <body>).
    assert.equal(await page.evaluate(() => (document.activeElement.parentElement?.id === 'report-warnings' ? [...document.activeElement.parentElement.children].indexOf(document.activeElement) : document.activeElement.tagName)), REPORT_ROWS);
    const texts = await rows(page, 'report-warnings').allTextContents();
    assert.match(texts[0], /^the last questionline 3001: message 1\.content is missing/, 'the warning of a message names its session and its line');
    assert.equal(texts.at(-1), `line ${CONVERSATIONS + 1 + BAD_LINES} has no "messages" array of messages; skipped`, 'every line that is no chat has its warning');

    // The file's first conversation: its session (the report's first row names its id) holds its messages.
    const first = await rows(page, 'report-sessions').first().locator('.report-session-title').getAttribute('title');
    const context = await explorerCall(page, { operation: 'context', sessionId: first });
    assert.deepEqual(context.messages, JSON.parse(lines[0]).messages);
    const last = listed.find((s) => s.title === 'the last question');
    assert.equal(last?.nodeCount, 1, 'the line with a bad message keeps its other message');

    // Chosen again: nothing new.
    await page.locator('#import-file').setInputFiles(file);
    await page.locator('#report-title', { hasText: `Already here: ${sessions.toLocaleString('en-US')} sessions, nothing new` }).waitFor();
    const again = await explorerCall(page, { operation: 'sessions' });
    assert.deepEqual(again.map((s) => [s.sessionId, s.nodeCount]).sort(), listed.map((s) => [s.sessionId, s.nodeCount]).sort());
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});
