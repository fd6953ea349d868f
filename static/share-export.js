// The share file: one session exported as a single, self-contained HTML
// file that opens offline in any browser (from file:// too) and shows the
// whole tree, the context of any node selected in it, and a search over
// every node — like Pi's share file (pi-mono, coding-agent's
// `export-html`), but built with DOM APIs and the explorer's own
// renderer and sanitizer instead of string concatenation.
//
// How it is built (buildShareFile):
// - every node's message is rendered here, once, by render-message.js
//   (markdown-it with raw HTML off, then DOMPurify; fenced code highlighted
//   by highlight.js) into an <article>, so the file needs no library;
// - the document is made with document.implementation.createHTMLDocument
//   and filled with createElement/textContent; the session's rows (ids,
//   roles, branches, labels, texts for search) go in as JSON in a
//   <script type="application/json"> element, every "<" written as \u003c
//   so that no "</script" or "<!--" inside a message can end or change the
//   script element (the HTML serializer writes a script's text as it is);
// - the viewer (share-viewer.js, a classic script) and the styles
//   (theme.css, share-viewer.css) are fetched from the page's own origin
//   and inlined; a Content-Security-Policy meta allows only that viewer
//   script (by its SHA-256 hash), inline styles and data: images, so the
//   file loads nothing from anywhere and no injected script or on*
//   attribute could run even if one got through;
// - the finished page (an <html> element never connected to a document,
//   so nothing in it loads or is styled while it is built) is serialized
//   with outerHTML.

import { highlightCode, renderMarkdown, renderMessage } from "./render-message.js";
import { branchGuides } from "./tree-model.js";
import { countOf, describeNodeEntry, formatTime, nodeText } from "./node-text.js";
import { stripCites } from "./citations.js";
import { HIDDEN_ROOT, buildMapModel } from "./map-model.js";
import { mapSVG } from "./map-svg.js";

/** Version of the share file's JSON data (`version` in it). */
export const SHARE_DATA_VERSION = 1;

/** The id of the JSON data element in the share file. */
export const SHARE_DATA_ID = "share-data";

/** Kinds whose node gives the model a message (core's contextNodes). */
const CONTEXT_KINDS = new Set(["message", "summary", "custom_message"]);

/** Nodes rendered between two yields to the page's event loop. */
const RENDER_SLICE = 50;

/** The letter of each branchGuides level in a row's `guide`. */
const GUIDE_LETTERS = { "│": "l", "├": "t", "└": "e" };

/** Characters of a node's text kept for the tree row's preview. */
const PREVIEW_CHARS = 160;

/**
 * A file name for a session's share file: `<sessionId>.html` with the
 * characters file systems refuse replaced by "_" (as snapshotFileName).
 * @param {string} sessionId
 * @returns {string}
 */
export function shareFileName(sessionId) {
  return `${String(sessionId).replace(/[\\/:*?"<>|\u0000-\u001f]/g, "_")}.html`;
}

/**
 * The rows of a share file: every node in tree order (depth first from
 * each root, roots and siblings in the order the session added them, as
 * the Markdown export of the whole tree), each with what the viewer shows
 * and searches. A pure function of the snapshot's nodes and the `list`
 * items (same order); iterative, so a 1,000,000-deep chain works.
 *
 * Row fields: `id`, `parent` (row index of the parent, -1 for a root),
 * `guide` (the branch lines drawn before the row, as the panel draws them:
 * branchGuides of tree-model.js, one letter a level — "l" a line running
 * past, "t" a connector to a child with siblings after it, "e" the last
 * child's connector, " " nothing; a chain stays at its level),
 * `node` (index in nodes), `kind`, `role` (the message's role, else the
 * kind), `branch`, `time` (the node's timestamp), `label`, `hidden`,
 * `preferred`, `children` (count), `context` (whether the node gives the
 * model a message: message, summary, custom_message, compaction),
 * `keep` (for a compaction: the row index of its firstKeptNodeId, else -1),
 * `preview` (the `list` item's preview, else the text on one line, at
 * most PREVIEW_CHARS characters) and `text` (the node's whole text, else
 * the preview, and its label, for search).
 *
 * With `hidden: false` the nodes hidden from the default view (a `hide`d
 * subtree: its `list` items say `hidden`) have no row, nor anything under
 * them; `parent` and `keep` index the rows kept (a compaction keeping from
 * a node left out keeps -1).
 *
 * @param {object[]} nodes the snapshot's nodes, parents before children
 * @param {object[]} [items] the `list` items of the same nodes (labels, flags)
 * @param {{hidden?: boolean}} [options] hidden: whether hidden nodes have rows (default true)
 * @returns {object[]} the rows
 */
export function shareRows(nodes, items = [], { hidden = true } = {}) {
  const index = new Map();
  nodes.forEach((n, i) => index.set(n.id, i));
  const children = nodes.map(() => []);
  const roots = [];
  nodes.forEach((n, i) => {
    const p = n.parentId === null || n.parentId === undefined ? undefined : index.get(n.parentId);
    if (p === undefined) roots.push(i);
    else children[p].push(i);
  });
  const rows = [];
  const rowOf = new Int32Array(nodes.length).fill(-1);
  const stack = [];
  for (let k = roots.length - 1; k >= 0; k--) stack.push([roots[k], -1]);
  while (stack.length > 0) {
    const [i, parent] = stack.pop();
    const n = nodes[i];
    const item = items[i] ?? {};
    if (!hidden && item.hidden === true) continue; // its subtree is hidden with it
    // The core's preview (MessageText: tool calls and results read as text)
    // where the page's nodeText finds no text parts.
    const corePreview = typeof item.preview === "string" ? item.preview : "";
    const text = stripCites(nodeText(n)) || corePreview;
    const role = n.kind === "message" ? String(n.message?.role ?? "?") : n.kind;
    rowOf[i] = rows.length;
    rows.push({
      id: n.id,
      parent,
      guide: "",
      node: i,
      kind: n.kind,
      role,
      branch: n.branch,
      time: n.timestamp,
      label: typeof item.label === "string" ? item.label : "",
      hidden: item.hidden === true,
      preferred: item.preferred === true,
      children: 0, // counted below, of the rows kept
      context: CONTEXT_KINDS.has(n.kind) || n.kind === "compaction",
      keep: -1,
      preview: oneLine(corePreview || text || (n.kind === "message" ? "(no text)" : n.kind)).slice(0, PREVIEW_CHARS),
      text: typeof item.label === "string" && item.label !== "" ? `${text}\n${item.label}` : text,
    });
    const kids = children[i];
    for (let k = kids.length - 1; k >= 0; k--) stack.push([kids[k], rowOf[i]]);
  }
  for (const r of rows) if (r.parent >= 0) rows[r.parent].children++;
  const guides = branchGuides(rows.map((r) => ({ id: r.id, parentId: r.parent < 0 ? null : rows[r.parent].id, childCount: r.children })));
  rows.forEach((r, k) => {
    r.guide = guides[k].replace(/(.)../g, (_, c) => GUIDE_LETTERS[c] ?? " ");
  });
  for (const r of rows) {
    const keep = nodes[r.node].entry?.firstKeptNodeId;
    if (r.kind === "compaction" && index.has(keep)) r.keep = rowOf[index.get(keep)];
  }
  return rows;
}

function oneLine(s) {
  return String(s).replace(/\s+/g, " ").trim();
}

/**
 * The JSON text of the share file's data, safe inside a <script> element:
 * every "<" is written as \u003c (so no "</script" or "<!--"), and U+2028,
 * U+2029 and private-use characters (ChatGPT's citation markers) as
 * escapes too (JSON.parse reads them all back as they were).
 * @param {unknown} data
 * @returns {string}
 */
export function scriptJSON(data) {
  return JSON.stringify(data).replace(/[<\u2028\u2029\ue000-\uf8ff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * The CSP source of an inline script: 'sha256-<base64 of its UTF-8 bytes' digest>'.
 * Where the page has no Web Crypto (crypto.subtle exists only in a secure
 * context: https, or http on localhost), 'unsafe-inline': the file then
 * rests on its sanitizing alone (no on* attribute or script is ever
 * written), without the CSP's second wall.
 * @param {string} text the script's text, exactly as in the file
 * @returns {Promise<string>}
 */
export async function scriptHash(text) {
  if (!globalThis.crypto?.subtle) return "'unsafe-inline'";
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  let bin = "";
  for (const b of digest) bin += String.fromCharCode(b);
  return `'sha256-${btoa(bin)}'`;
}

/**
 * The Content-Security-Policy of a share file whose one script has the
 * hash `hash` (scriptHash): nothing loads from anywhere; only that script
 * runs (no other inline script, no on* attribute, no eval); styles inline;
 * images only from data: URLs; no <base>, no forms, no plugins.
 * @param {string} hash
 * @returns {string}
 */
export function sharePolicy(hash) {
  return [`default-src 'none'`, `script-src ${hash}`, `style-src 'unsafe-inline'`, `img-src data:`, `base-uri 'none'`, `form-action 'none'`, `object-src 'none'`].join("; ");
}

/**
 * Fetch a file of the page's own static folder as text.
 * @param {string} name relative to this module ("share-viewer.js")
 * @returns {Promise<string>}
 * @throws {Error} naming the file when it cannot be read
 */
async function ownFile(name) {
  const res = await fetch(new URL(`./${name}`, import.meta.url));
  if (!res.ok) throw new Error(`${name}: HTTP ${res.status}`);
  return (await res.text()).replace(/\r\n?/g, "\n");
}

/**
 * Render the share file's node articles a slice of RENDER_SLICE rows at a
 * time, yielding between slices, so that a large session keeps the page
 * responsive (about 1 ms a node, see the report).
 * @param {object[]} nodes the snapshot's nodes
 * @param {object[]} rows shareRows(nodes, items)
 * @param {((p: {done: number, total: number}) => void)|undefined} onProgress called after each slice
 * @returns {Promise<HTMLDivElement>} a detached div holding every article
 */
async function renderRows(nodes, rows, onProgress) {
  const all = document.createElement("div");
  for (let from = 0; from < rows.length; from += RENDER_SLICE) {
    const slice = document.createElement("div");
    for (let k = from; k < Math.min(rows.length, from + RENDER_SLICE); k++) slice.append(nodeArticle(nodes[rows[k].node], rows[k], k));
    await highlightCode(slice);
    all.append(...slice.childNodes);
    onProgress?.({ done: Math.min(rows.length, from + RENDER_SLICE), total: rows.length });
    if (from + RENDER_SLICE < rows.length) await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return all;
}

/**
 * Build the share file of a session.
 * @param {{call: (request: object) => Promise<{ok: boolean, value?: any, error?: {code: string, message: string}}>}} tree
 *   the page's shared tree
 * @param {string} sessionId
 * @param {{now?: Date, title?: string, hidden?: boolean, onProgress?: (p: {done: number, total: number}) => void}} [options]
 *   `now`: the export time written in the file (default: now); `title`: the
 *   title to show (default: the session's title, else its id); `hidden`:
 *   false leaves out the nodes hidden from the default view (shareRows; the
 *   cursor becomes its nearest shown ancestor), true (default) keeps them, dimmed;
 *   `onProgress`: called after each slice of RENDER_SLICE nodes rendered
 *   (done and total count nodes)
 * @returns {Promise<{filename: string, text: string, nodes: number}>} the
 *   file's name and text (UTF-8 HTML) and how many nodes it holds
 * @throws {Error} when a call fails ("share file: <operation>: <message>"),
 *   or the viewer or styles cannot be read
 */
export async function buildShareFile(tree, sessionId, options = {}) {
  const must = async (request) => {
    const env = await tree.call({ ...request, sessionId });
    if (!env.ok) throw new Error(`share file: ${request.operation}: ${env.error.message}`);
    return env.value;
  };
  const [status, items, snapshot, viewer, theme, css] = await Promise.all([
    must({ operation: "session" }),
    must({ operation: "list" }),
    must({ operation: "snapshot.save" }),
    ownFile("share-viewer.js"),
    ownFile("theme.css"),
    ownFile("share-viewer.css"),
  ]);
  // The serializer writes a script's and a style's text as it is: our own
  // files must not hold what would end their element early.
  if (/<\/script|<!--/i.test(viewer)) throw new Error("share file: share-viewer.js must not hold </script or <!--");
  if (/<\/style/i.test(theme + css)) throw new Error("share file: theme.css and share-viewer.css must not hold </style");
  const nodes = snapshot.nodes;
  const keepHidden = options.hidden !== false;
  const rows = shareRows(nodes, items, { hidden: keepHidden });
  const title = options.title || status.title || sessionId;
  const now = options.now ?? new Date();
  const data = {
    version: SHARE_DATA_VERSION,
    sessionId,
    title,
    activeBranch: status.activeBranch,
    cursor: cursorRow(nodes, rows, status.cursor),
    exportedAt: now.toISOString(),
    rows,
  };
  const all = await renderRows(nodes, rows, options.onProgress);

  // The page is built detached, never connected to a document: an inert
  // document's connected <style> would still be checked against this
  // page's own CSP (and refused), and nothing in it should load.
  const doc = document.implementation.createHTMLDocument("");
  const root = doc.createElement("html");
  const head = doc.createElement("head");
  const body = doc.createElement("body");
  root.append(head, body);
  const meta = (attrs) => {
    const m = doc.createElement("meta");
    for (const [k, v] of Object.entries(attrs)) m.setAttribute(k, v);
    head.append(m);
  };
  root.lang = "en";
  meta({ charset: "utf-8" });
  meta({ "http-equiv": "Content-Security-Policy", content: sharePolicy(await scriptHash(viewer)) });
  meta({ name: "viewport", content: "width=device-width, initial-scale=1" });
  meta({ name: "color-scheme", content: "light dark" });
  meta({ name: "generator", content: "sessiontree share file" });
  const titleEl = doc.createElement("title");
  titleEl.textContent = `${title} · sessiontree`; // the browser shows a document's title on its own, no isolate marks in it
  const style = doc.createElement("style");
  style.textContent = `${theme}\n${css}`;
  head.append(titleEl, style);
  body.append(...pageSkeleton(doc, title, sessionId, rows.length, now, nodes.length - rows.length), allNodes(doc, all));
  if (tree.hasOperation?.("map")) body.querySelector(".share-head").after(shareMap(doc, buildMapModel(await must({ operation: "map" })), keepHidden));
  const json = doc.createElement("script");
  json.type = "application/json";
  json.id = SHARE_DATA_ID;
  json.textContent = scriptJSON(data);
  const script = doc.createElement("script");
  script.textContent = viewer;
  body.append(json, script);
  await new Promise((resolve) => setTimeout(resolve, 0)); // building and serializing: two tasks, not one
  const text = `<!DOCTYPE html>\n${root.outerHTML}\n`;
  return { filename: shareFileName(sessionId), text, nodes: rows.length };
}

/**
 * The row of the session's cursor: its own, else (left out as hidden) its
 * nearest ancestor's, else -1.
 * @param {object[]} nodes @param {object[]} rows shareRows(nodes, …) @param {string} cursor a node id
 * @returns {number}
 */
function cursorRow(nodes, rows, cursor) {
  const rowOf = new Int32Array(nodes.length).fill(-1);
  rows.forEach((r, k) => (rowOf[r.node] = k));
  const index = new Map(nodes.map((n, i) => [n.id, i]));
  for (let i = index.get(cursor); i !== undefined; i = index.get(nodes[i].parentId)) {
    if (rowOf[i] >= 0) return rowOf[i];
  }
  return -1;
}

/**
 * The map of the session (map-svg.js), inlined as SVG in a <details>: drawn
 * offline with no script, in the file's theme (its colours are theme.css's
 * tokens, inlined with it). Without hidden nodes (keepHidden false) their
 * collapsed branches are not drawn, nor counted.
 */
function shareMap(doc, model, keepHidden = true) {
  const details = doc.createElement("details");
  details.className = "share-map";
  details.open = true;
  const summary = doc.createElement("summary");
  let nodes = model.nodeCount;
  let branches = model.branches.length;
  if (!keepHidden) {
    for (const n of model.hiddenCount.values()) nodes -= n;
    const drawn = new Set();
    for (let s = 0; s < model.count; s++) if ((model.flags[s] & HIDDEN_ROOT) === 0) drawn.add(model.branch[s]);
    branches = drawn.size;
  }
  summary.textContent = `Map · ${countOf(nodes, "node")}, ${countOf(branches, "branch", "branches")}`;
  const box = doc.createElement("div");
  box.className = "share-map-box";
  box.append(mapSVG(model, { doc, hidden: keepHidden }));
  details.append(summary, box);
  return details;
}

/** The header, search and the two panes the viewer fills (leftOut: hidden nodes left out). */
function pageSkeleton(doc, title, sessionId, count, now, leftOut) {
  const el = (tag, attrs = {}, text) => {
    const e = doc.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const header = el("header", { class: "share-head" });
  const h1 = el("h1", { title }, title); // the whole title: the page shows its first three lines (share-viewer.css)
  const about = el("p", { class: "share-meta" });
  about.append(
    "Session ",
    el("code", {}, sessionId),
    ` · ${count.toLocaleString("en")} ${count === 1 ? "node" : "nodes"}${leftOut > 0 ? ` (${leftOut.toLocaleString("en")} hidden left out)` : ""} · exported ${now.toISOString().slice(0, 16).replace("T", " ")} UTC · sessiontree share file`,
  );
  header.append(h1, about);

  const search = el("div", { class: "share-search", role: "search" });
  const input = el("input", { type: "search", id: "share-search", autocomplete: "off", spellcheck: "false", placeholder: count === 1 ? "Search the one node" : `Search all ${count.toLocaleString("en")} nodes`, "aria-label": "Search every node", "aria-controls": "search-results" });
  const counter = el("span", { id: "search-count", class: "search-count", "aria-live": "polite" });
  const results = el("ol", { id: "search-results", class: "search-results", "aria-label": "Search results", hidden: "" });
  search.append(input, counter, results);

  const main = el("main", { class: "share-main" });
  const treePane = el("section", { class: "pane tree-pane", "aria-labelledby": "tree-title" });
  const treeHead = el("div", { class: "pane-head" });
  treeHead.append(el("h2", { id: "tree-title" }, "Tree"), el("span", { class: "pane-note" }, "● cursor · ★ preferred"));
  treePane.append(treeHead, el("ol", { id: "tree", class: "rows", "aria-label": "Every node of the session" }));
  const ctxPane = el("section", { class: "pane context-pane", id: "context-pane", "aria-labelledby": "context-title" });
  const ctxHead = el("div", { class: "pane-head" });
  ctxHead.append(el("h2", { id: "context-title" }, "Context"), el("span", { id: "context-stats", class: "pane-note" }));
  // Focusable: it scrolls, and holds no control a keyboard could reach it by.
  ctxPane.append(ctxHead, el("ol", { id: "context", class: "messages", tabindex: "0", "aria-label": "Messages from the root to the selected node" }));
  main.append(treePane, ctxPane);
  const noscript = el("p", { class: "nojs-note" }, "This file shows every node below in tree order. Open it with JavaScript on to browse the tree, see the context of any node, and search.");
  return [header, search, main, noscript];
}

/** The section holding every node's article (the viewer clones them; without JavaScript it is the page). */
function allNodes(doc, container) {
  const section = doc.createElement("section");
  section.id = "all-nodes";
  section.setAttribute("aria-label", "Every node, in tree order");
  section.append(...container.childNodes);
  return section;
}

/**
 * One node as an <article>: a head (role or kind, branch, model, time, label, id)
 * and its rendered body. Built in this page's document (render-message.js
 * makes its elements here); the caller moves it into the share document.
 * @param {object} node a snapshot node
 * @param {object} row its shareRows row
 * @param {number} k the row's index
 * @returns {HTMLElement}
 */
function nodeArticle(node, row, k) {
  const el = (tag, className, text) => {
    const e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const art = el("article", "message");
  art.dataset.row = String(k);
  art.dataset.role = row.role;
  if (!CONTEXT_KINDS.has(node.kind) && node.kind !== "compaction") art.classList.add("entry");
  const head = el("div", "message-head");
  const badge = el("span", "role", node.kind === "message" ? row.role : node.kind.replace(/_/g, " "));
  badge.dataset.role = row.role;
  head.append(badge, el("span", "meta branch-name", row.branch));
  const model = node.message?.model ?? node.source?.message?.metadata?.model_slug; // as the panel's context pane
  if (typeof model === "string" && model !== "") head.append(el("span", "meta model", model));
  const time = el("time", "meta time", formatTime(row.time));
  time.dateTime = row.time;
  head.append(time);
  if (row.label !== "") head.append(el("span", "node-label", row.label));
  head.append(el("code", "meta node-id", row.id));
  const body = el("div", "message-body");
  if (node.kind === "message") {
    renderMessage(body, node.message, { source: node.source });
  } else if (typeof node.summary === "string") {
    const div = el("div", "markdown");
    div.append(renderMarkdown(node.summary));
    body.append(div);
  } else if (node.entry) {
    body.append(el("p", "entry-text", describeNodeEntry(node)));
  }
  art.append(head, body);
  return art;
}
