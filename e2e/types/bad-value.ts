// A value used as the wrong type (a node id is a string): must not compile.
import { init } from "../../js/sessiontree.js";

export async function bad(): Promise<number> {
  const tree = await init();
  const env = await tree.call({ operation: "append", sessionId: "demo", message: { role: "user", content: "hi" } });
  if (!env.ok) return 0;
  const id: number = env.value.id;
  return id;
}
