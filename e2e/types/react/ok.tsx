// A correct React page against the package's types, imported by name:
// e2e/types.test.mjs compiles it under moduleResolution node (typesVersions),
// node16 and bundler (exports), and expects no error.
import { useRef } from "react";
import { init } from "sessiontree";
import type { Message } from "sessiontree";
import type { PanelEventDetail, SessionTreePanel } from "sessiontree/panel";
import { reply } from "sessiontree/openai";
import { SessionTreeProvider, useMessages, usePanelEvent, useSessions, useSessionTree } from "sessiontree/react";
import sessiontree from "sessiontree/vite";

// The adapter's envelope destructures, narrowed by ok (as the store's Envelope).
export async function replyText(tree: Awaited<ReturnType<typeof init>>, id: string): Promise<string> {
  const { ok, value, error } = await reply(tree, id, { baseURL: "http://127.0.0.1:1/v1", model: "m" });
  return ok ? value.node.id : error.message;
}

// The Vite plugin, as a vite.config lists it: its config excludes the package.
export const excluded: string[] = sessiontree().config().optimizeDeps.exclude;

export function Chat({ id }: { id: string }) {
  const { tree, error } = useSessionTree({ dbName: "typed" });
  const { sessions, loading } = useSessions();
  // The newest 50, newest first: each summary typed as the whole list's.
  const newest: string[] = useSessions(tree, { order: "updated", limit: 50 }).sessions.map((s) => s.updatedAt);
  const { messages, cursor } = useMessages(id, tree);
  const panel = useRef<SessionTreePanel>(null);
  // React 18: a ref and usePanelEvent; the event's detail is typed per event.
  usePanelEvent(panel, "preview", (e) => console.log(e.detail.nodeId, e.detail.cursor === true));
  usePanelEvent(panel, "fork", (e) => console.log(e.detail.newSessionId));
  // Each event's own detail: the append's role and node are always there.
  usePanelEvent(panel, "append", (e) => {
    const role: "user" | "assistant" | "note" = e.detail.role;
    const node: string = e.detail.nodeId;
    console.log(role, node);
  });
  // A listener written for any detail still takes each event's.
  const any = (e: CustomEvent<PanelEventDetail>) => console.log(e.detail.nodeId);
  usePanelEvent(panel, "jump", any);
  panel.current?.addEventListener("family", any);
  // …and is removed as it was added.
  panel.current?.removeEventListener("family", any);
  const roles: Message["role"][] = messages.map((m) => m.role);
  if (error) return <p>{error.message}</p>;
  return (
    <main>
      <p>{loading ? "…" : sessions.map((s) => s.title).join(", ")}</p>
      <p>{newest.join(", ")}</p>
      <p>{roles.join(" ")} {cursor ?? "no cursor"}</p>
      {/* React 19: props set the element's properties and listen to its events. */}
      <session-tree-panel
        ref={panel}
        session-id={id}
        row-click="jump"
        theme="dark"
        mode="panel"
        tree={tree}
        onjump={(e) => {
          const node: string | null | undefined = e.detail.nodeId;
          console.log(node);
          panel.current?.clearPreview();
        }}
        onbranch={(e) => console.log(e.detail.branch)}
      />
      <button onClick={() => tree && reply(tree, id, { baseURL: "http://127.0.0.1:1/v1", model: "m" })}>Reply</button>
    </main>
  );
}

export async function App() {
  const tree = await init({ persist: false });
  return (
    <SessionTreeProvider tree={tree}>
      <Chat id="s" />
    </SessionTreeProvider>
  );
}
