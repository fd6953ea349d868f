#!/usr/bin/env node
// Deterministic export files for the import benchmarks (issue 15): a
// ChatGPT conversations.json with regenerated and edited branches, a Claude
// Code transcript and a Pi session, all of real-ish prose built from
// bench/corpus.mjs's words with its seeded PRNG. The same options give the
// same bytes in Node and in a page.
//
//   node bench/gen-exports.mjs chatgpt [--mb 20] [--seed N] > conversations.json
//   node bench/gen-exports.mjs claude-code --mb 20 > session.jsonl
//   node bench/gen-exports.mjs pi --mb 20 > session.jsonl
//   node bench/gen-exports.mjs dataset --mb 55 > train.jsonl   (fine-tuning JSONL)
//
//   import { genChatGPT } from "./gen-exports.mjs";
//   const pieces = genChatGPT({ mb: 20 });   // string pieces; join("") is the file
//
// Sizes are in MB of UTF-16 code units (the text is nearly all ASCII, so
// about the file's bytes): generation stops at the first conversation (or
// line) that reaches the target. A ChatGPT file of 20 MB holds about 500
// conversations (~40 KB each, ~50 mapping nodes: a system root, then user
// and assistant turns where about one assistant turn in four was
// regenerated once or twice and one user turn in ten was edited, each
// opening a branch), shaped like the exports ChatGPT writes (the fields of
// librechat/chatgpt-modern-export.json in the shared fixtures).

import { COMMON, prng } from "./corpus.mjs";

// The words of bench/corpus.mjs's base vocabulary.
const WORDS = COMMON;

/** A paragraph of n sentences of prose, with an occasional code span, quote or line break. */
function prose(rand, sentences) {
  let out = "";
  for (let s = 0; s < sentences; s++) {
    const len = 6 + Math.floor(rand() * 14);
    let sentence = "";
    for (let w = 0; w < len; w++) {
      let word = WORDS[Math.floor(rand() * WORDS.length)];
      if (w === 0) word = word[0].toUpperCase() + word.slice(1);
      const r = rand();
      if (r < 0.02) word = "`" + word + "()`";
      else if (r < 0.03) word = '"' + word + '"';
      sentence += (w ? " " : "") + word;
    }
    out += (s ? (rand() < 0.15 ? "\n\n" : " ") : "") + sentence + (rand() < 0.1 ? "?" : ".");
  }
  return out;
}

/** A v4-shaped uuid from rand. */
function uuid(rand) {
  let h = "";
  for (let i = 0; i < 32; i++) h += "0123456789abcdef"[Math.floor(rand() * 16)];
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const iso = (sec) => new Date(Math.round(sec * 1000)).toISOString();

/**
 * A conversation's turns as a tree: [{id, parent, role, text, time}] in
 * creation order, with regenerated assistant answers and edited user
 * turns as sibling branches; current is the leaf of the last path.
 */
function turns(rand, start, target) {
  const nodes = [];
  let t = start;
  let parent = null;
  let size = 0;
  const add = (role, sentences, under) => {
    t += 5 + rand() * 60;
    const n = { id: uuid(rand), parent: under, role, text: prose(rand, sentences), time: t };
    nodes.push(n);
    size += n.text.length + 900; // the record's own fields
    return n;
  };
  while (size < target) {
    let user = add("user", 1 + Math.floor(rand() * 3), parent);
    if (rand() < 0.1 && parent !== null) user = add("user", 1 + Math.floor(rand() * 3), parent); // an edit: a sibling
    let answer = add("assistant", 3 + Math.floor(rand() * 9), user.id);
    const regen = rand();
    if (regen < 0.25) answer = add("assistant", 3 + Math.floor(rand() * 9), user.id);
    if (regen < 0.08) answer = add("assistant", 3 + Math.floor(rand() * 9), user.id);
    parent = answer.id;
  }
  return { nodes, current: parent };
}

/**
 * A ChatGPT conversations.json of about mb MB (see the file comment).
 * @param {{mb?: number, seed?: number}} [options]
 * @returns {string[]} the file's text in pieces (one per conversation)
 */
export function genChatGPT({ mb = 20, seed = 20261201 } = {}) {
  const rand = prng(seed);
  const target = mb * 1e6;
  const pieces = ["["];
  let size = 1;
  for (let k = 0; size < target; k++) {
    const created = 1700000000 + k * 7919.5 + rand() * 1000;
    const { nodes, current } = turns(rand, created, 30000 + rand() * 20000);
    const rootId = uuid(rand);
    const sysId = uuid(rand);
    const kids = new Map([[rootId, [sysId]], [sysId, []]]);
    for (const n of nodes) {
      n.parent ??= sysId;
      kids.set(n.id, []);
      kids.get(n.parent).push(n.id);
    }
    const mapping = {
      [rootId]: { id: rootId, message: null, parent: null, children: kids.get(rootId) },
      [sysId]: {
        id: sysId,
        message: { id: sysId, author: { role: "system", name: null, metadata: {} }, create_time: null, update_time: null, content: { content_type: "text", parts: [""] }, status: "finished_successfully", end_turn: true, weight: 0, metadata: { is_visually_hidden_from_conversation: true }, recipient: "all", channel: null },
        parent: rootId,
        children: kids.get(sysId),
      },
    };
    for (const n of nodes) {
      const assistant = n.role === "assistant";
      mapping[n.id] = {
        id: n.id,
        message: {
          id: n.id,
          author: { role: n.role, name: null, metadata: {} },
          create_time: n.time,
          update_time: assistant ? n.time + 3.25 : null,
          content: { content_type: "text", parts: [n.text] },
          status: "finished_successfully",
          end_turn: assistant ? true : null,
          weight: 1.0,
          metadata: assistant
            ? { finish_details: { type: "stop", stop_tokens: [200002] }, is_complete: true, citations: [], content_references: [], model_slug: "gpt-4o", default_model_slug: "gpt-4o", parent_id: n.parent, request_id: uuid(rand).slice(0, 18), timestamp_: "absolute" }
            : { selected_github_repos: [], serialization_metadata: { custom_symbol_offsets: [] }, request_id: uuid(rand).slice(0, 18), message_source: null, timestamp_: "absolute", message_type: null },
          recipient: "all",
          channel: assistant ? "final" : null,
        },
        parent: n.parent,
        children: kids.get(n.id),
      };
    }
    const id = uuid(rand);
    const conv = {
      title: prose(rand, 1).slice(0, 40 + Math.floor(rand() * 20)).replace(/[.?]$/, ""),
      create_time: created,
      update_time: nodes[nodes.length - 1].time,
      mapping,
      moderation_results: [],
      current_node: current,
      plugin_ids: null,
      conversation_id: id,
      conversation_template_id: null,
      gizmo_id: null,
      gizmo_type: null,
      is_archived: false,
      is_starred: null,
      safe_urls: [],
      blocked_urls: [],
      default_model_slug: "gpt-4o",
      conversation_origin: null,
      voice: null,
      async_status: null,
      disabled_tool_ids: [],
      is_do_not_remember: false,
      memory_scope: "global_enabled",
      id,
    };
    const text = (k ? ", " : "") + JSON.stringify(conv);
    pieces.push(text);
    size += text.length;
  }
  pieces.push("]");
  return pieces;
}

/**
 * One linear-with-branches session as JSON lines of about mb MB: each
 * turn's line made by line(turn, index); a tenth of the user turns are
 * rewinds (a sibling of an earlier turn's answer).
 */
function jsonLines(mb, seed, header, line) {
  const rand = prng(seed);
  const target = mb * 1e6;
  const pieces = header ? [header(rand)] : [];
  let size = pieces.join("").length;
  let parent = null;
  let t = 1760000000;
  const answers = [];
  for (let i = 0; size < target; i++) {
    const user = i % 2 === 0;
    if (user && answers.length > 1 && rand() < 0.1) parent = answers[answers.length - 2]; // a rewind
    t += 2 + rand() * 40;
    const turn = { id: uuid(rand), parent, role: user ? "user" : "assistant", text: prose(rand, user ? 1 + Math.floor(rand() * 3) : 3 + Math.floor(rand() * 9)), time: t };
    const text = line(rand, turn) + "\n";
    pieces.push(text);
    size += text.length;
    parent = turn.id;
    if (!user) answers.push(turn.id);
  }
  return pieces;
}

/**
 * A Claude Code transcript (one session's .jsonl) of about mb MB.
 * @param {{mb?: number, seed?: number}} [options]
 * @returns {string[]} the file's lines (each ends with "\n")
 */
export function genClaudeCode({ mb = 20, seed = 20261202 } = {}) {
  const session = uuid(prng(seed + 1)); // another seed, another session
  return jsonLines(mb, seed, null, (rand, turn) => {
    const base = { parentUuid: turn.parent, isSidechain: false, userType: "external", cwd: "/home/user/src/project", sessionId: session, version: "2.0.46", gitBranch: "main", uuid: turn.id, timestamp: iso(turn.time), type: turn.role };
    if (turn.role === "user") return JSON.stringify({ ...base, message: { role: "user", content: turn.text } });
    return JSON.stringify({
      ...base,
      message: { id: "msg_" + turn.id.replace(/-/g, "").slice(0, 24), type: "message", role: "assistant", model: "claude-sonnet-4-5-20250929", content: [{ type: "text", text: turn.text }], stop_reason: "end_turn", stop_sequence: null, usage: { input_tokens: 3, cache_creation_input_tokens: 1412, cache_read_input_tokens: 20133, output_tokens: 365, service_tier: "standard" } },
      requestId: "req_" + turn.id.replace(/-/g, "").slice(0, 24),
    });
  });
}

/**
 * A Pi coding agent session (version 3 JSON lines) of about mb MB.
 * @param {{mb?: number, seed?: number}} [options]
 * @returns {string[]} the file's lines (each ends with "\n")
 */
export function genPi({ mb = 20, seed = 20261203 } = {}) {
  const header = (rand) => JSON.stringify({ type: "session", version: 3, id: uuid(rand), timestamp: iso(1760000000), cwd: "/home/user/src/project" }) + "\n";
  return jsonLines(mb, seed, header, (rand, turn) => {
    const message = turn.role === "user"
      ? { role: "user", content: [{ type: "text", text: turn.text }], timestamp: Math.round(turn.time * 1000) }
      : { role: "assistant", content: [{ type: "text", text: turn.text }], api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5", usage: { input: 3, output: 365, cacheRead: 20133, cacheWrite: 1412, totalTokens: 21913, cost: { input: 0.00001, output: 0.0055, cacheRead: 0.006, cacheWrite: 0.0053, total: 0.0168 } }, stopReason: "stop", timestamp: Math.round(turn.time * 1000) };
    return JSON.stringify({ type: "message", id: turn.id.slice(0, 8), parentId: turn.parent?.slice(0, 8) ?? null, timestamp: iso(turn.time), message });
  });
}

/**
 * A Codex rollout (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl) of about
 * mb MB, shaped like the ones codex-rs/core/src/rollout/recorder.rs writes
 * (core/import_agents_bench_test.go's codexRollout, with prose): a
 * session_meta with ~6 KB of base instructions, then per turn a
 * turn_context, task_started, the user message (a response_item and its
 * user_message event), a reasoning item with encrypted content, a shell
 * call and its output, the reply (and its agent_message event) and a
 * token_count.
 * @param {{mb?: number, seed?: number}} [options]
 * @returns {string[]} the file's lines (each ends with "\n")
 */
export function genCodex({ mb = 0.5, seed = 20261204 } = {}) {
  const rand = prng(seed);
  const id = uuid(rand);
  let t = 1760000000 + (seed % 100000) * 60;
  const lines = [];
  let size = 0;
  const line = (type, payload) => {
    const text = JSON.stringify({ timestamp: iso(t), type, payload }) + "\n";
    lines.push(text);
    size += text.length;
  };
  line("session_meta", { id, timestamp: iso(t), cwd: "/home/dev/project", originator: "codex_cli_rs", cli_version: "0.46.0", model_provider: "openai", base_instructions: { text: "You are Codex. ".repeat(400) } });
  const message = (role, type, text) => ({ type: "message", role, content: [{ type, text }] });
  for (let k = 0; size < mb * 1e6; k++) {
    t += 5 + rand() * 60;
    line("turn_context", { cwd: "/home/dev/project", approval_policy: "on-request", model: "gpt-5-codex", effort: "medium", summary: "auto" });
    line("event_msg", { type: "task_started", model_context_window: 272000 });
    const prompt = prose(rand, 1 + Math.floor(rand() * 3));
    line("response_item", message("user", "input_text", prompt));
    line("event_msg", { type: "user_message", message: prompt, images: [] });
    line("response_item", { type: "reasoning", summary: [{ type: "summary_text", text: "**" + prose(rand, 1) + "**" }], content: null, encrypted_content: "gAAAAAB" + "Zm9v".repeat(300) });
    line("response_item", { type: "function_call", name: "shell", arguments: JSON.stringify({ command: ["bash", "-lc", "rg parse src"] }), call_id: `call_${k}` });
    line("response_item", { type: "function_call_output", call_id: `call_${k}`, output: "src/parse.rs:12: fn parse(input: &str)\n".repeat(20) });
    const reply = prose(rand, 3 + Math.floor(rand() * 9));
    line("response_item", message("assistant", "output_text", reply));
    line("event_msg", { type: "agent_message", message: reply });
    line("event_msg", { type: "token_count", info: { total_token_usage: { input_tokens: 5120 * k, output_tokens: 310 * k } } });
  }
  return lines;
}

/**
 * A fine-tuning dataset JSONL in OpenAI chat format: one conversation a
 * line, {"messages":[…]}, a system message on every third line, a user
 * question of one to three sentences and an answer of five to ten (~900
 * bytes a line); `lines` lines, or fewer when mb MB is reached first.
 * @param {{mb?: number, lines?: number, seed?: number}} [options]
 * @returns {string[]} the file's lines, each ending in "\n"
 */
export function genDataset({ mb = Infinity, lines = Infinity, seed = 20261205 } = {}) {
  if (mb === Infinity && lines === Infinity) mb = 55;
  const rand = prng(seed);
  const out = [];
  let size = 0;
  for (let i = 0; i < lines && size < mb * 1e6; i++) {
    const messages = [];
    if (i % 3 === 0) messages.push({ role: "system", content: "You are a careful assistant. Answer briefly." });
    messages.push({ role: "user", content: prose(rand, 1 + Math.floor(rand() * 3)) });
    messages.push({ role: "assistant", content: prose(rand, 5 + Math.floor(rand() * 6)) });
    const line = JSON.stringify({ messages }) + "\n";
    out.push(line);
    size += line.length;
  }
  return out;
}

/** The generators by format name. */
export const GENERATORS = { chatgpt: genChatGPT, "claude-code": genClaudeCode, pi: genPi, codex: genCodex, dataset: genDataset };

if (typeof process !== "undefined" && import.meta.url === `file://${process.argv[1]}`) {
  const [format, ...rest] = process.argv.slice(2);
  const gen = GENERATORS[format];
  if (!gen) {
    console.error(`usage: node bench/gen-exports.mjs ${Object.keys(GENERATORS).join("|")} [--mb N] [--seed N]`);
    process.exit(2);
  }
  const opts = {};
  for (let i = 0; i < rest.length; i += 2) {
    if (rest[i] === "--mb") opts.mb = Number(rest[i + 1]);
    else if (rest[i] === "--seed") opts.seed = Number(rest[i + 1]);
    else {
      console.error(`unknown option ${rest[i]}`);
      process.exit(2);
    }
  }
  for (const piece of gen(opts)) process.stdout.write(piece);
}
