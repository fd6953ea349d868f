// What every benchmark script starts with: the built wasm checked, the
// repository served by tools/serve.mjs on a free port, and headless
// Chromium launched with the given extra flags.

import fs from "node:fs";
import { launch, CHROMIUM_ARGS, REPO_ROOT } from "../e2e/helpers.mjs";
import { startServer } from "../tools/serve.mjs";

/**
 * Start the server and the browser of a benchmark. Exits the process with
 * code 2 when js/sessiontree.wasm has not been built.
 * @param {string[]} extraArgs Chromium flags beside CHROMIUM_ARGS
 * @returns {Promise<{server: {baseURL: string, close: () => Promise<void>}, browser: import("playwright-core").Browser}>}
 */
export async function startBench(extraArgs) {
  if (!fs.existsSync(new URL("../js/sessiontree.wasm", import.meta.url))) {
    console.error("bench: js/sessiontree.wasm is missing; run `make build` first");
    process.exit(2);
  }
  const server = await startServer({ root: REPO_ROOT, port: 0 });
  const browser = await launch({ args: [...CHROMIUM_ARGS, ...extraArgs] }).catch((err) => {
    server.close();
    throw err;
  });
  return { server, browser };
}

/**
 * One renderer process as the benchmarks see it: its pid, its resident
 * memory (VmRSS from /proc, in MB) and whether it runs a dedicated worker
 * (a thread named "DedicatedWorker"): the tab of a page whose store runs
 * in its Worker. Linux only.
 * @typedef {{pid: number, mb: number, worker: boolean}} Renderer
 */

/**
 * The Renderer of process pid, null when it is gone.
 * @param {number|string} pid
 * @returns {Renderer|null}
 */
function renderer(pid) {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))[1]);
    let worker = false;
    for (const t of fs.readdirSync(`/proc/${pid}/task`)) {
      try {
        if (fs.readFileSync(`/proc/${pid}/task/${t}/comm`, "utf8").startsWith("DedicatedWorker")) worker = true;
      } catch {
        // the thread ended meanwhile
      }
    }
    return { pid: Number(pid), mb: kb / 1024, worker };
  } catch {
    return null; // gone meanwhile
  }
}

/**
 * The browser's renderer processes (pages, their workers, and the
 * browser's own: a headless Chromium keeps a WebUI renderer for its top
 * chrome of ~160 MB, and often a spare one of ~75 MB), their pids from
 * Chromium's SystemInfo.getProcessInfo.
 * @param {import("playwright-core").Browser} browser
 * @returns {Promise<Renderer[]>}
 */
export async function renderers(browser) {
  const cdp = await browser.newBrowserCDPSession();
  const { processInfo } = await cdp.send("SystemInfo.getProcessInfo");
  await cdp.detach();
  return processInfo.filter((p) => p.type === "renderer").map((p) => renderer(p.id)).filter((r) => r !== null);
}

/**
 * The resident memory of the browser's renderer processes (the pages and
 * their workers, and the browser's own renderers: see renderers), in MB.
 * @param {import("playwright-core").Browser} browser
 * @returns {Promise<number>}
 */
export async function rendererMB(browser) {
  return (await renderers(browser)).reduce((mb, r) => mb + r.mb, 0);
}

/**
 * The renderer processes of the Chromium profile in userDataDir (a
 * persistent context has no browser-wide CDP session to ask
 * SystemInfo.getProcessInfo, so they are found in /proc by their command
 * line: --type=renderer and the profile's directory; Linux).
 * @param {string} userDataDir the profile's directory, as given to launchPersistent
 * @returns {Renderer[]}
 */
export function profileRenderers(userDataDir) {
  const out = [];
  for (const pid of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
      if (!cmd.includes("--type=renderer") || !cmd.includes(userDataDir)) continue;
    } catch {
      continue; // gone meanwhile
    }
    const r = renderer(pid);
    if (r) out.push(r);
  }
  return out;
}
