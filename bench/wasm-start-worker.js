// The worker of the wasm start floor (bench/lazy-floor.js runWasmStart):
// the least a store running sessiontree's wasm in a worker can take
// before it answers a first call, whatever it holds. It loads Go's
// wasm_exec.js and the wasm (fetched, compiled streaming, instantiated,
// its Go program run, as js/runtime.js does), makes an empty store and
// answers one `sessions` call; it reads no IndexedDB and restores nothing.
import "/js/wasm_exec.js";

self.onmessage = async ({ data: wasmURL }) => {
  const go = new globalThis.Go();
  const module = await WebAssembly.compileStreaming(fetch(wasmURL));
  const instance = await WebAssembly.instantiate(module, go.importObject);
  go.run(instance);
  const store = globalThis.sessiontreeWasm.newStore();
  const answer = JSON.parse(store.call('{"operation":"sessions"}'));
  postMessage(answer.ok === true);
};
