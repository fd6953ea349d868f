// e2e/apps/vite-react's chat on React 18 (the panel's jump event through
// usePanelEvent and a ref instead of React 19's onjump prop).
// A small chat over an OpenAI-compatible endpoint with sessiontree as its
// history: messages from useMessages, the panel beside them (row-click="jump"
// switches branch), edit and regenerate from sessiontree/openai, and a list
// of chats with rename, delete (to the trash) and search across them. The
// endpoint comes from ?api=… (the test's loopback server).
import { useEffect, useRef, useState } from "react";
import type { Message, SessionTree } from "sessiontree";
import type { SessionTreePanel } from "sessiontree/panel";
import "sessiontree/panel";
import { edit, regenerate, reply } from "sessiontree/openai";
import { useMessages, usePanelEvent, useSessionTree, useSessions } from "sessiontree/react";

const SESSION = "chat";
const settings = { baseURL: new URLSearchParams(location.search).get("api") ?? "", model: "test-model" };

/** The node ids of the messages on the cursor's path (root first), from the session's nodes. */
async function pathIds(tree: SessionTree, cursor: string | null): Promise<string[]> {
  const list = await tree.call({ operation: "list", sessionId: SESSION });
  if (!list.ok) return [];
  const parent = new Map(list.value.map((n) => [n.id, n.parentId]));
  const ids: string[] = [];
  for (let id = cursor; id !== null && id !== undefined; id = parent.get(id) ?? null) ids.unshift(id);
  return ids;
}

const text = (m: Message) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content));

export function App() {
  const { tree, error } = useSessionTree();
  const { sessions } = useSessions();
  const { messages, cursor } = useMessages(tree ? SESSION : null);
  const [draft, setDraft] = useState("");
  const [status, setStatus] = useState("starting");
  const [jumped, setJumped] = useState("");
  const [title, setTitle] = useState("");
  const [query, setQuery] = useState("");
  const [hits, setHits] = useState<string[] | null>(null);
  // The panel, listened to through a ref (React 18 sets every prop of a
  // custom element as an attribute, so an onjump prop would not listen). It
  // renders only once the store is up, after this hook's first effect: the
  // hook attaches when the element arrives.
  const panel = useRef<SessionTreePanel>(null);
  usePanelEvent(panel, "jump", (e) => setJumped(e.detail.nodeId ?? ""));

  useEffect(() => {
    if (!tree) return;
    (async () => {
      const has = await tree.call({ operation: "sessions" });
      if (has.ok && !has.value.some((s) => s.sessionId === SESSION)) {
        await tree.call({ operation: "create", sessionId: SESSION, title: "Chat" });
        await tree.call({ operation: "append", sessionId: SESSION, message: { role: "system", content: "You are a test bot." } });
      }
      setStatus("ready");
    })();
  }, [tree]);

  if (error) return <p role="alert">{error.message}</p>;
  if (!tree) return <p>Loading…</p>;

  const run = async (what: string, fn: () => Promise<{ ok: boolean; error?: { message: string } }>) => {
    setStatus(what);
    const r = await fn();
    setStatus(r.ok ? "ready" : `error: ${r.error?.message}`);
  };
  const send = () => {
    const content = draft;
    setDraft("");
    return run("sending", async () => {
      const a = await tree.call({ operation: "append", sessionId: SESSION, message: { role: "user", content } });
      return a.ok ? reply(tree, SESSION, settings) : a;
    });
  };
  const editAt = (i: number) =>
    run("editing", async () => {
      const ids = await pathIds(tree, cursor);
      const e = await edit(tree, SESSION, ids[i], `${text(messages[i])} (edited)`);
      return e.ok ? reply(tree, SESSION, settings) : e;
    });
  const regenerateAt = (i: number) =>
    run("regenerating", async () => regenerate(tree, SESSION, (await pathIds(tree, cursor))[i], settings));
  // A chat moved over from elsewhere: one appendMany call makes it with its messages.
  const newChat = () =>
    run("adding", () => tree.appendMany("scratch", [{ role: "user", content: "zanzibar note" }, { role: "assistant", content: "Noted." }], { create: true, title: "Scratch" }));
  const search = () =>
    run("searching", async () => {
      setHits(null);
      const r = await tree.search(query);
      if (r.ok) setHits([...new Set(r.value.hits.map((h) => h.sessionId))]);
      return r;
    });

  return (
    <main>
      <section aria-label="Chat">
        <p data-testid="status">{status}</p>
        <p data-testid="jumped">{jumped}</p>
        <p data-testid="sessions">{sessions.length} sessions</p>
        <ol data-testid="messages">
          {messages.map((m, i) => (
            <li key={i} data-role={m.role}>
              <span className="text">{text(m)}</span>
              {m.role === "user" && <button onClick={() => editAt(i)}>Edit</button>}
              {m.role === "assistant" && <button onClick={() => regenerateAt(i)}>Regenerate</button>}
            </li>
          ))}
        </ol>
        <textarea aria-label="Message" value={draft} onChange={(e) => setDraft(e.target.value)} />
        <button onClick={send} disabled={status !== "ready" || draft === ""}>
          Send
        </button>
      </section>
      <section aria-label="Chats">
        <ul data-testid="chats">
          {sessions.map((s) => (
            <li key={s.sessionId}>
              <span className="title">{s.title || s.sessionId}</span>
              <button aria-label={`Delete ${s.title || s.sessionId}`} onClick={() => run("deleting", () => tree.delete(s.sessionId))}>
                Delete
              </button>
            </li>
          ))}
        </ul>
        <input aria-label="Title" value={title} onChange={(e) => setTitle(e.target.value)} />
        <button onClick={() => run("renaming", () => tree.rename(SESSION, title))}>Rename</button>
        <button onClick={newChat}>New chat</button>
        <input aria-label="Search" value={query} onChange={(e) => setQuery(e.target.value)} />
        <button onClick={search}>Search</button>
        <ul data-testid="hits">{hits?.map((h) => <li key={h}>{h}</li>)}</ul>
        <p data-testid="searched">{hits === null ? "" : `${hits.length} found`}</p>
      </section>
      {tree ? (
        <session-tree-panel ref={panel} session-id={SESSION} row-click="jump" style={{ display: "block", height: "480px", width: "360px" }} />
      ) : (
        <p>Loading…</p>
      )}
    </main>
  );
}
