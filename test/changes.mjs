// Change blocks as core's DrainChanges(true) writes them (core/internal/store/changes.go,
// appendBlock), for the store's Node tests.

/**
 * A node's JSON text with the fields the store reads.
 * @param {string} prefix of the id @param {number} i its index (the id is prefix + i)
 * @param {string|null} [parentId]
 * @returns {string}
 */
export const node = (prefix, i, parentId = null) => JSON.stringify({ id: `${prefix}${i}`, parentId, branch: 'main', timestamp: `t${i}` });

/**
 * Nodes from to to-1 of a chain (each the child of the one before).
 * @param {string} prefix @param {number} from @param {number} to
 * @returns {string[]}
 */
export const chain = (prefix, from, to) => Array.from({ length: to - from }, (_, i) => node(prefix, from + i, from + i === 0 ? null : `${prefix}${from + i - 1}`));

/**
 * The text of one change block: the header line (meta as core writes it
 * unless given), the node lines (each but the last ending in ","), the
 * annotation lines.
 * @returns {string}
 */
export function block({ sessionId = 's', operation = 'append', reset = false, from = 0, nodes = [], annotationFrom = 0, annotations = [], more, meta }) {
  const head = { sessionId, operation, reset, from, count: nodes.length, annotationFrom, annotationCount: annotations.length };
  if (more) head.more = true;
  const last = nodes.length > 0 ? JSON.parse(nodes[nodes.length - 1]) : null;
  head.meta = meta ?? {
    sessionId, title: '', cursor: last?.id ?? null, activeBranch: 'main', createdAt: 'c', updatedAt: last?.timestamp ?? 'c',
    nodeCount: from + nodes.length, annotationCount: annotationFrom + annotations.length,
  };
  const lines = [JSON.stringify(head), ...nodes.map((n, i) => (i < nodes.length - 1 ? n + ',' : n)), ...annotations];
  return lines.join('\n') + '\n';
}

/** UTF-8 bytes of a text. */
export const utf8 = (s) => new TextEncoder().encode(s);

/** The text of UTF-8 bytes (or a string as it is). */
export const text = (b) => (typeof b === 'string' ? b : new TextDecoder().decode(b));
