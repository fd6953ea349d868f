// The Go runtime of the thread that runs the store: loading wasm_exec.js
// and sessiontree.wasm once per wasm URL, the store handle guarded so that
// nothing throws "Go program has already exited", and the exit of a Go
// program (a fatal error such as out of memory) reported to whoever
// listens (js/worker.js tells the page, which starts a new worker; a
// LocalTree in the page answers STORAGE_ERROR from then on).

import { errorEnvelope } from "./tree-api.js";
import { STORAGE_ERROR } from "./protocol.js";
// Go's loader, a plain script that sets globalThis.Go: a static import, so
// every bundler finds it and bundles it with the store (in a worker no
// chunk has to be loaded at run time).
import "./wasm_exec.js";

/** True in a worker's global scope (js/worker.js), where no page waits on this thread. */
export const IN_WORKER = typeof globalThis.WorkerGlobalScope === "function" && globalThis instanceof globalThis.WorkerGlobalScope;

/** The loaded wasm runtime per wasm URL: Promise<runtime> (see loadRuntime); a runtime whose Go program exited is dropped, so the next init loads a new one. */
const runtimes = new Map();

/** Functions called with (reason) when a Go program this thread started exits (see onRuntimeExit). */
const exitListeners = new Set();

/**
 * Call fn(reason) when a Go program started in this thread exits (a fatal
 * error such as "out of memory", or sessiontreeWasm.exit): js/worker.js
 * tells the page, which starts a new worker. reason reads like
 * "the Go runtime exited (code 2: fatal error: out of memory)".
 * @param {(reason: string) => void} fn
 * @returns {() => void} the function that removes fn
 */
export function onRuntimeExit(fn) {
  exitListeners.add(fn);
  return () => exitListeners.delete(fn);
}

/**
 * The first "fatal error: …" or "panic: …" line the Go programs of this
 * thread wrote to stderr since the last exit (wasm_exec.js writes their
 * output through globalThis.fs.writeSync), for the exit's reason.
 */
let fatalLine = null;
let stderrTail = "";

/** Watch the Go programs' stderr for fatalLine (once per thread; the output still reaches the console). */
function watchStderr() {
  const fs = globalThis.fs;
  if (!fs || typeof fs.writeSync !== "function" || fs.writeSync.sessiontreeWatched) return;
  const write = fs.writeSync;
  const decoder = new TextDecoder();
  const watched = function (fd, buf) {
    if (fd === 2 && fatalLine === null) {
      stderrTail = (stderrTail + decoder.decode(buf, { stream: true })).slice(-4096);
      const m = /^(fatal error|panic): [^\n]*/m.exec(stderrTail);
      if (m) fatalLine = m[0];
    }
    return write.call(this, fd, buf);
  };
  watched.sessiontreeWatched = true;
  fs.writeSync = watched;
}

/**
 * Load the wasm once per page and URL and start its Go program: its global
 * object `{version, newStore(memory?), exit(code, text?)}`, its memory, and its state
 * (`exited`: null, or the reason once the program exited). Go's loader
 * is wasm_exec.js of this module's folder (imported above): the wasm must
 * come from the same Go build.
 * @param {string|URL} wasmURL
 * @param {Promise<void>} [after] for the load this call starts: instantiate
 *   (the Go program's start, which holds this thread) only once it
 *   settled; the fetch and compile (off the thread) do not wait
 * @returns {Promise<{api: {version: string, newStore: (memory?: WebAssembly.Memory) => object, exit: (code: number, text?: string) => void}, memory: WebAssembly.Memory, state: {exited: string|null}}> & {fetched: Promise<Response>}}
 *   `fetched` resolves once the wasm's server answered 2xx (the headers,
 *   before the compile) and rejects as the load does when it did not:
 *   js/local.js waits for it before it answers the session list early
 *   (create's onListed), so a wasm that is not there still fails init()
 */
export function loadRuntime(wasmURL, after = undefined) {
  const key = String(wasmURL);
  if (!runtimes.has(key)) {
    // The wasm is fetched and compiled here (in a worker it is not
    // preloaded by the page); compiling needs no imports, instantiating
    // does. A server that does not answer 2xx (a bundler that did not
    // emit the wasm) rejects here, with the status, before any compile.
    // A failure names the wasm's URL: the browser's own ("Failed to
    // fetch", "NetworkError…", "expected magic word…") does not.
    const fetched = fetch(wasmURL).then(
      (response) => {
        if (!response.ok) throw new Error(`sessiontree: the wasm ${key} could not be fetched (HTTP ${response.status} ${response.statusText})`.trimEnd());
        return response;
      },
      (err) => {
        throw new Error(`sessiontree: the wasm ${key} could not be fetched (${err?.message ?? err})`);
      },
    );
    const p = (async () => {
      const compiled = fetched.then((response) =>
        WebAssembly.compileStreaming(response)
          .catch(async () => {
            // Servers that send the wrong MIME type: fall back to bytes.
            const bytes = await (await fetch(wasmURL)).arrayBuffer();
            return WebAssembly.compile(bytes);
          })
          .catch((err) => {
            throw new Error(`sessiontree: the wasm ${key} could not be compiled (${err?.message ?? err}): is it the package's sessiontree.wasm?`);
          }),
      );
      compiled.catch(() => {}); // awaited below; a failure rejects there
      watchStderr();
      const go = new globalThis.Go();
      const state = { exited: null };
      // wasm_exec calls exit(code) when the Go program ends (it never
      // does on its own: main blocks forever), in the middle of the call
      // that ended it; every later call of its functions would throw.
      go.exit = (code) => {
        state.exited = `the Go runtime exited (code ${code}${fatalLine ? ": " + fatalLine : ""})`;
        fatalLine = null;
        stderrTail = "";
        if (runtimes.get(key) === p) runtimes.delete(key);
        for (const fn of exitListeners) {
          try {
            fn(state.exited);
          } catch (err) {
            console.error("sessiontree: a runtime exit listener threw", err);
          }
        }
      };
      const module = await compiled;
      await after?.catch(() => {});
      const instance = await WebAssembly.instantiate(module, go.importObject);
      go.run(instance); // resolves only when Go exits; main blocks forever
      const api = globalThis.sessiontreeWasm;
      if (!api || typeof api.newStore !== "function") {
        throw new Error("sessiontree: the wasm module did not register sessiontreeWasm");
      }
      // The context fast path reads answers from the wasm memory.
      return { api, memory: instance.exports.mem, state };
    })();
    p.fetched = fetched;
    runtimes.set(key, p);
    p.catch(() => runtimes.delete(key));
  }
  return runtimes.get(key);
}

/**
 * What each handle method answers once the Go program has exited, in
 * place of calling it (wasm_exec would throw "Go program has already
 * exited"): the STORAGE_ERROR envelope text for the methods that answer
 * envelopes, else a value that stops the caller's loop (warm: done, drain:
 * no changes).
 */
const AFTER_EXIT = {
  warm: () => true,
  drain: () => "",
  drainBytes: () => new Uint8Array(0),
  operations: () => "[]",
  free: () => null,
  importCancel: () => null,
  settle: () => null,
};

/**
 * The store handle of newStore(), guarded against the Go program's exit:
 * the same methods, each answering as the binding documents until the
 * program exits, and after that (the call that ended it included) the
 * STORAGE_ERROR envelope of `exitedMessage` in place of any answer (see
 * AFTER_EXIT), so nothing throws "Go program has already exited".
 * @param {object} raw the handle @param {{exited: string|null}} state the runtime's
 * @returns {object}
 */
export function guardHandle(raw, state) {
  const guarded = {};
  for (const name of Object.keys(raw)) {
    const method = raw[name];
    const after = AFTER_EXIT[name] ?? (() => JSON.stringify(errorEnvelope(STORAGE_ERROR, exitedMessage(state.exited))));
    guarded[name] = (...args) => {
      if (state.exited !== null) return after();
      let out;
      try {
        out = method(...args);
      } catch (err) {
        if (state.exited === null) throw err;
      }
      return state.exited === null ? out : after();
    };
  }
  return guarded;
}

/**
 * The message of a call answered after the store's Go program exited, in
 * the thread that ran it: what is stored is safe, this store is gone.
 * @param {string} reason the runtime's exited reason
 * @returns {string}
 */
export function exitedMessage(reason) {
  return `storage error: the store stopped: ${reason}; nothing acknowledged was lost; call init() again or reload the page`;
}

/**
 * Set a User Timing mark, where the page has them: init() marks
 * "sessiontree:runtime" (the wasm started), "sessiontree:read" (IndexedDB
 * read) and "sessiontree:restored" (every stored session in the core as a stub), for
 * the browser's performance panel and benchmarks.
 * @param {string} name
 */
export function mark(name) {
  globalThis.performance?.mark?.(name);
}
