#!/usr/bin/env node
// The search benchmark: sessiontree (wasm, in the page through the shim)
// against Fuse.js, uFuzzy and MiniSearch on the same deterministic corpus
// (bench/corpus.mjs), all in one headless Chromium page (bench/index.html).
//
//   node bench/run.mjs              100,000 messages, every library
//   node bench/run.mjs --million    1,000,000 messages (Fuse.js skipped unless --libs names it)
//   node bench/run.mjs --short      2,000 messages, few queries: proves the harness works
//   node bench/run.mjs --prose      the real-prose corpus instead (bench/prose.mjs: the
//                                   comments and docs of $(go env GOROOT), 100,000 messages)
//   options: --messages N  --per-class N  --fuse-queries N  --libs a,b,c  --json FILE
//            --repeat N (runs per query, the fastest counts; default 3, Fuse.js 1)
//
// Prints per library: index build ms, query p50/p95 ms, recall per query
// class (share of the planted target messages among the top 50 results),
// heap MB, and sessiontree's speed ratio to each peer (peer p50 / sessiontree
// p50). Needs `make build` first (make bench does it). Timings on a shared
// 2-core machine are noisy: compare within one run.

import fs from "node:fs";
import { startBench } from "./harness.mjs";
import { makeProseCorpus } from "./prose.mjs";

const ALL = ["sessiontree", "ufuzzy", "minisearch", "fuse"];

function parseArgs(argv) {
  const o = { messages: 100000, perClass: 20, fuseQueries: 2, libs: null, json: null, short: false, sessionSize: 1000, repeat: 3, prose: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    switch (a) {
      case "--short":
        Object.assign(o, { short: true, messages: 2000, perClass: 3, fuseQueries: 1, sessionSize: 200, repeat: 1 });
        break;
      case "--prose":
        o.prose = true;
        break;
      case "--million":
        o.messages = 1000000;
        break;
      case "--messages":
        o.messages = Number(next());
        break;
      case "--per-class":
        o.perClass = Number(next());
        break;
      case "--fuse-queries":
        o.fuseQueries = Number(next());
        break;
      case "--libs":
        o.libs = next().split(",");
        break;
      case "--repeat":
        o.repeat = Number(next());
        break;
      case "--json":
        o.json = next();
        break;
      default:
        throw new Error(`unknown option ${a} (see the comment at the top of bench/run.mjs)`);
    }
  }
  o.libs ??= o.messages > 200000 ? ALL.filter((l) => l !== "fuse") : ALL;
  for (const l of o.libs) if (!ALL.includes(l)) throw new Error(`unknown library ${l} (known: ${ALL.join(", ")})`);
  return o;
}

const fmt = (x, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : "–");
const pct = (x) => (Number.isFinite(x) ? `${Math.round(x * 100)}%` : "–");

function table(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
  return rows.map((r) => r.map((cell, c) => (c === 0 ? String(cell).padEnd(widths[c]) : String(cell).padStart(widths[c]))).join("  ")).join("\n");
}

/** Format the page's result as the printed report. */
export function report(res) {
  const lines = [];
  if (res.source) lines.push(`real prose: the comments and docs of ${res.source.goVersion} (${res.source.goFiles.toLocaleString("en")} .go files, ${res.source.docFiles} docs, ${res.source.paragraphs.toLocaleString("en")} paragraphs; bench/prose.mjs)`);
  lines.push(`corpus: ${res.messages.toLocaleString("en")} messages, ${fmt(res.textMB)} MB of text, ${res.queries} queries (generated in ${fmt(res.corpusMs, 0)} ms)`);
  const st = res.libraries.find((l) => l.name === "sessiontree");
  const classes = [...new Set(res.libraries.flatMap((l) => Object.keys(l.recall)))];
  const rows = [["library", "build ms", "p50 ms", "p95 ms", "mean ms", "1st-run p50/p95", "queries", "heap MB", ...classes.map((c) => `recall ${c}`), "st speed (p50)", "st speed (mean)"]];
  for (const l of res.libraries) {
    const heapMB = l.name === "sessiontree" ? `${fmt(l.wasmMemoryMB)} wasm + ${fmt(l.heapMB)} js` : fmt(l.heapMB);
    rows.push([
      l.name,
      fmt(l.buildMs, 0),
      fmt(l.p50, 2),
      fmt(l.p95, 2),
      fmt(l.mean, 2),
      `${fmt(l.firstP50, 2)} / ${fmt(l.firstP95, 2)}`,
      l.repeat > 1 ? `${l.queries}×${l.repeat}` : l.queries,
      heapMB,
      ...classes.map((c) => pct(l.recall[c])),
      st && l !== st ? `${fmt(l.p50 / st.p50)}×` : "",
      st && l !== st ? `${fmt(l.mean / st.mean)}×` : "",
    ]);
  }
  lines.push(table(rows));
  const times = [["p50 / max ms by class", ...classes]];
  for (const l of res.libraries) times.push([l.name, ...classes.map((c) => `${fmt(l.classP50?.[c], 2)} / ${fmt(l.classMax?.[c], 1)}`)]);
  lines.push(table(times));
  if (st?.indexMs !== undefined) {
    lines.push(`sessiontree build = snapshot.load of ${res.messages.toLocaleString("en")} messages (${fmt(st.loadMs, 0)} ms: JSON parse + validation) + the search index, built in the worker after the loads: complete ${fmt(st.indexMs, 0)} ms after them, ${fmt(st.indexSlicesMs, 0)} ms of it in the build's slices (issue 15: ≤ 1,000 ms in the worker)`);
    lines.push(`sessiontree search during the build (scans the not-yet-indexed rest): ${fmt(st.duringBuildMs, 1)} ms; peers' build ms: ${res.libraries.filter((l) => l !== st).map((l) => `${l.name} ${fmt(l.buildMs, 0)}`).join(", ")}`);
  }
  lines.push("p50/p95/mean: per query the fastest of its runs (queries×runs; Fuse.js runs once), which filters out the moments the shared machine takes the core away; 1st-run: the first run of each query alone.");
  lines.push("recall: share of planted target messages among the top 50 results; speed: the peer's time / sessiontree's time.");
  return lines.join("\n");
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const { server, browser } = await startBench(["--enable-precise-memory-info", "--js-flags=--expose-gc"]);
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = [];
    page.on("pageerror", (err) => errors.push(String(err?.stack || err)));
    page.on("console", (msg) => {
      // Chromium asks for /favicon.ico by itself; its 404 is not the page's fault.
      if (msg.type() === "error" && !msg.location()?.url?.endsWith("/favicon.ico")) errors.push(`${msg.text()} (${msg.location()?.url})`);
    });
    await page.goto(server.baseURL + "bench/index.html");
    await page.locator("#status", { hasText: "ready" }).waitFor({ timeout: 60000 });
    const queriesPerClass = { fuse: o.fuseQueries };
    let corpus;
    let corpusMs;
    if (o.prose) {
      const t0 = performance.now();
      corpus = makeProseCorpus({ messages: o.messages, perClass: o.perClass });
      corpusMs = performance.now() - t0;
    }
    console.log(`bench: ${o.messages.toLocaleString("en")} messages; libraries: ${o.libs.join(", ")}${o.libs.includes("fuse") ? ` (Fuse.js runs ${o.fuseQueries} queries per class: it takes about a second each)` : ""}`);
    const res = await page.evaluate((opts) => window.runBench(opts), {
      messages: o.messages,
      perClass: o.perClass,
      libs: o.libs,
      queriesPerClass,
      sessionSize: o.sessionSize,
      settleMs: o.short ? 100 : 2000,
      repeat: o.repeat,
      corpus,
      corpusMs,
    });
    if (errors.length) throw new Error(`page errors:\n${errors.join("\n")}`);
    console.log(report(res));
    if (o.json) fs.writeFileSync(o.json, JSON.stringify(res, null, 2) + "\n");
  } finally {
    await browser.close();
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err) => {
    console.error(`bench: ${err.stack || err}`);
    process.exit(1);
  });
}
