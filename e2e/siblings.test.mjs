// Sibling arrows in the context pane ("‹ 2 / 3 ›" under a message with
// siblings, as in ChatGPT): stepping shows the sibling's newest path (its
// preferred children, else the last appended) without moving the session's
// cursor, by mouse and by keyboard, a folded row tells how many
// children it hides, and a hidden version is neither counted nor stepped to.
// Screenshot: e2e/artifacts/siblings.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, artifactPath, explorerCall, openExplorer } from './helpers.mjs';

const call = explorerCall;

test('sibling arrows show the newest path of each version, by click and by keyboard, and leave the cursor', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1366, height: 850 } } });
  try {
    const { page, baseURL, errors } = env;
    const panel = await openExplorer(page, baseURL);
    const { rows } = await call(page, { operation: 'tree', sessionId: 'demo' });
    const byText = (t) => rows.find((r) => r.preview.startsWith(t)).id;
    const ask = byText('Sintra sounds rushed');
    const budgetAsk = byText('What would this cost');
    const budgetTip = byText('About €70');
    const rainyTip = byText('Swap Sintra');
    const saturday = byText('Go on Saturday');
    const train = byText('Take the 9:10');
    const stay = byText('Stay in Baixa');
    const cursor = async () => (await call(page, { operation: 'session', sessionId: 'demo' })).cursor;
    /** The node at the end of the path the context pane shows. */
    const viewed = () => panel.locator('.messages .message').last().getAttribute('data-node-id');
    const message = (id) => panel.locator(`.messages .message[data-node-id="${id}"]`);
    const arrows = async (id) => {
      const m = message(id);
      return [await m.locator('.sib-pos').textContent(), await m.locator('.sib-prev').isDisabled(), await m.locator('.sib-next').isDisabled()];
    };
    const focused = () => panel.evaluate((p) => {
      const a = p.shadowRoot.activeElement;
      return a ? `${a.closest('.message')?.dataset.nodeId}:${a.className}` : null;
    });

    // On main: the question has 3 versions (main, budget, rainy-day summary), its answer 2.
    await message(ask).waitFor();
    assert.deepEqual(await arrows(ask), ['1 / 3', true, false]);
    assert.deepEqual(await arrows(train), ['1 / 2', true, false]);
    assert.equal(await message(stay).locator('.siblings').count(), 0);
    assert.equal(await message(ask).locator('.sib-next').getAttribute('aria-label'), 'Next version (2 of 3)');
    // At the first version, the disabled ‹ names no version (it said "0 of 3").
    assert.equal(await message(ask).locator('.sib-prev').getAttribute('aria-label'), 'Previous version (none before)');
    await page.screenshot({ path: artifactPath('siblings.png') });

    // Click ›: the budget branch, to its tip.
    await message(ask).locator('.sib-next').click();
    await message(budgetTip).waitFor();
    assert.equal(await viewed(), budgetTip);
    assert.equal(await cursor(), stay);
    assert.deepEqual(await arrows(budgetAsk), ['2 / 3', false, false]);
    assert.equal(await panel.locator('.row.cursor').getAttribute('data-node-id'), stay);
    assert.equal(await panel.locator('.row:has(.view-mark)').getAttribute('data-node-id'), budgetTip);
    assert.equal(await focused(), `${budgetAsk}:sib-next`);
    // Keyboard: Enter on the focused › goes on to the rainy-day summary's path;
    // at the last version the focus moves to ‹.
    await page.keyboard.press('Enter');
    await message(rainyTip).waitFor();
    assert.equal(await viewed(), rainyTip);
    const summary = rows.find((r) => r.kind === 'summary').id;
    assert.deepEqual(await arrows(summary), ['3 / 3', false, true]);
    assert.equal(await focused(), `${summary}:sib-prev`);
    await page.keyboard.press('Enter');
    await message(budgetTip).waitFor();
    assert.equal(await viewed(), budgetTip);
    // Back to the first version (the focus stayed on ‹): its newest path is
    // the last appended answer (main-2)…
    assert.equal(await focused(), `${budgetAsk}:sib-prev`);
    await page.keyboard.press('Space');
    await message(saturday).waitFor();
    assert.equal(await viewed(), saturday);
    assert.deepEqual(await arrows(saturday), ['2 / 2', false, true]);
    // …unless a path is preferred: then stepping follows it.
    await call(page, { operation: 'prefer', sessionId: 'demo', nodeId: stay });
    await panel.locator(`.row.preferred[data-node-id="${stay}"]`).waitFor();
    await message(ask).locator('.sib-next').click();
    await message(budgetTip).waitFor();
    await message(budgetAsk).locator('.sib-prev').click();
    await message(stay).waitFor();
    assert.equal(await viewed(), stay);
    assert.equal(await panel.locator('.preview-bar').isHidden(), true); // back on the session's path
    assert.deepEqual(await arrows(train), ['1 / 2', true, false]);
    assert.equal(await cursor(), stay);

    // A folded row says how many children it hides.
    const plan = byText('Three days');
    await panel.locator(`.row[data-node-id="${plan}"] [data-twist]`).click();
    assert.equal(await panel.locator(`.row[data-node-id="${plan}"] .folded-count`).textContent(), '3 children folded');

    // A hidden version is left out of the count and passed over, as the tree leaves it out.
    await call(page, { operation: 'hide', sessionId: 'demo', nodeId: budgetAsk });
    await page.waitForFunction((id) => !document.querySelector('#panel').shadowRoot.querySelector(`.row[data-node-id="${id}"]`), budgetAsk);
    // The context pane is drawn again after the rows: wait for its count, then read it whole.
    await message(ask).locator('.sib-pos', { hasText: '1 / 2' }).waitFor({ timeout: 10_000 });
    assert.deepEqual(await arrows(ask), ['1 / 2', true, false]);
    await message(ask).locator('.sib-next').click();
    await message(rainyTip).waitFor();
    await message(summary).locator('.sib-pos', { hasText: '2 / 2' }).waitFor({ timeout: 10_000 });
    assert.deepEqual(await arrows(summary), ['2 / 2', false, true]);
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});
