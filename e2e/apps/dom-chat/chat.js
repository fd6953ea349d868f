// The chat page of the plain-JS fixture apps (e2e/apps/webpack, parcel,
// rollup): a chat over an OpenAI-compatible endpoint with sessiontree as
// its history, in plain JS and DOM, with a list of chats: rename, delete
// (to the trash), search across them. The endpoint comes from ?api=… (the
// test's loopback server). It imports nothing by name: each app's entry
// imports the package itself (so its bundler resolves it from that app's
// node_modules) and hands the functions over to startChat.

const SESSION = "chat";
const $ = (sel) => document.querySelector(sel);
const text = (m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content));

/** An element of tag with its attributes (set one by one: no markup parsed) and children. */
function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
}

/** The page's markup in document.body: the chat, the list of chats, the panel. */
function drawPage() {
  const button = (id, label) => el("button", { type: "button", id }, label);
  const panel = el("session-tree-panel", { "session-id": SESSION, "row-click": "jump" });
  // CSSOM, which a strict style-src allows (a style attribute it would not).
  Object.assign(panel.style, { display: "block", height: "480px", width: "360px" });
  const chat = el("section", { "aria-label": "Chat" },
    el("p", { "data-testid": "status" }, "starting"), el("p", { "data-testid": "jumped" }), el("ol", { "data-testid": "messages" }),
    el("textarea", { "aria-label": "Message" }), button("send", "Send"));
  const chats = el("section", { "aria-label": "Chats" },
    el("ul", { "data-testid": "chats" }), el("input", { "aria-label": "Title" }), button("rename", "Rename"), button("new-chat", "New chat"),
    el("input", { "aria-label": "Search" }), button("search", "Search"), el("ul", { "data-testid": "hits" }), el("p", { "data-testid": "searched" }));
  document.body.append(el("main", {}, chat, chats, panel));
}

/**
 * Start the page: draw it, open the store with init, make the chat
 * session (a system message) on a first visit, and wire the buttons.
 * @param {{init: Function, edit: Function, regenerate: Function, reply: Function}} sessiontree
 *   init from "sessiontree"; edit, regenerate and reply from "sessiontree/openai"
 * @returns {Promise<void>} once the page reads "ready"
 */
export async function startChat({ init, edit, regenerate, reply }) {
  drawPage();
  const tree = await init();
  const settings = { baseURL: new URLSearchParams(location.search).get("api") ?? "", model: "test-model" };
  const run = async (what, fn) => {
    status(what);
    const r = await fn();
    status(r.ok ? "ready" : `error: ${r.error.message}`);
  };
  const redraw = () => draw(tree, {
    edit: (ctx, i) => run("editing", async () => {
      const e = await edit(tree, SESSION, (await pathIds(tree, ctx.cursor))[i], `${text(ctx.messages[i])} (edited)`);
      return e.ok ? reply(tree, SESSION, settings) : e;
    }),
    regenerate: (ctx, i) => run("regenerating", async () => regenerate(tree, SESSION, (await pathIds(tree, ctx.cursor))[i], settings)),
  });
  $("#send").onclick = () => {
    const content = $("textarea").value;
    $("textarea").value = "";
    return run("sending", async () => {
      const a = await tree.call({ operation: "append", sessionId: SESSION, message: { role: "user", content } });
      return a.ok ? reply(tree, SESSION, settings) : a;
    });
  };
  wireChats(tree, run);
  $("session-tree-panel").addEventListener("jump", (e) => ($("[data-testid=jumped]").textContent = e.detail.nodeId ?? ""));
  tree.subscribe((e) => {
    if (e.sessionId === SESSION || e.sessionId === undefined) redraw();
    drawChats(tree, run);
  });
  const has = await tree.call({ operation: "sessions" });
  if (has.ok && !has.value.some((s) => s.sessionId === SESSION)) {
    await tree.call({ operation: "create", sessionId: SESSION, title: "Chat" });
    await tree.call({ operation: "append", sessionId: SESSION, message: { role: "system", content: "You are a test bot." } });
  }
  await redraw();
  await drawChats(tree, run);
  status("ready");
}

/** Show the page's state (the test waits for "ready"); Send works only then. */
function status(s) {
  $("[data-testid=status]").textContent = s;
  $("#send").disabled = s !== "ready";
}

/** The node ids of the messages on the cursor's path (root first). */
async function pathIds(tree, cursor) {
  const list = await tree.call({ operation: "list", sessionId: SESSION });
  const parent = new Map(list.ok ? list.value.map((n) => [n.id, n.parentId]) : []);
  const ids = [];
  for (let id = cursor; id !== null && id !== undefined; id = parent.get(id) ?? null) ids.unshift(id);
  return ids;
}

/** Draw the messages the model sees, with Edit and Regenerate buttons calling act.edit / act.regenerate(ctx, i). */
async function draw(tree, act) {
  const ctx = await tree.call({ operation: "context", sessionId: SESSION });
  if (!ctx.ok) return;
  const items = ctx.value.messages.map((m, i) => {
    const li = el("li", {}, el("span", { class: "text" }, text(m)));
    const name = m.role === "user" ? "Edit" : m.role === "assistant" ? "Regenerate" : null;
    if (name) {
      const b = el("button", { type: "button" }, name);
      b.onclick = () => (name === "Edit" ? act.edit(ctx.value, i) : act.regenerate(ctx.value, i));
      li.append(b);
    }
    return li;
  });
  $("[data-testid=messages]").replaceChildren(...items);
}

/** Draw the list of chats, each with its Delete button. */
async function drawChats(tree, run) {
  const all = await tree.call({ operation: "sessions" });
  if (!all.ok) return;
  const items = all.value.map((s) => {
    const title = s.title || s.sessionId;
    const b = el("button", { type: "button", "aria-label": `Delete ${title}` }, "Delete");
    b.onclick = () => run("deleting", () => tree.delete(s.sessionId));
    return el("li", {}, el("span", { class: "title" }, title), b);
  });
  $("[data-testid=chats]").replaceChildren(...items);
}

/** The chat list's buttons: rename, a new chat made with appendMany, search across sessions. */
function wireChats(tree, run) {
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
      $("[data-testid=hits]").replaceChildren(...ids.map((id) => el("li", {}, id)));
      $("[data-testid=searched]").textContent = `${ids.length} found`;
      return r;
    });
}
