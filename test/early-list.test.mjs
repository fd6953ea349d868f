// The answers to `sessions` before the wasm starts (js/early-list.js):
// which requests they answer, and the pages they give, checked against a
// plain sort of the whole list.
import { test } from "node:test";
import assert from "node:assert/strict";
import { headAnswer, newestFirst, sessionsQuery, wholeAnswer } from "../js/early-list.js";

const summary = (sessionId, updatedAt) => ({ sessionId, title: sessionId, nodeCount: 1, cursor: null, activeBranch: "main", updatedAt });

test("sessionsQuery takes what core takes and leaves every other request to it", () => {
  assert.deepEqual(sessionsQuery({ operation: "sessions" }), { updated: false, limit: 2 ** 31 - 1, before: null });
  assert.deepEqual(sessionsQuery('{"operation":"sessions","order":"updated","limit":5}'), { updated: true, limit: 5, before: null });
  const before = { updatedAt: "2026-01-01T00:00:00.000Z", sessionId: "s" };
  assert.deepEqual(sessionsQuery(new TextEncoder().encode(JSON.stringify({ operation: "sessions", order: "updated", before }))), { updated: true, limit: 2 ** 31 - 1, before });
  for (const bad of [
    { operation: "session" },
    { operation: "sessions", limit: 5 },
    { operation: "sessions", order: "newest" },
    { operation: "sessions", order: null },
    { operation: "sessions", order: "updated", limit: 0 },
    { operation: "sessions", order: "updated", limit: 1.5 },
    { operation: "sessions", order: "updated", limit: 2 ** 31 },
    { operation: "sessions", order: "updated", before: { updatedAt: "", sessionId: "" } },
    { operation: "sessions", order: "updated", before: { sessionId: "s" } },
    { operation: "sessions", order: "updated", before: [] },
    { operation: "sessions", extra: 1 },
    "{not json",
    null,
    [],
  ]) {
    assert.equal(sessionsQuery(bad), null, JSON.stringify(bad));
  }
  const throwing = { operation: "sessions", get order() { throw new Error("no"); } };
  assert.equal(sessionsQuery(throwing), null);
});

test("newestFirst orders by updatedAt, then sessionId, descending, by UTF-16 code units", () => {
  const list = [summary("a", "2026-03"), summary("b", "2026-03"), summary("old", "2026-01"), summary("\uFF5E", "2026-03"), summary("\u{1F600}", "2026-03"), summary("u", "")];
  assert.deepEqual(list.sort(newestFirst).map((s) => s.sessionId), ["\uFF5E", "\u{1F600}", "b", "a", "old", "u"]);
});

test("pages of the whole list walk it newest first; the head answers a page only when it holds all of it", () => {
  const whole = [];
  for (let i = 0; i < 25; i++) whole.push(summary(`s${String(i).padStart(2, "0")}`, `2026-01-${String((i % 7) + 1).padStart(2, "0")}`));
  const sorted = whole.map((s) => ({ ...s })).sort(newestFirst);
  assert.deepEqual(wholeAnswer(whole, sessionsQuery({ operation: "sessions" })), whole, "creation order: the list as read");
  const walked = [];
  let before;
  for (;;) {
    const page = wholeAnswer(whole, sessionsQuery({ operation: "sessions", order: "updated", limit: 4, ...(before ? { before } : {}) }));
    walked.push(...page);
    if (page.length < 4) break;
    before = { updatedAt: page[3].updatedAt, sessionId: page[3].sessionId };
  }
  assert.deepEqual(walked, sorted);

  const head = { items: sorted.slice(0, 10), complete: false };
  const q = (extra) => sessionsQuery({ operation: "sessions", order: "updated", ...extra });
  assert.deepEqual(headAnswer(head, q({ limit: 10 })), sorted.slice(0, 10));
  assert.deepEqual(headAnswer(head, q({ limit: 4, before: { updatedAt: sorted[3].updatedAt, sessionId: sorted[3].sessionId } })), sorted.slice(4, 8));
  assert.equal(headAnswer(head, q({ limit: 11 })), null, "past the head");
  assert.equal(headAnswer(head, q({})), null, "the whole list newest first");
  assert.equal(headAnswer(head, sessionsQuery({ operation: "sessions" })), null, "creation order");
  assert.deepEqual(headAnswer({ items: sorted, complete: true }, q({})), sorted, "a head that holds every session");
  const copy = headAnswer(head, q({ limit: 1 }));
  copy[0].title = "changed";
  assert.equal(head.items[0].title, sorted[0].title, "the answer is a copy");
});

test("sessionsQuery reads a request as core will: an object as it is sent, text and bytes as core parses them", () => {
  const T = "2026-05-05T00:00:00.000Z";
  const newest = { updated: true, limit: 2, before: null };
  // An object crosses as its JSON text (js/request-text.js requestJSON):
  // members it inherits, a getter of its class or a toJSON are not what core reads.
  const inherited = Object.assign(Object.create({ order: "updated" }), { operation: "sessions" });
  assert.deepEqual(sessionsQuery(inherited), { updated: false, limit: 2 ** 31 - 1, before: null }, "core reads no order");
  assert.equal(sessionsQuery(Object.create({ operation: "sessions" })), null, "an object with no fields of its own is no request");
  class Query {
    constructor() {
      this.operation = "sessions";
    }
    get order() {
      return "updated";
    }
  }
  assert.deepEqual(sessionsQuery(new Query()), { updated: false, limit: 2 ** 31 - 1, before: null });
  assert.equal(sessionsQuery({ operation: "sessions", order: "updated", before: { updatedAt: T, sessionId: "b", toJSON: () => 5 } }), null, "core reads before: 5");
  assert.deepEqual(sessionsQuery({ operation: "sessions", order: "updated", toJSON: () => ({ operation: "sessions", order: "updated", limit: 2 }) }), newest);
  // Text: a member given twice is core's INVALID_ARGUMENT, where JSON.parse keeps the last.
  for (const text of ['{"operation":"sessions","order":"updated","order":"updated","limit":2}', '{"operation":"sessions","operation":"sessions"}', '{"operation":"sessions","order":"updated","limit":0,"limit":2}', '{"operation":"sessions","\\u006frder":"updated","order":"updated"}']) {
    assert.equal(sessionsQuery(text), null, text);
  }
  assert.deepEqual(sessionsQuery(' {"operation" : "sessions", "order":"updated",\n"limit":2, "before":null} '.replace(', "before":null', "")), newest);
  // Bytes: core refuses a byte order mark and bytes that are not UTF-8.
  const bytes = new TextEncoder().encode('{"operation":"sessions","order":"updated","limit":2}');
  assert.deepEqual(sessionsQuery(bytes), newest);
  assert.equal(sessionsQuery(new Uint8Array([0xef, 0xbb, 0xbf, ...bytes])), null, "a byte order mark");
  const bad = new TextEncoder().encode('{"operation":"sessions","order":"updated","before":{"updatedAt":"","sessionId":"_"}}');
  bad[bad.indexOf(0x5f)] = 0xff;
  assert.equal(sessionsQuery(bad), null, "not UTF-8");
  // before: core reads a lone surrogate as U+FFFD, and takes a member whose
  // name matches updatedAt or sessionId ignoring case (the last one given).
  for (const before of [{ updatedAt: T, sessionId: "\uD800" }, { updatedAt: T + "\uDC00", sessionId: "a" }, { updatedAt: T, sessionId: "b", SessionID: "c" }, { sessionid: "c", updatedAt: T, sessionId: "b" }, { updatedAt: T, sessionId: "b", "\u017FessionId": "c" }]) {
    assert.equal(sessionsQuery({ operation: "sessions", order: "updated", before }), null, JSON.stringify(before));
  }
  assert.equal(sessionsQuery('{"operation":"sessions","order":"updated","before":{"updatedAt":"x","sessionId":"\\ud800"}}'), null);
  // A summary of the page before, with all its members, is a before core takes.
  const summary = { sessionId: "b", title: "t", nodeCount: 1, cursor: null, activeBranch: "main", updatedAt: T };
  assert.deepEqual(sessionsQuery({ operation: "sessions", order: "updated", limit: 2, before: summary }), { ...newest, before: { updatedAt: T, sessionId: "b" } });
});
