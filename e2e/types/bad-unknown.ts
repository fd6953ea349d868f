// The value of a text request used without narrowing (it is unknown, not
// any): must not compile.
import { init } from "../../js/sessiontree.js";

export async function bad(): Promise<number> {
  const tree = await init();
  const env = await tree.call('{"operation":"sessions"}');
  return env.ok ? env.value.length : 0;
}
