// The benchmark page: builds the corpus (bench/corpus.mjs), loads it into
// sessiontree (wasm, through the shim, persist: false) and into Fuse.js,
// uFuzzy and MiniSearch, runs the same queries on each and returns the
// measurements. bench/run.mjs drives it in headless Chromium; it exposes
// window.runBench(options).

import { init } from "../js/sessiontree.js";
import Fuse from "../node_modules/fuse.js/dist/fuse.mjs";
import uFuzzy from "../node_modules/@leeoniya/ufuzzy/dist/uFuzzy.mjs";
import MiniSearch from "../node_modules/minisearch/dist/es/index.js";
import { makeCorpus } from "./corpus.mjs";

// Keep the Go wasm instance to read its memory size.
const instantiate = WebAssembly.instantiateStreaming;
WebAssembly.instantiateStreaming = async (...args) => {
  const result = await instantiate(...args);
  window.__wasmMemory = result.instance.exports.mem;
  return result;
};

/** Results shown per query (what a search box would list). */
const LIMIT = 50;

function heap() {
  window.gc?.();
  return performance.memory ? performance.memory.usedJSHeapSize : NaN;
}

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

const stripAccents = (s) => s.normalize("NFKD").replace(/\p{Mn}/gu, "");

/** The libraries: each builds an index and answers a query with message indexes, best first. */
const libraries = {
  async sessiontree(messages, { sessionSize, firstQuery }) {
    const tree = await init({ persist: false });
    const memBefore = window.__wasmMemory?.buffer.byteLength ?? NaN;
    const t0 = performance.now();
    const base = Date.UTC(2026, 0, 1);
    for (let s = 0; s * sessionSize < messages.length; s++) {
      const id = `bench-${s}`;
      const nodes = [];
      const end = Math.min(messages.length, (s + 1) * sessionSize);
      for (let i = s * sessionSize; i < end; i++) {
        const m = messages[i];
        nodes.push({
          id: m.id,
          parentId: i === s * sessionSize ? null : messages[i - 1].id,
          branch: "main",
          kind: "message",
          timestamp: new Date(base + i * 1000).toISOString(),
          message: { role: m.role, content: m.text },
        });
      }
      const env = await tree.call(JSON.stringify({ operation: "snapshot.load", sessionId: id, snapshot: { version: 1, sessionId: id, cursor: messages[end - 1].id, activeBranch: "main", nodes } }));
      if (!env.ok) throw new Error(`snapshot.load failed: ${env.error.message}`);
    }
    const loadMs = performance.now() - t0;
    // The worker builds the search index in the background as sessions
    // load; a search before it is complete scans the rest. Time one such
    // search (the first query of the run), then the wait until the index
    // is complete (from the end of the loads).
    const t1 = performance.now();
    const first = await tree.search(firstQuery, { limit: LIMIT });
    if (!first.ok) throw new Error(`search failed: ${first.error.message}`);
    const duringBuildMs = performance.now() - t1;
    let debug;
    while (!(debug = await tree._debug()).indexComplete) await new Promise((resolve) => setTimeout(resolve, 5));
    const indexMs = performance.now() - t1;
    // The worker's own time in the build's slices (what the build costs,
    // without the gaps between slices or the search above; the tree is new).
    const indexSlicesMs = debug.indexMs;
    const buildMs = loadMs + indexMs;
    const wasmMB = ((window.__wasmMemory?.buffer.byteLength ?? NaN) - memBefore) / 1e6;
    return {
      buildMs,
      extra: { wasmMemoryMB: wasmMB, loadMs, indexMs, indexSlicesMs, duringBuildMs },
      async search(query) {
        const env = await tree.search(query, { limit: LIMIT });
        if (!env.ok) throw new Error(`search failed: ${env.error.message}`);
        return env.value.hits.map((h) => Number(h.nodeId.slice(1)));
      },
    };
  },
  async ufuzzy(messages) {
    const t0 = performance.now();
    const uf = new uFuzzy({ intraMode: 1, unicode: true, interSplit: "[^\\p{L}\\d']+", intraChars: "[\\p{L}\\d']" });
    const haystack = uFuzzy.latinize(messages.map((m) => m.text));
    const buildMs = performance.now() - t0;
    return {
      buildMs,
      haystack,
      async search(query) {
        const [idxs, info, order] = uf.search(haystack, uFuzzy.latinize(query), 1);
        if (!idxs) return [];
        if (info && order) return order.slice(0, LIMIT).map((k) => info.idx[k]);
        return idxs.slice(0, LIMIT);
      },
    };
  },
  async minisearch(messages) {
    const t0 = performance.now();
    const ms = new MiniSearch({
      fields: ["text"],
      processTerm: (term) => stripAccents(term.toLowerCase()),
      searchOptions: { prefix: true, fuzzy: 0.2, combineWith: "AND" },
    });
    ms.addAll(messages.map((m, i) => ({ id: i, text: m.text })));
    const buildMs = performance.now() - t0;
    return {
      buildMs,
      ms,
      async search(query) {
        return ms.search(query).slice(0, LIMIT).map((r) => r.id);
      },
    };
  },
  async fuse(messages) {
    const t0 = performance.now();
    const docs = messages.map((m) => ({ text: m.text }));
    const fuse = new Fuse(docs, { keys: ["text"], ignoreLocation: true, ignoreDiacritics: true });
    const buildMs = performance.now() - t0;
    return {
      buildMs,
      fuse,
      async search(query) {
        return fuse.search(query, { limit: LIMIT }).map((r) => r.refIndex);
      },
    };
  },
};

/**
 * Run the benchmark.
 * @param {{messages: number, perClass: number, libs: string[], queriesPerClass: Record<string, number>, sessionSize: number, corpus?: object, corpusMs?: number}} options
 *   corpus: a corpus built elsewhere ({messages, queries, textBytes, source}, bench/prose.mjs), else bench/corpus.mjs builds one.
 *   queriesPerClass: per library, how many queries of each class to run (Fuse.js is slow).
 */
window.runBench = async (options) => {
  const status = document.getElementById("status");
  status.textContent = "building corpus";
  const t0 = performance.now();
  // The real-prose corpus comes built from Node (bench/prose.mjs reads files).
  const corpus = options.corpus ?? makeCorpus({ messages: options.messages, perClass: options.perClass });
  const corpusMs = options.corpus ? options.corpusMs : performance.now() - t0;
  const out = { messages: corpus.messages.length, textMB: corpus.textBytes / 1e6, corpusMs, queries: corpus.queries.length, source: corpus.source ?? null, libraries: [] };
  const keep = []; // keep every index alive so heap deltas do not shrink
  for (const name of options.libs) {
    status.textContent = `building ${name}`;
    const h0 = heap();
    const lib = await libraries[name](corpus.messages, { ...options, firstQuery: corpus.queries[0].query });
    keep.push(lib);
    // Let garbage collection after the build finish before timing queries
    // (for every library alike): a user does not search within a second of
    // loading. Go's collector in wasm runs on the page's one thread.
    status.textContent = `settling ${name}`;
    await new Promise((resolve) => setTimeout(resolve, options.settleMs ?? 2000));
    const heapMB = (heap() - h0) / 1e6;
    const perClass = options.queriesPerClass[name] ?? options.perClass;
    const picked = [];
    const seen = {};
    for (const q of corpus.queries) {
      seen[q.cls] = (seen[q.cls] ?? 0) + 1;
      if (seen[q.cls] <= perClass) picked.push(q);
    }
    status.textContent = `querying ${name}`;
    // Warm up on one query of each class (not counted).
    const warmed = new Set();
    for (const q of picked) {
      if (!warmed.has(q.cls)) {
        warmed.add(q.cls);
        await lib.search(q.query);
      }
    }
    const times = []; // per query: the fastest of `repeat` runs
    const first = []; // per query: the first run
    const recall = {};
    const classTimes = {};
    const repeat = name === "fuse" ? 1 : options.repeat ?? 1;
    for (const q of picked) {
      let got;
      let best = Infinity;
      for (let k = 0; k < repeat; k++) {
        const t = performance.now();
        got = await lib.search(q.query);
        const ms = performance.now() - t;
        if (k === 0) first.push(ms);
        best = Math.min(best, ms);
      }
      times.push(best);
      (classTimes[q.cls] ??= []).push(best);
      const found = new Set(got);
      const hit = q.truth.filter((i) => found.has(i)).length;
      const r = (recall[q.cls] ??= { found: 0, total: 0 });
      r.found += hit;
      r.total += q.truth.length;
    }
    times.sort((a, b) => a - b);
    first.sort((a, b) => a - b);
    out.libraries.push({
      name,
      buildMs: lib.buildMs,
      heapMB,
      ...lib.extra,
      queries: picked.length,
      p50: percentile(times, 0.5),
      p95: percentile(times, 0.95),
      mean: times.reduce((a, b) => a + b, 0) / times.length,
      repeat,
      firstP50: percentile(first, 0.5),
      firstP95: percentile(first, 0.95),
      classP50: Object.fromEntries(Object.entries(classTimes).map(([k, v]) => [k, percentile(v.sort((a, b) => a - b), 0.5)])),
      classMax: Object.fromEntries(Object.entries(classTimes).map(([k, v]) => [k, Math.max(...v)])),
      recall: Object.fromEntries(Object.entries(recall).map(([k, v]) => [k, v.found / v.total])),
    });
  }
  status.textContent = "done";
  return out;
};

document.getElementById("status").textContent = "ready";
