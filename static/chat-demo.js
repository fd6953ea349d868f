// A minimal static chat frontend that keeps its history in sessiontree:
// the history shown is `context` (root → cursor); typing a message appends
// it, and the answer comes from the model endpoint set in the settings
// dialog (any OpenAI-compatible Chat Completions server, through
// sessiontree/openai: streamed into a bubble as it arrives, appended as one
// node when complete), or from the echo bot when none is set. Regenerate
// appends a sibling reply, Edit a sibling user message; "‹ 2 / 3 ›" under a
// message steps through its siblings (the cursor jumps to the newest path
// below the sibling). The <session-tree-panel> in the details column and
// the overlay drawer share the same tree, so jumping or branching there
// changes which history the chat shows.

import { init } from "../js/sessiontree.js";
import { chatCompletionsURL, edit, regenerate, reply } from "../js/openai.js";
import { contentText } from "./tree-model.js";
import { button, el, siblingNav } from "./dom.js";
import { renderMessage } from "./render-message.js";
import { DEFAULT_SYSTEM, historyItems, loadSettings, newestLeaf, saveSettings } from "./chat-history.js";
import "./session-tree-panel.js";
import { ERROR } from "../js/protocol.js";

/** The session this demo keeps its chat in. */
export const CHAT_SESSION = "chat-demo";

const $ = (id) => document.getElementById(id);

/**
 * The demo bot's answer to a message: deterministic, so tests can assert it.
 * @param {string} text
 * @returns {string}
 */
export function botReply(text) {
  const words = text.trim().split(/\s+/).filter(Boolean).length;
  return `You said “${text.trim()}” (${words} ${words === 1 ? "word" : "words"}).`;
}

let tree;
/** The endpoint settings, or null for the echo bot. */
let settings = loadSettings(globalThis.localStorage);
/** The reply being streamed: {controller, bubble, appended} or null (appended: its node is in the tree, so the bubble goes). */
let pending = null;
/** The node whose bubble shows the inline editor, or null. */
let editing = null;
/** After the next render, focus this sibling arrow: {position (in the history), dir: "prev"|"next"} or null. */
let focusAfter = null;
/**
 * The bubble action to focus once a render draws it enabled:
 * {position (in the history), selector} or null. Every render draws the
 * bubbles anew, so focus on an action (Regenerate, Edit, the editor)
 * would fall to <body>; it goes to the same action of the bubble at the
 * same place instead (after the editor: its message's Edit), waiting
 * through the renders of a streamed reply, while its buttons are disabled.
 */
let focusKeep = null;
let renders = 0;
let lastList = [];
/** The turn (send, Save & send, Regenerate) being made, settled when it is done, or null. */
let turn = null;

/**
 * Run a turn unless one is being made or a reply streams: a double click
 * on Save & send or Regenerate made two, the second under the first's
 * reply. With wait (a message sent from the composer), it goes after the
 * turn being made instead.
 * @template T @param {() => Promise<T>} run @param {{wait?: boolean}} [options]
 * @returns {Promise<T|undefined>} undefined when refused
 */
async function oneTurn(run, { wait = false } = {}) {
  while (wait && turn) await turn;
  if (turn || pending) return undefined;
  const made = run();
  turn = made.then(() => {}, () => {});
  try {
    return await made;
  } finally {
    turn = null;
  }
}

const call = (request) => tree.call({ sessionId: CHAT_SESSION, ...request });
const adapterSettings = () => ({ baseURL: settings.baseURL, model: settings.model, apiKey: settings.apiKey || undefined });

function roleName(role) {
  if (role === "user") return "You";
  if (role === "assistant") return settings ? "Assistant" : "Bot";
  const name = String(role);
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** Draw the history (context at the cursor) and the reply being streamed. */
async function render() {
  const seq = ++renders;
  const [ctx, session, list] = await Promise.all([call({ operation: "context" }), call({ operation: "session" }), call({ operation: "list" })]);
  if (seq !== renders) return;
  if (!ctx.ok || !list.ok) {
    // Not the history of before (another tab may have deleted the chat): what went wrong, as an error.
    lastList = [];
    $("history").replaceChildren(el("li", "empty error", `The chat could not be read: ${(ctx.ok ? list : ctx).error.message}`));
    return;
  }
  lastList = list.value;
  const history = historyItems(list.value, ctx.value.cursor, ctx.value.messages);
  const items = history.map((item, position) => bubble(item, position));
  if (pending && !pending.appended) items.push(pending.bubble);
  if (items.length === 0) items.push(el("li", "empty", "No messages yet. Say hello!"));
  const keep = focusKeep ?? focusedAction();
  $("history").replaceChildren(...items);
  if (focusAfter) {
    // After a sibling step the arrows are drawn anew: focus stays on them.
    const foot = $("history").children[focusAfter.position];
    const [want, other] = focusAfter.dir === "prev" ? [".sib-prev", ".sib-next"] : [".sib-next", ".sib-prev"];
    const target = foot?.querySelector(`${want}:not(:disabled)`) ?? foot?.querySelector(other);
    focusAfter = null;
    target?.focus();
  } else if (keep) {
    const target = $("history").children[keep.position]?.querySelector(keep.selector);
    focusKeep = target && !target.disabled ? null : keep;
    if (!focusKeep) target.focus();
    else (editing ? $("history").querySelector(".editor textarea") : $("history").lastElementChild)?.scrollIntoView({ block: "nearest" });
  } else {
    (editing ? $("history").querySelector(".editor textarea") : $("history").lastElementChild)?.scrollIntoView({ block: "nearest" });
  }
  if (session.ok) $("branch-name").textContent = `branch ${session.value.activeBranch}`;
  $("bot-name").textContent = endpointLabel();
}

/** The focused bubble action as focusKeep holds it, or null when focus is not on one. */
function focusedAction() {
  const active = document.activeElement;
  const li = active?.closest?.("#history > li");
  if (!li) return null;
  const position = [...$("history").children].indexOf(li);
  if (active.closest(".editor")) return { position, selector: ".act.edit" };
  const act = ["regen", "edit"].find((cls) => active.matches(`.act.${cls}`));
  return act ? { position, selector: `.act.${act}` } : null;
}

/** "model @ host" of the settings, "echo bot" without. */
function endpointLabel() {
  if (!settings) return "echo bot";
  const url = chatCompletionsURL(settings.baseURL);
  return `${settings.model || "model"} @ ${url ? new URL(url).host : settings.baseURL}`;
}

/** One message's bubble: who, the text (assistant text as Markdown), the foot (arrows, actions). */
function bubble({ message, id, parentId, siblings }, position) {
  const li = el("li", "bubble");
  li.dataset.role = typeof message?.role === "string" ? message.role : "";
  if (id) li.dataset.nodeId = id;
  li.append(el("span", "who", roleName(message?.role)));
  if (id !== null && id === editing) {
    li.append(editor(id, contentText(message.content)));
    return li;
  }
  const text = el("div", "text");
  if (message?.role === "user" || message?.role === "system") text.textContent = contentText(message.content);
  else renderMessage(text, message);
  li.append(text);
  if (id === null) return li;
  const foot = el("div", "bubble-foot");
  if (siblings && siblings.count > 1) foot.append(siblingArrows(siblings, position));
  if (message.role === "assistant" && parentId !== null) foot.append(action("regen", "Regenerate", "Answer again (a new reply beside this one)", () => regenerateAt(id)));
  if (message.role === "user") foot.append(action("edit", "Edit", "Edit this message (a new version beside it)", () => startEdit(id)));
  if (foot.childElementCount > 0) li.append(foot);
  return li;
}

function action(cls, text, title, fn) {
  const b = button(`act ${cls}`, text, title);
  b.disabled = pending !== null;
  b.addEventListener("click", fn);
  return b;
}

/** "‹ 2 / 3 ›": step to the newest path below the previous or next sibling. */
function siblingArrows({ index, count, ids }, position) {
  const { nav, prev, next } = siblingNav(index, count);
  prev.disabled ||= pending !== null;
  next.disabled ||= pending !== null;
  const step = (delta) => {
    focusAfter = { position, dir: delta < 0 ? "prev" : "next" };
    return call({ operation: "jump", nodeId: newestLeaf(lastList, ids[index + delta]) });
  };
  prev.addEventListener("click", () => step(-1));
  next.addEventListener("click", () => step(1));
  return nav;
}

/** The inline editor of a user message: Save & send appends the new version beside it. */
function editor(id, text) {
  const form = el("form", "editor");
  const area = el("textarea");
  area.value = text;
  area.rows = Math.min(8, Math.max(2, text.split("\n").length));
  area.setAttribute("aria-label", "Edited message");
  const save = el("button", "", "Save & send");
  save.type = "submit";
  const cancel = button("ghost", "Cancel");
  cancel.addEventListener("click", () => {
    editing = null;
    render();
  });
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    if (area.value.trim() === "") return;
    oneTurn(async () => {
      editing = null;
      const node = await edit(tree, CHAT_SESSION, id, area.value);
      if (!node.ok) return showStatus(`The message was not edited: ${node.error.message}`, true);
      await answer(area.value);
    });
  });
  area.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey) {
      e.preventDefault();
      form.requestSubmit();
    } else if (e.key === "Escape") cancel.click();
  });
  const row = el("div", "editor-actions");
  row.append(cancel, save);
  form.append(area, row);
  queueMicrotask(() => area.focus());
  return form;
}

function startEdit(id) {
  editing = id;
  render();
}

function showStatus(text, isError = false) {
  const s = $("status");
  s.textContent = text;
  s.classList.toggle("error", isError);
}

/** Lock the composer's Send (it becomes Stop) and the bubbles' actions while a reply streams. */
function setBusy(busy) {
  const send = $("send");
  send.textContent = busy ? "Stop" : "Send";
  send.classList.toggle("stop", busy);
  for (const b of $("history").querySelectorAll("button.act, .sib-prev, .sib-next")) b.disabled = busy;
}

/**
 * Stream a reply from the model: run(tree, options) is an adapter call
 * (reply or regenerate); the bubble shows the text as it arrives, and the
 * tree gets the reply once it is complete (or nothing: the status says
 * why). The adapter is handed a tree that notes its append, so the render
 * that follows the append draws the reply's node and not the bubble too.
 */
async function streamed(run) {
  const noting = {
    call: (request) => {
      if (request?.operation === "append" && pending) pending.appended = true;
      return tree.call(request);
    },
  };
  const controller = new AbortController();
  const li = el("li", "bubble streaming");
  li.dataset.role = "assistant";
  const text = el("div", "text");
  text.append(el("span", "typing", "…"));
  li.append(el("span", "who", roleName("assistant")), text);
  pending = { controller, bubble: li, appended: false };
  showStatus("");
  setBusy(true);
  await render();
  const got = await run(noting, {
    signal: controller.signal,
    onDelta: (d) => {
      text.textContent = d.text;
      li.scrollIntoView({ block: "nearest" });
    },
  });
  pending = null;
  setBusy(false);
  await render();
  if (!got.ok) {
    const code = got.error.code;
    if (code === "ABORTED") showStatus("Stopped. The partial reply was not kept.");
    else showStatus(`No reply (${code}): ${got.error.message}${got.error.partial ? " The partial reply was not kept." : ""}`, true);
  }
}

/** Answer the message at the cursor (text: its text, for the echo bot). */
async function answer(text) {
  if (!settings) {
    await call({ operation: "append", message: { role: "assistant", content: botReply(text), model: "demo-bot" } });
    return;
  }
  await streamed((t, options) => reply(t, CHAT_SESSION, adapterSettings(), options));
}

function regenerateAt(id) {
  return oneTurn(async () => {
    if (settings) return streamed((t, options) => regenerate(t, CHAT_SESSION, id, adapterSettings(), options));
    const node = await call({ operation: "node", nodeId: id });
    if (!node.ok || node.value.parentId === null) return;
    const parent = await call({ operation: "node", nodeId: node.value.parentId });
    if (!parent.ok) return;
    await call({ operation: "jump", nodeId: parent.value.id });
    await answer(contentText(parent.value.message?.content ?? ""));
  });
}

/**
 * Send text as the user's message and answer it.
 * @param {string} text @returns {Promise<boolean>} false when it was not appended (nothing to send, a reply streaming, refused)
 */
async function send(text) {
  if (text.trim() === "") return false;
  return (await oneTurn(() => sendNow(text), { wait: true })) ?? false;
}

/** send, its turn begun: the system prompt first in a new chat with a model, the message, the answer. */
async function sendNow(text) {
  showStatus("");
  if (settings && settings.system.trim() !== "") {
    // A conversation with a model starts with its system prompt (which also
    // gives the first user message a parent, so it can be edited).
    const status = await call({ operation: "session" });
    if (status.ok && status.value.cursor === null) await call({ operation: "append", message: { role: "system", content: settings.system } });
  }
  const user = await call({ operation: "append", message: { role: "user", content: text } });
  if (!user.ok) {
    showStatus(`The message was not sent: ${user.error.message}`, true);
    return false;
  }
  await answer(text);
  return true;
}

/** The settings dialog: fill it, check the base URL, keep the settings. */
function wireSettings() {
  const dialog = $("settings");
  const fields = { baseURL: $("set-base"), model: $("set-model"), apiKey: $("set-key"), system: $("set-system") };
  $("settings-open").addEventListener("click", () => {
    fields.baseURL.value = settings?.baseURL ?? "";
    fields.model.value = settings?.model ?? "";
    fields.apiKey.value = settings?.apiKey ?? "";
    fields.system.value = settings?.system ?? DEFAULT_SYSTEM;
    $("settings-error").textContent = "";
    dialog.showModal();
  });
  $("settings-cancel").addEventListener("click", () => dialog.close());
  const keep = (next) => {
    if (!saveSettings(globalThis.localStorage, next)) $("settings-error").textContent = "This browser refused to keep the settings (private mode?): they last until the page closes.";
    settings = next;
    $("bot-name").textContent = endpointLabel(); // at once: render() waits for the store
    dialog.close();
    render();
  };
  $("settings-echo").addEventListener("click", () => keep(null));
  $("settings-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const baseURL = fields.baseURL.value.trim();
    if (baseURL === "") return keep(null);
    if (chatCompletionsURL(baseURL) === null) {
      $("settings-error").textContent = "The base URL must be an http:// or https:// URL, e.g. http://localhost:11434/v1.";
      return;
    }
    if (fields.model.value.trim() === "") {
      $("settings-error").textContent = "Name the model, e.g. llama3.2.";
      return;
    }
    keep({ baseURL, model: fields.model.value.trim(), apiKey: fields.apiKey.value, system: fields.system.value });
  });
}

async function start() {
  tree = await init({ workerURL: new URL("./store-worker.bundle.js", import.meta.url) });
  const created = await tree.call({ operation: "create", sessionId: CHAT_SESSION, title: "Embedding demo chat" });
  if (!created.ok && created.error.code !== ERROR.SESSION_ALREADY_EXISTS) throw new Error(created.error.message);
  for (const panel of document.querySelectorAll("session-tree-panel")) panel.tree = tree;
  tree.subscribe((e) => {
    if (e.sessionId === CHAT_SESSION) render();
  });
  // Focus put somewhere (a click, Tab): no earlier bubble action to go back to.
  document.addEventListener("focusin", () => (focusKeep = null));
  const input = $("input");
  $("composer").addEventListener("submit", async (e) => {
    e.preventDefault();
    if (pending) {
      pending.controller.abort();
      return;
    }
    const text = input.value;
    input.value = "";
    // Not sent (refused, or a reply streaming): the text comes back, before
    // whatever was typed since, on a line of its own (nothing typed is lost).
    if (!(await send(text))) input.value = input.value === "" ? text : `${text}\n${input.value}`;
    input.focus();
  });
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey) {
      e.preventDefault();
      if (!pending) $("composer").requestSubmit();
    }
  });
  wireSettings();
  await render();
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("./sw.js").catch(() => {});
  window.chatDemo = { tree, render };
  document.body.dataset.ready = "true";
}

start().catch((err) => {
  $("history").replaceChildren(el("li", "empty error", `sessiontree could not start: ${err.message}`));
});
