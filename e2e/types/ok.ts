// A correct program against js/sessiontree.d.ts: e2e/types.test.mjs
// compiles it with tsc --noEmit --strict and expects no error.
import { init, SessionTree, STORAGE_ERROR } from "../../js/sessiontree.js";
import type { Entry, Envelope, Message, Node, Request, Snapshot, ValueOf } from "../../js/sessiontree.js";

export async function example(file: File, bytes: Uint8Array<ArrayBuffer>, signal: AbortSignal): Promise<string[]> {
  const tree = await init({ dbName: "typed" });
  const out: string[] = [];
  if (!(tree instanceof SessionTree)) throw new Error("not a tree");

  // call: each request checked against Operations, each value typed.
  const created = await tree.call({ operation: "create", sessionId: "demo", title: "Typed" });
  if (created.ok) out.push(created.value.sessionId, String(created.value.nodeCount));
  const appended = await tree.call({ operation: "append", sessionId: "demo", message: { role: "user", content: "hello" } });
  if (!appended.ok) return [appended.error.code, appended.error.message];
  const node: Node = appended.value;
  if (node.kind === "message") out.push(node.message.role);
  const entry: Entry = { kind: "model_change", provider: "openai", model: "gpt-x" };
  await tree.call({ operation: "append", sessionId: "demo", entry });
  const context = await tree.call({ operation: "context", sessionId: "demo" });
  if (context.ok) for (const m of context.value.messages) out.push(m.role);
  const branches = await tree.call({ operation: "branches", sessionId: "demo" });
  if (branches.ok) out.push(...branches.value.map((b) => b.name));
  const hits = await tree.call({ operation: "search", query: "hello", limit: 5, roles: ["user"] });
  if (hits.ok) out.push(...hits.value.hits.map((h) => h.snippet.slice(h.ranges[0][0], h.ranges[0][1])));
  await tree.call({ operation: "prefer", sessionId: "demo", nodeId: null });
  await tree.call({ operation: "sessions" });
  const exported = await tree.call({ operation: "export", sessionId: "demo", format: "markdown" });
  if (exported.ok) out.push(exported.value.filename);
  // A request built apart and typed as the union still type-checks.
  const r: Request = { operation: "jump", sessionId: "demo", nodeId: node.id };
  await tree.call(r);
  // Text and bytes requests are untyped: the value is unknown until the program says.
  const raw: Envelope = await tree.call('{"operation":"sessions"}');
  if (raw.ok && Array.isArray(raw.value)) out.push(String(raw.value.length));
  const loose: Envelope<any> = await tree.call('{"operation":"sessions"}');
  if (loose.ok) out.push(String(loose.value.length));

  // The thin methods.
  await tree.create("other", { title: "Other" });
  const a = await tree.append("demo", { role: "assistant", content: "hi back" }, { branch: "main" });
  const c = await tree.context("demo");
  if (c.ok) out.push(c.value.cursor ?? "none");
  if (a.ok) {
    await tree.jump("demo", a.value.id);
    await tree.branch("demo", a.value.id, "side");
    const f = await tree.fork("demo", a.value.id, { newSessionId: "forked" });
    if (f.ok) out.push(f.value.sessionId);
  }
  await tree.clone("demo", { newSessionId: "cloned" });
  const t = await tree.tree("demo", { showHidden: true });
  if (t.ok) out.push(t.value.text);
  const saved = await tree.snapshotSave("demo");
  if (saved.ok) {
    const snapshot: Snapshot = saved.value;
    const status = await tree.loadSnapshot("demo", snapshot);
    if (status.ok) out.push(status.value.activeBranch);
  }
  const s = await tree.search("hello", { sessionId: "demo" });
  if (s.ok) out.push(String(s.value.total));

  // The file APIs.
  const imported = await tree.importFile(file, { format: "auto", signal, onProgress: ({ read, total }) => out.push(`${read}/${total}`) });
  if (imported.ok) out.push(...imported.value.sessions.map((x) => x.sessionId));
  await tree.importFile(bytes);
  await tree.importFile(bytes.buffer, { format: "chatgpt" });
  await tree.importFile(new Blob([bytes]));
  const zip = await tree.importZip(file, { name: "export.zip", budget: 64 << 20, signal, onProgress: ({ phase, name, read, total }) => out.push(`${phase} ${name} ${read}/${total}`) });
  if (zip.ok) {
    for (const e of zip.value.entries) {
      if (e.kind === "text") out.push(e.name, String(e.size), ...e.refs.map((r) => r.conversationId), e.envelope.ok ? e.envelope.value.format : e.envelope.error.code);
      else out.push(e.kind === "skip" ? e.reason : e.message);
    }
  }
  await tree.importZip(bytes);
  const held = await tree.importZip(file, { existingSnapshots: "hold" });
  if (held.ok) {
    for (const e of held.value.entries) {
      if (e.kind === "snapshot") await tree.loadSnapshot(e.sessionId, e.data);
      else if (e.kind === "text") out.push(e.name);
    }
  }
  await tree.loadSnapshot("demo", file);
  await tree.loadSnapshot("demo", bytes, { signal });
  await tree.loadSnapshot("demo", '{"version":1,"sessionId":"demo","cursor":null,"activeBranch":"main","nodes":[]}');

  // The chat-app operations (issue 27).
  const withIds = await tree.context("demo", { ids: true });
  if (withIds.ok) out.push(withIds.value.nodeIds[0], ...withIds.value.siblings[0]);
  const leaf = await tree.leaf("demo", node.id);
  if (leaf.ok && leaf.value.leaf !== null) out.push(leaf.value.leaf);
  await tree.switchTo("demo", { nodeId: node.id });
  await tree.switchTo("demo", { branch: "main" });
  const renamed = await tree.rename("demo", "Trip");
  if (renamed.ok) out.push(renamed.value.title);
  const trashed = await tree.delete("demo");
  if (trashed.ok) out.push(trashed.value.deletedAt);
  const listed = await tree.trash();
  if (listed.ok) out.push(...listed.value.map((x) => x.sessionId));
  await tree.restoreSession("demo");
  const erased = await tree.delete("demo", { permanent: true });
  if (erased.ok) out.push(...erased.value.erased);
  await tree.emptyTrash();
  const many = await tree.appendMany("old", [{ role: "user", content: "hi" }], { create: true, title: "Old" });
  if (many.ok) out.push(...many.value.nodeIds, many.value.session.title);
  const viaCall = await tree.call({ operation: "append.many", sessionId: "old", messages: [{ role: "assistant", content: "hello" }] });
  if (viaCall.ok) out.push(viaCall.value.session.sessionId);
  const stored = await tree.storedContext("old", { limit: 5 });
  if (stored.ok && stored.value) out.push(stored.value.title, ...stored.value.nodes.map((n) => n.id), String(stored.value.complete));
  tree.subscribe((e) => {
    if (e.type !== "storage" && e.type !== "restarted" && "nodeIds" in e) out.push(...(e.nodeIds ?? []), e.cursor ?? "", e.title ?? "");
  });
  // Each kind of event narrows on its type, with its own fields.
  tree.subscribe((e) => {
    if (e.type === "storage") out.push(e.reason, e.message);
    else if (e.type === "restarted") out.push(String(e.ms));
    else if (e.type === "trash.empty") {
      const erased: true = e.erased;
      out.push(e.sessionId, String(erased));
    } else if (e.type === "delete") out.push(e.deletedAt ?? (e.erased ? "erased" : ""));
    else if (e.type === "rename" || e.type === "append.many") out.push(e.title ?? "", ...(e.nodeIds ?? []));
    else out.push(e.type, e.sessionId);
  });
  // Envelopes destructure (README's and EMBED.md's snippets), narrowed by ok.
  const { ok, value: ctx, error } = await tree.context("demo", { ids: true });
  if (!ok) out.push(error.code, error.message);
  else out.push(...ctx.nodeIds);
  const { value: item } = await tree.delete("old");
  out.push(item?.sessionId ?? "");
  // README's subscribe: a change's fields once "sessionId" in e.
  tree.subscribe((e) => "sessionId" in e && out.push(e.type, e.sessionId, e.cursor ?? "", ...(e.nodeIds ?? []), e.title ?? ""));
  // Roles: the known ones, or any other string.
  const roles: Message["role"][] = ["system", "user", "assistant", "tool", "developer", "narrator"];
  out.push(...roles);

  const id: ValueOf<"append">["id"] = node.id;
  out.push(id, STORAGE_ERROR);
  return out;
}
