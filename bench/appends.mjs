// Append-cost benchmark (issue 7): persisting one append must cost the same
// at 1,000 and at 100,000 nodes in the session. In headless Chromium through
// the shim: for each size a session is loaded with that many nodes (one
// snapshot.load), then APPENDS appends are made one after another, each
// awaited (one IndexedDB commit per append), and again all issued at once
// (batched into few commits). Prints appends/s per size and the ratio, plus
// the time init() takes to restore the sessions after a reload.
//
//   node bench/appends.mjs            (after make build; make bench runs it)
//   APPENDS=500 node bench/appends.mjs
import { setup } from '../e2e/helpers.mjs';

const SIZES = [1000, 100000];
const APPENDS = Number(process.env.APPENDS ?? 300);

const env = await setup();
try {
  const page = env.page;
  await page.goto(env.baseURL + 'e2e/fixtures/shim.html');
  await page.waitForFunction(() => window.sessiontree !== undefined);
  await page.evaluate(async () => {
    window.tree = await window.sessiontree.init({ dbName: 'bench-appends' });
  });
  const rows = [];
  for (const size of SIZES) {
    const r = await page.evaluate(async ({ size, appends }) => {
      const id = 'bench-' + size;
      const nodes = [];
      for (let i = 0; i < size; i++) {
        nodes.push({
          id: 'b' + i,
          parentId: i ? 'b' + (i - 1) : null,
          branch: 'main',
          kind: 'message',
          timestamp: '2026-11-29T12:00:00.000Z',
          message: { role: i % 2 ? 'assistant' : 'user', content: `message ${i} of the benchmark session, about the length of a short chat turn` },
        });
      }
      let t = performance.now();
      const loaded = await window.tree.call({ operation: 'snapshot.load', sessionId: id, snapshot: { version: 1, sessionId: id, cursor: 'b' + (size - 1), activeBranch: 'main', nodes } });
      if (!loaded.ok) throw new Error(JSON.stringify(loaded.error));
      const loadMs = performance.now() - t;
      const msg = (k) => ({ operation: 'append', sessionId: id, message: { role: 'user', content: `appended ${k}` } });
      for (let k = 0; k < 20; k++) await window.tree.call(msg(k)); // warm up
      t = performance.now();
      for (let k = 0; k < appends; k++) {
        const e = await window.tree.call(msg(k));
        if (!e.ok) throw new Error(JSON.stringify(e.error));
      }
      const seqMs = performance.now() - t;
      t = performance.now();
      const all = [];
      for (let k = 0; k < appends; k++) all.push(window.tree.call(msg(k)));
      for (const e of await Promise.all(all)) if (!e.ok) throw new Error(JSON.stringify(e.error));
      const batchMs = performance.now() - t;
      return { size, loadMs, seq: (appends * 1000) / seqMs, batch: (appends * 1000) / batchMs };
    }, { size, appends: APPENDS });
    rows.push(r);
    console.log(`appends at ${String(size).padStart(6)} nodes: ${r.seq.toFixed(0).padStart(6)} appends/s awaited one by one, ${r.batch.toFixed(0).padStart(6)} appends/s issued together (snapshot.load of ${size} nodes: ${r.loadMs.toFixed(0)} ms)`);
  }
  console.log(`append cost ratio, ${SIZES[1]} vs ${SIZES[0]} nodes (1.00 = flat): awaited ${(rows[0].seq / rows[1].seq).toFixed(2)}, issued together ${(rows[0].batch / rows[1].batch).toFixed(2)}`);
  await page.reload();
  await page.waitForFunction(() => window.sessiontree !== undefined);
  const initMs = await page.evaluate(async () => {
    const t = performance.now();
    window.tree = await window.sessiontree.init({ dbName: 'bench-appends' });
    return performance.now() - t;
  });
  const total = SIZES.reduce((a, b) => a + b, 0) + SIZES.length * (20 + 2 * APPENDS);
  console.log(`init() restoring ${total} stored nodes (wasm load included): ${initMs.toFixed(0)} ms`);
  if (env.errors.length) throw new Error(env.errors.join('\n'));
} finally {
  await env.close();
}
