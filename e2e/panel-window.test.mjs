// <session-tree-panel> on a session too large to lay out before the first
// paint (more than WINDOW_NODES nodes): the rows around the cursor are drawn
// from one `tree.rows` window, the whole rows follow in slices without
// blocking the page, and scrolling, search, keys and filters keep working —
// before the slices are in (windows fetched on scroll, hits focused once the
// rows are in) and after. Slices are sized to take about 50 ms each.
// Screenshot: e2e/artifacts/panel-window.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, artifactPath } from './helpers.mjs';

const VIEWPORT = { width: 1400, height: 860 };

/**
 * 60,005 nodes: 6 chains of 10,000 (m0…m59999, every 10,000th a root),
 * a branch "side" of 5 nodes (s0…s4) at m30000, a label on m35010; the
 * cursor on m35000; m50000 says "zanzibar lighthouse".
 */
function bigSnapshot() {
  const ts = '2026-01-01T00:00:00.000Z';
  const nodes = [];
  for (let k = 0; k < 60_000; k++) {
    const content = k === 50_000 ? 'the zanzibar lighthouse' : `main message ${k}`;
    nodes.push({ id: `m${k}`, parentId: k % 10_000 === 0 ? null : `m${k - 1}`, branch: 'main', kind: 'message', timestamp: ts, message: { role: k % 2 ? 'assistant' : 'user', content } });
  }
  for (let j = 0; j < 5; j++) nodes.push({ id: `s${j}`, parentId: j === 0 ? 'm30000' : `s${j - 1}`, branch: 'side', kind: 'message', timestamp: ts, message: { role: 'user', content: `side message ${j}` } });
  return { version: 1, sessionId: 'huge', cursor: 'm35000', activeBranch: 'main', nodes, annotations: [{ kind: 'label', nodeId: 'm35010', label: 'look here', timestamp: ts }] };
}

/** Whether the row of a node is in the DOM and inside the scroller's visible box. */
function rowVisible(panel, id) {
  return panel.evaluate((el, nodeId) => {
    const row = el.shadowRoot.querySelector(`.row[data-node-id="${nodeId}"]`);
    if (!row) return false;
    const r = row.getBoundingClientRect();
    const s = el.shadowRoot.querySelector('.scroller').getBoundingClientRect();
    return r.top >= s.top - 1 && r.bottom <= s.bottom + 1;
  }, id);
}

test('a 60,005-node session paints the rows around the cursor from one window, then takes every row in slices', async () => {
  const env = await setup({ contextOptions: { viewport: VIEWPORT } });
  try {
    const { page, baseURL, errors } = env;
    await page.goto(baseURL + 'static/');
    await page.waitForSelector('body[data-ready="true"]');
    const loaded = await page.evaluate(async (snapshot) => {
      const env = await window.explorer.tree.call({ operation: 'snapshot.load', sessionId: 'huge', snapshot });
      return env.ok;
    }, bigSnapshot());
    assert.equal(loaded, true);
    const whole = await page.evaluate(async () => (await window.explorer.tree.call({ operation: 'tree.rows', sessionId: 'huge' })).value);
    assert.equal(whole.count, 60_005);
    assert.equal(whole.id.indexOf('s0'), 40_000, 'the side branch follows the subtree of m30000s first child');

    // Record the panel's tree.rows requests; hold the slices until released.
    const panel = page.locator('#panel');
    await page.evaluate(() => {
      const tree = window.explorer.tree;
      const call = tree.call.bind(tree);
      window.rowCalls = [];
      let release;
      window.fillHeld = new Promise((r) => (release = r));
      window.releaseFill = release;
      tree.call = async (request) => {
        if (request?.operation === 'tree.rows') {
          const { operation, sessionId, ...window_ } = request;
          window.rowCalls.push(window_);
          if ('offset' in request && request.limit !== 400) await window.fillHeld; // a slice of the whole rows
        }
        return call(request);
      };
    });
    const first = await page.evaluate(async () => {
      const panel = document.querySelector('#panel');
      const t0 = performance.now();
      panel.sessionId = 'huge';
      while (panel._value?.sessionId !== 'huge' || !panel.shadowRoot.querySelector('.row.cursor')) await new Promise((r) => requestAnimationFrame(r));
      await new Promise((r) => requestAnimationFrame(r));
      return { ms: performance.now() - t0, rows: panel.shadowRoot.querySelectorAll('.row').length, partial: panel._partial !== null, calls: [...window.rowCalls] };
    });
    console.log(`60,005 nodes: first paint from a window ${Math.round(first.ms)} ms, ${first.rows} rows in the DOM`);
    assert.deepEqual(first.calls[0], { around: 'm35000', limit: 400 }, 'the first tree.rows call is a window around the cursor');
    assert.equal(first.partial, true);
    assert.ok(first.rows > 10 && first.rows < 80, `DOM rows: ${first.rows}`);
    assert.equal(await rowVisible(panel, 'm35000'), true, 'the cursor row is in view');
    assert.equal(await panel.locator('.row.cursor[data-node-id="m35000"] .preview').textContent(), 'main message 35000');
    assert.equal(await panel.locator('.row[data-node-id="m35010"] .node-label').textContent(), 'look here');
    assert.equal(await panel.locator('.head .stats').textContent(), '60,005 nodes · 2 branches · on main · loading rows 0%');
    // The spacer is as tall as every row: the cursor row sits at its whole-session row.
    const cursorRow = whole.id.indexOf('m35000');
    const placed = await panel.evaluate((el) => ({ top: el.shadowRoot.querySelector('.scroller').scrollTop, height: el.shadowRoot.querySelector('.spacer').style.height }));
    assert.equal(parseFloat(placed.height), 60_005 * 30);
    assert.ok(Math.abs(placed.top + 430 - cursorRow * 30) < 400, `scrollTop ${placed.top} near row ${cursorRow}`);

    // Keys move within the window while the slices are held.
    await panel.locator('.scroller').focus();
    await page.keyboard.press('ArrowDown');
    await panel.locator(`.row.active[data-node-id="${whole.id[cursorRow + 1]}"]`).waitFor();
    await page.keyboard.press('ArrowUp');
    await panel.locator('.row.active[data-node-id="m35000"]').waitFor();

    // Scrolling far away fetches the window there (the slices are still held).
    await panel.locator('.scroller').evaluate((s) => (s.scrollTop = 40_000 * 30));
    await panel.locator('.row[data-node-id="s0"]').waitFor();
    assert.equal(await panel.locator('.row[data-node-id="s0"] .branch').textContent(), 'side');
    await panel.locator('.scroller').evaluate((s) => (s.scrollTop = 0));
    await panel.locator('.row[data-node-id="m0"]').waitFor();
    assert.equal(await panel.evaluate((el) => el._partial !== null), true, 'still loading');
    assert.deepEqual(await page.evaluate(() => window.rowCalls.filter((c) => c.limit === 400 && 'offset' in c).map((c) => c.offset)), [39_800, 0]);

    // Search finds a row outside the window; choosing the hit focuses it once the rows are in.
    await panel.locator('.search').fill('zanzibar');
    await panel.locator('.hit-item').first().waitFor();
    assert.equal(await panel.locator('.hit-item').first().getAttribute('data-node-id'), 'm50000');
    await panel.locator('.hit-item').first().click();
    assert.equal(await panel.evaluate((el) => el._partial !== null), true, 'still loading');

    // Release the slices: every row arrives, slice after slice (the first of 5,000 rows).
    const done = await page.evaluate(async () => {
      const panel = document.querySelector('#panel');
      window.releaseFill();
      await panel.updateComplete;
      await new Promise((r) => setTimeout(r, 50));
      return { partial: panel._partial, rows: panel._value.rows.length, ids: panel._value.rows.map((r) => r.id), slices: window.rowCalls.filter((c) => 'offset' in c && c.limit !== 400), timings: panel.lastTimings };
    });
    assert.equal(done.partial, null);
    assert.equal(done.rows, 60_005);
    assert.deepEqual(done.ids, whole.id, 'the slices give the rows of the whole answer, in order');
    assert.deepEqual(done.slices[0], { offset: 0, limit: 5000 });
    assert.ok(done.slices.length >= 2, `${done.slices.length} slices`);
    done.slices.forEach((c, k) => k > 0 && assert.equal(c.offset, Math.min(60_005, done.slices[k - 1].offset + done.slices[k - 1].limit), 'each slice starts where the last ended'));
    assert.ok(done.slices.every((c) => c.limit >= 1000 && c.limit <= 100_000), JSON.stringify(done.slices));
    assert.ok(done.slices.at(-1).offset + done.slices.at(-1).limit >= 60_005, 'the last slice reaches the last row');
    assert.ok(done.timings.allRows > 0);
    await panel.locator('.head .stats', { hasText: /^60,005 nodes · 2 branches · on main$/ }).waitFor();
    await panel.locator('.row.active[data-node-id="m50000"] mark', { hasText: 'zanzibar' }).waitFor();
    assert.equal(await rowVisible(panel, 'm50000'), true, 'the chosen hit is in view');
    assert.equal(await panel.locator('.hits').isHidden(), true, 'the hit list stays closed');
    await page.screenshot({ path: artifactPath('panel-window.png') });

    // Every row is reachable now: End goes to the last row, Home to the first.
    await panel.locator('.scroller').focus();
    await page.keyboard.press('End');
    await panel.locator(`.row.active[data-node-id="${whole.id.at(-1)}"]`).waitFor();
    assert.equal(await rowVisible(panel, whole.id.at(-1)), true);
    await page.keyboard.press('Home');
    await panel.locator('.row.active[data-node-id="m0"]').waitFor();
    // A filter lays out the whole session: user messages only.
    await panel.locator('.filter').selectOption('user');
    await panel.locator('.head .stats', { hasText: '60,005 nodes · 30,005 shown · 2 branches · on main' }).waitFor();
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});
