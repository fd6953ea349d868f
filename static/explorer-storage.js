// The storage line of the explorer's sessions pane: usage and quota from
// navigator.storage.estimate(), whether the browser keeps the data under
// storage pressure, whether this tab can still write (tree.storage()), and
// the answer of "Ask the browser to keep this data".

const $ = (id) => document.getElementById(id);

let shown = 0; // showStorage calls made: only the last one's answer is shown

/** Bytes as "1.2 MB" (decimal units, as browsers report quota). */
export function formatBytes(n) {
  if (n == null) return "?";
  const units = ["B", "KB", "MB", "GB", "TB"];
  let i = 0;
  while (n >= 1000 && i < units.length - 1) {
    n /= 1000;
    i++;
  }
  return `${n >= 10 || i === 0 ? Math.round(n) : n.toFixed(1)} ${units[i]}`;
}

/**
 * Show where the data lives: usage and quota from navigator.storage.estimate(),
 * whether the browser keeps it under storage pressure, and whether this tab can
 * still write (tree.storage()). requestPersist asks navigator.storage.persist()
 * and says what the browser answered.
 * @param {object|null} tree the page's SessionTree
 * @param {boolean} [requestPersist]
 * @returns {Promise<void>}
 */
export async function showStorage(tree, requestPersist = false) {
  const box = $("storage-info");
  if (typeof tree?.storage !== "function") {
    box.hidden = true;
    return;
  }
  const seq = ++shown;
  const info = await tree.storage({ requestPersist });
  if (seq !== shown && !requestPersist) return; // a later call's answer is newer: this one would undo it
  const parts = [];
  if (info.state === "closed") {
    parts.push(`Saving stopped: ${info.reason ?? "the database was closed"} — reload the page.`);
  } else if (info.state === "memory") {
    parts.push("Not saved: this tree lives in memory only.");
  } else {
    // The site's usage holds the offline copy of the app too (its service worker's cache): the sessions' part where the browser says.
    parts.push(`Stored in this browser: ${formatBytes(info.databaseUsage ?? info.usage)} of ${formatBytes(info.quota)}`);
    if (info.databaseUsage != null && info.usage > info.databaseUsage) parts.push(`(${formatBytes(info.usage)} with the offline app)`);
    parts.push(info.persisted ? "· kept by the browser" : "· may be cleared under storage pressure");
  }
  $("storage-text").textContent = parts.join(" ");
  box.classList.toggle("warning", info.state === "closed" || (info.quota != null && info.usage != null && info.usage > 0.9 * info.quota));
  $("storage-persist").hidden = info.state !== "open" || info.persisted !== false;
  if (requestPersist) {
    // The answer of navigator.storage.persist(), said where the button was.
    $("storage-persist-result").textContent =
      info.persisted === true ? "The browser will keep this data." : info.state !== "open" ? "Nothing to keep: this tab is not saving." : info.persistPending ? "The browser is asking you whether to keep this data (see its prompt); until you answer, the data stays until it needs the space." : "The browser declined for now (it decides by how the site is used); the data stays until it needs the space.";
  }
}
