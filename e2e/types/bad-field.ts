// A misspelled request field ("titel" for "title"): must not compile.
import { init } from "../../js/sessiontree.js";

export async function bad(): Promise<void> {
  const tree = await init();
  await tree.call({ operation: "create", sessionId: "demo", titel: "Typed" });
}
