// A chat page over an OpenAI-compatible endpoint with sessiontree as its
// history, in plain JS and DOM (webpack's defaults: no loader, no config),
// with a list of chats: rename, delete (to the trash), search across them.
// The endpoint comes from ?api=… (the test's loopback server).
import { init } from "sessiontree";
import "sessiontree/panel";
import { edit, regenerate, reply } from "sessiontree/openai";

const SESSION = "chat";
const settings = { baseURL: new URLSearchParams(location.search).get("api") ?? "", model: "test-model" };
const $ = (sel) => document.querySelector(sel);
const text = (m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content));

const tree = await init();
const status = (s) => {
  $("[data-testid=status]").textContent = s;
  $("#send").disabled = s !== "ready";
};

/** The node ids of the messages on the cursor's path (root first). */
async function pathIds(cursor) {
  const list = await tree.call({ operation: "list", sessionId: SESSION });
  const parent = new Map(list.ok ? list.value.map((n) => [n.id, n.parentId]) : []);
  const ids = [];
  for (let id = cursor; id !== null && id !== undefined; id = parent.get(id) ?? null) ids.unshift(id);
  return ids;
}

/** Draw the messages the model sees, with Edit and Regenerate buttons. */
async function draw() {
  const ctx = await tree.call({ operation: "context", sessionId: SESSION });
  if (!ctx.ok) return;
  const items = ctx.value.messages.map((m, i) => {
    const li = document.createElement("li");
    const span = document.createElement("span");
    span.className = "text";
    span.textContent = text(m);
    li.append(span);
    const act = m.role === "user" ? "Edit" : m.role === "assistant" ? "Regenerate" : null;
    if (act) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = act;
      b.onclick = () => (act === "Edit" ? editAt(ctx.value, i) : regenerateAt(ctx.value, i));
      li.append(b);
    }
    return li;
  });
  $("[data-testid=messages]").replaceChildren(...items);
}

async function run(what, fn) {
  status(what);
  const r = await fn();
  status(r.ok ? "ready" : `error: ${r.error.message}`);
}
const editAt = (ctx, i) =>
  run("editing", async () => {
    const e = await edit(tree, SESSION, (await pathIds(ctx.cursor))[i], `${text(ctx.messages[i])} (edited)`);
    return e.ok ? reply(tree, SESSION, settings) : e;
  });
const regenerateAt = (ctx, i) => run("regenerating", async () => regenerate(tree, SESSION, (await pathIds(ctx.cursor))[i], settings));

$("#send").onclick = () => {
  const content = $("textarea").value;
  $("textarea").value = "";
  return run("sending", async () => {
    const a = await tree.call({ operation: "append", sessionId: SESSION, message: { role: "user", content } });
    return a.ok ? reply(tree, SESSION, settings) : a;
  });
};
/** Draw the list of chats, each with its Delete button. */
async function drawChats() {
  const all = await tree.call({ operation: "sessions" });
  if (!all.ok) return;
  const items = all.value.map((s) => {
    const li = document.createElement("li");
    const span = document.createElement("span");
    span.className = "title";
    span.textContent = s.title || s.sessionId;
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = "Delete";
    b.setAttribute("aria-label", `Delete ${span.textContent}`);
    b.onclick = () => run("deleting", () => tree.delete(s.sessionId));
    li.append(span, b);
    return li;
  });
  $("[data-testid=chats]").replaceChildren(...items);
}
$("#rename").onclick = () => run("renaming", () => tree.rename(SESSION, $("[aria-label=Title]").value));
// A chat moved over from elsewhere: one appendMany call makes it with its messages.
$("#new-chat").onclick = () =>
  run("adding", () => tree.appendMany("scratch", [{ role: "user", content: "zanzibar note" }, { role: "assistant", content: "Noted." }], { create: true, title: "Scratch" }));
$("#search").onclick = () =>
  run("searching", async () => {
    $("[data-testid=searched]").textContent = "";
    const r = await tree.search($("[aria-label=Search]").value);
    if (!r.ok) return r;
    const ids = [...new Set(r.value.hits.map((h) => h.sessionId))];
    $("[data-testid=hits]").replaceChildren(...ids.map((id) => Object.assign(document.createElement("li"), { textContent: id })));
    $("[data-testid=searched]").textContent = `${ids.length} found`;
    return r;
  });
$("session-tree-panel").addEventListener("jump", (e) => ($("[data-testid=jumped]").textContent = e.detail.nodeId ?? ""));
tree.subscribe((e) => {
  if (e.sessionId === SESSION || e.sessionId === undefined) draw();
  drawChats();
});

const has = await tree.call({ operation: "sessions" });
if (has.ok && !has.value.some((s) => s.sessionId === SESSION)) {
  await tree.call({ operation: "create", sessionId: SESSION, title: "Chat" });
  await tree.call({ operation: "append", sessionId: SESSION, message: { role: "system", content: "You are a test bot." } });
}
await draw();
await drawChats();
status("ready");
