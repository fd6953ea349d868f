// The explorer's layout at a desktop and two phone sizes, light and dark:
// every shown pane is at least 200 px tall, no two visible controls overlap
// (bounding boxes, clipped to their scroll containers), nothing overflows
// the page sideways, and on a phone the page shows one pane at a time
// behind ARIA tabs (keyboard operable) with touch targets of at least 40 px.
// The same holds while the import progress bar shows (it once was a pill
// fixed over the header's buttons): no control overlaps it. In a short
// window (320×256, 400 % zoom) the page scrolls and each tab's main content
// is reachable at a usable height.
// Screenshots: e2e/artifacts/layout-<width>x<height>-<scheme>-<pane>.png
// (<pane>-progress with the import progress shown).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, artifactPath, watchPage, openExplorer, explorerCall, importReport, FIXTURES_DIR } from './helpers.mjs';
import fs from 'node:fs';
import path from 'node:path';

const SIZES = [
  { width: 1366, height: 850 },
  { width: 390, height: 844 },
  { width: 320, height: 640 },
];

/** Elements a person clicks or types into. */
const CONTROLS = 'button, input:not([type=hidden]), select, textarea, summary, a[href], [role=tab], [role=option], label.button, label.compact, .row';

/** Things shown over the page that no control may overlap (not controls themselves). */
const OBSTACLES = '#import-progress';

/**
 * What the page shows: each pane's height, every visible control with its
 * rectangle clipped to the viewport and to its scroll containers, and the
 * page's sideways overflow. Runs in the page; walks into the panel's shadow root.
 */
function measure({ controls, obstacles }) {
  const vw = innerWidth;
  const vh = innerHeight;
  const parentOf = (n) => n.parentElement ?? (n.parentNode instanceof ShadowRoot ? n.parentNode.host : null);
  const clip = (e) => {
    let r = e.getBoundingClientRect();
    let box = { l: r.left, t: r.top, r: r.right, b: r.bottom };
    let scrollable = false;
    for (let a = parentOf(e); a; a = parentOf(a)) {
      const cs = getComputedStyle(a);
      if (cs.overflowX !== 'visible' || cs.overflowY !== 'visible') {
        const ar = a.getBoundingClientRect();
        box = { l: Math.max(box.l, ar.left), t: Math.max(box.t, ar.top), r: Math.min(box.r, ar.right), b: Math.min(box.b, ar.bottom) };
        if (/(auto|scroll)/.test(cs.overflowX + cs.overflowY)) scrollable = true;
      }
    }
    box = { l: Math.max(box.l, 0), t: Math.max(box.t, 0), r: Math.min(box.r, vw), b: Math.min(box.b, vh) };
    return { box, full: { w: r.width, h: r.height }, scrollable };
  };
  const roots = [document];
  for (let i = 0; i < roots.length; i++) for (const e of roots[i].querySelectorAll('*')) if (e.shadowRoot) roots.push(e.shadowRoot);
  const found = [];
  const isObstacle = (e) => e.matches(obstacles);
  for (const root of roots) {
    for (const e of root.querySelectorAll(`${controls}, ${obstacles}`)) {
      if (e.getClientRects().length === 0 || getComputedStyle(e).visibility === 'hidden') continue;
      if (e.closest('[hidden]')) continue;
      const { box, full, scrollable } = clip(e);
      const name = `${e.localName}${e.id ? '#' + e.id : ''}${e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\s+/).join('.') : ''} "${(e.getAttribute('aria-label') ?? e.textContent ?? e.placeholder ?? '').trim().slice(0, 30)}"`;
      found.push({ name, box, full, scrollable, inText: e.closest('.markdown') !== null, obstacle: isObstacle(e), el: e });
    }
  }
  // Pairs that overlap, leaving out a control inside another (a checkbox in its label, a twist in its row).
  const overlaps = [];
  const shown = found.filter((c) => c.box.r - c.box.l > 1 && c.box.b - c.box.t > 1);
  for (let i = 0; i < shown.length; i++) {
    for (let j = i + 1; j < shown.length; j++) {
      const a = shown[i];
      const b = shown[j];
      if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
      const w = Math.min(a.box.r, b.box.r) - Math.max(a.box.l, b.box.l);
      const h = Math.min(a.box.b, b.box.b) - Math.max(a.box.t, b.box.t);
      if (w > 1 && h > 1) overlaps.push(`${a.name} × ${b.name}`);
    }
  }
  // Controls neither on screen nor in a container that scrolls to them.
  const unreachable = found.filter((c) => !c.obstacle && !(c.box.r - c.box.l > 0 && c.box.b - c.box.t > 0) && !c.scrollable).map((c) => c.name);
  // Touch targets: the full box of every control on screen that is not a link inside message text.
  const small = shown.filter((c) => !c.obstacle && !c.inText && !found.some((o) => o !== c && o.el.contains(c.el) && o.full.h >= 40) && (c.full.h < 40 - 0.5 || c.full.w < 40 - 0.5)).map((c) => `${c.name} ${Math.round(c.full.w)}×${Math.round(c.full.h)}`);
  const panel = document.querySelector('#panel');
  const sr = panel.shadowRoot;
  const height = (e) => (e && e.getClientRects().length > 0 ? Math.round(e.getBoundingClientRect().height) : null);
  return {
    panes: {
      sessions: height(document.querySelector('#sessions-pane')),
      tree: height(sr.querySelector('.tree-col')),
      treeRows: height(sr.querySelector('.scroller')),
      context: height(sr.querySelector('.context-col')),
      messages: height(sr.querySelector('.messages')),
    },
    overlaps,
    unreachable,
    small,
    sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    controls: found.filter((c) => !c.obstacle).length,
    obstacles: shown.filter((c) => c.obstacle).length,
  };
}

async function check(page, { width, height }, scheme, pane, { progress = false } = {}) {
  await page.waitForTimeout(150); // layout after a tab switch, ResizeObserver renders
  const m = await page.evaluate(measure, { controls: CONTROLS, obstacles: OBSTACLES });
  const tag = `${width}x${height} ${scheme} ${pane}${progress ? ' (import progress shown)' : ''}`;
  await page.screenshot({ path: artifactPath(`layout-${width}x${height}-${scheme}-${pane}${progress ? '-progress' : ''}.png`) });
  assert.equal(m.obstacles, progress ? 1 : 0, `${tag}: the import progress ${progress ? 'does not show' : 'shows'}`);
  const wanted = pane === 'all' ? ['sessions', 'tree', 'treeRows', 'context', 'messages'] : pane === 'sessions' ? ['sessions'] : pane === 'tree' ? ['tree', 'treeRows'] : ['context', 'messages'];
  for (const key of Object.keys(m.panes)) {
    if (wanted.includes(key)) assert.ok(m.panes[key] >= 200, `${tag}: pane ${key} is ${m.panes[key]} px tall`);
    else assert.equal(m.panes[key], null, `${tag}: pane ${key} shows (${m.panes[key]} px) though ${pane} was picked`);
  }
  assert.deepEqual(m.overlaps, [], `${tag}: controls overlap`);
  assert.deepEqual(m.unreachable, [], `${tag}: controls out of reach`);
  assert.equal(m.sideways, 0, `${tag}: the page overflows sideways`);
  if (width < 700) assert.deepEqual(m.small, [], `${tag}: touch targets under 40 px`);
  assert.ok(m.controls > 5, `${tag}: only ${m.controls} controls found`);
}

/**
 * Show the import progress as explorer.js's showProgress does while a large
 * file imports (a long file name, half done); the bar is drawn when it shows.
 */
async function showProgress(page) {
  await page.evaluate(() => {
    document.querySelector('#progress-label').textContent = 'Importing conversations-2026-11-30-full-export.json…';
    document.querySelector('#progress-bar').value = 0.5;
    document.querySelector('#import-progress').hidden = false;
  });
  await page.locator('#import-progress').waitFor();
}

test('layout: panes tall enough, no overlapping controls, one pane at a time on a phone (light and dark)', async () => {
  const env = await setup();
  try {
    for (const size of SIZES) {
      for (const scheme of ['light', 'dark']) {
        const context = await env.browser.newContext({ viewport: size, colorScheme: scheme });
        try {
          const page = watchPage(await context.newPage(), env.errors);
          const panel = await openExplorer(page, env.baseURL);
          await panel.locator('.messages .message').first().waitFor({ state: 'attached' });
          if (scheme === 'light') {
            // The Export menu opens on screen (on a phone its button can sit at the left edge: it opened 130 px off it).
            await page.locator('#export-button').click();
            const menu = await page.locator('#export-list').boundingBox();
            assert.ok(menu.x >= 0 && menu.x + menu.width <= size.width, `${size.width}x${size.height}: the Export menu spans ${menu.x}…${menu.x + menu.width}`);
            await page.keyboard.press('Escape');
            await page.locator('#export-list').waitFor({ state: 'hidden' });
          }
          const tabs = page.locator('#pane-tabs');
          if (size.width >= 700) {
            assert.equal(await tabs.isVisible(), false);
            assert.equal(await panel.getAttribute('pane'), null);
            await check(page, size, scheme, 'all');
            await showProgress(page);
            await check(page, size, scheme, 'all', { progress: true });
            continue;
          }
          assert.equal(await tabs.getAttribute('role'), 'tablist');
          if (size.width >= 375) {
            // The top bar's four buttons share one row (at 390 px "Export" sat alone on a second).
            const tops = await page.locator('.topbar .actions .button:visible').evaluateAll((bs) => bs.map((b) => Math.round(b.getBoundingClientRect().top)));
            assert.equal(tops.length, 4, `${size.width}x${size.height}: the top bar's buttons`);
            assert.equal(new Set(tops).size, 1, `${size.width}x${size.height}: the top bar's buttons stand at ${tops}`);
          }
          assert.equal(await page.locator('#tab-tree').getAttribute('aria-selected'), 'true');
          for (const pane of ['tree', 'context', 'sessions']) {
            await page.locator(`#tab-${pane}`).click();
            assert.equal(await page.locator(`#tab-${pane}`).getAttribute('aria-selected'), 'true');
            await check(page, size, scheme, pane);
          }
          // The import progress with the context pane (the one with the composer).
          await page.locator('#tab-context').click();
          await showProgress(page);
          await check(page, size, scheme, 'context', { progress: true });
        } finally {
          await context.close();
        }
      }
    }
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('short window (320×256, 400 % zoom): the page scrolls as a whole and each tab\'s main content (tree rows, map, messages) is reachable at a usable height; a focused tree row shows (WCAG 1.4.10)', async () => {
  for (const scheme of ['light', 'dark']) {
    const env = await setup({ contextOptions: { viewport: { width: 320, height: 256 }, colorScheme: scheme } });
    try {
      const { page, baseURL, errors } = env;
      const panel = await openExplorer(page, baseURL);
      for (const [tab, main] of [['tree', '.scroller'], ['map', '.map-canvas'], ['context', '.messages']]) {
        await page.locator(`#tab-${tab}`).click();
        await page.waitForFunction((t) => document.body.dataset.pane === t, tab);
        await page.waitForTimeout(150); // the panel draws the pane it shows (ResizeObserver)
        // Scrolled into view (the page's scroll, as a person scrolls to it), its box on screen.
        const m = await panel.locator(main).evaluate((e) => {
          e.scrollIntoView({ block: 'start' });
          const r = e.getBoundingClientRect();
          return { height: Math.round(r.height), top: Math.round(r.top), shown: Math.round(Math.min(r.bottom, innerHeight) - Math.max(r.top, 0)) };
        });
        await page.screenshot({ path: artifactPath(`layout-320x256-${scheme}-${tab}-short.png`) });
        assert.ok(m.height >= 100, `${scheme} ${tab}: ${main} is ${m.height} px tall`);
        assert.ok(m.shown >= 100, `${scheme} ${tab}: ${main} shows ${m.shown} px of the window once scrolled to (top at ${m.top})`);
      }
      // By keyboard: the tree's list takes the focus, a row moved to is on screen (the page scrolls to it).
      await page.locator('#tab-tree').click();
      await page.evaluate(() => scrollTo(0, 0));
      await panel.locator('.scroller').focus();
      await page.keyboard.press('ArrowUp');
      const row = await (await page.waitForFunction(() => {
        const r = document.querySelector('#panel').shadowRoot.querySelector('.row.active')?.getBoundingClientRect();
        return r && r.height > 0 ? r.toJSON() : null;
      })).jsonValue();
      assert.ok(row.top >= 0 && row.bottom <= 256, `${scheme}: the focused row spans ${row.top}…${row.bottom} of a 256 px window`);
      assert.deepEqual(errors, []);
    } finally {
      await env.close();
    }
  }
});

test('phone: the pane tabs work by keyboard, picking a session shows its tree, and every node action is reachable without sideways scrolling', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 390, height: 844 } } });
  try {
    const { page, baseURL, errors } = env;
    const panel = await openExplorer(page, baseURL);
    const selected = () => page.locator('#pane-tabs [aria-selected="true"]').getAttribute('id');
    const focused = () => page.evaluate(() => document.activeElement?.id);
    // Roving tabindex: only the selected tab is in the Tab order.
    assert.deepEqual(await page.locator('#pane-tabs [role=tab]').evaluateAll((ts) => ts.map((t) => t.tabIndex)), [-1, 0, -1, -1]);
    assert.equal(await page.locator('#sessions-pane').getAttribute('role'), 'tabpanel');
    // ARIA in HTML allows the role on a <section>, not on an <aside> (axe: aria-allowed-role).
    assert.equal(await page.locator('#sessions-pane').evaluate((e) => e.tagName), 'SECTION');
    assert.equal(await panel.getAttribute('role'), 'tabpanel');
    assert.equal(await panel.getAttribute('aria-labelledby'), 'tab-tree');
    await page.locator('#tab-tree').focus();
    await page.keyboard.press('ArrowRight');
    // The map tab: the tree column showing the map (panel-map.js).
    assert.deepEqual([await selected(), await focused()], ['tab-map', 'tab-map']);
    assert.deepEqual([await panel.getAttribute('pane'), await panel.getAttribute('view'), await panel.getAttribute('aria-labelledby')], ['tree', 'map', 'tab-map']);
    assert.equal(await panel.locator('.map-canvas').isVisible(), true);
    // Its Fit, Go to cursor and zoom buttons are touch targets too.
    const mapButtons = await panel.locator('.map-button:visible').evaluateAll((bs) => bs.map((b) => Math.round(b.getBoundingClientRect().height)));
    assert.ok(mapButtons.length >= 4 && mapButtons.every((h) => h >= 40), `map buttons ${mapButtons} px tall`);
    await page.keyboard.press('ArrowRight');
    assert.deepEqual([await selected(), await focused()], ['tab-context', 'tab-context']);
    assert.equal(await panel.getAttribute('pane'), 'context');
    assert.equal(await panel.getAttribute('aria-labelledby'), 'tab-context');
    assert.equal(await panel.locator('.messages').isVisible(), true);
    assert.equal(await panel.locator('.scroller').isVisible(), false);
    await page.keyboard.press('ArrowRight'); // wraps to the first tab
    assert.deepEqual([await selected(), await focused()], ['tab-sessions', 'tab-sessions']);
    assert.equal(await panel.isVisible(), false);
    await page.keyboard.press('End');
    assert.equal(await selected(), 'tab-context');
    await page.keyboard.press('Home');
    assert.equal(await selected(), 'tab-sessions');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await selected(), 'tab-context');
    await page.keyboard.press('Home');
    // Tab from the tabs reaches the sessions pane; Enter on a session shows its tree.
    await page.keyboard.press('Tab');
    const sessionId = await page.evaluate(() => document.activeElement?.closest('.session')?.dataset.sessionId ?? document.activeElement?.id);
    assert.equal(sessionId, 'session-filter');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.body.dataset.pane === 'tree');
    assert.equal(await selected(), 'tab-tree');
    // The session's button is hidden with its pane: focus goes to the tab of the pane shown, not to <body>.
    await page.waitForFunction(() => document.activeElement?.id === 'tab-tree');
    assert.equal(await panel.locator('.scroller').isVisible(), true);
    // The tree rows are 40 px touch targets and keyboard still moves in them.
    // The rows are drawn again for the session picked: measure once laid out.
    // Measured in the same task that finds the row, so a redraw between finding and
    // measuring cannot hand back a detached row.
    const h = await (await page.waitForFunction(() => {
      const height = document.querySelector('#panel')?.shadowRoot?.querySelector('.row')?.getBoundingClientRect().height ?? 0;
      return height > 0 ? height : null;
    })).jsonValue();
    assert.equal(h, 40);
    await panel.locator('.scroller').focus();
    const before = await panel.evaluate((p) => p.selectedNodeId);
    await page.keyboard.press('ArrowUp');
    assert.notEqual(await panel.evaluate((p) => p.selectedNodeId), before);
    // Tapping a row previews its path and shows the context pane.
    const budgetTip = await panel.evaluate((p) => p._value.rows.find((r) => r.tipOf === 'budget').id);
    await panel.locator(`.row[data-node-id="${budgetTip}"]`).scrollIntoViewIfNeeded();
    await panel.locator(`.row[data-node-id="${budgetTip}"]`).click();
    await page.waitForFunction(() => document.body.dataset.pane === 'context');
    assert.equal(await selected(), 'tab-context');
    await page.waitForFunction(() => document.activeElement?.id === 'tab-context'); // the tapped row went with the tree pane
    // The pane shows before the previewed path is drawn in it: wait for the drawing.
    await panel.locator(`.messages .message[data-node-id="${budgetTip}"]`).waitFor();
    assert.equal(await panel.locator('.messages .message').last().getAttribute('data-node-id'), budgetTip);
    await panel.locator('.preview-bar').waitFor();
    await page.screenshot({ path: artifactPath('layout-390x844-light-preview.png') });
    // Branch from the previewed node without going back to the tree pane: "Branch here…" in the preview bar.
    assert.deepEqual(await panel.locator('.preview-bar button:visible').allTextContents(), ['Continue from here', 'Branch here…', 'Back to the cursor']);
    await panel.locator('.preview-branch').click();
    await panel.locator('.prompt-dialog[open]').waitFor();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('from-the-context');
    await page.keyboard.press('Enter');
    await panel.locator('.head .stats', { hasText: 'on from-the-context' }).waitFor();
    const branched = await explorerCall(page, { operation: 'session', sessionId: 'demo' });
    assert.deepEqual([branched.cursor, branched.activeBranch], [budgetTip, 'from-the-context']);
    assert.equal(await selected(), 'tab-context', 'the pane stays');
    // The node actions: nothing scrolls sideways out of sight; the less-used
    // ones wait behind "More", a disclosure button the keyboard opens.
    await page.locator('#tab-tree').click();
    const bar = panel.locator('.actions');
    const fits = () => bar.evaluate((b) => {
      const box = b.getBoundingClientRect();
      const shown = [...b.querySelectorAll('.action')].filter((a) => a.getClientRects().length > 0);
      return b.scrollWidth <= b.clientWidth && shown.every((a) => a.getBoundingClientRect().left >= box.left && a.getBoundingClientRect().right <= box.right);
    });
    const more = panel.locator('.act-more');
    assert.deepEqual(await bar.locator('.action:visible').allTextContents(), ['Continue from here', 'Branch…', 'More']);
    assert.equal(await more.getAttribute('aria-expanded'), 'false');
    assert.equal(await fits(), true);
    await more.focus();
    await page.keyboard.press('Enter');
    assert.equal(await more.getAttribute('aria-expanded'), 'true');
    assert.deepEqual(await bar.locator('.action:visible').allTextContents(), ['Continue from here', 'Branch…', 'Less', 'Branch + summary…', 'Fork', 'Clone', 'Label…', 'Hide', 'Prefer', 'Compare…']);
    assert.equal(await fits(), true);
    await page.keyboard.press('Tab'); // the first action it showed follows it in the Tab order
    assert.equal(await panel.evaluate((p) => p.shadowRoot.activeElement?.textContent), 'Branch + summary…');
    await page.screenshot({ path: artifactPath('layout-390x844-light-more.png') });
    // A comparison chosen in the tree pane shows in the context pane.
    await panel.locator('.act-compare').click();
    const mainTip = await panel.evaluate((p) => p._value.rows.find((r) => r.tipOf === 'main').id);
    await panel.locator(`.row[data-node-id="${mainTip}"]`).click();
    await panel.locator('.diff').waitFor();
    assert.equal(await selected(), 'tab-context');
    await page.screenshot({ path: artifactPath('layout-390x844-light-compare.png') });
    // Widening the window shows every pane again, without tab panel roles.
    await page.setViewportSize({ width: 1366, height: 850 });
    await page.waitForFunction(() => !document.querySelector('#panel').hasAttribute('pane'));
    assert.equal(await page.locator('#sessions-pane').isVisible(), true);
    assert.equal(await panel.getAttribute('role'), null);
    // Found and measured in one task: the rows are drawn again (ResizeObserver, then the scroll that keeps the
    // top row) just after the pane attribute goes, and a row measured once detached is 0 px tall.
    assert.equal(await page.evaluate(() => document.querySelector('#panel').shadowRoot.querySelector('.row')?.getBoundingClientRect().height), 30);
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('start-up: the header does not move as the store comes up (the search box is there, disabled, from the first paint), at a phone and a desktop size', async () => {
  for (const viewport of [{ width: 390, height: 844 }, { width: 1366, height: 850 }]) {
    const env = await setup({ contextOptions: { viewport } });
    try {
      const { page, baseURL, errors } = env;
      // Layout shifts without input before it, from the first paint on (the Layout Instability API, buffered).
      await page.addInitScript(() => {
        window.shifts = [];
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) if (!e.hadRecentInput) window.shifts.push({ value: e.value, nodes: e.sources.map((s) => s.node?.id || s.node?.className || s.node?.nodeName) });
        }).observe({ type: 'layout-shift', buffered: true });
      });
      await openExplorer(page, baseURL);
      assert.equal(await page.locator('#global-search').isEnabled(), true, 'enabled once the store answers');
      const shifts = await page.evaluate(() => window.shifts);
      const total = shifts.reduce((a, s) => a + s.value, 0);
      assert.ok(total < 0.01, `layout shift ${total.toFixed(3)} at ${viewport.width}×${viewport.height}: ${JSON.stringify(shifts)}`);
      assert.deepEqual(errors, []);
    } finally {
      await env.close();
    }
  }
});

test('phone: a tree row keeps its text beside its chips (branch, a pending branch, the cursor mark): the chips give way, nothing runs past the row', async () => {
  for (const scheme of ['light', 'dark']) {
    const env = await setup({ contextOptions: { viewport: { width: 390, height: 844 }, colorScheme: scheme } });
    try {
      const { page, baseURL, errors } = env;
      const panel = await openExplorer(page, baseURL);
      const demo = await explorerCall(page, { operation: 'tree', sessionId: 'demo' });
      const at = demo.rows.find((r) => r.preview.startsWith('Three days is'));
      await explorerCall(page, { operation: 'branch', sessionId: 'demo', nodeId: at.id, branch: 'my-long-branch-name-to-try' });
      const row = panel.locator('.row.cursor');
      await row.locator('.branch.pending').waitFor();
      const m = await row.evaluate((r) => {
        const box = (sel) => r.querySelector(sel)?.getBoundingClientRect();
        return { row: r.getBoundingClientRect().toJSON(), preview: box('.preview')?.width ?? 0, chars: r.querySelector('.preview')?.textContent.length ?? 0, cursor: box('.cursor-mark')?.toJSON() };
      });
      assert.ok(m.chars > 8, 'the row has text to show');
      assert.ok(m.preview >= 48, `the text keeps room for a few words: ${m.preview} px`);
      assert.ok(m.cursor && m.cursor.width >= 8 && m.cursor.right <= m.row.right + 0.5, `the cursor mark shows, within the row: ${JSON.stringify(m.cursor)} in ${JSON.stringify(m.row)}`);
      // A previewed row with a branch chip: its "◇ viewing" mark stays within the row too.
      const chipped = demo.rows.find((r) => !r.cursor && r.id !== at.id && (r.tipOf || r.label));
      assert.ok(chipped, 'the demo has a row with a branch chip that is not the cursor');
      await panel.evaluate((p, id) => p.previewNode(id), chipped.id);
      await page.getByRole('tab', { name: 'Tree' }).click(); // a phone shows the preview's context first
      // Measured in one go once the row is laid out (the list draws its rows again as the pane shows).
      const v = await (await page.waitForFunction(() => {
        const mark = document.querySelector('#panel').shadowRoot.querySelector('.row .view-mark');
        const row = mark?.closest('.row');
        if (!row || row.getBoundingClientRect().width === 0) return null;
        return { row: row.getBoundingClientRect().toJSON(), preview: row.querySelector('.preview')?.getBoundingClientRect().width ?? 0, mark: mark.getBoundingClientRect().toJSON() };
      })).jsonValue();
      assert.ok(v.mark.width >= 8 && v.mark.right <= v.row.right + 0.5, `the viewing mark shows, within the row: ${JSON.stringify(v.mark)} in ${JSON.stringify(v.row)}`);
      assert.ok(v.preview >= 48, `the previewed row's text keeps room: ${v.preview} px`);
      await page.screenshot({ path: artifactPath(`layout-390x844-${scheme}-chips.png`) });
      assert.deepEqual(errors, []);
    } finally {
      await env.close();
    }
  }
});

test('phone: a hit of the session\'s search shows its match, not only the text before it (the snippet starts near the match)', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 390, height: 844 } } });
  try {
    const { page, baseURL, errors } = env;
    const panel = await openExplorer(page, baseURL);
    await panel.locator('.search').fill('Regaleira');
    const hit = panel.locator('.hit-item').first();
    await hit.locator('mark').waitFor();
    const m = await hit.evaluate((li) => {
      const snip = li.querySelector('.snippet').getBoundingClientRect();
      const mark = li.querySelector('mark').getBoundingClientRect();
      return { snipRight: snip.right, markRight: mark.right, text: li.querySelector('.snippet').textContent };
    });
    assert.ok(m.text.startsWith('…'), `the text before the match is cut: ${m.text}`);
    assert.ok(m.markRight <= m.snipRight + 0.5, `the match (to ${m.markRight}) shows within the snippet (to ${m.snipRight})`);
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('phone: the Undo bar sits above the pane\'s own bar at the foot of the screen (the tree\'s actions, the context\'s composer), not over its buttons', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 390, height: 844 } } });
  try {
    const { page, baseURL, errors } = env;
    await openExplorer(page, baseURL);
    await explorerCall(page, { operation: 'create', sessionId: 'x', title: 'X' });
    await page.locator('#tab-sessions').click();
    await page.locator('.session[data-session-id="x"] .session-more').click();
    await page.locator('#session-menu [data-action="delete"]').click();
    await page.locator('#undo-bar').waitFor();
    for (const [tab, foot] of [['tree', '.actions'], ['map', '.actions'], ['context', '.composer']]) {
      await page.locator(`#tab-${tab}`).click();
      await page.waitForFunction((t) => document.body.dataset.pane === t, tab);
      const m = await page.evaluate((sel) => {
        const bar = document.getElementById('undo-bar').getBoundingClientRect();
        const f = document.getElementById('panel').shadowRoot.querySelector(sel).getBoundingClientRect();
        return { bar: bar.bottom, foot: f.top, shown: bar.height > 0 };
      }, foot);
      assert.ok(m.shown && m.bar <= m.foot, `${tab}: the bar (to ${m.bar}) ends above ${foot} (from ${m.foot})`);
    }
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('phone: an import report\'s session lines keep their title and their details within the report (two projects: each line names its folder)', async () => {
  for (const [width, height] of [[390, 844], [320, 640]]) {
    const env = await setup({ contextOptions: { viewport: { width, height }, colorScheme: 'light' } });
    try {
      const { page, baseURL, errors } = env;
      await openExplorer(page, baseURL);
      const files = ['sidechain_integrated.jsonl', 'dag_compact_after_rewind.jsonl'].map((name) => ({ name, mimeType: 'application/x-ndjson', buffer: fs.readFileSync(path.join(FIXTURES_DIR, 'claude-code', name)) }));
      await page.setInputFiles('#import-file', files);
      const report = await importReport(page, 'Imported 2 sessions');
      assert.equal(report.sessions.length, 2);
      const lines = await page.locator('#report-sessions li').evaluateAll((ls) => ls.map((li) => {
        const r = li.getBoundingClientRect();
        const title = li.querySelector('.report-session-title');
        return {
          text: li.textContent,
          right: r.right,
          spans: [...li.children].map((c) => ({ cls: c.className, left: c.getBoundingClientRect().left, right: c.getBoundingClientRect().right, overflow: c.scrollWidth - c.clientWidth })),
          title: title.getBoundingClientRect().width,
          titleWanted: Math.min(title.scrollWidth, 96),
        };
      }));
      for (const line of lines) {
        for (const s of line.spans) assert.ok(s.right <= line.right + 0.5, `${width} px: ${s.cls} ends at ${s.right}, past its line (${line.right}): ${line.text}`);
        const size = line.spans.find((s) => s.cls === 'report-session-size');
        assert.ok(size.overflow <= 0, `${width} px: the details are cut by ${size.overflow} px: ${line.text}`);
        assert.ok(line.title >= line.titleWanted - 0.5, `${width} px: the title has ${line.title} px, needs ${line.titleWanted}: ${line.text}`);
      }
      await page.locator('#import-report').screenshot({ path: artifactPath(`layout-${width}x${height}-report-lines.png`) });
      assert.deepEqual(errors, []);
    } finally {
      await env.close();
    }
  }
});

test('desktop, short of height (1280×620; 1280×800 with an import report open): the sessions pane shows its one session whole under the full import hint, and a wheel over the pane brings its foot into view', async () => {
  for (const [height, report] of [[620, false], [800, true]]) {
    const env = await setup({ contextOptions: { viewport: { width: 1280, height } } });
    try {
      const { page, baseURL, errors } = env;
      await openExplorer(page, baseURL);
      if (report) {
        await page.setInputFiles('#import-file', { name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('hello') });
        await importReport(page, 'Nothing imported');
      }
      const tag = `1280×${height}${report ? ' with the report' : ''}`;
      await page.locator('#import-hint:not(.compact)').waitFor();
      /** How much of a box shows: cut by the list, the pane and the window, in px. */
      const shown = (selector) => page.evaluate((selector) => {
        const r = document.querySelector(selector).getBoundingClientRect();
        let [top, bottom] = [Math.max(r.top, 0), Math.min(r.bottom, innerHeight)];
        for (const id of ['session-list', 'sessions-pane']) {
          const c = document.getElementById(id).getBoundingClientRect();
          if (document.getElementById(id).contains(document.querySelector(selector))) [top, bottom] = [Math.max(top, c.top), Math.min(bottom, c.bottom)];
        }
        return { shown: Math.round(Math.max(0, bottom - top)), height: Math.round(r.height) };
      }, selector);
      await page.screenshot({ path: artifactPath(`layout-1280x${height}-sessions${report ? '-report' : ''}.png`) });
      const row = await shown('#session-list .session');
      assert.ok(row.shown >= row.height - 1, `${tag}: the demo session's row shows ${row.shown} of its ${row.height} px`);
      // A mouse reaches the pane's foot (the link to the chat demo): it scrolls as a whole when it cannot hold everything.
      const hint = await page.locator('#import-hint').boundingBox();
      await page.mouse.move(hint.x + hint.width / 2, hint.y + 10);
      await page.mouse.wheel(0, 2000);
      await page.waitForFunction(() => {
        const a = document.getElementById('chat-demo-link').getBoundingClientRect();
        const p = document.getElementById('sessions-pane').getBoundingClientRect();
        return a.top >= p.top && a.bottom <= p.bottom && a.bottom <= innerHeight;
      }, null, { timeout: 5000 }).catch(() => assert.fail(`${tag}: the link to the chat demo stays out of view after a wheel over the pane`));
      assert.deepEqual(errors, []);
    } finally {
      await env.close();
    }
  }
});

test('desktop: the page\'s status line at the foot ("Exported …" after an export) takes no click meant for the panel\'s action buttons under it, and leaves by itself', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1280, height: 800 }, acceptDownloads: true } });
  try {
    const { page, baseURL, errors } = env;
    const panel = await openExplorer(page, baseURL);
    await page.locator('#export-button').click();
    await Promise.all([page.waitForEvent('download'), page.locator('#export-list button[data-format="markdown-tree"]').click()]);
    await page.locator('#status', { hasText: 'Exported the whole tree as' }).waitFor();
    await page.waitForTimeout(300); // what a person waits before the next click
    await page.screenshot({ path: artifactPath('layout-1280x800-status-over-actions.png') });
    const status = await page.locator('#status').boundingBox();
    // What a click at the centre of each action the line is over reaches.
    const under = [];
    for (const b of await panel.locator('.actions .action:visible').all()) {
      const r = await b.boundingBox();
      const [x, y] = [r.x + r.width / 2, r.y + r.height / 2];
      if (x < status.x || x > status.x + status.width || y < status.y || y > status.y + status.height) continue;
      const name = (await b.textContent()).trim();
      under.push(name);
      const hit = await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.id, [x, y]);
      assert.equal(hit, 'panel', `a click on “${name}” reaches ${hit}`);
    }
    assert.ok(under.length > 0, 'the line is over some of the actions (else this test tests nothing)');
    // A click on Hide, at its centre, under the line: it hides the selected row's subtree.
    await panel.locator('.row', { hasText: 'Go on Saturday' }).click();
    const hide = await panel.locator('.act-hide').boundingBox();
    await page.mouse.click(hide.x + hide.width / 2, hide.y + hide.height / 2);
    await panel.locator('.status', { hasText: 'Hidden.' }).waitFor();
    // A done message empties itself (dom.js STATUS_MS, 8 s), off the actions it was over; it stayed
    // until the next message.
    await page.waitForFunction(() => document.getElementById('status').textContent === '', null, { timeout: 15000 });
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});
