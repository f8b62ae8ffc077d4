import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { createWorkflow, mcpOperator, mcpPost, modernPost, rpc, runOfTask, toolAutomation, type McpOperator } from '../helpers/mcp';
import { settledRun } from '../helpers/mcpClients';
import { tasksSession, v2Client } from '../helpers/mcpTasksSession';
import { startProvider, type TestProvider } from '../helpers/providerServer';

/** A run that can wait 4 s or more is a task: the delays and the approval's timeout below decide which tool is which. */
const SETTINGS = { MCP_CALL_WAIT_MS: '4000' };

let app: TestApp;
let provider: TestProvider;
let alice: McpOperator;
const tools = { quick: '', delayed: '', approved: '', long: '' };

beforeAll(async () => {
  app = await startTestApp(SETTINGS);
  provider = await startProvider((request) => ({ status: 200, body: { path: request.path } }));
  alice = await mcpOperator(app.url);
  const post = (id: string, path: string) => ({ id, type: 'action.http_request', params: { method: 'POST', url: `${provider.url}/${path}` } });
  const create = async (name: string, actions: Parameters<typeof toolAutomation>[1]) =>
    (await createWorkflow(app.url, alice.accessToken, toolAutomation(name, actions))).mcp_tool_name;
  tools.quick = await create('V2 quick', [post('ask', 'quick')]);
  tools.delayed = await create('V2 delayed', [{ id: 'wait', type: 'action.delay', params: { seconds: 4 } }, post('tell', 'delayed')]);
  const approval = { id: 'approve', type: 'action.approval', params: { message: 'Pay {{ trigger.playerId }}?', timeoutSeconds: 600 } };
  tools.approved = await create('V2 approved', [approval, post('pay', 'paid')]);
  tools.long = await create('V2 long', [{ id: 'wait', type: 'action.delay', params: { seconds: 600 } }, post('tell', 'long')]);
});
afterAll(async () => {
  await Promise.all([app?.close(), provider?.close()]);
});

type Session = Awaited<ReturnType<typeof tasksSession>>;

/** Runs `body` with a v2 client declaring tasks and its ext-tasks session, and closes both. */
async function withSession(body: (session: Session) => Promise<void>, onInputRequest?: Parameters<typeof tasksSession>[3]): Promise<void> {
  const client = await v2Client(app.url, alice.key);
  const session = await tasksSession(client, app.url, alice.key, onInputRequest);
  try {
    await body(session);
  } finally {
    await session.close();
    await client.close();
  }
}

/** Calls a task-required tool through the session — it must become a task — and waits for the task to settle. */
async function settleTask(session: Session, name: string, playerId: string, options: { cancel?: boolean } = {}) {
  const execution = await session.callTool(name, { playerId });
  expect(execution.kind).toBe('task');
  if (options.cancel) await execution.cancel();
  const { outcome } = await execution.settle();
  return { outcome, run: await settledRun(app.url, alice.key, await runOfTask(app.deps.db, execution.handle?.taskId ?? '')) };
}

const completedAt = (path: string) => ({ status: 'completed', result: { resultType: 'complete', isError: false, structuredContent: { body: { path } } } });

describe('the official v2 client with @modelcontextprotocol/ext-tasks on 2026-07-28', () => {
  it('a delay tool runs as a task and settles completed, its result a typed CallToolResult; a quick tool answers at once', async () => {
    await withSession(async (session) => {
      expect((await settleTask(session, tools.delayed, 'p-1')).outcome).toMatchObject(completedAt('/delayed'));
      const immediate = await session.callTool(tools.quick, { playerId: 'p-1' });
      expect(immediate.kind).toBe('immediate');
      expect((await immediate.settle()).outcome).toMatchObject(completedAt('/quick'));
    });
    const client = await v2Client(app.url, alice.key);
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(Object.values(tools).sort());
    await client.close();
  });

  it('an approval tool waits in input_required; answered through the workflows API, the task settles completed', async () => {
    const asked: string[] = [];
    // The host's input handler puts the question to a person, who answers it in the dashboard (the workflows API).
    const answerInDashboard: Parameters<typeof tasksSession>[3] = async (request, context) => {
      if (request.kind !== 'elicitation') throw new Error(`unexpected input request ${request.kind}`);
      asked.push(String(request.params.message));
      const runId = await runOfTask(app.deps.db, context.taskId ?? '');
      const answered = await http(`${app.url}/workflows-api/runs/${runId}/approval`, { token: alice.accessToken, body: { approved: true, comment: 'ok' } });
      expect(answered.status).toBe(200);
      return { action: 'accept', content: { approved: true } } as never;
    };
    await withSession(async (session) => {
      const { outcome, run } = await settleTask(session, tools.approved, 'p-2');
      expect(outcome).toMatchObject(completedAt('/paid'));
      expect(asked).toEqual(['Pay p-2?']);
      const approval = run.nodes.find((node: { id: string }) => node.id === 'approve').output;
      expect(approval).toMatchObject({ approved: true, answeredBy: expect.stringMatching(/^member:/) });
    }, answerInDashboard);
  });

  it('a cancelled task settles cancelled on the client, and its run is cancelled', async () => {
    await withSession(async (session) => {
      const { outcome, run } = await settleTask(session, tools.long, 'p-3', { cancel: true });
      expect(outcome.status).toBe('cancelled');
      expect(run.status).toBe('cancelled');
    });
  });

  it('every 2026-07-28 result is typed, the result inside a completed task too', async () => {
    const created = await modernPost(app.url, alice.key, 'tools/call', { name: tools.delayed, arguments: { playerId: 'p-4' } });
    expect(created.body.result).toMatchObject({ resultType: 'task' });
    const { taskId } = created.body.result;
    await settledRun(app.url, alice.key, await runOfTask(app.deps.db, taskId));
    const done = await modernPost(app.url, alice.key, 'tasks/get', { taskId });
    expect(done.body.result).toMatchObject({ resultType: 'complete', status: 'completed', result: { resultType: 'complete', isError: false } });
    for (const [method, params] of [
      ['tools/list', {}],
      ['tools/call', { name: tools.quick, arguments: { playerId: 'p-4' } }],
      ['tasks/cancel', { taskId }],
      ['tasks/update', { taskId, inputResponses: {} }],
    ] as const) {
      expect((await modernPost(app.url, alice.key, method, params)).body.result).toMatchObject({ resultType: 'complete' });
    }
  });
});

describe('a task-required tool is listed only to a client that declared tasks', () => {
  const sync = () => [tools.quick];
  const runsOf = async (toolName: string) =>
    Number(
      (await app.deps.db('automation_runs as r').join('automations as w', 'w.id', 'r.automation_id').where('w.mcp_tool_name', toolName).count({ n: '*' }))[0]
        ?.n,
    );

  it('2026-07-28 without the extension: the v2 client sees the synchronous tools only; a call by name starts no run', async () => {
    const client = await v2Client(app.url, alice.key, { tasks: false });
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(sync());
      expect(await client.callTool({ name: tools.quick, arguments: { playerId: 'p-5' } })).toMatchObject({ isError: false });
    } finally {
      await client.close();
    }
    const before = await runsOf(tools.delayed);
    const refused = await modernPost(app.url, alice.key, 'tools/call', { name: tools.delayed, arguments: { playerId: 'p-5' } }, { tasks: false });
    expect(refused.body.error.code).toBe(-32021);
    expect(await runsOf(tools.delayed)).toBe(before);
  });

  it('2025-11-25: a session that declared tasks at initialize lists them, one that did not does not; 2025-06-18 lists every tool', async () => {
    const listed = async (protocolVersion: string, capabilities: Record<string, unknown>) => {
      const init = await mcpPost(app.url, alice.key, rpc('initialize', { protocolVersion, capabilities, clientInfo: { name: 'raw', version: '1' } }));
      const sessionId = init.headers.get('mcp-session-id') ?? '';
      const headers = { 'MCP-Protocol-Version': init.body.result.protocolVersion, 'Mcp-Session-Id': sessionId };
      const list = await mcpPost(app.url, alice.key, rpc('tools/list'), { headers });
      return { sessionId, names: list.body.result.tools.map((tool: { name: string }) => tool.name).sort() };
    };
    const plain = await listed('2025-11-25', { elicitation: {} });
    expect(plain).toEqual({ sessionId: expect.stringMatching(/^mcpse_/), names: sync() });
    const tasking = await listed('2025-11-25', { elicitation: {}, tasks: {} });
    expect(tasking).toEqual({ sessionId: expect.stringMatching(/^mcpset_/), names: Object.values(tools).sort() });
    expect((await listed('2025-06-18', {})).names).toEqual(Object.values(tools).sort());
  });
});
