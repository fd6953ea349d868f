#!/usr/bin/env node
// Prints the size of a wasm file raw, gzip -9 and brotli (quality 9, what
// tools/serve.mjs sends on the fly): `node tools/wasm-size.mjs js/sessiontree.wasm`.
// make build runs it after every build; bench/perf.mjs imports wasmSize.

import fs from "node:fs";
import zlib from "node:zlib";

/**
 * Sizes of a file in bytes: raw, gzip level 9, brotli quality 9.
 * @param {string|URL} file
 * @returns {{raw: number, gzip: number, brotli: number}}
 */
export function wasmSize(file) {
  const raw = fs.readFileSync(file);
  return {
    raw: raw.length,
    gzip: zlib.gzipSync(raw, { level: 9 }).length,
    brotli: zlib.brotliCompressSync(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }).length,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = process.argv[2] ?? "js/sessiontree.wasm";
  const s = wasmSize(file);
  const kb = (x) => `${Math.round(x / 1000).toLocaleString("en")} KB`;
  console.log(`wasm: ${file} ${s.raw} bytes raw (${kb(s.raw)}), ${s.gzip} gzip -9 (${kb(s.gzip)}), ${s.brotli} brotli q9 (${kb(s.brotli)}); target ≤ 900 KB gzip`);
}
