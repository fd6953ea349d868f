// DOM helpers shared by the panel's modules: every element is made with
// createElement and every text set with textContent (never innerHTML).

/**
 * A new element with a class and a text.
 * @param {string} tag
 * @param {string} [className] "" or undefined for none
 * @param {string} [text] set as textContent when given
 * @returns {HTMLElement}
 */
export function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

/**
 * A `<button type="button">`; `title` becomes its tooltip, and its
 * accessible name only when `text` holds no letter (a symbol).
 * @param {string} className
 * @param {string} text
 * @param {string} [title]
 * @returns {HTMLButtonElement}
 */
export function button(className, text, title) {
  const b = el("button", className, text);
  b.type = "button";
  if (title) {
    b.title = title;
    // A button is named by the label it shows (what a user says to voice
    // control, WCAG 2.5.3); the tooltip names only a button showing a
    // symbol ("×", "›"), and is otherwise read as its description.
    if (!/\p{L}/u.test(text ?? "")) b.setAttribute("aria-label", title);
  }
  return b;
}

/**
 * Shift an open, absolutely or fixed positioned popup (a menu) sideways so
 * that it stays at least `margin` px (CSS pixels) inside the viewport: a
 * menu that opens leftwards from a button near the left edge of a phone
 * would otherwise start off screen. Sets style.transform; call it after
 * the popup is shown (hidden popups have no box).
 * @param {HTMLElement} popup
 * @param {number} [margin]
 */
export function keepInView(popup, margin = 8) {
  popup.style.transform = "";
  const r = popup.getBoundingClientRect();
  const width = document.documentElement.clientWidth;
  let dx = 0;
  if (r.right > width - margin) dx = width - margin - r.right;
  if (r.left + dx < margin) dx = margin - r.left;
  if (dx !== 0) popup.style.transform = `translateX(${Math.round(dx)}px)`;
}

/**
 * "‹ 2 / 3 ›", the arrows under a message with other versions (siblings):
 * a labelled group, each arrow named by the version it steps to, and
 * disabled (named "none before" / "none after") at either end. The caller
 * wires the clicks.
 * @param {number} index the shown version, 0-based
 * @param {number} count the versions, 2 or more
 * @returns {{nav: HTMLElement, prev: HTMLButtonElement, next: HTMLButtonElement}}
 */
export function siblingNav(index, count) {
  const nav = el("div", "siblings");
  nav.setAttribute("role", "group");
  nav.setAttribute("aria-label", `Version ${index + 1} of ${count}`);
  const prev = button("sib-prev", "‹", index > 0 ? `Previous version (${index} of ${count})` : "Previous version (none before)");
  const next = button("sib-next", "›", index < count - 1 ? `Next version (${index + 2} of ${count})` : "Next version (none after)");
  prev.disabled = index === 0;
  next.disabled = index === count - 1;
  nav.append(prev, el("span", "sib-pos", `${index + 1} / ${count}`), next);
  return { nav, prev, next };
}

/**
 * Whether a page-wide shortcut's key event belongs to something else: it
 * was typed in a text field or the tree panel (their own keys), or a dialog
 * is open.
 * @param {KeyboardEvent} e
 * @returns {boolean}
 */
export function keyTakenElsewhere(e) {
  return !!e.target.closest?.("input, textarea, select, [contenteditable], session-tree-panel") || document.querySelector("dialog[open]") !== null;
}

/**
 * The keys of a menu (role="menu" of buttons), as WAI-ARIA's menu button
 * pattern has them (https://www.w3.org/WAI/ARIA/apg/patterns/menu-button/):
 * ArrowDown / ArrowUp move through the items, wrapping; Home and End go to
 * the first and last; Escape closes it; Tab closes it too and goes on from
 * where the menu was opened. close() closes the menu and gives focus back
 * to its button.
 * @param {KeyboardEvent} e @param {HTMLElement} menu @param {() => void} close
 */
export function menuKey(e, menu, close) {
  const items = [...menu.querySelectorAll("button:not([hidden]):not(:disabled)")];
  const i = items.indexOf(e.target);
  if (e.key === "Escape") {
    e.preventDefault();
    close();
  } else if (e.key === "Tab") {
    close(); // Tab goes on from the menu's button, not from the menu's place in the page
  } else if (e.key === "Home" || e.key === "End") {
    e.preventDefault();
    items[e.key === "Home" ? 0 : items.length - 1]?.focus();
  } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
    e.preventDefault();
    items[(i + (e.key === "ArrowDown" ? 1 : items.length - 1)) % items.length]?.focus();
  }
}

/**
 * Whether element e shows: checkVisibility() where the browser has it
 * (Safari 17.4, Firefox 106 on), else whether it is laid out.
 * @param {Element} e
 * @returns {boolean}
 */
export function isShown(e) {
  return typeof e.checkVisibility === "function" ? e.checkVisibility() : e.getClientRects().length > 0;
}

/**
 * Run fn once what was just changed has been drawn (a task after the next
 * frame), as a live region's text should be set: set in the step that shows
 * the region, or that shows what it speaks of, it may go unannounced. In a
 * hidden tab (no frames are drawn) a task later.
 * @param {() => void} fn
 * @returns {() => void} call it to cancel fn when it has not run yet
 */
export function afterFrame(fn) {
  let cancelled = false;
  const run = () => cancelled || fn();
  if (document.hidden) setTimeout(run);
  else requestAnimationFrame(() => setTimeout(run));
  return () => (cancelled = true);
}

/** How long a done message stays on a status line (statusLine), ms. */
export const STATUS_MS = 8000;

/**
 * A status line: say(text, isError) sets the element's text a frame later
 * (afterFrame: it is a live region, never hidden), "" empties it at once.
 * A done message (not an error, holding no "…", which says work goes on:
 * "Importing x…", "Building the share file… 3 of 9 nodes") empties itself
 * after STATUS_MS, so the pill does not stay over the controls under it;
 * an error stays until the next message.
 * @param {() => HTMLElement} element the status line (read at each call)
 * @returns {(text: string, isError?: boolean) => void}
 */
export function statusLine(element) {
  let soon = () => {}; // cancels a text not set yet
  let gone = 0; // the timer that empties a done message
  const say = (text, isError = false) => {
    const s = element();
    soon();
    clearTimeout(gone);
    const set = () => {
      s.textContent = text;
      s.classList.toggle("error", isError && text !== "");
    };
    if (text === "") set();
    else soon = afterFrame(set);
    if (text !== "" && !isError && !text.includes("…")) gone = setTimeout(() => say(""), STATUS_MS);
  };
  return say;
}
