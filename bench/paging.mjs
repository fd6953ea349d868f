// Issue 24's benchmark: a stored history of N sessions of 100 messages
// (~260 characters each, plus three sessions of 1,000 messages), opened by a
// fresh page. Prints, per size, sessiontree's init() → first page of the
// list newest first (`sessions` with order "updated", limit PAGE) beside
// the paged floor (bench/lazy-floor.js runPage), in a table of its own;
// init() → the whole `sessions` list beside the lazy floor's list (bench/lazy-floor.js: plain JS on
// IndexedDB, measured in the same run on the same records), the ratio, the
// same floor run in a module worker (its start and one round trip added:
// the least a store in a worker can take; bench/lazy-floor.js runInWorker), the
// first `context` of a 1,000-node session beside the floor opening it,
// then the first `context` of another one once the store runs (asked at
// once, and another a second later, as a person chooses one from the list),
// init() → that first context beside the wasm start floor (a worker that
// only starts the wasm and answers one call, nothing stored:
// bench/lazy-floor.js runWasmStart; a first context needs the wasm
// running, so no store on this wasm opens one sooner), and memory with ten
// sessions open: the RSS of every renderer process (from Chromium's
// SystemInfo.getProcessInfo, the browser's own among them: its top
// chrome's WebUI, a spare) and the tab's RSS (the renderer running the
// store's worker: the page and its Worker, issue 24's "tab memory"), each
// beside the same figure with the page loaded before init() (what the
// browser holds without sessiontree), and the wasm memory. No figure is asserted: bench/RESULTS.md keeps them.
// Each size is measured twice: in a fresh browser context (a first visit:
// incognito, its IndexedDB in memory, the wasm compiled anew on every page)
// and in a returning user's browser (a persistent profile of its own: its
// IndexedDB on disk, and V8's cache of the wasm it compiled kept between
// pages; its first visit is not counted), the floors in the same profile.
//
// Without --quick it also times `search` across every session of the last
// run's tree (none opened but the ten above): the first query (it loads
// every paged-out session) and the p50/p95 of ten more, back to back and
// then a second apart (a person reading the hits) with the sessions each
// of those loaded (paged-out sessions keep their search documents, so a
// query loads only the sessions whose text its hits show), beside the time to
// read every stored node record once (bench/lazy-floor.js readEverything:
// the least a search without an index on disk can do), and then, once
// the tree kept its search index in IndexedDB, a fresh page's first query
// and the sessions it loaded, against issue 24's targets (p50 ≤ 10 ms,
// p95 ≤ 50 ms at 1,000,000 nodes).
//
//   node bench/paging.mjs           100, 1,000, 3,000 and 10,000 sessions
//   node bench/paging.mjs --quick   100 and 1,000, returning at 100 (e2e/bench.test.mjs runs it in make test)
//   node bench/paging.mjs --sizes=10000   the sizes given
//   node bench/paging.mjs --no-returning  without the returning user's profile
//   node bench/paging.mjs --runs=7  runs per size (default 3, --quick 2)

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { launchPersistent } from "../e2e/helpers.mjs";
import { profileRenderers, renderers, startBench } from "./harness.mjs";
import { LIST_KEEP_MIN } from "../js/store/list-keep.js";

const quick = process.argv.includes("--quick");
const sizesArg = process.argv.find((a) => a.startsWith("--sizes="));
const SIZES = sizesArg ? sizesArg.slice(8).split(",").map(Number) : quick ? [100, 1000] : [100, 1000, 3000, 10000];
const MESSAGES = 100;
const BIG = 1000;
const runsArg = process.argv.find((a) => a.startsWith("--runs="));
const RUNS = runsArg ? Number(runsArg.slice(7)) : quick ? 2 : 3;
/** The first page of the list newest first: `sessions` with order "updated" and this limit. */
const PAGE = 50;

/**
 * Store sessions `from` … `to - 1` of 100 messages each into database db
 * (the schema an init made), as an import stores them since schema 5: one
 * chunk record of the session's nodes and its meta record.
 */
function writeSessions(page, db, from, to) {
  return page.evaluate(async ({ db, from, to, messages }) => {
    const req = (r) => new Promise((resolve, reject) => ((r.onsuccess = () => resolve(r.result)), (r.onerror = () => reject(r.error))));
    const idb = await req(indexedDB.open(db));
    const tx = idb.transaction(["sessions", "chunks"], "readwrite");
    const utf8 = new TextEncoder();
    const done = new Promise((resolve, reject) => ((tx.oncomplete = resolve), (tx.onabort = () => reject(tx.error))));
    const words = ["branch", "context", "model", "answer", "question", "session", "append", "cursor", "snapshot", "token", "prompt", "reply"];
    for (let i = from; i < to; i++) {
      const id = "s" + i;
      const at = new Date(Date.UTC(2026, 0, 1) + i * 60000).toISOString();
      let parent = null;
      const nodes = [];
      for (let k = 0; k < messages; k++) {
        let text = `session ${i} message ${k}:`;
        for (let w = (i * 7 + k) % 12; text.length < 260; w = (w * 5 + 3) % 12) text += " " + words[w];
        const node = { id: `${id}n${k}`, parentId: parent, branch: "main", kind: "message", timestamp: at, message: { role: k % 2 ? "assistant" : "user", content: text } };
        nodes.push(JSON.stringify(node));
        parent = node.id;
      }
      tx.objectStore("chunks").put(utf8.encode(nodes.join(",\n")), [id, 0]);
      tx.objectStore("sessions").put({ sessionId: id, title: `session ${i}`, cursor: parent, activeBranch: "main", createdAt: at, updatedAt: at, nodeCount: messages, annotationCount: 0, folded: messages, epoch: 0, gen: 1, op: "import" }, id);
    }
    await done;
    idb.close();
  }, { db, from, to, messages: MESSAGES });
}

/** Store the session `id` ("big", "big2") of 1,000 messages as one chunk record. */
function writeBig(page, db, id) {
  return page.evaluate(async ({ db, count, id }) => {
    const req = (r) => new Promise((resolve, reject) => ((r.onsuccess = () => resolve(r.result)), (r.onerror = () => reject(r.error))));
    const idb = await req(indexedDB.open(db));
    const tx = idb.transaction(["sessions", "chunks"], "readwrite");
    const done = new Promise((resolve, reject) => ((tx.oncomplete = resolve), (tx.onabort = () => reject(tx.error))));
    const at = "2025-12-31T00:00:00.000Z";
    const nodes = [];
    for (let k = 0; k < count; k++) nodes.push(JSON.stringify({ id: `${id}-${k}`, parentId: k ? `${id}-${k - 1}` : null, branch: "main", kind: "message", timestamp: at, message: { role: k % 2 ? "assistant" : "user", content: `${id} message ${k} `.padEnd(260, "x") } }));
    tx.objectStore("chunks").put(new TextEncoder().encode(nodes.join(",\n")), [id, 0]);
    tx.objectStore("sessions").put({ sessionId: id, title: id, cursor: `${id}-${count - 1}`, activeBranch: "main", createdAt: at, updatedAt: at, nodeCount: count, annotationCount: 0, folded: count, epoch: 0, gen: 1, op: "import" }, id);
    await done;
    idb.close();
  }, { db, count: BIG, id });
}


const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * The memory columns from the renderers before init() and with ten
 * sessions open (MB): every renderer's sum (the browser's own among them:
 * its top chrome's WebUI, a spare) and the tab's, the renderer running the
 * store's worker (the page's own process), before and after.
 * @param {import("./harness.mjs").Renderer[]} before @param {import("./harness.mjs").Renderer[]} after
 */
function memoryFigures(before, after) {
  const tab = after.filter((x) => x.worker);
  const sum = (rows) => rows.reduce((n, x) => n + x.mb, 0);
  return { mb: sum(after), mbBefore: sum(before), tabMB: sum(tab), tabBefore: sum(before.filter((x) => tab.some((t) => t.pid === x.pid))) };
}

/**
 * Write the history of n sessions in the given browser context and measure
 * it (see the top of this file). A returning user's profile (`returning`:
 * a persistent context, its IndexedDB on disk and V8's cache of compiled
 * wasm kept between pages) gets one visit first that is not counted: a
 * first visit's compile, measured by the fresh contexts.
 * @param {import("playwright-core").BrowserContext} context
 * @param {() => Promise<import("./harness.mjs").Renderer[]>|import("./harness.mjs").Renderer[]} rss the context's renderer processes
 * @returns {Promise<object>} the medians, the memory and the search figures
 */
async function measureSize(context, rss, baseURL, n, returning) {
  const page = await context.newPage();
  await page.goto(baseURL + "e2e/fixtures/shim.html");
  await page.waitForFunction(() => window.sessiontree !== undefined);
  const db = `paging-${n}`;
  await page.evaluate(async (db) => (await window.sessiontree.init({ dbName: db })).close(), db);
  for (let i = 0; i < n; i += 250) await writeSessions(page, db, i, Math.min(n, i + 250));
  await writeBig(page, db, "big");
  await writeBig(page, db, "big2");
  await writeBig(page, db, "big3");
  await page.close();
  if (n + 3 >= LIST_KEEP_MIN) await keptListVisit(context, baseURL, db);
  const stPage = [], floorPage = [], st = [], floor = [], stOpen = [], warmOpen = [], quietOpen = [], floorOpen = [], workerFloor = [], toOpen = [], wasmStart = [], marks = [];
  let mb = 0, mbBefore = 0, tabMB = 0, tabBefore = 0, wasmMB = 0, search = null;
  let before = [];
  const skip = returning ? 1 : 0;
  for (let r = 0; r < RUNS + skip; r++) {
    await settle();
    const p = await context.newPage();
    await p.goto(baseURL + "e2e/fixtures/shim.html");
    await p.waitForFunction(() => window.sessiontree !== undefined);
    if (r === RUNS + skip - 1) before = await rss();
    const t = await p.evaluate(async ({ db, PAGE }) => {
      const t0 = performance.now();
      window.tree = await window.sessiontree.init({ dbName: db });
      const first = await window.tree.call({ operation: "sessions", order: "updated", limit: PAGE });
      const tp = performance.now();
      const list = await window.tree.call({ operation: "sessions" });
      const t1 = performance.now();
      const ctx = await window.tree.call({ operation: "context", sessionId: "big" });
      const t2 = performance.now();
      // Two more 1,000-node sessions never opened, once the store runs: one
      // at once (the store still busy with its start: warm-up, collection),
      // one a second later (a person choosing it from the list).
      const ctx2 = await window.tree.call({ operation: "context", sessionId: "big2" });
      const warm = performance.now() - t2;
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const t3 = performance.now();
      const ctx3 = await window.tree.call({ operation: "context", sessionId: "big3" });
      const quiet = performance.now() - t3;
      if (![first, list, ctx, ctx2, ctx3].every((e) => e.ok) || first.value.length !== PAGE || ![ctx, ctx2, ctx3].every((e) => e.value.messages.length === 1000)) throw new Error("bench: a call failed");
      // Where init → first context goes: the worker's marks (js/local.js), passed to this page.
      const at = (name) => (performance.getEntriesByName(name, "mark").at(-1)?.startTime ?? NaN) - t0;
      const marks = { read: at("sessiontree:read"), runtime: at("sessiontree:runtime"), restored: at("sessiontree:restored"), early: (await window.tree._debug()).firstContexts };
      return { page: tp - t0, list: t1 - t0, open: t2 - t1, warm, quiet, toOpen: t2 - t0, count: list.value.length, marks };
    }, { db, PAGE });
    if (r >= skip) {
      stPage.push(t.page);
      st.push(t.list);
      stOpen.push(t.open);
      warmOpen.push(t.warm);
      quietOpen.push(t.quiet);
      toOpen.push(t.toOpen);
      marks.push(t.marks);
    }
    if (r === RUNS + skip - 1) {
      await p.evaluate(async () => {
        for (let i = 0; i < 10; i++) await window.tree.call({ operation: "context", sessionId: "s" + i });
      });
      ({ mb, mbBefore, tabMB, tabBefore } = memoryFigures(before, await rss()));
      wasmMB = (await p.evaluate(() => window.tree._debug())).wasmBytes / 2 ** 20;
      if (!quick && !returning) search = await measureSearch(p, n);
      if (search) Object.assign(search, await measureKept(context, baseURL, p, db, n));
    }
    await p.close();
    const fl = await measureFloors(context, baseURL, db, n, search && r === RUNS + skip - 1);
    if (r >= skip) {
      floorPage.push(fl.pageMs);
      floor.push(fl.listMs);
      floorOpen.push(fl.openMs);
      workerFloor.push(fl.workerMs);
      wasmStart.push(fl.startMs);
    }
    if (fl.readMs !== undefined) search.readMs = fl.readMs;
  }
  const mark = (name) => median(marks.map((m) => m[name]).filter(Number.isFinite));
  return { n, marks: { read: mark("read"), runtime: mark("runtime"), restored: mark("restored"), early: marks.filter((m) => m.early > 0).length }, stPage: median(stPage), floorPage: median(floorPage), st: median(st), floor: median(floor), workerFloor: median(workerFloor), stOpen: median(stOpen), warmOpen: median(warmOpen), quietOpen: median(quietOpen), floorOpen: median(floorOpen), toOpen: median(toOpen), wasmStart: median(wasmStart), mb, mbBefore, tabMB, tabBefore, wasmMB, search };
}

/**
 * Wait SETTLE_MS before a measured page, sessiontree's or a floor's: the
 * pages closed before it (their workers ending, IndexedDB committing what
 * they wrote last) stay out of its figures, as a visit does not begin
 * while another tab of the site is closing.
 */
const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
const SETTLE_MS = 500;

/**
 * One run of the floors on database db of n sessions (+ 3 big ones), each
 * checked: the paged floor in a page of its own (the second read of a
 * database in one page is the quicker), then in one page the lazy floor
 * (list, then open "big"), the worker floor, the wasm start floor and, when
 * `everything`, the read of every node record (bench/lazy-floor.js).
 * @returns {Promise<{pageMs: number, listMs: number, openMs: number, workerMs: number, startMs: number, readMs?: number}>}
 */
async function measureFloors(context, baseURL, db, n, everything) {
  await settle();
  const f = await context.newPage();
  await f.goto(baseURL + "e2e/fixtures/shim.html");
  const fpPage = await context.newPage();
  await fpPage.goto(baseURL + "e2e/fixtures/shim.html");
  const fp = await fpPage.evaluate(async ({ db, PAGE }) => (await import("/bench/lazy-floor.js")).runPage(db, PAGE), { db, PAGE });
  await fpPage.close();
  if (fp.sessions !== PAGE) throw new Error("bench: the paged floor listed " + fp.sessions + " sessions");
  const ft = await f.evaluate(async (db) => (await import("/bench/lazy-floor.js")).run(db, "big"), db);
  if (ft.messages !== 1000) throw new Error("bench: the floor opened " + ft.messages + " messages");
  const wt = await f.evaluate(async (db) => (await import("/bench/lazy-floor.js")).runInWorker(db), db);
  if (wt.sessions !== n + 3) throw new Error("bench: the worker floor listed " + wt.sessions + " sessions");
  const ws = await f.evaluate(async () => (await import("/bench/lazy-floor.js")).runWasmStart("/js/sessiontree.wasm"));
  const out = { pageMs: fp.pageMs, listMs: ft.listMs, openMs: ft.openMs, workerMs: wt.listMs, startMs: ws.startMs };
  if (everything) out.readMs = (await f.evaluate(async (db) => (await import("/bench/lazy-floor.js")).readEverything(db), db)).readMs;
  await f.close();
  return out;
}

/**
 * One visit of sessiontree to database db (of LIST_KEEP_MIN records or more), not counted, as a user's
 * earlier visit leaves a history sessiontree stored: its worker writes
 * the kept list (js/store/list-keep.js) a while after its start, since
 * the records were written here without it. Waits until it is stored.
 */
async function keptListVisit(context, baseURL, db) {
  const page = await context.newPage();
  await page.goto(baseURL + "e2e/fixtures/shim.html");
  await page.waitForFunction(() => window.sessiontree !== undefined);
  const kept = await page.evaluate(async (db) => {
    const tree = await window.sessiontree.init({ dbName: db });
    await tree.call({ operation: "sessions" });
    const req = (r) => new Promise((resolve, reject) => ((r.onsuccess = () => resolve(r.result)), (r.onerror = () => reject(r.error))));
    for (let t = 0; t < 100; t++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const idb = await req(indexedDB.open(db));
      const keys = await req(idb.transaction("search").objectStore("search").getAllKeys(IDBKeyRange.bound(["list"], ["list", []])));
      idb.close();
      if (keys.length > 0) return true;
    }
    return false;
  }, db);
  await page.close();
  if (!kept) throw new Error("bench: the kept list was not written within 20 s");
}

/**
 * Time `search` across every session of the tree on page p (n stored
 * sessions): the first query, then ten more (a rare pair of words, a typo,
 * two common words, a miss, twice over); each must answer ok.
 * @returns {Promise<{firstMs: number, p50: number, p95: number, wasmMB: number}>}
 */
async function measureSearch(p, n) {
  return p.evaluate(async (n) => {
    const queries = [`session ${Math.floor(n / 2)} message 3`, "snapshto", "branch cursor", `session ${n - 1} message 7`, "zzzz"];
    const times = [];
    const near = []; // back to back: the sessions each query loaded, and the pager's page-outs meanwhile
    for (const query of [queries[0], ...queries, ...queries]) {
      const was = (await window.tree._debug()).pager;
      const t0 = performance.now();
      const env = await window.tree.call({ operation: "search", query, limit: 20 });
      times.push(performance.now() - t0);
      const now = (await window.tree._debug()).pager;
      near.push([now.loaded - was.loaded, now.evictions - was.evictions, now.loadMs - was.loadMs]);
      if (!env.ok) throw new Error(`bench: search ${JSON.stringify(query)} failed: ${env.error.message}`);
    }
    // The same ten again, a second apart, as a person reads the hits
    // between queries: the tab is quiet, and the search index of the
    // sessions still loaded is built meanwhile.
    const paused = [];
    const loads = [];
    for (const query of [...queries, ...queries]) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const before = (await window.tree._debug()).pager.loaded;
      const t0 = performance.now();
      const env = await window.tree.call({ operation: "search", query, limit: 20 });
      paused.push(performance.now() - t0);
      loads.push((await window.tree._debug()).pager.loaded - before);
      if (!env.ok) throw new Error(`bench: search ${JSON.stringify(query)} failed: ${env.error.message}`);
    }
    const each = queries.map((q, i) => [q, Math.round(times[1 + i]), Math.round(paused[i]), near[1 + i]]);
    const rest = times.slice(1).sort((a, b) => a - b);
    paused.sort((a, b) => a - b);
    const d = await window.tree._debug();
    const wasmMB = d.wasmBytes / 2 ** 20;
    const through = { batches: d.pager.batches, loadMs: d.pager.loadMs, takeMs: d.pager.takeMs, outMs: d.pager.batchOutMs, indexMs: d.indexMs };
    loads.sort((a, b) => a - b);
    return { loadsP50: loads[Math.floor(loads.length / 2)], loadsMax: loads.at(-1), firstMs: times[0], p50: rest[Math.floor(rest.length / 2)], p95: rest[Math.ceil(rest.length * 0.95) - 1], pausedP50: paused[Math.floor(paused.length / 2)], pausedP95: paused[Math.ceil(paused.length * 0.95) - 1], wasmMB, through, each };
  }, n);
}

/**
 * Once page p's tree has kept its search index (LocalTree keptSaves), time
 * a fresh page's first search across every session (init, then the query
 * measureSearch starts with, once a first call has waited for the
 * worker and its wasm to start), which reads the kept index and loads
 * only the sessions of its hits, and count the sessions it loaded.
 * @returns {Promise<{keptWaitMs: number, keptFirstMs: number, keptLoads: number}>}
 */
async function measureKept(context, baseURL, p, db, n) {
  const t0 = Date.now();
  while (!((await p.evaluate(() => window.tree._debug())).keptSaves >= 1)) {
    if (Date.now() - t0 > 300_000) throw new Error("bench: the search index was not kept within 300 s");
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const keptWaitMs = Date.now() - t0;
  await p.evaluate(() => window.tree.close());
  const q = await context.newPage();
  await q.goto(baseURL + "e2e/fixtures/shim.html");
  await q.waitForFunction(() => window.sessiontree !== undefined);
  const r = await q.evaluate(async ({ db, n }) => {
    window.tree = await window.sessiontree.init({ dbName: db });
    // init() answers before the worker and its wasm have started: a call
    // that needs the wasm waits for them, timed apart from the search.
    const t = performance.now();
    await window.tree.call({ operation: "trash.list" });
    const startMs = performance.now() - t;
    const t0 = performance.now();
    const env = await window.tree.call({ operation: "search", query: `session ${Math.floor(n / 2)} message 3`, limit: 20 });
    const ms = performance.now() - t0;
    if (!env.ok || env.value.hits.length === 0) throw new Error("bench: the search with the kept index failed");
    const d = await window.tree._debug();
    return { keptFirstMs: ms, keptLoads: d.pager.loaded, keptRead: { ...d.keptRead, pagerMs: d.pager.loadMs, startMs } };
  }, { db, n });
  await q.evaluate(() => window.tree.close());
  await q.close();
  return { keptWaitMs, ...r };
}

const f = (x) => x.toFixed(0);

/** The table's row of size n's measures m (measureSize), after prefix. */
function sizeRow(prefix, n, m) {
  return `${prefix}${n} | ${n * MESSAGES + 3 * BIG} | ${f(m.st)} | ${f(m.floor)} | ${(m.st / m.floor).toFixed(1)}x | ${f(m.workerFloor)} | ${(m.st / m.workerFloor).toFixed(1)}x | ${f(m.stOpen)} | ${f(m.floorOpen)} | ${(m.stOpen / m.floorOpen).toFixed(1)}x | ${f(m.warmOpen)} | ${(m.warmOpen / m.floorOpen).toFixed(1)}x | ${f(m.quietOpen)} | ${(m.quietOpen / m.floorOpen).toFixed(1)}x | ${f(m.toOpen)} | ${f(m.wasmStart)} | ${(m.toOpen / m.wasmStart).toFixed(1)}x | ${f(m.mb)} | ${f(m.mbBefore)} | ${f(m.wasmMB)} | ${f(m.tabMB)} | ${f(m.tabBefore)}`;
}

/** Where init() → first context went at size n (the worker's marks in m), after prefix. */
function whereLine(prefix, n, m) {
  return `${prefix}at ${n} sessions, ms after init(): meta records read ${f(m.marks.read)}, wasm runtime started ${f(m.marks.runtime)}, sessions handed to core ${f(m.marks.restored)}, first context answered ${f(m.toOpen)}, before the stubs (js/first-context.js) in ${m.marks.early} of ${RUNS} runs`;
}

const { server, browser } = await startBench([]);
try {
  console.log(`sessions paged on demand: ${RUNS} runs per size (medians), ${MESSAGES} messages of ~260 characters a session, plus three of ${BIG}`);
  console.log("sessions | nodes | init→sessions ms | lazy floor ms | ratio | worker floor ms | ratio | first context (1,000 nodes) ms | floor open ms | ratio | another 1,000-node session opened at once ms | ratio | another a second later ms | ratio | init→first context ms | wasm start floor ms | ratio | every renderer's RSS MB (10 open) | every renderer's RSS MB before init | wasm MB | tab RSS MB (10 open: the renderer running the store's worker) | the tab's RSS MB before init");
  const searches = [], where = [], measured = [];
  for (const n of SIZES) {
    const context = await browser.newContext();
    const m = await measureSize(context, () => renderers(browser), server.baseURL, n, false).finally(() => context.close());
    measured.push(m);
    if (m.search) searches.push([n, m.search]);
    where.push(whereLine("", n, m));
    console.log(sizeRow("", n, m));
  }
  console.log(`\nthe first page of the list, newest first (sessions with order "updated", limit ${PAGE}), beside the paged floor (the newest ${PAGE} meta records read from the "updated" index backwards); target: ≤ 1.5x the floor, and flat (the largest size within 1.5x of the smallest)`);
  console.log("page | sessions | init→first page ms | paged floor ms | ratio | init→first page / the smallest size's");
  for (const m of measured) console.log(`page | ${m.n} | ${f(m.stPage)} | ${f(m.floorPage)} | ${(m.stPage / m.floorPage).toFixed(1)}x | ${(m.stPage / measured[0].stPage).toFixed(1)}x`);
  console.log("\nwhere init() → first context goes (medians of the worker's marks):");
  for (const line of where) console.log(line);
  if (searches.length > 0) {
    console.log("\nsearch across every session (no index on disk: the first query loads every session; paged-out sessions keep their documents in the index, so a later query loads only the sessions its hits show; targets at 1,000,000 nodes: p50 ≤ 10 ms, p95 ≤ 50 ms)");
    console.log("sessions | nodes | first query ms | p50 ms | p95 ms (10 more, back to back) | p50 ms | p95 ms (10 more, 1 s apart) | sessions loaded a query p50 / max (1 s apart) | read every node record once (floor) ms | wasm MB after | index kept after s | next page's first query ms (index kept) | sessions it loaded");
    for (const [n, s] of searches) console.log(`${n} | the first query read ${s.through.batches} batches: reads ${s.through.loadMs.toFixed(0)} ms (restored in core ${s.through.takeMs.toFixed(0)} ms), page-outs ${s.through.outMs.toFixed(0)} ms; index built in the background ${s.through.indexMs.toFixed(0)} ms (all queries)`);
    for (const [n, s] of searches) console.log(`${n} | each query's first time, back to back / 1 s apart (ms): ${s.each.map(([q, a, b]) => `${JSON.stringify(q)} ${a} / ${b}`).join(", ")}; back to back, sessions each loaded / paged out (ms loading): ${s.each.map(([, , , [l, e, ms]]) => `${l} / ${e} (${ms.toFixed(0)})`).join(", ")}`);
    for (const [n, s] of searches) console.log(`${n} | a fresh page: init() to the wasm started ${s.keptRead?.startMs.toFixed(0)} ms (not in its first query's figure); kept index ${s.keptRead?.bytes ?? 0} bytes, read ${s.keptRead?.readMs.toFixed(0)} ms, taken by core ${s.keptRead?.loadMs.toFixed(0)} ms, then the sessions of its hits loaded in ${s.keptRead?.pagerMs.toFixed(0)} ms`);
    for (const [n, s] of searches) console.log(`${n} | ${n * MESSAGES + 3 * BIG} | ${s.firstMs.toFixed(0)} | ${s.p50.toFixed(0)} | ${s.p95.toFixed(0)} | ${s.pausedP50.toFixed(0)} | ${s.pausedP95.toFixed(0)} | ${s.loadsP50} / ${s.loadsMax} | ${s.readMs.toFixed(0)} | ${s.wasmMB.toFixed(0)} | ${(s.keptWaitMs / 1000).toFixed(0)} | ${s.keptFirstMs.toFixed(0)} | ${s.keptLoads}`);
  }
  console.log(`\na returning user's browser: a persistent profile per size (IndexedDB on disk; V8 keeps the wasm it compiled between pages, as a visitor's browser does), its first visit not counted, ${RUNS} runs after it (medians), the floors measured in the same profile; same columns`);
  const returning = [];
  for (const n of process.argv.includes("--no-returning") ? [] : quick ? SIZES.slice(0, 1) : SIZES) {
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), "sessiontree-paging-"));
    const context = await launchPersistent(profile);
    const m = await measureSize(context, () => profileRenderers(profile), server.baseURL, n, true).finally(async () => {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    });
    returning.push(whereLine("returning, ", n, m));
    console.log(sizeRow("returning ", n, m));
  }
  for (const line of returning) console.log(line);
} finally {
  await browser.close();
  await server.close();
}
