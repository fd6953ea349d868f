// A task of its own, at once: the one way sessiontree's threads let other
// work run between slices of theirs (the page between the slices of a
// large context, the worker between import slices and the search index's
// build slices, where messages already posted — an abort, another call —
// are answered in between).

/** The channel whose messages are the tasks; made on first use. */
let channel = null;

/**
 * Resolve in a new task: a message on a MessageChannel, which unlike a
 * setTimeout chain is never clamped to 4 ms (timers nested five deep are,
 * HTML Living Standard "timer initialisation steps"; the clamp cost ~1.2 s
 * over a 20 MB importFile yielding once per 64 KiB chunk).
 * @returns {Promise<void>}
 */
export function nextTask() {
  if (channel === null) {
    channel = new MessageChannel();
    channel.waiting = [];
    channel.port1.onmessage = () => channel.waiting.shift()?.();
  }
  return new Promise((resolve) => {
    channel.waiting.push(resolve);
    channel.port2.postMessage(null);
  });
}
