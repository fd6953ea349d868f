// sessiontree/rollup: the Rollup plugin a Rollup app adds so its build
// emits the store's worker, the wasm and the panel's icon.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The package's folder (with a trailing separator): the plugin edits only modules under it. */
const PACKAGE_DIR = path.dirname(path.dirname(fileURLToPath(import.meta.url))) + path.sep;

/**
 * A Rollup plugin that emits each file a sessiontree module reaches with
 * `new URL("./literal", import.meta.url)`: a `.js` file as a chunk of its
 * own (the store's worker, bundled with its imports, once), any other file
 * as an asset (the wasm, the panel's icon), and points the expression at
 * the emitted file (`new URL(import.meta.ROLLUP_FILE_URL_<ref>)`, which
 * Rollup writes as the file's URL relative to the chunk).
 *
 * Why: Rollup bundles imports, static and `import()`, but leaves
 * `new URL(…, import.meta.url)` alone (it has no asset handling of its
 * own: "File URLs" in its plugin docs leave that to plugins), so the
 * worker and the wasm are not in the build and the store never starts
 * (`404 …/worker.js`). Asset plugins such as
 * @web/rollup-plugin-import-meta-assets copy the worker as written,
 * without the modules it imports. Vite, webpack 5, Parcel 2 and Next.js
 * need no plugin.
 *
 * Modules of other packages and of the app are left as they are; an
 * expression whose file does not exist is left too. The emitted asset is
 * read from disk (bytes) and added to Rollup's watch list.
 * Usage: `plugins: [nodeResolve(), sessiontree()]` in rollup.config.
 * Rollup 3 or 4 (`this.parse` gives an ESTree AST with offsets).
 * @returns {{name: "sessiontree", transform: (code: string, id: string) => ({code: string, map: null} | null)}} a Rollup plugin
 */
export default function sessiontree() {
  return {
    name: "sessiontree",
    transform(code, id) {
      if (!id.startsWith(PACKAGE_DIR) || !code.includes("import.meta.url")) return null;
      const edits = [];
      for (const node of fileURLs(this.parse(code))) {
        const file = path.resolve(path.dirname(id), node.arguments[0].value);
        if (!fs.existsSync(file)) continue;
        this.addWatchFile(file);
        const name = path.basename(file);
        const ref = file.endsWith(".js")
          ? this.emitFile({ type: "chunk", id: file, name: name.slice(0, -3) })
          : this.emitFile({ type: "asset", name, source: fs.readFileSync(file) });
        edits.push({ start: node.start, end: node.end, text: `new URL(import.meta.ROLLUP_FILE_URL_${ref})` });
      }
      if (edits.length === 0) return null;
      edits.sort((a, b) => b.start - a.start);
      for (const e of edits) code = code.slice(0, e.start) + e.text + code.slice(e.end);
      // Only expressions change, within their lines: no source map is made.
      return { code, map: null };
    },
  };
}

/** Whether v is an ESTree node. */
const isNode = (v) => v !== null && typeof v === "object" && typeof v.type === "string";

/** Whether node is `new URL("./…", import.meta.url)` with a literal first argument. */
function isFileURL(node) {
  if (node.type !== "NewExpression" || node.callee.type !== "Identifier" || node.callee.name !== "URL") return false;
  const [where, base] = node.arguments;
  return node.arguments.length === 2 && where.type === "Literal" && typeof where.value === "string" && where.value.startsWith("./") &&
    base.type === "MemberExpression" && base.object.type === "MetaProperty" && base.object.meta.name === "import" && base.property.name === "url";
}

/**
 * Every `new URL("./…", import.meta.url)` node of an ESTree AST, found
 * with a stack (a loop, not recursion: a deep tree cannot overflow).
 * @param {object} ast @returns {object[]} NewExpression nodes
 */
function fileURLs(ast) {
  const found = [];
  const stack = [ast];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isFileURL(node)) found.push(node);
    for (const v of Object.values(node)) {
      if (Array.isArray(v)) for (const item of v) isNode(item) && stack.push(item);
      else if (isNode(v)) stack.push(v);
    }
  }
  return found;
}
