// Issue 26's folder benchmark: a folder of coding-agent histories as the
// tools keep them — Codex rollouts (~/.codex/sessions/YYYY/MM/DD/) and
// Claude Code transcripts (~/.claude/projects/<slug>/), half and half, each
// session ~0.5 MB — imported whole by tree.importFiles, the store in its
// Worker and persisted. Prints the import rate beside JSON.parse of the same
// bytes (every line decoded and parsed on the page: the least any reader
// of them can do; each file's text read outside the timing), the page's
// longest task while it ran, and the memory:
// the wasm's and the tab's (renderer RSS). The import runs in batches of
// files (js/folder-import.js), each stored before the next is read, so
// memory follows a batch, not the folder. No figure is asserted.
//
//   node bench/folders.mjs            1,000 MB (2,000 sessions)
//   MB=200 node bench/folders.mjs     another size
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { rendererMB, startBench } from "./harness.mjs";
import { genClaudeCode, genCodex } from "./gen-exports.mjs";

const MB = Number(process.env.MB ?? 1000);
const SESSION_MB = 0.5;
/** Which tools' files: "both" (half and half), "codex" or "claude-code". */
const KINDS = process.env.KINDS ?? "both";


/**
 * Write the folder (once: kept in the system's temporary folder, named by
 * its kinds and size) as the tools lay theirs out; returns its sessions
 * and bytes.
 * @param {string} dir
 * @returns {{sessions: number, bytes: number}}
 */
function writeFolder(dir) {
  const sessions = Math.round(MB / SESSION_MB);
  const done = `${dir}.json`; // beside the folder, not in it
  if (fs.existsSync(done)) return JSON.parse(fs.readFileSync(done, "utf8"));
  console.error(`folders bench: writing ${MB} MB to ${dir}…`);
  fs.rmSync(dir, { recursive: true, force: true });
  let bytes = 0;
  for (let i = 0; i < sessions; i++) {
    const codex = KINDS === "both" ? i % 2 === 0 : KINDS === "codex";
    const text = (codex ? genCodex({ mb: SESSION_MB, seed: 1000 + i }) : genClaudeCode({ mb: SESSION_MB, seed: 5000 + i })).join("");
    const day = String(1 + (i % 28)).padStart(2, "0");
    const file = codex ? path.join(dir, ".codex/sessions/2026/10", day, `rollout-2026-10-${day}T09-00-00-${String(i).padStart(6, "0")}.jsonl`) : path.join(dir, ".claude/projects", `-home-dev-project-${i % 7}`, `${String(i).padStart(8, "0")}-claude.jsonl`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    bytes += Buffer.byteLength(text);
  }
  const made = { sessions, bytes };
  fs.writeFileSync(done, JSON.stringify(made));
  return made;
}

const { server, browser } = await startBench([]);
try {
  const page = await browser.newPage();
  await page.goto(server.baseURL + "e2e/fixtures/shim.html");
  await page.waitForFunction(() => window.sessiontree !== undefined);
  // The folder is written to disk and chosen through an <input webkitdirectory>, as a person
  // opens one: its Files are read from disk (a page holding a gigabyte of Blobs is another test).
  const dir = path.join(os.tmpdir(), `sessiontree-folder-${KINDS}-${MB}`);
  const made = writeFolder(dir);
  await page.evaluate(() => {
    const input = document.createElement("input");
    input.type = "file";
    input.webkitdirectory = true;
    input.id = "folder";
    document.body.append(input);
  });
  await page.setInputFiles("#folder", dir);
  await page.evaluate(() => (window.folder = document.getElementById("folder").files));

  console.error("folders bench: JSON.parse of every line…");
  const floorMs = await page.evaluate(async () => {
    let ms = 0;
    let n = 0;
    for (const f of window.folder) {
      const text = await f.text(); // read outside the timing: the floor is the parse
      const t = performance.now();
      for (const line of text.split("\n")) if (line) n += JSON.parse(line) ? 1 : 0;
      ms += performance.now() - t;
    }
    if (n === 0) throw new Error("no lines");
    return ms;
  });

  console.error("folders bench: importFiles…");
  const imp = await page.evaluate(async () => {
    const tree = await window.sessiontree.init({ dbName: "folders-bench" });
    const tasks = [];
    const obs = new PerformanceObserver((l) => tasks.push(...l.getEntries().map((e) => e.duration)));
    obs.observe({ type: "longtask" });
    let progress = 0;
    const t = performance.now();
    // The page's copies go to the worker (transferred): keep none.
    const entries = window.folder;
    window.folder = null;
    const env = await tree.importFiles(entries, { onProgress: () => progress++ });
    const ms = performance.now() - t;
    await new Promise((r) => setTimeout(r, 200));
    obs.disconnect();
    if (!env.ok) throw new Error(`importFiles: ${env.error.code}: ${env.error.message}`);
    const list = await tree.call({ operation: "sessions" });
    const debug = await tree._debug();
    const wasm = debug.wasmBytes;
    const held = { inUseMB: debug.memory.inUse / 2 ** 20, budgetMB: debug.memory.budget / 2 ** 20, loaded: debug.pager?.inMemory, paged: debug.pager?.paged, evictions: debug.pager?.evictions };
    window.tree = tree;
    return { ms, held, sessions: env.value.sessions.length, listed: list.value.length, skipped: env.value.skipped.length, longest: Math.max(0, ...tasks), progress, wasmMB: wasm / 2 ** 20 };
  });
  const rss = await rendererMB(browser);
  const mbps = (ms) => ((made.bytes / 1e6) / (ms / 1000)).toFixed(1);
  console.log(`folder import (headless Chromium, store in its Worker, persisted): ${made.sessions.toLocaleString("en-US")} sessions, ${(made.bytes / 1e6).toFixed(0)} MB (Codex rollouts and Claude Code transcripts, half and half)`);
  console.log(`                                      ms        MB/s     ratio   target`);
  console.log(`importFiles                      ${imp.ms.toFixed(0).padStart(8)}  ${mbps(imp.ms).padStart(8)}  ${(imp.ms / floorMs).toFixed(2).padStart(7)}×  ≥ 50 MB/s`);
  console.log(`JSON.parse of every line (floor) ${floorMs.toFixed(0).padStart(8)}  ${mbps(floorMs).padStart(8)}`);
  console.log(`sessions imported ${imp.sessions} (listed ${imp.listed}, files skipped ${imp.skipped}); progress events ${imp.progress}`);
  console.log(`page's longest task while importing ${imp.longest.toFixed(0)} ms (target ≤ 50); wasm memory ${imp.wasmMB.toFixed(0)} MB (held ${imp.held.inUseMB.toFixed(0)} MB of a ${imp.held.budgetMB.toFixed(0)} MB budget); renderer RSS ${rss.toFixed(0)} MB`);
  console.log(`sessions loaded in the wasm ${imp.held.loaded}, paged out ${imp.held.paged} (${imp.held.evictions} evictions)`);
} finally {
  await browser.close();
  await server.close();
}
