// sessiontree/vite: the Vite plugin a Vite 4–7 app adds so the store
// starts in the dev server.

/**
 * A Vite plugin that takes sessiontree (and its subpaths: sessiontree/panel,
 * sessiontree/react, …) out of dependency pre-bundling: it returns the
 * config `{optimizeDeps: {exclude: ["sessiontree"]}}`, which Vite merges
 * into the app's own (an app's other excludes stay).
 *
 * Why: Vite 4–7 pre-bundle a dependency with esbuild into
 * node_modules/.vite/deps/, and esbuild keeps the package's
 * `new URL("./worker.js", import.meta.url)` and
 * `new URL("./sessiontree.wasm", import.meta.url)` as written, so they
 * point into .vite/deps/, where neither file is: the dev server answers
 * `504 …/.vite/deps/worker.js` and the store never starts (vitejs/vite
 * issues 8427 and 11095; a package cannot opt out from its own
 * package.json). Served from node_modules/sessiontree/ instead, the URLs
 * find their files. A production build (`vite build`) follows the URLs
 * either way; Vite 8's optimizer needs nothing, and excluding there only
 * serves the package's modules one by one, as written.
 * Usage: `plugins: [react(), sessiontree()]` in vite.config.
 * @returns {{name: "sessiontree", config: () => {optimizeDeps: {exclude: string[]}}}} a Vite plugin
 */
export default function sessiontree() {
  return {
    name: "sessiontree",
    config: () => ({ optimizeDeps: { exclude: ["sessiontree"] } }),
  };
}
