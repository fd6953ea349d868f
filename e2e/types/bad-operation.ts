// A misspelled operation name ("apend"): must not compile.
import { init } from "../../js/sessiontree.js";

export async function bad(): Promise<void> {
  const tree = await init();
  await tree.call({ operation: "apend", sessionId: "demo", message: { role: "user", content: "hi" } });
}
