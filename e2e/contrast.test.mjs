// Text contrast in the explorer and the panel, light and dark: the small
// text a new user found just under WCAG's 4.5:1 in light mode (the cursor
// row's "● cursor" and branch chip, role badges on plain, path and
// selected rows, the selected session's meta lines, the context's chip
// labels and message meta) is measured from the computed colours, each
// over the backgrounds behind it composed (alpha and color-mix included),
// and must reach 4.5:1. Under forced colors (Windows High Contrast), which
// drop fills and shadows, the keyboard's row, the cursor's path, a previewed
// path and the selected session keep marks: outlines and edges in system colours.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { setup, openExplorer, importReport, explorerCall, artifactPath, FIXTURES_DIR } from './helpers.mjs';

/** The text measured: [what, selector, root ("page" or "panel")]. */
const TEXTS = [
  ['cursor mark', '.row.cursor .cursor-mark', 'panel'],
  ['branch chip on the cursor row', '.row.cursor .branch', 'panel'],
  ['branch chips', '.row .branch', 'panel'],
  ['role badge on the selected row', '.row.active .role', 'panel'],
  ['role badges on the cursor row', '.row.cursor .role', 'panel'],
  ['user badges', '.row .role[data-role="user"]', 'panel'],
  ['assistant badges', '.row .role[data-role="assistant"]', 'panel'],
  ['system badges', '.row .role[data-role="system"]', 'panel'],
  ['system badges in the context', '.message-head .role[data-role="system"]', 'panel'],
  ['context chip label', '.chip-name', 'panel'],
  ['node labels', '.row .node-label', 'panel'],
  ['context message meta', '.message-head .meta', 'panel'],
  ['selected session meta', '#session-list .session.selected .session-meta span', 'page'],
  ['selected session id', '#session-list .session.selected .session-id', 'page'],
  ['selected session source', '#session-list .session.selected .session-source', 'page'],
  ['session meta', '#session-list .session .session-meta span', 'page'],
  ['viewing mark of a previewed row', '.row .view-mark', 'panel'],
];

/** Inputs whose placeholder is measured (over the input's own background): [what, selector, root]. */
const PLACEHOLDERS = [
  ['global search', '#global-search', 'page'],
  ['session filter', '#session-filter', 'page'],
  ['panel search', '.search', 'panel'],
  ['composer', '.composer-text', 'panel'],
];

/**
 * Contrast ratios of every element matching each of texts, in the page:
 * [what, ratio, colour, background] of the lowest per entry (null: none shown).
 */
function measureContrast(texts) {
  const parse = (c) => {
    let m = c.match(/^rgba?\(([^)]+)\)$/);
    if (m) {
      const p = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
      return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
    }
    m = c.match(/^color\(srgb ([^)]+)\)$/);
    if (m) {
      const p = m[1].split(/[\s/]+/).filter(Boolean).map(Number);
      return [p[0] * 255, p[1] * 255, p[2] * 255, p.length > 3 ? p[3] : 1];
    }
    throw new Error(`colour not understood: ${c}`);
  };
  const over = (top, under) => {
    const a = top[3] + under[3] * (1 - top[3]);
    if (a === 0) return [0, 0, 0, 0];
    return [0, 1, 2].map((i) => (top[i] * top[3] + under[i] * under[3] * (1 - top[3])) / a).concat(a);
  };
  const parentOf = (n) => n.parentElement ?? (n.parentNode instanceof ShadowRoot ? n.parentNode.host : null);
  // The backdrop: every ancestor's background, from the top down.
  const background = (e) => {
    const layers = [];
    for (let a = e; a; a = parentOf(a)) {
      const bg = parse(getComputedStyle(a).backgroundColor);
      layers.push(bg);
      if (bg[3] === 1) break;
    }
    return layers.reverse().reduce((under, top) => over(top, under), [255, 255, 255, 1]);
  };
  const lum = ([r, g, b]) => {
    const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const ratio = (a, b) => (Math.max(lum(a), lum(b)) + 0.05) / (Math.min(lum(a), lum(b)) + 0.05);
  const shadow = document.querySelector('#panel').shadowRoot;
  const hex = (c) => '#' + c.slice(0, 3).map((v) => Math.round(v).toString(16).padStart(2, '0')).join('');
  return texts.map(([what, selector, root]) => {
    let worst = null;
    for (const e of (root === 'panel' ? shadow : document).querySelectorAll(selector)) {
      if (e.getClientRects().length === 0 || !e.textContent.trim()) continue;
      const bg = background(e);
      const fg = over(parse(getComputedStyle(e).color), bg);
      const r = ratio(fg, bg);
      if (worst === null || r < worst[1]) worst = [what, Math.round(r * 100) / 100, hex(fg), hex(bg), e.textContent.trim().slice(0, 20)];
    }
    return worst ?? [what, null];
  });
}

for (const scheme of ['light', 'dark']) {
  test(`contrast (${scheme}): the small text of rows, chips, badges and the session list reaches 4.5:1`, async () => {
    const env = await setup({ contextOptions: { viewport: { width: 1366, height: 850 }, colorScheme: scheme } });
    try {
      const { page, baseURL, errors } = env;
      const panel = await openExplorer(page, baseURL);
      // An imported session, selected: its list entry has an id and a source line.
      await page.setInputFiles('#import-file', path.join(FIXTURES_DIR, 'librechat', 'chatgpt-tree.json'));
      await importReport(page, 'Imported 1 session');
      await page.locator('#report-close').click();
      await panel.locator('.title', { hasText: 'Assist user with summary' }).waitFor();
      await panel.locator('.row.cursor').click(); // the selected row is the cursor's
      const first = await measureAll(page);
      // The demo too: its model chip, a node's label, and a selected row off the cursor's path.
      const root = (await explorerCall(page, { operation: 'list', sessionId: 'demo' }))[0].id;
      await explorerCall(page, { operation: 'label', sessionId: 'demo', nodeId: root, label: 'start here' });
      await page.locator('#session-list .session', { hasText: 'Demo: a long weekend in Lisbon' }).click();
      await panel.locator('.title', { hasText: 'Demo: a long weekend in Lisbon' }).waitFor();
      await panel.locator('.row.cursor').waitFor();
      await panel.locator('.scroller').focus();
      await page.keyboard.press('ArrowDown');
      const second = await measureAll(page);
      // A row off the cursor's path previewed: its "◇ viewing" mark.
      const off = await panel.evaluate((p) => p.shadowRoot.querySelector('.row:not(.on-path):not(.cursor)').dataset.nodeId);
      await panel.locator(`.row[data-node-id="${off}"]`).click();
      await panel.locator('.row .view-mark').waitFor();
      const viewing = await measureAll(page);
      const placeholders = await page.evaluate(measurePlaceholders, PLACEHOLDERS);
      assert.equal(placeholders.length, PLACEHOLDERS.length, 'every placeholder measured');
      assert.deepEqual(placeholders.filter(([, r]) => r < 4.5), [], `${scheme}: placeholders under 4.5:1`);
      // The cursor on a user message: its badge on the cursor row's fill.
      const user = await panel.evaluate((p) => p.shadowRoot.querySelector('.row:not(.cursor) .role[data-role="user"]').closest('.row').dataset.nodeId);
      await panel.locator(`.row[data-node-id="${user}"]`).click();
      await panel.locator('.act-jump').click();
      await panel.locator(`.row.cursor[data-node-id="${user}"]`).waitFor();
      const third = await measureAll(page);
      const all = [...first, ...second, ...viewing, ...third];
      const low = all.filter(([, r]) => r !== null && r < 4.5);
      assert.deepEqual(low, [], `${scheme}: text under 4.5:1`);
      const missing = TEXTS.map(([what]) => what).filter((what) => !all.some(([w, r]) => w === what && r !== null));
      assert.deepEqual(missing, [], 'texts not found to measure');
      assert.deepEqual(errors, []);
    } finally {
      await env.close();
    }
  });
}

/** measureContrast in the page, once the panel has drawn. */
async function measureAll(page) {
  await page.waitForTimeout(150);
  return page.evaluate(measureContrast, TEXTS);
}

test('focus shows: the map canvas, a session row, the menus\' items and the search hits get a 2 px ring of the accent colour inside them (an inset shadow on the canvas was painted under its pixels; the menus had only a fill of 1.1:1)', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1366, height: 850 } } });
  try {
    const { page, baseURL, errors } = env;
    const panel = await openExplorer(page, baseURL);
    const ring = (locator) => locator.evaluate((e) => {
      const s = getComputedStyle(e);
      return { style: s.outlineStyle, width: s.outlineWidth, offset: s.outlineOffset };
    });
    const inside = { style: 'solid', width: '2px', offset: '-2px' };
    // A session row, reached by Tab (focus-visible).
    const row = page.locator('#session-list .session-button').first();
    await row.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    assert.deepEqual(await ring(page.locator(':focus')), inside, 'the session row');
    // The Export menu's items, by the keyboard.
    await page.locator('#export-button').focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowDown');
    assert.deepEqual(await ring(page.locator('#export-list button:focus')), inside, 'an Export item');
    await page.keyboard.press('Escape');
    // A hit of the search over every session.
    await page.locator('#global-search').fill('Sintra');
    await page.locator('#global-hits[aria-busy="false"] li[role="option"]').first().waitFor();
    await page.locator('#global-search').press('ArrowDown');
    assert.deepEqual(await ring(page.locator('#global-hits li[role="option"]:focus')), inside, 'a search hit');
    await page.keyboard.press('Escape');
    // The map canvas, by the keyboard.
    await panel.locator('.view-button', { hasText: 'Map' }).click();
    const canvas = panel.locator('.map-canvas');
    await canvas.waitFor();
    await canvas.focus();
    await page.keyboard.press('ArrowLeft');
    assert.deepEqual(await ring(canvas), inside, 'the map canvas');
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

/**
 * Contrast of each input's ::placeholder colour over the input's own
 * background (opaque in every theme): [what, ratio, colour, background].
 */
function measurePlaceholders(inputs) {
  const shadow = document.querySelector('#panel').shadowRoot;
  const rgb = (c) => c.match(/[\d.]+/g).slice(0, 3).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const ratio = (a, b) => (Math.max(lum(a), lum(b)) + 0.05) / (Math.min(lum(a), lum(b)) + 0.05);
  return inputs.flatMap(([what, selector, root]) => {
    const e = (root === 'panel' ? shadow : document).querySelector(selector);
    if (!e || !e.placeholder) return [];
    const fg = rgb(getComputedStyle(e, '::placeholder').color);
    const bg = rgb(getComputedStyle(e).backgroundColor);
    return [[what, Math.round(ratio(fg, bg) * 100) / 100, fg.join(','), bg.join(',')]];
  });
}

/**
 * The marks of the tree's rows and of the selected session, as forced colors
 * leave them: outlines (style, width, in Highlight) and the rows' left edges.
 */
function forcedMarks() {
  const root = document.querySelector('#panel').shadowRoot;
  const probe = document.body.appendChild(document.createElement('div'));
  probe.style.forcedColorAdjust = 'none';
  probe.style.color = 'Highlight';
  const highlight = getComputedStyle(probe).color;
  probe.remove();
  const ring = (e) => {
    const s = getComputedStyle(e);
    return { style: s.outlineStyle, width: s.outlineWidth, highlight: s.outlineColor === highlight };
  };
  const edge = (selector) => {
    const e = root.querySelector(selector);
    if (!e) return null;
    const s = getComputedStyle(e);
    return `${s.borderLeftStyle} ${s.borderLeftColor}`;
  };
  return {
    highlight,
    active: ring(root.querySelector('.row.active')),
    session: ring(document.querySelector('#session-list .session.selected')),
    cursor: edge('.row.cursor'),
    path: edge('.row.on-path:not(.cursor):not(.in-view)'),
    viewed: edge('.row.in-view:not(.on-path):not(.cursor)'),
    other: edge('.row:not(.on-path):not(.cursor):not(.in-view):not(.gap)'),
  };
}

test('forced colors (Windows High Contrast): the keyboard\'s row and the selected session are outlined in Highlight, and the cursor\'s row, its path and a previewed path keep edges apart from the other rows (fills and inset shadows, their only marks, are dropped there)', async () => {
  for (const viewport of [{ width: 1366, height: 850 }, { width: 390, height: 844 }]) {
    const env = await setup({ contextOptions: { viewport } });
    try {
      const { page, baseURL, errors } = env;
      await page.emulateMedia({ forcedColors: 'active' });
      const panel = await openExplorer(page, baseURL);
      const phone = viewport.width < 700;
      if (phone) await page.locator('#tab-tree').click();
      // A row off the cursor's path, clicked: previewed, its path marked; then the keyboard's row.
      await panel.locator('.row:not(.on-path)', { hasText: 'Go on Saturday' }).click();
      await panel.locator('.row.in-view:not(.on-path)').first().waitFor({ state: 'attached', timeout: 10_000 });
      if (phone) await page.locator('#tab-tree').click(); // a click on a phone may show the context
      await panel.locator('.scroller').focus();
      await page.keyboard.press('ArrowDown');
      await page.waitForTimeout(150);
      const marks = await page.evaluate(forcedMarks);
      const inside = { style: 'solid', width: '2px', highlight: true };
      assert.deepEqual(marks.active, inside, `${viewport.width}: the keyboard's row (.row.active) is outlined in Highlight`);
      assert.deepEqual(marks.session, inside, `${viewport.width}: the selected session is outlined in Highlight`);
      assert.equal(marks.cursor, `solid ${marks.highlight}`, `${viewport.width}: the cursor's row has a Highlight edge`);
      const edges = [marks.cursor, marks.path, marks.viewed, marks.other];
      assert.ok(edges.every(Boolean), `${viewport.width}: every kind of row found: ${JSON.stringify(marks)}`);
      assert.equal(new Set(edges).size, 4, `${viewport.width}: the cursor's row, its path, a previewed path and the other rows have four different edges: ${JSON.stringify(marks)}`);
      await page.screenshot({ path: artifactPath(`contrast-forced-tree-${viewport.width}.png`) });
      assert.deepEqual(errors, []);
    } finally {
      await env.close();
    }
  }
});
