// The context pane of <session-tree-panel>: the messages from the root to
// the cursor (the last CONTEXT_PAGE at first, older ones on demand), the
// state chips (model, thinking level, tools, name) and each message's
// rendered body (render-message.js: Markdown sanitized, reasoning, tool
// calls and results), its Raw toggle and Copy button. Every text we build
// goes in through textContent.

import { stripCites } from "./citations.js";
import { button, el, siblingNav } from "./dom.js";
import { NOTE_TYPE } from "./compose-target.js";
import { breakLongRuns, highlightCode, messageSource, renderMarkdown, renderMessage } from "./render-message.js";
import { contentText, describeNodeEntry, formatTime, nodeText } from "./tree-model.js";

/** Messages rendered at first in the context pane (older ones on demand). */
export const CONTEXT_PAGE = 60;

/** Rendered message contents kept for the renders that follow (a few pages of the context). */
const RENDER_CACHE = 4 * CONTEXT_PAGE;

/** Characters after which a message is collapsed behind "Show more". */
const LONG_MESSAGE = 700;

/**
 * Characters (of a message's source) from which it first shows only its
 * start, as plain text, and is rendered whole on "Show more": a 30 MB
 * message froze the page for 7.5 s while its whole text was rendered and
 * laid out behind the fold.
 */
const HUGE_MESSAGE = 100000;

/** How much of a huge message shows before "Show more" (characters). */
const HUGE_START = 4000;

/**
 * The Raw view of a source: a <pre> of it, or of its first HUGE_MESSAGE
 * characters (UTF-16 code units, never cutting a surrogate pair) with a
 * line saying so and a "Show all of it" button that puts the rest in.
 * @param {string} source
 * @returns {HTMLElement[]}
 */
function rawSource(source) {
  if (source.length <= HUGE_MESSAGE) {
    const pre = el("pre", "raw", source);
    breakLongRuns(pre);
    return [pre];
  }
  let end = HUGE_MESSAGE;
  if (/[\ud800-\udbff]/.test(source[end - 1])) end--; // a pair is not cut in two
  const pre = el("pre", "raw", source.slice(0, end));
  breakLongRuns(pre);
  const note = el("p", "message-huge-more", `The first ${end.toLocaleString("en")} of ${source.length.toLocaleString("en")} characters of the source.`);
  const all = button("show-more", "Show all of it");
  all.addEventListener("click", () => {
    pre.textContent = source;
    breakLongRuns(pre);
    note.remove();
    all.remove();
  });
  return [note, pre, all];
}

/**
 * The context column. `element` goes in the page; `diffSlot` (an element
 * of the caller's) is placed between the state chips and the messages.
 *
 * The host: `{model, node(id) → Promise<node|null>, seq() → number (changes
 * when a newer load started), refresh(), emit(type, detail), status(text),
 * stepSibling(id, delta) (show the newest path of the sibling delta places
 * from node id)}`.
 */
export class ContextPane {
  /**
   * @param {object} host see the class comment
   * @param {HTMLElement} diffSlot
   */
  constructor(host, diffSlot) {
    this.host = host;
    /** How many messages of the path are shown (grows by CONTEXT_PAGE on "Show earlier"). */
    this.shown = CONTEXT_PAGE;
    /** Rendered message contents, see _rendered. */
    this._bodies = new Map();
    /** After the next render, focus this message's sibling arrow: {nodeId, dir: "prev"|"next"} or null. */
    this.focusAfter = null;
    this.element = el("div", "context-col");
    const head = el("div", "context-head");
    this.stats = el("span", "stats");
    head.append(el("h3", "", "Context"), this.stats);
    this.state = el("div", "state");
    /** Set to scroll to the last message after the next render (another path shows). */
    this.scrollToEnd = false;
    // While another path than the session's is previewed: say so, and offer to continue from it or go back.
    this.previewBar = el("div", "preview-bar");
    this.previewBar.hidden = true;
    const cont = button("preview-continue", "Continue from here", "Move the session's cursor to the end of this path");
    cont.addEventListener("click", () => host.continueHere());
    const back = button("preview-back", "Back to the cursor", "Show the path to the session's cursor again (Escape)");
    back.addEventListener("click", () => host.backToCursor());
    // Shown only when the context pane shows alone (a phone), where the tree's Branch… is a tab away.
    const branch = button("preview-branch", "Branch here…", "Start a named branch at the node whose path this is");
    branch.addEventListener("click", () => host.branchHere());
    this.previewText = el("span", "preview-text");
    const buttons = el("span", "preview-buttons");
    buttons.append(cont, branch, back);
    this.previewBar.append(this.previewText, buttons);
    this.messages = el("ol", "messages");
    this.messages.setAttribute("aria-label", "Messages from the root to the cursor");
    this.element.append(head, this.previewBar, this.state, diffSlot, this.messages);
  }

  /** Scroll the messages to the last one (the cursor's). */
  showEnd() {
    this.messages.scrollTop = this.messages.scrollHeight;
  }

  /**
   * Scroll the messages list (only it: never the page around the panel,
   * as Element.scrollIntoView would, which on a phone moved the chat
   * demo's page to the panel at every message sent) the least that brings
   * item into view. Nothing when the list does not scroll.
   * @param {Element|null|undefined} item
   */
  _reveal(item) {
    if (!item) return;
    const list = this.messages.getBoundingClientRect();
    const r = item.getBoundingClientRect();
    if (r.top < list.top) this.messages.scrollTop += r.top - list.top;
    else if (r.bottom > list.bottom) this.messages.scrollTop += Math.min(r.bottom - list.bottom, r.top - list.top);
  }

  /** Show the first page again (another session). */
  reset() {
    this.shown = CONTEXT_PAGE;
  }

  /**
   * Draw the path's messages; ctx null (or no session rows) empties the pane.
   * @param {{messages: {length: number}|null, state: object|null}|null} ctx
   *   what `context` said: its message count and state (null fields when it was not asked)
   */
  async render(ctx) {
    const { model } = this.host;
    const list = this.messages;
    if (!ctx || !model.value) {
      list.replaceChildren();
      this.stats.textContent = "";
      this.state.replaceChildren();
      this.previewBar.hidden = true;
      return;
    }
    const viewing = model.viewNode;
    const seq = this.host.seq();
    const { total, hidden: from, rows: shownRows } = model.contextRows(this.shown);
    const nodes = await Promise.all(shownRows.map((r) => this.host.node(r.id)));
    if (seq !== this.host.seq()) return;
    const m = viewing === null ? ctx.messages?.length : undefined;
    const nodesText = `${total.toLocaleString("en")} ${total === 1 ? "node" : "nodes"} root → ${viewing === null ? "cursor" : "viewed node"}`;
    this.stats.textContent = m === undefined ? nodesText : `${m.toLocaleString("en")} ${m === 1 ? "message" : "messages"} to the model · ${nodesText}`;
    this.previewBar.hidden = viewing === null;
    // An ancestor of the cursor (a search hit, an earlier message) is on the session's own path.
    const where = model.rowById?.get(viewing)?.onPath ? "an earlier point of the session's path" : "a path the session is not on";
    if (viewing !== null) this.previewText.textContent = `Previewing ${where}. The session continues from the ● cursor on ${model.value.activeBranch}.`;
    this._renderState(viewing === null ? ctx : { state: null }, nodes);
    const items = [];
    if (from > 0) {
      const more = button("more-context", `Show ${Math.min(CONTEXT_PAGE, from)} earlier of ${from} hidden`);
      more.addEventListener("click", () => {
        this.shown += CONTEXT_PAGE;
        this.host.refresh();
      });
      const li = el("li", "more-item");
      li.append(more);
      items.push(li);
    }
    nodes.forEach((node, k) => items.push(this._messageElement(node, shownRows[k], from + k + 1)));
    // A control of a message that had the focus keeps it in the new list
    // (renders follow every change of the tree); after a sibling step, the
    // arrow of the version stepped to takes it.
    const had = this.element.getRootNode().activeElement;
    const kept = had && list.contains(had) && had.closest(".message") ? { nodeId: had.closest(".message").dataset.nodeId, cls: had.classList[0] } : null;
    const focus = this.focusAfter ?? (kept?.cls === "sib-prev" || kept?.cls === "sib-next" ? { nodeId: kept.nodeId, dir: kept.cls.slice(4) } : null);
    list.replaceChildren(...items);
    const find = (id) => [...list.children].find((n) => n.dataset.nodeId === id);
    if (this.scrollToEnd) {
      this.scrollToEnd = false;
      this.showEnd();
    }
    const li = focus && find(focus.nodeId);
    if (li) this.focusAfter = null; // else kept for the render that shows the new path
    if (li) {
      const want = li.querySelector(`.sib-${focus.dir}`);
      (want && !want.disabled ? want : li.querySelector(`.sib-${focus.dir === "prev" ? "next" : "prev"}`))?.focus({ preventScroll: true });
      this._reveal(li);
    } else {
      if (kept) find(kept.nodeId)?.querySelector(`.${kept.cls}`)?.focus({ preventScroll: true });
      this._reveal(list.lastElementChild);
    }
    this.highlighted = highlightCode(list);
  }

  /**
   * While a session opens (panel-loader.js _showOpening): the last nodes
   * of its path as its stored records hold them (tree.storedContext's
   * value), read-only, in place of the context, which replaces them once
   * the session answers. Their places are counted from the root when the
   * nodes start there, else from the first one shown.
   * @param {{nodes: object[], complete: boolean, nodeCount: number}} stored
   * @returns {boolean} true (drawn)
   */
  renderStored(stored) {
    const { nodes, complete } = stored;
    const k = nodes.length;
    this.stats.textContent = `${complete ? "" : "the last "}${k.toLocaleString("en")} ${k === 1 ? "node" : "nodes"} → cursor, as stored · opening…`;
    this.previewBar.hidden = true;
    this._renderState({ state: null }, nodes);
    this.messages.replaceChildren(...nodes.map((node, i) => this._messageElement(node, null, i + 1)));
    this.showEnd();
    this.highlighted = highlightCode(this.messages);
    return true;
  }

  _renderState(ctx, nodes) {
    const chips = [];
    const st = ctx.state;
    let model = st?.model ? [st.model.provider, st.model.model].filter(Boolean).join("/") : "";
    if (!model) {
      for (let k = nodes.length - 1; k >= 0; k--) {
        const mm = nodes[k]?.message?.model ?? nodes[k]?.source?.message?.metadata?.model_slug;
        if (typeof mm === "string") {
          model = mm;
          break;
        }
      }
    }
    const chip = (name, value) => {
      const c = el("span", "chip");
      c.append(el("span", "chip-name", name), el("span", "chip-value", value));
      chips.push(c);
    };
    if (model) chip("model", model);
    if (typeof st?.thinkingLevel === "string") chip("thinking", st.thinkingLevel);
    if (Array.isArray(st?.activeTools)) chip("tools", st.activeTools.length === 0 ? "none" : st.activeTools.join(", "));
    if (typeof st?.sessionName === "string") chip("name", st.sessionName);
    this.state.replaceChildren(...chips);
    this.state.hidden = chips.length === 0;
  }

  /**
   * One message of the path (node null: it could not be read), the n-th
   * from the root. Its Raw and Copy buttons are named by it ("Copy message
   * 3 (assistant)"): a screen reader's list of buttons read "Copy" for each.
   */
  _messageElement(node, row, n) {
    const li = el("li", "message");
    if (!node) {
      li.append(el("p", "empty", `(node ${row?.id ?? "?"} could not be read)`));
      return li;
    }
    li.dataset.nodeId = node.id;
    const kind = node.kind;
    // A note of the composer (panel-composer.js): a custom entry, shown with its text.
    const note = kind === "custom" && node.entry?.customType === NOTE_TYPE && typeof node.entry?.data?.text === "string" ? node.entry.data.text : null;
    const role = kind === "message" ? node.message?.role ?? "?" : note !== null ? "note" : kind;
    li.dataset.role = kind === "message" || note !== null ? role : kind;
    if (kind !== "message" && kind !== "summary") li.classList.add("entry");
    const head = el("div", "message-head");
    const badge = el("span", "role", kind === "message" || note !== null ? role : kind.replace(/_/g, " "));
    badge.dataset.role = li.dataset.role;
    head.append(badge);
    const which = `message ${n} (${badge.textContent})`;
    const branch = el("span", "meta branch-name", node.branch);
    branch.title = `branch ${node.branch}`;
    head.append(branch);
    const model = node.message?.model ?? node.source?.message?.metadata?.model_slug;
    if (typeof model === "string") {
      const m = el("span", "meta model", model);
      m.title = `model ${model}`; // its whole name, where the head cuts it
      head.append(m);
    }
    const time = el("time", "meta time", formatTime(node.timestamp));
    time.dateTime = node.timestamp;
    head.append(time);
    if (row?.label) head.append(el("span", "node-label", row.label));
    const body = el("div", "message-body");
    const source = kind === "message" ? messageSource(node.message) : typeof node.summary === "string" ? node.summary : note;
    const huge = source !== null && source.length > HUGE_MESSAGE;
    if (huge) {
      // Its start as text; rendered whole only when asked for (Show more).
      body.append(el("p", "message-huge-more", `A long message (${source.length.toLocaleString("en")} characters): its start shows as text; Show more renders it whole.`), el("p", "message-huge", source.slice(0, HUGE_START)));
      breakLongRuns(body);
      head.append(this._rawToggle(body, source, which));
    } else if (source !== null) {
      body.append(this._rendered(node, source));
      head.append(this._rawToggle(body, source, which));
    } else if (node.entry) {
      body.append(el("p", "entry-text", describeNodeEntry(node)));
    }
    const copy = button("copy", "Copy", "Copy this message");
    copy.setAttribute("aria-label", `Copy ${which}`);
    copy.addEventListener("click", () => this._copy(node, copy, note ?? stripCites(nodeText(node)), which));
    head.append(copy);
    li.append(head);

    const size = contentText(node.message?.content ?? node.summary ?? "").length;
    // A long tool result renders folded (a <details> showing one line): it is its own Show more.
    if ((size > LONG_MESSAGE && !foldedOnly(body)) || huge) {
      body.classList.add("collapsed");
      const more = button("show-more", "Show more");
      more.setAttribute("aria-expanded", "false");
      let whole = !huge;
      more.addEventListener("click", () => {
        if (!whole) {
          whole = true;
          body.replaceChildren(this._rendered(node, source));
          if (foldedOnly(body)) for (const d of body.children) d.open = true; // asked for whole: shown unfolded
        }
        const open = body.classList.toggle("collapsed") === false;
        more.textContent = open ? "Show less" : "Show more";
        more.setAttribute("aria-expanded", String(open));
      });
      li.append(body, more);
    } else {
      li.append(body);
    }
    const sib = this.host.model.siblings(node.id);
    if (sib && sib.count > 1) li.append(this._siblingArrows(node.id, sib));
    return li;
  }

  /** "‹ 2 / 3 ›" under a message with siblings: step to the newest path of the previous or next one. */
  _siblingArrows(id, { index, count }) {
    const foot = el("div", "message-foot");
    const { nav, prev, next } = siblingNav(index, count);
    prev.addEventListener("click", () => this.host.stepSibling(id, -1));
    next.addEventListener("click", () => this.host.stepSibling(id, 1));
    foot.append(nav);
    return foot;
  }

  /**
   * A message's (or summary's) rendered content, as a fragment to append.
   * Rendering is kept by node and exact source (a node's content never
   * changes, but a session may be loaded anew under the same ids), so the
   * renders that follow each change of the tree clone instead of parsing
   * Markdown again.
   */
  _rendered(node, source) {
    const key = `${node.id}\u0000${node.kind}\u0000${source}`;
    let done = this._bodies.get(key);
    if (done) {
      this._bodies.delete(key); // most recently used last
    } else {
      done = document.createDocumentFragment();
      if (node.kind === "message") {
        const box = el("div");
        renderMessage(box, node.message, { source: node.source });
        done.append(...box.childNodes);
      } else {
        done.append(markdown(source));
      }
      if (this._bodies.size >= RENDER_CACHE) this._bodies.delete(this._bodies.keys().next().value);
    }
    this._bodies.set(key, done);
    return done.cloneNode(true);
  }

  /**
   * The "Raw" toggle of a message: swaps the rendered body for a <pre>
   * holding the exact source, and back (aria-pressed says which shows).
   * A source past HUGE_MESSAGE characters shows its first HUGE_MESSAGE,
   * with "Show all of it" for the rest: a 6 MB one blocked the page 3.4 s.
   * Its name says which message (`which`), after the "Raw" it shows.
   */
  _rawToggle(body, source, which) {
    const raw = button("raw-toggle", "Raw", "Show the raw source of this message");
    raw.setAttribute("aria-label", `Raw ${which}`);
    raw.setAttribute("aria-pressed", "false");
    let rendered = null;
    raw.addEventListener("click", () => {
      if (rendered === null) {
        rendered = [...body.childNodes];
        body.replaceChildren(...rawSource(source));
        body.classList.add("raw-source");
        raw.setAttribute("aria-pressed", "true");
      } else {
        body.replaceChildren(...rendered);
        rendered = null;
        body.classList.remove("raw-source");
        raw.setAttribute("aria-pressed", "false");
      }
    });
    return raw;
  }

  /** Copy text (node's) to the clipboard; its button b (of `which` message) says "Copied" a moment, its name too. */
  async _copy(node, b, text, which) {
    const say = (word) => {
      b.textContent = word;
      b.setAttribute("aria-label", `${word} ${which}`);
    };
    try {
      await navigator.clipboard.writeText(text);
      say("Copied");
      b.classList.add("copied");
      setTimeout(() => {
        say("Copy");
        b.classList.remove("copied");
      }, 1200);
      this.host.emit("copy", { nodeId: node.id, text });
    } catch {
      this.host.status("Copying needs clipboard permission.");
    }
  }
}

function markdown(text) {
  const div = el("div", "markdown");
  div.append(renderMarkdown(text));
  return div;
}

/** Whether a message body shows only folded sections (closed <details>, e.g. a tool's result). @param {HTMLElement} body */
function foldedOnly(body) {
  const parts = [...body.children];
  return parts.length > 0 && parts.every((c) => c.localName === "details" && !c.open);
}
