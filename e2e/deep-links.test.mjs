// Deep links both ways (issue 28, static/explorer-route.js): an address
// #session=…&node=… opens that node's path; opening a session and jumping
// push history entries, so Back and Forward walk what the user did; a
// changed address (edited, or a link) opens what it names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openExplorer, explorerCall } from './helpers.mjs';

/** What the explorer shows: the address, the selected session, the last message of the context pane. */
function shown(page) {
  return page.evaluate(() => {
    const panel = document.getElementById('panel');
    const last = panel.shadowRoot.querySelector('.messages .message:last-child');
    return { hash: decodeURIComponent(location.hash), session: window.explorer.state.selected, panel: panel.sessionId, last: last?.dataset.nodeId ?? null };
  });
}

/** Wait until the explorer shows session (and, when given, node's path). */
async function until(page, session, node) {
  await page.waitForFunction(({ session, node }) => {
    const panel = document.getElementById('panel');
    const last = panel?.shadowRoot?.querySelector('.messages .message:last-child');
    return window.explorer?.state.selected === session && panel.sessionId === session && (node === undefined || last?.dataset.nodeId === node);
  }, { session, node });
}

test('deep links: an address opens a node, opening sessions and jumps are history entries, Back and Forward walk them, an edited address is followed', async () => {
  const env = await setup();
  try {
    const { page, baseURL, errors } = env;
    await openExplorer(page, baseURL);
    const demo = await explorerCall(page, { operation: 'tree', sessionId: 'demo', showHidden: true });
    const budget = demo.rows.find((r) => r.preview.startsWith('About €70'));
    const cursor = demo.rows.find((r) => r.cursor);
    assert.ok(budget && cursor && budget.id !== cursor.id);
    assert.equal((await shown(page)).hash, '#session=demo', 'the first session replaces the entry the page opened with');
    const start = await page.evaluate(() => history.length);

    // A jump (Continue from here) to the budget node: a new entry naming it.
    await page.locator(`#panel .row[data-node-id="${budget.id}"]`).click();
    await until(page, 'demo', budget.id);
    assert.equal((await shown(page)).hash, '#session=demo', 'a path looked at is no step');
    await page.locator('#panel .act-jump').click();
    // The panel tells of the jump once it has drawn the new cursor: the address follows then.
    await page.waitForFunction((h) => decodeURIComponent(location.hash) === h, `#session=demo&node=${budget.id}`);
    assert.equal(await page.evaluate(() => document.getElementById('panel').shadowRoot.querySelector('.row.cursor')?.dataset.nodeId), budget.id);

    // A second session, opened from the list: a new entry.
    await explorerCall(page, { operation: 'create', sessionId: 'other' });
    const hello = await explorerCall(page, { operation: 'append', sessionId: 'other', message: { role: 'user', content: 'Hello from the other session' } });
    await page.locator('#session-list li[data-session-id="other"] .session-button').first().click();
    await until(page, 'other', hello.id);
    assert.equal((await shown(page)).hash, '#session=other');
    assert.equal(await page.evaluate(() => history.length), start + 2);

    // Back and Forward walk them: other → demo at the budget node → demo → … → other.
    await page.goBack();
    await until(page, 'demo', budget.id);
    assert.equal((await shown(page)).hash, `#session=demo&node=${budget.id}`);
    await page.goBack();
    await until(page, 'demo');
    assert.equal((await shown(page)).hash, '#session=demo');
    await page.goForward();
    await until(page, 'demo', budget.id);
    await page.goForward();
    await until(page, 'other', hello.id);

    // An address edited by hand (or a link) is followed: the old cursor's path in demo.
    await page.evaluate((id) => (location.hash = `#session=demo&node=${encodeURIComponent(id)}`), cursor.id);
    await until(page, 'demo', cursor.id);
    assert.equal(await page.evaluate(() => document.getElementById('panel').shadowRoot.querySelector('.row[aria-selected="true"]')?.dataset.nodeId), cursor.id, 'the node named is selected in the tree');
    await page.goBack();
    await until(page, 'other', hello.id);

    // A page opened at an address shows that node; an unknown node is said, nothing breaks.
    const fresh = await env.newPage();
    await fresh.goto(`${baseURL}static/#session=demo&node=${encodeURIComponent(cursor.id)}`);
    await fresh.waitForSelector('body[data-ready="true"]');
    await until(fresh, 'demo', cursor.id);
    await fresh.evaluate(() => (location.hash = '#session=demo&node=no-such-node'));
    await fresh.locator('#status', { hasText: 'This address names a node that is not in demo: no-such-node' }).waitFor();
    await fresh.close();
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('deep links: a session opened from the search over every session is named by the address, so a reload opens it again', async () => {
  const env = await setup();
  try {
    const { page, baseURL, errors } = env;
    await openExplorer(page, baseURL);
    await explorerCall(page, { operation: 'create', sessionId: 'other' });
    const hit = await explorerCall(page, { operation: 'append', sessionId: 'other', message: { role: 'user', content: 'A zebra crossing near the harbour' } });
    await explorerCall(page, { operation: 'append', sessionId: 'other', message: { role: 'assistant', content: 'Noted.' } });
    await page.locator('#session-list li[data-session-id="demo"] .session-button').first().click();
    await until(page, 'demo');
    await page.waitForFunction(() => decodeURIComponent(location.hash) === '#session=demo');
    await page.locator('#global-search').fill('zebar crossing');
    await page.locator('#global-hits[aria-busy="false"] li[role="option"][data-node-id]', { hasText: 'zebra crossing' }).first().click();
    await until(page, 'other', hit.id);
    await page.waitForFunction((h) => decodeURIComponent(location.hash) === h, `#session=other&node=${hit.id}`);
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    await until(page, 'other', hit.id);
    assert.equal((await shown(page)).hash, `#session=other&node=${hit.id}`);
    // A message sent from there moves the cursor: the address follows it, so a reload opens
    // at the new message, not previewing the hit.
    const panel = page.locator('#panel');
    await panel.locator('.composer-text').fill('And the ferry?');
    await panel.locator('.composer-send').click();
    const sent = (await panel.locator('.composer-result', { hasText: /^User message \S+ sent/ }).textContent()).split(' ')[2];
    await page.waitForFunction((h) => decodeURIComponent(location.hash) === h, `#session=other&node=${sent}`);
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    await until(page, 'other', sent);
    assert.equal(await panel.locator('.preview-bar').isHidden(), true, 'the cursor\'s own path: nothing previewed');
    // Back goes to the session shown before the search (the send made no step of its own).
    await page.goBack();
    await until(page, 'demo');
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('deep links: a page opened at an address naming a session not here (trashed, or another browser\'s) says so, as an address typed later does, and shows the first session', async () => {
  const env = await setup();
  try {
    const { page, baseURL, errors } = env;
    await openExplorer(page, baseURL);
    for (const operation of ['create', 'delete']) await explorerCall(page, { operation, sessionId: 'gone' }); // made, then trashed
    for (const address of ['#session=gone', '#session=gone&node=n1', '#session=nowhere']) {
      const fresh = await env.newPage();
      await fresh.goto(`${baseURL}static/${address}`);
      await fresh.waitForSelector('body[data-ready="true"]');
      await until(fresh, 'demo');
      const id = address.slice('#session='.length).split('&')[0];
      await fresh.locator('#status.error', { hasText: `This address names a session that is not here: ${id}` }).waitFor({ timeout: 5000 });
      await fresh.close();
    }
    // A page opened at no address, or at one naming a session here, says nothing.
    for (const address of ['', '#session=demo']) {
      const fresh = await env.newPage();
      await fresh.goto(`${baseURL}static/${address}`);
      await fresh.waitForSelector('body[data-ready="true"]');
      await until(fresh, 'demo');
      await fresh.waitForTimeout(200);
      assert.equal(await fresh.locator('#status').textContent(), '', `${address || 'no address'}: the status line`);
      await fresh.close();
    }
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});
