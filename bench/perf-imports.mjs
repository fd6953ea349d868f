// The import figures of bench/perf.mjs (issue 15), run in bench/perf.html:
// an export of each format from bench/gen-exports.mjs imported through the
// public API (importFile of a Blob, the explorer's path; the store runs in
// its worker), each beside JSON.parse of the same text in the same page.
// Node can import this module too (the figures need a page).

import { genChatGPT, genClaudeCode, genPi } from "./gen-exports.mjs";
import { median } from "./perf-data.mjs";

/** The formats measured: name, generator and whether JSON.parse takes the whole text. */
const FORMATS = [
  { format: "chatgpt", gen: genChatGPT, lines: false },
  { format: "claude-code", gen: genClaudeCode, lines: true },
  { format: "pi", gen: genPi, lines: true },
];

/** Parse text as JSON.parse would see it: one document, or one call per line. */
function parseAll(text, lines) {
  if (!lines) return JSON.parse(text);
  let n = 0;
  for (const line of text.split("\n")) if (line !== "") n += JSON.parse(line) ? 1 : 0;
  return n;
}

/**
 * Import each format's file of mb MB runs times, each into a fresh tree
 * (persist: false, so the figure is the import's own work) started with
 * init from the shim at shimURL, and time JSON.parse of the same text.
 * @param {{mb: number, runs: number, shimURL: string, status?: HTMLElement}} options
 * @returns {Promise<object[]>} per format: {format, bytes, sessions, nodes,
 *   parseMs, importMs, importTextMs, wasmBytes, bytesPerSec, parseBytesPerSec}
 *   (ms medians; wasmBytes the worker's wasm memory after the last import)
 */
export async function importFigures({ mb, runs, shimURL, status }) {
  const { init } = await import(shimURL);
  const out = [];
  for (const { format, gen, lines } of FORMATS) {
    if (status) status.textContent = `import: generating ${format}`;
    let text = gen({ mb }).join("");
    const bytes = new TextEncoder().encode(text);
    const parse = [];
    const imp = [];
    const impText = [];
    let last = null;
    let wasmBytes = NaN;
    for (let r = 0; r < runs; r++) {
      if (status) status.textContent = `import: ${format}, run ${r + 1}`;
      let t = performance.now();
      parseAll(text, lines);
      parse.push(performance.now() - t);
      let tree = await init({ persist: false });
      const file = new Blob([bytes]);
      t = performance.now();
      last = await tree.importFile(file, { format });
      imp.push(performance.now() - t);
      if (!last.ok) throw new Error(`importFile(${format}): ${last.error.code}: ${last.error.message}`);
      wasmBytes = (await tree._debug()).wasmBytes;
      tree.close();
      tree = await init({ persist: false });
      t = performance.now();
      const env = await tree.importText(text, format);
      impText.push(performance.now() - t);
      if (!env.ok) throw new Error(`importText(${format}): ${env.error.code}: ${env.error.message}`);
      tree.close();
    }
    const sessions = last.value.sessions;
    const f = {
      format,
      bytes: bytes.length,
      sessions: sessions.length,
      nodes: sessions.reduce((n, s) => n + s.nodeCount, 0),
      parseMs: median(parse),
      importMs: median(imp),
      importTextMs: median(impText),
      wasmBytes,
    };
    f.bytesPerSec = (f.bytes * 1000) / f.importMs;
    f.parseBytesPerSec = (f.bytes * 1000) / f.parseMs;
    out.push(f);
    text = null;
  }
  return out;
}
