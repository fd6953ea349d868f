// A field read on the wrong kind of change event (erased is only on a
// delete's or trash.empty's, not on a rename's): must not compile.
import { init } from "../../js/sessiontree.js";

export async function bad(out: string[]): Promise<void> {
  const tree = await init();
  tree.subscribe((e) => {
    if (e.type === "rename") out.push(String(e.erased));
  });
}
