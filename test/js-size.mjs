// The size rules of the house for JS (STYLE.md): the functions of a
// source file and their lengths, found without a parser library. A small
// lexer skips comments, strings, template literals (their ${} parts are
// read as code) and regular expression literals; a function is a "{" that
// follows "=>", or follows ")" whose "(" comes after a name that is not a
// statement keyword (function declarations and expressions, methods,
// getters, constructors). Its length runs from the line of its name (or
// of its parameters) to the line of its closing "}", as the Go rule counts
// from func to "}".

/** Keywords after which "(" … ")" "{" is a statement's block, not a function's body. */
const BLOCK_KEYWORDS = new Set(["if", "for", "while", "switch", "catch", "with"]);

/** Tokens after which "/" starts a regular expression rather than a division. */
const BEFORE_REGEX = new Set(["(", ",", "=", ":", "[", "!", "&", "|", "?", "{", "}", ";", "+", "-", "*", "%", "<", ">", "~", "^", "=>", "return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw", "yield", "await", ""]);

const IDENT = /[A-Za-z0-9_$#\u0080-\uffff]/;

/**
 * The significant tokens of JS source: names, punctuation ("(", ")",
 * "{", "}", "=>", "=", ":" and any other single character) with their
 * line (1-based). Strings, comments, template text and regular
 * expressions are skipped.
 * @param {string} src
 * @returns {{v: string, line: number}[]}
 */
export function tokens(src) {
  const out = [];
  const modes = []; // "{" for a brace, "${" for a template's expression
  let line = 1;
  let i = 0;
  const last = () => (out.length ? out[out.length - 1].v : "");
  const skipTo = (end) => {
    for (; i < end; i++) if (src[i] === "\n") line++;
  };
  const templateText = () => {
    // i is just after "`" or the "}" closing a ${}: read to "`" or "${".
    while (i < src.length) {
      const c = src[i];
      if (c === "\\") skipTo(i + 2);
      else if (c === "`") return void i++;
      else if (c === "$" && src[i + 1] === "{") {
        modes.push("${");
        i += 2;
        return;
      } else skipTo(i + 1);
    }
  };
  while (i < src.length) {
    const c = src[i];
    if (c === "\n") {
      line++;
      i++;
    } else if (c === " " || c === "\t" || c === "\r") i++;
    else if (c === "/" && src[i + 1] === "/") {
      while (i < src.length && src[i] !== "\n") i++;
    } else if (c === "/" && src[i + 1] === "*") {
      const end = src.indexOf("*/", i + 2);
      skipTo(end < 0 ? src.length : end + 2);
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < src.length && src[j] !== c && src[j] !== "\n") j += src[j] === "\\" ? 2 : 1;
      skipTo(j + 1);
    } else if (c === "`") {
      i++;
      templateText();
    } else if (c === "/" && BEFORE_REGEX.has(last())) {
      let j = i + 1;
      let inClass = false;
      while (j < src.length && src[j] !== "\n" && (inClass || src[j] !== "/")) {
        if (src[j] === "\\") j++;
        else if (src[j] === "[") inClass = true;
        else if (src[j] === "]") inClass = false;
        j++;
      }
      i = j + 1;
      while (i < src.length && IDENT.test(src[i])) i++;
    } else if (IDENT.test(c)) {
      let j = i;
      while (j < src.length && IDENT.test(src[j])) j++;
      out.push({ v: src.slice(i, j), line });
      i = j;
    } else if (c === "=" && src[i + 1] === ">") {
      out.push({ v: "=>", line });
      i += 2;
    } else if (c === "=" && src[i + 1] === "=") {
      while (src[i] === "=") i++;
      out.push({ v: "==", line });
    } else if (c === "}" && modes.at(-1) === "${") {
      modes.pop();
      i++;
      templateText();
    } else {
      if (c === "{") modes.push("{");
      else if (c === "}") modes.pop();
      out.push({ v: c, line });
      i++;
    }
  }
  return out;
}

/**
 * The functions of JS source with their lengths in lines.
 * @param {string} src
 * @returns {{name: string, line: number, lines: number}[]} in the order their bodies close
 */
export function functions(src) {
  const toks = tokens(src);
  const out = [];
  const opens = []; // indexes of "(" still open
  const match = new Map(); // index of ")" → index of its "("
  const braces = []; // per open "{": its function, or null
  const isName = (t) => t !== undefined && /^[A-Za-z_$#\u0080-\uffff][\w$\u0080-\uffff]*$/.test(t.v);
  // The name a function expression is bound to (`const f =`, `f:`), from the token before it.
  const boundName = (k) => {
    if (toks[k - 1]?.v === "async") k--;
    const t = toks[k - 1];
    return (t?.v === "=" || t?.v === ":") && isName(toks[k - 2]) ? toks[k - 2].v : null;
  };
  for (let k = 0; k < toks.length; k++) {
    const { v, line } = toks[k];
    if (v === "(") opens.push(k);
    else if (v === ")") match.set(k, opens.pop());
    else if (v === "{") {
      let fn = null;
      const prev = toks[k - 1];
      if (prev?.v === "=>") {
        const p = toks[k - 2];
        const start = p?.v === ")" ? match.get(k - 2) : k - 2;
        fn = { name: boundName(start) ?? "arrow function", line: toks[start]?.line ?? line };
      } else if (prev?.v === ")" && match.get(k - 1) !== undefined) {
        const open = match.get(k - 1);
        const before = toks[open - 1];
        if (before?.v === "function") fn = { name: boundName(open - 1) ?? "function", line: before.line };
        else if (isName(before) && !BLOCK_KEYWORDS.has(before.v)) fn = { name: before.v, line: before.line };
      }
      braces.push(fn);
    } else if (v === "}") {
      const fn = braces.pop();
      if (fn) out.push({ name: fn.name, line: fn.line, lines: line - fn.line + 1 });
    }
  }
  return out;
}
