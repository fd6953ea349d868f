// A session's tool and project (core/internal/tree/origin.go) come back after a reload:
// the stored meta record keeps what core drained, and the restore and
// page.stub requests the store builds from it pass them to core.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { restoreRequest } from '../js/store/records.js';
import { stubRequest } from '../js/store/pager.js';

const text = (bytes) => new TextDecoder().decode(bytes);
const meta = { sessionId: 's', title: 'T', createdAt: 'c', updatedAt: 'u', nodeCount: 2, cursor: 'b', activeBranch: 'main', tool: 'codex', project: '/home/me/api' };

test('restore and page.stub requests carry the stored tool and project, and leave them out when there are none', () => {
  const snapshot = new TextEncoder().encode('{"version":1}');
  assert.deepEqual(JSON.parse(text(restoreRequest(meta, snapshot))), { operation: 'restore', title: 'T', createdAt: 'c', updatedAt: 'u', tool: 'codex', project: '/home/me/api', snapshot: { version: 1 } });
  assert.deepEqual(JSON.parse(text(stubRequest([meta]))).sessions, [{ sessionId: 's', title: 'T', createdAt: 'c', updatedAt: 'u', nodeCount: 2, tool: 'codex', project: '/home/me/api', cursor: 'b', activeBranch: 'main' }]);
  const plain = { ...meta, tool: undefined, project: undefined };
  assert.equal('tool' in JSON.parse(text(restoreRequest(plain, snapshot))), false);
  assert.equal('project' in JSON.parse(text(stubRequest([plain]))).sessions[0], false);
});
