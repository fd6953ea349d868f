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
