/**
 * A Rollup plugin that emits the files sessiontree's modules reach with
 * `new URL("./…", import.meta.url)`, which Rollup leaves alone: the store's
 * worker as a chunk of its own, the wasm and the panel's icon as assets.
 * Modules outside the package are left as they are. Rollup 3 or 4; typed
 * structurally, so the package does not depend on rollup.
 * @example plugins: [nodeResolve(), sessiontree()]
 */
export default function sessiontree(): {
  name: "sessiontree";
  transform: (code: string, id: string) => { code: string; map: null } | null;
};
