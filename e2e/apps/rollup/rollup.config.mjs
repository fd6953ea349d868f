// Rollup's usual minimum for an app with dependencies, node-resolve (bare
// imports from node_modules), plus sessiontree's plugin: Rollup leaves
// new URL("./worker.js", import.meta.url) alone, so without it the build
// has no worker and no wasm (see sessiontree/rollup).
// SESSIONTREE_ROLLUP_PLUGIN=off leaves it out, as e2e/apps.test.mjs does
// once to show what is then missing.
import { nodeResolve } from "@rollup/plugin-node-resolve";
import sessiontree from "sessiontree/rollup";

export default {
  input: "src/index.js",
  output: { dir: "dist", format: "es" },
  plugins: process.env.SESSIONTREE_ROLLUP_PLUGIN === "off" ? [nodeResolve({ browser: true })] : [nodeResolve({ browser: true }), sessiontree()],
};
