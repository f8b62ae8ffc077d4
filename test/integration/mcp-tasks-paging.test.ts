import { prefixedId } from '../../core/ids';
import { insertMcpTask } from '../../db/queries/mcpTasks';
import { startTestApp, type TestApp } from '../helpers/app';
import { legacyPost, mcpOperator, type McpOperator } from '../helpers/mcp';

let app: TestApp;
let alice: McpOperator;

beforeAll(async () => {
  app = await startTestApp();
  alice = await mcpOperator(app.url);
});
afterAll(() => app?.close());

describe('tasks/list pages', () => {
  it('pages the key’s tasks newest first, 50 at a time, each exactly once across rows created in the same millisecond', async () => {
    const ids: string[] = [];
    for (let n = 0; n < 55; n += 1) {
      const row = await insertMcpTask(app.deps.db, {
        id: prefixedId('task'),
        operatorId: alice.operatorId,
        apiKeyId: alice.keyId,
        runId: prefixedId('run'),
        temporalWorkflowId: `paging-${n}`,
        toolName: 'paging',
        structured: false,
        ttlMs: 60_000,
        pollIntervalMs: 2_000,
      });
      ids.push(row.id);
    }
    const first = await legacyPost(app.url, alice.key, 'tasks/list', {});
    expect(first.body.result.tasks).toHaveLength(50);
    expect(first.body.result.nextCursor).toEqual(expect.any(String));
    const second = await legacyPost(app.url, alice.key, 'tasks/list', { cursor: first.body.result.nextCursor });
    expect(second.body.result.nextCursor).toBeUndefined();
    const tasks: Array<{ taskId: string; createdAt: string }> = [...first.body.result.tasks, ...second.body.result.tasks];
    const created = tasks.map((task) => task.createdAt);
    expect(created).toEqual([...created].sort().reverse());
    const listed = tasks.map((task) => task.taskId);
    expect(new Set(listed).size).toBe(55);
    expect([...listed].sort()).toEqual([...ids].sort());

    const bad = await legacyPost(app.url, alice.key, 'tasks/list', { cursor: 'not-a-cursor' });
    expect(bad.body.error).toEqual({ code: -32602, message: 'Invalid params: cursor is not one this server gave' });
  });
});
