// The explorer's session list with 10,000 stored sessions (issue 24, "the
// session list is virtual"): rows are made a page at a time
// (static/session-list-pages.js), so the list shows its first page without
// making the others, scrolling makes the next, the filter and a deep link
// to a session far down still find it, and a click opens it (its nodes read
// on demand).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { setup, openExplorer, explorerCall as call, artifactPath, importReport, FIXTURES_DIR } from './helpers.mjs';
import { writeSessions } from './stored-sessions.mjs';
import { HEAD_SIZE } from '../js/store/listing.js';

const COUNT = 10_000;
const PAGE = 150; // PAGE_SIZE of session-list-pages.js

const rows = (page) => page.locator('#session-list li.session').count();

test('explorer: 10,000 sessions list a page of rows at a time; scroll, filter and a deep link reach any of them; a click opens it', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1280, height: 800 } } });
  try {
    const { page } = env;
    page.setDefaultNavigationTimeout(180_000);
    page.setDefaultTimeout(180_000);
    await openExplorer(page, env.baseURL);
    await writeSessions(page, { db: 'sessiontree', count: COUNT, nodes: 4 });
    // The rows and the count as they first show (the newest sessions before the whole list: explorer.js loadSessions).
    await page.addInitScript(() => {
      const seen = (window.listSeen = { rows: null, count: null });
      new MutationObserver(() => {
        const n = document.querySelectorAll('#session-list li.session').length;
        const count = document.getElementById('session-count')?.textContent ?? '';
        if (n > 0 && seen.rows === null) seen.rows = { n, count, ms: performance.now() };
        if (count !== '' && seen.count === null) seen.count = { n, count, ms: performance.now(), open: document.getElementById('panel')?.sessionId ?? null };
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    await page.locator('#session-count', { hasText: '10,001' }).waitFor(); // COUNT + 1, with thousands separators
    assert.equal(await rows(page), PAGE, 'the first page only');
    const seen = await page.evaluate(() => window.listSeen);
    assert.deepEqual([seen.rows.n, seen.rows.count], [HEAD_SIZE, ''], 'the newest sessions show first, without a count');
    assert.deepEqual([seen.count.n, seen.count.count], [PAGE, '10,001'], 'then the whole list');
    const newest = await page.locator('#session-list li.session').first().getAttribute('data-session-id');
    assert.equal(seen.count.open, newest, 'the session among the newest opened before the whole list was read');
    console.log(`# 10,001 sessions: the first ${HEAD_SIZE} rows at ${seen.rows.ms.toFixed(0)} ms, the whole list's ${PAGE} at ${seen.count.ms.toFixed(0)} ms (after navigation)`);
    const titles = await page.locator('#session-list li.session .session-title').allTextContents();
    assert.deepEqual(titles.slice(0, 3), ['Demo: a long weekend in Lisbon', 'title 9999', 'title 9998'], 'newest first');

    // Scrolling to the end of what is made makes the next page.
    await page.locator('#session-list').evaluate((ul) => (ul.scrollTop = ul.scrollHeight));
    await page.waitForFunction((n) => document.querySelectorAll('#session-list li.session').length >= n, 2 * PAGE);
    assert.equal((await page.locator('#session-list li.session').nth(2 * PAGE - 1).locator('.session-title').textContent()), `title ${COUNT - 2 * PAGE + 1}`);
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: artifactPath(`session-list-10000-${scheme}.png`) });
    }

    // The filter looks at every session, not the rows made.
    await page.fill('#session-filter', 'title 17');
    await page.locator('#session-list li.session').first().waitFor();
    const kept = await page.locator('#session-list li.session .session-title').allTextContents();
    assert.ok(kept.includes('title 17') && kept.includes('title 1799'), kept.slice(0, 5).join(' | '));
    assert.match(await page.locator('#session-count').textContent(), /^[\d,]+ of 10,001$/, 'the count says how many the filter keeps');
    assert.equal(await page.locator('#session-none').isHidden(), true);
    // Nothing kept: the list says so, with a way back to every session.
    await page.fill('#session-filter', 'zzz no such title');
    await page.locator('#session-none').waitFor();
    assert.equal(await rows(page), 0);
    assert.equal(await page.locator('#session-count').textContent(), '0 of 10,001');
    assert.equal(await page.locator('#session-none p').textContent(), 'No session matches these filters.');
    await page.locator('#session-none-clear').click();
    await page.locator('#session-count', { hasText: /^10,001$/ }).waitFor();
    assert.deepEqual([await page.inputValue('#session-filter'), await page.locator('#session-none').isHidden()], ['', true]);
    assert.ok((await rows(page)) >= PAGE, 'the rows are back');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'session-filter');

    // A deep link to a session near the end: the pages up to it are made, it is selected and opened.
    await page.evaluate(() => (location.hash = 'session=s0005'));
    const selected = page.locator('#session-list li.session.selected');
    await selected.waitFor();
    assert.equal(await selected.getAttribute('data-session-id'), 's0005');
    await page.locator('#panel .row.cursor', { hasText: 'session 5 message 3' }).waitFor();

    // A click on a row opens its session.
    await page.locator('#session-list li[data-session-id="s9990"] .session-button').click();
    await page.locator('#panel .row.cursor', { hasText: 'session 9990 message 3' }).waitFor();

    // A visit at an address naming a session far down (not among the newest): it is opened once the whole list is read.
    await page.evaluate(() => (location.hash = 'session=s0007'));
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    assert.equal(await selected.getAttribute('data-session-id'), 's0007');
    await page.locator('#panel .row.cursor', { hasText: 'session 7 message 3' }).waitFor();
    assert.equal(await page.locator('#status').textContent(), '', 'no "not here" said');

    // As the newest rows first show (start-up goes on): a row clicked stays open, the address names it;
    // a filter typed keeps the whole list's matches, and "no session matches" never shows meanwhile.
    await page.addInitScript(() => {
      const early = sessionStorage.getItem('early');
      sessionStorage.removeItem('early');
      if (!early) return;
      const seen = (window.earlySeen = { done: false, none: false });
      new MutationObserver(() => {
        if (document.getElementById('session-none')?.hidden === false) seen.none = true;
        const button = document.querySelector('#session-list li[data-session-id="s9997"] .session-button');
        if (!button || seen.done) return;
        seen.done = true;
        if (early === 'import') {
          // A file chosen as the rows show: what the status line says until its report shows.
          const status = document.getElementById('status');
          const report = document.getElementById('import-report');
          seen.statuses = [];
          new MutationObserver(() => seen.statuses.push([status.textContent, report.hidden === false])).observe(status, { childList: true, characterData: true, subtree: true });
          const lines = Array.from({ length: 2000 }, (_, i) => JSON.stringify({ messages: [{ role: 'user', content: `early question ${i}` }, { role: 'assistant', content: `early answer ${i}` }] }));
          const chosen = new DataTransfer();
          chosen.items.add(new File([lines.join('\n')], 'early.jsonl'));
          const input = document.getElementById('import-file');
          input.files = chosen.files;
          input.dispatchEvent(new Event('change'));
          return;
        }
        if (early === 'click') button.click();
        else document.getElementById('session-filter').value = 'title 1234';
        document.getElementById('session-filter').dispatchEvent(new Event('input'));
      }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['hidden'] });
    });
    for (const early of ['click', 'filter', 'import']) {
      await page.evaluate((early) => (history.replaceState(null, '', location.pathname), sessionStorage.setItem('early', early)), early);
      await page.reload();
      await page.waitForSelector('body[data-ready="true"]');
      if (early === 'import') {
        // Start-up went on meanwhile: the status line says the import until its report shows (start-up emptied it).
        await importReport(page, /2,000 sessions/);
        const { statuses, ...rest } = await page.evaluate(() => window.earlySeen);
        assert.deepEqual(rest, { done: true, none: false });
        assert.deepEqual(statuses.slice(-2), [['Importing \u2068early.jsonl\u2069…', false], ['', true]], JSON.stringify(statuses));
        continue;
      }
      assert.deepEqual(await page.evaluate(() => window.earlySeen), { done: true, none: false }, early);
      if (early === 'click') {
        assert.equal(await selected.getAttribute('data-session-id'), 's9997', 'the row clicked, not the demo');
        await page.locator('#panel .row.cursor', { hasText: 'session 9997 message 3' }).waitFor();
        assert.equal(await page.evaluate(() => location.hash), '#session=s9997');
      } else {
        await page.locator('#session-count', { hasText: / of 10,001$/ }).waitFor();
        const kept = await page.locator('#session-list li.session .session-title').allTextContents();
        assert.ok(kept.includes('title 1234') && kept.length > 1, kept.slice(0, 5).join(' | '));
      }
    }
    await page.evaluate(() => (history.replaceState(null, '', location.pathname), sessionStorage.removeItem('early')));
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('explorer: when the demo session is far down the list (a history newer than it), start-up opens the newest session and makes one page of rows', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1280, height: 800 } } });
  try {
    const { page } = env;
    await openExplorer(page, env.baseURL);
    // 400 sessions newer than the demo (written in 2099): the demo is row 401.
    await writeSessions(page, { db: 'sessiontree', count: 400, nodes: 2, start: Date.UTC(2099, 0, 1) });
    await page.goto(env.baseURL + 'static/'); // no address: a new visit
    await page.waitForSelector('body[data-ready="true"]');
    await page.locator('#session-count', { hasText: '401' }).waitFor();
    const selected = page.locator('#session-list li.session.selected');
    await selected.waitFor();
    assert.equal(await selected.getAttribute('data-session-id'), 's0399', 'the newest session, at the top');
    assert.equal(await rows(page), PAGE, 'one page of rows, not every row down to the demo');
    await page.locator('#panel .row.cursor', { hasText: 'session 399 message 1' }).waitFor();
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('explorer: a conversation whose export holds no date (Chatbot UI) reads "undated", below every dated session, after a reload too', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1280, height: 800 } } });
  try {
    const { page } = env;
    await openExplorer(page, env.baseURL);
    for (const [file, title] of [['chatgpt-modern-export.json', 'Imported 2 sessions'], ['chatbotui-export.json', 'Imported 2 sessions']]) {
      await page.setInputFiles('#import-file', path.join(FIXTURES_DIR, 'librechat', file));
      await importReport(page, title);
      await page.locator('#report-close').click();
    }
    const listed = () => page.locator('#session-list li.session').evaluateAll((ls) => ls.map((l) => `${l.querySelector('.session-title').textContent} | ${l.querySelector('.session-updated').textContent}`));
    const want = [
      'Demo: a long weekend in Lisbon | just now',
      'Weeknight pasta | 2025-08-24',
      'Deploying the staging cluster | 2025-08-24',
      // Undated alike: by id, descending, as core's sessions newest first (order "updated").
      'Give me the code that inverts ... | undated',
      'Hello what are you able to do? | undated',
    ];
    await page.locator('#session-count', { hasText: '5' }).waitFor();
    assert.deepEqual(await listed(), want);
    // The date filter has a choice for them, and it keeps only them.
    const undated = await page.locator('#date-filter option').evaluateAll((os) => os.filter((o) => o.textContent === 'Undated (2)').map((o) => o.value));
    assert.deepEqual(undated, ['undated']);
    await page.locator('#date-filter').selectOption('undated');
    await page.locator('#session-count', { hasText: '2 of 5' }).waitFor();
    assert.deepEqual(await listed(), want.slice(3));
    await page.locator('#date-filter').selectOption('*');
    await page.locator('#session-count', { hasText: /^5$/ }).waitFor();
    for (const [width, height] of [[1280, 800], [390, 844]]) {
      await page.setViewportSize({ width, height });
      if (width < 700) await page.locator('#tab-sessions').click(); // one pane at a time
      for (const scheme of ['light', 'dark']) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.locator('#session-list li.session').last().evaluate((li) => li.scrollIntoView({ block: 'end' }));
        await page.screenshot({ path: artifactPath(`session-list-undated-${width}-${scheme}.png`) });
      }
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    await page.locator('#session-count', { hasText: '5' }).waitFor();
    assert.deepEqual(await listed(), want, 'the stored sessions stay undated');
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('explorer: the selected session stays in view when a message moves it to the top of the list, and a session opened from elsewhere is scrolled to; a row\'s tooltip is its whole title and id', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1280, height: 800 } } });
  try {
    const { page } = env;
    await openExplorer(page, env.baseURL);
    for (let i = 0; i < 40; i++) await call(page, { operation: 'create', sessionId: `s${i}`, title: `Chat ${i}` });
    await page.locator('#session-count', { hasText: '41' }).waitFor();
    /** The selected row's place: "in view", or how it misses the list's box. */
    const seen = () => page.evaluate(() => {
      const row = document.querySelector('#session-list .session.selected');
      const list = document.getElementById('session-list').getBoundingClientRect();
      if (!row) return 'no selected row';
      const r = row.getBoundingClientRect();
      return r.bottom > list.top && r.top < list.bottom ? `in view: ${row.dataset.sessionId}` : `out of view: ${row.dataset.sessionId} at ${Math.round(r.top)} (list ${Math.round(list.top)}…${Math.round(list.bottom)})`;
    });
    // s0 is near the end (newest first): scroll to it and open it with a click.
    // A click scrolls the row into view itself and finds the row again if the list is made anew
    // meanwhile (scrollIntoViewIfNeeded does not: it failed once on a row replaced under it).
    await page.locator('.session[data-session-id="s0"] .session-button').click();
    await page.waitForFunction(() => window.explorer.state.selected === 's0');
    assert.equal(await seen(), 'in view: s0');
    assert.ok(await page.locator('#session-list').evaluate((l) => l.scrollTop) > 0, 'the list was scrolled down');
    // Opened with Enter, focus stays on its row (the rows are made again), so Tab goes on from there.
    await page.locator('.session[data-session-id="s1"] .session-button').focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.explorer.state.selected === 's1');
    await page.locator('.session.selected[data-session-id="s1"]').waitFor();
    assert.equal(await page.evaluate(() => `${document.activeElement.closest('.session')?.dataset.sessionId} ${document.activeElement.className}`), 's1 session-button');
    await page.locator('.session[data-session-id="s0"] .session-button').click();
    await page.waitForFunction(() => window.explorer.state.selected === 's0');
    // The row's tooltip leads with the whole title (cut off in a narrow row), then the id.
    assert.equal(await page.locator('.session[data-session-id="s0"] .session-button').getAttribute('title'), 'Chat 0\ns0');
    // A message moves s0 to the top: the list follows it.
    await call(page, { operation: 'append', sessionId: 's0', message: { role: 'user', content: 'one more' } });
    await page.waitForFunction(() => document.querySelector('#session-list .session')?.dataset.sessionId === 's0');
    assert.equal(await seen(), 'in view: s0');
    // Scrolled away from it by the user, a refresh leaves the list where the user put it.
    await page.locator('#session-list').evaluate((l) => (l.scrollTop = l.scrollHeight));
    const at = await page.locator('#session-list').evaluate((l) => l.scrollTop);
    await call(page, { operation: 'create', sessionId: 'later', title: 'Later chat' });
    await page.locator('#session-count', { hasText: '42' }).waitFor();
    assert.match(await seen(), /^out of view: s0/);
    assert.ok(Math.abs((await page.locator('#session-list').evaluate((l) => l.scrollTop)) - at) < 200, 'the list kept its place');
    // Opened from outside the list (the address, as a search hit or a fork does): its row is scrolled to.
    await page.evaluate(() => (location.hash = '#session=s1'));
    await page.waitForFunction(() => window.explorer.state.selected === 's1');
    assert.equal(await seen(), 'in view: s1');
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('explorer: opening another session never shows its rows beside the messages of the session shown before', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1280, height: 800 } } });
  try {
    const { page } = env;
    await openExplorer(page, env.baseURL);
    await page.locator('session-tree-panel .messages .message-body', { hasText: 'Lisbon' }).first().waitFor();
    await call(page, { operation: 'create', sessionId: 'other', title: 'Other chat' });
    const { id: nodeId } = await call(page, { operation: 'append', sessionId: 'other', message: { role: 'user', content: 'a question of the other chat' } });
    await page.locator('.session[data-session-id="other"]').waitFor();
    // Watch every change of the panel: once the other session's cursor row is drawn, no demo message may show.
    await page.evaluate((cursor) => {
      const root = document.querySelector('#panel').shadowRoot;
      window.seenMixed = [];
      new MutationObserver(() => {
        if (!root.querySelector(`.row.cursor[data-node-id="${cursor}"]`)) return;
        const demo = [...root.querySelectorAll('.messages .message-body')].filter((b) => b.textContent.includes('Lisbon'));
        if (demo.length > 0) window.seenMixed.push(demo.length);
      }).observe(root, { subtree: true, childList: true, characterData: true });
    }, nodeId);
    await page.locator('.session[data-session-id="other"] .session-button').click();
    await page.locator('session-tree-panel .messages .message-body', { hasText: 'a question of the other chat' }).waitFor();
    assert.deepEqual(await page.evaluate(() => window.seenMixed), [], 'the demo\'s messages were shown beside the other session\'s rows');
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});
