// The map of a large session in <session-tree-panel view="map">: the panel
// leaves the session's rows unread while the map shows (their fill waits
// for the list), a click on a node inside a run still previews that node
// (its id asked of the store), an append is answered with what grew (the
// map's revision given back, the delta applied: the panel's map equals the
// whole map), and showing the list reads every row.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './helpers.mjs';

const NODES = 60_000; // above the panel's WINDOW_NODES (50,000)

test('a large session in the map view: rows left unread, a node inside a run previewed, an append read as a delta, the list fills when shown', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1280, height: 800 } } });
  try {
    const { page, baseURL, errors } = env;
    await page.goto(baseURL + 'e2e/fixtures/shim.html', { timeout: 120_000 });
    await page.waitForFunction(() => window.sessiontree !== undefined);
    await page.evaluate(async (NODES) => {
      const { forkedSnapshotText } = await import('/bench/map-data.mjs');
      await import('/static/session-tree-panel.js');
      const tree = await window.sessiontree.init({ persist: false });
      const env = await tree.callText(`{"operation":"snapshot.load","sessionId":"big","snapshot":${forkedSnapshotText({ nodes: NODES, every: 1000, sessionId: 'big' })}}`);
      if (!env.startsWith('{"ok":true')) throw new Error(env.slice(0, 300));
      window.mapAnswers = [];
      const call = tree.call.bind(tree);
      tree.call = async (r) => {
        const e = await call(r);
        if (r?.operation === 'map' && r.sessionId === 'big') window.mapAnswers.push(e.ok ? (e.value.delta ? 'delta' : 'whole') : e.error.code);
        return e;
      };
      const panel = document.createElement('session-tree-panel');
      panel.id = 'p';
      panel.style.cssText = 'display:block;width:1200px;height:760px';
      panel.setAttribute('pane', 'tree');
      panel.setAttribute('view', 'map');
      document.body.append(panel);
      panel.tree = tree;
      panel.sessionId = 'big';
      window.bigTree = tree;
    }, NODES);
    await page.waitForFunction(() => document.getElementById('p')._map.mapView.model?.sessionId === 'big', null, { timeout: 120_000 });
    await page.evaluate(() => document.getElementById('p')._loader.idle);
    const state = await page.evaluate(() => {
      const p = document.getElementById('p');
      return { partial: p._model.partial, rows: p._model.value.rows.length, count: p._model.value.count, segments: p._map.mapView.model.count };
    });
    assert.ok(state.partial !== null, 'the rows are not filled while the map shows');
    assert.equal(state.count, NODES);
    assert.ok(state.rows <= 400, `only the first window of rows is read (${state.rows})`);
    assert.equal(state.segments, 2 * (NODES / 1000 - 1) + 1);

    // A click on the 201st node of the first run (n0 … n500): its id is not among the rows read.
    const at = await page.evaluate(() => {
      const v = document.getElementById('p')._map.mapView;
      const m = v.model;
      if (m.first[0] !== 'n0' || m.length[0] !== 501) throw new Error(`first run: ${m.first[0]} × ${m.length[0]}`);
      v._centre({ seg: 0, off: 200 }, (10 * 2 * 500) / 48);
      v.draw();
      const x = 40 + m.x[0] * 96;
      const y = 40 + m.y[0] * 84 + (200 / 500) * 48;
      const s = v.toScreen({ x, y });
      const r = v.canvas.getBoundingClientRect();
      return { x: r.left + s.x, y: r.top + s.y, known: document.getElementById('p')._model.rowById.has('n200') };
    });
    assert.equal(at.known, false);
    await page.mouse.click(at.x, at.y);
    await page.waitForFunction(() => document.getElementById('p')._model.viewNode === 'n200', null, { timeout: 30_000 });
    // The context previews n0 … n200: the window holds its end, the path's depth counts it whole; no jump.
    const ctx = await page.evaluate(async () => {
      const p = document.getElementById('p');
      const c = p._model.contextRows(3);
      const s = await window.bigTree.call({ operation: 'session', sessionId: 'big' });
      return { total: c.total, hidden: c.hidden, ids: c.rows.map((r) => r.id), cursor: s.value.cursor, partial: p._model.partial !== null };
    });
    assert.deepEqual(ctx, { total: 201, hidden: 198, ids: ['n198', 'n199', 'n200'], cursor: 'n59999', partial: true });

    // An append at the cursor extends its run: the panel asks with its revision and applies the delta.
    const before = await page.evaluate(() => window.mapAnswers.length);
    await page.evaluate(() => window.bigTree.call({ operation: 'append', sessionId: 'big', message: { role: 'user', content: 'one more' } }));
    await page.waitForFunction((n) => document.getElementById('p')._map.mapView.model?.nodeCount === n + 1, NODES, { timeout: 60_000 });
    const after = await page.evaluate(async () => {
      const p = document.getElementById('p');
      const whole = await window.bigTree.call({ operation: 'map', sessionId: 'big' });
      const strip = (v) => JSON.stringify({ ...v, revision: null });
      return { answers: window.mapAnswers, same: strip(p._map._map) === strip(whole.value), last: p._map._map.last.at(-1) };
    });
    assert.deepEqual(after.answers.slice(before, -1), ['delta'], 'the append was read as a delta');
    assert.equal(after.same, true, 'the map built from the delta equals the whole map');

    // The list: every row is read.
    await page.evaluate(() => (document.getElementById('p').view = 'list'));
    await page.waitForFunction((n) => {
      const p = document.getElementById('p');
      return p._model.partial === null && p._model.value?.rows.length === n + 1;
    }, NODES, { timeout: 120_000 });
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});
