import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { automationRunWorkflowId } from '../../temporal/automationRuns';
import { startTestApp, type TestApp } from '../helpers/app';
import { createApiKey } from '../helpers/identity';
import { createWorkflow, legacyPost, mcpOperator, mcpPost, modernPost, rpc, setMcp, toolAutomation, type McpOperator } from '../helpers/mcp';
import { sdkClient, settledRun } from '../helpers/mcpClients';
import { startProvider, type TestProvider } from '../helpers/providerServer';

/** Calls whose runs wait 4 s or more are tasks: the delays below decide which tool is which. */
const SETTINGS = { MCP_CALL_WAIT_MS: '4000' };
const TASKS = 'io.modelcontextprotocol/tasks';
const MODERN = '2026-07-28';

let app: TestApp;
let provider: TestProvider;
let alice: McpOperator;
const tools = { quick: '', slow: '', long: '' };

beforeAll(async () => {
  app = await startTestApp(SETTINGS);
  provider = await startProvider((request) => ({ status: 200, body: { path: request.path, ok: true } }));
  alice = await mcpOperator(app.url);
  const call = (id: string, path: string) => ({ id, type: 'action.http_request', params: { method: 'POST', url: `${provider.url}/${path}` } });
  tools.quick = (await createWorkflow(app.url, alice.accessToken, toolAutomation('Quick check', [call('ask', 'quick')]))).mcp_tool_name;
  const slow = toolAutomation('Slow check', [call('ask', 'slow'), { id: 'wait', type: 'action.delay', params: { seconds: 5 } }, call('tell', 'slow-done')]);
  tools.slow = (await createWorkflow(app.url, alice.accessToken, slow)).mcp_tool_name;
  const long = toolAutomation('Long check', [{ id: 'wait', type: 'action.delay', params: { seconds: 600 } }, call('tell', 'long-done')]);
  tools.long = (await createWorkflow(app.url, alice.accessToken, long)).mcp_tool_name;
});
afterAll(async () => {
  await Promise.all([app?.close(), provider?.close()]);
});

async function v2Client(key: string) {
  // Declares the tasks extension: without it 2026-07-28 refuses tasks/get, tasks/update and tasks/cancel (-32021).
  const client = new ClientV2({ name: 'v2-agent', version: '1.0.0' }, { capabilities: { extensions: { [TASKS]: {} } }, versionNegotiation: { mode: 'auto' } });
  await client.connect(new TransportV2(new URL(`${app.url}/mcp-server`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  return client;
}

const DetailedTask = z.looseObject({ taskId: z.string(), status: z.string(), result: z.record(z.string(), z.unknown()).optional() });

async function pollModern(client: ClientV2, taskId: string, until: (status: string) => boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const task = await client.request({ method: 'tasks/get', params: { taskId } } as never, DetailedTask);
    if (until(task.status)) return task;
    if (Date.now() > deadline) throw new Error(`task ${taskId} still ${task.status}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('MCP 2026-07-28 (stateless), with the official v2 client in auto negotiation', () => {
  it('negotiates 2026-07-28 through server/discover, lists the tools with a cache hint and calls one', async () => {
    const client = await v2Client(alice.key);
    expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
    const { tools: listed } = await client.listTools(undefined, { cacheMode: 'bypass' } as never);
    expect(listed.map((tool) => tool.name).sort()).toEqual([tools.long, tools.quick, tools.slow].sort());
    const result = await client.callTool({ name: tools.quick, arguments: { playerId: 'p-1' } });
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toMatchObject({ status: 200, body: { path: '/quick', ok: true } });
    await client.close();

    const raw = await modernPost(app.url, alice.key, 'tools/list', {});
    expect(raw.status).toBe(200);
    expect(raw.body.result).toMatchObject({ resultType: 'complete', ttlMs: 30_000, cacheScope: 'private' });
    expect(raw.body.result._meta['io.modelcontextprotocol/serverInfo']).toEqual({ name: 'operator-platform', version: expect.any(String) });
    expect(raw.body.result.tools.every((tool: Record<string, unknown>) => !('execution' in tool))).toBe(true);
  });

  it('a tool that can wait answers at once with a task; tasks/get reports it working, then completed with the result', async () => {
    const client = await v2Client(alice.key);
    const started = Date.now();
    const created = await modernPost(app.url, alice.key, 'tools/call', { name: tools.slow, arguments: { playerId: 'p-2' } });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(created.status).toBe(200);
    expect(created.body.result).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 86_400_000, pollIntervalMs: 2_000 });
    const { taskId } = created.body.result;
    expect(taskId).toMatch(/^task_[0-9a-f]{32}$/);
    expect((await client.request({ method: 'tasks/get', params: { taskId } } as never, DetailedTask)).status).toBe('working');
    const done = await pollModern(client, taskId, (status) => status === 'completed');
    expect(done.result).toMatchObject({ isError: false, structuredContent: { status: 200, body: { path: '/slow-done' } } });
    // A tool with a delay holds its run: its task's run went to the waiting queue (temporal/taskQueues.ts).
    const row = await app.deps.db('mcp_tasks').where({ id: taskId }).first();
    const described = await app.deps.temporal.client.workflow.getHandle(automationRunWorkflowId('mcp', row.run_id)).describe();
    expect(described.taskQueue).toBe(app.deps.temporal.waitingTaskQueue);
    await client.close();
  });

  it('tasks/cancel cancels the run: the task and the run end cancelled, the delay cut short', async () => {
    const client = await v2Client(alice.key);
    const created = await modernPost(app.url, alice.key, 'tools/call', { name: tools.long, arguments: { playerId: 'p-3' } });
    const { taskId } = created.body.result;
    const ack = await modernPost(app.url, alice.key, 'tasks/cancel', { taskId });
    expect(ack.body.result).toMatchObject({ resultType: 'complete' });
    expect(await client.request({ method: 'tasks/cancel', params: { taskId } } as never, z.looseObject({}))).toBeDefined();
    expect((await pollModern(client, taskId, (status) => status !== 'working')).status).toBe('cancelled');
    const row = await app.deps.db('mcp_tasks').where({ id: taskId }).first();
    expect((await settledRun(app.url, alice.key, row.run_id)).status).toBe('cancelled');
    await client.close();
  });

  it('refuses what the revision refuses: no tasks extension (-32021), headers that disagree (-32020), another version (-32022), removed methods (-32601)', async () => {
    const withoutExtension = await modernPost(app.url, alice.key, 'tools/call', { name: tools.slow, arguments: {} }, { tasks: false });
    expect(withoutExtension.status).toBe(400);
    expect(withoutExtension.body.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS]: {} } } } });
    const mismatch = await modernPost(app.url, alice.key, 'tools/list', {}, { headers: { 'Mcp-Method': 'tools/call' } });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error).toMatchObject({ code: -32020, data: { mismatch: { header: 'Mcp-Method', expected: 'tools/list', actual: 'tools/call' } } });
    const wrongName = await modernPost(app.url, alice.key, 'tools/call', { name: tools.quick, arguments: {} }, { headers: { 'Mcp-Name': 'other' } });
    expect(wrongName.body.error.code).toBe(-32020);
    const message = rpc('tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': '2027-01-01' } });
    const version = await mcpPost(app.url, alice.key, message, { headers: { 'MCP-Protocol-Version': '2027-01-01', 'Mcp-Method': 'tools/list' } });
    expect(version.status).toBe(400);
    expect(version.body.error).toMatchObject({ code: -32022, data: { supported: [MODERN], requested: '2027-01-01' } });
    const removed = await modernPost(app.url, alice.key, 'tasks/list', {});
    expect(removed.status).toBe(404);
    expect(removed.body.error.code).toBe(-32601);
    const stream = await fetch(`${app.url}/mcp-server`, {
      headers: { authorization: `Bearer ${alice.key}`, accept: 'text/event-stream', 'MCP-Protocol-Version': MODERN },
    });
    expect(stream.status).toBe(405);
    expect(stream.headers.get('allow')).toBe('POST');
  });
});

describe('MCP 2025-11-25 sessions: tasks as that revision shapes them', () => {
  it('the v1 SDK client sees each tool’s task support, cannot call a task-only tool directly, and runs it as a task to its result', async () => {
    // Task-required tools are listed to a session whose client declared tasks at initialize.
    const { client, transport } = sdkClient(app.url, alice.key, { capabilities: { tasks: {} } });
    await client.connect(transport);
    expect(client.getServerCapabilities()?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    const { tools: listed } = await client.listTools();
    const support = Object.fromEntries(listed.map((tool) => [tool.name, tool.execution?.taskSupport]));
    expect(support).toEqual({ [tools.quick]: 'optional', [tools.slow]: 'required', [tools.long]: 'required' });
    await expect(client.callTool({ name: tools.slow, arguments: { playerId: 'p-4' } })).rejects.toThrow();

    const kinds: string[] = [];
    let result: any;
    for await (const message of client.experimental.tasks.callToolStream({ name: tools.slow, arguments: { playerId: 'p-4' } }, CallToolResultSchema, {
      task: { ttl: 120_000 },
    })) {
      kinds.push(message.type);
      if (message.type === 'result') result = message.result;
      if (message.type === 'error') throw message.error;
    }
    expect(kinds[0]).toBe('taskCreated');
    expect(kinds.at(-1)).toBe('result');
    expect(result).toMatchObject({ isError: false, structuredContent: { body: { path: '/slow-done' } } });
    const { tasks } = await client.experimental.tasks.listTasks();
    expect(tasks[0]).toMatchObject({ status: 'completed', ttl: 120_000 });
    await client.close();
  });

  it('raw: initialize answers 2025-11-25 with the tasks capability; a call with `task` is a task whose tasks/result waits for the run', async () => {
    const init = await mcpPost(
      app.url,
      alice.key,
      rpc('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } }),
    );
    expect(init.body.result).toMatchObject({
      protocolVersion: '2025-11-25',
      capabilities: { tools: { listChanged: true }, tasks: { requests: { tools: { call: {} } } } },
    });
    const direct = await legacyPost(app.url, alice.key, 'tools/call', { name: tools.slow, arguments: { playerId: 'p-5' } });
    expect(direct.body.error).toMatchObject({ code: -32601 });

    const created = await legacyPost(app.url, alice.key, 'tools/call', { name: tools.slow, arguments: { playerId: 'p-5' }, task: { ttl: 5 } });
    expect(created.body.result.task).toMatchObject({
      status: 'working',
      ttl: 60_000,
      pollInterval: 2_000,
      createdAt: expect.any(String),
      lastUpdatedAt: expect.any(String),
    });
    const { taskId } = created.body.result.task;
    const result = await legacyPost(app.url, alice.key, 'tasks/result', { taskId });
    expect(result.body.result).toMatchObject({ isError: false, _meta: { 'io.modelcontextprotocol/related-task': { taskId } } });
    expect((await legacyPost(app.url, alice.key, 'tasks/get', { taskId })).body.result).toMatchObject({ taskId, status: 'completed' });
    const late = await legacyPost(app.url, alice.key, 'tasks/cancel', { taskId });
    expect(late.body.error).toEqual({ code: -32602, message: 'Cannot cancel task: already in terminal status completed' });
  });

  it('a session of the spec’s revision (2025-06-18) is answered as before: no tasks capability, no execution field, tools called directly', async () => {
    const init = await mcpPost(app.url, alice.key, rpc('initialize', { protocolVersion: '2025-06-18' }));
    expect(init.body.result.capabilities).toEqual({ tools: { listChanged: true } });
    const list = await mcpPost(app.url, alice.key, rpc('tools/list'));
    expect(list.body.result.tools.every((tool: Record<string, unknown>) => !('execution' in tool))).toBe(true);
  });
});

describe('tasks belong to the key that created them', () => {
  it("another operator's key, and another key of the same operator, can neither read nor cancel a task", async () => {
    const created = await modernPost(app.url, alice.key, 'tools/call', { name: tools.long, arguments: { playerId: 'p-6' } });
    const { taskId } = created.body.result;
    const bob = await mcpOperator(app.url);
    const sibling = await createApiKey(app.url, alice, 'second');
    await setMcp(app.url, alice, sibling.id, { mcp_enabled: true, mcp_workflow_allowlist: null });
    for (const key of [bob.key, sibling.key]) {
      for (const method of ['tasks/get', 'tasks/cancel', 'tasks/result']) {
        const answer = await legacyPost(app.url, key, method, { taskId });
        expect(answer.body.error).toEqual({ code: -32602, message: `Task not found: ${taskId}` });
      }
      expect((await legacyPost(app.url, key, 'tasks/list', {})).body.result.tasks).toEqual([]);
    }
    expect((await legacyPost(app.url, alice.key, 'tasks/get', { taskId })).body.result.status).toBe('working');
    expect((await legacyPost(app.url, alice.key, 'tasks/cancel', { taskId })).body.result.status).toBe('cancelled');
  });
});

describe('a task outlives the API instance that created it', () => {
  it('created in under 1 s; after a restart the new instance reports it and returns its result', async () => {
    const first = await startTestApp(SETTINGS);
    const started = Date.now();
    const ten = await modernPost(first.url, alice.key, 'tools/call', { name: tools.long, arguments: { playerId: 'p-7' } });
    const slow = await modernPost(first.url, alice.key, 'tools/call', { name: tools.slow, arguments: { playerId: 'p-8' } });
    expect(Date.now() - started).toBeLessThan(2_000);
    await first.close();

    const second = await startTestApp(SETTINGS);
    try {
      const get = await modernPost(second.url, alice.key, 'tasks/get', { taskId: ten.body.result.taskId });
      expect(get.body.result).toMatchObject({ taskId: ten.body.result.taskId, status: 'working' });
      const result = await mcpPost(second.url, alice.key, rpc('tasks/result', { taskId: slow.body.result.taskId }));
      expect(result.body.result).toMatchObject({ isError: false, structuredContent: { body: { path: '/slow-done' } } });
      await modernPost(second.url, alice.key, 'tasks/cancel', { taskId: ten.body.result.taskId });
    } finally {
      await second.close();
    }
  });
});
