// The files a set of ES modules load, for the tests that check a list of
// files against them (static/sw.js's PRECACHE, package.json's "files").

import fs from 'node:fs';
import path from 'node:path';

/**
 * Relative specifiers a module's source names: static imports and exports,
 * literal dynamic imports, and `new URL("…", import.meta.url)`; block
 * comments and whole-line comments are left out (doc comments quote such forms).
 * @param {string} source
 * @returns {string[]}
 */
export function specifiers(source) {
  const re = /(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|import\s+["']([^"']+)["']|new URL\(\s*["']([^"']+)["']\s*,\s*import\.meta\.url/g;
  const code = source.replace(/\/\*[^]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return [...code.matchAll(re)].map((m) => m[1] ?? m[2] ?? m[3] ?? m[4]).filter((s) => s.startsWith('.'));
}

/**
 * Every file reachable from the entries (absolute paths), the entries
 * included; a file that does not exist yet (built later) is listed but not read.
 * @param {string[]} entries absolute paths
 * @returns {string[]}
 */
export function moduleGraph(entries) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    if (!/\.m?js$/.test(file) || !fs.existsSync(file)) return;
    for (const spec of specifiers(fs.readFileSync(file, 'utf8'))) visit(path.resolve(path.dirname(file), spec));
  };
  for (const entry of entries) visit(entry);
  return [...seen];
}
