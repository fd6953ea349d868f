// The Vite template's config plus sessiontree's plugin: Vite 5 pre-bundles
// dependencies with esbuild, which leaves the package's worker and wasm
// behind (see sessiontree/vite). SESSIONTREE_VITE_PLUGIN=off leaves it out,
// as e2e/apps.test.mjs does once to show the failure it prevents.
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import sessiontree from "sessiontree/vite";

export default defineConfig({
  plugins: process.env.SESSIONTREE_VITE_PLUGIN === "off" ? [react()] : [react(), sessiontree()],
});
