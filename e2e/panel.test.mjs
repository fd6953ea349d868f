// <session-tree-panel> (static/session-tree-panel.js) in the explorer and
// the embedding demo, with the real shim and wasm: both modes and themes,
// keyboard-only use, a 100,000-node session, events and actions, XSS,
// offline, and the embedding demo. Screenshots: e2e/artifacts/panel-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, artifactPath } from './helpers.mjs';

const VIEWPORT = { width: 1400, height: 860 };

async function open(page, url) {
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]');
}

/** Open the shim's test page in env's page (window.sessiontree, no panel defined yet). */
async function openShim(env) {
  await env.page.goto(env.baseURL + 'e2e/fixtures/shim.html');
  await env.page.waitForFunction(() => window.sessiontree !== undefined);
}

/** Call the page's shared tree (explorer or chat demo); return the value, asserting ok. */
async function call(page, request) {
  const env = await page.evaluate((r) => (window.explorer ?? window.chatDemo).tree.call(r), request);
  assert.equal(env.ok, true, `${request.operation}: ${JSON.stringify(env.error)}`);
  return env.value;
}

/** Texts of a panel's context pane, one per node on the path. */
function contextTexts(panel) {
  return panel.locator('.messages .message-body').allTextContents();
}

/** The context pane's texts once it shows n messages (it is drawn after the tree's rows), or as it is after 5 s. */
async function contextOf(panel, n) {
  for (let tries = 0; tries < 100; tries++) {
    const texts = await contextTexts(panel);
    if (texts.length === n) return texts;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return contextTexts(panel);
}

/** Wait (up to 10 s) until the panel's context shows texts (it follows the chat's change a moment later), then assert it. */
async function contextShows(panel, texts) {
  for (let i = 0; i < 100 && JSON.stringify(await contextTexts(panel)) !== JSON.stringify(texts); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  assert.deepEqual(await contextTexts(panel), texts);
}

/** Copy the demo session's tree into `sessionId` of the chat demo (setup through the API). */
async function seedDemo(page, sessionId) {
  await page.evaluate(async (sid) => {
    const { tree } = window.chatDemo;
    const { createDemoSession } = await import('/static/demo.js');
    await createDemoSession(tree, 'seed');
    const snap = (await tree.call({ operation: 'snapshot.save', sessionId: 'seed' })).value;
    snap.sessionId = sid;
    const env = await tree.call({ operation: 'snapshot.load', sessionId: sid, snapshot: snap });
    if (!env.ok) throw new Error(env.error.message);
  }, sessionId);
}

for (const scheme of ['light', 'dark']) {
  test(`panel and overlay modes render (${scheme})`, async () => {
    const env = await setup({ contextOptions: { viewport: VIEWPORT, colorScheme: scheme } });
    try {
      const { page, baseURL, errors } = env;
      await open(page, baseURL + 'static/chat-demo.html');
      await seedDemo(page, 'chat-demo');
      const panel = page.locator('#panel');
      await panel.locator('.row').first().waitFor();
      assert.equal(await panel.locator('.row').count(), 13);
      assert.equal(await panel.locator('.frame').isVisible(), true);
      const bg = await panel.locator('.frame').evaluate((n) => getComputedStyle(n).backgroundColor);
      assert.equal(bg, scheme === 'dark' ? 'rgb(23, 27, 34)' : 'rgb(255, 255, 255)');
      // The tokens come from theme.css in the shadow root: the theme attribute
      // picks the other scheme, and a token set on the element wins.
      const tokens = await panel.evaluate((el) => {
        const frameBg = () => getComputedStyle(el.shadowRoot.querySelector('.frame')).backgroundColor;
        const out = {};
        el.theme = matchMedia('(prefers-color-scheme: dark)').matches ? 'light' : 'dark';
        out.flipped = frameBg();
        el.theme = '';
        el.style.setProperty('--surface', 'rgb(1, 2, 3)');
        out.embedder = frameBg();
        el.style.removeProperty('--surface');
        out.back = frameBg();
        return out;
      });
      assert.deepEqual(tokens, { flipped: scheme === 'dark' ? 'rgb(255, 255, 255)' : 'rgb(23, 27, 34)', embedder: 'rgb(1, 2, 3)', back: bg });
      // The overlay is closed: only its toggle shows.
      const drawer = page.locator('#drawer');
      assert.equal(await drawer.locator('.frame').isHidden(), true);
      assert.equal(await drawer.locator('.toggle').isVisible(), true);
      await page.screenshot({ path: artifactPath(`panel-${scheme}.png`) });

      await drawer.locator('.toggle').click();
      await drawer.locator('.frame').waitFor();
      assert.equal(await drawer.locator('.frame').getAttribute('role'), 'dialog');
      assert.equal(await drawer.locator('.toggle').getAttribute('aria-expanded'), 'true');
      assert.equal(await drawer.locator('.row').count(), 13);
      await page.waitForTimeout(250); // the slide-in animation
      await page.screenshot({ path: artifactPath(`overlay-${scheme}.png`) });
      await page.keyboard.press('Escape');
      await drawer.locator('.frame').waitFor({ state: 'hidden' });
      // Open, then taken out of the page: it says it closed and focus goes back; put back, it is closed.
      // Open, then its mode changed: the same; made an overlay again, it starts closed.
      const moved = await page.evaluate(async () => {
        const d = document.querySelector('#drawer');
        const events = [];
        for (const type of ['open', 'close']) d.addEventListener(type, () => events.push(type));
        const opener = document.querySelector('#input');
        const out = {};
        opener.focus();
        d.open();
        const parent = d.parentElement;
        d.remove();
        out.removed = { events: [...events], focus: document.activeElement.id };
        parent.append(d);
        out.back = { open: d.isOpen, dataOpen: d.hasAttribute('data-open'), frameHidden: d.shadowRoot.querySelector('.frame').hidden };
        events.length = 0;
        opener.focus();
        d.open();
        d.setAttribute('mode', 'panel');
        d.setAttribute('mode', 'overlay');
        out.mode = { events: [...events], open: d.isOpen, focus: document.activeElement.id };
        return out;
      });
      assert.deepEqual(moved, {
        removed: { events: ['open', 'close'], focus: 'input' },
        back: { open: false, dataOpen: false, frameHidden: true },
        mode: { events: ['open', 'close'], open: false, focus: 'input' },
      });
      assert.deepEqual(errors, []);
    } finally {
      await env.close();
    }
  });
}

test('keyboard only: open, move, fold, jump, search (a hit opened shows its message), close — the context follows', async () => {
  const env = await setup({ contextOptions: { viewport: VIEWPORT } });
  try {
    const { page, baseURL, errors } = env;
    await open(page, baseURL + 'static/chat-demo.html');
    await seedDemo(page, 'chat-demo');
    const drawer = page.locator('#drawer');
    await drawer.locator('.row').first().waitFor({ state: 'attached' });
    const rows = await call(page, { operation: 'tree', sessionId: 'chat-demo' }).then((t) => t.rows);
    const status = () => call(page, { operation: 'session', sessionId: 'chat-demo' });
    const focusedTag = () => page.evaluate(() => {
      const d = document.querySelector('#drawer');
      const inner = d.shadowRoot.activeElement;
      return document.activeElement === d && inner ? inner.className : document.activeElement?.id ?? '';
    });

    // Open: Tab reaches the demo's "Model…" settings, then the drawer's toggle; Enter opens it and focuses the tree.
    await page.keyboard.press('Tab');
    assert.equal(await focusedTag(), 'settings-open');
    await page.keyboard.press('Tab');
    assert.equal(await focusedTag(), 'toggle');
    await page.keyboard.press('Enter');
    await drawer.locator('.frame').waitFor();
    assert.equal(await focusedTag(), 'scroller');
    const active = () => drawer.locator('.row.active').getAttribute('data-node-id');
    // The highlighted row starts at the cursor (tip of main, display index 6).
    assert.equal(await active(), rows[6].id);

    // Move: Home, then ↓ twice → the first assistant answer (the fork point).
    await page.keyboard.press('Home');
    assert.equal(await active(), rows[0].id);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    assert.equal(await active(), rows[2].id);
    assert.equal(await drawer.locator('.row.active').getAttribute('aria-expanded'), 'true');
    assert.equal(await drawer.locator('.row.active').getAttribute('aria-selected'), 'true');
    assert.equal(await drawer.locator('.row.active').getAttribute('aria-level'), '1');

    // Fold: ← folds its three branches away (13 → 3 rows); → unfolds.
    await page.keyboard.press('ArrowLeft');
    assert.equal(await drawer.locator('.row').count(), 3);
    assert.equal(await drawer.locator('.row.active').getAttribute('aria-expanded'), 'false');
    await page.keyboard.press('ArrowRight');
    assert.equal(await drawer.locator('.row').count(), 13);

    // Jump: → goes to the first child, ↓↓↓ then Shift+Enter (Continue from
    // here) jumps to the tip of main-2 (Enter alone only previews).
    await page.keyboard.press('ArrowRight');
    assert.equal(await active(), rows[3].id);
    for (let k = 0; k < 4; k++) await page.keyboard.press('ArrowDown');
    assert.equal(await active(), rows[7].id);
    await page.keyboard.press('Shift+Enter');
    await drawer.locator(`.row.cursor[data-node-id="${rows[7].id}"]`).waitFor();
    assert.equal((await status()).cursor, rows[7].id);
    const texts = await contextOf(drawer, 5);
    assert.equal(texts.length, 5);
    assert.equal(texts[4], 'Go on Saturday instead and split it: Sintra in the morning, Cascais by the sea in the afternoon, back by train along the coast.');
    // The chat behind follows too.
    assert.equal(await page.locator('#history .bubble .text').last().textContent(), texts[4]);

    // Search: / focuses the search box; Enter opens the first hit.
    await page.keyboard.press('/');
    assert.equal(await focusedTag(), 'search');
    await page.keyboard.type('tight budget');
    // (results follow the typing; wait for those of the whole query)
    await drawer.locator('.hits .hit-item mark', { hasText: /^budget$/i }).first().waitFor();
    // The best hit is the user message holding both words, both highlighted.
    const hostelRow = rows.find((r) => r.preview.includes('hostel') && r.role === 'user');
    assert.equal(await drawer.locator('.hits .hit-item').first().getAttribute('data-node-id'), hostelRow.id);
    assert.deepEqual(await drawer.locator('.hits .hit-item').first().locator('mark').allTextContents(), ['tight', 'budget']);
    await page.keyboard.press('Enter');
    await drawer.locator('.hits').waitFor({ state: 'hidden' });
    assert.equal(await active(), hostelRow.id);
    assert.equal(await focusedTag(), 'scroller');
    // Opening the hit previews its path: the context pane ends at its message (the cursor stays).
    await drawer.locator(`.messages .message:last-child[data-node-id="${hostelRow.id}"]`).waitFor();
    await drawer.locator('.preview-back').waitFor();
    assert.equal((await status()).cursor, rows[7].id);
    await page.keyboard.press('Shift+Enter');
    await drawer.locator(`.row.cursor[data-node-id="${hostelRow.id}"]`).waitFor();
    // The row is drawn before the context pane: wait for the pane to end at it.
    await drawer.locator(`.messages .message:last-child[data-node-id="${hostelRow.id}"]`).waitFor();
    assert.equal((await contextTexts(drawer)).at(-1), 'What would this cost on a tight budget? This is the hostel I found:[image https://example.com/photos/hostel-room.jpg — not loaded]');

    // Close: Escape closes the drawer and gives focus back to the toggle.
    await page.keyboard.press('Escape');
    await drawer.locator('.frame').waitFor({ state: 'hidden' });
    assert.equal(await focusedTag(), 'toggle');
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('a 100,000-node session opens fast, keeps few rows in the DOM and scrolls to the end', async () => {
  const env = await setup({ contextOptions: { viewport: VIEWPORT } });
  try {
    const { page, baseURL, errors } = env;
    await open(page, baseURL + 'static/');
    // 100,000 nodes: a main line with a side branch of 9 nodes every 1,000.
    const loaded = await page.evaluate(async () => {
      const nodes = [];
      let parent = null;
      let k = 0;
      const ts = '2026-01-01T00:00:00.000Z';
      while (nodes.length < 100_000) {
        const id = `m${k++}`;
        nodes.push({ id, parentId: parent, branch: 'main', kind: 'message', timestamp: ts, message: { role: k % 2 ? 'user' : 'assistant', content: `main message ${k}` } });
        parent = id;
        if (k % 1000 === 0) {
          let p = id;
          for (let j = 0; j < 9 && nodes.length < 100_000; j++) {
            const sid = `s${k}-${j}`;
            nodes.push({ id: sid, parentId: p, branch: `side-${k}`, kind: 'message', timestamp: ts, message: { role: j % 2 ? 'assistant' : 'user', content: `side ${k} message ${j}` } });
            p = sid;
          }
        }
      }
      const last = nodes.filter((n) => n.branch === 'main').at(-1).id;
      const t0 = performance.now();
      const env = await window.explorer.tree.call({ operation: 'snapshot.load', sessionId: 'big', snapshot: { version: 1, sessionId: 'big', cursor: last, activeBranch: 'main', nodes } });
      return { ok: env.ok, ms: performance.now() - t0, last };
    });
    assert.equal(loaded.ok, true);

    const panel = page.locator('#panel');
    const timing = await page.evaluate(async () => {
      const panel = document.querySelector('#panel');
      const t0 = performance.now();
      panel.sessionId = 'big';
      // Time to first paint: until the tree's rows are in the DOM and a frame was drawn.
      while (panel._value?.sessionId !== 'big' || !panel.shadowRoot.querySelector('.row')) await new Promise((r) => requestAnimationFrame(r));
      await new Promise((r) => requestAnimationFrame(r));
      const paint = performance.now() - t0;
      const rows = panel.shadowRoot.querySelectorAll('.row').length;
      await panel.updateComplete;
      const all = performance.now() - t0;
      // A second load: the core has the previews cached now (warm).
      const t1 = performance.now();
      await panel.refresh();
      return { paint, all, rows, cold: { ...panel.lastTimings }, warm: performance.now() - t1, ...panel.lastTimings };
    });
    console.log(`100,000 nodes: snapshot.load ${Math.round(loaded.ms)} ms; tree first paint ${Math.round(timing.paint)} ms (a tree.rows window around the cursor), every row in ${Math.round(timing.all)} ms (slices of ~50 ms); a second load ${Math.round(timing.warm)} ms (the core's tree.rows call ${Math.round(timing.tree)} ms, the panel's rows and layout ${Math.round(timing.layout)} ms); ${timing.rows} rows in the DOM`);
    assert.ok(timing.rows > 10 && timing.rows < 80, `DOM rows: ${timing.rows}`);
    assert.equal(await panel.locator('.head .stats').textContent(), '100,000 nodes · 100 branches · on main');
    await page.screenshot({ path: artifactPath('panel-100k.png') });

    // Scroll to the end: the last row is the newest side branch's tip.
    const tree = await call(page, { operation: 'tree', sessionId: 'big' });
    const lastRow = tree.rows.at(-1);
    await panel.locator('.scroller').evaluate((s) => (s.scrollTop = s.scrollHeight));
    await panel.locator(`.row[data-node-id="${lastRow.id}"]`).waitFor();
    assert.ok((await panel.locator('.row').count()) < 80);
    // End by keyboard highlights it too.
    await panel.locator('.scroller').focus();
    await page.keyboard.press('Home');
    await panel.locator(`.row.active[data-node-id="${tree.rows[0].id}"]`).waitFor();
    await page.keyboard.press('End');
    await panel.locator(`.row.active[data-node-id="${lastRow.id}"]`).waitFor();
    await page.screenshot({ path: artifactPath('panel-100k-end.png') });

    // An append by code on the page shows at once, without a new `tree` of 100,000 rows.
    const appended = await page.evaluate(async () => {
      const panel = document.querySelector('#panel');
      const t0 = performance.now();
      const env = await window.explorer.tree.call({ operation: 'append', sessionId: 'big', message: { role: 'user', content: 'Appended   at the very end' } });
      const id = env.value.id;
      while (!panel.shadowRoot.querySelector('.row')?.isConnected || panel.tree === null || !panel.focusNode(id)) await new Promise((r) => setTimeout(r, 5));
      const ms = performance.now() - t0;
      const fields = (r) => [r.id, r.parentId, r.branch, r.kind, r.role, r.preview, r.depth, r.childCount, r.onPath, r.cursor, r.tipOf ?? ''];
      const core = (await window.explorer.tree.call({ operation: 'tree', sessionId: 'big' })).value.rows.map(fields);
      const mine = panel._value.rows.map(fields);
      const differ = core.findIndex((r, i) => JSON.stringify(r) !== JSON.stringify(mine[i]));
      return { id, ms, same: differ < 0 && core.length === mine.length, differ, core: core[differ], mine: mine[differ] };
    });
    console.log(`100,000 nodes: an append shows in the panel after ${Math.round(appended.ms)} ms`);
    assert.deepEqual({ same: appended.same, differ: appended.differ }, { same: true, differ: -1 }, JSON.stringify(appended));
    await panel.locator(`.row.cursor.active[data-node-id="${appended.id}"] .preview`, { hasText: 'Appended at the very end' }).waitFor();
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('Continue from here after a click fires jump and updates the context; actions change the tree as the store says', async () => {
  const env = await setup({ contextOptions: { viewport: VIEWPORT } });
  try {
    const { page, baseURL, errors } = env;
    await open(page, baseURL + 'static/');
    const panel = page.locator('#panel');
    await page.evaluate(() => {
      window.events = [];
      for (const type of ['jump', 'select', 'branch', 'fork']) document.querySelector('#panel').addEventListener(type, (e) => window.events.push([type, e.detail]));
    });
    const rows = (await call(page, { operation: 'tree', sessionId: 'demo' })).rows;
    const row = (id) => panel.locator(`.row[data-node-id="${id}"]`);
    const storeRow = async (id) => (await call(page, { operation: 'tree', sessionId: 'demo' })).rows.find((r) => r.id === id);

    // Click selects and previews; Continue from here: jump event with the
    // node id; context = path to it.
    const budgetAnswer = rows.find((r) => r.tipOf === 'budget');
    await row(budgetAnswer.id).click();
    await panel.locator('.act-jump').click();
    await panel.locator(`.row.cursor[data-node-id="${budgetAnswer.id}"]`).waitFor();
    // The store's change event can redraw the cursor a moment before the
    // panel's own call returns and fires jump: wait for the event itself.
    await page.waitForFunction(() => window.events.some((e) => e[0] === 'jump'));
    const events = await page.evaluate(() => window.events.splice(0));
    assert.deepEqual(events, [
      ['select', { sessionId: 'demo', nodeId: budgetAnswer.id }],
      ['jump', { sessionId: 'demo', nodeId: budgetAnswer.id }],
    ]);
    assert.equal((await contextTexts(panel)).at(-1), 'About €70 a day: €25 for a hostel bed, €20 for food, €10 for transport (a Viva Viagem card) and €15 for sights. That room looks like a fair deal for May.');

    // Branch here: a new named branch at the budget answer, active in the store.
    await panel.locator('.act-branch').click();
    await panel.locator('.prompt input').fill('budget-v2');
    await panel.locator('.prompt button[type="submit"]').click();
    await panel.locator('.head .stats', { hasText: 'on budget-v2' }).waitFor();
    const st = await call(page, { operation: 'session', sessionId: 'demo' });
    assert.deepEqual([st.cursor, st.activeBranch], [budgetAnswer.id, 'budget-v2']);

    // Fork at the budget answer: a fork event with the new session, which the explorer selects.
    await page.evaluate((id) => document.querySelector('#panel').focusNode(id), budgetAnswer.id);
    await panel.locator('.act-fork').click();
    await page.waitForFunction(() => window.events.some((e) => e[0] === 'fork'));
    const fork = (await page.evaluate(() => window.events)).find((e) => e[0] === 'fork')[1];
    assert.equal(fork.nodeId, budgetAnswer.id);
    // The demo's row is selected until the explorer takes the fork: wait for the fork's own row.
    await page.locator(`#session-list .session.selected[data-session-id="${fork.newSessionId}"]`).waitFor();
    assert.equal(await page.evaluate(() => window.explorer.state.selected), fork.newSessionId);
    const forked = await call(page, { operation: 'session', sessionId: fork.newSessionId });
    assert.deepEqual([forked.nodeCount, forked.cursor], [5, budgetAnswer.id]);

    // Compare two branch tips side by side (the core's diff).
    await page.locator('#session-list .session[data-session-id="demo"] .session-button').click();
    await panel.locator('.head .stats', { hasText: '13 nodes' }).waitFor();
    const mainTip = rows.find((r) => r.tipOf === 'main');
    await page.evaluate((id) => document.querySelector('#panel').focusNode(id), mainTip.id);
    await panel.locator('.act-compare').click();
    await row(budgetAnswer.id).click();
    await panel.locator('.diff').waitFor();
    const fromTexts = await panel.locator('.diff-col.from .diff-text').allTextContents();
    const toTexts = await panel.locator('.diff-col.to .diff-text').allTextContents();
    assert.deepEqual(fromTexts, [
      'Sintra sounds rushed. Can you make Sunday more relaxed?',
      'Take the 9:10 train from Rossio, see only Quinta da Regaleira and the Moorish Castle walls, and have a long lunch in the old town. Skip the Pena interiors; the gardens are the best part anyway.',
      'Perfect. Which neighbourhood should I stay in?',
      'Stay in Baixa or Chiado: flat streets, the metro at the door and everything on foot.',
    ]);
    // (the text of each node as the core's diff gives it, image parts as a marker)
    assert.deepEqual(toTexts, [
      'What would this cost on a tight budget? This is the hostel I found:\n[image url]',
      'About €70 a day: €25 for a hostel bed, €20 for food, €10 for transport (a Viva Viagem card) and €15 for sights. That room looks like a fair deal for May.',
    ]);
    await page.screenshot({ path: artifactPath('panel-actions.png') });
    // Escape closes the comparison shown (a comparison being chosen, a preview: tested elsewhere);
    // with focus on its ×, focus goes back to the rows, not to the page.
    await panel.locator('.diff .icon').focus();
    await page.keyboard.press('Escape');
    await panel.locator('.diff').waitFor({ state: 'hidden' });
    assert.equal(await page.evaluate(() => document.querySelector('#panel').shadowRoot.activeElement?.classList.contains('scroller')), true, 'focus on the rows');
    assert.equal(await panel.locator('.diff *').count(), 0, 'nothing of it kept');
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('annotations from the panel: label, prefer, hide — the tree shows what the store says', async () => {
  const env = await setup({ contextOptions: { viewport: VIEWPORT } });
  try {
    const { page, baseURL, errors } = env;
    await open(page, baseURL + 'static/');
    const panel = page.locator('#panel');
    const rows = (await call(page, { operation: 'tree', sessionId: 'demo' })).rows;
    const row = (id) => panel.locator(`.row[data-node-id="${id}"]`);
    const storeRow = async (id) => (await call(page, { operation: 'tree', sessionId: 'demo' })).rows.find((r) => r.id === id);
    const budgetAnswer = rows.find((r) => r.tipOf === 'budget');
    await page.evaluate((id) => document.querySelector('#panel').focusNode(id), budgetAnswer.id);

    // Label (in-panel prompt, never window.prompt).
    await panel.locator('.act-label').click();
    await panel.locator('.prompt input').fill('cheapest plan');
    await panel.locator('.prompt button[type="submit"]').click();
    await row(budgetAnswer.id).locator('.node-label', { hasText: 'cheapest plan' }).waitFor();
    assert.equal((await storeRow(budgetAnswer.id)).label, 'cheapest plan');

    // Prefer.
    await panel.locator('.act-prefer').click();
    await panel.locator(`.row.preferred[data-node-id="${budgetAnswer.id}"]`).waitFor();
    assert.equal((await storeRow(budgetAnswer.id)).preferred, true);

    // Hide the rainy-day subtree: gone from the default view, shown dimmed under "All".
    const summary = rows.find((r) => r.kind === 'summary');
    // Select the summary row without jumping (focusNode) and hide it.
    await page.evaluate((id) => document.querySelector('#panel').focusNode(id), summary.id);
    await panel.locator('.act-hide').click();
    await row(summary.id).waitFor({ state: 'detached' });
    const hiddenRow = await storeRow(summary.id);
    assert.deepEqual([hiddenRow.hidden, hiddenRow.hiddenRoot], [true, true]);
    // Ten node rows and one placeholder standing for the three hidden ones.
    assert.equal(await panel.locator('.row[data-node-id]').count(), 10);
    assert.deepEqual(await panel.locator('.row.hidden-gap').evaluateAll((rs) => rs.map((r) => [r.dataset.gap, r.textContent])), [[summary.id, '3 hidden — show']]);
    // The toast's Undo shows the subtree again, the node selected as it was; then hide it again.
    const undo = panel.locator('.status .status-action');
    assert.equal(await undo.textContent(), 'Undo');
    await undo.click();
    await panel.locator(`.row.active[data-node-id="${summary.id}"]`).waitFor();
    assert.deepEqual([(await storeRow(summary.id)).hidden, await panel.locator('.row.hidden-gap').count(), await panel.locator('.status').isHidden()], [false, 0, true]);
    await panel.locator('.act-hide').click();
    await row(summary.id).waitFor({ state: 'detached' });
    await panel.locator('select.filter').selectOption('all');
    await panel.locator(`.row.hidden-node[data-node-id="${summary.id}"]`).waitFor();
    assert.equal(await panel.locator('.row').count(), 13);

    await page.screenshot({ path: artifactPath('panel-annotations.png') });
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('features come from tree.hasOperation; errors of search and diff are shown as errors, with no local stand-in', async () => {
  const env = await setup({ contextOptions: { viewport: VIEWPORT } });
  try {
    const { page, baseURL, errors } = env;
    await open(page, baseURL + 'static/');
    const panel = page.locator('#panel');
    const rows = (await call(page, { operation: 'tree', sessionId: 'demo' })).rows;
    const budgetAnswer = rows.find((r) => r.tipOf === 'budget');
    const mainTip = rows.find((r) => r.tipOf === 'main');
    assert.deepEqual(await page.evaluate(() => ['label', 'hide', 'prefer', 'search', 'diff', 'tree.rows', 'export'].map((op) => window.explorer.tree.hasOperation(op))), [true, true, true, true, true, true, true]);
    const visible = () => panel.locator('.actions button[data-action]').evaluateAll((bs) => bs.filter((b) => !b.hidden).map((b) => b.dataset.action)); // not a phone's More
    await page.evaluate((id) => document.querySelector('#panel').focusNode(id), budgetAnswer.id);
    assert.deepEqual(await visible(), ['jump', 'branch', 'summary', 'fork', 'clone', 'label', 'hide', 'prefer', 'compare']);

    // A tree without label, hide and prefer: their buttons are not offered (asked, not guessed).
    await page.evaluate(() => {
      const tree = window.explorer.tree;
      const has = tree.hasOperation.bind(tree);
      tree.hasOperation = (op) => !['label', 'hide', 'prefer'].includes(op) && has(op);
    });
    await page.evaluate((id) => document.querySelector('#panel').focusNode(id), mainTip.id);
    assert.deepEqual(await visible(), ['jump', 'branch', 'summary', 'fork', 'clone', 'compare']);

    // search and diff answering errors: each is shown as the error, nothing stands in for it.
    await page.evaluate(() => {
      const tree = window.explorer.tree;
      const call = tree.call.bind(tree);
      tree.call = async (request) => {
        if (request?.operation === 'search') return { ok: false, error: { code: 'INVALID_ARGUMENT', message: 'unknown operation "search"' } };
        if (request?.operation === 'diff') return { ok: false, error: { code: 'NODE_NOT_FOUND', message: 'diff broke' } };
        return call(request);
      };
    });
    await panel.locator('.search').fill('Chiado');
    await panel.locator('.status.error', { hasText: 'unknown operation "search"' }).waitFor();
    assert.equal(await panel.locator('.hits').isHidden(), true);
    assert.equal(await panel.locator('.row.hit').count(), 0, 'no local search highlights rows');
    await panel.locator('.search').fill('');
    await page.evaluate((id) => document.querySelector('#panel').focusNode(id), mainTip.id);
    await panel.locator('.act-compare').click();
    await panel.locator(`.row[data-node-id="${budgetAnswer.id}"]`).click();
    await panel.locator('.status.error', { hasText: 'diff broke' }).waitFor();
    assert.equal(await panel.locator('.diff').isHidden(), true, 'no local comparison is drawn');
    assert.equal(await panel.locator('.row.compare-from').count(), 0);
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('XSS: markup in content, titles, ids and branch names shows as text and never runs', async () => {
  const env = await setup({ contextOptions: { viewport: VIEWPORT } });
  try {
    const { page, baseURL, errors } = env;
    await open(page, baseURL + 'static/');
    await page.evaluate(() => {
      window.ran = [];
      window.pwned = (x) => window.ran.push(x);
    });
    const evil = {
      content: '<img src=x onerror=pwned(1)>',
      title: '</title><svg onload=pwned(2)>',
      id: 'n"><b>id</b>',
      branch: 'b"><b>br</b>',
      session: 's"><b>session</b>',
    };
    await call(page, {
      operation: 'snapshot.load',
      sessionId: evil.session,
      snapshot: {
        version: 1,
        sessionId: evil.session,
        cursor: evil.id,
        activeBranch: evil.branch,
        nodes: [
          { id: 'root', parentId: null, branch: 'main', kind: 'message', timestamp: '2026-01-01T00:00:00.000Z', message: { role: 'user', content: evil.title } },
          { id: evil.id, parentId: 'root', branch: evil.branch, kind: 'message', timestamp: '2026-01-01T00:00:01.000Z', message: { role: 'assistant', content: [{ type: 'text', text: evil.content }] } },
        ],
      },
    });
    await page.locator('#session-list .session-button', { hasText: 's"><b>session</b>' }).click();
    const panel = page.locator('#panel');
    // The demo session's cursor row shows until the panel has switched.
    await page.waitForFunction((id) => document.querySelector('#panel')?.shadowRoot?.querySelector('.row.cursor')?.dataset.nodeId === id, evil.id);
    assert.equal(await panel.locator('.row.cursor').getAttribute('data-node-id'), evil.id);
    assert.equal(await panel.locator('.row.cursor .branch').textContent(), evil.branch);
    assert.equal(await panel.locator('.row.cursor .preview').textContent(), evil.content);
    assert.deepEqual(await contextTexts(panel), [evil.title, evil.content]);
    assert.equal(await panel.locator('.title').textContent(), evil.session);
    // Search renders snippets as text too.
    await panel.locator('input.search').fill('onerror');
    await panel.locator('.hits .hit-item').first().waitFor();
    // No element was made from the text anywhere, in the page or the panel.
    const counts = await page.evaluate(() => {
      const root = document.querySelector('#panel').shadowRoot;
      const q = (sel) => document.querySelectorAll(sel).length + root.querySelectorAll(sel).length;
      return { img: q('img:not(.toggle-icon):not(.logo)'), svg: q('svg'), b: q('b') };
    });
    assert.deepEqual(counts, { img: 0, svg: 0, b: 0 });
    await page.waitForTimeout(200);
    assert.deepEqual(await page.evaluate(() => window.ran), []);
    await page.screenshot({ path: artifactPath('panel-xss.png') });
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('offline: after one visit the explorer reloads, explores and appends with the network off', async () => {
  const env = await setup({ contextOptions: { viewport: VIEWPORT } });
  try {
    const { page, baseURL, errors, context } = env;
    await open(page, baseURL + 'static/');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }));
    });
    // The whole network goes: the browser is offline and the server stops.
    await context.setOffline(true);
    const stop = env.server.close.bind(env.server);
    await stop();
    env.server.close = async () => {};
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    const panel = page.locator('#panel');
    const rows = (await call(page, { operation: 'tree', sessionId: 'demo' })).rows;
    const target = rows.find((r) => r.tipOf === 'rainy-day');
    await panel.locator(`.row[data-node-id="${target.id}"]`).click();
    await panel.locator('.act-jump').click();
    await panel.locator(`.row.cursor[data-node-id="${target.id}"]`).waitFor();
    await call(page, { operation: 'append', sessionId: 'demo', message: { role: 'user', content: 'Written offline' } });
    await panel.locator('.row.cursor .preview', { hasText: 'Written offline' }).waitFor();
    await panel.locator('.messages .message-body', { hasText: 'Written offline' }).waitFor();
    assert.equal((await contextTexts(panel)).at(-1), 'Written offline');
    await page.screenshot({ path: artifactPath('panel-offline.png') });
    assert.deepEqual(errors, []);
  } finally {
    await env.context.setOffline(false).catch(() => {});
    await env.close();
  }
});

test('embedding demo: two messages, a branch, a jump back — chat and panel agree', async () => {
  const env = await setup({ contextOptions: { viewport: VIEWPORT } });
  try {
    const { page, baseURL, errors } = env;
    await open(page, baseURL + 'static/chat-demo.html');
    const panel = page.locator('#panel');
    const chat = () => page.locator('#history .bubble .text').allTextContents();
    const say = async (text) => {
      await page.locator('#input').fill(text);
      await page.keyboard.press('Enter');
    };
    await say('Hello there');
    await page.locator('#history .bubble .text', { hasText: 'You said “Hello there” (2 words).' }).waitFor();
    await say('Plan a picnic');
    await page.locator('#history .bubble .text', { hasText: 'You said “Plan a picnic” (3 words).' }).waitFor();
    assert.deepEqual(await chat(), ['Hello there', 'You said “Hello there” (2 words).', 'Plan a picnic', 'You said “Plan a picnic” (3 words).']);
    await panel.locator('.row').nth(3).waitFor();
    assert.equal(await panel.locator('.row').count(), 4);
    const rows = (await call(page, { operation: 'tree', sessionId: 'chat-demo' })).rows;
    const oldTip = rows[3].id;

    // Branch at the first answer from the panel, then keep chatting there.
    await panel.locator(`.row[data-node-id="${rows[1].id}"]`).click();
    await panel.locator('.act-jump').click();
    await panel.locator(`.row.cursor[data-node-id="${rows[1].id}"]`).waitFor();
    assert.deepEqual(await chat(), ['Hello there', 'You said “Hello there” (2 words).']);
    await panel.locator('.act-branch').click();
    await panel.locator('.prompt input').fill('beach');
    await panel.locator('.prompt button[type="submit"]').click();
    await page.locator('#branch-name', { hasText: 'branch beach' }).waitFor();
    await say('Plan a beach day');
    await page.locator('#history .bubble .text', { hasText: 'You said “Plan a beach day” (4 words).' }).waitFor();
    assert.deepEqual(await chat(), ['Hello there', 'You said “Hello there” (2 words).', 'Plan a beach day', 'You said “Plan a beach day” (4 words).']);
    await panel.locator('.row').nth(5).waitFor();
    assert.equal(await panel.locator('.row').count(), 6);
    await contextShows(panel, await chat());

    // Jump back to the old tip in the panel: a click previews it (the chat
    // stays), Continue from here moves there and the chat shows that history.
    await panel.locator(`.row[data-node-id="${oldTip}"]`).click();
    await panel.locator('.preview-bar').waitFor();
    assert.equal((await contextTexts(panel)).at(-1), 'You said “Plan a picnic” (3 words).');
    assert.equal((await chat()).at(-1), 'You said “Plan a beach day” (4 words).');
    await panel.locator('.preview-continue').click();
    await page.locator('#branch-name', { hasText: 'branch main' }).waitFor();
    await page.locator('#history .bubble .text', { hasText: /^Plan a picnic$/ }).waitFor();
    assert.deepEqual(await chat(), ['Hello there', 'You said “Hello there” (2 words).', 'Plan a picnic', 'You said “Plan a picnic” (3 words).']);
    await contextShows(panel, await chat());
    assert.equal(await panel.locator('.row.cursor').getAttribute('data-node-id'), oldTip);
    // A page's centred text (Vite's React template centres #root) stops at the panel.
    const aligned = await page.evaluate(() => {
      const host = document.querySelector('#panel');
      host.parentElement.style.textAlign = 'center';
      const message = host.shadowRoot.querySelector('.message');
      return [getComputedStyle(host).textAlign, getComputedStyle(message).textAlign];
    });
    assert.deepEqual(aligned, ['start', 'start']);
    const branches = await call(page, { operation: 'branches', sessionId: 'chat-demo' });
    assert.deepEqual(branches.map((b) => [b.name, b.nodeCount, b.active]), [['main', 4, true], ['beach', 2, false]]);
    await page.screenshot({ path: artifactPath('panel-chat-demo.png') });
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('chat demo: a double click on Save & send or Regenerate makes one turn; a message the store refuses comes back to the box, said as an error, and a deleted chat is not shown as if it were there', async () => {
  const env = await setup({ contextOptions: { viewport: VIEWPORT } });
  try {
    const { page, baseURL, errors } = env;
    await open(page, baseURL + 'static/chat-demo.html');
    const chat = () => page.locator('#history .bubble .text').allTextContents();
    const say = async (text, words) => {
      await page.locator('#input').fill(text);
      await page.keyboard.press('Enter');
      await page.locator('#history .bubble .text', { hasText: `You said “${text}” (${words} word${words === 1 ? '' : 's'}).` }).waitFor();
    };
    await say('one', 1);
    await say('two', 1);
    // Edit "two", then a double click on Save & send: one new version, one reply.
    await page.locator('#history .bubble[data-role="user"] .act.edit').last().click();
    await page.locator('.editor textarea').fill('two edited');
    await page.locator('.editor button[type="submit"]').dblclick();
    await page.locator('#history .bubble .text', { hasText: 'You said “two edited” (2 words).' }).waitFor();
    // A later turn: whatever a second click started is in the store before it.
    await say('three', 1);
    assert.deepEqual(await chat(), ['one', 'You said “one” (1 word).', 'two edited', 'You said “two edited” (2 words).', 'three', 'You said “three” (1 word).']);
    // A double click on Regenerate: one more reply beside the first, not a reply under it.
    await page.locator('#history .bubble[data-role="assistant"] .act.regen').last().dblclick();
    // The last reply's versions (the edited "two" says "2 / 2" too).
    await page.locator('#history .bubble[data-role="assistant"]').last().locator('.sib-pos', { hasText: '2 / 2' }).waitFor();
    await say('four', 1);
    const nodes = await call(page, { operation: 'list', sessionId: 'chat-demo' });
    const three = nodes.find((n) => n.preview === 'three');
    assert.equal(nodes.filter((n) => n.parentId === three.id).length, 2, 'two replies to "three"');
    assert.equal(nodes.filter((n) => n.preview === 'two edited').length, 1, 'one edited version');
    assert.equal(nodes.length, 11); // one, reply, two, reply, two edited, reply, three, 2 replies, four, reply

    // The first message (the root: the echo bot's chat has no system
    // message) is edited as any other: a new root beside it, "2 / 2".
    const firstUser = page.locator('#history .bubble[data-role="user"]').first();
    await firstUser.locator('.act.edit').click();
    await page.locator('.editor textarea').fill('one edited');
    await page.locator('.editor button[type="submit"]').click();
    await page.locator('#history .bubble .text', { hasText: 'You said “one edited” (2 words).' }).waitFor();
    assert.deepEqual(await chat(), ['one edited', 'You said “one edited” (2 words).']);
    await firstUser.locator('.sib-pos', { hasText: '2 / 2' }).waitFor();
    const roots = (await call(page, { operation: 'list', sessionId: 'chat-demo' })).filter((n) => n.parentId === null);
    assert.deepEqual(roots.map((n) => n.preview), ['one', 'one edited']);
    await firstUser.locator('.sib-prev').click();
    await page.locator('#history .bubble .text', { hasText: 'You said “four” (1 word).' }).waitFor();

    // The chat deleted (as from another tab): the history says so, a message is refused and comes back.
    await call(page, { operation: 'delete', sessionId: 'chat-demo', permanent: true });
    await page.locator('#history .empty.error', { hasText: 'The chat could not be read' }).waitFor();
    assert.deepEqual(await chat(), []);
    await page.locator('#input').fill('are you there?');
    await page.keyboard.press('Enter');
    await page.locator('#status', { hasText: 'The message was not sent' }).waitFor();
    assert.equal(await page.locator('#input').inputValue(), 'are you there?');
    // Refused after something new was typed: the message comes back before it, on a line of its own.
    await page.evaluate(() => {
      const tree = window.chatDemo.tree;
      const call = tree.call.bind(tree);
      tree.call = (request) => (request?.operation === 'append' ? new Promise((resolve) => (window.__release = () => resolve(call(request)))) : call(request));
    });
    await page.locator('#input').fill('still there?');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => typeof window.__release === 'function');
    assert.equal(await page.locator('#input').inputValue(), '');
    await page.keyboard.type('hello?');
    await page.evaluate(() => window.__release());
    await page.locator('#status', { hasText: 'The message was not sent' }).waitFor();
    await page.waitForFunction(() => document.getElementById('input').value === 'still there?\nhello?');
    const colours = await page.evaluate(() => [getComputedStyle(document.getElementById('status')).color, getComputedStyle(document.querySelector('#history .empty.error')).color]);
    assert.equal(colours[0], colours[1], 'the status is in the error colour');
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('a prompt opened on one session is cancelled when the page shows another, and an empty session-id is an empty panel', async () => {
  const env = await setup({ contextOptions: { viewport: VIEWPORT } });
  try {
    const { page, baseURL, errors } = env;
    await open(page, baseURL + 'static/chat-demo.html');
    const panel = page.locator('#panel');
    // No node yet: the list is a named region holding its note, not a tree without tree items.
    await panel.locator('.empty-tree').waitFor();
    assert.deepEqual(await panel.locator('.scroller').evaluate((s) => [s.getAttribute('role'), s.getAttribute('aria-label')]), ['region', 'Session tree']);
    await page.locator('#input').fill('hello');
    await page.keyboard.press('Enter');
    await panel.locator('.row').nth(1).waitFor();
    assert.equal(await panel.locator('.scroller').getAttribute('role'), 'tree');
    const { sessionId: copy } = await call(page, { operation: 'clone', sessionId: 'chat-demo' });
    const [first] = (await call(page, { operation: 'tree', sessionId: 'chat-demo' })).rows;
    // Label… on the first node; the page then shows the clone (the same node ids) before the OK.
    await panel.locator(`.row[data-node-id="${first.id}"]`).click();
    await panel.locator('.act-label').click();
    await panel.locator('.prompt-dialog input').fill('meant for the first session');
    await page.evaluate((id) => (document.querySelector('#panel').sessionId = id), copy);
    await panel.locator('.prompt-dialog').waitFor({ state: 'hidden' });
    await page.keyboard.press('Enter');
    await panel.locator(`.head .title[title="${copy}"]`).waitFor();
    for (const id of ['chat-demo', copy]) {
      const labels = (await call(page, { operation: 'tree', sessionId: id })).rows.filter((r) => r.label);
      assert.deepEqual(labels, [], `no label in ${id}`);
    }
    // session-id="" (a page writing `session-id={id ?? ""}`): no session, no error.
    await page.evaluate(() => document.querySelector('#panel').setAttribute('session-id', ''));
    await panel.locator('.head .title', { hasText: 'No session' }).waitFor();
    assert.equal(await page.evaluate(() => document.querySelector('#panel').sessionId), null);
    assert.equal(await panel.locator('.row').count(), 0);
    assert.equal(await panel.locator('.status').isVisible(), false, 'no error toast');
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('properties set on the element before its module defined it (tree, sessionId, mode) are taken when it upgrades: the tree given, no store of its own', async () => {
  const env = await setup({ contextOptions: { viewport: VIEWPORT } });
  try {
    const { page, errors } = env;
    await openShim(env);
    const got = await page.evaluate(async () => {
      const p = document.createElement('session-tree-panel');
      document.body.append(p);
      const tree = await window.sessiontree.init({ persist: false });
      await tree.create('chat', { title: 'Early' });
      await tree.append('chat', { role: 'user', content: 'set before the panel was defined' });
      p.tree = tree;
      p.sessionId = 'chat';
      p.mode = 'panel';
      const defined = customElements.get('session-tree-panel') !== undefined;
      await import('/static/session-tree-panel.js');
      await customElements.whenDefined('session-tree-panel');
      await p.updateComplete;
      for (let k = 0; k < 100 && !p.shadowRoot.querySelector('.row'); k++) await new Promise((resolve) => setTimeout(resolve, 50));
      return {
        defined,
        same: p.tree === tree,
        attribute: p.getAttribute('session-id'),
        own: Object.hasOwn(p, 'tree') || Object.hasOwn(p, 'sessionId'),
        rows: [...p.shadowRoot.querySelectorAll('.row .preview')].map((r) => r.textContent),
        databases: (await indexedDB.databases()).map((d) => d.name),
      };
    });
    assert.deepEqual(got, { defined: false, same: true, attribute: 'chat', own: false, rows: ['set before the panel was defined'], databases: [] });
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('a panel in the page\'s HTML, given no tree, shows the store the app\'s own init() opened (memory only, or another database): no default database, one wasm fetched', async () => {
  for (const [query, databases] of [['persist=0', []], ['db=myapp', ['myapp']]]) {
    const env = await setup({ contextOptions: { viewport: VIEWPORT } });
    try {
      const { page, baseURL, errors } = env;
      const wasm = [];
      page.on('request', (r) => r.url().endsWith('.wasm') && wasm.push(r.url()));
      await page.goto(`${baseURL}e2e/fixtures/panel-first-init.html?${query}`);
      await page.waitForSelector('body[data-ready="true"]');
      const panel = page.locator('session-tree-panel');
      await panel.locator('.row .preview', { hasText: 'from the app\'s own store' }).waitFor();
      const got = await page.evaluate(async () => ({
        same: document.querySelector('session-tree-panel').tree === window.appTree,
        databases: (await indexedDB.databases()).map((d) => d.name).sort(),
      }));
      assert.deepEqual(got, { same: true, databases }, query);
      assert.equal(wasm.length, 1, `${query}: the wasm fetched once: ${wasm.join(', ')}`);
      assert.deepEqual(errors, []);
    } finally {
      await env.close();
    }
  }
});

test('a panel given no tree takes the page\'s latest init() while it is open: not one the app closed (StrictMode\'s second mount), not one that failed', async () => {
  const env = await setup({ contextOptions: { viewport: VIEWPORT } });
  try {
    const { page, errors } = env;
    await openShim(env);
    const got = await page.evaluate(async () => {
      await import('/static/session-tree-panel.js');
      const shown = async () => {
        const p = document.createElement('session-tree-panel');
        p.sessionId = 'chat';
        document.body.append(p);
        for (let k = 0; k < 100 && !p.tree; k++) await new Promise((resolve) => setTimeout(resolve, 20));
        const tree = p.tree;
        p.remove();
        return tree;
      };
      const first = await window.sessiontree.init({ persist: false });
      first.close(); // StrictMode: mounted, unmounted, mounted again
      const second = await window.sessiontree.init({ persist: false });
      const afterClose = (await shown()) === second;
      await window.sessiontree.init({ dbName: '' }).catch(() => null); // the latest init() fails
      const afterFailure = await shown();
      return { afterClose, failedTaken: afterFailure === second || afterFailure === first, defaultOpened: afterFailure?.persistent === true };
    });
    assert.deepEqual(got, { afterClose: true, failedTaken: false, defaultOpened: true });
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});
