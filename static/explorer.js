// The sessiontree explorer page: sessions list, the selected session's tree
// (virtualised rows with branch lines), the context pane (root → cursor),
// import by picker or drag-and-drop with a report, snapshot export.
//
// Everything goes through the page's shared tree (init() of
// ../js/sessiontree.js), and the page follows tree.subscribe, so appends
// made by any code on the page show at once. Text reaches the DOM only
// through textContent; the page makes no request beyond its own files.

import { init } from "../js/sessiontree.js";
import { createDemoSession, DEMO_SESSION_ID } from "./demo.js";
import { branchGuides, branchStarts, branchCount, contentParts, filterSessions, relativeTime, snapshotFileName, visibleWindow } from "./tree-model.js";

/** Height of one tree row in pixels (must match .tree-row in explorer.css). */
const ROW_HEIGHT = 30;

const $ = (id) => document.getElementById(id);

/**
 * Create an element with a class and text.
 * @param {string} tag
 * @param {string} [className]
 * @param {string} [text]
 * @returns {HTMLElement}
 */
function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

const state = {
  tree: null,
  sessions: [],
  filter: "",
  selected: null, // sessionId
  treeValue: null, // value of tree for the selected session
  guides: [],
  starts: new Set(),
  branchTotal: 0,
};

function setStatus(text, isError = false) {
  const s = $("status");
  s.textContent = text;
  s.classList.toggle("error", isError);
  s.hidden = text === "";
}

/** Call the tree; resolve to the value or throw an Error naming the failure. */
async function must(request) {
  const env = await state.tree.call(request);
  if (!env.ok) throw new Error(`${request.operation}: ${env.error.code}: ${env.error.message}`);
  return env.value;
}

// ---------------------------------------------------------------- sessions

async function loadSessions() {
  const list = await must({ operation: "sessions" });
  list.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : a.sessionId < b.sessionId ? -1 : 1));
  state.sessions = list;
  renderSessions();
}

function renderSessions() {
  const ul = $("session-list");
  const shown = filterSessions(state.sessions, state.filter);
  const now = Date.now();
  const items = shown.map((s) => {
    const li = el("li", "session");
    li.dataset.sessionId = s.sessionId;
    if (s.sessionId === state.selected) {
      li.classList.add("selected");
      li.setAttribute("aria-current", "true");
    }
    const button = el("button", "session-button");
    button.type = "button";
    button.append(el("span", "session-title", s.title || s.sessionId));
    const meta = el("span", "session-meta");
    meta.append(el("span", "session-size", `${s.nodeCount} ${s.nodeCount === 1 ? "node" : "nodes"}`), el("span", "session-updated", relativeTime(s.updatedAt, now)));
    button.append(meta);
    button.title = s.sessionId;
    button.addEventListener("click", () => selectSession(s.sessionId));
    li.append(button);
    return li;
  });
  ul.replaceChildren(...items);
  $("session-count").textContent = state.sessions.length === 0 ? "" : String(state.sessions.length);
}

/**
 * Select a session: remember it in the URL hash and show its tree and context.
 * @param {string} sessionId
 */
async function selectSession(sessionId) {
  state.selected = sessionId;
  const hash = "#session=" + encodeURIComponent(sessionId);
  if (location.hash !== hash) history.replaceState(null, "", hash);
  renderSessions();
  $("tree-scroll").scrollTop = 0;
  await refreshSelected();
}

function sessionFromHash() {
  const m = /^#session=(.*)$/.exec(location.hash);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return null;
  }
}

// -------------------------------------------------------------------- tree

async function refreshSelected() {
  const id = state.selected;
  $("export-button").disabled = id === null;
  if (id === null) {
    state.treeValue = null;
    renderTree();
    renderContext(null, []);
    return;
  }
  const [treeEnv, ctxEnv] = await Promise.all([state.tree.call({ operation: "tree", sessionId: id }), state.tree.call({ operation: "context", sessionId: id })]);
  if (id !== state.selected) return; // another selection overtook this one
  if (!treeEnv.ok || !ctxEnv.ok) {
    const env = treeEnv.ok ? ctxEnv : treeEnv;
    setStatus(`Cannot show ${id}: ${env.error.message}`, true);
    return;
  }
  state.treeValue = treeEnv.value;
  state.guides = branchGuides(treeEnv.value.rows);
  state.starts = branchStarts(treeEnv.value.rows);
  state.branchTotal = branchCount(treeEnv.value.rows);
  renderTree();
  const path = treeEnv.value.rows.filter((r) => r.onPath);
  renderContext(ctxEnv.value, path);
}

function renderTree() {
  const t = state.treeValue;
  const session = state.sessions.find((s) => s.sessionId === state.selected);
  $("tree-title").textContent = t ? session?.title || t.sessionId : "No session";
  $("tree-title").title = t ? t.sessionId : "";
  if (t) {
    const n = t.rows.length;
    $("tree-stats").textContent = `${n} ${n === 1 ? "node" : "nodes"} · ${state.branchTotal} ${state.branchTotal === 1 ? "branch" : "branches"} · on ${t.activeBranch}`;
  } else {
    $("tree-stats").textContent = "";
  }
  $("tree-spacer").style.height = `${t ? t.rows.length * ROW_HEIGHT : 0}px`;
  renderRows();
}

/** Draw only the rows in view (plus overscan); called on scroll and resize. */
function renderRows() {
  const t = state.treeValue;
  const box = $("tree-rows");
  if (!t) {
    box.replaceChildren();
    return;
  }
  const scroller = $("tree-scroll");
  const { start, end } = visibleWindow(t.rows.length, scroller.scrollTop, scroller.clientHeight || 600, ROW_HEIGHT);
  box.style.transform = `translateY(${start * ROW_HEIGHT}px)`;
  const rows = [];
  for (let i = start; i < end; i++) rows.push(rowElement(t.rows[i], i));
  box.replaceChildren(...rows);
}

function rowElement(row, index) {
  const r = el("div", "tree-row");
  r.setAttribute("role", "treeitem");
  r.setAttribute("aria-level", String(row.indent + 1));
  r.setAttribute("aria-selected", row.cursor ? "true" : "false");
  r.tabIndex = row.cursor ? 0 : -1;
  r.dataset.nodeId = row.id;
  r.dataset.index = String(index);
  if (row.onPath) r.classList.add("on-path");
  if (row.cursor) r.classList.add("cursor");
  if (row.kind === "summary") r.classList.add("summary");
  r.title = `${row.id} · ${row.branch}`;

  r.append(guideElement(state.guides[index] ?? ""));
  const role = row.kind === "summary" ? "summary" : row.role || row.kind;
  const badge = el("span", "role", role);
  badge.dataset.role = role;
  r.append(badge);
  r.append(el("span", "preview", row.preview || (row.kind === "summary" ? "(summary)" : "(no text)")));
  if (state.starts.has(row.id) || row.tipOf) {
    const chip = el("span", "branch", row.branch);
    if (row.branch === state.treeValue.activeBranch) chip.classList.add("active");
    r.append(chip);
  }
  if (row.cursor) r.append(el("span", "cursor-mark", "● cursor"));
  return r;
}

const GUIDE_CLASS = { "│  ": "g-line", "├─ ": "g-tee", "└─ ": "g-elbow", "   ": "g-blank" };

/** The branch lines before a row: one 18px cell per level, drawn by CSS. */
function guideElement(guide) {
  const g = el("span", "guides");
  g.setAttribute("aria-hidden", "true");
  for (let k = 0; k < guide.length; k += 3) g.append(el("span", GUIDE_CLASS[guide.slice(k, k + 3)] ?? "g-blank"));
  return g;
}

async function jumpTo(nodeId) {
  const id = state.selected;
  const env = await state.tree.call({ operation: "jump", sessionId: id, nodeId });
  if (!env.ok) {
    setStatus(`Cannot jump: ${env.error.message}`, true);
    return;
  }
  await refreshSelected();
  await loadSessions();
}

// ----------------------------------------------------------------- context

function renderContext(ctx, path) {
  const ol = $("messages");
  if (!ctx) {
    ol.replaceChildren();
    $("context-stats").textContent = "";
    return;
  }
  const n = ctx.messages.length;
  $("context-stats").textContent = n === 0 ? "empty" : `${n} ${n === 1 ? "message" : "messages"}, root → cursor`;
  const items = ctx.messages.map((m, i) => messageElement(m, path[i]));
  ol.replaceChildren(...items);
  const last = ol.lastElementChild;
  if (last) last.scrollIntoView({ block: "nearest" });
}

function messageElement(message, row) {
  const li = el("li", "message");
  const role = row?.kind === "summary" ? "summary" : typeof message?.role === "string" ? message.role : "?";
  li.dataset.role = role;
  if (row) li.dataset.nodeId = row.id;
  const head = el("div", "message-head");
  head.append(el("span", "role", role));
  head.lastChild.dataset.role = role;
  if (row) head.append(el("span", "message-branch", row.branch));
  if (typeof message?.model === "string") head.append(el("span", "message-model", message.model));
  li.append(head);
  const body = el("div", "message-body");
  const parts = contentParts(message?.content);
  if (parts.length === 0) body.append(el("p", "empty", "(no content)"));
  for (const part of parts) {
    if (part.type === "text") body.append(el("p", "text", part.text));
    else if (part.type === "image") body.append(el("p", "placeholder image", `[${part.label} — not loaded]`));
    else body.append(el("p", "placeholder", `[${part.label}]`));
  }
  if (Array.isArray(message?.tool_calls)) body.append(el("p", "placeholder", `[${message.tool_calls.length} tool call${message.tool_calls.length === 1 ? "" : "s"}]`));
  li.append(body);
  return li;
}

// ------------------------------------------------------------ import/export

async function importFiles(files) {
  const list = [...files];
  if (list.length === 0) return;
  const report = { sessions: [], warnings: [], errors: [] };
  for (const file of list) {
    setStatus(`Importing ${file.name}…`);
    let text;
    try {
      text = await file.text();
    } catch (err) {
      report.errors.push(`${file.name}: cannot be read (${err.message})`);
      continue;
    }
    const env = await state.tree.importText(text);
    if (!env.ok) {
      report.errors.push(`${file.name}: ${env.error.message}`);
      continue;
    }
    report.sessions.push(...env.value.sessions);
    report.warnings.push(...env.value.warnings);
  }
  setStatus("");
  showReport(report);
  await loadSessions();
  if (report.sessions.length > 0) await selectSession(report.sessions[0].sessionId);
}

function showReport({ sessions, warnings, errors }) {
  const n = sessions.length;
  $("report-title").textContent = n === 0 ? "Nothing imported" : `Imported ${n} ${n === 1 ? "session" : "sessions"}`;
  $("import-report").classList.toggle("failed", n === 0);
  $("report-sessions").replaceChildren(
    ...sessions.map((s) => {
      const li = el("li");
      li.append(el("span", "report-session-title", s.title || s.sessionId), el("span", "report-session-size", `${s.nodeCount} nodes`));
      return li;
    }),
  );
  const all = [...errors.map((message) => ({ message, error: true })), ...warnings];
  $("report-warnings-title").hidden = all.length === 0;
  $("report-warnings-title").textContent = `${all.length} ${all.length === 1 ? "warning" : "warnings"}`;
  $("report-warnings").replaceChildren(
    ...all.map((w) => {
      const li = el("li", w.error ? "error" : "warning");
      if (w.sessionId) li.append(el("code", "warning-session", w.sessionId));
      li.append(el("span", "warning-text", w.message));
      return li;
    }),
  );
  $("import-report").hidden = false;
}

/**
 * The exact JSON text of the session's snapshot. The shim parses envelopes
 * with JSON.parse, which would round numbers beyond 2^53 inside messages;
 * the raw envelope keeps them, so it is used when the shim offers it.
 */
async function snapshotText(sessionId) {
  const request = JSON.stringify({ operation: "snapshot.save", sessionId });
  const handle = state.tree._handle;
  if (handle && typeof handle.call === "function") {
    const raw = handle.call(request); // read-only: no change to drain
    const prefix = '{"ok":true,"value":';
    if (raw.startsWith(prefix) && raw.endsWith("}")) return raw.slice(prefix.length, -1);
  }
  return JSON.stringify(await must({ operation: "snapshot.save", sessionId }));
}

async function exportSnapshot() {
  const id = state.selected;
  if (id === null) return;
  const text = await snapshotText(id);
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const a = el("a");
  a.href = url;
  a.download = snapshotFileName(id);
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function wireImport() {
  const input = $("import-file");
  input.addEventListener("change", async () => {
    const files = [...input.files];
    input.value = "";
    await importFiles(files);
  });
  $("hint-import").addEventListener("click", () => input.click());
  $("export-button").addEventListener("click", exportSnapshot);
  $("report-close").addEventListener("click", () => ($("import-report").hidden = true));

  const overlay = $("drop-overlay");
  let depth = 0;
  const hasFiles = (e) => [...(e.dataTransfer?.types ?? [])].includes("Files");
  window.addEventListener("dragenter", (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    depth++;
    overlay.hidden = false;
  });
  window.addEventListener("dragover", (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = "copy";
  });
  window.addEventListener("dragleave", () => {
    depth = Math.max(0, depth - 1);
    if (depth === 0) overlay.hidden = true;
  });
  window.addEventListener("drop", async (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    depth = 0;
    overlay.hidden = true;
    await importFiles(e.dataTransfer.files);
  });
}

// ------------------------------------------------------------------- start

let refreshing = null;
let again = false;

/** Coalesce change notifications into one refresh at a time. */
function scheduleRefresh() {
  if (refreshing) {
    again = true;
    return refreshing;
  }
  refreshing = (async () => {
    do {
      again = false;
      await loadSessions();
      if (state.selected !== null && !state.sessions.some((s) => s.sessionId === state.selected)) state.selected = null;
      await refreshSelected();
    } while (again);
  })().finally(() => (refreshing = null));
  return refreshing;
}

function wireTree() {
  const scroller = $("tree-scroll");
  let frame = 0;
  scroller.addEventListener("scroll", () => {
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      renderRows();
    });
  });
  new ResizeObserver(() => renderRows()).observe(scroller);
  const rows = $("tree-rows");
  rows.addEventListener("click", (e) => {
    const row = e.target.closest(".tree-row");
    if (row) jumpTo(row.dataset.nodeId);
  });
  rows.addEventListener("keydown", (e) => {
    const row = e.target.closest(".tree-row");
    if (!row) return;
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      jumpTo(row.dataset.nodeId);
    } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const next = e.key === "ArrowDown" ? row.nextElementSibling : row.previousElementSibling;
      if (next) {
        row.tabIndex = -1;
        next.tabIndex = 0;
        next.focus();
      }
    }
  });
  $("session-filter").addEventListener("input", (e) => {
    state.filter = e.target.value;
    renderSessions();
  });
}

async function start() {
  wireTree();
  wireImport();
  let tree;
  try {
    tree = await init();
  } catch (err) {
    setStatus(`sessiontree could not start: ${err.message}`, true);
    return;
  }
  state.tree = tree;
  window.explorer = { tree, state, refresh: scheduleRefresh };
  await loadSessions();
  if (state.sessions.length === 0) {
    setStatus("Creating the demo session…");
    await createDemoSession(tree);
    await loadSessions();
  }
  tree.subscribe(() => scheduleRefresh());
  const wanted = sessionFromHash();
  const first = state.sessions.find((s) => s.sessionId === wanted) ?? state.sessions.find((s) => s.sessionId === DEMO_SESSION_ID) ?? state.sessions[0];
  setStatus("");
  if (first) await selectSession(first.sessionId);
  document.body.dataset.ready = "true";
}

start().catch((err) => setStatus(`Something went wrong: ${err.message}`, true));
