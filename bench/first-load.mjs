// The first load of a stored session, with and without the wasm's
// warm-up (handle.warmLoad, wasm/warm.go): V8 compiles a wasm function the
// first time it is called, so a tab's first context of a paged-out session
// also compiles the code of a load, a restore and a context. The Pager
// has that code compiled on a scratch store while IndexedDB reads the
// session (js/store/pager.js _read); "without" marks the warm-up as done
// before the call, so the call compiles as it goes. Each run is a fresh
// page of one browser (the wasm's code cache as a returning visitor has
// it), its store in the page's thread (worker: false, the same code the
// Worker runs), a 1,000-node session of ~260-character messages stored,
// the tree started and quiet (300 ms) before the call.
//
//   node bench/first-load.mjs [--runs=8]

import { startBench } from "./harness.mjs";

const runsArg = process.argv.find((a) => a.startsWith("--runs="));
const RUNS = runsArg ? Number(runsArg.slice(7)) : 8;
const { server, browser } = await startBench([]);
const context = await browser.newContext();
try {
  const setup = await context.newPage();
  await setup.goto(server.baseURL + "e2e/fixtures/shim.html");
  await setup.waitForFunction(() => window.sessiontree !== undefined);
  await setup.evaluate(async () => {
    const tree = await window.sessiontree.init({ dbName: "first-load", worker: false });
    const nodes = [];
    for (let k = 0; k < 1000; k++) nodes.push({ id: `big${k}`, parentId: k ? `big${k - 1}` : null, branch: "main", kind: "message", timestamp: "2026-01-01T00:00:00.000Z", message: { role: k % 2 ? "assistant" : "user", content: `message ${k} `.padEnd(260, "x") } });
    const env = await tree.call({ operation: "snapshot.load", sessionId: "big", snapshot: { version: 1, sessionId: "big", cursor: "big999", activeBranch: "main", nodes } });
    if (!env.ok) throw new Error(`bench: the session was not stored: ${env.error.message}`);
    await tree.close();
  });
  await setup.close();
  const ms = { with: [], without: [] };
  for (let r = 0; r < RUNS; r++) {
    for (const mode of ["with", "without"]) {
      const page = await context.newPage();
      await page.goto(server.baseURL + "e2e/fixtures/shim.html");
      await page.waitForFunction(() => window.sessiontree !== undefined);
      ms[mode].push(await page.evaluate(async (mode) => {
        const tree = await window.sessiontree.init({ dbName: "first-load", worker: false });
        await new Promise((resolve) => setTimeout(resolve, 300));
        if (mode === "without") tree._pager.warmed = true;
        const t0 = performance.now();
        const env = await tree.call({ operation: "context", sessionId: "big" });
        const t1 = performance.now();
        if (env.value?.messages.length !== 1000) throw new Error("bench: the context did not answer 1,000 messages");
        return t1 - t0;
      }, mode));
      await page.close();
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const w = median(ms.with), wo = median(ms.without);
  console.log(`first context of a stored 1,000-node session, ${RUNS} fresh pages each (medians): with the warm-up ${w.toFixed(0)} ms, without ${wo.toFixed(0)} ms (${(w / wo).toFixed(2)}x)`);
  console.log(`  with: ${ms.with.map((x) => x.toFixed(0)).join(", ")}; without: ${ms.without.map((x) => x.toFixed(0)).join(", ")}`);
} finally {
  await browser.close();
  await server.close();
}
