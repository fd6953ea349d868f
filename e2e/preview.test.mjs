// Look without moving: clicking a row (or Enter) previews its path in the
// context pane and leaves the session's cursor and active branch where they
// are; the page says which path is the session's; the cursor moves only by
// "Continue from here" (toolbar, preview bar, Shift+Enter); Escape and
// "Back to the cursor" return. Screenshot: e2e/artifacts/preview.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, artifactPath, explorerCall, openExplorer } from './helpers.mjs';

const call = explorerCall;

test('selecting a row previews its path; only Continue from here moves the cursor', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1366, height: 850 } } });
  try {
    const { page, baseURL, errors } = env;
    const panel = await openExplorer(page, baseURL);
    await page.evaluate(() => {
      window.events = [];
      for (const type of ['jump', 'preview', 'select']) document.querySelector('#panel').addEventListener(type, (e) => window.events.push([type, e.detail.nodeId]));
    });
    const { rows } = await call(page, { operation: 'tree', sessionId: 'demo' });
    const byText = (t) => rows.find((r) => r.preview.startsWith(t)).id;
    const stay = byText('Stay in Baixa');
    const budgetTip = byText('About €70');
    const rainyTip = byText('Swap Sintra');
    const session = () => call(page, { operation: 'session', sessionId: 'demo' });
    const viewed = () => panel.locator('.messages .message').last().getAttribute('data-node-id');
    const before = await session();
    assert.equal(before.cursor, stay);

    // Click: the budget path shows; the session stays on main.
    await panel.locator(`.row[data-node-id="${budgetTip}"]`).click();
    await panel.locator('.preview-bar').waitFor();
    assert.equal(await viewed(), budgetTip);
    const after = await session();
    assert.deepEqual([after.cursor, after.activeBranch], [before.cursor, before.activeBranch]);
    assert.equal(await panel.locator('.row.cursor').getAttribute('data-node-id'), stay);
    assert.equal(await panel.locator('.row:has(.view-mark)').getAttribute('data-node-id'), budgetTip);
    assert.equal(await panel.locator('.row.in-view').count(), 5); // system, user, plan, budget question, budget answer
    assert.equal(await panel.locator('.row.on-path').count(), 7); // the session's path keeps its fill
    assert.equal(await panel.locator('.preview-text').textContent(), 'Previewing a path the session is not on. The session continues from the ● cursor on main.');
    assert.match(await panel.locator('.context-head .stats').textContent(), /5 nodes root → viewed node/);
    // Beside the tree, its Branch… is at hand: the bar has no "Branch here…" (a phone's context pane has).
    assert.deepEqual(await panel.locator('.preview-bar button:visible').allTextContents(), ['Continue from here', 'Back to the cursor']);
    await page.screenshot({ path: artifactPath('preview.png') });

    // Escape goes back to the session's path.
    await panel.locator('.scroller').focus();
    await page.keyboard.press('Escape');
    await panel.locator('.preview-bar').waitFor({ state: 'hidden' });
    assert.equal(await viewed(), stay);


    // Keyboard: Enter previews the highlighted row, Shift+Enter continues from it.
    await panel.evaluate((p, id) => p.focusNode(id), rainyTip);
    await page.keyboard.press('Enter');
    await panel.locator('.preview-bar').waitFor();
    assert.equal(await viewed(), rainyTip);
    assert.equal((await session()).cursor, stay);
    await page.keyboard.press('Shift+Enter');
    await panel.locator(`.row.cursor[data-node-id="${rainyTip}"]`).waitFor();
    assert.deepEqual([(await session()).cursor, (await session()).activeBranch], [rainyTip, 'rainy-day']);
    assert.equal(await panel.locator('.preview-bar').isHidden(), true);
    assert.equal(await viewed(), rainyTip);

    // The preview bar's Continue from here, reached by keyboard.
    await panel.locator(`.row[data-node-id="${budgetTip}"]`).click();
    await panel.locator('.preview-bar').waitFor();
    await panel.locator('.preview-continue').focus();
    await page.keyboard.press('Enter');
    await panel.locator(`.row.cursor[data-node-id="${budgetTip}"]`).waitFor();
    assert.equal((await session()).cursor, budgetTip);
    // The toolbar's button does the same; Back to the cursor undoes a preview.
    await panel.locator(`.row[data-node-id="${stay}"]`).click();
    await panel.locator('.preview-bar').waitFor();
    await panel.locator('.preview-back').click();
    await panel.locator('.preview-bar').waitFor({ state: 'hidden' });
    assert.equal(await viewed(), budgetTip);
    await panel.locator(`.row[data-node-id="${stay}"]`).click();
    assert.equal(await panel.locator('.act-jump').textContent(), 'Continue from here');
    await panel.locator('.act-jump').click();
    await panel.locator(`.row.cursor[data-node-id="${stay}"]`).waitFor();
    assert.equal((await session()).cursor, stay);

    // The panel tells `jump` once it has drawn the moved cursor (panel-actions.js jump).
    await page.waitForFunction(() => window.events.filter(([t]) => t === 'jump').length === 3);
    const events = await page.evaluate(() => window.events.filter(([t]) => t !== 'select'));
    assert.deepEqual(events, [
      ['preview', budgetTip],
      ['preview', stay],
      ['preview', rainyTip],
      ['jump', rainyTip],
      ['preview', budgetTip],
      ['jump', budgetTip],
      ['preview', stay],
      ['preview', budgetTip],
      ['preview', stay],
      ['jump', stay],
    ]);

    // An earlier node of the session's own path: the bar says it is on that path.
    const plan = byText('Three days is a good length');
    assert.equal(await panel.locator(`.row.on-path[data-node-id="${plan}"]`).count(), 1, 'the plan is an ancestor of the cursor');
    await panel.locator(`.row[data-node-id="${plan}"]`).click();
    await panel.locator('.preview-bar').waitFor();
    assert.equal(await viewed(), plan);
    assert.equal(await panel.locator('.preview-text').textContent(), "Previewing an earlier point of the session's path. The session continues from the ● cursor on main.");
    await panel.locator('.scroller').focus();
    await page.keyboard.press('Escape');
    await panel.locator('.preview-bar').waitFor({ state: 'hidden' });
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('hiding the previewed row: the preview passes to the row then selected (its parent), and no count holds the hidden node', async () => {
  for (const [width, height] of [[1280, 800], [390, 844]]) {
    const env = await setup({ contextOptions: { viewport: { width, height } } });
    try {
      const { page, baseURL, errors } = env;
      const panel = await openExplorer(page, baseURL);
      const phone = width < 700;
      const { rows } = await call(page, { operation: 'tree', sessionId: 'demo' });
      const byText = (t) => rows.find((r) => r.preview.startsWith(t)).id;
      const saturday = byText('Go on Saturday');
      const ask = byText('Sintra sounds rushed');
      const train = byText('Take the 9:10');
      const viewed = () => panel.locator('.messages .message').last().getAttribute('data-node-id');
      const message = (id) => panel.locator(`.messages .message[data-node-id="${id}"]`);

      await panel.locator(`.row[data-node-id="${saturday}"]`).click();
      await message(saturday).waitFor();
      assert.equal(await message(saturday).locator('.sib-pos').textContent(), '2 / 2');
      if (phone) await page.locator('#tab-tree').click();
      const hide = panel.locator('.act-hide');
      if (!(await hide.isVisible())) await panel.locator('.act-more').click();
      await hide.click();
      await panel.locator(`.row.hidden-gap[data-gap="${saturday}"]`).waitFor();
      assert.equal(await panel.locator('.row.active').getAttribute('data-node-id'), ask, 'the highlight is on the parent');
      if (phone) await page.locator('#tab-context').click();
      await message(saturday).waitFor({ state: 'detached', timeout: 10_000 });
      assert.equal(await viewed(), ask, 'the context pane previews the parent\'s path');
      assert.equal(await panel.locator('.row:has(.view-mark)').getAttribute('data-node-id'), ask);
      assert.equal(await panel.locator('.preview-text').textContent(), "Previewing an earlier point of the session's path. The session continues from the ● cursor on main.");
      await page.screenshot({ path: artifactPath(`preview-hidden-${width}x${height}.png`) });
      // Back on the session's path, the hidden answer is no version of the kept one.
      await panel.locator('.preview-back').click();
      await panel.locator('.preview-bar').waitFor({ state: 'hidden' });
      await message(train).waitFor();
      assert.equal(await message(train).locator('.siblings').count(), 0);
      assert.deepEqual(errors, []);
    } finally {
      await env.close();
    }
  }
});
