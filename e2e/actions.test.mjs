// Clear results of actions in the explorer (issue 17, items 7 and 9): the
// chat demo is linked, forks and clones get titles of their own and show
// their ids, a toast confirms, the preferred path's node has a ★, hidden
// nodes leave a placeholder row, separate roots are drawn apart, one search
// dropdown is open at a time, the session filter forgives typos, and
// "Ask the browser to keep this data" says what the browser answered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openExplorer, explorerCall, artifactPath } from './helpers.mjs';

const call = explorerCall;

test('explorer links the chat demo, and the link opens it', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1366, height: 850 } } });
  try {
    const { page, baseURL, errors } = env;
    await openExplorer(page, baseURL);
    const link = page.locator('#chat-demo-link');
    assert.equal(await link.isVisible(), true);
    assert.equal(await link.getAttribute('href'), './chat-demo.html');
    await link.click();
    await page.waitForURL(/chat-demo\.html$/);
    assert.equal(await page.title(), 'sessiontree — embedding demo');
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

/** The rows of the demo session, from the core. */
async function demoRows(page) {
  return (await call(page, { operation: 'tree', sessionId: 'demo' })).rows;
}

/** Rectangles of every visible button and input in the panel, to check the toast against. */
function controlBoxes(panelEl) {
  return [...panelEl.shadowRoot.querySelectorAll('button, input, select, label.compact')]
    .filter((e) => e.getClientRects().length > 0 && !e.closest('[hidden]'))
    .map((e) => {
      const r = e.getBoundingClientRect();
      return { name: e.className || e.localName, l: r.left, t: r.top, r: r.right, b: r.bottom };
    });
}

/**
 * The shown toast covers no control, nor the panel's head and toolbar,
 * and its text stays inside its rounded corners (each line's first and
 * last letter within the curve).
 */
async function assertToastCoversNothing(panel) {
  const m = await panel.evaluate((p) => {
    const t = p.shadowRoot.querySelector('.status');
    const r = t.getBoundingClientRect();
    const box = { l: r.left, t: r.top, r: r.right, b: r.bottom };
    const rect = (e) => {
      const x = e.getBoundingClientRect();
      return { name: e.className, l: x.left, t: x.top, r: x.right, b: x.bottom };
    };
    const range = document.createRange();
    range.selectNodeContents(t);
    const lines = [...range.getClientRects()].map((x) => ({ l: x.left, t: x.top, r: x.right, b: x.bottom }));
    return { box, radius: parseFloat(getComputedStyle(t).borderTopLeftRadius), lines, head: [...p.shadowRoot.querySelectorAll('.head, .tools')].map(rect) };
  });
  const { box, radius, lines, head } = m;
  const overlaps = (c) => Math.min(c.r, box.r) - Math.max(c.l, box.l) > 0 && Math.min(c.b, box.b) - Math.max(c.t, box.t) > 0;
  assert.deepEqual((await panel.evaluate(controlBoxes)).filter(overlaps), []);
  assert.deepEqual(head.filter(overlaps), []);
  // A point is inside the rounded box unless it lies in a corner square beyond the arc.
  const inside = (x, y) => {
    const cx = x < box.l + radius ? box.l + radius : x > box.r - radius ? box.r - radius : x;
    const cy = y < box.t + radius ? box.t + radius : y > box.b - radius ? box.b - radius : y;
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2 + 0.5;
  };
  assert.ok(lines.length > 0);
  for (const l of lines) for (const [x, y] of [[l.l, l.t], [l.r, l.t], [l.l, l.b], [l.r, l.b]]) assert.ok(inside(x, y), `text corner (${x}, ${y}) outside the toast's rounded box ${JSON.stringify(box)} r=${radius}`);
}

test('phone (390×844): the fork toast of several lines keeps its letters inside its corners and covers no control or the head', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 390, height: 844 } } });
  try {
    const { page, baseURL, errors } = env;
    const panel = await openExplorer(page, baseURL);
    const tip = (await demoRows(page)).find((r) => r.tipOf === 'main-2');
    await panel.locator(`.row[data-node-id="${tip.id}"]`).click();
    await page.locator('#tab-tree').click();
    await panel.locator('.act-more').click();
    await panel.locator('.act-fork').click();
    const toast = panel.locator('.status', { hasText: 'Forked at message' });
    await toast.waitFor();
    assert.ok((await toast.evaluate((t) => t.getBoundingClientRect().height)) > 40, 'the toast takes several lines');
    await assertToastCoversNothing(panel);
    await page.screenshot({ path: artifactPath('actions-fork-toast-390x844.png') });
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('fork and clone: titles of their own, ids in the sessions list, a toast that covers no control', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1366, height: 850 } } });
  try {
    const { page, baseURL, errors } = env;
    const panel = await openExplorer(page, baseURL);
    const rows = await demoRows(page);
    const budgetTip = rows.find((r) => r.tipOf === 'budget');
    await panel.locator(`.row[data-node-id="${budgetTip.id}"]`).click();
    await panel.locator('.act-fork').click();
    const forkTitle = 'Demo: a long weekend in Lisbon (fork)';
    const forkItem = page.locator('#session-list .session', { hasText: forkTitle });
    await forkItem.waitFor();
    const forkId = await forkItem.getAttribute('data-session-id');
    assert.notEqual(forkId, 'demo');
    assert.equal(await forkItem.locator('.session-id').textContent(), forkId);
    // The row can show (the refresh after the rename) before the page selects it, and the panel
    // shows the fork's title once it has loaded it: wait for each, then check it.
    await page.locator('#session-list .session.selected', { hasText: forkTitle }).waitFor();
    assert.equal(await page.locator('#session-list .session.selected').getAttribute('data-session-id'), forkId);
    await panel.locator('.head .title', { hasText: forkTitle }).waitFor();
    assert.equal(await panel.locator('.head .title').textContent(), forkTitle);
    // The toast names what happened, is polite, and sits over no control nor the head.
    const toast = panel.locator('.status');
    await toast.waitFor();
    // It says where in the path the fork was made (the fork's node count), not a node id.
    const forkCount = (await call(page, { operation: 'session', sessionId: forkId })).nodeCount;
    assert.ok(forkCount > 1);
    assert.equal(await toast.textContent(), `Forked at message ${forkCount} into “\u2068${forkTitle}\u2069”`);
    assert.equal(await toast.getAttribute('aria-live'), 'polite');
    await assertToastCoversNothing(panel);
    await page.screenshot({ path: artifactPath('actions-fork-toast-1366x850.png') });

    // Clone the fork: "(copy)" after the fork's title, its own id.
    await panel.locator('.act-clone').click();
    const cloneTitle = `${forkTitle} (copy)`;
    const cloneItem = page.locator('#session-list .session', { hasText: cloneTitle });
    await cloneItem.waitFor();
    const cloneId = await cloneItem.getAttribute('data-session-id');
    assert.ok(![forkId, 'demo'].includes(cloneId));
    assert.equal(await cloneItem.locator('.session-id').textContent(), cloneId);
    await panel.locator('.status', { hasText: `Cloned into “\u2068${cloneTitle}\u2069”` }).waitFor();
    const forkedSession = await call(page, { operation: 'session', sessionId: forkId });
    assert.equal(forkedSession.cursor, budgetTip.id);
    // The titles are core's (rename), not only this page's: other tabs, exports and the map's family show them.
    assert.equal(forkedSession.title, forkTitle);
    assert.equal((await call(page, { operation: 'session', sessionId: cloneId })).title, cloneTitle);

    // Three sessions, three titles; a reload keeps them.
    const titles = () => page.locator('#session-list .session-title').allTextContents();
    assert.deepEqual((await titles()).sort(), ['Demo: a long weekend in Lisbon', cloneTitle, forkTitle].sort());
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    assert.deepEqual((await titles()).sort(), ['Demo: a long weekend in Lisbon', cloneTitle, forkTitle].sort());

    // The session filter forgives typos ("lisbn", "weekned"), and the id filters too.
    const shown = () => page.locator('#session-list .session').evaluateAll((ls) => ls.map((l) => l.dataset.sessionId));
    await page.locator('#session-filter').fill('lisbn weekned');
    assert.equal((await shown()).length, 3);
    await page.locator('#session-filter').fill('copi');
    assert.deepEqual(await shown(), [cloneId]);
    await page.locator('#session-filter').fill('frok');
    assert.deepEqual((await shown()).sort(), [forkId, cloneId].sort());
    await page.locator('#session-filter').fill('zzzz');
    assert.deepEqual(await shown(), []);
    await page.locator('#session-filter').fill('');
    assert.equal((await shown()).length, 3);
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('tree rows: ★ where the preferred path ends, a "1 hidden" placeholder, separate roots apart', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1366, height: 850 } } });
  try {
    const { page, baseURL, errors } = env;
    const panel = await openExplorer(page, baseURL);
    const rows = await demoRows(page);
    const budgetTip = rows.find((r) => r.tipOf === 'budget');
    const budgetFirst = rows.find((r) => r.id === budgetTip.parentId);
    assert.equal(budgetFirst.branch, 'budget');
    // Prefer an inner node: the ★ is on it, not on the leaf below it.
    await call(page, { operation: 'prefer', sessionId: 'demo', nodeId: budgetFirst.id });
    await panel.locator('.pref-mark').first().waitFor();
    assert.deepEqual(await panel.locator('.row:has(.pref-mark)').evaluateAll((rs) => rs.map((r) => r.dataset.nodeId)), [budgetFirst.id]);

    // Hide the main-2 tip (one node): the default view shows "1 hidden" in its place.
    const lone = rows.find((r) => r.tipOf === 'main-2');
    await call(page, { operation: 'hide', sessionId: 'demo', nodeId: lone.id, hidden: true });
    const placeholder = panel.locator(`.row.hidden-gap[data-gap="${lone.id}"]`);
    await placeholder.waitFor();
    assert.equal(await placeholder.locator('.gap-text').textContent(), '1 hidden — show');
    assert.equal(await panel.locator(`.row[data-node-id="${lone.id}"]`).count(), 0);
    // Hide the rainy-day branch (three nodes): "3 hidden".
    const rainyFirst = rows.find((r) => r.branch === 'rainy-day' && rows.find((p) => p.id === r.parentId)?.branch !== 'rainy-day');
    await call(page, { operation: 'hide', sessionId: 'demo', nodeId: rainyFirst.id, hidden: true });
    await panel.locator(`.row.hidden-gap[data-gap="${rainyFirst.id}"] .gap-text`, { hasText: '3 hidden — show' }).waitFor();
    await page.screenshot({ path: artifactPath('actions-star-hidden-1366x850-light.png') });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForFunction(() => document.querySelector('#panel').getAttribute('pane') === 'tree');
    await placeholder.scrollIntoViewIfNeeded();
    await page.screenshot({ path: artifactPath('actions-star-hidden-390x844-dark.png') });
    await page.setViewportSize({ width: 1366, height: 850 });
    await page.waitForFunction(() => !document.querySelector('#panel').hasAttribute('pane'));
    // Clicking a placeholder shows the subtree in place, dimmed.
    await placeholder.click();
    await panel.locator(`.row.hidden-node[data-node-id="${lone.id}"]`).waitFor();
    assert.equal(await panel.locator(`.row.hidden-gap[data-gap="${lone.id}"]`).count(), 0);
    assert.equal(await panel.locator('.filter').inputValue(), 'default');

    // A forest: two roots, each under its own heading, the second after a rule.
    const ts = (ms) => `2026-01-02T03:04:05.00${ms}Z`;
    const node = (id, parentId, branch, role, content, ms) => ({ id, parentId, branch, kind: 'message', timestamp: ts(ms), message: { role, content } });
    const snapshot = {
      version: 1, sessionId: 'forest', cursor: 'b2', activeBranch: 'other',
      nodes: [node('a', null, 'main', 'user', 'first root', 1), node('a2', 'a', 'main', 'assistant', 'answer one', 2), node('b', null, 'other', 'user', 'second root', 3), node('b2', 'b', 'other', 'assistant', 'answer two', 4)],
    };
    await call(page, { operation: 'snapshot.load', sessionId: 'forest', snapshot });
    await page.locator('#session-list .session[data-session-id="forest"] .session-button').click();
    await panel.locator('.row[data-node-id="b2"]').waitFor();
    const marks = await panel.locator('.row.root-start').evaluateAll((rs) => rs.map((r) => [r.dataset.nodeId, r.querySelector('.root-mark').textContent, r.classList.contains('root-later'), getComputedStyle(r).borderTopStyle]));
    assert.deepEqual(marks, [['a', 'tree 1 of 2', false, 'none'], ['b', 'tree 2 of 2', true, 'double']]);
    // Rows keep their height (the tree is virtualised by fixed rows).
    const heights = await panel.locator('.row').evaluateAll((rs) => [...new Set(rs.map((r) => r.getBoundingClientRect().height))]);
    assert.equal(heights.length, 1);
    await page.screenshot({ path: artifactPath('actions-roots-1366x850.png') });
    // On a phone the mark is short ("2/2": the message's text keeps the room), its text unchanged for screen readers.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForFunction(() => document.querySelector('#panel').getAttribute('pane') === 'tree');
    // Found and measured in one task: the rows are drawn again after a resize, and a detached mark has no style.
    const narrow = await panel.evaluate((p) => {
      const m = p.shadowRoot.querySelector('.row.root-later .root-mark');
      return [m.textContent, getComputedStyle(m, '::after').content, Math.round(m.getBoundingClientRect().width)];
    });
    assert.deepEqual(narrow.slice(0, 2), ['tree 2 of 2', '"2/2"']);
    assert.ok(narrow[2] < 30, `the mark is ${narrow[2]} px wide`);
    await page.screenshot({ path: artifactPath('actions-roots-390x844.png') });
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('one dropdown at a time: the all-sessions search, the in-session search and the export menu', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1366, height: 850 } } });
  try {
    const { page, baseURL, errors } = env;
    const panel = await openExplorer(page, baseURL);
    const globalHits = page.locator('#global-hits');
    const panelHits = panel.locator('.hits');
    // The messages' hits come after the titles' and open the dropdown again, closing the others:
    // wait for them (aria-busy false) before opening another dropdown.
    const globalDone = page.locator('#global-hits[aria-busy="false"]');
    await page.locator('#global-search').fill('Lisbon');
    await globalDone.waitFor();
    await panel.locator('.search').fill('Sintra');
    await panelHits.waitFor();
    assert.equal(await globalHits.isVisible(), false);
    await page.locator('#global-search').fill('Sintra');
    await globalDone.waitFor();
    await panelHits.waitFor({ state: 'hidden' });
    // The export menu closes both; opening a search closes it.
    await page.locator('#export-button').click();
    assert.equal(await page.locator('#export-list').isVisible(), true);
    assert.equal(await globalHits.isVisible(), false);
    await panel.locator('.search').fill('Baixa');
    await panelHits.waitFor();
    assert.equal(await page.locator('#export-list').isVisible(), false);
    assert.equal(await page.locator('#export-button').getAttribute('aria-expanded'), 'false');
    // A press elsewhere closes the in-session dropdown (the query stays).
    await page.locator('#session-count').click();
    await panelHits.waitFor({ state: 'hidden' });
    assert.equal(await panel.locator('.search').inputValue(), 'Baixa');
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('"Ask the browser to keep this data" says what the browser answered', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1366, height: 850 } } });
  try {
    const { page, baseURL, errors } = env;
    await openExplorer(page, baseURL);
    const button = page.locator('#storage-persist');
    const before = await page.evaluate(() => navigator.storage.persisted());
    assert.equal(await button.isVisible(), !before);
    if (!before) {
      await button.click();
      const result = page.locator('#storage-persist-result');
      await page.waitForFunction(() => document.querySelector('#storage-persist-result').textContent !== '');
      const granted = await page.evaluate(() => navigator.storage.persisted());
      assert.equal(await result.textContent(), granted ? 'The browser will keep this data.' : 'The browser declined for now (it decides by how the site is used); the data stays until it needs the space.');
      assert.equal(await result.getAttribute('aria-live'), 'polite');
    }
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});
