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
 * The resident memory of the browser's renderer processes (the pages and
 * their workers), in MB: their pids from Chromium's
 * SystemInfo.getProcessInfo, their VmRSS from /proc (Linux).
 * @param {import("playwright-core").Browser} browser
 * @returns {Promise<number>}
 */
export async function rendererMB(browser) {
  const cdp = await browser.newBrowserCDPSession();
  const { processInfo } = await cdp.send("SystemInfo.getProcessInfo");
  await cdp.detach();
  let kb = 0;
  for (const p of processInfo) {
    if (p.type !== "renderer") continue;
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${p.id}/status`, "utf8"))[1]);
    } catch {
      // gone meanwhile
    }
  }
  return kb / 1024;
}

/**
 * The resident memory of the renderer processes (pages and their workers)
 * of the Chromium profile in userDataDir, in MB: a persistent context has
 * no browser-wide CDP session to ask SystemInfo.getProcessInfo, so the
 * renderers are found in /proc by their command line (--type=renderer and
 * the profile's directory; Linux).
 * @param {string} userDataDir the profile's directory, as given to launchPersistent
 * @returns {number}
 */
export function profileRendererMB(userDataDir) {
  let kb = 0;
  for (const pid of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
      if (!cmd.includes("--type=renderer") || !cmd.includes(userDataDir)) continue;
      kb += Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))[1]);
    } catch {
      // gone meanwhile
    }
  }
  return kb / 1024;
}
