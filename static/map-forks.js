// The sessions made from the one on the map, hung off the nodes they were
// made at (issue 25): each fork's own part — what follows, in the fork,
// the node it left this session at — drawn as its own small tidy tree in a
// muted style, in a band to the right of the map at the height of that
// node, a dashed line from the node to it. The parts come from the forks'
// own `map` answers (laid out in the Worker like the main map): the
// subtree below the node the fork was made at (the map's `source` mark),
// the rest of that node's run first. A click on a fork opens that session
// (host.openFamily). Reading them (loadForks), pure placement (hangForks,
// hitFork), drawing on a canvas (drawForks); map-svg.js draws them in SVG. The family strip (map-family.js) stays the accessible way to
// open them.

import { MARGIN, SEGMENT_HEIGHT, UNIT_X, UNIT_Y, applyMapDelta, nodePoint } from "./map-model.js";

/** The most forks hung off one map (the family strip lists them all). */
export const MAX_HUNG_FORKS = 8;

/** World px between the map's right edge (and between two forks) and a fork's band. */
const GAP_X = UNIT_X;
/** What a hung fork's label says it is, by the kind of its link. */
const KIND_NAMES = { fork: "fork", clone: "clone", import: "imported fork" };

/** World px kept right of a fork for its label ("imported fork: " and 24 characters at 12 px, from 6 px right of the fork). */
export const LABEL_ROOM = 210;
/** World px a fork's label takes above its top (12 px text, 6 px over the fork's top). */
const LABEL_HEIGHT = 18;
/** World px from the node a fork hangs off down to the top of its part. */
const DROP_Y = 28;

/**
 * The part of a fork's map that is its own: the segments below the node
 * it was made at (its `source` mark), in local layout units (x from 0,
 * level 0 at the top). When that node is inside a run, the rest of the
 * run is the part's first segment (its first id unknown: null).
 * @param {object} value the fork's `map` value (source not null)
 * @returns {{segs: {x: number, level: number, length: number, parent: number, first: string|null, last: string}[], width: number, levels: number}}
 */
export function ownPart(value) {
  const { segment: s, offset: o } = value.source;
  const children = new Map();
  for (let k = 0; k < value.count; k++) {
    const p = value.parent[k];
    if (p >= 0) children.set(p, [...(children.get(p) ?? []), k]);
  }
  const segs = [];
  const rest = value.length[s] - 1 - o; // nodes of the run after the source node
  const top = rest > 0 ? value.y[s] : value.y[s] + 1; // the level drawn first
  const place = new Map();
  if (rest > 0) {
    place.set(s, 0);
    segs.push({ x: value.x[s], level: 0, length: rest, parent: -1, first: rest === 1 ? value.last[s] : null, last: value.last[s] });
  }
  for (const queue = [...(children.get(s) ?? [])]; queue.length > 0; ) {
    const k = queue.shift();
    const p = value.parent[k];
    place.set(k, segs.length);
    segs.push({ x: value.x[k], level: value.y[k] - top, length: value.length[k], parent: place.get(p) ?? -1, first: value.first[k], last: value.last[k] });
    queue.push(...(children.get(k) ?? []));
  }
  const minX = Math.min(...segs.map((g) => g.x));
  for (const g of segs) g.x -= minX;
  return { segs, width: Math.max(0, ...segs.map((g) => g.x)), levels: Math.max(0, ...segs.map((g) => g.level)) + 1 };
}

/**
 * Read what hanging the forks of a session takes: its `family`, then the
 * `map` of each session made from it (at most MAX_HUNG_FORKS, in the
 * family's order). A link the map could not place (an import whose node
 * core finds only with both sessions read) is placed by asking the map
 * again, with its revision, once the forks are read. `stale()` is asked
 * after each call: true stops (null).
 * @param {{call: Function, hasOperation?: Function}} tree
 * @param {string} sessionId
 * @param {object} map the session's whole `map` value
 * @param {() => boolean} [stale]
 * @returns {Promise<{family: object|null, map: object, forks: {sessionId: string, title: string, kind: string, seg: number, off: number, value: object}[]}|null>}
 *   map: the value to show (the one given, or the one asked again)
 */
export async function loadForks(tree, sessionId, map, stale = () => false) {
  const env = tree.hasOperation?.("family") ? await tree.call({ operation: "family", sessionId }) : null;
  if (stale()) return null;
  const family = env?.ok ? env.value : null;
  const titles = new Map((family?.members ?? []).filter((m) => !m.missing).map((m) => [m.sessionId, m.title]));
  const children = (family?.edges ?? []).filter((e) => e.parentSessionId === sessionId && titles.has(e.sessionId)).slice(0, MAX_HUNG_FORKS);
  const values = new Map();
  for (const e of children) {
    const v = await tree.call({ operation: "map", sessionId: e.sessionId });
    if (stale()) return null;
    if (v.ok) values.set(e.sessionId, v.value);
  }
  if (children.some((e) => !(map.forks ?? []).some((f) => f[2] === e.sessionId))) {
    const again = await tree.call({ operation: "map", sessionId, revision: map.revision });
    if (stale()) return null;
    if (again.ok) map = again.value.delta ? applyMapDelta(map, again.value) : again.value;
  }
  const forks = (map.forks ?? []).filter((f) => values.has(f[2])).map(([seg, off, id, kind]) => ({ sessionId: id, title: titles.get(id) ?? "", kind, seg, off, value: values.get(id) }));
  return { family, map, forks };
}

/**
 * Place the forks beside the main map model: each in its own band to the
 * right of the map (and of the forks before it), its top DROP_Y below the
 * node it hangs off. Forks whose own part is empty (nothing was added
 * after the fork) are hung as a single dot.
 * @param {object} main the main map model (buildMapModel)
 * @param {{sessionId: string, title: string, kind: string, seg: number, off: number, value: object}[]} forks
 *   seg/off: the node on the main map; value: the fork's `map` value
 * @returns {{forks: object[], right: number, bottom: number}} world coordinates (CSS px at zoom 1)
 */
export function hangForks(main, forks) {
  let band = main.worldWidth - MARGIN + GAP_X;
  let bottom = main.worldHeight;
  let right = main.worldWidth;
  const out = [];
  const labels = []; // each hung fork's label box, [left, top, right, bottom]
  for (const f of forks.slice(0, MAX_HUNG_FORKS)) {
    const part = f.value.source ? ownPart(f.value) : { segs: [], width: 0, levels: 0 };
    const anchor = nodePoint(main, f.seg, f.off);
    let ox = band;
    const oy = anchor.y + DROP_Y;
    // Past the label of an earlier fork on the same line (forks made at one
    // node, or at nodes close together): labels never overlap.
    for (const [, top, right, bottom] of labels) if (oy - LABEL_HEIGHT < bottom && oy > top && ox < right) ox = right + GAP_X / 2;
    labels.push([ox, oy - LABEL_HEIGHT, ox + LABEL_ROOM, oy]);
    const segs = part.segs.map((g) => ({ ...g, wx: ox + g.x * UNIT_X, wy: oy + g.level * UNIT_Y }));
    out.push({ sessionId: f.sessionId, title: f.title, kind: f.kind, nodeId: f.value.source?.nodeId ?? null, anchor, ox, oy, segs });
    right = Math.max(right, ox + part.width * UNIT_X + LABEL_ROOM);
    band += part.width * UNIT_X + GAP_X * 1.5;
    bottom = Math.max(bottom, oy + part.levels * UNIT_Y + MARGIN);
  }
  return { forks: out, right, bottom };
}

/** Where node off of hung segment g is (world px). */
export function forkPoint(g, off) {
  return { x: g.wx, y: g.wy + (g.length <= 1 ? 0 : (off / (g.length - 1)) * SEGMENT_HEIGHT) };
}

/**
 * The hung fork under world point (wx, wy) within `radius` screen px at
 * `zoom`: the fork and the id to open it at (the end of the segment hit
 * when near one, else the node it was made at). Null when none.
 * @param {{forks: object[]}} hung @param {number} wx @param {number} wy @param {number} zoom @param {number} [radius]
 * @returns {{fork: object, nodeId: string|null}|null}
 */
export function hitFork(hung, wx, wy, zoom, radius = 12) {
  const r = radius / zoom;
  for (const f of hung.forks) {
    const label = wx >= f.ox - r && wx <= f.ox + 180 / zoom && wy >= f.oy - 22 / zoom && wy <= f.oy + r;
    if (f.segs.length === 0 && Math.hypot(wx - f.ox, wy - f.oy) <= r) return { fork: f, nodeId: f.nodeId };
    for (const g of f.segs) {
      const h = g.length <= 1 ? 0 : SEGMENT_HEIGHT;
      if (Math.abs(wx - g.wx) > r || wy < g.wy - r || wy > g.wy + h + r) continue;
      const end = Math.abs(wy - (g.wy + h)) <= r ? g.last : Math.abs(wy - g.wy) <= r ? g.first : null;
      return { fork: f, nodeId: end ?? f.nodeId };
    }
    if (label) return { fork: f, nodeId: f.nodeId };
  }
  return null;
}

/**
 * A hung fork's label: what it is and its title (else its id), cut to 24 characters.
 * @param {{kind: string, title: string, sessionId: string}} f @returns {string}
 */
export function forkLabel(f) {
  const name = f.title || f.sessionId;
  return `${KIND_NAMES[f.kind] ?? "from here"}: ${name.length > 24 ? `${name.slice(0, 23)}…` : name}`;
}

/**
 * Grow a map model's world to hold the forks hung beside it.
 * @param {object} m a model from buildMapModel @param {{right: number, bottom: number}} hung
 */
export function holdForks(m, hung) {
  m.worldWidth = Math.max(m.worldWidth, hung.right);
  m.worldHeight = Math.max(m.worldHeight, hung.bottom);
}

/**
 * Draw the hung forks on ctx (its transform: CSS px) through `toScreen`
 * (world → screen), muted: a dashed line from the node each hangs off,
 * its segments and nodes in --muted, its title above it.
 * @param {CanvasRenderingContext2D} ctx
 * @param {{forks: object[]}} hung
 * @param {(p: {x: number, y: number}) => {x: number, y: number}} toScreen
 * @param {Record<string, string>} col the theme's colours (map-colours.js TOKENS)
 * @param {string|null} focused the sessionId ringed (hovered), or null
 */
export function drawForks(ctx, hung, toScreen, col, focused) {
  const lines = new Path2D();
  const links = new Path2D();
  const dots = new Path2D();
  for (const f of hung.forks) {
    const a = toScreen(f.anchor);
    const top = toScreen({ x: f.ox, y: f.oy });
    links.moveTo(a.x, a.y);
    links.lineTo(top.x, a.y);
    links.lineTo(top.x, top.y);
    for (const g of f.segs) {
      const s = toScreen(forkPoint(g, 0));
      const e = toScreen(forkPoint(g, g.length - 1));
      const from = g.parent < 0 ? top : toScreen(forkPoint(f.segs[g.parent], f.segs[g.parent].length - 1));
      lines.moveTo(from.x, from.y);
      lines.lineTo(s.x, s.y);
      lines.lineTo(e.x, e.y);
      for (const p of g.length > 1 ? [s, e] : [s]) {
        dots.moveTo(p.x + 3, p.y);
        dots.arc(p.x, p.y, 3, 0, Math.PI * 2);
      }
    }
    dots.moveTo(top.x + 3.5, top.y);
    dots.arc(top.x, top.y, 3.5, 0, Math.PI * 2);
  }
  ctx.save();
  ctx.globalAlpha = 0.7;
  ctx.strokeStyle = col["--muted"];
  ctx.lineCap = "round";
  ctx.lineWidth = 1.5;
  ctx.setLineDash([5, 4]);
  ctx.stroke(links);
  ctx.setLineDash([]);
  ctx.lineWidth = 2;
  ctx.stroke(lines);
  ctx.fillStyle = col["--muted"];
  ctx.fill(dots);
  ctx.globalAlpha = 1;
  ctx.font = "italic 12px system-ui, sans-serif";
  ctx.textBaseline = "bottom";
  for (const f of hung.forks) {
    const top = toScreen({ x: f.ox, y: f.oy });
    ctx.fillStyle = f.sessionId === focused ? col["--text"] : col["--muted"];
    // The label is drawn at 12 px whatever the zoom, its room is world px: zoomed out, it is cut to its room.
    const room = toScreen({ x: f.ox + LABEL_ROOM, y: f.oy }).x - top.x - 12;
    ctx.fillText(cutToWidth(ctx, forkLabel(f), room), top.x + 6, top.y - 6);
  }
  ctx.restore();
}

/**
 * text, or as much of its start as fits in width px in ctx's font with "…" after it ("" when not even that fits).
 * @param {CanvasRenderingContext2D} ctx @param {string} text @param {number} width
 * @returns {string}
 */
export function cutToWidth(ctx, text, width) {
  if (ctx.measureText(text).width <= width) return text;
  let lo = 0;
  let hi = text.length - 1; // the longest start that fits is lo characters
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (ctx.measureText(`${text.slice(0, mid)}…`).width <= width) lo = mid;
    else hi = mid - 1;
  }
  return lo === 0 && ctx.measureText("…").width > width ? "" : `${text.slice(0, lo).trimEnd()}…`;
}
