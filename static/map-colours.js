// The colours the canvases draw with (map-view.js, list-minimap.js,
// map-family.js) and the map exports take (explorer-export.js): the
// theme's tokens (theme.css) resolved for an element's colour scheme, or,
// on a screen in forced colors (Windows High Contrast), the system colours
// that replace them — a canvas's pixels are not forced by the browser, and
// a token read back through an element under forced colors is one colour.

/** The theme tokens the map's canvas reads (theme.css). */
export const TOKENS = ["--bg", "--surface", "--text", "--muted", "--accent", "--mark", "--pref", "--border", "--guide", ...[0, 1, 2, 3, 4, 5, 6, 7].map((i) => `--branch-${i}`)];

/** The media query of forced colors. */
export const FORCED_COLORS = "(forced-colors: active)";

/**
 * The system colour standing for each token under forced colors: the
 * background Canvas, lines, nodes and text CanvasText, the cursor's path,
 * the cursor and the previewed node Highlight, the preferred path
 * LinkText, what is dimmed (counts, hidden branches) GrayText.
 */
const SYSTEM = { "--bg": "Canvas", "--surface": "Canvas", "--text": "CanvasText", "--muted": "GrayText", "--accent": "Highlight", "--mark": "Highlight", "--pref": "LinkText", "--border": "CanvasText", "--guide": "GrayText" };

/**
 * The computed colours of theme tokens, as a canvas takes them ("rgb(…)"):
 * a token's value may be light-dark(…), which only an element resolves, so
 * each is set as the colour of `probe` (an element in the same tree) and
 * read back. The probe is left out of forced colors, so these are the
 * theme's own colours there too (an exported file keeps them).
 * @param {HTMLElement} probe @param {string[]} tokens names such as "--accent"
 * @returns {Record<string, string>}
 */
export function resolveColours(probe, tokens) {
  probe.style.forcedColorAdjust = "none";
  const out = {};
  for (const t of tokens) {
    probe.style.color = `var(${t})`;
    out[t] = getComputedStyle(probe).color;
  }
  return out;
}

/**
 * The colours a canvas on the screen draws with: resolveColours's, or
 * under forced colors each token's system colour (SYSTEM; a branch's
 * colour is CanvasText), resolved through `probe` the same way, with
 * `forced: true` (not enumerable) in the result.
 * @param {HTMLElement} probe @param {string[]} tokens
 * @returns {Record<string, string> & {forced?: boolean}}
 */
export function screenColours(probe, tokens) {
  if (!globalThis.matchMedia?.(FORCED_COLORS).matches) return resolveColours(probe, tokens);
  probe.style.forcedColorAdjust = "none";
  const out = {};
  for (const t of tokens) {
    probe.style.color = SYSTEM[t] ?? "CanvasText";
    // Opaque: a system colour may carry alpha (Chromium's Highlight is 80% on Linux), and
    // drawn over a node it would blend into a colour that is none of the system's.
    out[t] = getComputedStyle(probe).color.replace(/^rgba\(([^,]+), ([^,]+), ([^,]+), [^)]+\)$/, "rgb($1, $2, $3)");
  }
  return Object.defineProperty(out, "forced", { value: true }); // not enumerated: Object.values gives the colours
}

/**
 * How a branch's line and nodes are painted: in its colour, dimmed when it
 * is hidden — at 35% alpha, or in GrayText under forced colors (a colour
 * at part alpha is no system colour).
 * @param {Record<string, string> & {forced?: boolean}} col from screenColours
 * @param {number} c the branch's colour index (map-model.js branchColour)
 * @param {boolean} hidden
 * @returns {{colour: string, alpha: number}}
 */
export function branchPaint(col, c, hidden) {
  if (hidden && col.forced) return { colour: col["--muted"], alpha: 1 };
  return { colour: col[`--branch-${c}`], alpha: hidden ? 0.35 : 1 };
}

/**
 * Call fn when the colours a canvas draws with may have changed: forced
 * colors or the preferred colour scheme turned on or off.
 * @param {() => void} fn
 */
export function onColoursChange(fn) {
  for (const q of [FORCED_COLORS, "(prefers-color-scheme: dark)"]) globalThis.matchMedia?.(q).addEventListener("change", fn);
}
