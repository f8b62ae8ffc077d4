import { ElicitRequestSchema, CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { createWorkflow, legacyPost, mcpOperator, mcpPost, rpc, runOfTask, toolAutomation, type McpOperator } from '../helpers/mcp';
import { postAcceptingStream, sdkClient, settledRun } from '../helpers/mcpClients';
import { startProvider, type TestProvider } from '../helpers/providerServer';

/**
 * MCP 2025-11-25 task input: a task whose run waits in an approval is `input_required`, and the client's `tasks/result`
 * stream carries the form (`elicitation/create`, tagged with the task) when the session declared form elicitation.
 */
const SETTINGS = { MCP_HEARTBEAT_MS: '300' };
const RELATED = 'io.modelcontextprotocol/related-task';
let app: TestApp;
let provider: TestProvider;
let alice: McpOperator;
let tool: string;

beforeAll(async () => {
  app = await startTestApp(SETTINGS);
  provider = await startProvider((request) => ({ status: 200, body: { paid: request.path } }));
  alice = await mcpOperator(app.url);
  const definition = toolAutomation('Bonus', [
    { id: 'approve', type: 'action.approval', params: { message: 'Approve a bonus for {{ trigger.playerId }}?', timeoutSeconds: 600 } },
    { id: 'pay', type: 'action.http_request', params: { method: 'POST', url: `${provider.url}/pay/{{ trigger.playerId }}` } },
  ]);
  tool = (await createWorkflow(app.url, alice.accessToken, definition)).mcp_tool_name;
});
afterAll(async () => {
  await Promise.all([app?.close(), provider?.close()]);
});

/** Opens a raw 2025-11-25 session with the given client capabilities; its requests carry the issued session id. */
async function session(key: string, capabilities: Record<string, unknown>) {
  const init = await mcpPost(app.url, key, rpc('initialize', { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'raw', version: '1' } }));
  const sessionId = init.headers.get('mcp-session-id')!;
  const headers = { 'MCP-Protocol-Version': '2025-11-25', 'Mcp-Session-Id': sessionId };
  return {
    sessionId,
    headers,
    post: (message: unknown, baseUrl = app.url, as = key) => mcpPost(baseUrl, as, message, { headers }),
  };
}

async function inputRequired(key: string, taskId: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while ((await legacyPost(app.url, key, 'tasks/get', { taskId })).body.result.status !== 'input_required') {
    if (Date.now() > deadline) throw new Error(`task ${taskId} never waited for input`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('2025-11-25: a task waiting in an approval asks its client on the tasks/result stream', () => {
  it('the v1 SDK client, declaring form elicitation, is shown the form, answers it, and gets the result of the run it resumed', async () => {
    const { client, transport } = sdkClient(app.url, alice.key, { capabilities: { elicitation: { form: {} } } });
    const asked: any[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params);
      return { action: 'accept', content: { approved: true, comment: 'agent ok' } };
    });
    await client.connect(transport);
    const kinds: string[] = [];
    let result: any;
    let taskId = '';
    for await (const message of client.experimental.tasks.callToolStream({ name: tool, arguments: { playerId: 'p-21' } }, CallToolResultSchema, {
      task: { ttl: 120_000 },
    })) {
      kinds.push(message.type === 'taskStatus' ? `status:${message.task.status}` : message.type);
      if (message.type === 'taskCreated') taskId = message.task.taskId;
      if (message.type === 'result') result = message.result;
      if (message.type === 'error') throw message.error;
    }
    expect(kinds).toContain('status:input_required');
    expect(kinds.at(-1)).toBe('result');
    expect(asked).toEqual([
      {
        mode: 'form',
        message: 'Approve a bonus for p-21?',
        requestedSchema: expect.objectContaining({ required: ['approved'] }),
        _meta: { [RELATED]: { taskId } },
      },
    ]);
    expect(result).toMatchObject({ isError: false, structuredContent: { status: 200, body: { paid: '/pay/p-21' } }, _meta: { [RELATED]: { taskId } } });
    const run = await settledRun(app.url, alice.key, await runOfTask(app.deps.db, taskId));
    expect(run.nodes.find((node: { id: string }) => node.id === 'approve').output).toEqual({
      approved: true,
      answeredBy: `key:${alice.keyId}`,
      comment: 'agent ok',
      timedOut: false,
    });
    await client.close();
  });

  it('raw: the answer may reach any instance; another operator’s answer to the same request changes nothing; a decline refuses', async () => {
    const raw = await session(alice.key, { elicitation: {} });
    expect(raw.sessionId).toMatch(/^mcpse_/);
    const created = await raw.post(rpc('tools/call', { name: tool, arguments: { playerId: 'p-22' }, task: { ttl: 60_000 } }));
    const { taskId } = created.body.result.task;
    await inputRequired(alice.key, taskId);

    const waiting = await postAcceptingStream(app.url, alice.key, rpc('tasks/result', { taskId }), raw.headers);
    expect(waiting.contentType).toMatch(/^text\/event-stream/);
    await waiting.waitFor(() => waiting.messages.some((message) => message.method === 'elicitation/create'));
    const form = waiting.messages.find((message) => message.method === 'elicitation/create');
    expect(form).toMatchObject({ jsonrpc: '2.0', id: expect.any(String), params: { message: 'Approve a bonus for p-22?', _meta: { [RELATED]: { taskId } } } });

    const bob = await mcpOperator(app.url);
    const foreign = await raw.post({ jsonrpc: '2.0', id: form.id, result: { action: 'accept', content: { approved: true } } }, app.url, bob.key);
    expect(foreign.status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await legacyPost(app.url, alice.key, 'tasks/get', { taskId })).body.result.status).toBe('input_required');

    const second = await startTestApp(SETTINGS);
    try {
      const declined = await raw.post({ jsonrpc: '2.0', id: form.id, result: { action: 'decline' } }, second.url);
      expect(declined.status).toBe(202);
    } finally {
      await second.close();
    }
    await waiting.ended;
    const answer = waiting.messages.at(-1);
    expect(answer.id).not.toBe(form.id);
    expect(answer.result).toMatchObject({ isError: false, _meta: { [RELATED]: { taskId } } });
    const run = await settledRun(app.url, alice.key, await runOfTask(app.deps.db, taskId));
    expect(run.nodes.find((node: { id: string }) => node.id === 'approve').output).toMatchObject({ approved: false, timedOut: false });
    expect(waiting.messages.filter((message) => message.method === 'elicitation/create')).toHaveLength(1);
  });

  it('raw: a session that declared no elicitation waits on pings alone, and an approval in the dashboard ends the wait with the result', async () => {
    const raw = await session(alice.key, {});
    expect(raw.sessionId).toMatch(/^mcps_/);
    const created = await raw.post(rpc('tools/call', { name: tool, arguments: { playerId: 'p-23' }, task: { ttl: 60_000 } }));
    const { taskId } = created.body.result.task;
    await inputRequired(alice.key, taskId);
    const waiting = await postAcceptingStream(app.url, alice.key, rpc('tasks/result', { taskId }), raw.headers);
    await waiting.waitFor(() => waiting.comments.length >= 3);
    expect(waiting.messages).toEqual([]);

    const runId = await runOfTask(app.deps.db, taskId);
    const answered = await http(`${app.url}/workflows-api/runs/${runId}/approval`, { token: alice.accessToken, body: { approved: true } });
    expect(answered.status).toBe(200);
    await waiting.ended;
    expect(waiting.messages).toHaveLength(1);
    expect(waiting.messages[0].result).toMatchObject({ isError: false, structuredContent: { body: { paid: '/pay/p-23' } } });
  });
});
