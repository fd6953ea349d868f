// A tool call that edits files, as a diff (issue 26: "a diff/patch renders
// as a diff"). Coding agents write an edit in one of four shapes, each
// turned here into unified-diff text that the reader shows as a `diff` code
// block (highlight.js's diff grammar colours the + and - lines):
//   - a patch as the call's whole input: Codex's apply_patch envelope
//     ("*** Begin Patch" … "*** End Patch", codex-rs/apply-patch), or a
//     unified diff ("diff --git", "--- a/…", "@@ … @@"), as is;
//   - an object holding such a patch in `patch`, `diff` or `input`;
//   - old and new text: Claude Code's Edit (`file_path`, `old_string`,
//     `new_string`) and MultiEdit (`edits`), Gemini CLI's replace (the
//     same names): each old line as "-", each new line as "+";
//   - Cline's replace_in_file (`path`, `diff`): SEARCH/REPLACE blocks
//     ("<<<<<<< SEARCH" … "=======" … ">>>>>>> REPLACE"), the searched
//     lines as "-", the replacement as "+".
// Pure: no DOM.

const PATCH_START = /^(\*\*\* Begin Patch|diff --git |--- \S|@@ )/m;
const SEARCH = /^<{5,} SEARCH\s*$/m;

/** The lines of text, each with a prefix ("-", "+"). */
const prefixed = (prefix, text) => text.split("\n").map((line) => prefix + line);

/** A SEARCH/REPLACE text as diff lines, or null when it holds no block. */
function searchReplace(text) {
  if (!SEARCH.test(text)) return null;
  const out = [];
  let mode = "";
  for (const line of text.split("\n")) {
    if (/^<{5,} SEARCH\s*$/.test(line)) mode = "-";
    else if (/^={5,}\s*$/.test(line) && mode === "-") mode = "+";
    else if (/^>{5,} REPLACE\s*$/.test(line)) {
      mode = "";
      out.push("@@");
    } else if (mode !== "") out.push(mode + line);
  }
  return out.join("\n");
}

/** The text of a file's old → new edits, with the file's header. */
function edits(file, pairs) {
  const out = file ? [`--- ${file}`, `+++ ${file}`] : [];
  for (const { old_string: before, new_string: after } of pairs) {
    out.push("@@", ...(before === "" ? [] : prefixed("-", before)), ...(after === "" ? [] : prefixed("+", after)));
  }
  return out.join("\n");
}

const isEdit = (e) => e !== null && typeof e === "object" && typeof e.old_string === "string" && typeof e.new_string === "string";

/**
 * The unified-diff text of a tool call that edits files, or null when the
 * call is not an edit (its arguments then show as they are).
 * @param {unknown} args the call's input or arguments: a string (a patch,
 *   or JSON text of an object) or an object
 * @returns {string|null}
 */
export function patchText(args) {
  if (typeof args === "string") {
    const trimmed = args.trimStart();
    if (trimmed.startsWith("{")) {
      try {
        return patchText(JSON.parse(trimmed));
      } catch {
        return null;
      }
    }
    return PATCH_START.test(args) ? args : searchReplace(args);
  }
  if (args === null || typeof args !== "object" || Array.isArray(args)) return null;
  const file = [args.file_path, args.path, args.absolute_path].find((f) => typeof f === "string") ?? "";
  if (isEdit(args)) return edits(file, [args]);
  if (Array.isArray(args.edits) && args.edits.length > 0 && args.edits.every(isEdit)) return edits(file, args.edits);
  for (const key of ["patch", "diff", "input"]) {
    if (typeof args[key] !== "string") continue;
    const text = args[key];
    if (PATCH_START.test(text)) return text;
    const blocks = searchReplace(text);
    if (blocks !== null) return (file ? `--- ${file}\n+++ ${file}\n` : "") + blocks;
  }
  return null;
}
