// The map benchmark (issue 25): in headless Chromium, through the public JS
// API with the store in its Worker, each figure beside the list tree's own
// in the same run:
//   - layout: the first `map` of a 100,000-node session with 1,000 branch
//     points (cut into segments and laid out in the Worker, the answer
//     decoded on the page) — beside the first `tree.rows` (the list's rows);
//   - append: an append that extends a run, then `map` given the revision
//     of the map shown (the layout kept: only what grew is answered, and
//     applied as the panel does) — beside the append then `tree.rows` of
//     the same size;
//   - frames: pan and zoom of the map at 100,000 nodes (the drawing of each
//     frame, p95 of FRAMES frames) — beside the list's scroll frames (the
//     rows drawn for each scroll step, p95);
//   - at 1,000,000 nodes: the layout, the append, the frames again, and
//     the session opening its map in the panel with no long task on the
//     page over 50 ms — beside opening its list.
// Times are the median of RUNS runs (p95 for frames). Targets: layout ≤ 300
// ms, append ≤ 5 ms, frame p95 ≤ 18 ms, longest task ≤ 50 ms.
//
//   node bench/map.mjs           (after make build; make bench runs it)
//   BIG=200000 node bench/map.mjs
import { setup, artifactPath } from '../e2e/helpers.mjs';

const NODES = Number(process.env.NODES ?? 100_000);
const EVERY = 100; // a branch point every 100 nodes: 999 of them
const BIG = Number(process.env.BIG ?? 1_000_000);
const RUNS = Number(process.env.RUNS ?? 5);
const FRAMES = Number(process.env.FRAMES ?? 120);

const env = await setup({ contextOptions: { viewport: { width: 1280, height: 800 } } });
try {
  const page = env.page;
  await page.goto(env.baseURL + 'e2e/fixtures/shim.html', { timeout: 180_000 });
  await page.waitForFunction(() => window.sessiontree !== undefined);
  console.error('map bench: layout and appends…');
  const calls = await page.evaluate(async ({ NODES, EVERY, RUNS }) => {
    const { forkedSnapshotText } = await import('/bench/map-data.mjs');
    const tree = await window.sessiontree.init({ persist: false });
    const must = (e, what) => {
      if (!e.ok) throw new Error(`${what}: ${JSON.stringify(e.error)}`);
      return e.value;
    };
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const time = async (fn) => {
      const t = performance.now();
      await fn();
      return performance.now() - t;
    };
    const text = forkedSnapshotText({ nodes: NODES, every: EVERY, sessionId: 'm' });
    const out = { layout: [], rows: [], append: [], appendRows: [] };
    for (let r = 0; r < Math.max(RUNS, 4); r++) {
      // A fresh copy each run, so the first map has nothing kept (m0 … m3 serve the later figures).
      must(await tree.call(`{"operation":"snapshot.load","sessionId":"m${r}","snapshot":${text.replace('"sessionId":"m"', `"sessionId":"m${r}"`)}}`), 'load');
      out.rows.push(await time(async () => must(await tree.call({ operation: 'tree.rows', sessionId: `m${r}` }), 'rows')));
      let v;
      out.layout.push(await time(async () => (v = must(await tree.call({ operation: 'map', sessionId: `m${r}` }), 'map'))));
      out.segments = v.count;
      out.branchPoints = v.count > 0 ? (v.count - 1) / 2 : 0;
    }
    // As the panel reads it after an append: the revision of the map it shows given back, the delta applied.
    const { applyMapDelta } = await import('/static/map-model.js');
    let shown = must(await tree.call({ operation: 'map', sessionId: 'm0' }), 'map');
    out.deltas = 0;
    for (let r = 0; r < RUNS * 4; r++) {
      const msg = { role: 'user', content: `one more ${r}` };
      out.append.push(await time(async () => {
        must(await tree.call({ operation: 'append', sessionId: 'm0', message: msg }), 'append');
        const v = must(await tree.call({ operation: 'map', sessionId: 'm0', revision: shown.revision }), 'map');
        shown = v.delta ? applyMapDelta(shown, v) : v;
        out.deltas += v.delta ? 1 : 0;
      }));
      out.appendRows.push(await time(async () => {
        must(await tree.call({ operation: 'append', sessionId: 'm1', message: msg }), 'append');
        must(await tree.call({ operation: 'tree.rows', sessionId: 'm1' }), 'rows');
      }));
    }
    // The floor of one append (the call alone).
    out.appendOnly = [];
    for (let r = 0; r < RUNS * 4; r++) out.appendOnly.push(await time(async () => must(await tree.call({ operation: 'append', sessionId: 'm2', message: { role: 'user', content: 'x' } }), 'append')));
    window.benchTree = tree;
    if (out.deltas !== out.append.length) throw new Error(`an append that extends a run was answered with the whole map (${out.deltas} deltas of ${out.append.length})`);
    const whole = must(await tree.call({ operation: 'map', sessionId: 'm0' }), 'map');
    if (JSON.stringify({ ...whole, revision: 0 }) !== JSON.stringify({ ...shown, revision: 0 })) throw new Error('the map built from deltas differs from the whole map');
    return { segments: out.segments, layout: median(out.layout), rows: median(out.rows), append: median(out.append), appendRows: median(out.appendRows), appendOnly: median(out.appendOnly) };
  }, { NODES, EVERY, RUNS });

  console.error('map bench: frames…', JSON.stringify(calls));
  const frames = await page.evaluate(async ({ FRAMES }) => {
    const { panelFrames } = await import('/bench/map-data.mjs');
    await import('/static/session-tree-panel.js');
    const panel = document.createElement('session-tree-panel');
    panel.style.cssText = 'display:block;width:1200px;height:760px';
    panel.setAttribute('pane', 'tree');
    document.body.append(panel);
    panel.tree = window.benchTree;
    panel.sessionId = 'm3';
    await panel.updateComplete;
    await new Promise((r) => setTimeout(r, 300));
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    const list = await panelFrames(panel, 'list', FRAMES);
    panel.view = 'map';
    const view = panel._map.mapView;
    for (let t = performance.now(); !view.model; await frame()) if (performance.now() - t > 120_000) throw new Error('the map did not load in 120 s');
    const map = await panelFrames(panel, 'map', FRAMES);
    const nodes = view.model.nodeCount;
    view.fit();
    panel.id = 'bench-panel';
    return { list, map, nodes };
  }, { FRAMES });
  // Screenshots of the 100,000-node map, light and dark (e2e/artifacts/map-100k-*.png).
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => { document.getElementById('bench-panel')._map.mapView.draw(); r(); })));
    await page.locator('#bench-panel').screenshot({ path: artifactPath(`map-100k-${scheme}.png`) });
  }
  await page.evaluate(() => document.getElementById('bench-panel').remove());

  console.error('map bench: a large session opens…', JSON.stringify(frames));
  const big = await page.evaluate(async ({ BIG, EVERY, FRAMES }) => {
    const { forkedSnapshotText } = await import('/bench/map-data.mjs');
    const tree = window.benchTree;
    let text = forkedSnapshotText({ nodes: BIG, every: EVERY * 10, sessionId: 'big' });
    const env = await tree.callText(`{"operation":"snapshot.load","sessionId":"big","snapshot":${text}}`);
    text = null;
    if (!env.startsWith('{"ok":true')) throw new Error(env.slice(0, 200));
    // Layout and append at this size, beside tree.rows (one run each: the first map has nothing kept).
    const { applyMapDelta } = await import('/static/map-model.js');
    const { panelFrames } = await import('/bench/map-data.mjs');
    const time = async (fn) => {
      const t = performance.now();
      await fn();
      return performance.now() - t;
    };
    let shown;
    const sizes = { layout: await time(async () => (shown = (await tree.call({ operation: 'map', sessionId: 'big' })).value)) };
    sizes.rows = await time(async () => tree.call({ operation: 'tree.rows', sessionId: 'big' }));
    const appends = [];
    const appendRows = [];
    for (let r = 0; r < 12; r++) {
      appends.push(await time(async () => {
        await tree.call({ operation: 'append', sessionId: 'big', message: { role: 'user', content: `more ${r}` } });
        const v = (await tree.call({ operation: 'map', sessionId: 'big', revision: shown.revision })).value;
        if (!v.delta) throw new Error('an append at 1,000,000 nodes was answered with the whole map');
        shown = applyMapDelta(shown, v);
      }));
    }
    for (let r = 0; r < 3; r++) {
      appendRows.push(await time(async () => {
        await tree.call({ operation: 'append', sessionId: 'big', message: { role: 'user', content: `rows ${r}` } });
        await tree.call({ operation: 'tree.rows', sessionId: 'big' });
      }));
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    sizes.append = median(appends);
    sizes.appendRows = median(appendRows);
    const open = async (view) => {
      await new Promise((r) => setTimeout(r, 500));
      const tasks = [];
      const obs = new PerformanceObserver((l) => tasks.push(...l.getEntries().map((e) => e.duration)));
      obs.observe({ type: 'longtask' });
      const t = performance.now();
      const panel = document.createElement('session-tree-panel');
      panel.style.cssText = 'display:block;width:1200px;height:760px';
      panel.setAttribute('pane', 'tree');
      panel.setAttribute('view', view);
      document.body.append(panel);
      panel.tree = tree;
      panel.sessionId = 'big';
      await panel.updateComplete;
      for (let t0 = performance.now(); view === 'map' && !panel._map.mapView.model; await new Promise((r) => requestAnimationFrame(r))) if (performance.now() - t0 > 300_000) throw new Error('the map did not load');
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const ms = performance.now() - t;
      await new Promise((r) => setTimeout(r, 100));
      obs.disconnect();
      const frames = await panelFrames(panel, view, FRAMES);
      panel.remove();
      return { ms, longest: Math.max(0, ...tasks), tasks: tasks.length, frames };
    };
    const list = await open('list');
    const map = await open('map');
    return { list, map, sizes };
  }, { BIG, EVERY, FRAMES });

  const f = (x) => x.toFixed(1).padStart(8);
  console.log(`map benchmark (headless Chromium, store in its Worker; median of ${RUNS} runs, frames p95 of ${FRAMES})`);
  console.log(`                                                   map       list tree (peer)   target`);
  console.log(`layout, ${NODES.toLocaleString('en-US')} nodes, ${calls.segments} segments (ms)  ${f(calls.layout)}   ${f(calls.rows)} tree.rows   ≤ 300`);
  console.log(`append that extends a run, then read (ms)   ${f(calls.append)}   ${f(calls.appendRows)} tree.rows   ≤ 5   (floor: the append alone ${calls.appendOnly.toFixed(1)})`);
  console.log(`frame p95, pan and zoom at ${frames.nodes.toLocaleString('en-US')} nodes (ms)   ${f(frames.map)}   ${f(frames.list)} list scroll ≤ 18`);
  const B = BIG.toLocaleString('en-US');
  console.log(`layout, ${B} nodes (ms)                  ${f(big.sizes.layout)}   ${f(big.sizes.rows)} tree.rows`);
  console.log(`append, then read, at ${B} nodes (ms)    ${f(big.sizes.append)}   ${f(big.sizes.appendRows)} tree.rows   ≤ 5`);
  console.log(`frame p95, pan and zoom at ${B} nodes (ms) ${f(big.map.frames)}   ${f(big.list.frames)} list scroll ≤ 18`);
  console.log(`open ${BIG.toLocaleString('en-US')} nodes: longest task (ms)       ${f(big.map.longest)}   ${f(big.list.longest)} list        ≤ 50`);
  console.log(`open ${BIG.toLocaleString('en-US')} nodes: until drawn (ms)        ${f(big.map.ms)}   ${f(big.list.ms)} list`);
} finally {
  await env.close();
}
