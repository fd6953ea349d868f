// Rendering of one chat message for the context pane: its Markdown (through
// markdown-it with raw HTML off, then DOMPurify as a second wall), its
// reasoning as collapsible "Thinking" sections (content parts of type
// thinking/reasoning, `reasoning_content`, Open WebUI's
// `<details type="reasoning">` blocks and `<think>` tags in assistant text),
// its tool calls (name and pretty-printed arguments) and results (folded),
// and its images and attachments as named placeholders (an image whose
// bytes are in the message itself is shown).
//
// Fenced code is highlighted by highlight.js, whose core and grammars are
// loaded only when a code block with a known language is on screen
// (highlightCode). The libraries are served from ./vendor/ (make vendor
// copies them from node_modules, pinned in package-lock.json).
//
// Safety: markdown-it never passes HTML through (html: false) and accepts
// only http(s)/mailto/relative link targets; DOMPurify then keeps only the
// tags Markdown makes, and a hook gives every link target="_blank" and
// rel="noopener noreferrer" (a link whose target is anything else loses its
// href). Everything this module builds itself is made with createElement
// and textContent; the sanitized Markdown arrives as a DocumentFragment
// (RETURN_DOM_FRAGMENT), never as a string given to innerHTML.

import MarkdownIt from "./vendor/markdown-it.js";
import DOMPurify from "./vendor/purify.js";
import { el } from "./dom.js";
import { citeMessage } from "./citations.js";
import { drawCitations, sourcesList } from "./render-citations.js";
import { patchText } from "./tool-diff.js";

/**
 * Fence languages highlight.js is asked for, alias → grammar file under
 * ./vendor/highlight/languages/ (the Makefile's HLJS_LANGUAGES copies them).
 * A fence in another language stays plain.
 */
export const CODE_LANGUAGES = Object.freeze({
  bash: "bash", sh: "bash", zsh: "bash",
  shell: "shell", console: "shell",
  c: "c", h: "c",
  cpp: "cpp", "c++": "cpp", cc: "cpp", hpp: "cpp",
  csharp: "csharp", cs: "csharp", "c#": "csharp",
  css: "css",
  diff: "diff", patch: "diff",
  go: "go", golang: "go",
  java: "java",
  javascript: "javascript", js: "javascript", jsx: "javascript", mjs: "javascript", cjs: "javascript",
  json: "json", jsonc: "json",
  markdown: "markdown", md: "markdown",
  php: "php",
  python: "python", py: "python",
  ruby: "ruby", rb: "ruby",
  rust: "rust", rs: "rust",
  sql: "sql",
  typescript: "typescript", ts: "typescript", tsx: "typescript",
  xml: "xml", html: "xml", svg: "xml",
  yaml: "yaml", yml: "yaml",
});

/** Link schemes a rendered link may have (anything else loses its href). */
const SAFE_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);

const md = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false });
// Bare "main.go" or "notes.md" are file names in these histories, not links:
// only URLs with a scheme (or www.) are linkified.
md.linkify.set({ fuzzyLink: false, fuzzyEmail: false });
md.validateLink = (url) => {
  const u = url.trim();
  if (!/^[a-z][a-z0-9+.-]*:/i.test(u)) return !u.startsWith("//");
  return /^(https?|mailto):/i.test(u);
};
// Images in Markdown are never fetched: a named placeholder instead.
md.renderer.rules.image = (tokens, idx) => {
  const t = tokens[idx];
  const src = t.attrGet("src") ?? "";
  const alt = t.content ? `${t.content} ` : "";
  return `<span class="placeholder image">[image ${md.utils.escapeHtml(alt + shorten(src))} — not loaded]</span>`;
};
// Table alignment as a class (the page's CSP allows no inline style).
for (const name of ["th_open", "td_open"]) {
  md.renderer.rules[name] = (tokens, idx, options, env, self) => {
    const t = tokens[idx];
    const style = t.attrGet("style");
    if (style !== null) {
      t.attrs = t.attrs.filter(([k]) => k !== "style");
      const m = /text-align:\s*(left|right|center)/.exec(style);
      if (m) t.attrJoin("class", `align-${m[1]}`);
    }
    return self.renderToken(tokens, idx, options);
  };
}
md.renderer.rules.table_open = () => '<div class="table-wrap"><table>\n';
md.renderer.rules.table_close = () => "</table></div>\n";

// Outside a browser (a server render imports this module) there is no window: DOMPurify then
// answers isSupported false, and nothing here renders until the element is in a page.
const purify = DOMPurify(globalThis.window);
const MARKDOWN_CONFIG = {
  ALLOWED_TAGS: ["a", "p", "br", "strong", "em", "s", "del", "code", "pre", "blockquote", "ul", "ol", "li", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "table", "thead", "tbody", "tr", "th", "td", "div", "span"],
  ALLOWED_ATTR: ["href", "title", "class", "start"],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  RETURN_DOM_FRAGMENT: true,
};
const HIGHLIGHT_CONFIG = { ALLOWED_TAGS: ["span"], ALLOWED_ATTR: ["class"], ALLOW_DATA_ATTR: false, RETURN_DOM_FRAGMENT: true };
if (purify.isSupported) purify.addHook("afterSanitizeAttributes", (node) => {
  if (node.nodeName !== "A") return;
  const href = node.getAttribute("href");
  if (href === null || !safeHref(href)) {
    node.removeAttribute("href");
    return;
  }
  node.setAttribute("target", "_blank");
  node.setAttribute("rel", "noopener noreferrer");
});

function safeHref(href) {
  try {
    return SAFE_PROTOCOLS.has(new URL(href, document.baseURI).protocol);
  } catch {
    return false;
  }
}

/** Parents whose newline-only text children are markup layout, not text. */
const BLOCK_PARENTS = new Set(["#document-fragment", "DIV", "UL", "OL", "LI", "BLOCKQUOTE", "TABLE", "THEAD", "TBODY", "TR"]);

/**
 * Markdown text as a sanitized fragment (raw HTML shows as text).
 * @param {string} text
 * @returns {DocumentFragment} nodes of the allowed tags only; links open in a new tab
 */
export function renderMarkdown(text) {
  const frag = purify.sanitize(md.render(String(text)), MARKDOWN_CONFIG);
  // markdown-it ends each block with "\n": drop those layout newlines so a
  // message's textContent is its text.
  const walker = document.createTreeWalker(frag, NodeFilter.SHOW_TEXT);
  const drop = [];
  for (let n = walker.nextNode(); n !== null; n = walker.nextNode()) {
    if (/^\n+$/.test(n.data) && BLOCK_PARENTS.has(n.parentNode.nodeName)) drop.push(n);
  }
  for (const n of drop) n.remove();
  breakLongRuns(frag);
  return frag;
}

/** Characters without white space from which a run of text gets break points (breakLongRuns). */
const LONG_RUN = 64;

/** Characters between the break points breakLongRuns puts in a long run. */
const RUN_STEP = 32;

/** A run of LONG_RUN characters or more without white space. */
const LONG_RUN_RE = new RegExp(`\\S{${LONG_RUN},}`, "gu");

/** A character a break point must not come before: a mark, a joiner, a variation selector or a low surrogate. */
const JOINS_BEFORE = /^[\p{M}\u200c\u200d\ufe00-\ufe0f\udc00-\udfff]/u;

/**
 * Give every long run of text under root (LONG_RUN characters or more
 * without white space: a pasted base64 blob, a hash, a URL) a <wbr> every
 * RUN_STEP characters, never inside a character or before a combining
 * mark or joiner. Chromium lays out a long unbreakable word under
 * `overflow-wrap: anywhere` in time that grows with its square in the
 * system-ui font: a 100,000-character word took 5–6 s (18 ms in
 * sans-serif), 45 ms with the break points. <wbr> adds no text, so the
 * text copied and textContent stay as they were. Code blocks (pre > code:
 * they scroll, never wrap) are left as they are.
 * @param {Node} root an element or fragment
 */
export function breakLongRuns(root) {
  const doc = root.ownerDocument ?? document;
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const long = [];
  for (let n = walker.nextNode(); n !== null; n = walker.nextNode()) {
    LONG_RUN_RE.lastIndex = 0;
    if (n.data.length >= LONG_RUN && LONG_RUN_RE.test(n.data) && !(n.parentNode?.nodeName === "CODE" && n.parentNode.parentNode?.nodeName === "PRE")) long.push(n);
  }
  for (const n of long) {
    const text = n.data;
    const out = [];
    let at = 0;
    LONG_RUN_RE.lastIndex = 0;
    for (let m = LONG_RUN_RE.exec(text); m !== null; m = LONG_RUN_RE.exec(text)) {
      const end = m.index + m[0].length;
      for (let cut = m.index + RUN_STEP; cut < end; cut += RUN_STEP) {
        while (cut < end && JOINS_BEFORE.test(text.slice(cut, cut + 1))) cut++;
        if (cut >= end || text[cut - 1] === "\u200d") continue;
        out.push(text.slice(at, cut), doc.createElement("wbr"));
        at = cut;
      }
    }
    out.push(text.slice(at));
    n.replaceWith(...out);
  }
}

/**
 * The exact source of a message, as the "Raw" toggle shows it: string
 * content as it is stored, any other content (parts, tool calls) as the
 * message's JSON, indented.
 * @param {object|null|undefined} message
 * @returns {string}
 */
export function messageSource(message) {
  if (typeof message?.content === "string" && !Array.isArray(message.tool_calls)) return message.content;
  return JSON.stringify(message ?? null, null, 2) ?? "";
}

/** Part types that are a tool's result (a tool message of only these draws each one). */
const RESULT_PARTS = new Set(["tool_result", "function_call_output", "custom_tool_call_output", "toolResult"]);

/**
 * Fill body with a message's rendered parts (see the file comment).
 * Never throws on odd shapes: an unknown part shows as its JSON, folded.
 * Citation markers in its text (static/citations.js) become numbered
 * links with a "Sources" list under the answer; every other private-use
 * marker is taken out before Markdown sees the text.
 * @param {HTMLElement} body
 * @param {object|null|undefined} given a chat message ({role, content, tool_calls?, …})
 * @param {{source?: object}} [options] source: the node's `source` (the
 *   export's record; a ChatGPT one holds `message.metadata` with the sources)
 */
export function renderMessage(body, given, { source } = {}) {
  const { message, sources } = citeMessage(given, source?.message?.metadata ?? given?.metadata);
  renderParts(body, message);
  if (sources.length > 0) {
    drawCitations(body, sources);
    body.append(sourcesList(sources));
  }
  breakLongRuns(body);
}

/** renderMessage without the citations. */
function renderParts(body, message) {
  const role = message?.role;
  if (role === "tool" || role === "toolResult" || role === "function") {
    const parts = message.content;
    if (Array.isArray(parts) && parts.length > 0 && parts.every((p) => RESULT_PARTS.has(p?.type))) {
      for (const part of parts) body.append(partElement(part, false)); // Codex outputs: each item a part
      return;
    }
    const name = message.name ?? message.toolName;
    body.append(toolResult(`Tool result${typeof name === "string" && name !== "" ? `: ${name}` : ""}`, message.content, message.isError === true));
    return;
  }
  let drawn = 0;
  const add = (node) => {
    body.append(node);
    drawn++;
  };
  for (const key of ["reasoning_content", "reasoning"]) {
    if (typeof message?.[key] === "string" && message[key] !== "") add(thinking("Thinking", message[key]));
  }
  const content = message?.content;
  if (typeof content === "string") {
    if (content !== "") for (const node of textNodes(content, role === "assistant")) add(node);
  } else if (content !== null && content !== undefined) {
    for (const part of Array.isArray(content) ? content : [content]) add(partElement(part, role === "assistant"));
  }
  if (Array.isArray(message?.tool_calls)) {
    for (const call of message.tool_calls) add(toolCall(call?.function?.name ?? call?.name ?? "tool", call?.function?.arguments ?? call?.arguments ?? call));
  }
  for (const key of ["attachments", "files"]) {
    if (!Array.isArray(message?.[key])) continue;
    for (const f of message[key]) add(el("p", "placeholder attachment", `[attachment ${attachmentName(f)}]`));
  }
  if (drawn === 0) body.append(el("p", "empty", "(no content)"));
}

/**
 * Highlight the fenced code blocks under root whose language is known
 * (CODE_LANGUAGES), loading highlight.js and the grammars the first time
 * one is needed. Resolves when done; a grammar that fails to load leaves
 * its blocks plain.
 * @param {ParentNode} root
 * @returns {Promise<number>} how many blocks were highlighted
 */
export async function highlightCode(root) {
  const blocks = [];
  for (const code of root.querySelectorAll("pre > code[class*='language-']:not(.hljs)")) {
    const m = /(?:^|\s)language-(\S+)/.exec(code.className);
    const file = m ? CODE_LANGUAGES[m[1].toLowerCase()] : undefined;
    if (file) blocks.push([code, file]);
  }
  if (blocks.length === 0) return 0;
  let done = 0;
  try {
    const hljs = await loadHighlighter();
    for (const [code, file] of blocks) {
      if (!(await loadLanguage(hljs, file)) || code.classList.contains("hljs")) continue;
      const html = hljs.highlight(code.textContent, { language: file, ignoreIllegals: true }).value;
      code.replaceChildren(purify.sanitize(html, HIGHLIGHT_CONFIG));
      code.classList.add("hljs");
      done++;
    }
  } catch (err) {
    console.warn("sessiontree: code highlighting unavailable:", err?.message ?? err);
  }
  return done;
}

let highlighter = null;
const languages = new Map();

function loadHighlighter() {
  highlighter ??= import("./vendor/highlight/core.js").then((m) => m.default);
  return highlighter;
}

/**
 * Each grammar file's loader, one literal import() each: bundlers emit a
 * chunk per grammar (a template-literal import() of a package's files is
 * left out of production builds).
 */
const GRAMMARS = Object.freeze({
  bash: () => import("./vendor/highlight/languages/bash.js"),
  c: () => import("./vendor/highlight/languages/c.js"),
  cpp: () => import("./vendor/highlight/languages/cpp.js"),
  csharp: () => import("./vendor/highlight/languages/csharp.js"),
  css: () => import("./vendor/highlight/languages/css.js"),
  diff: () => import("./vendor/highlight/languages/diff.js"),
  go: () => import("./vendor/highlight/languages/go.js"),
  java: () => import("./vendor/highlight/languages/java.js"),
  javascript: () => import("./vendor/highlight/languages/javascript.js"),
  json: () => import("./vendor/highlight/languages/json.js"),
  markdown: () => import("./vendor/highlight/languages/markdown.js"),
  php: () => import("./vendor/highlight/languages/php.js"),
  python: () => import("./vendor/highlight/languages/python.js"),
  ruby: () => import("./vendor/highlight/languages/ruby.js"),
  rust: () => import("./vendor/highlight/languages/rust.js"),
  shell: () => import("./vendor/highlight/languages/shell.js"),
  sql: () => import("./vendor/highlight/languages/sql.js"),
  typescript: () => import("./vendor/highlight/languages/typescript.js"),
  xml: () => import("./vendor/highlight/languages/xml.js"),
  yaml: () => import("./vendor/highlight/languages/yaml.js"),
});

function loadLanguage(hljs, file) {
  if (!languages.has(file)) {
    languages.set(
      file,
      GRAMMARS[file]().then(
        (m) => {
          hljs.registerLanguage(file, m.default);
          return true;
        },
        () => false,
      ),
    );
  }
  return languages.get(file);
}

// ------------------------------------------------------------------ parts

/** A content part of any of the shapes the importers keep. */
function partElement(part, isAssistant) {
  if (typeof part === "string") return markdownBlock(part);
  if (part === null || typeof part !== "object") return el("p", "placeholder", `[${typeof part}]`);
  const type = typeof part.type === "string" ? part.type : typeof part.content_type === "string" ? part.content_type : "";
  switch (type) {
    case "text":
    case "input_text":
    case "output_text":
      if (typeof part.text === "string") return group(textNodes(part.text, isAssistant));
      break;
    case "thinking":
      return thinking("Thinking", typeof part.thinking === "string" ? part.thinking : String(part.text ?? ""));
    case "redacted_thinking":
      return thinking("Thinking", "(redacted by the provider)");
    case "reasoning":
      return thinking("Thinking", reasoningText(part));
    case "thoughts":
      return thinking("Thinking", Array.isArray(part.thoughts) ? part.thoughts.map((t) => [t?.summary, t?.content].filter((s) => typeof s === "string" && s !== "").join("\n\n")).join("\n\n") : "");
    case "reasoning_recap":
      return el("p", "placeholder", `[${typeof part.content === "string" ? part.content : "reasoning"}]`);
    case "tool_use":
    case "toolCall":
    case "tool_call":
    case "function_call":
    case "custom_tool_call": // Codex (apply_patch and other freeform tools)
      return toolCall(part.name ?? part.function?.name ?? "tool", part.input ?? part.arguments ?? part.function?.arguments ?? {});
    case "local_shell_call": // Codex
      return toolCall("shell", part.action ?? {});
    case "web_search_call": // Codex
      return toolCall("web search", part.action ?? {});
    case "tool_result":
    case "function_call_output":
    case "custom_tool_call_output":
    case "toolResult":
      return toolResult(`Tool result${typeof part.name === "string" ? `: ${part.name}` : ""}`, part.content ?? part.output, part.is_error === true || part.isError === true);
    case "code":
      if (typeof part.text === "string") return codeBlock(part.text, typeof part.language === "string" ? part.language : "");
      break;
    case "execution_output":
      return toolResult("Output", part.text ?? part.content);
    default:
  }
  if (/image/i.test(type) || "image_url" in part || "asset_pointer" in part) return imageElement(part);
  if (/file|document|attachment|audio|video/i.test(type)) return el("p", "placeholder attachment", `[${type.replace(/_/g, " ")} ${attachmentName(part)}]`);
  const d = el("details", "tool other");
  d.append(el("summary", "", (type || "object").replace(/_/g, " ")), el("pre", "", JSON.stringify(part, null, 2)));
  return d;
}

/**
 * The text of a message: Markdown, with Open WebUI's `<details type=…>`
 * blocks (reasoning, tool calls) and a leading `<think>` section of
 * assistant text drawn as sections of their own.
 */
function textNodes(text, isAssistant) {
  if (!isAssistant) return [markdownBlock(text)];
  const out = [];
  let rest = text;
  const think = /^\s*<(think|thinking)>([\s\S]*?)(?:<\/\1>|$)/.exec(rest);
  if (think) {
    out.push(thinking("Thinking", think[2].trim()));
    rest = rest.slice(think[0].length);
  }
  const block = /<details\s+type="([\w-]+)"([^>]*)>([\s\S]*?)(?:<\/details>|$)/g;
  let at = 0;
  for (let m = block.exec(rest); m !== null; m = block.exec(rest)) {
    if (rest.slice(at, m.index).trim() !== "") out.push(markdownBlock(rest.slice(at, m.index)));
    out.push(detailsBlock(m[1], attributes(m[2]), m[3]));
    at = block.lastIndex;
    if (m[0].length === 0) block.lastIndex++;
  }
  if (at < rest.length && rest.slice(at).trim() !== "") out.push(markdownBlock(rest.slice(at)));
  return out;
}

/** One Open WebUI `<details type=…>` block: reasoning, a tool call, or another folded section. */
function detailsBlock(type, attrs, inner) {
  const sm = /^\s*<summary>([\s\S]*?)<\/summary>/.exec(inner);
  const summary = sm ? unescapeHTML(sm[1]).trim() : "";
  const body = unescapeHTML(sm ? inner.slice(sm[0].length) : inner).trim();
  if (type === "reasoning") {
    // Open WebUI quotes each line of the reasoning ("> …").
    const text = body.replace(/^[ \t]*>[ \t]?/gm, "");
    return thinking(summary && summary !== "Thinking…" ? `Thinking · ${summary}` : "Thinking", text);
  }
  if (type === "tool_calls" && typeof attrs.name === "string") {
    const call = toolCall(attrs.name, attrs.arguments ?? "");
    if (attrs.result !== undefined || body !== "") call.append(toolResult("Result", attrs.result ?? body));
    return call;
  }
  const d = el("details", type === "tool_calls" ? "tool" : "tool other");
  d.append(el("summary", "", summary || type.replace(/_/g, " ")), el("pre", "", prettyJSON(body)));
  return d;
}

function attributes(text) {
  const out = {};
  for (const m of text.matchAll(/([\w-]+)="([^"]*)"/g)) out[m[1]] = unescapeHTML(m[2]);
  return out;
}

const ENTITIES = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", "#39": "'", "#x27": "'", "#34": '"' };

function unescapeHTML(s) {
  return s.replace(/&(amp|lt|gt|quot|apos|#39|#x27|#34);/g, (_, name) => ENTITIES[name]);
}

function markdownBlock(text) {
  const div = el("div", "markdown");
  div.append(renderMarkdown(text));
  return div;
}

function group(nodes) {
  if (nodes.length === 1) return nodes[0];
  const div = el("div", "parts");
  div.append(...nodes);
  return div;
}

/** A collapsible "Thinking" section (closed), its text as Markdown. */
function thinking(label, text) {
  const d = el("details", "thinking");
  d.append(el("summary", "", label));
  const inner = markdownBlock(text === "" ? "(empty)" : text);
  inner.classList.add("thinking-body");
  d.append(inner);
  return d;
}

function reasoningText(part) {
  if (typeof part.text === "string") return part.text;
  if (typeof part.reasoning === "string") return part.reasoning;
  for (const key of ["summary", "content"]) {
    if (Array.isArray(part[key])) return part[key].map((s) => (typeof s === "string" ? s : typeof s?.text === "string" ? s.text : "")).filter(Boolean).join("\n\n");
  }
  return "";
}

/** A tool call: its name and its arguments pretty-printed (open). */
function toolCall(name, args) {
  const box = el("div", "tool-call");
  const head = el("div", "tool-call-head");
  head.append(el("span", "tool-call-label", "Tool call"), el("code", "tool-name", String(name)));
  const diff = patchText(args);
  if (diff === null) box.append(head, el("pre", "tool-args", prettyJSON(args)));
  else {
    const pre = el("pre", "tool-args tool-diff");
    pre.append(el("code", "language-diff", diff)); // highlightCode colours its lines
    box.append(head, pre);
  }
  return box;
}

/** A tool's result, folded; its text or parts, JSON pretty-printed. */
function toolResult(label, content, isError = false) {
  const d = el("details", isError ? "tool tool-result error" : "tool tool-result");
  d.append(el("summary", "", isError ? `${label} (error)` : label));
  if (Array.isArray(content)) {
    for (const p of content) {
      if (typeof p === "string") d.append(el("pre", "", prettyJSON(p)));
      else if (p?.type === "text" && typeof p.text === "string") d.append(el("pre", "", prettyJSON(p.text)));
      else if (p && typeof p === "object" && (/image/i.test(String(p.type)) || "image_url" in p)) d.append(imageElement(p));
      else d.append(el("pre", "", JSON.stringify(p, null, 2)));
    }
  } else {
    d.append(el("pre", "", content === undefined || content === null ? "(no output)" : prettyJSON(content)));
  }
  return d;
}

function codeBlock(text, language) {
  const pre = el("pre");
  const code = el("code", language ? `language-${language}` : "", text);
  pre.append(code);
  return pre;
}

/** A JSON text or value, indented; other text as it is. */
function prettyJSON(value) {
  if (typeof value !== "string") return JSON.stringify(value, null, 2) ?? String(value);
  const t = value.trim();
  if (t.startsWith("{") || t.startsWith("[") || t.startsWith('"')) {
    try {
      const v = JSON.parse(t);
      return typeof v === "string" ? v : JSON.stringify(v, null, 2);
    } catch {
      /* not JSON: as it is */
    }
  }
  return value;
}

/** Image MIME types shown from bytes stored in the message itself. */
const INLINE_IMAGES = /^image\/(png|jpeg|gif|webp)$/;

/** An image part: the image when its bytes are in the message, else a named placeholder (never fetched). */
function imageElement(part) {
  const data = typeof part.data === "string" ? part.data : typeof part.source?.data === "string" ? part.source.data : "";
  const mime = part.mimeType ?? part.mime_type ?? part.media_type ?? part.source?.media_type ?? "";
  if (data !== "" && INLINE_IMAGES.test(mime) && /^[A-Za-z0-9+/=\s]+$/.test(data)) {
    const img = el("img", "inline-image");
    img.alt = `image (${mime})`;
    img.src = `data:${mime};base64,${data.replace(/\s+/g, "")}`;
    return img;
  }
  const bits = ["image"];
  const ref = typeof part.asset_pointer === "string" ? part.asset_pointer : typeof part.image_url === "string" ? part.image_url : typeof part.image_url?.url === "string" ? part.image_url.url : typeof part.url === "string" ? part.url : "";
  if (ref !== "") bits.push(ref.startsWith("data:") ? "(inline data)" : shorten(ref));
  else if (data !== "") bits.push(`(${mime || "inline data"})`);
  if (Number.isFinite(part.width) && Number.isFinite(part.height)) bits.push(`${part.width}×${part.height}`);
  return el("p", "placeholder image", `[${bits.join(" ")} — not loaded]`);
}

function attachmentName(f) {
  for (const key of ["name", "filename", "file_name", "title", "id"]) {
    const v = f?.[key] ?? f?.file?.[key] ?? f?.meta?.[key];
    if (typeof v === "string" && v !== "") return shorten(v);
  }
  return typeof f === "string" ? shorten(f) : "(unnamed)";
}

function shorten(s) {
  return s.length > 60 ? s.slice(0, 57) + "…" : s;
}
