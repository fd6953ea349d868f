// The map (static/panel-map.js, map-view.js, map-model.js; core's `map`
// operation laid out in the store's Worker) in the explorer: a session
// with five named branches besides main, labels, a hidden branch and a
// preferred path draws every branch — checked through the map's data
// model and by reading the canvas's pixels —, a click previews, Enter
// jumps, the arrows walk parent / child / siblings, the minimap's frame
// follows the list, and on a phone the Map tab shows it.
// Screenshots: e2e/artifacts/map-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { setup, artifactPath, waitUntil } from './helpers.mjs';

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

async function open(page, url) {
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 120_000 });
  await page.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
}

/**
 * Build the test sessions through the API; returns the ids of the nodes by
 * name. "five": main u0 a0 u1 a1 u2 a2 (cursor at a2); alpha at a0, beta
 * at u1, gamma at a0, delta at u0, omega at a1 (hidden); labels on alpha's
 * first node and a1; beta's tip preferred. "long": a 300-node chain.
 */
async function seed(page) {
  return page.evaluate(async () => {
    const { tree } = window.explorer;
    const must = async (r) => {
      const env = await tree.call(r);
      if (!env.ok) throw new Error(`${r.operation}: ${env.error.message}`);
      return env.value;
    };
    const ids = {};
    await must({ operation: 'create', sessionId: 'five', title: 'Five branches' });
    const add = async (name, role, branch) => {
      const v = await must({ operation: 'append', sessionId: 'five', message: { role, content: `${name} says hello` }, ...(branch ? { branch } : {}) });
      ids[name] = v.id;
    };
    for (const [n, r] of [['u0', 'user'], ['a0', 'assistant'], ['u1', 'user'], ['a1', 'assistant'], ['u2', 'user'], ['a2', 'assistant']]) await add(n, r);
    for (const [branch, at] of [['alpha', 'a0'], ['beta', 'u1'], ['gamma', 'a0'], ['delta', 'u0'], ['omega', 'a1']]) {
      await must({ operation: 'branch', sessionId: 'five', nodeId: ids[at], branch });
      const first = branch === 'beta' || branch === 'omega' ? 'assistant' : 'user';
      await add(`${branch}1`, first);
      await add(`${branch}2`, first === 'user' ? 'assistant' : 'user');
    }
    await must({ operation: 'label', sessionId: 'five', nodeId: ids.alpha1, label: 'plan A' });
    await must({ operation: 'label', sessionId: 'five', nodeId: ids.a1, label: 'checkpoint' });
    await must({ operation: 'hide', sessionId: 'five', nodeId: ids.omega1, hidden: true });
    await must({ operation: 'prefer', sessionId: 'five', nodeId: ids.beta2 });
    await must({ operation: 'jump', sessionId: 'five', nodeId: ids.a2 });
    const nodes = [];
    for (let i = 0; i < 300; i++) nodes.push({ id: `l${i}`, parentId: i ? `l${i - 1}` : null, branch: 'main', kind: 'message', timestamp: '2026-12-01T00:00:00.000Z', message: { role: i % 2 ? 'assistant' : 'user', content: `line ${i}` } });
    await must({ operation: 'snapshot.load', sessionId: 'long', snapshot: { version: 1, sessionId: 'long', title: 'A long chain', cursor: 'l299', activeBranch: 'main', nodes } });
    return ids;
  });
}

async function select(page, title) {
  await page.locator('#session-list .session-button', { hasText: title }).click();
  await page.waitForFunction((t) => document.querySelector('#panel').shadowRoot.querySelector('.title')?.textContent === t, title);
}

/** Wait until the map shows session `sid` and return what its model says. */
async function mapModel(page, sid) {
  await page.waitForFunction((s) => document.querySelector('#panel')._map.mapView.model?.sessionId === s, sid, { timeout: 60_000 });
  return page.evaluate(() => {
    const m = document.querySelector('#panel')._map.mapView.model;
    return { count: m.count, branches: m.branches, branch: [...m.branch], length: [...m.length], first: m.first, last: m.last, flags: [...m.flags], hidden: m.hidden, labels: m.labels, tips: m.tips, cursor: m.cursor, preferred: m.preferred };
  });
}

/** The screen point (page px) of a node and the canvas pixel drawn there, beside the colour its branch should have. */
async function pixelAt(page, seg, off) {
  return page.evaluate(([s, o]) => {
    const v = document.querySelector('#panel')._map.mapView;
    v.draw();
    const m = v.model;
    const x = 96 * 0 + 40 + m.x[s] * 96; // MARGIN + x·UNIT_X
    const len = m.length[s];
    const y = 40 + m.y[s] * 84 + (len <= 1 ? 0 : (o / (len - 1)) * 48);
    const p = v.toScreen({ x, y });
    const dpr = devicePixelRatio;
    const [r, g, b] = v.canvas.getContext('2d').getImageData(Math.round(p.x * dpr), Math.round(p.y * dpr), 1, 1).data;
    const rect = v.canvas.getBoundingClientRect();
    const want = v._colours()[`--branch-${m.branch[s] % 8}`].match(/\d+/g).map(Number);
    return { page: { x: rect.left + p.x, y: rect.top + p.y }, got: [r, g, b], want };
  }, [seg, off]);
}

const near = (a, b, tol = 24) => a.every((v, i) => Math.abs(v - b[i]) <= tol);

test('the map draws five named branches, labels, a hidden branch and the preferred path; click previews, Enter jumps, keys walk', async () => {
  const env = await setup({ contextOptions: { viewport: DESKTOP, colorScheme: 'light' } });
  try {
    const { page, baseURL, errors } = env;
    await open(page, baseURL + 'static/');
    const ids = await seed(page);
    await page.evaluate(() => window.explorer.refresh());
    await select(page, 'Five branches');
    const panel = page.locator('#panel');
    await panel.locator('.view-button', { hasText: 'Map' }).click();
    assert.equal(await panel.getAttribute('view'), 'map');
    assert.equal(await page.evaluate(() => localStorage.getItem('sessiontree.explorer.view')), 'map');
    const m = await mapModel(page, 'five');

    // The data model: every branch is a segment with its colour and its name at its tip.
    assert.deepEqual([...m.branches].sort(), ['alpha', 'beta', 'delta', 'gamma', 'main', 'omega']);
    const segOf = (id) => { const s = m.first.indexOf(id); return s >= 0 ? s : m.last.indexOf(id); };
    for (const b of ['alpha', 'beta', 'gamma', 'delta']) {
      const s = segOf(ids[`${b}1`]);
      assert.ok(s >= 0, `${b} has a segment`);
      assert.equal(m.branches[m.branch[s]], b);
      assert.equal(m.length[s], 2);
      assert.ok(m.tips.some(([seg, off, bi]) => seg === s && off === 1 && m.branches[bi] === b), `${b}'s name at its tip`);
    }
    const omega = segOf(ids.omega1);
    assert.deepEqual(m.hidden, [[omega, 2]], 'the hidden branch is one collapsed segment standing for its 2 nodes');
    assert.equal(m.flags[omega] & 4, 4);
    assert.equal(m.preferred.nodeId, ids.beta2);
    assert.equal(m.cursor.nodeId, ids.a2);
    assert.deepEqual(m.labels.map((l) => l[2]).sort(), ['checkpoint', 'plan A']);

    // The pixels: each branch's tip is drawn in its branch's colour.
    for (const b of ['alpha', 'beta', 'gamma', 'delta']) {
      const px = await pixelAt(page, segOf(ids[`${b}1`]), 1);
      assert.ok(near(px.got, px.want), `${b}'s tip is drawn in its colour: got ${px.got}, want ${px.want}`);
    }
    const root = await pixelAt(page, segOf(ids.u0), 0);
    assert.ok(near(root.got, root.want), `main's root is drawn in main's colour: got ${root.got}, want ${root.want}`);
    await page.screenshot({ path: artifactPath('map-desktop-light.png') });

    // A click on alpha's tip previews its path in the context pane.
    const alpha = await pixelAt(page, segOf(ids.alpha1), 1);
    // Hovered, the node's card shows its role and first line; the click hides it (it would cover the preview).
    await page.mouse.move(alpha.page.x, alpha.page.y);
    await panel.locator('.map-tip', { hasText: 'alpha2 says hello' }).waitFor();
    await page.mouse.click(alpha.page.x, alpha.page.y);
    assert.equal(await panel.locator('.map-tip').isHidden(), true, 'the card is hidden by the click');
    await page.waitForFunction((id) => document.querySelector('#panel')._model.viewNode === id, ids.alpha2);
    await page.waitForFunction(() => [...document.querySelector('#panel').shadowRoot.querySelectorAll('.messages .message-body')].at(-1)?.textContent.includes('alpha2 says hello'));
    assert.match(await panel.locator('.map-live').textContent(), /alpha2 says hello/);

    // The canvas takes keys, so it is an application to a screen reader (in browse mode an image's keys are the reader's), its keys in its name.
    const canvasRole = await panel.locator('.map-canvas').evaluate((c) => ({ role: c.getAttribute('role'), kind: c.getAttribute('aria-roledescription'), label: c.getAttribute('aria-label'), tabIndex: c.tabIndex }));
    assert.deepEqual({ role: canvasRole.role, kind: canvasRole.kind, tabIndex: canvasRole.tabIndex }, { role: 'application', kind: 'tree map', tabIndex: 0 });
    assert.match(canvasRole.label, /arrows move between nodes, Enter jumps/);
    assert.equal(await panel.locator('.map-live').getAttribute('aria-live'), 'polite');

    // Keys: up to the parent, up to the fork, down to the first child, right and left among siblings.
    const live = () => panel.locator('.map-live').textContent();
    const key = async (k, text) => {
      await page.keyboard.press(k);
      await page.waitForFunction((t) => document.querySelector('#panel').shadowRoot.querySelector('.map-live').textContent.includes(t), text);
    };
    await key('ArrowUp', 'alpha1 says hello');
    await key('ArrowUp', 'a0 says hello');
    await key('ArrowDown', 'u1 says hello');
    await key('ArrowRight', 'alpha1 says hello');
    await key('ArrowRight', 'gamma1 says hello');
    await key('ArrowLeft', 'alpha1 says hello');
    assert.match(await live(), /alpha, node 1 of 2/);

    // Enter jumps: the session's cursor moves to the focused node.
    await page.keyboard.press('Enter');
    await waitUntil(page, async (id) => (await window.explorer.tree.call({ operation: 'session', sessionId: 'five' })).value.cursor === id, ids.alpha1);
    const after = await mapModel(page, 'five');
    await page.waitForFunction((id) => document.querySelector('#panel')._map.mapView.model?.cursor?.nodeId === id, ids.alpha1);
    assert.ok(after.count >= m.count);

    // A double click on gamma's tip jumps there.
    const gamma = await pixelAt(page, segOf(ids.gamma1), 1);
    await page.mouse.dblclick(gamma.page.x, gamma.page.y);
    await waitUntil(page, async (id) => (await window.explorer.tree.call({ operation: 'session', sessionId: 'five' })).value.cursor === id, ids.gamma2);

    // Fit and Go to cursor keep the cursor on screen.
    await panel.locator('.map-button', { hasText: 'Go to cursor' }).click();
    const c = await page.evaluate(() => { const v = document.querySelector('#panel')._map.mapView; const m = v.model; const s = m.cursor.segment; const p = v.toScreen({ x: 40 + m.x[s] * 96, y: 40 + m.y[s] * 84 + (m.length[s] > 1 ? (m.cursor.offset / (m.length[s] - 1)) * 48 : 0) }); return { p, w: v.canvas.clientWidth, h: v.canvas.clientHeight }; });
    assert.ok(Math.abs(c.p.x - c.w / 2) < 2 && Math.abs(c.p.y - c.h / 2) < 2, `the cursor is centred: ${JSON.stringify(c)}`);

    await page.emulateMedia({ colorScheme: 'dark' });
    await page.evaluate(() => document.querySelector('#panel')._map.mapView.fit());
    await page.waitForTimeout(200);
    const dark = await pixelAt(page, segOf(ids.delta1), 1);
    assert.ok(near(dark.got, dark.want), `dark: delta's tip in its dark colour: got ${dark.got}, want ${dark.want}`);
    await page.screenshot({ path: artifactPath('map-desktop-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });

    // Forced colors (Windows High Contrast): the canvas draws in system colours, redrawn when the
    // media query changes (every pixel was 0,0,0: the theme read back through a forced element).
    await page.emulateMedia({ colorScheme: 'light', forcedColors: 'active' });
    const sys = await page.evaluate(() => {
      const d = document.body.appendChild(document.createElement('div'));
      d.style.forcedColorAdjust = 'none';
      const out = {};
      for (const c of ['Canvas', 'CanvasText', 'Highlight', 'GrayText']) {
        d.style.color = c;
        out[c] = getComputedStyle(d).color.match(/\d+/g).slice(0, 3).map(Number);
      }
      d.remove();
      return out;
    });
    const corner = () => page.evaluate(() => [...document.querySelector('#panel')._map.mapView.canvas.getContext('2d').getImageData(2, 2, 1, 1).data.slice(0, 3)]);
    await page.waitForFunction((bg) => {
      const d = document.querySelector('#panel')._map.mapView.canvas.getContext('2d').getImageData(2, 2, 1, 1).data;
      return bg.every((v, i) => Math.abs(v - d[i]) <= 2);
    }, sys.Canvas, { timeout: 5000 }).catch(() => {});
    assert.ok(near(await corner(), sys.Canvas, 2), `forced colors: the background is Canvas ${sys.Canvas}, redrawn on the change: got ${await corner()}`);
    const fcTip = await pixelAt(page, segOf(ids.alpha1), 1);
    assert.ok(near(fcTip.got, sys.CanvasText, 8), `forced colors: alpha's tip in CanvasText ${sys.CanvasText}: got ${fcTip.got}`);
    const fcCursor = await page.evaluate(() => document.querySelector('#panel')._map.mapView.model.cursor);
    const fcRing = await pixelAt(page, fcCursor.segment, fcCursor.offset);
    assert.ok(near(fcRing.got, sys.Highlight, 8), `forced colors: the cursor in Highlight ${sys.Highlight}: got ${fcRing.got}`);
    const fcHidden = await pixelAt(page, omega, 0);
    assert.ok(near(fcHidden.got, sys.GrayText, 8), `forced colors: the hidden branch in GrayText ${sys.GrayText}: got ${fcHidden.got}`);
    await page.screenshot({ path: artifactPath('map-desktop-forced.png') });
    await page.emulateMedia({ colorScheme: 'light', forcedColors: 'none' });

    // The share file carries the map as inline SVG, shown offline from file:// under its CSP.
    const share = await page.evaluate(async () => (await (await import('/static/share-export.js')).buildShareFile(window.explorer.tree, 'five')).text);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'map-share-'));
    const file = path.join(dir, 'five.html');
    fs.writeFileSync(file, share);
    const offline = await env.browser.newContext({ offline: true, viewport: DESKTOP });
    try {
      const view = await offline.newPage();
      const problems = [];
      view.on('pageerror', (e) => problems.push(e.message));
      view.on('console', (msg) => msg.type() === 'error' && problems.push(msg.text()));
      await view.goto(pathToFileURL(file).href);
      await view.waitForSelector('body[data-ready="true"]');
      const svg = view.locator('.share-map svg');
      assert.equal(await svg.isVisible(), true);
      const names = await svg.locator('text').allTextContents();
      for (const b of ['alpha', 'beta', 'gamma', 'delta', 'main']) assert.ok(names.includes(b), `the share file's map names ${b}: ${names}`);
      assert.ok(names.some((t) => t.startsWith('omega') && t.includes('2 hidden')));
      const stroke = await svg.locator('path[stroke-dasharray]').first().evaluate((n) => getComputedStyle(n).stroke);
      assert.match(stroke, /^rgb/, 'the map takes its colours from the file\'s inlined theme');
      await view.screenshot({ path: artifactPath('map-share-file.png') });
      assert.deepEqual(problems, []);
    } finally {
      await offline.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }

    // The explorer exports the map as SVG and PNG.
    for (const [label, ext, magic] of [['Map · SVG', '.map.svg', '<?xml'], ['Map · PNG', '.map.png', '\x89PNG']]) {
      await page.locator('#export-button').click();
      const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#export-list button', { hasText: label }).click()]);
      assert.ok(download.suggestedFilename().endsWith(ext), download.suggestedFilename());
      const bytes = fs.readFileSync(await download.path());
      assert.equal(bytes.subarray(0, magic.length).toString('latin1'), magic);
    }

    // A long branch name on the rightmost line: the SVG widens to hold it (it was cut at the world's edge).
    await page.evaluate(async () => {
      const { tree } = window.explorer;
      await tree.call({ operation: 'create', sessionId: 'wide', title: 'Wide labels' });
      const first = await tree.call({ operation: 'append', sessionId: 'wide', message: { role: 'user', content: 'hello' } });
      await tree.call({ operation: 'append', sessionId: 'wide', message: { role: 'assistant', content: 'hi' } });
      await tree.call({ operation: 'branch', sessionId: 'wide', nodeId: first.value.id, branch: 'a-rather-long-branch-name-here' });
      await tree.call({ operation: 'append', sessionId: 'wide', message: { role: 'assistant', content: 'hi from the branch' } });
      await window.explorer.refresh();
    });
    await select(page, 'Wide labels');
    await mapModel(page, 'wide');
    await page.locator('#export-button').click();
    const [wide] = await Promise.all([page.waitForEvent('download'), page.locator('#export-list button', { hasText: 'Map · SVG' }).click()]);
    const drawn = await page.evaluate((text) => {
      const svg = document.importNode(new DOMParser().parseFromString(text, 'image/svg+xml').documentElement, true);
      document.body.append(svg);
      const width = Number(svg.getAttribute('width'));
      const labels = [...svg.querySelectorAll('text')].map((t) => [t.textContent, Math.ceil(t.getBBox().x + t.getBBox().width)]);
      const title = svg.querySelector('title').textContent;
      svg.remove();
      return { width, labels, title };
    }, fs.readFileSync(await wide.path(), 'utf8'));
    assert.equal(drawn.title, 'Map of session wide: 3 nodes, 2 branches');
    assert.ok(drawn.labels.some(([t]) => t === 'a-rather-long-branch-name-here'), JSON.stringify(drawn.labels));
    assert.deepEqual(drawn.labels.filter(([, r]) => r > drawn.width), [], `every label inside the SVG's width ${drawn.width}`);

    // The minimap beside the list: its frame follows the list's scroll; a click scrolls the list.
    await panel.locator('.view-button', { hasText: 'List' }).click();
    await select(page, 'A long chain');
    await panel.locator('.minimap').waitFor();
    const frame = () => page.evaluate(() => document.querySelector('#panel')._map.minimap.frame);
    // The session opens on its cursor, the chain's last row: the frame starts at the end.
    const f0 = await frame();
    assert.ok(f0.bottom > 0.95, `the frame starts at the end, on the cursor: ${JSON.stringify(f0)}`);
    const scroller = () => page.evaluate(() => document.querySelector('#panel').shadowRoot.querySelector('.scroller').scrollTop);
    const before = await scroller();
    const box = await panel.locator('.minimap').boundingBox();
    await page.mouse.click(box.x + box.width / 2, box.y + box.height * 0.1);
    await page.waitForFunction((t) => document.querySelector('#panel')._map.minimap.frame.top < t - 0.3, f0.top);
    const scrolled = await scroller();
    assert.ok(scrolled < before, `the list scrolled up: ${before} → ${scrolled}`);
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

for (const scheme of ['light', 'dark']) {
  test(`on a phone the Map tab shows the map and a tap previews (${scheme})`, async () => {
    const env = await setup({ contextOptions: { viewport: PHONE, colorScheme: scheme, hasTouch: true, isMobile: true } });
    try {
      const { page, baseURL, errors } = env;
      await open(page, baseURL + 'static/');
      const ids = await seed(page);
      await page.evaluate(() => window.explorer.refresh());
      await page.locator('#tab-sessions').click();
      await select(page, 'Five branches');
      await page.locator('#tab-map').click();
      assert.equal(await page.locator('#tab-map').getAttribute('aria-selected'), 'true');
      const panel = page.locator('#panel');
      assert.equal(await panel.getAttribute('view'), 'map');
      await mapModel(page, 'five');
      assert.equal(await panel.locator('.map-canvas').isVisible(), true);
      const m = await mapModel(page, 'five');
      const s = m.first.indexOf(ids.beta1);
      const beta = await pixelAt(page, s, 1);
      assert.ok(near(beta.got, beta.want), `beta's tip in its colour: got ${beta.got}, want ${beta.want}`);
      await page.screenshot({ path: artifactPath(`map-phone-${scheme}.png`) });
      await page.touchscreen.tap(beta.page.x, beta.page.y);
      await page.waitForFunction((id) => document.querySelector('#panel')._model.viewNode === id, ids.beta2);
      await page.locator('#tab-tree').click();
      assert.equal(await panel.getAttribute('view'), 'list');
      assert.deepEqual(errors, []);
    } finally {
      await env.close();
    }
  });
}
