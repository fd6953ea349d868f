/**
 * A Vite plugin that takes sessiontree out of dependency pre-bundling
 * (`optimizeDeps.exclude: ["sessiontree"]`): Vite 4–7 move the package's
 * code to node_modules/.vite/deps/, away from its worker and wasm, and the
 * store never starts in the dev server. Harmless on Vite 8, which needs
 * nothing. Typed structurally, so the package does not depend on vite.
 * @example plugins: [react(), sessiontree()]
 */
export default function sessiontree(): {
  name: "sessiontree";
  config: () => { optimizeDeps: { exclude: string[] } };
};
