// The chat-turn benchmark (issue 15 item 6): the loop a chat frontend runs on
// every turn, `append` then `context`, on a path 10,000 and 100,000 messages
// deep, and the first `context` after a load, through the public JS API
// (store in its Worker) in headless Chromium, beside the seed's own design
// written as a plain JS Map tree in the same page (bench/js-tree.mjs).
// Turns: the median of the mean turn of batches of 4, TURNS turns after a
// first batch (performance.now() counts in 0.1 ms steps here, too coarse
// for one turn; a median keeps the shared machine's pauses out); the ratio
// is ours ÷ the plain tree's. Two floors: two calls through the Worker of a
// read that does almost nothing (what the loop's two round trips cost), and
// the page's share alone of a first context (decoding its text and making
// its message objects, no wasm, no worker): what any store that keeps its
// data off the page's thread pays at least. The same turn with the store
// in the page's own thread (init({worker: false})) is measured too.
//
//   node bench/turn.mjs            (after make build; make bench runs it)
//   TURNS=20 DEPTHS=1000,10000 node bench/turn.mjs
import { setup } from '../e2e/helpers.mjs';

const DEPTHS = (process.env.DEPTHS ?? '10000,100000').split(',').map(Number);
const TURNS = Number(process.env.TURNS ?? 40);
/** Turns timed together (the first batch warms up). */
const BATCH = 4;

const env = await setup();
try {
  const page = env.page;
  await page.goto(env.baseURL + 'e2e/fixtures/shim.html');
  await page.waitForFunction(() => window.sessiontree !== undefined);
  const rows = [];
  for (const depth of DEPTHS) {
    const r = await page.evaluate(async ({ depth, turns, BATCH }) => {
      const { buildSnapshot, median } = await import('/bench/perf-data.mjs');
      const { PlainTree } = await import('/bench/js-tree.mjs');
      const { snapshot } = buildSnapshot({ messages: depth, sessionId: 'turn' });
      const persistedSnapshot = { ...snapshot, sessionId: 'turn-p' };
      const msg = (k, role) => ({ role, content: `turn ${k}: a message about as long as a short chat turn, asking the model one more thing` });
      const out = { depth };
      const must = (e, what) => {
        if (!e.ok) throw new Error(`${what}: ${JSON.stringify(e.error)}`);
        return e.value;
      };
      for (const mode of ['memory', 'persisted', 'page']) {
        // page: in memory, the store in the page's own thread (init({worker: false})).
        const persist = mode === 'persisted';
        const tree = await window.sessiontree.init({ persist, dbName: `turn-${depth}`, worker: mode !== 'page' });
        const id = persist ? 'turn-p' : 'turn';
        // Warm-up on a small session, so the first context measured is not the page's first.
        must(await tree.call({ operation: 'snapshot.load', sessionId: 'warm', snapshot: buildSnapshot({ messages: 1000, sessionId: 'warm' }).snapshot }), 'warm-up');
        must(await tree.call({ operation: 'context', sessionId: 'warm' }), 'warm-up');
        must(await tree.call({ operation: 'snapshot.load', sessionId: id, snapshot: persist ? persistedSnapshot : snapshot }), 'snapshot.load');
        let t = performance.now();
        const first = must(await tree.call({ operation: 'context', sessionId: id }), 'context');
        const firstMs = performance.now() - t;
        if (first.messages.length !== depth) throw new Error(`context has ${first.messages.length} messages`);
        const batches = [];
        for (let k = 0; k < turns + BATCH; k++) {
          if (k % BATCH === 0) t = performance.now();
          must(await tree.call({ operation: 'append', sessionId: id, message: msg(k, k % 2 ? 'assistant' : 'user') }), 'append');
          const ctx = must(await tree.call({ operation: 'context', sessionId: id }), 'context');
          if (ctx.messages.length !== depth + k + 1) throw new Error(`context has ${ctx.messages.length} messages after ${k + 1} appends`);
          if (k % BATCH === BATCH - 1 && k >= BATCH) batches.push((performance.now() - t) / BATCH);
        }
        out[mode] = { firstMs, turnMs: median(batches) };
        if (mode === 'memory') {
          // The floor of two calls through the Worker: two round trips of a
          // read that does almost nothing (the session's counts), timed as the turns are.
          const hops = [];
          for (let k = 0; k < turns + BATCH; k++) {
            if (k % BATCH === 0) t = performance.now();
            must(await tree.call({ operation: 'session', sessionId: id }), 'session');
            must(await tree.call({ operation: 'session', sessionId: id }), 'session');
            if (k % BATCH === BATCH - 1 && k >= BATCH) hops.push((performance.now() - t) / BATCH);
          }
          out.hops = median(hops);
        }
        tree.close();
      }
      const warm = new PlainTree();
      const warmSnapshot = buildSnapshot({ messages: 1000, sessionId: 'warm' }).snapshot;
      warm.load(warmSnapshot.nodes, warmSnapshot.cursor);
      warm.currentPath();
      const plain = new PlainTree();
      plain.load(snapshot.nodes, snapshot.cursor);
      let t = performance.now();
      const path = plain.currentPath();
      const firstMs = performance.now() - t;
      if (path.length !== depth) throw new Error(`plain path has ${path.length} messages`);
      const batches = [];
      for (let k = 0; k < turns + BATCH; k++) {
        if (k % BATCH === 0) t = performance.now();
        plain.append(msg(k, k % 2 ? 'assistant' : 'user'));
        const p = plain.currentPath();
        if (p.length !== depth + k + 1) throw new Error('plain path length');
        if (k % BATCH === BATCH - 1 && k >= BATCH) batches.push((performance.now() - t) / BATCH);
      }
      out.plain = { firstMs, turnMs: median(batches) };
      // The floor of any store off the page's thread: the page's share
      // alone of a first context — decoding its texts (one UTF-8 buffer)
      // and making its message objects — with no wasm and no worker.
      const texts = path.map((m) => (typeof m.content === 'string' ? m.content : ''));
      const bytes = new TextEncoder().encode(texts.join(''));
      const ends = new Int32Array(texts.length);
      texts.reduce((at, t, i) => (ends[i] = at + t.length), 0);
      const floors = [];
      for (let run = 0; run < 5; run++) {
        t = performance.now();
        const all = new TextDecoder().decode(bytes);
        const messages = new Array(texts.length);
        for (let i = 0, at = 0; i < texts.length; at = ends[i++]) messages[i] = Object.freeze({ role: path[i].role, content: all.slice(at, ends[i]) });
        floors.push(performance.now() - t);
        if (messages[texts.length - 1].content !== texts[texts.length - 1]) throw new Error('floor texts differ');
      }
      out.floor = { firstMs: median(floors), mb: bytes.length / 1e6 };
      return out;
    }, { depth, turns: TURNS, BATCH });
    rows.push(r);
  }
  const f = (ms) => `${ms < 10 ? ms.toFixed(2) : ms.toFixed(1)} ms`;
  const line = (what, ours, peer, target) => console.log(`${what.padEnd(58)} ${f(ours).padStart(10)}   plain JS Map tree ${f(peer).padStart(10)}   ${(ours / peer).toFixed(2).padStart(6)}×   ${target}`);
  for (const r of rows) {
    const d = r.depth.toLocaleString('en-US');
    line(`chat turn (append + context), ${d}-deep, in memory`, r.memory.turnMs, r.plain.turnMs, 'target ≤ 1.5×');
    line(`chat turn (append + context), ${d}-deep, persisted`, r.persisted.turnMs, r.plain.turnMs, '–');
    line(`  floor through the Worker: two calls of a near-empty read`, r.hops, r.plain.turnMs, 'two round trips');
    line(`chat turn, ${d}-deep, in memory, store in the page's thread`, r.page.turnMs, r.plain.turnMs, 'init({worker: false})');
    line(`first context after a load, ${d}-deep, in memory`, r.memory.firstMs, r.plain.firstMs, 'target ≤ 2×');
    line(`first context after a load, ${d}-deep, persisted`, r.persisted.firstMs, r.plain.firstMs, '–');
    line(`  floor off the page's thread: decode ${r.floor.mb.toFixed(1)} MB, make the objects`, r.floor.firstMs, r.plain.firstMs, 'the page\'s share alone');
  }
  if (env.errors.length) throw new Error(env.errors.join('\n'));
} finally {
  await env.close();
}
