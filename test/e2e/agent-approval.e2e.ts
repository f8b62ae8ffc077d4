import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app';
import { createWorkflow, legacyPost, mcpOperator, runOfTask, toolAutomation, type McpOperator } from '../helpers/mcp';
import { settledRun } from '../helpers/mcpClients';
import { addMemberAndSignIn } from '../helpers/members';
import { newPage } from './browser';
import { checkPage, signedInBrowser, signIn } from './steps';

/**
 * An agent's task waits in an approval step: the Owner reads the question on the run's page and approves it with a
 * comment, a Member sees the question without the buttons, and the agent's task goes on to its result.
 */
let app: TestApp;
let browser: Browser;
let page: Page;
let owner: McpOperator;
let workflowId: string;
let taskId: string;
let runId: string;

beforeAll(async () => {
  app = await startTestApp();
  owner = await mcpOperator(app.url);
  const tool = await createWorkflow(
    app.url,
    owner.accessToken,
    toolAutomation('Bonus approval', [
      { id: 'approve', type: 'action.approval', params: { message: 'Approve a bonus for {{ trigger.playerId }}?', timeoutSeconds: 3600 } },
      { id: 'done', type: 'action.delay', params: { seconds: 1 } },
    ]),
  );
  workflowId = tool.id;
  const created = await legacyPost(app.url, owner.key, 'tools/call', { name: tool.mcp_tool_name, arguments: { playerId: 'p-31' }, task: { ttl: 60_000 } });
  taskId = created.body.result.task.taskId;
  runId = await runOfTask(app.deps.db, taskId);
  const deadline = Date.now() + 30_000;
  while ((await taskStatus()) !== 'input_required') {
    if (Date.now() > deadline) throw new Error('the task never waited for its approval');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  ({ browser, page } = await signedInBrowser(app.url, owner));
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

async function taskStatus(): Promise<string> {
  return (await legacyPost(app.url, owner.key, 'tasks/get', { taskId })).body.result.status;
}

describe('a run waiting for an approval', () => {
  it('shows a Member the question without the buttons', async () => {
    const member = await addMemberAndSignIn(app.deps.db, app.url, owner.operatorId, 'member');
    const { context, page: memberPage } = await newPage(browser, app.url);
    await signIn(memberPage, member.email, member.password);
    await memberPage.goto(`/workflows/${workflowId}?run=${runId}`);
    const waiting = memberPage.getByRole('region', { name: 'Waiting for approval' });
    await waiting.getByText('Approve a bonus for p-31?').waitFor({ timeout: 30_000 });
    expect(await waiting.getByRole('button').count()).toBe(0);
    await context.close();
  });

  it('is approved by the Owner with a comment: the run goes on and the agent reads its task completed', async () => {
    await page.goto(`/workflows/${workflowId}?run=${runId}`);
    const run = page.getByRole('region', { name: /^Run run_/ });
    const waiting = page.getByRole('region', { name: 'Waiting for approval' });
    await waiting.getByText('Approve a bonus for p-31?').waitFor({ timeout: 30_000 });
    expect(await run.locator('.run-task').textContent()).toBe(`Agent task ${taskId} · input required`);
    await checkPage(page, 'workflow-run-awaiting-approval');
    await waiting.getByLabel('Comment (optional)').fill('VIP, fine');
    await waiting.getByRole('button', { name: 'Approve' }).click();

    await run.getByRole('heading', { name: /completed$/ }).waitFor({ timeout: 30_000 });
    expect(await waiting.count()).toBe(0);
    expect(await taskStatus()).toBe('completed');
    const ended = await settledRun(app.url, owner.key, runId);
    expect(ended.nodes.find((node: { id: string }) => node.id === 'approve').output).toMatchObject({
      approved: true,
      answeredBy: expect.stringMatching(/^member:/),
      comment: 'VIP, fine',
    });
    const result = await legacyPost(app.url, owner.key, 'tasks/result', { taskId });
    expect(result.body.result.isError).toBe(false);
  });
});
