// The import figures of bench/perf.mjs (issue 15), run in bench/perf.html:
// an export of each format from bench/gen-exports.mjs imported through the
// public API (importFile of a Blob, the explorer's path; the store runs in
// its worker), each beside JSON.parse of the same text in the same page.
// Node can import this module too (the figures need a page).

import { genChatGPT, genClaudeCode, genPi } from "./gen-exports.mjs";

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
 * One import of format's file of mb MB through the shim at shimURL, in a
 * tree with persist: false (so the figure is the import's own work), and
 * JSON.parse of the same text. Run it in a freshly loaded page: the page's
 * one store worker keeps every tree's sessions.
 * @param {{format: string, mb: number, shimURL: string, api?: "importFile"|"importText", status?: HTMLElement}} options
 * @returns {Promise<{format: string, bytes: number, sessions: number, nodes: number, parseMs: number, importMs: number, againMs: number, againBytes: number, wasmBytes: number}>}
 *   wasmBytes: the worker's wasm memory after the import; againMs: a
 *   second import of againBytes (same size, another seed) in the same worker
 */
export async function importFigure({ format, mb, shimURL, api = "importFile", status }) {
  const { gen, lines } = FORMATS.find((f) => f.format === format);
  if (status) status.textContent = `import: generating ${format}`;
  const text = gen({ mb }).join("");
  const bytes = new TextEncoder().encode(text);
  const { init } = await import(shimURL);
  const tree = await init({ persist: false });
  // Warm-up, not counted: a fresh worker's wasm runs baseline code until
  // V8 has compiled its hot functions optimized (a first 1 MB import took
  // 1.9 s, the next 0.24 s on the loaded 2-core machine). Other seeds: its
  // sessions are not the measured file's.
  if (status) status.textContent = `import: warming up`;
  const warm = await tree.importFile(new Blob([gen({ mb: 1, seed: 1 }).join("")]), { format });
  if (!warm.ok) throw new Error(`warm-up import (${format}): ${warm.error.code}: ${warm.error.message}`);
  if (status) status.textContent = `import: ${format}`;
  let t = performance.now();
  parseAll(text, lines);
  const parseMs = performance.now() - t;
  t = performance.now();
  const env = api === "importText" ? await tree.importText(text, format) : await tree.importFile(new Blob([bytes]), { format });
  const importMs = performance.now() - t;
  if (!env.ok) throw new Error(`${api}(${format}): ${env.error.code}: ${env.error.message}`);
  const wasmBytes = (await tree._debug()).wasmBytes;
  // Once more with a file of the same size and another seed, in the same
  // worker: the import with V8's optimized code throughout (on the loaded
  // 2-core machine the first still partly ran baseline code; a 200 MB
  // import, long enough to amortize that, took 2.6× its JSON.parse).
  const again = new Blob([gen({ mb, seed: 99 }).join("")]);
  t = performance.now();
  const env2 = await tree.importFile(again, { format });
  const againMs = performance.now() - t;
  if (!env2.ok) throw new Error(`${api}(${format}), again: ${env2.error.code}: ${env2.error.message}`);
  tree.close();
  const sessions = env.value.sessions;
  return { format, bytes: bytes.length, sessions: sessions.length, nodes: sessions.reduce((n, s) => n + s.nodeCount, 0), parseMs, importMs, againMs, againBytes: again.size, wasmBytes };
}

/** The format names importFigure takes. */
export const IMPORT_FORMATS = FORMATS.map((f) => f.format);
