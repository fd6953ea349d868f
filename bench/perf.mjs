#!/usr/bin/env node
// The performance benchmark of issue 8: every path a user waits on besides
// search, in headless Chromium on the search benchmark's corpus
// (bench/corpus.mjs), each figure printed beside the floor or peer measured
// in the same run, with the ratio and the target.
//
//   node bench/perf.mjs            100,000 messages (≈22 MB snapshot), a ≈25 MB snapshot file, 1,000,000-node tab
//   node bench/perf.mjs --short    small sizes, one run: proves the harness works (make test)
//   options: --messages N  --file-messages N  --million N  --runs N  --appends N  --no-million  --json FILE
//            --import-mb N  size of the generated exports imported (default 20;
//                           200 for the large-file figure)
//            --only core,files,restore,appends,startup,million,imports   measure only these groups
//            --trace FILE   record a Chromium trace (Playwright tracing, V8 CPU
//                           samples) of the 100,000-message core figures and
//                           print the functions with the most self time
//
// Figures are medians of --runs runs (default 5; heavy ones 3). The machine
// is shared: compare figures within one run, not across runs.

import fs from "node:fs";
import os from "node:os";
import http from "node:http";
import { watchPage } from "../e2e/helpers.mjs";
import { startBench } from "./harness.mjs";
import { median } from "./perf-data.mjs";
import { IMPORT_FORMATS } from "./perf-imports.mjs";
import { wasmSize } from "../tools/wasm-size.mjs";

function parseArgs(argv) {
  const o = { messages: 100000, fileMessages: 100000, million: 1000000, chain: 10000, runs: 5, heavyRuns: 3, appends: 300, importMB: 20, json: null, trace: null, short: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    switch (a) {
      case "--short":
        Object.assign(o, { short: true, messages: 1000, fileMessages: 1000, million: 5000, chain: 1000, runs: 1, heavyRuns: 1, appends: 20, importMB: 1 });
        break;
      case "--messages":
        o.messages = Number(next());
        break;
      case "--file-messages":
        o.fileMessages = Number(next());
        break;
      case "--million":
        o.million = Number(next());
        break;
      case "--no-million":
        o.million = 0;
        break;
      case "--runs":
        o.runs = o.heavyRuns = Number(next());
        break;
      case "--appends":
        o.appends = Number(next());
        break;
      case "--import-mb":
        o.importMB = Number(next());
        break;
      case "--json":
        o.json = next();
        break;
      case "--trace":
        o.trace = next();
        break;
      case "--only":
        o.only = next().split(",");
        break;
      default:
        throw new Error(`unknown option ${a} (see the comment at the top of bench/perf.mjs)`);
    }
  }
  o.only ??= ["core", "files", "restore", "appends", "startup", "million", "imports"];
  o.appendSizes = o.short ? [100, 1000] : [1000, 100000];
  return o;
}

const n = (x) => x.toLocaleString("en");
const ms = (x) => (Number.isFinite(x) ? `${x < 10 ? x.toFixed(1) : Math.round(x)} ms` : "–");
const rate = (x) => (Number.isFinite(x) ? `${Math.round(x)}/s` : "–");
const kb = (x) => `${n(Math.round(x / 1000))} KB`;
const ratio = (x) => (Number.isFinite(x) ? `${x.toFixed(2)}×` : "–");

function table(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
  const line = (r) => r.map((cell, c) => (c === 0 || c === 2 || c === 5 ? String(cell).padEnd(widths[c]) : String(cell).padStart(widths[c]))).join("  ").trimEnd();
  return [line(rows[0]), widths.map((w) => "-".repeat(w)).join("  "), ...rows.slice(1).map(line)].join("\n");
}

/** GET path from the server with Accept-Encoding, resolving to {encoding, bytes}. */
function fetchEncoded(baseURL, path, acceptEncoding) {
  return new Promise((resolve, reject) => {
    http
      .get(new URL(path, baseURL), { headers: { "Accept-Encoding": acceptEncoding } }, (res) => {
        let bytes = 0;
        res.on("data", (d) => (bytes += d.length));
        res.on("end", () => resolve({ encoding: res.headers["content-encoding"] ?? "identity", bytes, status: res.statusCode }));
      })
      .on("error", reject);
  });
}

/** Sizes of js/sessiontree.wasm: raw, gzip -9, brotli q9, and what the server sends. */
async function wasmSizes(baseURL) {
  const size = wasmSize(new URL("../js/sessiontree.wasm", import.meta.url));
  const servedBr = await fetchEncoded(baseURL, "js/sessiontree.wasm", "br, gzip");
  const servedGzip = await fetchEncoded(baseURL, "js/sessiontree.wasm", "gzip");
  return { ...size, servedBr, servedGzip };
}

/** Summarise a Chromium trace: self time per JS function from the V8 CPU profile samples. */
export function traceHotspots(trace, top = 15) {
  const events = trace.traceEvents ?? trace;
  const nodes = new Map();
  const self = new Map();
  let total = 0;
  for (const e of events) {
    if (e.name !== "ProfileChunk") continue;
    const cp = e.args?.data?.cpuProfile;
    for (const node of cp?.nodes ?? []) nodes.set(node.id, node.callFrame);
    for (const id of cp?.samples ?? []) {
      self.set(id, (self.get(id) ?? 0) + 1);
      total++;
    }
  }
  const byName = new Map();
  for (const [id, count] of self) {
    const f = nodes.get(id);
    const name = f ? `${f.functionName || "(anonymous)"} ${f.url ? f.url.replace(/^.*\//, "") + ":" + (f.lineNumber + 1) : ""}`.trim() : `node ${id}`;
    byName.set(name, (byName.get(name) ?? 0) + count);
  }
  return { total, top: [...byName].sort((a, b) => b[1] - a[1]).slice(0, top).map(([name, count]) => ({ name, share: count / total })) };
}

function machine(browserVersion) {
  const cpus = os.cpus();
  return `${cpus[0]?.model ?? "unknown CPU"}, ${cpus.length} cores (shared with other jobs; load average ${os.loadavg()[0].toFixed(1)} at the start), ${Math.round(os.totalmem() / 2 ** 30)} GB, ${os.platform()} ${os.release()}, Chromium ${browserVersion}, Node ${process.version}`;
}

async function newPage(browser, errors, init) {
  const context = await browser.newContext();
  if (init) await context.addInitScript(init);
  const page = watchPage(await context.newPage(), errors);
  return { context, page };
}

async function openPerf(page, baseURL, query = "") {
  await page.goto(baseURL + "bench/perf.html" + query);
  await page.locator("#status", { hasText: "ready" }).waitFor({ timeout: 120000 });
}

/** Explorer start-up with the wasm in the HTTP cache and an empty database. */
async function startup(browser, baseURL, runs, errors) {
  const { context, page } = await newPage(browser, errors);
  const explorerRuns = [];
  const floorRuns = [];
  let wasmTransfer = NaN;
  // First visit fills the HTTP cache (not counted).
  await page.goto(baseURL + "static/");
  await page.waitForFunction(() => document.body.dataset.ready === "true", null, { timeout: 120000 });
  for (let r = 0; r < runs; r++) {
    await openPerf(page, baseURL, "?startup");
    floorRuns.push(await page.evaluate(() => window.startupMs));
    // A first visit's data gone: the database and the note that the demo was made (static/demo.js DEMO_MADE_KEY), so the demo is made again.
    await page.evaluate(() => new Promise((resolve, reject) => {
      localStorage.removeItem("sessiontree.explorer.demo");
      const req = indexedDB.deleteDatabase("sessiontree");
      req.onsuccess = resolve;
      req.onerror = () => reject(req.error);
      req.onblocked = () => reject(new Error("deleting the explorer's database is blocked"));
    }));
    await page.goto(baseURL + "static/");
    await page.waitForFunction(() => document.body.dataset.ready === "true", null, { timeout: 120000 });
    const m = await page.evaluate(() => {
      const ready = performance.getEntriesByName("explorer-ready")[0];
      const wasm = performance.getEntriesByType("resource").find((e) => e.name.endsWith("/sessiontree.wasm"));
      return { ready: ready ? ready.startTime : NaN, transfer: wasm ? wasm.transferSize : NaN };
    });
    explorerRuns.push(m.ready);
    wasmTransfer = m.transfer;
  }
  await context.close();
  return { explorer: median(explorerRuns), floor: median(floorRuns), wasmTransfer };
}

/** init() restoring a persisted session, in freshly loaded pages. */
async function restore(browser, baseURL, o, errors) {
  const { context, page } = await newPage(browser, errors);
  await openPerf(page, baseURL);
  const dbName = "perf-restore";
  const prep = await page.evaluate((a) => window.perf.restorePrepare(a), { messages: o.messages, dbName });
  const runs = [];
  for (let r = 0; r < o.heavyRuns; r++) {
    await openPerf(page, baseURL);
    runs.push(await page.evaluate((a) => window.perf.restoreMeasure(a), { messages: o.messages, dbName }));
  }
  await context.close();
  const med = (k) => median(runs.map((r) => r[k]));
  return { ...prep, ms: med("ms"), rawMs: med("rawMs"), records: runs[0].records, runtimeMs: med("runtimeMs"), readMs: med("readMs"), restoredMs: med("restoredMs"), contextMs: med("contextMs"), storedMs: med("storedMs"), storedNodes: runs[0].storedNodes, storedContextMs: med("storedContextMs"), storedRawMs: med("storedRawMs") };
}

/**
 * Imports of the generated exports (bench/perf-imports.mjs), each in a
 * freshly loaded page (the page's store worker keeps every tree's
 * sessions), runs times per format; medians of the import and of
 * JSON.parse of the same text, and of their ratio within each page.
 */
async function imports(browser, baseURL, o, errors) {
  const out = {};
  for (let r = 0; r < o.heavyRuns; r++) {
    for (const format of IMPORT_FORMATS) {
      const { context, page } = await newPage(browser, errors);
      await openPerf(page, baseURL);
      const f = await page.evaluate((a) => window.perf.importOne(a), { format, mb: o.importMB });
      await context.close();
      (out[format] ??= []).push(f);
    }
  }
  const figures = {};
  for (const [format, runs] of Object.entries(out)) {
    const med = (k) => median(runs.map((f) => f[k]));
    figures[format] = { ...runs[0], parseMs: med("parseMs"), importMs: med("importMs"), againMs: med("againMs"), ratio: median(runs.map((f) => f.importMs / f.parseMs)), againRatio: median(runs.map((f) => f.againMs / f.parseMs)), wasmBytes: Math.max(...runs.map((f) => f.wasmBytes)) };
  }
  return figures;
}

/** One explorer tab with a session of `million` nodes in chains of `chain`. */
async function millionTab(browser, baseURL, o, errors) {
  const { context, page } = await newPage(browser, errors);
  await page.goto(baseURL + "static/");
  await page.waitForFunction(() => document.body.dataset.ready === "true", null, { timeout: 120000 });
  const res = await page.evaluate(async ({ messages, chain }) => {
    const { makeCorpus } = await import("/bench/corpus.mjs");
    const { buildSnapshotText } = await import("/bench/perf-data.mjs");
    let corpus = makeCorpus({ messages, perClass: 1 });
    const query = (corpus.queries.find((q) => q.cls === "typo1-sub") ?? corpus.queries[0]).query;
    let text = buildSnapshotText({ messages, chain, sessionId: "million", corpus });
    corpus = null;
    const out = { snapshotMB: text.length / 1e6 };
    const tree = window.explorer.tree;
    let t = performance.now();
    let env = await tree.call('{"operation":"snapshot.load","sessionId":"million","snapshot":' + text + "}");
    out.loadMs = performance.now() - t;
    if (!env.ok) throw new Error(`snapshot.load: ${env.error.message}`);
    t = performance.now();
    JSON.parse(text);
    out.parseMs = performance.now() - t;
    text = null;
    await window.explorer.refresh();
    t = performance.now();
    env = await tree.search(query, { limit: 50 });
    out.searchMs = performance.now() - t;
    out.searchHits = env.ok ? env.value.hits.length : -1;
    t = performance.now();
    env = await tree.call({ operation: "context", sessionId: "million" });
    out.contextMs = performance.now() - t;
    out.contextMessages = env.ok ? env.value.messages.length : -1;
    const ctxText = await tree.callText({ operation: "context", sessionId: "million" });
    t = performance.now();
    JSON.parse(ctxText);
    out.contextParseMs = performance.now() - t;
    // Tree panel first paint: click the session, wait for its rows, then a frame.
    const button = document.querySelector('li[data-session-id="million"] .session-button');
    if (!button) throw new Error("the session list has no entry for the 1,000,000-node session");
    t = performance.now();
    button.click();
    await new Promise((resolve) => {
      const panel = window.explorer.panel;
      const check = () => (panel._value?.sessionId === "million" && panel.shadowRoot?.querySelector(".row") ? resolve() : setTimeout(check, 5));
      check();
    });
    // The first frame with the rows: timed in its requestAnimationFrame
    // callback (the panel takes the other rows only after that frame).
    await new Promise((resolve) =>
      requestAnimationFrame(() => {
        out.paintMs = performance.now() - t;
        setTimeout(resolve, 0);
      }),
    );
    const panel = window.explorer.panel;
    out.paintRows = panel._value?.rows.length;
    const first = { ...(panel.lastTimings ?? {}) };
    out.panelStartMs = first.startedAt - t; // from the click to the panel's load
    out.panelTreeMs = first.tree;
    out.panelLayoutMs = first.layout;
    // A large session's panel takes the other rows in slices after the
    // first paint (the page stays live meanwhile): when are they all in?
    await panel.updateComplete;
    out.allRowsMs = performance.now() - t;
    out.allRowsCount = panel._value?.rows.length;
    out.slicesMs = panel.lastTimings?.slices;
    out.sliceCount = panel.lastTimings?.sliceCount;
    out.longestSliceMs = panel.lastTimings?.longestSlice;
    window.gc?.();
    out.jsMB = performance.memory ? performance.memory.usedJSHeapSize / 1e6 : NaN;
    // The wasm runs in the store's worker: its memory size is asked there.
    out.wasmMB = ((await tree._debug()).wasmBytes ?? NaN) / 1e6;
    return out;
  }, { messages: o.million, chain: o.chain });
  await context.close();
  return res;
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const { server, browser } = await startBench(["--enable-precise-memory-info", "--js-flags=--expose-gc --max-old-space-size=8192"]);
  const errors = [];
  const started = Date.now();
  const step = (what) => console.error(`perf: ${what} (${Math.round((Date.now() - started) / 1000)} s)`);
  try {
    const res = { options: o, machine: machine(browser.version()) };
    step("wasm sizes");
    res.size = await wasmSizes(server.baseURL);
    const want = (g) => o.only.includes(g);
    if (want("core")) {
      step(`snapshot.load/save and context at ${n(o.messages)} messages`);
      const { context, page } = await newPage(browser, errors);
      await openPerf(page, server.baseURL);
      if (o.trace) await browser.startTracing(page, { path: o.trace, categories: ["devtools.timeline", "v8.execute", "disabled-by-default-v8.cpu_profiler"] });
      res.core = await page.evaluate((a) => window.perf.core(a), { messages: o.messages, runs: o.runs });
      if (o.trace) {
        await browser.stopTracing();
        res.hotspots = traceHotspots(JSON.parse(fs.readFileSync(o.trace, "utf8")), 40);
      }
      await context.close();
    }
    if (want("files")) {
      step(`importFile of a snapshot file of ${n(o.fileMessages)} messages`);
      const { context, page } = await newPage(browser, errors);
      await openPerf(page, server.baseURL);
      res.files = await page.evaluate((a) => window.perf.files(a), { messages: o.fileMessages, runs: o.heavyRuns });
      await context.close();
    }
    if (want("restore")) {
      step(`init() restoring ${n(o.messages)} persisted nodes`);
      res.restore = await restore(browser, server.baseURL, o, errors);
    }
    if (want("appends")) {
      step(`durable appends at ${o.appendSizes.map(n).join(" and ")} nodes`);
      const { context, page } = await newPage(browser, errors);
      await openPerf(page, server.baseURL);
      res.appends = await page.evaluate((a) => window.perf.appends(a), { sizes: o.appendSizes, appends: o.appends, runs: o.heavyRuns, dbName: "perf-appends" });
      await context.close();
    }
    if (want("startup")) {
      step("explorer start-up");
      res.startup = await startup(browser, server.baseURL, o.runs, errors);
    }
    if (want("imports")) {
      step(`imports of ${o.importMB} MB exports`);
      res.imports = await imports(browser, server.baseURL, o, errors);
    }
    if (o.million > 0 && want("million")) {
      step(`a ${n(o.million)}-node tab`);
      res.million = await millionTab(browser, server.baseURL, o, errors);
    }
    if (errors.length) throw new Error(`page errors:\n${errors.join("\n")}`);
    console.log(report(res));
    if (o.json) fs.writeFileSync(o.json, JSON.stringify(res, null, 2) + "\n");
  } finally {
    await browser.close();
    await server.close();
  }
}

/** Format the measurements as the printed table. */
export function report(res) {
  const o = res.options;
  const c = res.core;
  const N = n(o.messages);
  const rows = [["figure", "measured", "floor / peer (same run)", "floor", "ratio", "target"]];
  const row = (figure, measured, peer, floor, r, target) => rows.push([figure, measured, peer, floor, r, target]);
  if (c) {
    const mb = (c.snapshotBytes / 1e6).toFixed(1);
    row(`snapshot.load, ${N} msgs (${mb} MB), object request`, ms(c.loadObject), "JSON.parse of the snapshot text", ms(c.parse), ratio(c.loadObject / c.parse), "≤ 250 ms, ≤ 3.5×");
    row(`snapshot.load, ${N} msgs, text request`, ms(c.loadText), "JSON.parse of the snapshot text", ms(c.parse), ratio(c.loadText / c.parse), "≤ 250 ms, ≤ 3.5×");
    if (c.loadBytes !== undefined) {
      row(`snapshot.load, ${N} msgs, UTF-8 bytes request`, ms(c.loadBytes), "JSON.parse of the snapshot text", ms(c.parse), ratio(c.loadBytes / c.parse), "≤ 250 ms, ≤ 3.5×");
      row(`  (a text request's transcoding alone)`, ms(c.encode), "JSON.parse of the snapshot text", ms(c.parse), ratio(c.encode / c.parse), "TextEncoder.encode");
      row(`first search after the load (scans what is not yet indexed)`, ms(c.firstSearch), "snapshot.load, bytes request", ms(c.loadBytes), ratio(c.firstSearch / c.loadBytes), "–");
    }
    row(`snapshot.save, ${N} msgs, call (parsed)`, ms(c.save), "JSON.stringify of the snapshot", ms(c.stringify), ratio(c.save / c.stringify), "≤ 250 ms, ≤ 3.5×");
    row(`snapshot.save, ${N} msgs, callText`, ms(c.saveText), "JSON.stringify of the snapshot", ms(c.stringify), ratio(c.saveText / c.stringify), c.saveIdentical ? "byte-identical to the loaded text" : "NOT byte-identical");
    row(`context, ${N}-deep path (${(c.contextBytes / 1e6).toFixed(1)} MB), call (parsed)`, ms(c.context), "JSON.parse of its envelope text", ms(c.contextParse), ratio(c.context / c.contextParse), "≤ 50 ms");
    if (c.contextFirst !== undefined) row(`  (the first call after a load, filling the text cache)`, ms(c.contextFirst), "JSON.parse of its envelope text", ms(c.contextParse), ratio(c.contextFirst / c.contextParse), "–");
    if (c.contextText !== undefined) row(`context, ${N}-deep path, callText`, ms(c.contextText), "JSON.parse of its envelope text", ms(c.contextParse), ratio(c.contextText / c.contextParse), "≤ 50 ms");
  }
  const f = res.files;
  if (f) row(`importFile(Blob) of a ${(f.fileBytes / 1e6).toFixed(1)} MB snapshot, new session`, ms(f.importFile), "the Blob read, spliced by hand, call()", ms(f.raw), ratio(f.importFile / f.raw), "≤ 1.5×");
  const r = res.restore;
  if (r) row(`init() restoring ${N} persisted nodes → 1st context`, ms(r.ms), `IndexedDB getAll of its ${n(r.records)} records`, ms(r.rawMs), ratio(r.ms / r.rawMs), "≤ 1,000 ms");
  if (r && Number.isFinite(r.restoredMs)) row(`  (wasm started ${ms(r.runtimeMs)}, IndexedDB read ${ms(r.readMs)}, restored ${ms(r.restoredMs)}, context ${ms(r.contextMs)})`, "", "at ms after init() was called", "", "", "phases");
  if (r && Number.isFinite(r.storedMs)) row(`  its last ${r.storedNodes} messages as stored (storedContext, beside that context: ${ms(r.storedContextMs)})`, ms(r.storedMs), "IndexedDB get of its meta and newest chunk", ms(r.storedRawMs), ratio(r.storedMs / r.storedRawMs), "–");
  if (r) row(`snapshot.load, ${N} msgs, persisted (IndexedDB)`, ms(r.loadPersistedMs), "JSON.parse of the snapshot text", ms(c?.parse), ratio(r.loadPersistedMs / c?.parse), "–");
  const a = res.appends;
  for (const s of a?.sizes ?? []) {
    row(`durable appends awaited in turn, at ${n(s.size)} nodes`, rate(s.seqPerSec), "raw IndexedDB, 1 strict tx per put, in turn", rate(a.rawSeqPerSec), ratio(a.rawSeqPerSec / s.seqPerSec), "≤ 1.25× (≥ 0.8× raw)");
    row(`durable appends issued together, at ${n(s.size)} nodes`, rate(s.togetherPerSec), "raw IndexedDB, 1 strict tx per put, together", rate(a.rawTogetherPerSec), ratio(a.rawTogetherPerSec / s.togetherPerSec), "≥ 2,000/s");
  }
  if (a?.memorySeqPerSec) {
    // A durable append awaited in turn costs at least a raw put and the append itself in memory, one after the other.
    const floor = 1 / (1 / a.rawSeqPerSec + 1 / a.memorySeqPerSec);
    row(`  appends in turn in memory (persist: false)`, rate(a.memorySeqPerSec), "floor: raw put, then that append", rate(floor), `${(floor / a.rawSeqPerSec).toFixed(2)}× raw`, "the floor");
  }
  const st = res.startup;
  if (st) row("explorer start-up, empty, wasm in HTTP cache", ms(st.explorer), "wasm runtime start alone (cached)", ms(st.floor), ratio(st.explorer / st.floor), "≤ 300 ms");
  const z = res.size;
  row("wasm size, gzip -9", kb(z.gzip), "target", "900 KB", ratio(z.gzip / 900000), "≤ 900 KB");
  row("wasm size, brotli q9", kb(z.brotli), "raw", kb(z.raw), ratio(z.brotli / z.raw), "–");
  row(`wasm as served (make serve)`, `${kb(z.servedBr.bytes)} ${z.servedBr.encoding}`, "gzip-only client", `${kb(z.servedGzip.bytes)} ${z.servedGzip.encoding}`, "", "compressed");
  const im = res.imports;
  if (im) {
    const mbps = (f) => `${(f.bytes / 1e3 / f.importMs).toFixed(1)} MB/s`;
    const names = { chatgpt: "ChatGPT", "claude-code": "Claude Code JSONL", pi: "Pi JSONL" };
    const g = im.chatgpt;
    for (const f of Object.values(im)) {
      const what = f.format === "chatgpt" ? `${n(f.sessions)} conversations, ${n(f.nodes)} nodes` : `${n(f.nodes)} nodes`;
      const peer = f.format === "chatgpt" ? "JSON.parse of the same text" : "JSON.parse of each line";
      const target = f.format === "chatgpt" ? "≤ 5×" : g ? `≥ ChatGPT's ${mbps(g)}` : "–";
      row(`import ${names[f.format]}, ${(f.bytes / 1e6).toFixed(0)} MB (${what}), importFile, worker`, `${ms(f.importMs)} (${mbps(f)})`, peer, ms(f.parseMs), ratio(f.ratio), target);
      row(`  the same size again in that worker (optimized code)`, `${ms(f.againMs)} (${mbps({ bytes: f.againBytes, importMs: f.againMs })})`, peer, ms(f.parseMs), ratio(f.againRatio), target);
    }
    if (g) row(`  wasm memory after the ChatGPT import`, `${Math.round(g.wasmBytes / 1e6)} MB`, "the file", `${Math.round(g.bytes / 1e6)} MB`, ratio(g.wasmBytes / g.bytes), "≤ 3×");
  }
  const m = res.million;
  if (m) {
    const M = n(o.million);
    row(`${M}-node tab: snapshot.load (${m.snapshotMB.toFixed(0)} MB), persisted`, ms(m.loadMs), "JSON.parse of the snapshot text", ms(m.parseMs), ratio(m.loadMs / m.parseMs), "no crash");
    row(`${M}-node tab: search (${m.searchHits} hits)`, ms(m.searchMs), "–", "", "", "no crash");
    row(`${M}-node tab: context, ${n(m.contextMessages)}-deep path`, ms(m.contextMs), "JSON.parse of its envelope text", ms(m.contextParseMs), ratio(m.contextMs / m.contextParseMs), "no crash");
    row(`${M}-node tab: tree panel first paint`, ms(m.paintMs), m.panelTreeMs === undefined ? "–" : `of which load starts ${ms(m.panelStartMs)}, session + tree.rows (${n(m.paintRows ?? 0)} rows) ${ms(m.panelTreeMs)}, layout ${ms(m.panelLayoutMs)}`, "", "", "no crash");
    if (m.allRowsMs !== undefined) row(`${M}-node tab: tree panel, every row in`, ms(m.allRowsMs), m.slicesMs === undefined ? "–" : `${n(m.allRowsCount ?? 0)} rows in ${m.sliceCount ?? "?"} slices (longest ${ms(m.longestSliceMs)}); tree.rows calls ${ms(m.slicesMs)}`, "", "", "no crash");
    row(`${M}-node tab: heap`, `${Math.round(m.jsMB)} MB JS + ${Math.round(m.wasmMB)} MB wasm`, "–", "", "", "no crash");
  }
  const lines = [`machine: ${res.machine}`, `medians of ${o.runs} runs (heavy figures: ${o.heavyRuns}); ratio = measured time ÷ floor time (rates: floor rate ÷ measured rate)`, table(rows)];
  if (res.hotspots) {
    lines.push(`Chromium trace: ${res.hotspots.total} CPU samples; most self time:`);
    for (const h of res.hotspots.top) lines.push(`  ${(h.share * 100).toFixed(1).padStart(5)}%  ${h.name}`);
  }
  return lines.join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err) => {
    console.error(`bench: ${err.stack || err}`);
    process.exit(1);
  });
}
