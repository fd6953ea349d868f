// The chat-turn benchmark (issue 15 item 6): the loop a chat frontend runs on
// every turn, `append` then `context`, on a path 10,000 and 100,000 messages
// deep, and the first `context` after a load, through the public JS API
// (store in its Worker) in headless Chromium, beside the seed's own design
// written as a plain JS Map tree in the same page (bench/js-tree.mjs).
// Medians of TURNS turns; the ratio is ours ÷ the plain tree's.
//
//   node bench/turn.mjs            (after make build; make bench runs it)
//   TURNS=20 DEPTHS=1000,10000 node bench/turn.mjs
import { setup } from '../e2e/helpers.mjs';

const DEPTHS = (process.env.DEPTHS ?? '10000,100000').split(',').map(Number);
const TURNS = Number(process.env.TURNS ?? 40);

const env = await setup();
try {
  const page = env.page;
  await page.goto(env.baseURL + 'e2e/fixtures/shim.html');
  await page.waitForFunction(() => window.sessiontree !== undefined);
  const rows = [];
  for (const depth of DEPTHS) {
    const r = await page.evaluate(async ({ depth, turns }) => {
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
      for (const persist of [false, true]) {
        const tree = await window.sessiontree.init({ persist, dbName: `turn-${depth}` });
        const id = persist ? 'turn-p' : 'turn';
        must(await tree.call({ operation: 'snapshot.load', sessionId: id, snapshot: persist ? persistedSnapshot : snapshot }), 'snapshot.load');
        let t = performance.now();
        const first = must(await tree.call({ operation: 'context', sessionId: id }), 'context');
        const firstMs = performance.now() - t;
        if (first.messages.length !== depth) throw new Error(`context has ${first.messages.length} messages`);
        const times = [];
        for (let k = 0; k < turns + 5; k++) {
          t = performance.now();
          must(await tree.call({ operation: 'append', sessionId: id, message: msg(k, k % 2 ? 'assistant' : 'user') }), 'append');
          const ctx = must(await tree.call({ operation: 'context', sessionId: id }), 'context');
          if (k >= 5) times.push(performance.now() - t);
          if (ctx.messages.length !== depth + k + 1) throw new Error(`context has ${ctx.messages.length} messages after ${k + 1} appends`);
        }
        out[persist ? 'persisted' : 'memory'] = { firstMs, turnMs: median(times) };
        tree.close();
      }
      const plain = new PlainTree();
      plain.load(snapshot.nodes, snapshot.cursor);
      let t = performance.now();
      const path = plain.currentPath();
      const firstMs = performance.now() - t;
      if (path.length !== depth) throw new Error(`plain path has ${path.length} messages`);
      const times = [];
      for (let k = 0; k < turns + 5; k++) {
        t = performance.now();
        plain.append(msg(k, k % 2 ? 'assistant' : 'user'));
        const p = plain.currentPath();
        if (k >= 5) times.push(performance.now() - t);
        if (p.length !== depth + k + 1) throw new Error('plain path length');
      }
      out.plain = { firstMs, turnMs: median(times) };
      return out;
    }, { depth, turns: TURNS });
    rows.push(r);
  }
  const f = (ms) => `${ms < 10 ? ms.toFixed(2) : ms.toFixed(1)} ms`;
  const line = (what, ours, peer, target) => console.log(`${what.padEnd(58)} ${f(ours).padStart(10)}   plain JS Map tree ${f(peer).padStart(10)}   ${(ours / peer).toFixed(2).padStart(6)}×   ${target}`);
  for (const r of rows) {
    const d = r.depth.toLocaleString('en-US');
    line(`chat turn (append + context), ${d}-deep, in memory`, r.memory.turnMs, r.plain.turnMs, 'target ≤ 1.5×');
    line(`chat turn (append + context), ${d}-deep, persisted`, r.persisted.turnMs, r.plain.turnMs, '–');
    line(`first context after a load, ${d}-deep, in memory`, r.memory.firstMs, r.plain.firstMs, 'target ≤ 2×');
    line(`first context after a load, ${d}-deep, persisted`, r.persisted.firstMs, r.plain.firstMs, '–');
  }
  if (env.errors.length) throw new Error(env.errors.join('\n'));
} finally {
  await env.close();
}
