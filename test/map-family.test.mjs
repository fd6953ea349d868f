// The family strip's layout (static/map-family.js), without a page: columns
// by generation in core's order, the shown session marked, the node a
// member opens at, and a cut family (a member whose parent is not listed).
import { test } from "node:test";
import assert from "node:assert/strict";
import { layoutFamily, openNode } from "../static/map-family.js";

const member = (sessionId, nodeCount = 3, missing = false) => ({ sessionId, title: sessionId.toUpperCase(), nodeCount, missing });
const edge = (sessionId, parentSessionId, nodeId, kind = "fork") => ({ sessionId, parentSessionId, nodeId, kind });

test("a family is laid out one column per generation, siblings in rows", () => {
  const family = {
    sessionId: "b", root: "a", truncated: false,
    members: [member("a"), member("b"), member("c"), member("d")],
    edges: [edge("b", "a", "n2"), edge("c", "a", null, "import"), edge("d", "b", "n1", "clone")],
  };
  const l = layoutFamily(family, "b");
  assert.deepEqual(l.members.map((m) => [m.sessionId, m.column, m.row, m.current, m.parent, m.nodeId, m.kind]), [
    ["a", 0, 0, false, null, null, null],
    ["b", 1, 0, true, "a", "n2", "fork"],
    ["c", 1, 1, false, "a", null, "import"],
    ["d", 2, 0, false, "b", "n1", "clone"],
  ]);
  assert.equal(l.columns, 3);
  assert.equal(l.rows, 2);
});

test("a member opens at the node linking it to the shown session, else at its cursor", () => {
  const family = { members: [member("a"), member("b"), member("c")], edges: [edge("b", "a", "n2"), edge("c", "b", "n1")] };
  const l = layoutFamily(family, "b");
  assert.equal(openNode(l, "a", "b"), "n2", "the parent: where the shown session was forked from it");
  assert.equal(openNode(l, "c", "b"), "n1", "a child: where it was forked from the shown session");
  assert.equal(openNode(layoutFamily(family, "a"), "c", "a"), null, "a grandchild: no direct link");
});

test("a member whose parent is not listed (a cut family) goes in the first column", () => {
  const l = layoutFamily({ members: [member("a"), member("x")], edges: [edge("x", "gone", null)] }, "a");
  assert.deepEqual(l.members.map((m) => [m.sessionId, m.column, m.row]), [["a", 0, 0], ["x", 0, 1]]);
});
