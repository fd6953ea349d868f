// Forks hung beside the map (static/map-forks.js) and a map delta applied
// (static/map-model.js applyMapDelta), without a page: values shaped as
// core's `map` answers them (core/mapdelta_test.go, mapdelta.go).
import { test } from "node:test";
import assert from "node:assert/strict";
import { LABEL_ROOM, MAX_HUNG_FORKS, cutToWidth, hangForks, hitFork, ownPart } from "../static/map-forks.js";
import { MARGIN, SEGMENT_HEIGHT, UNIT_X, UNIT_Y, applyMapDelta, buildMapModel } from "../static/map-model.js";

// A fork made at node "a1" (offset 1 of a 3-node run u1 a1 x): then x
// forks into y (one node) and z1 z2.
const fork = {
  sessionId: "f", nodeCount: 6, revision: "9.6", count: 3, width: 1, height: 1, branches: ["main", "b"],
  parent: [-1, 0, 0], x: [0.5, 0, 1], y: [0, 1, 1], length: [3, 1, 2],
  first: ["u1", "y", "z1"], last: ["x", "y", "z2"], branch: [0, 0, 1], flags: [1, 1, 0], hidden: [],
  cursor: { segment: 1, offset: 0, nodeId: "y" }, preferred: null, labels: [], tips: [[1, 0, 0], [2, 1, 1]],
  forks: [], source: { sessionId: "s", nodeId: "a1", segment: 0, offset: 1, kind: "fork" },
};

test("ownPart: what follows the node the fork was made at, the rest of its run first", () => {
  const part = ownPart(fork);
  assert.deepEqual(part.segs, [
    { x: 0.5, level: 0, length: 1, parent: -1, first: "x", last: "x" },
    { x: 0, level: 1, length: 1, parent: 0, first: "y", last: "y" },
    { x: 1, level: 1, length: 2, parent: 0, first: "z1", last: "z2" },
  ]);
  assert.equal(part.width, 1);
  assert.equal(part.levels, 2);
  // Made at the run's last node: its children are the part's roots, one level up.
  const atEnd = ownPart({ ...fork, source: { ...fork.source, nodeId: "x", offset: 2 } });
  assert.deepEqual(atEnd.segs.map((g) => [g.first, g.level, g.parent, g.x]), [["y", 0, -1, 0], ["z1", 0, -1, 1]]);
  // Nothing after it: an empty part.
  const none = ownPart({ ...fork, count: 1, parent: [-1], x: [0], y: [0], length: [2], first: ["u1"], last: ["a1"], source: { ...fork.source, offset: 1 } });
  assert.deepEqual(none, { segs: [], width: 0, levels: 1 });
});

test("hangForks: bands right of the map, below the node each hangs off; hitFork finds them", () => {
  // The main map: one run of 4 nodes (s), 0 … 3.
  const main = buildMapModel({
    sessionId: "s", nodeCount: 4, revision: "1.4", count: 1, width: 0, height: 0, branches: ["main"], parent: [-1], x: [0], y: [0],
    length: [4], first: ["u1"], last: ["a2"], branch: [0], flags: [1], hidden: [], cursor: null, preferred: null, labels: [], tips: [], forks: [], source: null,
  });
  const hung = hangForks(main, [
    { sessionId: "f", title: "The fork", kind: "fork", seg: 0, off: 1, value: fork },
    { sessionId: "g", title: "", kind: "clone", seg: 0, off: 3, value: { ...fork, source: null } },
  ]);
  const [f, g] = hung.forks;
  const anchorY = MARGIN + (1 / 3) * SEGMENT_HEIGHT;
  assert.deepEqual(f.anchor, { x: MARGIN, y: anchorY });
  assert.equal(f.ox, main.worldWidth - MARGIN + UNIT_X);
  assert.equal(f.oy, anchorY + 28);
  assert.deepEqual(f.segs.map((s) => [s.wx, s.wy]), [[f.ox + 0.5 * UNIT_X, f.oy], [f.ox, f.oy + UNIT_Y], [f.ox + UNIT_X, f.oy + UNIT_Y]]);
  assert.equal(f.nodeId, "a1");
  assert.ok(g.ox > f.ox + UNIT_X, "the second fork's band is right of the first's part");
  assert.deepEqual(g.segs, [], "a fork without its source mark hangs as a dot");
  assert.ok(hung.right >= g.ox + 100 && hung.bottom >= f.oy + 2 * UNIT_Y);
  // Hits: the end of the fork's z run, the start of its first segment (its first id unknown: the fork node), a dot, nothing.
  assert.deepEqual(((h) => [h.fork.sessionId, h.nodeId])(hitFork(hung, f.ox + UNIT_X, f.oy + UNIT_Y + SEGMENT_HEIGHT, 1)), ["f", "z2"]);
  assert.deepEqual(((h) => [h.fork.sessionId, h.nodeId])(hitFork(hung, f.ox + 0.5 * UNIT_X, f.oy, 1)), ["f", "x"]);
  assert.deepEqual(((h) => [h.fork.sessionId, h.nodeId])(hitFork(hung, g.ox, g.oy, 1)), ["g", null]);
  assert.equal(hitFork(hung, 0, 0, 1), null);
  // At most MAX_HUNG_FORKS.
  const many = Array.from({ length: MAX_HUNG_FORKS + 3 }, (_, i) => ({ sessionId: `k${i}`, title: "", kind: "fork", seg: 0, off: 0, value: fork }));
  assert.equal(hangForks(main, many).forks.length, MAX_HUNG_FORKS);
});

test("applyMapDelta: grown segments take their length and last id, the marks are replaced, the earlier value is kept", () => {
  const earlier = { ...fork };
  const delta = {
    sessionId: "f", nodeCount: 8, revision: "9.8", delta: true, count: 3, changed: [[1, 3, "y3"]], branches: ["main", "b"],
    flags: [1, 1, 0], cursor: { segment: 1, offset: 2, nodeId: "y3" }, preferred: null, labels: [[0, 0, "start"]], tips: [[1, 2, 0], [2, 1, 1]], forks: [[0, 0, "h", "fork"]], source: fork.source,
  };
  const v = applyMapDelta(earlier, delta);
  assert.deepEqual(v.length, [3, 3, 2]);
  assert.deepEqual(v.last, ["x", "y3", "z2"]);
  assert.equal(v.revision, "9.8");
  assert.equal(v.nodeCount, 8);
  assert.deepEqual(v.cursor, delta.cursor);
  assert.deepEqual(v.labels, [[0, 0, "start"]]);
  assert.deepEqual(v.forks, [[0, 0, "h", "fork"]]);
  assert.equal("delta" in v || "changed" in v, false);
  assert.deepEqual(v.x, fork.x);
  assert.deepEqual(earlier.length, [3, 1, 2], "the earlier value is not changed");
});

test("hangForks: forks made at one node, or at nodes close together, hang with their labels apart; forks far apart keep close bands", () => {
  const main = buildMapModel({
    sessionId: "s", nodeCount: 40, revision: "1.40", count: 1, width: 0, height: 0, branches: ["main"], parent: [-1], x: [0], y: [0],
    length: [40], first: ["u1"], last: ["a20"], branch: [0], flags: [1], hidden: [], cursor: null, preferred: null, labels: [], tips: [], forks: [], source: null,
  });
  const empty = { ...fork, source: null };
  const hung = hangForks(main, [
    { sessionId: "a", title: "First fork", kind: "fork", seg: 0, off: 3, value: empty },
    { sessionId: "b", title: "Second fork", kind: "fork", seg: 0, off: 3, value: empty },
    { sessionId: "c", title: "Far below", kind: "fork", seg: 0, off: 39, value: empty },
  ]);
  const [a, b, c] = hung.forks;
  assert.equal(a.oy, b.oy, "a and b hang off one node");
  assert.ok(b.ox >= a.ox + LABEL_ROOM, `b's label (from ${b.ox}) starts past a's (${a.ox} … ${a.ox + LABEL_ROOM})`);
  assert.ok(c.oy - b.oy > 18, "c hangs far below b");
  assert.ok(c.ox < b.ox + LABEL_ROOM, "c's label shares no line with b's: its band stays close");
  assert.ok(hung.right >= b.ox + LABEL_ROOM, "the world holds b's label");
});

test("cutToWidth: a label that does not fit its room keeps the start that does, with an ellipsis; none when not even that fits", () => {
  const ctx = { measureText: (t) => ({ width: [...t].length * 7 }) }; // 7 px a character
  assert.equal(cutToWidth(ctx, "fork: Lisbon", 200), "fork: Lisbon");
  assert.equal(cutToWidth(ctx, "fork: Lisbon", 84), "fork: Lisbon");
  assert.equal(cutToWidth(ctx, "fork: Lisbon", 83), "fork: Lisb…");
  assert.equal(cutToWidth(ctx, "fork: Lisbon", 49), "fork:…", "the space before the cut goes");
  assert.equal(cutToWidth(ctx, "fork: Lisbon", 7), "…");
  assert.equal(cutToWidth(ctx, "fork: Lisbon", 3), "");
});
