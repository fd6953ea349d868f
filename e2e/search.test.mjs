// tree.search through the shim in headless Chromium: hits, ranges read as
// JavaScript string offsets (UTF-16), filters, errors, and the index after
// snapshot.load.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openExplorer, explorerCall, artifactPath } from './helpers.mjs';
import { MAX_QUERY_LENGTH } from '../js/protocol.js';

test('tree.search finds typos, accents and CJK, with ranges in UTF-16 code units', async () => {
  const env = await setup();
  try {
    const { page, baseURL, errors } = env;
    await page.goto(baseURL + 'e2e/fixtures/shim.html');
    await page.locator('#status', { hasText: 'ready' }).waitFor();

    const result = await page.evaluate(async () => {
      const tree = await window.sessiontree.init({ persist: false });
      await tree.call({ operation: 'create', sessionId: 'demo' });
      const texts = [
        'The deployment pipeline failed yesterday',
        'Nous irons à Lumière demain',
        '我喜歡用signal聊天',
        'great job 👍🏽 team',
      ];
      const ids = [];
      for (const content of texts) {
        const env = await tree.call({ operation: 'append', sessionId: 'demo', message: { role: 'user', content } });
        ids.push(env.value.id);
      }
      await tree.call({ operation: 'append', sessionId: 'demo', message: { role: 'assistant', content: 'the pipeline is green again' } });
      const marked = (env) => env.value.hits.map((h) => ({ nodeId: h.nodeId, marked: h.ranges.map(([a, b]) => h.snippet.slice(a, b)) }));
      const out = { ids };
      out.typo = marked(await tree.search('depolyment'));
      out.accent = marked(await tree.search('LUMIERE'));
      out.cjk = marked(await tree.search('歡'));
      out.emoji = marked(await tree.search('👍'));
      out.roles = (await tree.search('pipeline', { roles: ['assistant'] })).value.hits.map((h) => h.role);
      out.limit = await tree.search('pipeline', { sessionId: 'demo', limit: 1 });
      out.badLimit = await tree.search('pipeline', { limit: 0 });
      out.noSession = await tree.search('pipeline', { sessionId: 'nope' });
      await tree.call({
        operation: 'snapshot.load', sessionId: 'demo', snapshot: {
          version: 1, sessionId: 'demo', cursor: 'k1', activeBranch: 'main', nodes: [
            { id: 'k1', parentId: null, branch: 'main', kind: 'message', timestamp: '2026-01-01T00:00:00.000Z', message: { role: 'user', content: 'kiwis only' } },
          ],
        },
      });
      out.afterLoadOld = (await tree.search('pipeline')).value;
      out.afterLoadNew = marked(await tree.search('kiwi'));
      return out;
    });

    const [deploy, lumiere, cjk, emoji] = result.ids;
    assert.deepEqual(result.typo, [{ nodeId: deploy, marked: ['deployment'] }]);
    assert.deepEqual(result.accent, [{ nodeId: lumiere, marked: ['Lumière'] }]);
    assert.deepEqual(result.cjk, [{ nodeId: cjk, marked: ['歡'] }]);
    assert.deepEqual(result.emoji, [{ nodeId: emoji, marked: ['👍🏽'] }]);
    assert.deepEqual(result.roles, ['assistant']);
    assert.equal(result.limit.ok, true);
    assert.equal(result.limit.value.hits.length, 1);
    assert.equal(result.limit.value.total, 2);
    assert.equal(result.limit.value.hits[0].role, 'assistant', 'the newer of two equal hits comes first');
    assert.deepEqual(result.badLimit, { ok: false, error: { code: 'INVALID_ARGUMENT', message: 'field "limit" must be an integer from 1 to 1000' } });
    assert.equal(result.noSession.error.code, 'SESSION_NOT_FOUND');
    assert.deepEqual(result.afterLoadOld, { hits: [], total: 0 }, 'a replaced session leaves no stale hits');
    assert.deepEqual(result.afterLoadNew, [{ nodeId: 'k1', marked: ['kiwi'] }]);
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('the search index is built in the background after a load, and a search before it is complete finds every node', async () => {
  const env = await setup();
  try {
    const { page, baseURL, errors } = env;
    await page.goto(baseURL + 'e2e/fixtures/shim.html');
    await page.locator('#status', { hasText: 'ready' }).waitFor();
    const result = await page.evaluate(async () => {
      const tree = await window.sessiontree.init({ persist: false });
      const nodes = [];
      for (let i = 0; i < 6000; i++) {
        nodes.push({ id: `m${i}`, parentId: i ? `m${i - 1}` : null, branch: 'main', kind: 'message', timestamp: '2026-11-30T00:00:00.000Z', message: { role: i % 2 ? 'assistant' : 'user', content: `message ${i} about ${i % 100 === 7 ? 'quinces' : 'apples'}` } });
      }
      // Whether the index is complete, asked of the store's thread (its worker by default).
      const complete = async () => (await tree._debug()).indexComplete;
      // A load, then at once a search of it while its index is incomplete.
      // A machine busy enough to pause this page past the build (idle time
      // builds it) leaves nothing to show: load another session and ask
      // again (order, not time, decides; at most five sessions).
      let out = null;
      for (let k = 0; k < 5 && out === null; k++) {
        const id = `big${k}`;
        const loaded = await tree.call({ operation: 'snapshot.load', sessionId: id, snapshot: { version: 1, sessionId: id, cursor: 'm5999', activeBranch: 'main', nodes } });
        if (!loaded.ok) return { loaded: false, error: loaded.error };
        if (await complete()) continue;
        // Asked before the index is complete: the rest is scanned.
        const early = (await tree.search('quinces', { limit: 100, sessionId: id })).value;
        out = { loaded: true, completeAtOnce: false, earlyHits: early.total, earlyFirst: early.hits[0]?.nodeId, id };
      }
      if (out === null) return { loaded: true, completeAtOnce: true };
      // Idle time builds it (slices of 500 nodes); wait up to 20 s for it.
      const t0 = performance.now();
      while (!(await complete()) && performance.now() - t0 < 20000) await new Promise((r) => setTimeout(r, 50));
      out.completeLater = await complete();
      out.hits = (await tree.search('quinces', { limit: 100, sessionId: out.id })).value.total;
      delete out.id;
      return out;
    });
    assert.deepEqual(result, { loaded: true, completeAtOnce: false, earlyHits: 60, earlyFirst: 'm5907', completeLater: true, hits: 60 });
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('explorer: the search boxes take at most core\'s longest query (maxlength MAX_QUERY_LENGTH); a longer one set by a script is said once, plainly, with no "No matches" and no error', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1366, height: 800 } } });
  try {
    const { page, baseURL, errors } = env;
    await openExplorer(page, baseURL);
    const session = page.locator('session-tree-panel input.search');
    const global = page.locator('#global-search');
    await global.waitFor({ state: 'visible' });
    await page.waitForFunction(() => !document.getElementById('global-search').disabled);
    assert.equal(await session.getAttribute('maxlength'), String(MAX_QUERY_LENGTH));
    assert.equal(await global.getAttribute('maxlength'), String(MAX_QUERY_LENGTH));
    // Typed or pasted, the box keeps the first MAX_QUERY_LENGTH characters.
    await session.fill('lisbon ');
    await session.press('End');
    await page.keyboard.insertText('x'.repeat(MAX_QUERY_LENGTH));
    assert.equal((await session.inputValue()).length, MAX_QUERY_LENGTH);
    // Set by a script past maxlength: one plain line in the dropdown.
    const long = 'lisbon '.repeat(215).trim(); // 1,504 characters
    const said = 'Too long to search: 1,504 characters; a search takes at most 1,000.';
    await session.evaluate((input, q) => {
      input.value = q;
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }, long);
    const hits = page.locator('session-tree-panel ul.hits');
    await hits.locator('.hits-head', { hasText: 'Too long' }).waitFor();
    assert.deepEqual(await hits.locator('li').allTextContents(), [said]);
    assert.equal(await page.locator('session-tree-panel .status').evaluateAll((ss) => ss.map((e) => e.textContent).join('')), '', 'no error line beside it');
    await page.screenshot({ path: artifactPath('search-too-long-session-1366.png') });
    await session.press('Escape');
    await global.evaluate((input, q) => {
      input.value = q;
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }, long);
    await page.locator('#global-hits li', { hasText: 'Too long' }).waitFor();
    assert.deepEqual(await page.locator('#global-hits li').allTextContents(), [said]);
    await page.screenshot({ path: artifactPath('search-too-long-global-1366.png') });
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('explorer: both search boxes are comboboxes of their lists (aria-expanded follows the list) and say their counts in a status line', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1366, height: 800 } } });
  try {
    const { page, baseURL, errors } = env;
    await openExplorer(page, baseURL);
    await page.waitForFunction(() => !document.getElementById('global-search').disabled);
    const global = page.locator('#global-search');
    assert.deepEqual(await global.evaluate((i) => [i.getAttribute('role'), i.getAttribute('aria-expanded'), i.getAttribute('aria-controls')]), ['combobox', 'false', 'global-hits']);
    await global.fill('lisbon');
    await page.locator('#global-hits li[role=option]').first().waitFor();
    await page.waitForFunction(() => /match/.test(document.getElementById('global-search-status').textContent));
    assert.equal(await global.getAttribute('aria-expanded'), 'true');
    assert.match(await page.locator('#global-search-status').textContent(), /^1 session by title; \d+ match(es)? in messages$/);
    await global.press('Escape');
    await page.waitForFunction(() => document.getElementById('global-search').getAttribute('aria-expanded') === 'false');

    const session = page.locator('session-tree-panel input.search');
    assert.deepEqual(await session.evaluate((i) => [i.getAttribute('role'), i.getAttribute('aria-expanded')]), ['combobox', 'false']);
    await session.fill('sintra');
    await page.locator('session-tree-panel ul.hits .hit-item').first().waitFor();
    assert.equal(await session.getAttribute('aria-expanded'), 'true');
    const status = page.locator('session-tree-panel .search-wrap [role=status]');
    assert.match(await status.textContent(), /^\d+ match(es)?$/);
    assert.equal(await status.evaluate((s) => s.getBoundingClientRect().width <= 1), true, 'said, not shown');
    await session.press('Escape');
    await page.waitForFunction(() => document.querySelector('session-tree-panel').shadowRoot.querySelector('input.search').getAttribute('aria-expanded') === 'false');
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('explorer: a session opened from the search over every session, by keyboard or a click on its title, takes focus into its tree (it fell to <body> with the list)', async () => {
  for (const [width, height] of [[1366, 800], [390, 844]]) {
    const env = await setup({ contextOptions: { viewport: { width, height } } });
    try {
      const { page, baseURL, errors } = env;
      const panel = await openExplorer(page, baseURL);
      await explorerCall(page, { operation: 'create', sessionId: 'porto', title: 'A day in Porto' });
      await explorerCall(page, { operation: 'append', sessionId: 'porto', message: { role: 'user', content: 'Is one day enough?' } });
      await page.evaluate(() => window.explorer.refresh());
      await page.waitForFunction(() => !document.getElementById('global-search').disabled);
      const global = page.locator('#global-search');
      /** Where focus is: the panel's own element when inside it, else the page's. */
      const focused = () => page.evaluate(() => {
        const a = document.activeElement;
        return a?.id === 'panel' ? `panel ${a.shadowRoot.activeElement?.className}` : (a?.id || a?.tagName);
      });
      for (const [how, query] of [['keys', 'porto'], ['click', 'lisbon']]) {
        await global.fill('');
        await global.fill(query);
        const title = page.locator('#global-hits[aria-busy="false"] li.title-hit');
        await title.waitFor();
        if (how === 'keys') {
          await global.press('ArrowDown');
          assert.equal(await page.evaluate(() => document.activeElement.classList.contains('title-hit')), true);
          await page.keyboard.press('Enter');
        } else await title.click();
        await page.locator('#global-hits').waitFor({ state: 'hidden' });
        await page.waitForFunction(() => document.activeElement !== document.body, null, { timeout: 5000 }).catch(() => {});
        // On a phone the pane switch may hand it to the shown pane's tab first (explorer-panes.js): kept there.
        const want = width < 700 ? ['panel scroller', 'tab-tree'] : ['panel scroller'];
        const got = await focused();
        assert.ok(want.includes(got), `${width}×${height}, ${how}: focus is on ${got}, not on the opened session's tree`);
        assert.equal(await panel.locator('.row.active').count(), 1, 'its highlighted row shows where');
        assert.equal(await page.evaluate(() => window.explorer.panel.sessionId), query === 'porto' ? 'porto' : 'demo');
      }
      assert.deepEqual(errors, []);
    } finally {
      await env.close();
    }
  }
});
