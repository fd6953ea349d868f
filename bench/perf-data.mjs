// Snapshots for the performance benchmark (bench/perf.mjs), built from the
// search benchmark's deterministic corpus (bench/corpus.mjs) so every figure
// is measured on the same messages. Runs in the browser and in Node.

import { makeCorpus } from "./corpus.mjs";

const BASE = Date.UTC(2026, 10, 29, 12, 0, 0);

/** Node i of the corpus in snapshot form: a root every `chain` nodes, else the child of node i-1. */
function nodeOf(corpus, i, chain) {
  const m = corpus.messages[i];
  return {
    id: m.id,
    parentId: i % chain === 0 ? null : corpus.messages[i - 1].id,
    branch: "main",
    kind: "message",
    timestamp: new Date(BASE + i * 1000).toISOString(),
    message: { role: m.role, content: m.text },
  };
}

/**
 * Build a snapshot of `messages` chat messages of the corpus (about 150
 * characters each) as chains of `chain` nodes: node i has parent i-1, except
 * every chain's first node, which is a root. With chain = messages the
 * session is one path; the cursor is the last node, so `context` walks a
 * path `chain` nodes deep (or the last chain's length).
 * @param {{messages: number, chain?: number, sessionId?: string, corpus?: object}} options
 * @returns {{snapshot: object, text: string, corpus: object}} the snapshot object and its JSON text
 */
export function buildSnapshot({ messages, chain = messages, sessionId = "perf", corpus = null }) {
  corpus ??= makeCorpus({ messages, perClass: 2 });
  const nodes = new Array(messages);
  for (let i = 0; i < messages; i++) nodes[i] = nodeOf(corpus, i, chain);
  const snapshot = { version: 1, sessionId, cursor: nodes[messages - 1].id, activeBranch: "main", nodes };
  return { snapshot, text: JSON.stringify(snapshot), corpus };
}

/**
 * The same snapshot as buildSnapshot, as JSON text only, built node by node
 * so a 1,000,000-node snapshot never exists as objects (that would need
 * gigabytes of JS heap).
 * @param {{messages: number, chain?: number, sessionId?: string, corpus: object}} options
 * @returns {string}
 */
export function buildSnapshotText({ messages, chain = messages, sessionId = "perf", corpus }) {
  const parts = new Array(messages);
  for (let i = 0; i < messages; i++) parts[i] = JSON.stringify(nodeOf(corpus, i, chain));
  const head = JSON.stringify({ version: 1, sessionId, cursor: corpus.messages[messages - 1].id, activeBranch: "main" });
  return head.slice(0, -1) + ',"nodes":[' + parts.join(",") + "]}";
}

/** The median of a list of numbers (NaN for none). */
export function median(xs) {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
