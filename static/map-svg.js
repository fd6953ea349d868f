// The map as SVG: the whole session's map (map-model.js) as one <svg>
// element built with createElementNS and textContent (never markup from
// strings), for the explorer's "Map (SVG)" and "Map (PNG)" exports and for
// the share file, where it is inlined and drawn offline with no script.
// Drawn as the canvas draws it at zoom 1: segments, connectors, the
// cursor's and the preferred path, nodes at the ends of each run, branch
// names at their tips, labels, ★, hidden branches dimmed with their count,
// and the sessions made from this one hung beside it, muted (map-forks.js).

import { HIDDEN_ROOT, ON_PATH, PREFERRED, SEGMENT_HEIGHT, branchColour, nodePoint, segmentTop, segmentX } from "./map-model.js";
import { forkLabel, forkPoint } from "./map-forks.js";

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * Build the map's SVG.
 * @param {object} m a model from buildMapModel
 * @param {{doc?: Document, colour?: (token: string) => string, hung?: {forks: object[]}|null}} [options] doc: the document to build in
 *   (default: the page's); colour: a theme token ("--accent", "--branch-3") to an SVG paint — by
 *   default a class per token (`stroke--accent`), which share-viewer.css maps to the theme's
 *   var(--accent) (the share file); an export passes resolved colours; hung: the forks hung beside
 *   the map (map-forks.js hangForks; m's world grown to hold them), drawn muted as the canvas does;
 *   hidden: false leaves out the hidden branches (a share file without them), the cursor too if it is in one
 * @returns {SVGSVGElement} as wide as the world, or wider where a label runs past it (textWidth), in px
 */
export function mapSVG(m, { doc = document, colour = (t) => `token:${t}`, hung = null, hidden: drawHidden = true } = {}) {
  const make = (tag, attrs, text) => {
    const e = doc.createElementNS(SVG_NS, tag);
    // A theme paint ("token:--accent") becomes a class ("stroke--accent"), which the share
    // file's stylesheet maps to var(--accent): presentation attributes do not read var(), and
    // a style attribute would need 'unsafe-inline' under the pages' CSP.
    const classes = [];
    for (const [k, v] of Object.entries(attrs)) {
      if ((k === "fill" || k === "stroke") && String(v).startsWith("token:")) classes.push(`${k}${String(v).slice(6)}`);
      else e.setAttribute(k, String(v));
    }
    if (classes.length > 0) e.setAttribute("class", classes.join(" "));
    if (text !== undefined) e.textContent = text;
    return e;
  };
  // Labels may run past the last branch's line: the picture widens to hold them (textWidth).
  let right = 0;
  const text = (attrs, s) => {
    right = Math.max(right, attrs.x + textWidth(s, attrs["font-size"] ?? 12));
    return make("text", attrs, s);
  };
  const svg = make("svg", { xmlns: SVG_NS, role: "img", "font-family": "system-ui, sans-serif" });
  svg.append(make("title", {}, `Map of session ${m.sessionId}: ${m.nodeCount} node${m.nodeCount === 1 ? "" : "s"}, ${m.branches.length} branch${m.branches.length === 1 ? "" : "es"}`));
  svg.append(make("rect", { width: "100%", height: "100%", fill: colour("--surface") }));
  const paths = make("g", { "stroke-linecap": "round", fill: "none" });
  const lines = make("g", { "stroke-linecap": "round", fill: "none", "stroke-width": 2.5 });
  const dots = make("g", {});
  const texts = make("g", { "font-size": 12 });
  for (let s = 0; s < m.count; s++) {
    const x = segmentX(m, s);
    const top = segmentTop(m, s);
    const len = m.length[s];
    const bottom = nodePoint(m, s, len - 1).y;
    const p = m.parent[s];
    const from = p < 0 ? null : nodePoint(m, p, m.length[p] - 1);
    const d = `${from ? `M${from.x} ${from.y}L${x} ${top}` : ""}M${x} ${top}L${x} ${bottom}`;
    const branch = colour(`--branch-${branchColour(m.branch[s])}`);
    const hidden = (m.flags[s] & HIDDEN_ROOT) !== 0;
    if (hidden && !drawHidden) continue;
    if ((m.flags[s] & (ON_PATH | PREFERRED)) !== 0) {
      const onPath = (m.flags[s] & ON_PATH) !== 0;
      const end = onPath && m.cursor?.segment === s ? nodePoint(m, s, m.cursor.offset).y : bottom;
      const pd = `${from ? `M${from.x} ${from.y}L${x} ${top}` : ""}M${x} ${top}L${x} ${end}`;
      paths.append(make("path", { d: pd, stroke: colour(onPath ? "--accent" : "--pref"), "stroke-opacity": onPath ? 0.35 : 0.3, "stroke-width": 9 }));
    }
    lines.append(make("path", { d, stroke: branch, ...(hidden ? { "stroke-opacity": 0.35, "stroke-dasharray": "4 4" } : {}) }));
    for (const off of len > 1 ? [0, len - 1] : [0]) {
      const n = nodePoint(m, s, off);
      dots.append(make("circle", { cx: n.x, cy: n.y, r: 3, fill: branch, ...(hidden ? { "fill-opacity": 0.35 } : {}) }));
    }
    const at = (off) => nodePoint(m, s, off);
    if (len > 2) texts.append(text({ x: x + 8, y: top + SEGMENT_HEIGHT / 2 + 4, fill: colour("--muted"), "font-size": 11 }, len.toLocaleString("en-US")));
    if (hidden) {
      texts.append(text({ x: x - 14, y: bottom + 22, fill: colour("--muted") }, `${m.branches[m.branch[s]]} · ${(m.hiddenCount.get(s) ?? 0).toLocaleString("en-US")} hidden`));
      continue;
    }
    for (const t of m.tipsOf.get(s) ?? []) texts.append(text({ x: x - 14, y: at(t.off).y + 22, fill: branch, "font-weight": 600 }, t.text));
    for (const l of m.labelsOf.get(s) ?? []) texts.append(text({ x: x + 10, y: at(l.off).y + 2, fill: colour("--text") }, `◆ ${l.text}`));
  }
  if (m.cursor && (drawHidden || (m.flags[m.cursor.segment] & HIDDEN_ROOT) === 0)) {
    const c = nodePoint(m, m.cursor.segment, m.cursor.offset);
    dots.append(make("circle", { cx: c.x, cy: c.y, r: 6, fill: colour("--accent"), stroke: colour("--text"), "stroke-width": 1.5 }));
  }
  if (m.preferred && (drawHidden || (m.flags[m.preferred.segment] & HIDDEN_ROOT) === 0)) {
    const p = nodePoint(m, m.preferred.segment, m.preferred.offset);
    texts.append(text({ x: p.x + 9, y: p.y - 3, fill: colour("--pref"), "font-size": 16 }, "★"));
  }
  svg.append(paths, lines, dots, texts);
  if (hung) svg.append(forksSVG(hung, make, text, colour));
  const width = Math.ceil(right + 8 > m.worldWidth ? right + 8 : m.worldWidth);
  const height = Math.ceil(m.worldHeight);
  for (const [k, v] of [["width", width], ["height", height], ["viewBox", `0 0 ${width} ${height}`]]) svg.setAttribute(k, String(v));
  return svg;
}

/**
 * A generous estimate of how wide `s` is drawn at `size` px in a
 * sans-serif face, in px (the page may not be there to measure it: the
 * share file, a file export): 0.66 em a character, a full em for wide
 * ones (CJK, Hangul, emoji and the rest past U+2E80).
 * @param {string} s @param {number} size
 * @returns {number}
 */
export function textWidth(s, size) {
  let em = 0;
  for (const ch of s) em += ch.codePointAt(0) >= 0x2e80 ? 1 : 0.66;
  return em * size;
}

/**
 * The hung forks as one muted <g>: a dashed line from the node each hangs
 * off, its segments and end nodes, its label (map-forks.js drawForks'
 * drawing, at zoom 1).
 * @param {{forks: object[]}} hung @param {Function} make
 * @param {(attrs: object, s: string) => SVGTextElement} text makes a label (mapSVG's, which widens the picture to hold it)
 * @param {(token: string) => string} colour
 * @returns {SVGGElement}
 */
function forksSVG(hung, make, text, colour) {
  const muted = colour("--muted");
  const g = make("g", { fill: "none", stroke: muted, "stroke-opacity": 0.7, "stroke-linecap": "round" });
  for (const f of hung.forks) {
    g.append(make("path", { d: `M${f.anchor.x} ${f.anchor.y}L${f.ox} ${f.anchor.y}L${f.ox} ${f.oy}`, "stroke-width": 1.5, "stroke-dasharray": "5 4" }));
    for (const s of f.segs) {
      const from = s.parent < 0 ? { x: f.ox, y: f.oy } : forkPoint(f.segs[s.parent], f.segs[s.parent].length - 1);
      const a = forkPoint(s, 0);
      const b = forkPoint(s, s.length - 1);
      g.append(make("path", { d: `M${from.x} ${from.y}L${a.x} ${a.y}L${b.x} ${b.y}`, "stroke-width": 2 }));
      for (const p of s.length > 1 ? [a, b] : [a]) g.append(make("circle", { cx: p.x, cy: p.y, r: 3, fill: muted, stroke: "none" }));
    }
    g.append(make("circle", { cx: f.ox, cy: f.oy, r: 3.5, fill: muted, stroke: "none" }));
    g.append(text({ x: f.ox + 6, y: f.oy - 6, fill: muted, stroke: "none", "font-size": 12, "font-style": "italic" }, forkLabel(f)));
  }
  return g;
}

/**
 * The map's SVG as a standalone file's text (colours resolved: it is read
 * outside the page's theme). Serialized with XMLSerializer.
 * @param {object} m @param {(token: string) => string} colour resolved colours (MapView's _colours)
 * @param {{forks: object[]}|null} [hung] forks hung beside the map (see mapSVG)
 * @returns {string}
 */
export function mapSVGText(m, colour, hung = null) {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(mapSVG(m, { colour, hung }))}`;
}

/**
 * The map as a PNG: the SVG drawn on a canvas at `scale`, capped at 16,000
 * px a side. Resolves to a Blob (image/png).
 * @param {object} m @param {(token: string) => string} colour @param {{forks: object[]}|null} [hung] @param {number} [scale]
 * @returns {Promise<Blob>}
 */
export async function mapPNG(m, colour, hung = null, scale = 2) {
  const svg = mapSVG(m, { colour, hung });
  const [w, h] = [Number(svg.getAttribute("width")), Number(svg.getAttribute("height"))];
  const img = new Image();
  img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(new XMLSerializer().serializeToString(svg))}`;
  await img.decode();
  const k = Math.min(scale, 16000 / Math.max(w, h));
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.round(w * k));
  canvas.height = Math.max(1, Math.round(h * k));
  canvas.getContext("2d").drawImage(img, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error("the map could not be drawn as a PNG"))), "image/png"));
}
