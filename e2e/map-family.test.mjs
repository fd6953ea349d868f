// The family of forked sessions in the map (static/map-family.js; core's
// `family`): a fork of a fork (three sessions) and an imported Pi session
// whose header names its parentSession are drawn in the map's family strip
// — checked through the strip's own layout — and navigable: a click on a
// member opens that session at the node linking the two, and the member
// buttons (the accessible twin) open one with the keyboard.
// Screenshots: e2e/artifacts/map-family-*.png (desktop and phone, light and
// dark; the phone is the same page narrowed to 390×844, to keep the test short).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, artifactPath } from './helpers.mjs';

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

async function open(page, url) {
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 120_000 });
  await page.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
}

const PI_PARENT = [
  { type: 'session', version: 3, id: 'pi-parent', timestamp: '2026-01-02T03:04:05.000Z', cwd: '/w' },
  { type: 'message', id: 'm1', parentId: null, timestamp: '2026-01-02T03:04:06.000Z', message: { role: 'user', content: 'Plan the trip' } },
  { type: 'message', id: 'm2', parentId: 'm1', timestamp: '2026-01-02T03:04:07.000Z', message: { role: 'assistant', content: 'Day 1: Lyon' } },
];
const PI_CHILD = [
  { type: 'session', version: 3, id: 'pi-child', timestamp: '2026-01-03T03:04:05.000Z', cwd: '/w', parentSession: '/home/me/.pi/agent/sessions/--w--/2026-01-02T03-04-05-000Z_pi-parent.jsonl' },
  ...PI_PARENT.slice(1),
  { type: 'message', id: 'x3', parentId: 'm2', timestamp: '2026-01-03T03:04:08.000Z', message: { role: 'user', content: 'Go to Nice instead' } },
];
const jsonl = (lines) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

/**
 * "trip" (6 messages), "trip-fork" forked from it at its 4th node,
 * "trip-fork2" forked from that at its 2nd; then the Pi child (its parent
 * not yet there) and the Pi parent. Returns the node ids by name.
 */
async function seed(page) {
  return page.evaluate(async ([child, parent]) => {
    const { tree } = window.explorer;
    const must = async (r) => {
      const env = await tree.call(r);
      if (!env.ok) throw new Error(`${r.operation}: ${env.error.message}`);
      return env.value;
    };
    await must({ operation: 'create', sessionId: 'trip', title: 'Trip plan' });
    const ids = [];
    for (let i = 0; i < 6; i++) ids.push((await must({ operation: 'append', sessionId: 'trip', message: { role: i % 2 ? 'assistant' : 'user', content: `trip message ${i}` } })).id);
    await must({ operation: 'fork', sessionId: 'trip', nodeId: ids[3], newSessionId: 'trip-fork' });
    await must({ operation: 'rename', sessionId: 'trip-fork', title: 'Trip plan, by train' });
    await must({ operation: 'append', sessionId: 'trip-fork', message: { role: 'user', content: 'by train, please' } });
    await must({ operation: 'fork', sessionId: 'trip-fork', nodeId: ids[1], newSessionId: 'trip-fork2' });
    await must({ operation: 'rename', sessionId: 'trip-fork2', title: 'Trip plan, by bike' });
    const before = await must({ operation: 'import', data: child });
    const missing = (await must({ operation: 'family', sessionId: 'pi-child' })).members.find((m) => m.sessionId === 'pi-parent').missing;
    await must({ operation: 'import', data: parent });
    return { ids, piChild: before.sessions[0].sessionId, missingBefore: missing };
  }, [jsonl(PI_CHILD), jsonl(PI_PARENT)]);
}

async function select(page, title) {
  await page.locator('#session-list .session-button', { hasText: title }).first().click();
  await page.waitForFunction((t) => document.querySelector('#panel').shadowRoot.querySelector('.title')?.textContent === t, title);
}

/** Wait until the family strip shows session sid with n members; return its layout. */
async function familyLayout(page, sid, n) {
  await page.waitForFunction(([s, k]) => {
    const f = document.querySelector('#panel')._map.family;
    return f.current === s && f.layout?.members.length === k;
  }, [sid, n], { timeout: 60_000 });
  return page.evaluate(() => document.querySelector('#panel')._map.family.layout);
}

/** The page point of a member's dot in the strip. */
function memberPoint(page, sid) {
  return page.evaluate((s) => {
    const f = document.querySelector('#panel')._map.family;
    f.draw();
    const p = f.point(f.layout.members.find((m) => m.sessionId === s));
    const r = f.canvas.getBoundingClientRect();
    return { x: r.left + p.x, y: r.top + p.y };
  }, sid);
}

const shape = (layout) => layout.members.map((m) => `${m.sessionId}@${m.column}.${m.row}${m.current ? '*' : ''}${m.parent ? `<${m.parent}/${m.kind}/${m.nodeId}` : ''}`);

test('a fork of a fork and an imported Pi fork are drawn in the map and open with a click or the keyboard', async () => {
  const env = await setup({ contextOptions: { viewport: DESKTOP, colorScheme: 'light' } });
  try {
    const { page, baseURL, errors } = env;
    await open(page, baseURL + 'static/');
    const seeded = await seed(page);
    const { ids } = seeded;
    assert.equal(seeded.missingBefore, true, 'before its parent is imported, the Pi fork names it as missing');
    await page.evaluate(() => window.explorer.refresh());
    await select(page, 'Trip plan, by train');
    const panel = page.locator('#panel');
    await panel.locator('.view-button', { hasText: 'Map' }).click();

    // The data model: three generations, the shown session marked, each edge at the node it was forked at.
    const layout = await familyLayout(page, 'trip-fork', 3);
    assert.deepEqual(shape(layout), ['trip@0.0', `trip-fork@1.0*<trip/fork/${ids[3]}`, `trip-fork2@2.0<trip-fork/fork/${ids[1]}`]);
    assert.equal(await panel.locator('.map-family-heading').textContent(), 'Family: 3 sessions');
    assert.deepEqual(await panel.locator('.map-family-member').evaluateAll((bs) => bs.map((b) => [b.dataset.sessionId, b.getAttribute('aria-current')])),
      [['trip', null], ['trip-fork', 'true'], ['trip-fork2', null]]);
    // The strip is drawn: the shown member's dot is in the accent colour.
    const px = await page.evaluate(() => {
      const f = document.querySelector('#panel')._map.family;
      const p = f.point(f.layout.members.find((m) => m.current));
      const d = devicePixelRatio;
      return [...f.canvas.getContext('2d').getImageData(Math.round(p.x * d), Math.round(p.y * d), 1, 1).data].slice(0, 3);
    });
    const accent = await page.evaluate(() => document.querySelector('#panel')._map.mapView._colours()['--accent'].match(/\d+/g).map(Number));
    assert.ok(px.every((v, i) => Math.abs(v - accent[i]) <= 24), `the shown session's dot is accent: got ${px}, want ${accent}`);
    await page.screenshot({ path: artifactPath('map-family-desktop-light.png') });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.evaluate(() => document.querySelector('#panel')._map.mapView.fit());
    await page.waitForTimeout(200);
    await page.screenshot({ path: artifactPath('map-family-desktop-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });

    // A click on the fork of the fork opens it at the node it was forked at.
    const p = await memberPoint(page, 'trip-fork2');
    await page.mouse.click(p.x, p.y);
    await page.waitForFunction(() => document.querySelector('#panel').sessionId === 'trip-fork2');
    await page.waitForFunction((id) => ((p) => p._model.viewNode ?? p._model.value?.cursor)(document.querySelector('#panel')) === id, ids[1]);
    // The address follows once the session is open (the history entry is pushed after the open).
    await page.waitForFunction(() => /session=trip-fork2&node=/.test(location.hash));
    const again = await familyLayout(page, 'trip-fork2', 3);
    assert.equal(again.members.find((m) => m.current).sessionId, 'trip-fork2');

    // The keyboard: the member buttons open a session (here the root, at the node its child was forked at).
    await panel.locator('.map-family-member[data-session-id="trip-fork"]').focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('#panel').sessionId === 'trip-fork');
    await familyLayout(page, 'trip-fork', 3);
    await panel.locator('.map-family-member[data-session-id="trip"]').focus();
    assert.equal(await page.evaluate(() => document.querySelector('#panel')._map.family.focused), 'trip', 'the focused member is ringed on the canvas');
    await page.keyboard.press('Space');
    await page.waitForFunction(() => document.querySelector('#panel').sessionId === 'trip');
    await page.waitForFunction((id) => ((p) => p._model.viewNode ?? p._model.value?.cursor)(document.querySelector('#panel')) === id, ids[3]);

    // The imported Pi fork: linked to its parent, which arrived after it, at the last node both share.
    assert.equal(seeded.piChild, 'pi-child');
    await page.evaluate(() => (location.hash = '#session=pi-child'));
    const pi = await familyLayout(page, 'pi-child', 2);
    assert.deepEqual(shape(pi), ['pi-parent@0.0', 'pi-child@1.0*<pi-parent/import/m2']);
    const q = await memberPoint(page, 'pi-parent');
    await page.mouse.click(q.x, q.y);
    await page.waitForFunction(() => document.querySelector('#panel').sessionId === 'pi-parent');
    await page.waitForFunction(() => ((p) => p._model.viewNode ?? p._model.value?.cursor)(document.querySelector('#panel')) === 'm2');

    // A phone (the same page, narrowed): the Map tab shows the strip; light and dark.
    await page.setViewportSize(PHONE);
    await page.evaluate(() => (location.hash = '#session=trip-fork'));
    await page.locator('#tab-map').click();
    await familyLayout(page, 'trip-fork', 3);
    assert.equal(await panel.locator('.map-family-canvas').isVisible(), true);
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.evaluate(() => document.querySelector('#panel')._map.mapView.fit());
      await page.waitForTimeout(200);
      await page.screenshot({ path: artifactPath(`map-family-phone-${scheme}.png`) });
    }
    const r = await memberPoint(page, 'trip');
    await page.mouse.click(r.x, r.y);
    await page.waitForFunction(() => document.querySelector('#panel').sessionId === 'trip');
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

/** Wait until the map of session sid hangs n forks; return them as plain data. */
async function hungForks(page, sid, n) {
  await page.waitForFunction(([s, k]) => {
    const v = document.querySelector('#panel')._map.mapView;
    return v.model?.sessionId === s && v.hung?.forks.length === k;
  }, [sid, n], { timeout: 60_000 });
  return page.evaluate(() => document.querySelector('#panel')._map.mapView.hung.forks.map((f) => ({
    sessionId: f.sessionId, title: f.title, kind: f.kind, nodeId: f.nodeId, anchor: f.anchor, ox: f.ox, oy: f.oy,
    segs: f.segs.map((g) => ({ length: g.length, first: g.first, last: g.last, parent: g.parent, level: g.level })),
  })));
}

/** The page point of world point p on the map's canvas, drawn now. */
function mapPoint(page, p) {
  return page.evaluate((w) => {
    const v = document.querySelector('#panel')._map.mapView;
    v.draw();
    const s = v.toScreen(w);
    const r = v.canvas.getBoundingClientRect();
    return { x: r.left + s.x, y: r.top + s.y, sx: s.x, sy: s.y };
  }, p);
}

test('the sessions made from one hang off the map at the nodes they were made at, muted, and a click opens one', async () => {
  const env = await setup({ contextOptions: { viewport: DESKTOP, colorScheme: 'light' } });
  try {
    const { page, baseURL, errors } = env;
    await open(page, baseURL + 'static/');
    const { ids } = await seed(page);
    // Another fork of "trip" at its 2nd node, with two messages of its own.
    const own = await page.evaluate(async (at) => {
      const { tree } = window.explorer;
      const must = async (r) => ((e) => (e.ok ? e.value : Promise.reject(new Error(e.error.message))))(await tree.call(r));
      await must({ operation: 'fork', sessionId: 'trip', nodeId: at, newSessionId: 'trip-boat' });
      await must({ operation: 'rename', sessionId: 'trip-boat', title: 'Trip plan, by boat' });
      const a = (await must({ operation: 'append', sessionId: 'trip-boat', message: { role: 'user', content: 'by boat' } })).id;
      const b = (await must({ operation: 'append', sessionId: 'trip-boat', message: { role: 'assistant', content: 'ferry at 9' } })).id;
      return [a, b];
    }, ids[1]);
    await page.evaluate(() => window.explorer.refresh());
    await select(page, 'Trip plan, by boat');
    const panel = page.locator('#panel');
    await panel.locator('.view-button', { hasText: 'Map' }).click();
    await page.evaluate(() => (location.hash = '#session=trip'));

    // Its two forks (not the fork of a fork), each at the node it was made at, each with its own part only.
    const forks = await hungForks(page, 'trip', 2);
    const byId = Object.fromEntries(forks.map((f) => [f.sessionId, f]));
    assert.deepEqual(forks.map((f) => [f.sessionId, f.kind, f.nodeId, f.title]).sort(),
      [['trip-boat', 'fork', ids[1], 'Trip plan, by boat'], ['trip-fork', 'fork', ids[3], 'Trip plan, by train']]);
    assert.deepEqual(byId['trip-boat'].segs, [{ length: 2, first: null, last: own[1], parent: -1, level: 0 }]);
    assert.equal(byId['trip-fork'].segs.length, 1);
    assert.equal(byId['trip-fork'].segs[0].length, 1);
    // Each hangs below its node's height, right of the map: the boat (made at the 2nd node) above the train (the 4th).
    assert.ok(byId['trip-boat'].anchor.y < byId['trip-fork'].anchor.y, 'the node at depth 2 is above the one at depth 4');
    assert.ok(byId['trip-boat'].oy > byId['trip-boat'].anchor.y && byId['trip-fork'].oy > byId['trip-fork'].anchor.y);
    const mapRight = await page.evaluate(() => ((m) => Math.max(...m.x) * 96 + 40)(document.querySelector('#panel')._map.mapView.model));
    assert.ok(forks.every((f) => f.ox > mapRight), 'the forks are right of the map');

    // Drawn muted: the pixel at the boat fork's last node is the --muted colour (its dot over its line, each at 0.7: 0.91).
    const end = await page.evaluate(() => {
      const v = document.querySelector('#panel')._map.mapView;
      const f = v.hung.forks.find((x) => x.sessionId === 'trip-boat');
      const g = f.segs[0];
      return { x: g.wx, y: g.wy + 48 };
    });
    const pt = await mapPoint(page, end);
    const px = await page.evaluate(({ sx, sy }) => {
      const v = document.querySelector('#panel')._map.mapView;
      const d = devicePixelRatio;
      return [...v.canvas.getContext('2d').getImageData(Math.round(sx * d), Math.round(sy * d), 1, 1).data].slice(0, 3);
    }, pt);
    const [muted, surface] = await page.evaluate(() => ['--muted', '--surface'].map((t) => document.querySelector('#panel')._map.mapView._colours()[t].match(/\d+/g).map(Number)));
    const want = muted.map((m, i) => Math.round(0.91 * m + 0.09 * surface[i]));
    assert.ok(px.every((v, i) => Math.abs(v - want[i]) <= 20), `the fork's node is muted: got ${px}, want ~${want}`);
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.evaluate(() => document.querySelector('#panel')._map.mapView.fit());
      await page.waitForTimeout(200);
      await page.screenshot({ path: artifactPath(`map-forks-desktop-${scheme}.png`) });
    }
    // The phone: the Map tab shows them too.
    await page.setViewportSize(PHONE);
    await page.locator('#tab-map').click();
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.evaluate(() => document.querySelector('#panel')._map.mapView.fit());
      await page.waitForTimeout(200);
      await page.screenshot({ path: artifactPath(`map-forks-phone-${scheme}.png`) });
    }
    assert.equal((await hungForks(page, 'trip', 2)).length, 2);
    await page.setViewportSize(DESKTOP);
    await page.emulateMedia({ colorScheme: 'light' });

    // The map's SVG export hangs them too, muted, with their labels.
    const svg = await page.evaluate(async () => {
      const { exportChoice } = await import('/static/explorer-export.js');
      const file = await exportChoice(window.explorer.tree, 'trip', 'map-svg');
      const doc = new DOMParser().parseFromString(file.text, 'image/svg+xml');
      return { labels: [...doc.querySelectorAll('text')].map((t) => t.textContent).filter((t) => t.startsWith('fork:')).sort(), dashed: doc.querySelectorAll('path[stroke-dasharray="5 4"]').length };
    });
    assert.deepEqual(svg, { labels: ['fork: Trip plan, by boat', 'fork: Trip plan, by train'], dashed: 2 });

    // A click on the boat fork's last node opens that session at that node.
    const q = await mapPoint(page, end);
    await page.mouse.click(q.x, q.y);
    await page.waitForFunction(() => document.querySelector('#panel').sessionId === 'trip-boat');
    await page.waitForFunction((id) => ((p) => p._model.viewNode ?? p._model.value?.cursor)(document.querySelector('#panel')) === id, own[1]);

    // The imported Pi parent hangs its child, whose link names no node (core finds m2 once both are read).
    await page.evaluate(() => (location.hash = '#session=pi-parent'));
    const pi = await hungForks(page, 'pi-parent', 1);
    assert.deepEqual(pi.map((f) => [f.sessionId, f.kind, f.nodeId]), [['pi-child', 'import', 'm2']]);
    assert.deepEqual(pi[0].segs, [{ length: 1, first: 'x3', last: 'x3', parent: -1, level: 0 }]);
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});
