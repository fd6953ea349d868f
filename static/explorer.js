// The sessiontree explorer page: sessions list, the <session-tree-panel>
// for the selected session (virtualised tree, context, search, actions),
// import by picker or drag-and-drop with a progress bar and a report, and an
// export menu (snapshot; the core's other export formats when it has them).
//
// Everything goes through the page's shared tree (init() of
// ../js/sessiontree.js), and the page follows tree.subscribe, so appends
// made by any code on the page show at once. Text reaches the DOM only
// through textContent; the page makes no request beyond its own files.

import { init } from "../js/sessiontree.js";
import { HEAD_SIZE } from "../js/store/listing.js";
import { createDemoSession, DEMO_SESSION_ID, demoMadeBefore, rememberDemoMade } from "./demo.js";
import { filterSessions, isolate, snapshotFileName } from "./tree-model.js";
import { updatedText } from "./session-dates.js";
import { GlobalSearch } from "./explorer-search.js";
import { NARROW, PaneTabs } from "./explorer-panes.js";
import { openFamilyMembers, rememberView } from "./explorer-map.js";
import { sourcesFromDrop, sourcesFromFiles } from "./import-files.js";
import { RestorePoints } from "./restore-points.js";
import { offerDemoTrash, readSources } from "./explorer-import.js";
import { SessionTitles } from "./session-titles.js";
import { showStorage } from "./explorer-storage.js";
import { cancelImport, compactHint, oneImport, showReport, wireReport } from "./explorer-report.js";
import { el, keepInView, keyTakenElsewhere, menuKey, statusLine } from "./dom.js";
import { followCursor, missingSession, openAddress, Router } from "./explorer-route.js";
import { wireOpenFolder } from "./open-folder.js";
import { projectLabel, SessionFilter, toolLabel } from "./session-filter.js";
import { newestFirst } from "./session-dates.js";
import { PAGE_SIZE, PagedList, revealRow, rowInView } from "./session-list-pages.js";
import { availableChoices, download, exportChoice, snapshotText } from "./explorer-export.js";
import { SessionActions } from "./session-actions.js";
import "./session-tree-panel.js";

const $ = (id) => document.getElementById(id);

const state = {
  tree: null,
  sessions: [],
  titles: new SessionTitles(), // the titles this page gave sessions (session-titles.js)
  filter: "",
  selected: null, // sessionId
  panes: null, // PaneTabs: the pane shown on a narrow screen
  open: null, // (route) => opens what an address names (set at start)
  origin: null, // SessionFilter: the tool and project chosen (session-filter.js)
  list: null, // PagedList: the session list's rows, a page at a time (session-list-pages.js)
  now: 0, // the time the rows' "updated" column is relative to (ms)
  partial: false, // sessions holds the newest only, the whole list not yet read (loadSessions)
};

/** Show one pane (sessions, tree, context) on a narrow screen (see explorer-panes.js). */
const showPane = (pane) => state.panes.show(pane);

/** The title shown for a session (see SessionTitles.titleOf). */
const titleOf = (s) => state.titles.titleOf(s);

/**
 * Give a session the title this page made for it (a fork's, a copy's):
 * core's rename, so every tab, export and the map's family show it; the
 * page keeps it itself (session-titles.js) where the tree cannot rename.
 * @param {string} id @param {string} title @returns {Promise<void>}
 */
async function setTitle(id, title) {
  const env = state.tree.hasOperation("rename") ? await state.tree.call({ operation: "rename", sessionId: id, title }) : null;
  if (env?.ok) state.titles.forget(id);
  else state.titles.set(id, title);
}

/**
 * Say text on the status line ("" empties it), a live region never hidden: dom.js statusLine.
 * @type {(text: string, isError?: boolean) => void}
 */
const setStatus = statusLine(() => $("status"));

/** Let the page run (input, paint) before going on. */
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Call the tree; resolve to the value or throw an Error naming the failure. */
async function must(request) {
  const env = await state.tree.call(request);
  if (!env.ok) throw new Error(`${request.operation}: ${env.error.code}: ${env.error.message}`);
  return env.value;
}

// ---------------------------------------------------------------- sessions

/**
 * Read the session list and show it; with `newest` (start-up) the newest alone, answered from the page's read of the
 * list's head (js/worker-tree.js _earlyAnswer): rows before the whole list is read. The count and the tool and
 * project choices wait for the whole list (state.partial). @param {number} [newest] 0: the whole list
 */
async function loadSessions(newest = 0) {
  const list = newestFirst(await must(newest > 0 ? { operation: "sessions", order: "updated", limit: newest } : { operation: "sessions" }));
  const partial = newest > 0 && list.length === newest;
  // A task each for the order, the filters and the rows: each reads every
  // session (60,000 after a dataset's import), together they held the page.
  await nextTask();
  state.sessions = list;
  state.partial = partial; // with the list it tells of: rows made meanwhile count the list they show
  if (!state.partial) state.origin.update(list);
  await nextTask();
  compactHint(list.length > 1); // the list needs the room more than the text

  renderSessions(false);
}

/**
 * Show the sessions the filters keep, a page of rows at a time
 * (session-list-pages.js): every page up to the selected session made
 * (follow), or as many rows as before (a refresh: the sessions changed).
 * @param {boolean} [follow]
 */
function renderSessions(follow = true) {
  const kept = state.origin.apply(state.sessions);
  // Titled copies only to filter by text (sessionRow titles the rows it makes): 60,000 copies took 40 ms.
  const shown = state.filter.trim() === "" ? kept : filterSessions(kept.map((s) => ({ ...s, title: titleOf(s) })), state.filter);
  state.now = Date.now();
  // A refresh (an append moved the selected session to the top) keeps the selected row in view when it was.
  const seen = !follow && rowInView($("session-list").querySelector(".session.selected"), [$("session-list"), $("sessions-pane")]);
  state.list.show(shown, follow ? shown.findIndex((s) => s.sessionId === state.selected) : -1, { keep: !follow });
  if (seen) revealSelected();
  state.actions?.rowsMade((row) => rowInView(row, [$("session-list"), $("sessions-pane")]));
  const total = state.sessions.length;
  // "3 of 12" while filters hide some; with none left, say so beside a way back; no count from the newest alone.
  $("session-count").textContent = total === 0 || state.partial ? "" : shown.length < total ? `${shown.length.toLocaleString("en")} of ${total.toLocaleString("en")}` : total.toLocaleString("en");
  const none = total > 0 && shown.length === 0 && !state.partial; // the rest may hold some
  $("session-none").hidden = !none;
  $("session-list").hidden = none; // its room goes to the note, not to an empty list above it
}

/** Scroll the selected session's row into view, the least that shows it (none when it shows, or is not made). */
const revealSelected = () => revealRow($("session-list").querySelector(".session.selected"), [$("session-list"), $("sessions-pane")]);

/** One row of the session list. */
function sessionRow(s) {
  const li = el("li", "session");
  li.dataset.sessionId = s.sessionId;
  if (s.sessionId === state.selected) {
    li.classList.add("selected");
    li.setAttribute("aria-current", "true");
  }
  const button = el("button", "session-button");
  button.type = "button";
  const title = titleOf(s);
  const name = el("span", "session-title", title);
  name.dir = "auto"; // a Hebrew or Arabic title reads right to left, its ellipsis at its end
  button.append(name);
  // The id tells apart sessions of one title (a fork, a clone, a re-import).
  if (title !== s.sessionId) button.append(el("span", "session-id", s.sessionId));
  const meta = el("span", "session-meta");
  meta.append(el("span", "session-size", `${s.nodeCount} ${s.nodeCount === 1 ? "node" : "nodes"}`), el("span", "session-updated", updatedText(s.updatedAt, state.now)));
  button.append(meta);
  if (s.tool) button.append(el("span", "session-source", s.project ? `${toolLabel(s.tool)} · ${isolate(projectLabel(s.project))}` : toolLabel(s.tool)));
  // The whole title first: a long one is cut off in the row (copies differ only at its end).
  button.title = [title === s.sessionId ? null : title, s.sessionId, s.project].filter(Boolean).join("\n");
  button.addEventListener("click", () => {
    showPane("tree");
    selectSession(s.sessionId);
  });
  li.append(button);
  if (state.actions) li.append(state.actions.rowButton(s, title)); // rename, move to trash (session-actions.js)
  return li;
}

/**
 * Select a session: show its tree and context, and name it in the address
 * (explorer-route.js): a new history entry ("push", the user opened it),
 * the current one replaced ("replace"), or none (null: the address named it).
 * @param {string} sessionId
 * @param {"push"|"replace"|null} [history]
 */
async function selectSession(sessionId, history = "push") {
  const changed = state.selected !== sessionId;
  state.selected = sessionId;
  if (history !== null && state.route) state.route[history]({ session: sessionId, node: changed ? null : state.route.current()?.node ?? null });
  renderSessions();
  revealSelected(); // opened from a search hit, a fork or an import: its row shows
  await refreshSelected();
}

// ------------------------------------------------------------------- panel

async function refreshSelected() {
  const id = state.selected;
  $("export-button").disabled = id === null;
  $("restore-button").disabled = id === null;
  const panel = $("panel");
  const s = state.sessions.find((x) => x.sessionId === id);
  panel.displayTitle = s && state.titles.has(id) ? titleOf(s) : null;
  if (panel.sessionId !== id) panel.sessionId = id;
  else await panel.refresh();
}

// ------------------------------------------------------------ import/export

/** What explorer-import.js needs of the page: the tree, the status line, the sessions here. */
const importContext = () => ({ tree: state.tree, setStatus, hasSession: (id) => state.sessions.some((s) => s.sessionId === id) });

/**
 * Import what was chosen or dropped: files, folders, ZIP archives (see
 * import-files.js), one after another through tree.importFile or
 * importZip (explorer-import.js), then show one report for all of them
 * (sessions, per-file lines, warnings).
 * @param {import("./import-files.js").Source[]} sources
 * @param {{name: string, reason: string}[]} [unreadable] folders a drop could not read
 */
async function importFiles(sources, unreadable = []) {
  if (sources.length === 0 && unreadable.length === 0) return;
  let report = null;
  await oneImport(async () => {
    report = await readSources(importContext(), sources, unreadable);
    setStatus("");
    showReport(report);
  }, importRefused);
  if (report === null) return; // refused: another import runs (the next may start from here on)
  await loadSessions();
  offerDemoTrash(importContext(), report.sessions);
  await openImported(report.sessions);
}

/** Say that an import was not started because another one runs. */
const importRefused = () => setStatus("An import is running: wait for it to end, or Cancel it, then import again", true);

/**
 * Open a session an import made (sessions: its report's, in the file's
 * order): the first one when it is on the list's first page, else the one
 * highest in the list, since the list makes every row above the selected
 * one (the first of a 60,000-line dataset JSONL: seconds of rows).
 * @param {{sessionId: string}[]} sessions
 */
async function openImported(sessions) {
  if (sessions.length === 0) return;
  const at = state.sessions.findIndex((s) => s.sessionId === sessions[0].sessionId);
  const imported = new Set(sessions.map((s) => s.sessionId));
  const first = at >= 0 && at < PAGE_SIZE ? state.sessions[at] : state.sessions.find((s) => imported.has(s.sessionId));
  if (first) await selectSession(first.sessionId);
}

async function exportAs(format) {
  try {
    await exportFormat(format);
  } catch (err) {
    setStatus(`Cannot export: ${err.message}`, true);
  }
}

/** What an export's scope (exportChoice) says it holds, in the status line. */
const EXPORTED = { path: "the path to the cursor", tree: "the whole tree", shown: "the tree without its hidden nodes" };

async function exportFormat(format) {
  const id = state.selected;
  if (id === null) return;
  if (format === "snapshot") {
    const name = snapshotFileName(id);
    download(await snapshotText(state.tree, id), name, "application/json");
    setStatus(`Exported a snapshot of the whole session as ${isolate(name)}`);
    return;
  }
  const session = state.sessions.find((s) => s.sessionId === id);
  if (format.startsWith("html")) setStatus("Building the share file…");
  const onProgress = ({ done, total }) => setStatus(`Building the share file… ${done.toLocaleString("en")} of ${total.toLocaleString("en")} nodes`);
  const file = await exportChoice(state.tree, id, format, { title: session ? titleOf(session) : undefined, onProgress });
  download(file.text, file.name, file.type);
  setStatus(`Exported ${EXPORTED[file.scope] ?? EXPORTED.tree} as ${isolate(file.name)}`);
}

/** Offer the export choices the core can make (explorer-export.js) after "Snapshot". */
function offerExportFormats() {
  const list = $("export-list");
  for (const f of availableChoices(state.tree)) {
    const li = el("li");
    li.setAttribute("role", "none");
    const b = el("button", "", f.label);
    b.type = "button";
    b.setAttribute("role", "menuitem");
    b.dataset.format = f.key;
    b.title = f.hint;
    b.append(el("span", "", f.ext));
    li.append(b);
    list.append(li);
  }
}

function setMenu(open) {
  if (open) closeDropdowns("export");
  $("export-list").hidden = !open;
  $("export-button").setAttribute("aria-expanded", String(open));
  if (open) keepInView($("export-list")); // on a phone the button can sit at the left edge
  if (open) $("export-list").querySelector("button")?.focus();
}

function wireImport() {
  const input = $("import-file");
  input.addEventListener("change", async () => {
    const sources = sourcesFromFiles(input.files);
    input.value = "";
    await importFiles(sources);
  });
  $("import-cancel").addEventListener("click", cancelImport);
  $("report-demo-trash").addEventListener("click", () => {
    $("report-demo").hidden = true;
    return state.actions.moveToTrash(DEMO_SESSION_ID);
  });
  wireOpenFolder(() => state.tree, {
    done: async ({ sessions }) => {
      setStatus("");
      await loadSessions();
      offerDemoTrash(importContext(), sessions);
      await openImported(sessions);
    },
    readArchives: (files) => readSources(importContext(), sourcesFromFiles(files)),
    refused: importRefused,
  });
  for (const id of ["import-button", "hint-import"]) $(id).addEventListener("click", () => input.click());
  $("export-button").addEventListener("click", () => setMenu($("export-list").hidden));
  $("export-list").addEventListener("click", (e) => {
    const b = e.target.closest("button[data-format]");
    if (!b) return;
    setMenu(false);
    $("export-button").focus(); // the item goes with its menu
    exportAs(b.dataset.format);
  });
  $("export-list").addEventListener("keydown", (e) => menuKey(e, $("export-list"), () => (setMenu(false), $("export-button").focus())));
  document.addEventListener("click", (e) => {
    if (!e.target.closest(".export-menu")) setMenu(false);
  });
  wireReport();

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
    // Read the items now: the DataTransfer is emptied once this handler awaits.
    const { sources, unreadable } = await sourcesFromDrop(e.dataTransfer);
    await importFiles(sources, unreadable);
  });
}

// ---------------------------------------------------------- global search

/**
 * One dropdown open at a time: close every one of the page's dropdowns but
 * `keep` ("export", "global", "panel", "session").
 * @param {string} keep
 */
function closeDropdowns(keep) {
  if (keep !== "global") $("global-hits").hidden = true;
  if (keep !== "panel") $("panel").closeDropdowns?.();
  if (keep !== "session") state.actions?.closeMenu(false);
  if (keep !== "export" && !$("export-list").hidden) {
    $("export-list").hidden = true;
    $("export-button").setAttribute("aria-expanded", "false");
  }
}

/**
 * The search box over every session (explorer-search.js): sessions by
 * their title as shown here, and messages through the core's `search`.
 */
function offerSearch() {
  $("global-search").disabled = false; // shown (disabled) from the start: the header does not move when it comes
  const search = new GlobalSearch($("global-search"), $("global-hits"), {
    tree: () => state.tree,
    sessions: () => state.sessions.map((s) => ({ ...s, title: titleOf(s) })),
    opened: () => closeDropdowns("global"),
    open: async (sessionId, nodeId) => {
      showPane("tree");
      // As an address naming it (explorer-route.js openAddress): selected, and its path in the context pane;
      // a step of the user's, so the address names it (a reload or a copied link opens it again).
      state.route?.push({ session: sessionId, node: nodeId });
      await state.open({ session: sessionId, node: nodeId });
    },
    focusOpened: () => $("panel").focusNode($("panel").selectedNodeId),
  });
  search.connect();
}

// ------------------------------------------------------------------- start

let refreshing = null;
let again = false;

/**
 * Coalesce change notifications into one refresh at a time of the sessions
 * list and the storage line (the panel follows the tree by its own subscription).
 */
function scheduleRefresh() {
  if (refreshing) {
    again = true;
    return refreshing;
  }
  refreshing = (async () => {
    do {
      again = false;
      await loadSessions();
      showStorage(state.tree).catch(() => {}); // the storage line counts every change: an import, a fork, another tab's
      await state.actions?.trashChanged(); // another tab may have deleted or restored one
      if (state.selected !== null && !state.sessions.some((s) => s.sessionId === state.selected)) {
        state.selected = null;
        state.route?.clear();
        await refreshSelected();
      }
    } while (again);
  })().finally(() => (refreshing = null));
  return refreshing;
}

function wirePanel() {
  const panel = $("panel");
  // On a phone, looking at a row's path means seeing its messages: the context pane.
  // A comparison shows there too.
  for (const type of ["preview", "compare"]) {
    panel.addEventListener(type, () => {
      if (matchMedia(NARROW).matches && state.panes.pane === "tree") showPane("context");
    });
  }
  followCursor(panel, () => state.route);
  panel.addEventListener("dropdown", () => closeDropdowns("panel"));
  openFamilyMembers(panel, (route) => state.open?.(route), (route) => state.route?.push(route));
  panel.addEventListener("fork", async (e) => {
    const { sessionId, nodeId, newSessionId, clone } = e.detail;
    if (!newSessionId) return;
    const source = state.sessions.find((x) => x.sessionId === sessionId);
    const title = state.titles.copyTitle(source, sessionId, clone ? "copy" : "fork", state.sessions);
    await setTitle(newSessionId, title);
    await loadSessions();
    await selectSession(newSessionId);
    await panel.updateComplete; // loading the new session clears the toast: say it after
    // A fork holds the path to its node: its node count is that node's place in the path.
    const count = state.sessions.find((x) => x.sessionId === newSessionId)?.nodeCount;
    panel.notify(clone ? `Cloned into “${isolate(title)}”` : `Forked${count > 0 ? ` at message ${count}` : ""} into “${isolate(title)}”`);
  });
  // "/" anywhere on the page, as inside the panel: the session's search box,
  // or, while the panel is not shown (the sessions pane on a phone), the box over every session.
  document.addEventListener("keydown", (e) => {
    if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
    if (keyTakenElsewhere(e)) return;
    e.preventDefault();
    closeDropdowns(""); // a menu left open would keep its focus trap
    if (panel.sessionId && panel.getClientRects().length > 0) panel.focusSearch();
    else $("global-search").focus();
  });
  $("session-filter").addEventListener("input", (e) => {
    state.filter = e.target.value;
    renderSessions();
  });
  $("session-none-clear").addEventListener("click", () => {
    $("session-filter").value = "";
    state.filter = "";
    state.origin.clear();
    renderSessions();
    $("session-filter").focus();
  });
}

/**
 * The restore points dialog (restore-points.js) for the selected session,
 * and the replace-or-copy choice for a snapshot of an existing session:
 * the page's importText is wrapped so that every import path (picker,
 * drop) asks before the core's import would merge the file into it.
 */
function wireRestorePoints(tree) {
  const points = new RestorePoints({
    tree: () => tree,
    sessionId: () => state.selected,
    session: (id) => state.sessions.find((s) => s.sessionId === id),
    titleOf,
    copyTitle: (s) => state.titles.copyTitle(s, s.sessionId, "copy", state.sessions),
    sessionIds: () => new Set(state.sessions.map((s) => s.sessionId)),
    setTitle,
    changed: async () => {
      await loadSessions();
      await $("panel").refresh();
    },
    select: (id) => selectSession(id),
    notify: (text) => $("panel").notify(text),
  });
  state.restorePoints = points;
  $("restore-button").addEventListener("click", () => points.open());
  const importText = tree.importText.bind(tree);
  tree.importText = async (text, format = "auto", options) => (format === "auto" || format === "snapshot" ? await points.importChoice(text) : null) ?? importText(text, format, options);
}

/**
 * A session's menu in the list (rename, move to trash) and the trash
 * dialog (session-actions.js). Wired before the list is first made, so
 * every row has its "⋯" button.
 */
function wireActions() {
  state.actions = new SessionActions({
    tree: () => state.tree,
    titleOf,
    session: (id) => state.sessions.find((s) => s.sessionId === id),
    renamed: (id) => state.titles.forget(id),
    neighbour: (id) => {
      const shown = state.list.items;
      const at = shown.findIndex((s) => s.sessionId === id);
      return (shown[at + 1] ?? shown[at - 1])?.sessionId ?? null;
    },
    selected: () => state.selected,
    select: async (id) => {
      if (id !== null) await selectSession(id);
    },
    changed: () => scheduleRefresh(),
    opened: () => closeDropdowns("session"),
    setStatus,
  });
  state.actions.wire().catch(() => {});
}

async function start() {
  state.panes = new PaneTabs({ tabs: $("pane-tabs"), sessions: $("sessions-pane"), panel: $("panel") });
  state.origin = new SessionFilter(renderSessions);
  state.list = new PagedList($("session-list"), sessionRow, (li) => li.dataset.sessionId);
  wirePanel();
  rememberView($("panel"));
  wireImport();
  let tree;
  try {
    // The store's worker from this folder, inside the service worker's
    // scope, so it starts offline too (see store-worker.js), bundled with
    // its modules by make build (one fetch, not ~30).
    tree = await init({ workerURL: new URL("./store-worker.bundle.js", import.meta.url) });
    performance.mark("explorer-init");
  } catch (err) {
    setStatus(`sessiontree could not start: ${err.message}`, true);
    return;
  }
  state.tree = $("panel").tree = tree;
  setStatus(""); // the page's "Loading…": from here on the status line is what the page does (an import begun at the first rows)
  wireRestorePoints(tree);
  wireActions();
  window.explorer = { tree, state, panel: $("panel"), refresh: scheduleRefresh };
  await loadSessions(HEAD_SIZE);
  const whole = state.partial ? loadSessions() : null; // the rest, read while a session among the newest opens
  whole?.catch(() => {}); // awaited below (first when the address names none of them): its failure is said there
  // The demo only in an empty store, once a browser: not when the trash holds sessions (the demo among them, maybe), nor after every session was erased.
  if (state.sessions.length === 0 && !demoMadeBefore() && (await state.actions.countTrash()).length === 0) {
    setStatus("Creating the demo session…");
    await createDemoSession(tree).then(() => (rememberDemoMade(), setStatus("")), (err) => setStatus(`The demo session could not be made: ${err.message}`, true));
    await loadSessions();
    performance.mark("explorer-demo");
  }
  tree.subscribe((event) => {
    if (event.type === "storage") {
      setStatus(`This tab can no longer save: ${event.message ?? event.reason}. Reload the page.`, true);
      showStorage(state.tree).catch(() => {});
      return;
    }
    scheduleRefresh();
  });
  $("storage-persist").addEventListener("click", () => showStorage(state.tree, true).catch(() => {}));
  await showStorage(state.tree).catch(() => {});
  offerExportFormats();
  offerSearch();
  performance.mark("explorer-features");
  const opener = { has: (id) => state.sessions.some((s) => s.sessionId === id), selected: () => state.selected, select: (id) => selectSession(id, null), panel: $("panel"), status: (text) => setStatus(text, true) };
  const openRoute = (route) => openAddress(route, opener);
  state.open = openRoute;
  state.route = new Router({ open: openRoute });
  const wanted = state.route.current();
  if (whole && wanted?.session && !opener.has(wanted.session)) await whole;
  // Without an address, the demo session opens if among the newest HEAD_SIZE, else the newest session: opening a row far down would make every page of rows above it (40,000 sessions: seconds of layout).
  const demoAt = state.sessions.findIndex((s) => s.sessionId === DEMO_SESSION_ID);
  const first = state.sessions.find((s) => s.sessionId === wanted?.session) ?? (demoAt >= 0 && demoAt < HEAD_SIZE ? state.sessions[demoAt] : state.sessions[0]);
  const missing = missingSession(wanted, opener.has); // an address naming a session not here: said, another one opens
  if (missing) setStatus(missing, true);
  // Sets the panel's session, which loads it. An address naming it stays as it is (its node too); otherwise the entry the page opened with names it.
  const opens = first !== undefined && state.selected === null; // not when a row was chosen meanwhile
  if (opens) await selectSession(first.sessionId, wanted?.session === first.sessionId ? null : "replace");
  else if (state.selected !== null && wanted?.session !== state.selected) state.route.replace({ session: state.selected, node: null }); // the row's
  await $("panel").updateComplete;
  if (opens && wanted?.node && wanted.session === first.sessionId) await openRoute(wanted);
  await whole;
  state.route.start();
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("./sw.js").catch((err) => console.warn("sessiontree: offline mode unavailable:", err.message));
  performance.mark("explorer-ready"); // start-up time, read by bench/perf.mjs
  document.body.dataset.ready = "true";
}

start().catch((err) => setStatus(`Something went wrong: ${err.message}`, true));
