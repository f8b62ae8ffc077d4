import { startTestApp, type TestApp } from '../helpers/app';
import { createWorkflow, legacyPost, mcpOperator, openEventStream, rpc, runOfTask, toolAutomation, type McpOperator } from '../helpers/mcp';
import { settledRun } from '../helpers/mcpClients';

/** A waiting stream's headers go out with its first ping: a heartbeat of 500 ms has them out at once. */
const SETTINGS = { MCP_CALL_WAIT_MS: '1000', MCP_HEARTBEAT_MS: '500', MCP_MAX_STREAMS_PER_OPERATOR: '2' };
const serviceError = (code: string) => ({ jsonrpc: '2.0', id: null, error: { code: -32001, message: `code: ${code}` } });

let app: TestApp;
let alice: McpOperator;
let bob: McpOperator;
const tools: Record<string, string> = {};

/** A task of a 2025-11-25 session whose run waits ten minutes. */
async function longTask(operator: McpOperator): Promise<string> {
  const created = await legacyPost(app.url, operator.key, 'tools/call', {
    name: tools[operator.operatorId]!,
    arguments: { playerId: 'p-1' },
    task: { ttl: 60_000 },
  });
  expect(created.status).toBe(200);
  return created.body.result.task.taskId as string;
}

/** `tasks/result` as a 2025-11-25 client sends it, accepting a stream: the answer's status, headers and (when not a stream) body; `close` leaves. */
async function waitOnResult(operator: McpOperator, taskId: string) {
  const abort = new AbortController();
  const response = await fetch(`${app.url}/mcp-server`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${operator.key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2025-11-25',
    },
    body: JSON.stringify(rpc('tasks/result', { taskId })),
    signal: abort.signal,
  });
  const stream = response.headers.get('content-type')?.startsWith('text/event-stream') ?? false;
  const body = stream ? undefined : JSON.parse(await response.text());
  return { status: response.status, stream, headers: response.headers, body, close: () => abort.abort() };
}

beforeAll(async () => {
  app = await startTestApp(SETTINGS);
  [alice, bob] = await Promise.all([mcpOperator(app.url), mcpOperator(app.url)]);
  for (const operator of [alice, bob]) {
    const long = toolAutomation('Long check', [{ id: 'wait', type: 'action.delay', params: { seconds: 600 } }]);
    tools[operator.operatorId] = (await createWorkflow(app.url, operator.accessToken, long)).mcp_tool_name;
  }
});
afterAll(async () => {
  await app?.close();
});

describe('tasks/result streams count against the per-operator stream cap (MCP_MAX_STREAMS_PER_OPERATOR)', () => {
  it('two waiting tasks/result streams fill a cap of 2: a third, and a GET stream, are 429 MCP_SESSION_LIMIT_EXCEEDED; leaving frees a slot; another operator is unaffected', async () => {
    const tasks = [await longTask(alice), await longTask(alice), await longTask(alice)];
    const first = await waitOnResult(alice, tasks[0]!);
    const second = await waitOnResult(alice, tasks[1]!);
    expect([first.status, first.stream, second.status, second.stream]).toEqual([200, true, 200, true]);

    const third = await waitOnResult(alice, tasks[2]!);
    expect([third.status, third.body, third.headers.get('retry-after')]).toEqual([
      429,
      { ...serviceError('MCP_SESSION_LIMIT_EXCEEDED'), id: expect.any(Number) },
      '5',
    ]);
    const channel = await openEventStream(app.url, alice.key, '?session=one');
    expect([channel.status, channel.body]).toEqual([429, serviceError('MCP_SESSION_LIMIT_EXCEEDED')]);

    const bobs = await waitOnResult(bob, await longTask(bob));
    expect([bobs.status, bobs.stream]).toEqual([200, true]);

    first.close();
    const deadline = Date.now() + 10_000;
    let again = await waitOnResult(alice, tasks[2]!);
    while (again.status === 429 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      again = await waitOnResult(alice, tasks[2]!);
    }
    expect([again.status, again.stream]).toEqual([200, true]);

    for (const waiting of [second, again, bobs]) waiting.close();
    for (const taskId of tasks) await legacyPost(app.url, alice.key, 'tasks/cancel', { taskId });
  }, 120_000);

  it('a task already ended answers tasks/result at once, without a slot, even with the cap full', async () => {
    const tasks = [await longTask(alice), await longTask(alice)];
    const waiting = await Promise.all(tasks.map((taskId) => waitOnResult(alice, taskId)));
    expect(waiting.map((one) => one.status)).toEqual([200, 200]);
    const ended = await longTask(alice);
    await legacyPost(app.url, alice.key, 'tasks/cancel', { taskId: ended });
    expect((await settledRun(app.url, alice.key, await runOfTask(app.deps.db, ended))).status).toBe('cancelled');
    const result = await legacyPost(app.url, alice.key, 'tasks/result', { taskId: ended });
    expect(result.status).toBe(200);
    expect(result.body.error?.message ?? '').not.toContain('MCP_SESSION_LIMIT_EXCEEDED');
    for (const one of waiting) one.close();
    for (const taskId of tasks) await legacyPost(app.url, alice.key, 'tasks/cancel', { taskId });
  });
});
