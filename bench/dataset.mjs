// A fine-tuning dataset JSONL — one conversation a line in OpenAI chat
// format, {"messages":[{"role":"user",…},{"role":"assistant",…}]} — of
// 60,000 lines (~55 MB; bench/gen-exports.mjs genDataset) imported two ways, each in its own browser
// context (its own IndexedDB), the store in its Worker and persisted:
// by tree.importFile on the shim page (the API), then again (a re-import:
// nothing added), and by the explorer's picker until its report shows
// (what a person waits for). Prints the rates beside JSON.parse of the
// same bytes in the same run, the wasm memory the import took (every line parsed on the page: the least any
// reader of them can do; the text read outside the timing), the page's
// longest task while each ran, and the explorer report's rows. No figure
// is asserted.
//
//   node bench/dataset.mjs              60,000 lines
//   LINES=10000 node bench/dataset.mjs  another size
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startBench } from "./harness.mjs";
import { genDataset } from "./gen-exports.mjs";

const LINES = Number(process.env.LINES ?? 60000);

/**
 * Write the dataset (once: kept in the system's temporary folder, named by
 * its size); returns its path and bytes.
 * @returns {{file: string, bytes: number}}
 */
function writeDataset() {
  const file = path.join(os.tmpdir(), `sessiontree-dataset-${LINES}.jsonl`);
  if (!fs.existsSync(file)) {
    console.error(`dataset bench: writing ${LINES} lines to ${file}…`);
    fs.writeFileSync(file, genDataset({ lines: LINES }).join(""));
  }
  return { file, bytes: fs.statSync(file).size };
}

/** Start recording the page's long tasks (window.longest() reads the longest since, in ms). */
function watchTasks() {
  window.tasks = [];
  new PerformanceObserver((l) => window.tasks.push(...l.getEntries().map((e) => e.duration))).observe({ type: "longtask" });
  window.longest = () => Math.max(0, ...window.tasks);
}

const { server, browser } = await startBench([]);
try {
  const made = writeDataset();
  const api = await browser.newContext();
  const page = await api.newPage();
  await page.goto(server.baseURL + "e2e/fixtures/shim.html");
  await page.waitForFunction(() => window.sessiontree !== undefined);
  await page.evaluate(() => {
    const input = document.createElement("input");
    input.type = "file";
    input.id = "dataset";
    document.body.append(input);
  });
  await page.setInputFiles("#dataset", made.file);

  console.error("dataset bench: JSON.parse of every line…");
  const floorMs = await page.evaluate(async () => {
    const text = await document.getElementById("dataset").files[0].text(); // outside the timing: the floor is the parse
    const t = performance.now();
    let n = 0;
    for (const line of text.split("\n")) if (line) n += JSON.parse(line).messages.length > 0 ? 1 : 0;
    const ms = performance.now() - t;
    if (n === 0) throw new Error("no lines");
    return ms;
  });

  console.error("dataset bench: importFile, then again…");
  await page.evaluate(watchTasks);
  const imp = await page.evaluate(async () => {
    const tree = await window.sessiontree.init({ dbName: "dataset-bench" });
    const file = document.getElementById("dataset").files[0];
    const run = async () => {
      window.tasks = [];
      const t = performance.now();
      const env = await tree.importFile(file);
      const ms = performance.now() - t;
      await new Promise((r) => setTimeout(r, 200));
      if (!env.ok) throw new Error(`importFile: ${env.error.code}: ${env.error.message}`);
      const added = env.value.sessions.reduce((n, s) => n + s.added, 0);
      return { ms, sessions: env.value.sessions.length, added, warnings: env.value.warnings.length, longest: window.longest() };
    };
    const first = await run();
    const t = performance.now();
    const list = await tree.call({ operation: "sessions" });
    const listMs = performance.now() - t;
    const wasmMB = (await tree._debug()).wasmBytes / 2 ** 20; // wasm memory never shrinks: the import's peak
    const again = await run();
    return { first, again, listed: list.value.length, listMs, wasmMB };
  }, undefined);
  await api.close();

  console.error("dataset bench: the explorer…");
  const ui = await browser.newContext();
  const explorer = await ui.newPage();
  await explorer.goto(server.baseURL + "static/");
  await explorer.waitForSelector('body[data-ready="true"]');
  await explorer.evaluate(watchTasks);
  // From the input's change event (capturing, before the explorer's own
  // listener): not the driver's copy of the file into the page.
  await explorer.evaluate(() => document.addEventListener("change", () => (window.chosenAt = performance.now()), { capture: true, once: true }));
  await explorer.locator("#import-file").setInputFiles(made.file);
  await explorer.locator("#report-title", { hasText: "Imported" }).waitFor({ timeout: 0 });
  const shown = await explorer.evaluate(() => performance.now());
  const t0 = await explorer.evaluate(() => window.chosenAt);
  await explorer.waitForTimeout(1000); // the list's refresh after the report
  const page2 = await explorer.evaluate(() => ({ longest: window.longest(), rows: document.querySelectorAll("#report-sessions li").length, listRows: document.querySelectorAll("#session-list li.session").length, title: document.getElementById("report-title").textContent }));
  await ui.close();

  const mb = made.bytes / 1e6;
  const mbps = (ms) => (mb / (ms / 1000)).toFixed(1);
  const row = (label, ms, extra = "") => console.log(`${label.padEnd(36)} ${ms.toFixed(0).padStart(8)}  ${mbps(ms).padStart(8)}  ${(ms / floorMs).toFixed(2).padStart(7)}×  ${extra}`);
  console.log(`dataset JSONL import (headless Chromium, store in its Worker, persisted): ${LINES.toLocaleString("en-US")} lines, ${mb.toFixed(0)} MB (OpenAI chat format, one conversation a line)`);
  console.log(`                                           ms      MB/s     ratio   page's longest task`);
  row("importFile", imp.first.ms, `${imp.first.longest.toFixed(0)} ms`);
  row("importFile again (adds nothing)", imp.again.ms, `${imp.again.longest.toFixed(0)} ms`);
  row("explorer: file chosen → report", shown - t0, `${page2.longest.toFixed(0)} ms (to 1 s after)`);
  row("JSON.parse of every line (floor)", floorMs);
  console.log(`sessions ${imp.first.sessions} (listed ${imp.listed}, in ${imp.listMs.toFixed(0)} ms), nodes added ${imp.first.added}, warnings ${imp.first.warnings}; again: nodes added ${imp.again.added}; wasm memory after the import ${imp.wasmMB.toFixed(0)} MB`);
  console.log(`explorer: "${page2.title}", report rows ${page2.rows}, session list rows ${page2.listRows}`);
} finally {
  await browser.close();
  await server.close();
}
