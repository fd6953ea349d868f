// Sessions for the map benchmark (bench/map.mjs): a chain with a fork every
// `every` nodes, built as snapshot JSON text directly (a 1,000,000-node
// session as objects would not fit the page's heap twice). Node i's parent
// is i−1, except each node i = k·every (k ≥ 1), whose parent is i − every/2
// (the middle of the run before): `nodes/every − 1` branch points, each
// starting a branch "b<k>". Messages are short (the map reads no text).

/**
 * @param {{nodes: number, every: number, sessionId: string}} options
 * @returns {string} the snapshot's JSON text (version 1)
 */
export function forkedSnapshotText({ nodes, every, sessionId }) {
  const parts = [];
  let branch = "main";
  for (let i = 0; i < nodes; i++) {
    let parent = i - 1;
    if (i > 0 && i % every === 0) {
      parent = i - every / 2;
      branch = `b${i / every}`;
    }
    const p = parent < 0 ? "null" : `"n${parent}"`;
    parts.push(`{"id":"n${i}","parentId":${p},"branch":"${branch}","kind":"message","timestamp":"2026-12-01T00:00:00.000Z","message":{"role":"${i % 2 ? "assistant" : "user"}","content":"m${i}"}}`);
  }
  return `{"version":1,"sessionId":"${sessionId}","cursor":"n${nodes - 1}","activeBranch":"${branch}","nodes":[${parts.join(",")}]}`;
}

/** The p-th percentile (0 … 100) of xs. @param {number[]} xs @param {number} p */
export function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/**
 * The p95 of `frames` frames of a <session-tree-panel> once open, in ms:
 * with view "map", the map's own drawing while it zooms and pans in turn
 * (MapView.draw's time); with "list", the rows drawn for each scroll step.
 * @param {HTMLElement} panel @param {"map"|"list"} view @param {number} frames
 * @returns {Promise<number>}
 */
export async function panelFrames(panel, view, frames) {
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  const out = [];
  if (view === "map") {
    const v = panel._map.mapView;
    v.fit();
    for (let k = 0; k < frames; k++) {
      if (k % 40 < 20) v.zoomBy(k % 40 < 10 ? 1.25 : 0.8);
      else v.panBy(37, -23);
      out.push(v.draw());
      await frame();
    }
  } else {
    const scroller = panel.shadowRoot.querySelector(".scroller");
    for (let k = 0; k < frames; k++) {
      scroller.scrollTop += 997;
      const t = performance.now();
      panel._view.render();
      out.push(performance.now() - t);
      await frame();
    }
  }
  return percentile(out, 95);
}
