// A minimal static chat frontend that keeps its history in sessiontree:
// the history shown is `context` (root → cursor); typing a message appends
// it (and a canned reply from a demo bot); the <session-tree-panel> in the
// details column and the overlay drawer share the same tree, so jumping or
// branching there changes which history the chat shows.

import { init } from "../js/sessiontree.js";
import { contentText } from "./tree-model.js";
import "./session-tree-panel.js";

/** The session this demo keeps its chat in. */
export const CHAT_SESSION = "chat-demo";

const $ = (id) => document.getElementById(id);

function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

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

async function render() {
  const [ctx, session] = await Promise.all([tree.call({ operation: "context", sessionId: CHAT_SESSION }), tree.call({ operation: "session", sessionId: CHAT_SESSION })]);
  if (!ctx.ok) return;
  const items = ctx.value.messages.map((m) => {
    const li = el("li", "bubble");
    li.dataset.role = typeof m.role === "string" ? m.role : "";
    li.append(el("span", "who", m.role === "user" ? "You" : m.role === "assistant" ? "Bot" : String(m.role)), el("p", "text", contentText(m.content)));
    return li;
  });
  if (items.length === 0) items.push(el("li", "empty", "No messages yet. Say hello!"));
  $("history").replaceChildren(...items);
  $("history").lastElementChild?.scrollIntoView({ block: "nearest" });
  if (session.ok) $("branch-name").textContent = `branch ${session.value.activeBranch}`;
}

async function send(text) {
  if (text.trim() === "") return;
  const user = await tree.call({ operation: "append", sessionId: CHAT_SESSION, message: { role: "user", content: text } });
  if (!user.ok) return;
  await tree.call({ operation: "append", sessionId: CHAT_SESSION, message: { role: "assistant", content: botReply(text), model: "demo-bot" } });
}

async function start() {
  tree = await init({ workerURL: new URL("./store-worker.js", import.meta.url) });
  const created = await tree.call({ operation: "create", sessionId: CHAT_SESSION, title: "Embedding demo chat" });
  if (!created.ok && created.error.code !== "SESSION_ALREADY_EXISTS") throw new Error(created.error.message);
  for (const panel of document.querySelectorAll("session-tree-panel")) panel.tree = tree;
  tree.subscribe((e) => {
    if (e.sessionId === CHAT_SESSION) render();
  });
  const input = $("input");
  $("composer").addEventListener("submit", async (e) => {
    e.preventDefault();
    const text = input.value;
    input.value = "";
    await send(text);
    input.focus();
  });
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey) {
      e.preventDefault();
      $("composer").requestSubmit();
    }
  });
  await render();
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("./sw.js").catch(() => {});
  window.chatDemo = { tree, render };
  document.body.dataset.ready = "true";
}

start().catch((err) => {
  $("history").replaceChildren(el("li", "empty error", `sessiontree could not start: ${err.message}`));
});
