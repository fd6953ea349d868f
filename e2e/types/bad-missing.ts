// A missing required field (jump without nodeId): must not compile.
import { init } from "../../js/sessiontree.js";

export async function bad(): Promise<void> {
  const tree = await init();
  await tree.call({ operation: "jump", sessionId: "demo" });
}
