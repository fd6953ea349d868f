// The shadow DOM of <session-tree-panel> (static/session-tree-panel.js):
// its frame built once, and the panel's own keys. Functions of the panel,
// kept apart so the element's file holds its state and behaviour.

import { button, el } from "./dom.js";
import { FILTERS } from "./tree-model.js";
import { MAP_CSS, PANEL_CSS, THEME_CSS } from "./panel-styles.js";

/** What the filter menu shows for each of FILTERS. */
const FILTER_LABELS = { default: "Default", "no-tools": "No tools", user: "User only", labeled: "Labeled", all: "All" };

/**
 * Build the panel's shadow root: the overlay toggle and backdrop, the frame
 * (head with title, stats and close; toolbar with search, filter and
 * "Compact runs"; the tree column and the context pane with its composer,
 * each with an anchor for the toast) and the prompt dialog. Sets the
 * panel's element fields (_shadow, _toggle, _backdrop, _frame, _title,
 * _stats, _closeButton, _status, _toastAnchors, _filterSelect, _compactBox).
 * @param {SessionTreePanel} panel
 */
export function buildFrame(panel) {
  const shadow = panel.attachShadow({ mode: "open" });
  panel._shadow = shadow;
  // The stylesheets are constructed from the CSS text a module holds:
  // nothing to fetch, nothing a bundler could inline as a data: URL, and
  // allowed under a strict `style-src 'self'`.
  shadow.adoptedStyleSheets = panelSheets();

  panel._toggle = button("toggle", "Tree", "Open the session tree");
  panel._toggle.setAttribute("aria-expanded", "false");
  panel._toggle.setAttribute("aria-controls", `${panel._uid}-drawer`);
  const icon = el("img", "toggle-icon");
  icon.src = new URL("./icon.svg", import.meta.url).href;
  icon.alt = "";
  icon.width = 16;
  icon.height = 16;
  panel._toggle.prepend(icon);
  panel._backdrop = el("div", "backdrop");

  const frame = el("div", "frame");
  frame.id = `${panel._uid}-drawer`;
  frame.setAttribute("part", "frame");
  panel._frame = frame;

  // Header: title, stats, close (overlay).
  const head = el("div", "head");
  panel._title = el("h2", "title", "No session");
  panel._title.dir = "auto"; // a Hebrew or Arabic title reads right to left
  panel._stats = el("span", "stats");
  panel._closeButton = button("icon close", "×", "Close the session tree");
  // The toast (_setStatus): polite; at the foot of the tree column (or of
  // the context pane when it alone shows), over the last rows, never over
  // a control or the head. A zero-height anchor holds it there.
  panel._status = el("p", "status");
  panel._status.setAttribute("role", "status");
  panel._status.setAttribute("aria-live", "polite");
  panel._status.hidden = true;
  panel._status.addEventListener("click", () => (panel._status.hidden = true)); // only an error takes clicks
  panel._toastAnchors = { tree: el("div", "toast-anchor"), context: el("div", "toast-anchor") };
  panel._toastAnchors.tree.append(panel._status);
  head.append(panel._title, panel._stats, panel._closeButton);

  // Toolbar: search, filter, compact runs.
  const tools = el("div", "tools");
  panel._filterSelect = el("select", "filter");
  panel._filterSelect.setAttribute("aria-label", "Filter");
  for (const f of FILTERS) {
    const o = el("option", "", FILTER_LABELS[f]);
    o.value = f;
    panel._filterSelect.append(o);
  }
  const compact = el("label", "compact");
  panel._compactBox = el("input");
  panel._compactBox.type = "checkbox";
  compact.append(panel._compactBox, document.createTextNode(" Compact runs"));
  tools.append(panel._searchBox.element, panel._filterSelect, compact);

  // Body: tree and context side by side (stacked when narrow).
  const body = el("div", "body");
  const treeCol = el("div", "tree-col");
  treeCol.append(panel._view.scroller, panel._toastAnchors.tree, panel._actions.toolbar);
  panel._composer.element.hidden = !panel.hasAttribute("composer");
  panel._context.element.append(panel._toastAnchors.context, panel._composer.element);
  body.append(treeCol, panel._context.element);

  frame.append(head, tools, body);
  // The prompt dialog sits outside the columns, so it shows whichever column is shown.
  shadow.append(panel._toggle, panel._backdrop, frame, panel._actions.prompt);
}

/** The constructed stylesheets every panel of the page shares: [theme, panel]. */
let sheets = null;

/** @returns {CSSStyleSheet[]} the page's two panel sheets, made on first use */
function panelSheets() {
  if (!sheets) {
    sheets = [THEME_CSS, PANEL_CSS, MAP_CSS].map((text) => {
      const s = new CSSStyleSheet();
      s.replaceSync(text);
      return s;
    });
  }
  return [...sheets];
}

/**
 * The panel's own keys: "/" focuses search; Escape closes the prompt,
 * a comparison being chosen, the comparison shown, the preview or the
 * overlay, in that order; Tab stays inside
 * the open overlay drawer.
 * @param {SessionTreePanel} panel @param {KeyboardEvent} e
 */
export function onPanelKey(panel, e) {
  const target = e.composedPath()[0];
  if (e.key === "/" && !e.ctrlKey && !e.metaKey && !e.altKey && !(target instanceof HTMLInputElement) && !(target instanceof HTMLTextAreaElement)) {
    e.preventDefault();
    panel.focusSearch();
    return;
  }
  if (e.key === "Escape") {
    if (panel._actions.prompting) {
      e.preventDefault();
      panel._actions.closePrompt();
      return;
    }
    if (panel._actions.cancelCompare()) return;
    if (panel._actions.closeComparison()) {
      e.preventDefault();
      return;
    }
    if (panel._model.viewNode !== null) {
      e.preventDefault();
      panel._preview(null);
      return;
    }
    if (panel.mode === "overlay" && panel._open) {
      e.preventDefault();
      panel.close();
    }
    return;
  }
  // The prompt dialog is modal by itself (the drawer behind it is inert).
  if (e.key === "Tab" && panel.mode === "overlay" && panel._open && !panel._actions.prompting) trapFocus(panel, e);
}

/** Keep Tab and Shift+Tab inside the open drawer. @param {SessionTreePanel} panel @param {KeyboardEvent} e */
export function trapFocus(panel, e) {
  const focusables = [...panel._frame.querySelectorAll("button, input, select, [tabindex='0'], summary")].filter((n) => !n.disabled && !n.closest("[hidden]") && n.getClientRects().length > 0);
  if (focusables.length === 0) return;
  const first = focusables[0];
  const last = focusables[focusables.length - 1];
  const current = panel._shadow.activeElement;
  if (e.shiftKey && (current === first || !panel._frame.contains(current))) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && (current === last || !panel._frame.contains(current))) {
    e.preventDefault();
    first.focus();
  }
}

/** Milliseconds a toast that is not an error stays. */
const STATUS_MS = 3000;

/** Milliseconds a toast with an action (Undo) stays: long enough to reach it. */
const ACTION_STATUS_MS = 8000;

/**
 * Show text in the panel's toast ("" puts it away), where it can be seen:
 * the context pane's foot when the tree column is not shown. An error
 * stays until the next text or a click on it; other text STATUS_MS
 * (ACTION_STATUS_MS with an action). action adds one button after the
 * text ({label, run}: Undo of a Hide); a click on it puts the toast away
 * and calls run().
 * @param {SessionTreePanel} panel
 * @param {string} text
 * @param {boolean} [isError]
 * @param {{label: string, run: () => void}|null} [action]
 */
export function showToast(panel, text, isError = true, action = null) {
  const status = panel._status;
  const anchor = panel._toastAnchors[panel.getAttribute("pane") === "context" ? "context" : "tree"];
  if (text !== "" && status.parentNode !== anchor) anchor.append(status);
  status.textContent = text;
  if (action && text !== "") {
    const act = button("status-action", action.label);
    act.addEventListener("click", (e) => {
      e.stopPropagation();
      showToast(panel, "");
      action.run();
    });
    status.append(" ", act);
  }
  status.classList.toggle("error", isError);
  status.hidden = text === "";
  clearTimeout(panel._statusTimer);
  if (text !== "" && !isError) panel._statusTimer = setTimeout(() => (status.hidden = true), action ? ACTION_STATUS_MS : STATUS_MS);
}
