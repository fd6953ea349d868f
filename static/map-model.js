// The map of a session as pure data: no DOM, no canvas. It turns the value
// of core's `map` operation (segments — runs of nodes without a fork —
// laid out as a tidy tree in the store's Worker, see core/internal/views/mapview.go) into
// world coordinates in CSS pixels at zoom 1, and answers what the view asks:
// where a node is drawn, which node is under a point, the neighbours of a
// node for the keys, the transform that fits the map or centres a node.
//
// A node is addressed as {seg, off}: its segment (an index into the map's
// columns) and its offset in it (0 is the segment's first node). A
// segment of length L is drawn as a vertical line from its first node
// (top) to its last (bottom, SEGMENT_HEIGHT lower); its nodes sit at equal
// steps along it, so zooming in spreads them apart.

/** Horizontal distance between neighbouring segments of one level (CSS px at zoom 1). */
export const UNIT_X = 96;
/** Vertical distance between levels (segment depths), CSS px at zoom 1. */
export const UNIT_Y = 84;
/** Length of a segment's line, from its first node to its last, CSS px at zoom 1. */
export const SEGMENT_HEIGHT = 48;
/** Margin around the map, CSS px at zoom 1. */
export const MARGIN = 40;
/** Zoom limits: from a whole 100,000-node map to single nodes of a long run. */
export const MIN_ZOOM = 0.02;
export const MAX_ZOOM = 4000;
/** Fewer CSS px than this between two nodes of a run and they are not drawn one by one. */
export const NODE_SPACING = 10;
/** Segment flags (core/internal/views/mapview.go). */
export const ON_PATH = 1;
export const PREFERRED = 2;
export const HIDDEN_ROOT = 4;

/**
 * Build the map model from a `map` value.
 * @param {object} value the value of {operation: "map"}: columns parent, x, y, length, first, last,
 *   branch, flags (one entry per segment), branches, hidden, cursor, preferred, labels, tips
 * @param {{idAt?: (seg: number, off: number, first: string) => string|null}} [options] idAt finds the id of
 *   a node inside a run (the list's rows hold them); without it only a segment's first and last ids are known
 * @returns {object} the model: the columns plus `children` (first child, next sibling), world `width`/`height`,
 *   `hiddenCount` (segment → nodes), `labelsOf` / `tipsOf` (segment → [{off, text}]) and `idAt`
 */
export function buildMapModel(value, { idAt } = {}) {
  const n = value.count;
  const firstChild = new Int32Array(n).fill(-1);
  const nextSibling = new Int32Array(n).fill(-1);
  const lastChild = new Int32Array(n).fill(-1);
  const prevSibling = new Int32Array(n).fill(-1);
  for (let s = 0; s < n; s++) {
    const p = value.parent[s];
    if (p < 0) continue;
    if (lastChild[p] < 0) firstChild[p] = s;
    else {
      nextSibling[lastChild[p]] = s;
      prevSibling[s] = lastChild[p];
    }
    lastChild[p] = s;
  }
  const group = (list, text) => {
    const m = new Map();
    for (const item of list) {
      const [seg, off] = item;
      if (!m.has(seg)) m.set(seg, []);
      m.get(seg).push({ off, text: text(item) });
    }
    return m;
  };
  return {
    ...value,
    firstChild,
    nextSibling,
    prevSibling,
    hiddenCount: new Map(value.hidden),
    labelsOf: group(value.labels, (l) => l[2]),
    tipsOf: group(value.tips, (t) => value.branches[t[2]]),
    worldWidth: value.width * UNIT_X + 2 * MARGIN,
    worldHeight: value.height * UNIT_Y + SEGMENT_HEIGHT + 2 * MARGIN,
    idAt: idAt ?? null,
  };
}

/**
 * The whole `map` value from an earlier one and a delta answer (a `map`
 * request given the earlier answer's revision; core/internal/views/mapdelta.go): the
 * segments that grew take their new length and last id, every other field
 * the delta has replaces the earlier one. The earlier value is not changed.
 * @param {object} earlier a whole map value (SessionMap)
 * @param {object} delta a SessionMapDelta of the same session and layout
 * @returns {object} a whole map value (SessionMap)
 */
export function applyMapDelta(earlier, delta) {
  const length = earlier.length.slice();
  const last = earlier.last.slice();
  for (const [seg, len, id] of delta.changed) {
    length[seg] = len;
    last[seg] = id;
  }
  const { changed, delta: _, ...rest } = delta;
  return { ...earlier, ...rest, length, last };
}

/** World x of segment seg (CSS px at zoom 1). @param {object} m @param {number} seg */
export function segmentX(m, seg) {
  return MARGIN + m.x[seg] * UNIT_X;
}

/** World y of segment seg's first node. @param {object} m @param {number} seg */
export function segmentTop(m, seg) {
  return MARGIN + m.y[seg] * UNIT_Y;
}

/**
 * Where node {seg, off} is drawn, in world coordinates.
 * @param {object} m @param {number} seg @param {number} off
 * @returns {{x: number, y: number}}
 */
export function nodePoint(m, seg, off) {
  const len = m.length[seg];
  const t = len <= 1 ? 0 : off / (len - 1);
  return { x: segmentX(m, seg), y: segmentTop(m, seg) + t * (len <= 1 ? 0 : SEGMENT_HEIGHT) };
}

/**
 * The id of node {seg, off}: the segment's first or last id, else what idAt
 * finds; null when unknown.
 * @param {object} m @param {number} seg @param {number} off @returns {string|null}
 */
export function nodeId(m, seg, off) {
  if (off === 0) return m.first[seg];
  if (off === m.length[seg] - 1) return m.last[seg];
  return m.idAt ? m.idAt(seg, off, m.first[seg]) : null;
}

/**
 * The node under world point (wx, wy) at zoom `zoom`, within `radius` CSS px
 * on screen; null when none. Between the ends of a run whose nodes are too
 * close to be drawn one by one, the nearest of its nodes is answered.
 * @param {object} m @param {number} wx @param {number} wy @param {number} zoom @param {number} [radius]
 * @returns {{seg: number, off: number}|null}
 */
export function hitTest(m, wx, wy, zoom, radius = 12) {
  const r = radius / zoom;
  let best = null;
  let bestD = Infinity;
  for (let s = 0; s < m.count; s++) {
    const x = segmentX(m, s);
    if (Math.abs(wx - x) > r) continue;
    const top = segmentTop(m, s);
    const len = m.length[s];
    const h = len <= 1 ? 0 : SEGMENT_HEIGHT;
    if (wy < top - r || wy > top + h + r) continue;
    const t = h === 0 ? 0 : Math.min(1, Math.max(0, (wy - top) / h));
    const off = Math.round(t * (len - 1));
    const p = nodePoint(m, s, off);
    const d = Math.hypot(p.x - wx, p.y - wy);
    if (d < bestD && d <= r + (h / Math.max(1, len - 1)) / 2) {
      best = { seg: s, off };
      bestD = d;
    }
  }
  return best;
}

/**
 * The node a key moves to from {seg, off}: "parent" (the node before it),
 * "child" (the first child), "prev" / "next" (the sibling before or after
 * it; only the first node of a segment has siblings). Null when there is
 * none (a hidden subtree's collapsed segment has no children).
 * @param {object} m @param {{seg: number, off: number}} at @param {"parent"|"child"|"prev"|"next"} dir
 * @returns {{seg: number, off: number}|null}
 */
export function neighbour(m, at, dir) {
  const { seg, off } = at;
  switch (dir) {
    case "parent":
      if (off > 0) return { seg, off: off - 1 };
      return m.parent[seg] < 0 ? null : { seg: m.parent[seg], off: m.length[m.parent[seg]] - 1 };
    case "child":
      if (off < m.length[seg] - 1) return { seg, off: off + 1 };
      if ((m.flags[seg] & HIDDEN_ROOT) !== 0) return null;
      return m.firstChild[seg] < 0 ? null : { seg: m.firstChild[seg], off: 0 };
    case "prev":
    case "next": {
      if (off !== 0) return null;
      const s = dir === "prev" ? m.prevSibling[seg] : m.nextSibling[seg];
      return s < 0 ? null : { seg: s, off: 0 };
    }
    default:
      return null;
  }
}

/**
 * Where node id is on the map: the segment whose first or last node it is,
 * or (through `depthOf`, the node's depth minus its run's first node's)
 * inside a run. Null when it is not found.
 * @param {object} m @param {string} id
 * @returns {{seg: number, off: number}|null}
 */
export function locate(m, id) {
  if (m.cursor?.nodeId === id) return { seg: m.cursor.segment, off: m.cursor.offset };
  if (m.preferred?.nodeId === id) return { seg: m.preferred.segment, off: m.preferred.offset };
  if (!m._ends) {
    m._ends = new Map();
    for (let s = 0; s < m.count; s++) {
      m._ends.set(m.last[s], { seg: s, off: m.length[s] - 1 });
      m._ends.set(m.first[s], { seg: s, off: 0 });
    }
  }
  return m._ends.get(id) ?? null;
}

/**
 * The view transform that shows the whole map in a w×h box (CSS px): scale
 * and the world point at the box's top left.
 * @param {object} m @param {number} w @param {number} h
 * @returns {{zoom: number, x: number, y: number}}
 */
export function fitView(m, w, h) {
  const zoom = clampZoom(Math.min(w / m.worldWidth, h / m.worldHeight, 1.5));
  return { zoom, x: (m.worldWidth - w / zoom) / 2, y: Math.min(0, (m.worldHeight - h / zoom) / 2) };
}

/**
 * The transform that centres world point p in a w×h box at `zoom`.
 * @param {{x: number, y: number}} p @param {number} w @param {number} h @param {number} zoom
 */
export function centreOn(p, w, h, zoom) {
  return { zoom, x: p.x - w / 2 / zoom, y: p.y - h / 2 / zoom };
}

/** Keep a zoom inside MIN_ZOOM … MAX_ZOOM. @param {number} z */
export function clampZoom(z) {
  return Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, z));
}

/**
 * The colour index of a branch (into the theme's --branch-0 … --branch-7).
 * @param {number} branchIndex @returns {number}
 */
export function branchColour(branchIndex) {
  return branchIndex % 8;
}

/** The segments whose box meets the world rectangle [x0, x1] × [y0, y1] (for drawing). */
export function segmentsIn(m, x0, y0, x1, y1) {
  const out = [];
  for (let s = 0; s < m.count; s++) {
    const x = segmentX(m, s);
    const top = segmentTop(m, s);
    if (x < x0 - UNIT_X || x > x1 + UNIT_X || top > y1 || top + UNIT_Y < y0) continue;
    out.push(s);
  }
  return out;
}
