// A session's actions in the explorer (static/session-actions.js): a
// row's "⋯" menu renames the session (core's rename: a reload and another
// tab show the new title) and moves it to the trash (Undo brings it back,
// selected); the Trash dialog restores one and erases one for good after
// a confirmation; all by keyboard, at desktop and phone sizes, and the
// menu stays on screen. Screenshots: e2e/artifacts/session-actions-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openExplorer, explorerCall as call, artifactPath } from './helpers.mjs';

/** The titles of the session list's rows, top to bottom. */
const rowTitles = (page) => page.locator('#session-list .session-title').allTextContents();

/** Wait until the session list shows exactly these titles (in any order). */
async function listShows(page, titles) {
  await page.waitForFunction((want) => {
    const got = [...document.querySelectorAll('#session-list .session-title')].map((e) => e.textContent).sort();
    return JSON.stringify(got) === JSON.stringify([...want].sort());
  }, titles);
}

test('session actions: rename by keyboard (kept across a reload and seen by another tab), move to trash with Undo, restore and erase from the Trash dialog', async () => {
  for (const [width, height, scheme] of [[1280, 800, 'light'], [390, 844, 'dark']]) {
    const env = await setup({ contextOptions: { viewport: { width, height }, colorScheme: scheme } });
    try {
      const { page, baseURL, errors } = env;
      await openExplorer(page, baseURL);
      const phone = width < 700;
      if (phone) await page.locator('#tab-sessions').click();
      await call(page, { operation: 'create', sessionId: 'second', title: 'Second chat' });
      await call(page, { operation: 'append', sessionId: 'second', message: { role: 'user', content: 'hello' } });
      await listShows(page, ['Demo: a long weekend in Lisbon', 'Second chat']);
      assert.equal(await page.locator('#trash-button').isHidden(), true, 'no Trash link while the trash is empty');

      // Rename "Second chat" by keyboard: focus its ⋯ button, Enter opens the menu on its first item.
      const more = page.locator('.session[data-session-id="second"] .session-more');
      assert.equal(await more.getAttribute('aria-label'), 'Actions for “\u2068Second chat\u2069”');
      await more.focus();
      await page.keyboard.press('Enter');
      const menu = page.locator('#session-menu[role="menu"][aria-label="Session actions"]');
      await menu.waitFor();
      assert.equal(await more.getAttribute('aria-expanded'), 'true');
      assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Rename…');
      const box = await menu.evaluate((m) => { const r = m.getBoundingClientRect(); return { x: r.x, width: r.width }; });
      assert.ok(box.x >= 0 && box.x + box.width <= width, `the menu is on screen (${box.x}…${box.x + box.width} of ${width})`);
      await page.screenshot({ path: artifactPath(`session-actions-menu-${width}-${scheme}.png`) });
      await page.keyboard.press('Enter');
      const dialog = page.locator('#rename-dialog[aria-labelledby="rename-title"]');
      await dialog.waitFor();
      assert.equal(await page.locator('#rename-input').evaluate((i) => i.value), 'Second chat');
      await page.keyboard.type('Trip to Porto'); // the title is selected: typing replaces it
      await page.keyboard.press('Enter');
      await dialog.waitFor({ state: 'hidden' });
      await listShows(page, ['Demo: a long weekend in Lisbon', 'Trip to Porto']);
      const renamed = (await call(page, { operation: 'sessions' })).find((s) => s.sessionId === 'second');
      assert.equal(renamed.title, 'Trip to Porto', 'the title is core\'s (rename), not the page\'s');
      // Another tab of the same origin sees it, and so does this tab after a reload.
      const other = await env.context.newPage();
      await openExplorer(other, baseURL);
      await listShows(other, ['Demo: a long weekend in Lisbon', 'Trip to Porto']);
      await other.close();

      // Escape closes the menu and gives focus back to its button.
      await more.focus();
      await page.keyboard.press('Enter');
      await menu.waitFor();
      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'hidden' });
      assert.equal(await page.evaluate(() => document.activeElement.classList.contains('session-more')), true);
      // ArrowUp on the button opens the menu at its last item, as a menu button does.
      await page.keyboard.press('ArrowUp');
      await menu.waitFor();
      assert.equal(await page.evaluate(() => document.activeElement.dataset.action), 'delete');
      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'hidden' });

      // Move the selected session (the demo) to the trash: its neighbour is selected, Undo brings it back.
      await page.locator('.session[data-session-id="demo"] .session-button').click();
      if (phone) await page.locator('#tab-sessions').click();
      await page.locator('.session[data-session-id="demo"] .session-more').click();
      await page.locator('#session-menu [role="menuitem"][data-action="delete"]').click();
      await page.locator('#undo-text', { hasText: 'Moved “\u2068Demo: a long weekend in Lisbon\u2069” to the trash' }).waitFor();
      assert.equal(await page.evaluate(() => document.activeElement.id), 'undo-button', 'focus goes to Undo, not to the page');
      await listShows(page, ['Trip to Porto']);
      await page.waitForFunction(() => window.explorer.state.selected === 'second');
      assert.equal(await page.locator('#trash-button').textContent(), 'Trash (1)');
      if (!phone) {
        // Beside the panel, the bar sits over the foot of the session list, not over the panel's buttons.
        const [bar, list] = await Promise.all(['#undo-bar', '#sessions-pane'].map((sel) => page.locator(sel).evaluate((e) => e.getBoundingClientRect().toJSON())));
        assert.ok(bar.left >= list.left && bar.right <= list.right, `the Undo bar (${bar.left}…${bar.right}) is within the session list (${list.left}…${list.right})`);
      }
      await page.screenshot({ path: artifactPath(`session-actions-undo-${width}-${scheme}.png`) });
      // Under a modal dialog (the Trash) the bar cannot be used: it is out of sight until the dialog closes.
      const barShown = () => page.locator('#undo-bar').evaluate((b) => getComputedStyle(b).visibility === 'visible');
      assert.equal(await barShown(), true);
      await page.locator('#trash-button').click();
      await page.locator('#trash-dialog').waitFor();
      assert.equal(await barShown(), false, 'the Undo bar is not shown under the dialog');
      await page.screenshot({ path: artifactPath(`session-actions-undo-under-trash-${width}-${scheme}.png`) });
      await page.keyboard.press('Escape');
      await page.locator('#trash-dialog').waitFor({ state: 'hidden' });
      assert.equal(await barShown(), true);
      if (phone) await page.locator('#undo-button').click();
      else await page.keyboard.press('Control+z'); // outside a text field, Ctrl+Z is the bar's Undo
      await listShows(page, ['Demo: a long weekend in Lisbon', 'Trip to Porto']);
      await page.waitForFunction(() => window.explorer.state.selected === 'demo');
      await page.locator('#trash-button').waitFor({ state: 'hidden' });

      // Trash dialog: both sessions in the trash, restore one, erase the other after the confirmation.
      await call(page, { operation: 'delete', sessionId: 'second' });
      await call(page, { operation: 'delete', sessionId: 'demo' });
      await page.locator('#trash-button', { hasText: 'Trash (2)' }).waitFor();
      await listShows(page, []);
      await page.locator('#trash-button').click();
      const trash = page.locator('#trash-dialog');
      await trash.waitFor();
      await page.waitForFunction(() => document.querySelectorAll('#trash-list li').length === 2);
      const names = await page.locator('#trash-list .restore-point-name').allTextContents();
      assert.deepEqual(names, ['Demo: a long weekend in Lisbon', 'Trip to Porto'], 'newest deletion first');
      assert.match(await page.locator('#trash-list .restore-point-meta').first().textContent(), /^13 nodes · deleted \d\d:\d\d$/);
      await page.screenshot({ path: artifactPath(`session-actions-trash-${width}-${scheme}.png`) });
      // Every title shows whole, on a phone too (its buttons go under it there).
      assert.deepEqual(await page.locator('#trash-list .restore-point-name').evaluateAll((ns) => ns.filter((n) => n.scrollWidth > n.clientWidth + 1).map((n) => n.textContent)), []);
      assert.deepEqual(await page.locator('#trash-list li:nth-child(2) button').allTextContents(), ['Restore', 'Erase…']);
      assert.deepEqual(await page.locator('#trash-list li:nth-child(2) button').evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label'))), ['Restore “\u2068Trip to Porto\u2069”', 'Erase “\u2068Trip to Porto\u2069”…'], 'each row\'s buttons name its session');
      await page.locator('#trash-list li:nth-child(2) button:first-child').click(); // Trip to Porto's Restore
      await page.locator('#trash-message', { hasText: 'Restored “\u2068Trip to Porto\u2069”' }).waitFor();
      await listShows(page, ['Trip to Porto']);
      assert.equal(await page.locator('#trash-list li:first-child .restore-point-name').textContent(), 'Demo: a long weekend in Lisbon');
      await page.locator('#trash-list li:first-child button.danger').click(); // the demo's Erase…
      const confirm = page.locator('#erase-confirm[role="alertdialog"]');
      await confirm.waitFor();
      assert.equal(await page.locator('#erase-confirm-text').textContent(), 'Erase “\u2068Demo: a long weekend in Lisbon\u2069” for good? This cannot be undone.');
      await page.locator('#erase-confirm button[value="erase"]').click();
      await page.locator('#trash-message', { hasText: 'Erased “\u2068Demo: a long weekend in Lisbon\u2069”' }).waitFor();
      await page.locator('#trash-empty-note').waitFor({ state: 'visible' });
      assert.deepEqual(await call(page, { operation: 'trash.list' }), []);
      await page.keyboard.press('Escape');
      await trash.waitFor({ state: 'hidden' });
      await page.locator('#trash-button').waitFor({ state: 'hidden' });
      // Trash, which opened the dialog, is gone: focus goes to a session's row, not to the page's body
      // (the page moves it a task after the dialog closes, from the body or the closed dialog's ×).
      await page.waitForFunction(() => document.activeElement !== document.body && !document.getElementById('trash-dialog').contains(document.activeElement));
      assert.deepEqual(await page.evaluate(() => [document.activeElement.className, document.activeElement.closest('.session')?.dataset.sessionId ?? document.activeElement.id]), ['session-more', 'second']);

      // After a reload: the erased session stays gone (the demo is not made again while a session is stored), the renamed one keeps its title.
      await page.reload();
      await page.waitForSelector('body[data-ready="true"]');
      assert.deepEqual(await rowTitles(page), ['Trip to Porto']);
      assert.deepEqual(errors, []);
    } finally {
      await env.close();
    }
  }
});

test('session actions: a rename core refuses keeps the dialog open with the reason, and the title unchanged', async () => {
  const env = await setup();
  try {
    const { page, baseURL, errors } = env;
    await openExplorer(page, baseURL);
    await page.locator('.session[data-session-id="demo"] .session-more').click();
    await page.locator('#session-menu [data-action="rename"]').click();
    await page.locator('#rename-input').fill('   ');
    await page.keyboard.press('Enter');
    await page.locator('#rename-message.error', { hasText: 'Type a title: spaces alone are none' }).waitFor();
    await page.locator('#rename-input').fill('Lisbon\u0007trip'); // a control character: core refuses the title
    await page.keyboard.press('Enter'); // in the field, which has focus
    await page.locator('#rename-message.error', { hasText: 'Cannot rename:' }).waitFor();
    assert.equal(await page.locator('#rename-dialog').isVisible(), true);
    assert.match(await page.locator('#rename-message').textContent(), /title/);
    assert.equal((await call(page, { operation: 'session', sessionId: 'demo' })).title, 'Demo: a long weekend in Lisbon');
    // Moved to the trash (as another tab would) while its rename dialog is open: the dialog closes and says why.
    await call(page, { operation: 'delete', sessionId: 'demo' });
    await page.locator('#rename-input').fill('Lisbon trip');
    await page.keyboard.press('Enter');
    await page.locator('#status', { hasText: 'Cannot rename “\u2068Demo: a long weekend in Lisbon\u2069”: it is no longer in the list (moved to the trash or erased, perhaps in another tab)' }).waitFor();
    assert.equal(await page.locator('#rename-dialog').isVisible(), false);
    assert.equal((await call(page, { operation: 'trash.list' }))[0].title, 'Demo: a long weekend in Lisbon', 'nothing was renamed');
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('session actions: a rename left as it was filled renames nothing, a title with spaces around it included', async () => {
  const env = await setup();
  try {
    const { page, baseURL, errors } = env;
    await openExplorer(page, baseURL);
    await call(page, { operation: 'create', sessionId: 'spaced', title: '  spaced  ' });
    const row = page.locator('.session[data-session-id="spaced"]');
    await row.waitFor();
    await row.locator('.session-more').click();
    await page.locator('#session-menu [data-action="rename"]').click();
    assert.equal(await page.locator('#rename-input').inputValue(), '  spaced  ');
    await page.keyboard.press('Enter');
    await page.locator('#rename-dialog').waitFor({ state: 'hidden' });
    // Either way the rename ends with focus on the row's "⋯" (after the call, had there been one).
    await page.waitForFunction(() => document.activeElement?.closest('.session')?.dataset.sessionId === 'spaced');
    const session = await call(page, { operation: 'session', sessionId: 'spaced' });
    assert.equal(session.title, '  spaced  ', 'the stored title is as it was');
    const nodes = await call(page, { operation: 'list', sessionId: 'spaced' });
    assert.equal(nodes.length, 0, 'no title record was appended');
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('session actions: the menu closes when the list scrolls (it would act on a row scrolled away); the demo alone in the trash, or erased, is not made again on reload', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1280, height: 800 } } });
  try {
    const { page, baseURL, errors } = env;
    await openExplorer(page, baseURL);
    for (let i = 0; i < 30; i++) await call(page, { operation: 'create', sessionId: `s${i}`, title: `Chat ${i}` });
    await page.locator('.session[data-session-id="s25"]').waitFor();
    await page.locator('.session[data-session-id="s25"] .session-more').click();
    await page.locator('#session-menu').waitFor();
    // The list made again (a session made elsewhere goes on top) keeps the menu open, under its row's new button.
    await call(page, { operation: 'create', sessionId: 'elsewhere', title: 'Made elsewhere' });
    await page.locator('#session-count', { hasText: '32' }).waitFor();
    await page.evaluate(() => window.explorer.refresh());
    assert.equal(await page.locator('#session-menu').isVisible(), true, 'the menu stays open');
    assert.equal(await page.locator('.session[data-session-id="s25"] .session-more').getAttribute('aria-expanded'), 'true');
    // Measured once the rows are laid out: for two frames after they are made the menu follows its row
    // (SessionActions.rowsMade); under load the row could still move after refresh() answered.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(r)))));
    const gap = await page.evaluate(() => document.getElementById('session-menu').getBoundingClientRect().top - document.querySelector('.session[data-session-id="s25"] .session-more').getBoundingClientRect().bottom);
    assert.ok(Math.abs(gap - 4) < 1, `the menu is 4 px under the row's button: ${gap}`);
    // A person's scroll comes later than those two frames.
    await page.locator('#session-list').evaluate((l) => l.scrollBy(0, 300));
    await page.locator('#session-menu').waitFor({ state: 'hidden' });
    assert.equal(await page.locator('.session[data-session-id="s25"] .session-more').getAttribute('aria-expanded'), 'false');

    // Every session but the demo erased, the demo in the trash: a reload lists nothing and makes no demo.
    await call(page, { operation: 'delete', sessionId: 'demo' });
    for (const id of [...Array.from({ length: 30 }, (_, i) => `s${i}`), 'elsewhere']) await call(page, { operation: 'delete', sessionId: id, permanent: true });
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    assert.deepEqual(await call(page, { operation: 'sessions' }), []);
    assert.equal(await page.locator('#trash-button').textContent(), 'Trash (1)');
    assert.equal(await page.locator('#status').isHidden(), true, 'no error at start-up');
    // The demo erased for good too: the store is empty, and the demo, made once, is not made again.
    await call(page, { operation: 'trash.empty', sessionId: 'demo' });
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    assert.deepEqual(await call(page, { operation: 'sessions' }), []);
    assert.equal(await page.locator('#trash-button').isHidden(), true, 'an empty trash');
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('session actions: moving the only session, open, to the trash leaves an empty panel: no error, its actions off, no rows on the minimap, the address naming nothing', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1280, height: 800 } } });
  try {
    const { page, baseURL, errors } = env;
    await openExplorer(page, baseURL);
    const panel = page.locator('#panel');
    await panel.locator('.row').first().waitFor();
    assert.equal(await page.evaluate(() => location.hash), '#session=demo');
    await page.locator('.session[data-session-id="demo"] .session-more').click();
    await page.locator('#session-menu [data-action="delete"]').click();
    await page.locator('#undo-text', { hasText: 'Moved “\u2068Demo: a long weekend in Lisbon\u2069” to the trash' }).waitFor();
    await page.waitForFunction(() => document.getElementById('panel').getAttribute('session-id') === null);
    await panel.locator('h2.title', { hasText: 'No session' }).waitFor();
    await page.waitForFunction(() => document.getElementById('panel').shadowRoot.querySelectorAll('.row').length === 0);
    // A frame for the minimap to draw in.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const state = await page.evaluate(() => {
      const root = document.getElementById('panel').shadowRoot;
      const canvas = root.querySelector('canvas.minimap');
      const px = canvas ? canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data : [];
      return {
        enabled: [...root.querySelectorAll('.actions .action:not(.act-more)')].filter((b) => !b.disabled).map((b) => b.textContent),
        status: root.querySelector('.status')?.textContent ?? '',
        painted: px.some((v, i) => i % 4 === 3 && v !== 0),
        hash: location.hash,
      };
    });
    assert.deepEqual(state, { enabled: [], status: '', painted: false, hash: '' });
    // A reload opens nothing, and says nothing is missing.
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    await panel.locator('h2.title', { hasText: 'No session' }).waitFor();
    assert.equal(await page.locator('#status').isHidden(), true);
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('session actions: the Undo bar goes once its session left the trash another way (restored from the Trash dialog): no stale Undo that fails', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1280, height: 800 } } });
  try {
    const { page, baseURL, errors } = env;
    await openExplorer(page, baseURL);
    await call(page, { operation: 'create', sessionId: 'second', title: 'Second chat' });
    await listShows(page, ['Demo: a long weekend in Lisbon', 'Second chat']);
    await page.locator('.session[data-session-id="second"] .session-more').click();
    await page.locator('#session-menu [data-action="delete"]').click();
    await page.locator('#undo-text', { hasText: 'Moved “\u2068Second chat\u2069” to the trash' }).waitFor();
    await page.locator('#trash-button').click();
    await page.locator('#trash-list li button', { hasText: 'Restore' }).click();
    await page.locator('#trash-message', { hasText: 'Restored “\u2068Second chat\u2069”' }).waitFor();
    // Within its 10 s: the bar goes because the session left the trash.
    assert.equal(await page.evaluate(() => document.getElementById('undo-button').hidden), true);
    await page.keyboard.press('Escape');
    await page.locator('#trash-dialog').waitFor({ state: 'hidden' });
    await listShows(page, ['Demo: a long weekend in Lisbon', 'Second chat']);
    // Ctrl+Z finds no Undo to run: no error in the status line.
    await page.keyboard.press('Control+z');
    await page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
    assert.equal(await page.locator('#status').isHidden() || (await page.locator('#status').textContent()) === '', true);
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

/**
 * Where each word sits on screen in the element's text (its first text
 * node), as a number that grows in reading order: its line (top, px) first,
 * then its left edge; the order the reader sees, not the order stored.
 */
function wordsLeft(page, selector, words) {
  return page.locator(selector).evaluate((e, ws) => ws.map((w) => {
    const t = e.firstChild;
    const r = document.createRange();
    const at = t.data.indexOf(w);
    r.setStart(t, at);
    r.setEnd(t, at + w.length);
    const box = r.getBoundingClientRect();
    return Math.round(box.top) * 100000 + box.left;
  }), words);
}

test('session actions: a title holding a right-to-left override (U+202E) cannot turn the page\'s own words around it backwards: the Undo bar and the Erase confirmation read left to right', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1366, height: 800 } } });
  try {
    const { page, baseURL, errors } = env;
    await openExplorer(page, baseURL);
    // Stored as given (core keeps titles losslessly; an import's title may hold it too).
    await call(page, { operation: 'create', sessionId: 'rlo', title: '\u202Eabc def' });
    await listShows(page, ['Demo: a long weekend in Lisbon', '\u202Eabc def']);
    assert.equal((await call(page, { operation: 'sessions' })).find((s) => s.sessionId === 'rlo').title, '\u202Eabc def');
    await page.locator('.session[data-session-id="rlo"] .session-more').click();
    await page.locator('#session-menu [data-action="delete"]').click();
    await page.locator('#undo-text', { hasText: 'to the trash' }).waitFor();
    const [moved, to, the, trash] = await wordsLeft(page, '#undo-text', ['Moved', 'to', 'the', 'trash']);
    assert.ok(moved < to && to < the && the < trash, `"Moved … to the trash" reads left to right (x ${moved}, ${to}, ${the}, ${trash})`);
    await page.screenshot({ path: artifactPath('session-actions-bidi-undo-1366.png') });
    await page.locator('#trash-button').click();
    await page.locator('#trash-list li button.danger').click();
    await page.locator('#erase-confirm').waitFor();
    const [erase, forGood, cannot, undone] = await wordsLeft(page, '#erase-confirm-text', ['Erase', 'for good', 'cannot', 'undone']);
    assert.ok(erase < forGood && forGood < cannot && cannot < undone, `"Erase … for good? This cannot be undone." reads left to right (x ${erase}, ${forGood}, ${cannot}, ${undone})`);
    await page.screenshot({ path: artifactPath('session-actions-bidi-erase-1366.png') });
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('session actions: the Undo bar waits while it holds focus or the pointer (WCAG 2.2.1), and goes 10 s after they leave', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1366, height: 850 } } });
  try {
    const { page, baseURL, errors } = env;
    await page.clock.install();
    await openExplorer(page, baseURL);
    await call(page, { operation: 'create', sessionId: 'second', title: 'Second chat' });
    await call(page, { operation: 'append', sessionId: 'second', message: { role: 'user', content: 'hello' } });
    await page.locator('.session[data-session-id="second"] .session-more').click();
    await page.locator('#session-menu [role="menuitem"][data-action="delete"]').click();
    await page.locator('#undo-text', { hasText: 'Moved “\u2068Second chat\u2069” to the trash' }).waitFor();
    assert.equal(await page.evaluate(() => document.activeElement.id), 'undo-button');
    const hidden = () => page.evaluate(() => document.getElementById('undo-button').hidden);
    await page.clock.runFor(30_000);
    assert.equal(await hidden(), false, 'focused, the bar stays past its 10 s');
    // Focus leaves: 10 s from then.
    await page.locator('#session-filter').focus();
    await page.clock.runFor(9_000);
    assert.equal(await hidden(), false, '9 s after focus left');
    // The pointer over it: it waits again.
    await page.locator('#undo-bar').hover();
    await page.clock.runFor(30_000);
    assert.equal(await hidden(), false, 'under the pointer, the bar stays');
    await page.mouse.move(5, 5);
    await page.clock.runFor(11_000);
    assert.equal(await hidden(), true, '10 s after the pointer left, it goes');
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

/**
 * Whether the element sel names is in Chromium's accessibility tree (not
 * ignored: display none or hidden took it out), read over CDP.
 */
async function inAccessibilityTree(page, sel) {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: sel });
    if (!nodeId) return false;
    const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
    return nodes.length > 0 && !nodes[0].ignored;
  } finally {
    await cdp.detach();
  }
}

/**
 * Record, at each frame from now until the first with text, whether the
 * live region sel names is rendered (not display none, not in a hidden
 * subtree) and its text: read with framesOf.
 */
async function watchFrames(page, sel) {
  await page.evaluate((sel) => {
    const frames = (window.__frames ??= {})[sel] = [];
    const sample = () => {
      const e = document.querySelector(sel);
      frames.push({ shown: e.checkVisibility({ visibilityProperty: true }), text: e.textContent });
      if (e.textContent === '') requestAnimationFrame(sample); // until its first frame with text
    };
    requestAnimationFrame(sample);
  }, sel);
}

/** The frames watchFrames recorded for sel, up to the first with text: it and the one before. */
async function framesOf(page, sel) {
  // The text may be set in a frame's callbacks after the sample's: it is seen at the next frame.
  await page.waitForFunction((sel) => window.__frames[sel].some((f) => f.text !== ''), sel);
  const frames = await page.evaluate((sel) => window.__frames[sel], sel);
  const at = frames.findIndex((f) => f.text !== '');
  return at < 1 ? frames.slice(0, 2) : frames.slice(at - 1, at + 1);
}

test('the status line and the Undo bar are live regions always in the page: their text comes after they are there, so it is announced', async (t) => {
  if (process.env.SESSIONTREE_BROWSER === 'firefox') return t.skip('reads Chromium\'s accessibility tree over CDP');
  for (const [width, height, scheme] of [[1280, 800, 'light'], [390, 844, 'dark']]) {
    const env = await setup({ contextOptions: { viewport: { width, height }, colorScheme: scheme } });
    try {
      const { page, baseURL, errors } = env;
      await openExplorer(page, baseURL);
      await call(page, { operation: 'create', sessionId: 'second', title: 'Second chat' });
      await listShows(page, ['Demo: a long weekend in Lisbon', 'Second chat']);
      if (width < 700) await page.locator('#tab-sessions').click();

      // The Undo bar: its live region is there, empty, before a session is moved to the trash.
      assert.equal(await page.locator('#undo-text').getAttribute('role'), 'status');
      assert.equal(await page.locator('#undo-text').textContent(), '');
      assert.equal(await inAccessibilityTree(page, '#undo-text'), true, 'the Undo bar\'s live region is in the accessibility tree before it speaks');
      assert.equal(await page.locator('#undo-bar').isHidden(), true, 'with nothing to undo it takes no room');
      await watchFrames(page, '#undo-text');
      await page.locator('.session[data-session-id="second"] .session-more').click();
      await page.locator('#session-menu [role="menuitem"][data-action="delete"]').click();
      await page.locator('#undo-text', { hasText: 'Moved “\u2068Second chat\u2069” to the trash' }).waitFor();
      assert.deepEqual(await framesOf(page, '#undo-text'), [{ shown: true, text: '' }, { shown: true, text: 'Moved “\u2068Second chat\u2069” to the trash' }], 'the text came a frame after the region was drawn');
      await page.screenshot({ path: artifactPath(`live-regions-undo-${width}-${scheme}.png`) });
      await page.locator('#undo-button').click();
      await page.locator('#undo-bar').waitFor({ state: 'hidden' });
      assert.equal(await inAccessibilityTree(page, '#undo-text'), true, 'put away, the region stays');

      // The status line: there, empty, before an export says what it did.
      if (width < 700) await page.locator('#tab-tree').click();
      assert.equal(await page.locator('#status').getAttribute('role'), 'status');
      assert.equal(await page.locator('#status').textContent(), '');
      assert.equal(await inAccessibilityTree(page, '#status'), true, 'the status line is in the accessibility tree before it speaks');
      await watchFrames(page, '#status');
      await Promise.all([page.waitForEvent('download'), page.locator('#export-button').click().then(() => page.locator('#export-list [data-format="snapshot"]').click())]);
      const said = `Exported a snapshot of the whole session as \u2068${await page.evaluate(() => window.explorer.state.selected)}.snapshot.json\u2069`;
      await page.locator('#status', { hasText: said }).waitFor();
      assert.deepEqual(await framesOf(page, '#status'), [{ shown: true, text: '' }, { shown: true, text: said }]);
      await page.screenshot({ path: artifactPath(`live-regions-status-${width}-${scheme}.png`) });
      assert.deepEqual(errors, []);
    } finally {
      await env.close();
    }
  }
});
