import { isSealedText } from '../../core/sealedText';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { createWorkflow, mcpOperator, modernPost, runOfTask, toolAutomation, type McpOperator } from '../helpers/mcp';
import { settledRun } from '../helpers/mcpClients';
import { startProvider, type TestProvider } from '../helpers/providerServer';

let app: TestApp;
let provider: TestProvider;
let alice: McpOperator;

beforeAll(async () => {
  app = await startTestApp();
  provider = await startProvider((request) => ({ status: 200, body: { paid: request.path } }));
  alice = await mcpOperator(app.url);
});
afterAll(async () => {
  await Promise.all([app?.close(), provider?.close()]);
});

/** A tool that asks for approval of a bonus, then pays it at the loopback provider. */
async function bonusTool(label: string, timeoutSeconds: number): Promise<string> {
  const definition = toolAutomation(`Bonus ${label}`, [
    { id: 'approve', type: 'action.approval', params: { message: 'Approve a bonus for {{ trigger.playerId }}?', timeoutSeconds } },
    { id: 'pay', type: 'action.http_request', params: { method: 'POST', url: `${provider.url}/pay/${label}` } },
  ]);
  return (await createWorkflow(app.url, alice.accessToken, definition)).mcp_tool_name;
}

async function taskUntil(taskId: string, status: string, timeoutMs = 20_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const task = (await modernPost(app.url, alice.key, 'tasks/get', { taskId })).body.result;
    if (task.status === status) return task;
    if (Date.now() > deadline) throw new Error(`task ${taskId} is ${JSON.stringify(task)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function startTask(tool: string, playerId: string): Promise<{ taskId: string; runId: string }> {
  const created = await modernPost(app.url, alice.key, 'tools/call', { name: tool, arguments: { playerId } });
  expect(created.body.result).toMatchObject({ resultType: 'task', status: 'working' });
  const { taskId } = created.body.result;
  return { taskId, runId: await runOfTask(app.deps.db, taskId) };
}

describe('an approval step: the task asks its agent for input and the answer resumes the run', () => {
  it('the task goes input_required with the rendered question as a form; accepting it approves and the run goes on', async () => {
    const tool = await bonusTool('yes', 600);
    const { taskId, runId } = await startTask(tool, 'p-9');
    const waiting = await taskUntil(taskId, 'input_required');
    expect(waiting.inputRequests).toEqual({
      approve: {
        method: 'elicitation/create',
        params: { mode: 'form', message: 'Approve a bonus for p-9?', requestedSchema: expect.objectContaining({ required: ['approved'] }) },
      },
    });
    const stored = await app.deps.db('automation_runs').where({ id: runId }).first();
    // Sealed: ciphertext, never the question (a short id like `p-9` can occur in base64 by chance; a sentence cannot).
    expect(isSealedText(stored.awaiting_input)).toBe(true);
    expect(stored.awaiting_input).not.toContain('Approve a bonus');

    const ack = await modernPost(app.url, alice.key, 'tasks/update', {
      taskId,
      inputResponses: { approve: { action: 'accept', content: { approved: true, comment: 'fine' } } },
    });
    expect(ack.body.result).toMatchObject({ resultType: 'complete' });
    const done = await taskUntil(taskId, 'completed');
    expect(done.result).toMatchObject({ isError: false, structuredContent: { status: 200, body: { paid: '/pay/yes' } } });
    const run = await settledRun(app.url, alice.key, runId);
    expect(run.nodes.find((node: { id: string }) => node.id === 'approve').output).toEqual({
      approved: true,
      answeredBy: `key:${alice.keyId}`,
      comment: 'fine',
      timedOut: false,
    });
    expect((await app.deps.db('automation_runs').where({ id: runId }).first()).awaiting_input).toBeNull();
  });

  it('a declined form refuses; an answer to nothing the run waits for changes nothing; no answer in time refuses too', async () => {
    const tool = await bonusTool('no', 600);
    const { taskId, runId } = await startTask(tool, 'p-10');
    await taskUntil(taskId, 'input_required');
    await modernPost(app.url, alice.key, 'tasks/update', { taskId, inputResponses: { other: { action: 'accept', content: { approved: true } } } });
    expect((await modernPost(app.url, alice.key, 'tasks/get', { taskId })).body.result.status).toBe('input_required');
    await modernPost(app.url, alice.key, 'tasks/update', { taskId, inputResponses: { approve: { action: 'decline' } } });
    await taskUntil(taskId, 'completed');
    const run = await settledRun(app.url, alice.key, runId);
    expect(run.nodes.find((node: { id: string }) => node.id === 'approve').output).toMatchObject({ approved: false, timedOut: false });

    // An approval that gives up within a synchronous call's wait is answered in the call itself, no task needed.
    const direct = await modernPost(app.url, alice.key, 'tools/call', { name: await bonusTool('late', 1), arguments: { playerId: 'p-11' } });
    expect(direct.body.result).toMatchObject({ resultType: 'complete', isError: false });
    const late = await settledRun(app.url, alice.key, direct.body.result._meta.execution_id);
    expect(late.nodes.find((node: { id: string }) => node.id === 'approve').output).toEqual({
      approved: false,
      answeredBy: null,
      comment: null,
      timedOut: true,
    });
  });

  it('an Owner answers in the workflows API (what the dashboard calls); a second answer is 409, another operator 404', async () => {
    const tool = await bonusTool('owner', 600);
    const { taskId, runId } = await startTask(tool, 'p-13');
    await taskUntil(taskId, 'input_required');
    const shown = await http(`${app.url}/workflows-api/runs/${runId}`, { token: alice.accessToken });
    expect(shown.body.data.awaitingInput).toEqual({ nodeId: 'approve', message: 'Approve a bonus for p-13?', until: expect.any(String) });
    expect(shown.body.data.task).toEqual({ id: taskId, status: 'input_required' });

    const bob = await mcpOperator(app.url);
    const foreign = await http(`${app.url}/workflows-api/runs/${runId}/approval`, { token: bob.accessToken, body: { approved: true } });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ success: false, error: { code: 'RUN_NOT_FOUND', message: 'Run not found' } });
    const invalid = await http(`${app.url}/workflows-api/runs/${runId}/approval`, { token: alice.accessToken, body: { approved: 'yes' } });
    expect(invalid.status).toBe(400);

    const answered = await http(`${app.url}/workflows-api/runs/${runId}/approval`, { token: alice.accessToken, body: { approved: true, comment: 'ok' } });
    expect(answered.status).toBe(200);
    const again = await http(`${app.url}/workflows-api/runs/${runId}/approval`, { token: alice.accessToken, body: { approved: false } });
    expect(again.status).toBe(409);
    expect(again.body.error).toEqual({ code: 'RUN_NOT_AWAITING_INPUT', message: 'The run is not waiting for an approval' });
    await taskUntil(taskId, 'completed');
    const run = await settledRun(app.url, alice.key, runId);
    expect(run.nodes.find((node: { id: string }) => node.id === 'approve').output).toEqual({
      approved: true,
      answeredBy: expect.stringMatching(/^member:/),
      comment: 'ok',
      timedOut: false,
    });
  });

  it('a question rendered longer than 2,000 characters is cut there', async () => {
    const definition = toolAutomation('Bonus long', [
      { id: 'approve', type: 'action.approval', params: { message: "{{ $pad('', 5000, 'x') }}", timeoutSeconds: 600 } },
    ]);
    const tool = (await createWorkflow(app.url, alice.accessToken, definition)).mcp_tool_name;
    const { taskId } = await startTask(tool, 'p-14');
    const waiting = await taskUntil(taskId, 'input_required');
    expect(waiting.inputRequests.approve.params.message).toBe('x'.repeat(2_000));
    await modernPost(app.url, alice.key, 'tasks/cancel', { taskId });
  });

  it("another operator's key cannot answer the task", async () => {
    const tool = await bonusTool('guarded', 600);
    const { taskId } = await startTask(tool, 'p-12');
    await taskUntil(taskId, 'input_required');
    const bob = await mcpOperator(app.url);
    const answer = await modernPost(app.url, bob.key, 'tasks/update', {
      taskId,
      inputResponses: { approve: { action: 'accept', content: { approved: true } } },
    });
    expect(answer.body.error).toEqual({ code: -32602, message: `Task not found: ${taskId}` });
    expect((await modernPost(app.url, alice.key, 'tasks/get', { taskId })).body.result.status).toBe('input_required');
    await modernPost(app.url, alice.key, 'tasks/cancel', { taskId });
  });
});
