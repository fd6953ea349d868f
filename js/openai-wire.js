// The wire side of sessiontree/openai (js/openai.js re-exports it): our
// context messages mapped to Chat Completions messages, the incremental
// server-sent events parser, and the endpoint URL. Pure functions, no I/O.
//
// Mapping of our messages to Chat Completions messages (toChatMessages):
// - role system, developer, user, assistant, tool pass as they are; Pi's
//   `toolResult` becomes `tool` (tool_call_id from toolCallId); any other
//   role (custom, bashExecution, …) is left out, with a warning.
// - Only role, content, name, tool_calls and tool_call_id are sent: our
//   vendor fields (model, reasoning_content, timestamps, …) are not (strict
//   servers refuse unknown fields, and reasoning is not sent back).
// - content: a string is sent as it is, except that an assistant's leading
//   `<think>…</think>` section is cut. An array of parts: text parts
//   (text, input_text, output_text) are kept; reasoning parts (thinking,
//   redacted_thinking, reasoning) are dropped; images (image_url, or
//   base64 `image` parts of Pi and Anthropic) are kept as image_url parts
//   in user messages; tool call parts (toolCall, tool_use, tool_call,
//   function_call) become the message's `tool_calls`; tool result parts
//   (tool_result, toolResult, function_call_output) become `tool` messages
//   of their own, before the rest of the message; anything else is left
//   out with a warning. Parts that are all text are joined with a blank
//   line into one string (what every local server accepts).
//
// The SSE parser follows the WHATWG HTML "server-sent events" parsing rules
// (https://html.spec.whatwg.org/multipage/server-sent-events.html): lines
// end in CRLF, LF or CR; ":" starts a comment; `data` lines of one event
// join with "\n"; a blank line dispatches; a leading BOM is dropped.

const PASS_ROLES = new Set(["system", "developer", "user", "assistant", "tool"]);
const TEXT_PARTS = new Set(["text", "input_text", "output_text"]);
const REASONING_PARTS = new Set(["thinking", "redacted_thinking", "reasoning", "thoughts", "reasoning_recap"]);
const TOOL_CALL_PARTS = new Set(["toolCall", "tool_use", "tool_call", "function_call"]);
const TOOL_RESULT_PARTS = new Set(["tool_result", "toolResult", "function_call_output"]);

// ------------------------------------------------------------------ SSE

/**
 * An incremental parser of a server-sent event stream (text/event-stream),
 * after the WHATWG parsing rules: feed it decoded text in pieces of any
 * size (a line or a CRLF may be cut anywhere) and take the events each
 * piece completes. `id` and `retry` fields are read and ignored; comments
 * (lines starting with ":") are counted in `comments`.
 */
export class SSEParser {
  constructor() {
    this._buf = "";
    this._data = [];
    this._event = "";
    this._started = false;
    /** Comment lines seen (keep-alives such as ": ping"). */
    this.comments = 0;
  }

  /**
   * Parse the next piece of the stream's text.
   * @param {string} text decoded text (TextDecoder with {stream: true})
   * @returns {{event: string, data: string}[]} the events it completes, in order;
   *   event is "message" when the stream named none
   */
  push(text) {
    let buf = this._buf + text;
    if (!this._started && buf.length > 0) {
      this._started = true;
      if (buf.charCodeAt(0) === 0xfeff) buf = buf.slice(1);
    }
    const out = [];
    let at = 0;
    for (;;) {
      const lf = buf.indexOf("\n", at);
      const cr = buf.indexOf("\r", at);
      let end = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
      if (end < 0) break;
      // A CR at the very end may be the first half of a CRLF: wait for more.
      if (end === cr && cr === buf.length - 1) break;
      const next = end === cr && buf[cr + 1] === "\n" ? cr + 2 : end + 1;
      this._line(buf.slice(at, end), out);
      at = next;
    }
    this._buf = buf.slice(at);
    return out;
  }

  /**
   * The end of the stream: the last line, and the last event even without
   * its closing blank line (the spec drops such an event; servers that end
   * on `data: [DONE]` with no blank line are common enough to keep it).
   * @returns {{event: string, data: string}[]}
   */
  end() {
    const out = [];
    if (this._buf !== "") this._line(this._buf.endsWith("\r") ? this._buf.slice(0, -1) : this._buf, out);
    this._buf = "";
    this._line("", out);
    return out;
  }

  _line(line, out) {
    if (line === "") {
      if (this._data.length > 0) out.push({ event: this._event || "message", data: this._data.join("\n") });
      this._data = [];
      this._event = "";
      return;
    }
    if (line.charCodeAt(0) === 0x3a) {
      this.comments++;
      return;
    }
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.charCodeAt(0) === 0x20) value = value.slice(1);
    if (field === "data") this._data.push(value);
    else if (field === "event") this._event = value;
  }
}

// ------------------------------------------------------------------ messages

function partType(part) {
  return typeof part?.type === "string" ? part.type : typeof part?.content_type === "string" ? part.content_type : "";
}

function toolArguments(value) {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value ?? {});
  } catch {
    return "{}";
  }
}

function resultText(content) {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p === "string" ? p : typeof p?.text === "string" ? p.text : toolArguments(p))).join("\n");
  return content === undefined || content === null ? "" : toolArguments(content);
}

function imagePart(part) {
  if (part.image_url !== undefined) return { type: "image_url", image_url: typeof part.image_url === "string" ? { url: part.image_url } : part.image_url };
  const src = part.source;
  if (src?.type === "base64" && typeof src.data === "string") return { type: "image_url", image_url: { url: `data:${src.media_type ?? "image/png"};base64,${src.data}` } };
  if (src?.type === "url" && typeof src.url === "string") return { type: "image_url", image_url: { url: src.url } };
  if (typeof part.data === "string") return { type: "image_url", image_url: { url: `data:${part.mimeType ?? part.mime_type ?? "image/png"};base64,${part.data}` } };
  return null;
}

/** Cut an assistant's leading <think>…</think> (reasoning some models write into content). */
function withoutThink(text) {
  const m = /^\s*<(think|thinking)>[\s\S]*?<\/\1>\s*/.exec(text);
  return m ? text.slice(m[0].length) : text;
}

/**
 * Map one of our messages (at index i of the context) to Chat Completions
 * messages: usually one, several when tool result parts become tool
 * messages, none for a role the API has no place for.
 */
function mapMessage(m, i, warnings) {
  if (m === null || typeof m !== "object" || typeof m.role !== "string") {
    warnings.push(`messages[${i}]: not a message; left out`);
    return [];
  }
  let role = m.role;
  const base = {};
  if (role === "toolResult") {
    role = "tool";
    if (typeof m.toolCallId === "string") base.tool_call_id = m.toolCallId;
  } else if (!PASS_ROLES.has(role)) {
    warnings.push(`messages[${i}]: role ${JSON.stringify(role)} has no Chat Completions role; left out`);
    return [];
  }
  if (typeof m.name === "string" && m.name !== "") base.name = m.name;
  if (role === "assistant" && Array.isArray(m.tool_calls) && m.tool_calls.length > 0) base.tool_calls = m.tool_calls;
  if (role === "tool" && typeof m.tool_call_id === "string") base.tool_call_id = m.tool_call_id;
  const out = [];
  let content = m.content;
  if (typeof content === "string") {
    content = role === "assistant" ? withoutThink(content) : content;
  } else if (Array.isArray(content)) {
    const parts = [];
    const calls = [];
    content.forEach((part, k) => {
      const type = typeof part === "string" ? "text" : partType(part);
      if (typeof part === "string") parts.push({ type: "text", text: part });
      else if (TEXT_PARTS.has(type) && typeof part.text === "string") parts.push({ type: "text", text: role === "assistant" ? withoutThink(part.text) : part.text });
      else if (REASONING_PARTS.has(type)) return;
      else if (TOOL_CALL_PARTS.has(type)) {
        calls.push({ id: String(part.id ?? part.call_id ?? `call_${i}_${k}`), type: "function", function: { name: String(part.name ?? part.function?.name ?? "tool"), arguments: toolArguments(part.arguments ?? part.input ?? part.function?.arguments) } });
      } else if (TOOL_RESULT_PARTS.has(type)) {
        out.push({ role: "tool", tool_call_id: String(part.tool_use_id ?? part.toolCallId ?? part.call_id ?? base.tool_call_id ?? ""), content: resultText(part.content ?? part.output) });
      } else if (role === "user" && (/image/i.test(type) || part?.image_url !== undefined) && imagePart(part) !== null) parts.push(imagePart(part));
      else warnings.push(`messages[${i}].content[${k}]: part of type ${JSON.stringify(type || typeof part)} left out`);
    });
    if (calls.length > 0 && role === "assistant") base.tool_calls = [...(Array.isArray(base.tool_calls) ? base.tool_calls : []), ...calls];
    // A user message of tool results only (Anthropic's shape) is those tool messages.
    if (parts.length === 0 && out.length > 0 && role === "user") return out;
    content = parts.every((p) => p.type === "text") ? parts.map((p) => p.text).join("\n\n") : parts;
  } else if (content === null || content === undefined) {
    content = role === "assistant" && base.tool_calls ? null : "";
  } else {
    content = String(content);
  }
  if (content === "" && role === "assistant" && base.tool_calls) content = null;
  out.push({ role, content, ...base });
  return out;
}

/**
 * Our context messages as a Chat Completions `messages` array (the mapping
 * is in this module's header). Pure; never throws.
 * @param {unknown[]} messages the `messages` of a context value
 * @returns {{messages: object[], warnings: string[]}} warnings name each message
 *   (by index) or part left out
 */
export function toChatMessages(messages) {
  const warnings = [];
  const out = [];
  (Array.isArray(messages) ? messages : []).forEach((m, i) => out.push(...mapMessage(m, i, warnings)));
  return { messages: out, warnings };
}

/**
 * The Chat Completions URL of a base URL as the OpenAI SDKs take it
 * ("http://localhost:11434/v1" → ".../v1/chat/completions"); a URL that
 * already ends in /chat/completions is used as it is.
 * @param {string} baseURL an http: or https: URL
 * @returns {string|null} null when baseURL is not an http(s) URL
 */
export function chatCompletionsURL(baseURL) {
  let u;
  try {
    u = new URL(String(baseURL).trim());
  } catch {
    return null;
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return null;
  const path = u.pathname.replace(/\/+$/, "");
  if (!/\/chat\/completions$/.test(path)) u.pathname = `${path}/chat/completions`;
  return u.href;
}
