import { startTestApp, type TestApp } from '../helpers/app';
import { automationsClient, chain, type AutomationsClient } from '../helpers/automations';
import { http } from '../helpers/http';
import { createWorkflow, legacyPost, mcpOperator, runOfTask, toolAutomation, type McpOperator } from '../helpers/mcp';
import { settledRun } from '../helpers/mcpClients';
import { addMemberAndSignIn } from '../helpers/members';

/**
 * `POST /workflows-api/runs/:runId/cancel`: the dashboard's (and a key holder's) way to stop a running run, whoever
 * started it — an agent's MCP task too, whose run record names the task (`task: { id, status }`).
 */
let app: TestApp;
let acme: AutomationsClient;
let rival: AutomationsClient;
let agent: McpOperator;
let longToolName: string;

/** A manual workflow that waits ten minutes (a durable timer) before its last step. */
const LONG = chain('Long wait', [
  { id: 'wait', type: 'action.delay', params: { seconds: 600 } },
  { id: 'after', type: 'action.delay', params: { seconds: 1 } },
]);
const runNotFound = { success: false, error: { code: 'RUN_NOT_FOUND', message: 'Run not found' } };

beforeAll(async () => {
  app = await startTestApp({ WORKFLOW_TEST_WAIT_MS: '300' });
  [acme, rival, agent] = await Promise.all([automationsClient(app), automationsClient(app), mcpOperator(app.url)]);
  const tool = await createWorkflow(
    app.url,
    agent.accessToken,
    toolAutomation('Long review', [
      { id: 'wait', type: 'action.delay', params: { seconds: 600 } },
      { id: 'after', type: 'action.delay', params: { seconds: 1 } },
    ]),
  );
  longToolName = tool.mcp_tool_name;
});
afterAll(() => app?.close());

/** Starts a test run of the long workflow and returns it, still running (202). */
async function runningRun(client: AutomationsClient): Promise<any> {
  const workflow = await client.create(LONG);
  const started = await client.wf(`/workflows/${workflow.id}/test`, { method: 'POST', body: {} });
  expect(started.status).toBe(202);
  expect(started.body.data.status).toBe('running');
  return { ...started.body.data, workflowId: workflow.id };
}

/** Polls `GET /runs/:runId` until the run is recorded (a task answers before its run has recorded itself). */
async function recordedRun(token: string, runId: string, timeoutMs = 15_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await http(`${app.url}/workflows-api/runs/${runId}`, { token });
    if (response.status === 200) return response.body.data;
    if (Date.now() > deadline) throw new Error(`run ${runId} not recorded: ${response.status} ${response.text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('protection', () => {
  it('needs credentials (401), and a Member cannot cancel (403): the run goes on', async () => {
    const run = await runningRun(acme);
    expect(await http(`${app.url}/workflows-api/runs/${run.id}/cancel`, { method: 'POST' })).toMatchObject({
      status: 401,
      body: { success: false, error: { code: 'UNAUTHORIZED', message: 'Authorization header is required' } },
    });
    expect((await http(`${app.url}/workflows-api/runs/${run.id}/cancel`, { method: 'POST', token: 'svc_live_nope' })).status).toBe(401);
    const member = await addMemberAndSignIn(app.deps.db, app.url, acme.operator.operatorId, 'member');
    expect(await http(`${app.url}/workflows-api/runs/${run.id}/cancel`, { method: 'POST', token: member.accessToken })).toMatchObject({
      status: 403,
      body: { success: false, error: { code: 'FORBIDDEN', message: 'Only the Owner or an Admin can manage workflows' } },
    });
    expect((await http(`${app.url}/workflows-api/runs/${run.id}`, { token: member.accessToken })).body.data.status).toBe('running');
    expect((await acme.wf(`/runs/${run.id}/cancel`, { method: 'POST' })).status).toBe(202);
  });

  it("answers another operator's run and an unknown id with GET /runs/:runId's 404, and leaves the run running", async () => {
    const run = await runningRun(acme);
    const read = await rival.wf(`/runs/${run.id}`);
    const cancel = await rival.wf(`/runs/${run.id}/cancel`, { method: 'POST' });
    expect(read).toMatchObject({ status: 404, body: runNotFound });
    expect(cancel.status).toBe(404);
    expect(cancel.body).toEqual(read.body);
    expect(await acme.wf('/runs/run_00000000000000000000000000000000/cancel', { method: 'POST' })).toMatchObject({ status: 404, body: runNotFound });
    expect((await acme.wf(`/runs/${'r'.repeat(201)}/cancel`, { method: 'POST' })).status).toBe(400);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await acme.wf(`/runs/${run.id}`)).body.data.status).toBe('running');
    expect((await acme.wf(`/runs/${run.id}/cancel`, { method: 'POST' })).status).toBe(202);
  });
});

describe('cancelling', () => {
  it('409 RUN_NOT_RUNNING for a run that has ended', async () => {
    const workflow = await acme.create(chain('Instant', []));
    const started = await acme.wf(`/workflows/${workflow.id}/test`, { method: 'POST', body: {} });
    // This app answers a test run after 300 ms (WORKFLOW_TEST_WAIT_MS, for the running runs below): a busy machine may
    // answer it running, 202; it ends by itself.
    let status = started.body.data.status;
    for (let tries = 0; status === 'running' && tries < 100; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await acme.wf(`/runs/${started.body.data.id}`)).body.data.status;
    }
    expect(status).toBe('completed');
    expect(await acme.wf(`/runs/${started.body.data.id}/cancel`, { method: 'POST' })).toMatchObject({
      status: 409,
      body: { success: false, error: { code: 'RUN_NOT_RUNNING', message: 'The run has already ended (completed): only a running run can be cancelled' } },
    });
  });

  it('cancels a running run (API key): 202 with the run, which then ends cancelled with its delay cut short; a second cancel is 409', async () => {
    const run = await runningRun(acme);
    const cancelled = await acme.wf(`/runs/${run.id}/cancel`, { method: 'POST' });
    expect(cancelled.status).toBe(202);
    expect(cancelled.body).toMatchObject({ success: true, data: { id: run.id, workflowId: run.workflowId, source: 'manual' } });
    expect(cancelled.body.data).not.toHaveProperty('task');
    const ended = await settledRun(app.url, acme.key, run.id);
    expect(ended).toMatchObject({ status: 'cancelled', error: { code: 'RUN_CANCELLED', nodeId: 'wait' } });
    expect(ended.nodes.map((node: any) => [node.id, node.status])).toEqual([
      ['start', 'completed'],
      ['wait', 'cancelled'],
      ['after', 'skipped'],
    ]);
    expect(await acme.wf(`/runs/${run.id}/cancel`, { method: 'POST' })).toMatchObject({
      status: 409,
      body: { success: false, error: { code: 'RUN_NOT_RUNNING', message: 'The run has already ended (cancelled): only a running run can be cancelled' } },
    });
    const stored = await app.deps.db('automation_runs').where({ operator_id: acme.operator.operatorId, id: run.id }).first('status', 'completed_at');
    expect(stored.status).toBe('cancelled');
    expect(stored.completed_at).toBeInstanceOf(Date);
  });

  it("an agent's task: the run names it working; the Owner's session cancels the run; tasks/get says cancelled", async () => {
    const created = await legacyPost(app.url, agent.key, 'tools/call', { name: longToolName, arguments: { playerId: 'p-1' }, task: { ttl: 60_000 } });
    expect(created.status).toBe(200);
    const { taskId } = created.body.result.task;
    expect(taskId).toMatch(/^task_[0-9a-f]{32}$/);
    const runId = await runOfTask(app.deps.db, taskId);

    const recorded = await recordedRun(agent.accessToken, runId);
    expect(recorded).toMatchObject({ id: runId, source: 'mcp', status: 'running', task: { id: taskId, status: 'working' } });
    const workflowId = recorded.workflowId;
    const listed = await http(`${app.url}/workflows-api/workflows/${workflowId}/runs`, { token: agent.accessToken });
    expect(listed.body.data).toEqual([expect.objectContaining({ id: runId, task: { id: taskId, status: 'working' } })]);
    expect((await legacyPost(app.url, agent.key, 'tasks/get', { taskId })).body.result).toMatchObject({ taskId, status: 'working' });

    const cancelled = await http(`${app.url}/workflows-api/runs/${runId}/cancel`, { method: 'POST', token: agent.accessToken });
    expect(cancelled.status).toBe(202);
    expect(cancelled.body.data).toMatchObject({ id: runId, source: 'mcp', task: { id: taskId, status: 'cancelled' } });
    expect((await legacyPost(app.url, agent.key, 'tasks/get', { taskId })).body.result).toMatchObject({ taskId, status: 'cancelled' });
    expect(await app.deps.db('mcp_tasks').where({ id: taskId }).first('cancel_requested')).toEqual({ cancel_requested: true });

    const ended = await settledRun(app.url, agent.key, runId);
    expect(ended).toMatchObject({ status: 'cancelled', task: { id: taskId, status: 'cancelled' } });
    const result = await legacyPost(app.url, agent.key, 'tasks/get', { taskId });
    expect(result.body.result).toMatchObject({ taskId, status: 'cancelled' });
  });

  it("another operator neither sees an agent's task in its runs nor reaches the run", async () => {
    const created = await legacyPost(app.url, agent.key, 'tools/call', { name: longToolName, arguments: { playerId: 'p-2' }, task: { ttl: 60_000 } });
    const { taskId } = created.body.result.task;
    const runId = await runOfTask(app.deps.db, taskId);
    await recordedRun(agent.key, runId);
    expect(await rival.wf(`/runs/${runId}`)).toMatchObject({ status: 404, body: runNotFound });
    expect(await rival.wf(`/runs/${runId}/cancel`, { method: 'POST' })).toMatchObject({ status: 404, body: runNotFound });
    expect((await legacyPost(app.url, agent.key, 'tasks/get', { taskId })).body.result.status).toBe('working');
    expect((await http(`${app.url}/workflows-api/runs/${runId}/cancel`, { method: 'POST', token: agent.key })).status).toBe(202);
    expect((await settledRun(app.url, agent.key, runId)).status).toBe('cancelled');
  });
});
