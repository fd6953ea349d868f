// sessiontree/openai: a chat adapter for any OpenAI-compatible Chat
// Completions endpoint (OpenAI, a local Ollama, llama.cpp server, LM
// Studio, vLLM, …). It sends a session's `context` as the request's
// `messages`, reads the streamed reply (server-sent events), hands each
// piece to the page as it arrives, and appends the finished reply as one
// assistant node. Dependency-free; only `tree.call` of a SessionTree is used.
//
// Streaming and the tree. The tree is append-only and a node never changes,
// so the reply is not written piece by piece: deltas go to `onDelta` as
// they arrive and the assistant node is appended once, when the stream has
// ended properly (`data: [DONE]`, or a finish_reason and the end of the
// body). A reply that fails or is aborted is absent from the tree — never a
// half node — and its text so far is only in the error envelope
// (`error.partial`), for the page to show.
//
// The mapping of our messages to Chat Completions messages and the SSE
// parser are in js/openai-wire.js (re-exported here).

import { SSEParser, chatCompletionsURL, toChatMessages } from "./openai-wire.js";
import { ERROR } from "./protocol.js";
import { runCompletion } from "./completion-fn.js";

export { SSEParser, chatCompletionsURL, toChatMessages };

/** Default number of retries of a request that failed before any delta arrived. */
export const DEFAULT_RETRIES = 2;
/** Default first backoff before a retry, ms (doubled each retry, up to MAX_RETRY_DELAY). */
export const DEFAULT_RETRY_DELAY = 500;
/** Longest wait before a retry, ms (a Retry-After header is capped by it too). */
export const MAX_RETRY_DELAY = 8000;
/** HTTP statuses worth a retry: timeout, conflict, rate limit and the gateway/server errors. */
export const RETRY_STATUSES = Object.freeze([408, 409, 425, 429, 500, 502, 503, 504]);

function fail(code, message, extra) {
  return { ok: false, error: { code, message, ...extra } };
}

function invalid(method, field, rule, value) {
  let shown;
  try {
    shown = value === undefined ? "undefined" : typeof value === "function" ? "a function" : JSON.stringify(value);
  } catch {
    shown = typeof value;
  }
  if (typeof shown !== "string" || shown.length > 40) shown = Array.isArray(value) ? "an array" : `a value of type ${typeof value}`;
  return fail(ERROR.INVALID_ARGUMENT, `${method}: ${field} ${rule}; got ${shown}`);
}

// ------------------------------------------------------------------ requests

/**
 * Check the settings argument of method; the request's URL and headers.
 * @returns {{url: string, headers: Record<string, string>, fetch: Function, body: object}|{ok: false, error: object}}
 */
function readSettings(method, settings) {
  // The app's own completion function (js/completion-fn.js).
  if (typeof settings === "function") return { complete: settings, model: null };
  if (settings === null || typeof settings !== "object" || Array.isArray(settings)) return invalid(method, "settings", "must be an object {baseURL, model, apiKey?, headers?, fetch?, body?}", settings);
  const url = chatCompletionsURL(settings.baseURL);
  if (typeof settings.baseURL !== "string" || url === null) return invalid(method, "settings.baseURL", "must be an http(s) URL such as http://localhost:11434/v1", settings.baseURL);
  if (typeof settings.model !== "string" || settings.model.trim() === "") return invalid(method, "settings.model", "must be a non-empty string", settings.model);
  if (settings.apiKey !== undefined && settings.apiKey !== null && typeof settings.apiKey !== "string") return invalid(method, "settings.apiKey", "must be a string", typeof settings.apiKey === "object" ? "an object" : typeof settings.apiKey); // never the value: it may be a secret
  const extra = settings.headers ?? {};
  if (typeof extra !== "object" || Array.isArray(extra)) return invalid(method, "settings.headers", "must be an object of header names to strings", extra);
  const body = settings.body ?? {};
  if (typeof body !== "object" || Array.isArray(body)) return invalid(method, "settings.body", "must be an object of request fields", body);
  const fetchFn = settings.fetch ?? globalThis.fetch;
  if (typeof fetchFn !== "function") return invalid(method, "settings.fetch", "must be a function like fetch", settings.fetch);
  const headers = { "Content-Type": "application/json", Accept: "text/event-stream" };
  if (settings.apiKey) headers.Authorization = `Bearer ${settings.apiKey}`;
  for (const [k, v] of Object.entries(extra)) headers[k] = String(v);
  return { url, headers, fetch: fetchFn, body, model: settings.model.trim() };
}

/** Check the options argument of method: {signal?, onDelta?, onRetry?, retries?, retryDelay?}. */
function readOptions(method, options) {
  if (options === undefined || options === null) return {};
  if (typeof options !== "object" || Array.isArray(options)) return invalid(method, "options", "must be an object", options);
  const { signal, onDelta, onRetry, retries, retryDelay } = options;
  if (signal !== undefined && signal !== null && !(typeof AbortSignal === "function" && signal instanceof AbortSignal)) return invalid(method, "options.signal", "must be an AbortSignal", signal);
  for (const [name, fn] of [["onDelta", onDelta], ["onRetry", onRetry]]) if (fn !== undefined && fn !== null && typeof fn !== "function") return invalid(method, `options.${name}`, "must be a function", fn);
  if (retries !== undefined && !(Number.isInteger(retries) && retries >= 0 && retries <= 10)) return invalid(method, "options.retries", "must be an integer from 0 to 10", retries);
  if (retryDelay !== undefined && !(Number.isFinite(retryDelay) && retryDelay >= 0)) return invalid(method, "options.retryDelay", "must be a number of ms ≥ 0", retryDelay);
  return options;
}

function shorten(text, max = 300) {
  const t = String(text).trim();
  return t.length > max ? `${t.slice(0, max)}…` : t;
}

/** The server's own words from an error body: error.message, message, detail, or the text. */
function serverMessage(text) {
  try {
    const v = JSON.parse(text);
    const m = v?.error?.message ?? (typeof v?.error === "string" ? v.error : undefined) ?? v?.message ?? v?.detail;
    if (typeof m === "string" && m !== "") return shorten(m);
  } catch {
    // not JSON: the text itself
  }
  return text.trim() === "" ? "(no message)" : shorten(text);
}

/** A Retry-After header (seconds or an HTTP date) in ms, capped; undefined when absent or bad. */
function retryAfter(value, now = Date.now()) {
  if (!value) return undefined;
  const s = Number(value);
  const ms = Number.isFinite(s) ? s * 1000 : Date.parse(value) - now;
  return Number.isFinite(ms) && ms >= 0 ? Math.min(ms, MAX_RETRY_DELAY) : undefined;
}

/** Resolves true after ms, false as soon as signal aborts. */
function sleep(ms, signal) {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const done = (ok) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      resolve(ok);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** What a reply has gathered so far, fed one chunk object at a time. */
class Reply {
  constructor(onDelta) {
    this.text = "";
    this.reasoning = "";
    this.toolCalls = [];
    this.finishReason = null;
    this.model = null;
    this.usage = null;
    this.deltas = 0;
    this._onDelta = onDelta;
  }

  /** Take one chunk (a parsed `data:` object): its deltas go to onDelta (which may throw). */
  take(chunk) {
    if (typeof chunk.model === "string" && chunk.model !== "") this.model = chunk.model;
    if (chunk.usage && typeof chunk.usage === "object") this.usage = chunk.usage;
    const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
    const choice = choices.find((c) => (c?.index ?? 0) === 0) ?? choices[0];
    if (!choice || typeof choice !== "object") return;
    const d = choice.delta ?? choice.message ?? {};
    const content = typeof d.content === "string" ? d.content : "";
    const reasoning = typeof d.reasoning_content === "string" ? d.reasoning_content : typeof d.reasoning === "string" ? d.reasoning : "";
    let toolCall = false;
    if (Array.isArray(d.tool_calls)) {
      d.tool_calls.forEach((tc, k) => {
        const at = Number.isInteger(tc?.index) ? tc.index : k;
        const slot = (this.toolCalls[at] ??= { id: "", type: "function", function: { name: "", arguments: "" } });
        if (typeof tc?.id === "string" && tc.id !== "") slot.id = tc.id;
        if (typeof tc?.function?.name === "string" && slot.function.name === "") slot.function.name = tc.function.name;
        if (typeof tc?.function?.arguments === "string") slot.function.arguments += tc.function.arguments;
        else if (tc?.function?.arguments && typeof tc.function.arguments === "object") slot.function.arguments += JSON.stringify(tc.function.arguments);
        toolCall = true;
      });
    }
    if (typeof choice.finish_reason === "string" && choice.finish_reason !== "") this.finishReason = choice.finish_reason;
    if (content === "" && reasoning === "" && !toolCall) return;
    this.text += content;
    this.reasoning += reasoning;
    this.deltas++;
    this._onDelta?.({ content, reasoning, text: this.text, reasoningText: this.reasoning, toolCalls: this.toolCalls.filter(Boolean) });
  }

  value(attempts) {
    return { text: this.text, reasoning: this.reasoning, toolCalls: this.toolCalls.filter(Boolean), finishReason: this.finishReason, model: this.model, usage: this.usage, attempts };
  }
}

const DONE = Symbol("done");

/** Feed one SSE event to reply: DONE, an error envelope, or undefined to go on. */
function takeEvent(ev, reply, status) {
  if (ev.data.trim() === "[DONE]") return DONE;
  let chunk;
  try {
    chunk = JSON.parse(ev.data);
  } catch {
    return fail("BAD_RESPONSE", `malformed event in the stream (its data is not JSON): ${shorten(ev.data, 120)}`);
  }
  if (chunk === null || typeof chunk !== "object" || Array.isArray(chunk)) return fail("BAD_RESPONSE", `malformed event in the stream (its data is not an object): ${shorten(ev.data, 120)}`);
  if (chunk.error !== undefined || ev.event === "error") return fail("HTTP_ERROR", `the server reported an error in the stream: ${serverMessage(ev.data)}`, { status });
  reply.take(chunk);
}

/**
 * One request: its envelope, with `retryable` on the error when another
 * attempt could succeed (and no delta has been handed on).
 */
async function attempt(req, body, reply, signal, n) {
  const aborted = () => fail("ABORTED", "the reply was aborted; nothing was appended", { partial: reply.text, attempts: n });
  let res;
  try {
    const send = req.fetch; // called unbound: window.fetch refuses another `this`
    res = await send(req.url, { method: "POST", headers: req.headers, body, signal: signal ?? undefined });
  } catch (err) {
    if (signal?.aborted) return aborted();
    return { ...fail("NETWORK_ERROR", `could not reach ${req.url}: ${err?.message ?? err}`, { attempts: n }), retryable: true };
  }
  if (!res.ok) {
    let text = "";
    try {
      text = await res.text();
    } catch {
      // the body broke too: the status says enough
    }
    if (signal?.aborted) return aborted();
    const env = fail("HTTP_ERROR", `${req.url} answered ${res.status}${res.statusText ? " " + res.statusText : ""}: ${serverMessage(text)}`, { status: res.status, attempts: n });
    return { ...env, retryable: RETRY_STATUSES.includes(res.status), retryAfter: retryAfter(res.headers.get("retry-after")) };
  }
  const type = res.headers.get("content-type") ?? "";
  if (/json/i.test(type) && !/event-stream/i.test(type)) {
    // A server that does not stream answers one completion object.
    let chunk;
    try {
      chunk = JSON.parse(await res.text());
    } catch (err) {
      if (signal?.aborted) return aborted();
      return fail("BAD_RESPONSE", `${req.url} answered JSON that does not parse: ${err?.message ?? err}`, { attempts: n });
    }
    if (signal?.aborted) return aborted();
    if (chunk?.error !== undefined) return fail("HTTP_ERROR", `the server reported an error: ${serverMessage(JSON.stringify(chunk))}`, { status: res.status, attempts: n });
    if (!Array.isArray(chunk?.choices) || chunk.choices.length === 0) return fail("BAD_RESPONSE", `${req.url} answered JSON with no choices`, { attempts: n });
    reply.take(chunk);
    reply.finishReason ??= "stop";
    return { ok: true, value: reply.value(n) };
  }
  if (!res.body) return fail("BAD_RESPONSE", `${req.url} answered with no body`, { attempts: n });
  const reader = res.body.getReader();
  const onAbort = () => reader.cancel().catch(() => {});
  signal?.addEventListener("abort", onAbort, { once: true });
  const decoder = new TextDecoder();
  const parser = new SSEParser();
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (signal?.aborted) return aborted();
      if (!done) bytes += value.byteLength;
      const events = done ? [...parser.push(decoder.decode()), ...parser.end()] : parser.push(decoder.decode(value, { stream: true }));
      for (const ev of events) {
        const got = takeEvent(ev, reply, res.status);
        if (got === DONE) {
          reader.cancel().catch(() => {});
          return { ok: true, value: reply.value(n) };
        }
        if (got) {
          reader.cancel().catch(() => {});
          return { ...got, error: { ...got.error, partial: reply.text, attempts: n } };
        }
      }
      if (done) break;
    }
  } catch (err) {
    if (signal?.aborted) return aborted();
    if (err?.sessiontreeCallback) {
      reader.cancel().catch(() => {});
      throw err;
    }
    return { ...fail("NETWORK_ERROR", `the stream from ${req.url} broke after ${bytes} bytes: ${err?.message ?? err}`, { partial: reply.text, attempts: n }), retryable: true };
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
  // The body ended without [DONE]: complete only when a finish_reason came.
  if (reply.finishReason !== null) return { ok: true, value: reply.value(n) };
  return { ...fail("NETWORK_ERROR", `the stream from ${req.url} ended after ${bytes} bytes before [DONE]`, { partial: reply.text, attempts: n }), retryable: true };
}

/**
 * Send messages to an OpenAI-compatible Chat Completions endpoint with
 * `stream: true` and read the reply as it streams. No tree is involved
 * (reply() is this plus the session's context and the append).
 *
 * Retries: a request that fails before any delta was handed to onDelta
 * (the endpoint unreachable, a status in RETRY_STATUSES, the stream broken
 * or ended early) is sent again up to `retries` times, after
 * `retryDelay`·2^(k−1) ms (k = 1, 2, …; at most MAX_RETRY_DELAY, or the
 * server's Retry-After when it gives one). Once a delta was handed on, a
 * failure is final (the page has shown text that another attempt would not
 * repeat).
 *
 * @param {{baseURL: string, model: string, apiKey?: string, headers?: Record<string, string>, fetch?: typeof fetch, body?: object}} settings
 *   baseURL as the OpenAI SDKs take it (e.g. "http://localhost:11434/v1"); apiKey is sent as
 *   "Authorization: Bearer …"; body: more request fields (temperature, max_tokens, …), which never
 *   replace model, messages or stream
 * @param {object[]} messages Chat Completions messages (toChatMessages)
 * @param {{signal?: AbortSignal, onDelta?: (d: {content: string, reasoning: string, text: string, reasoningText: string, toolCalls: object[]}) => void,
 *   onRetry?: (r: {attempt: number, delay: number, error: object}) => void, retries?: number, retryDelay?: number}} [options]
 *   onDelta gets each piece (content, reasoning) and everything so far (text, reasoningText);
 *   retries default DEFAULT_RETRIES, retryDelay (ms) DEFAULT_RETRY_DELAY
 * @returns {Promise<object>} never rejects: `{ok: true, value: {text, reasoning, toolCalls, finishReason, model, usage, attempts}}`,
 *   or `{ok: false, error: {code, message, status?, partial?, attempts?}}` with code ABORTED (the signal),
 *   HTTP_ERROR (a non-2xx status, `status` set, the message quoting the server's; or an error object in the stream),
 *   NETWORK_ERROR (unreachable, or the stream broke or ended before [DONE]), BAD_RESPONSE (an event whose data is not a
 *   JSON object: the whole reply fails rather than keep a reply with a hole), INVALID_ARGUMENT (a bad argument, or onDelta threw);
 *   `partial` is the text received before the failure
 */
export async function streamChatCompletion(settings, messages, options) {
  const checked = checkRequest("streamChatCompletion", settings, options);
  if (checked.ok === false) return checked;
  if (!Array.isArray(messages) || messages.length === 0) return invalid("streamChatCompletion", "messages", "must be a non-empty array", messages);
  return stream(checked.req, checked.opts, messages);
}

/** The settings and options of method read, or the INVALID_ARGUMENT envelope naming the bad field. */
function checkRequest(method, settings, options) {
  const req = readSettings(method, settings);
  if (req.ok === false) return req;
  const opts = readOptions(method, options);
  if (opts.ok === false) return opts;
  return { req, opts };
}

/** streamChatCompletion after its arguments were checked. */
async function stream(req, opts, messages) {
  const { signal, onRetry } = opts;
  const wrap = (fn) => (d) => {
    try {
      fn(d);
    } catch (cause) {
      throw Object.assign(new Error("onDelta threw"), { sessiontreeCallback: true, cause });
    }
  };
  if (req.complete) return runCompletion(req.complete, messages, { signal, onDelta: opts.onDelta ? wrap(opts.onDelta) : undefined }, (onDelta) => new Reply(onDelta));
  const retries = opts.retries ?? DEFAULT_RETRIES;
  const delay = opts.retryDelay ?? DEFAULT_RETRY_DELAY;
  const onDelta = opts.onDelta ? wrap(opts.onDelta) : undefined;
  const body = JSON.stringify({ ...req.body, model: req.model, messages, stream: true });
  for (let n = 1; ; n++) {
    if (signal?.aborted) return fail("ABORTED", "the reply was aborted; nothing was appended", { partial: "", attempts: n - 1 });
    const reply = new Reply(onDelta);
    let got;
    try {
      got = await attempt(req, body, reply, signal, n);
    } catch (err) {
      if (!err?.sessiontreeCallback) throw err;
      return fail(ERROR.INVALID_ARGUMENT, `options.onDelta threw: ${err.cause?.message ?? err.cause}; nothing was appended`, { partial: reply.text, attempts: n });
    }
    if (got.ok || !got.retryable || reply.deltas > 0 || n > retries) {
      if (!got.ok) return { ok: false, error: got.error };
      return got;
    }
    const wait = got.retryAfter ?? Math.min(delay * 2 ** (n - 1), MAX_RETRY_DELAY);
    try {
      onRetry?.({ attempt: n, delay: wait, error: got.error });
    } catch {
      // a failing observer does not stop the retry
    }
    if (!(await sleep(wait, signal))) return fail("ABORTED", "the reply was aborted; nothing was appended", { partial: "", attempts: n });
  }
}

// ------------------------------------------------------------------ the tree

function checkTree(method, tree) {
  return tree !== null && typeof tree === "object" && typeof tree.call === "function" ? null : invalid(method, "tree", "must be a SessionTree (an object with call())", tree);
}

function checkId(method, field, value) {
  return typeof value === "string" && value !== "" ? null : invalid(method, field, "must be a non-empty string", value);
}

/** The assistant message of a finished reply, as it is appended. */
function assistantMessage(got, model) {
  const m = { role: "assistant", content: got.text };
  if (got.toolCalls.length > 0) {
    m.tool_calls = got.toolCalls;
    if (got.text === "") m.content = null;
  }
  if (got.reasoning !== "") m.reasoning_content = got.reasoning;
  if ((got.model ?? model) !== null) m.model = got.model ?? model; // none from an app's completion function that names none
  return m;
}

/**
 * Append message under nodeId: when the cursor has moved away from it
 * meanwhile (the page jumped, another tab appended), jump back first, so
 * the reply always answers the context it was asked with (a jump into the
 * middle of a branch makes the append open a new branch). A failed append
 * puts the cursor back.
 */
async function appendUnder(tree, sessionId, nodeId, message) {
  const status = await tree.call({ operation: "session", sessionId });
  if (!status.ok) return status;
  const moved = status.value.cursor !== nodeId;
  if (moved) {
    const jumped = await tree.call({ operation: "jump", sessionId, nodeId });
    if (!jumped.ok) return jumped;
  }
  const appended = await tree.call({ operation: "append", sessionId, message });
  if (!appended.ok && moved && status.value.cursor !== null) await tree.call({ operation: "jump", sessionId, nodeId: status.value.cursor });
  return appended;
}

/**
 * Answer a session: send its `context` (root → cursor, mapped by
 * toChatMessages) to the endpoint, hand the reply to onDelta as it
 * streams, and append it as one assistant node under the node that was the
 * cursor when the call began — `{role: "assistant", content, tool_calls?,
 * reasoning_content?, model}` (model: the one the server named, else
 * settings.model). Nothing is appended until the stream has ended
 * properly, so a failed or aborted reply is absent from the tree, never a
 * half node; an abort after the stream ended but before the append also
 * appends nothing. Retries, errors and settings: streamChatCompletion.
 *
 * @param {{call: (request: object) => Promise<object>}} tree a SessionTree (init())
 * @param {string} sessionId
 * @param {object|Function} settings see streamChatCompletion; or the app's own completion function
 *   `(messages, {signal}) => Promise<string|message> | AsyncIterable<piece>` (js/completion-fn.js), then
 *   COMPLETION_ERROR when it fails and no retries
 * @param {object} [options] see streamChatCompletion
 * @returns {Promise<object>} never rejects: `{ok: true, value: {node, message, text, reasoning, toolCalls, finishReason,
 *   model, usage, attempts, warnings}}` (node: the appended node; warnings: what toChatMessages left out), or an
 *   error envelope: streamChatCompletion's codes, the tree's (SESSION_NOT_FOUND, STORAGE_ERROR, NODE_NOT_FOUND when the
 *   answered node is gone), INVALID_ARGUMENT for a bad argument or a context with nothing to send
 */
export async function reply(tree, sessionId, settings, options) {
  const bad = checkTree("reply", tree) ?? checkId("reply", "sessionId", sessionId);
  if (bad) return bad;
  const checked = checkRequest("reply", settings, options);
  if (checked.ok === false) return checked;
  return replyChecked(tree, sessionId, checked);
}

/** reply after its arguments were checked. */
async function replyChecked(tree, sessionId, { req, opts }) {
  const ctx = await tree.call({ operation: "context", sessionId });
  if (!ctx.ok) return ctx;
  const { messages, warnings } = toChatMessages(ctx.value.messages);
  if (messages.length === 0) return fail(ERROR.INVALID_ARGUMENT, `reply: session ${JSON.stringify(sessionId)} has no messages to send at its cursor`);
  const got = await stream(req, opts, messages);
  if (!got.ok) return got;
  if (opts.signal?.aborted) return fail("ABORTED", "the reply was aborted; nothing was appended", { partial: got.value.text, attempts: got.value.attempts });
  const message = assistantMessage(got.value, req.model);
  const appended = await appendUnder(tree, sessionId, ctx.value.cursor, message);
  if (!appended.ok) return { ok: false, error: { ...appended.error, partial: got.value.text } };
  return { ok: true, value: { node: appended.value, message, ...got.value, warnings } };
}

/**
 * Regenerate: a new reply as a sibling of an old one. nodeId is the
 * assistant node to answer again (its parent is answered), or any other
 * node (it is answered itself). The cursor moves to the answered node for
 * the request (so `context` and the page show the history being
 * answered); the new reply is appended there, beside the old replies. When
 * the reply fails, the cursor is put back where it was, unless something
 * else moved it meanwhile.
 *
 * @param {{call: (request: object) => Promise<object>}} tree
 * @param {string} sessionId
 * @param {string} nodeId
 * @param {object|Function} settings see streamChatCompletion; or the app's own completion function
 *   `(messages, {signal}) => Promise<string|message> | AsyncIterable<piece>` (js/completion-fn.js), then
 *   COMPLETION_ERROR when it fails and no retries
 * @param {object} [options] see streamChatCompletion
 * @returns {Promise<object>} as reply(); also NODE_NOT_FOUND for an unknown nodeId, INVALID_ARGUMENT for
 *   an assistant root (nothing to answer)
 */
export async function regenerate(tree, sessionId, nodeId, settings, options) {
  const bad = checkTree("regenerate", tree) ?? checkId("regenerate", "sessionId", sessionId) ?? checkId("regenerate", "nodeId", nodeId);
  if (bad) return bad;
  const checked = checkRequest("regenerate", settings, options);
  if (checked.ok === false) return checked;
  const node = await tree.call({ operation: "node", sessionId, nodeId });
  if (!node.ok) return node;
  const isReply = node.value.kind === "message" && node.value.message?.role === "assistant";
  if (isReply && node.value.parentId === null) return fail(ERROR.INVALID_ARGUMENT, `regenerate: node ${JSON.stringify(nodeId)} is an assistant root; there is no message it answers`);
  return moveAndRun(tree, sessionId, isReply ? node.value.parentId : nodeId, () => replyChecked(tree, sessionId, checked));
}

/** Jump to target, run fn; when fn fails, jump back unless the cursor moved meanwhile. */
async function moveAndRun(tree, sessionId, target, fn) {
  const before = await tree.call({ operation: "session", sessionId });
  if (!before.ok) return before;
  const from = before.value.cursor;
  if (from !== target) {
    const jumped = await tree.call({ operation: "jump", sessionId, nodeId: target });
    if (!jumped.ok) return jumped;
  }
  const got = await fn();
  if (!got.ok && from !== null && from !== target) {
    const now = await tree.call({ operation: "session", sessionId });
    if (now.ok && now.value.cursor === target) await tree.call({ operation: "jump", sessionId, nodeId: from });
  }
  return got;
}

/**
 * Edit: a new message as a sibling of an old one (an edited user message):
 * the cursor moves to the old message's parent and `{role, content}` is
 * appended there (role: the old message's). No reply is asked for: call
 * reply() next to get one. The edit of a root (a chat's first message)
 * is a new root beside it (append with root: true), on a new branch.
 *
 * @param {{call: (request: object) => Promise<object>}} tree
 * @param {string} sessionId
 * @param {string} nodeId the message to edit (a message node)
 * @param {string|object[]} content the new content: text, or content parts
 * @param {object|Function} [settings] when given, the edited message is answered at once, as reply() with these
 *   settings (or the app's completion function) and options: the value is then reply()'s, with `edited`, the new node
 * @param {object} [options] see streamChatCompletion
 * @returns {Promise<object>} never rejects: `{ok: true, value: node}` (the new node, now the cursor), or an error
 *   envelope: NODE_NOT_FOUND, SESSION_NOT_FOUND, INVALID_ARGUMENT (a node that is not a message, bad content),
 *   STORAGE_ERROR; a failed append puts the cursor back. With settings, a failed reply leaves the edited message (the cursor on it)
 */
export async function edit(tree, sessionId, nodeId, content, settings, options) {
  const bad = checkTree("edit", tree) ?? checkId("edit", "sessionId", sessionId) ?? checkId("edit", "nodeId", nodeId);
  if (bad) return bad;
  if (settings !== undefined) {
    const checked = checkRequest("edit", settings, options);
    if (checked.ok === false) return checked;
    const edited = await edit(tree, sessionId, nodeId, content);
    if (!edited.ok) return edited;
    const got = await replyChecked(tree, sessionId, checked);
    return got.ok ? { ok: true, value: { ...got.value, edited: edited.value } } : got;
  }
  if (typeof content !== "string" && !Array.isArray(content)) return invalid("edit", "content", "must be a string or an array of content parts", content);
  const node = await tree.call({ operation: "node", sessionId, nodeId });
  if (!node.ok) return node;
  if (node.value.kind !== "message") return fail(ERROR.INVALID_ARGUMENT, `edit: node ${JSON.stringify(nodeId)} is a ${node.value.kind} node, not a message`);
  const message = { role: node.value.message.role, content };
  if (node.value.parentId === null) return tree.call({ operation: "append", sessionId, message, root: true });
  return moveAndRun(tree, sessionId, node.value.parentId, () => tree.call({ operation: "append", sessionId, message }));
}
