import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app';
import { createWorkflow, legacyPost, mcpOperator, runOfTask, toolAutomation, type McpOperator } from '../helpers/mcp';
import { addMemberAndSignIn } from '../helpers/members';
import { newPage } from './browser';
import { checkPage, signedInBrowser, signIn } from './steps';

/**
 * An Owner follows a run an agent started as an MCP task: the run shows the agent's task and its status, a Member
 * sees it without the "Cancel run" button, and the Owner cancels it — the run ends cancelled and the agent's
 * `tasks/get` says cancelled.
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
    toolAutomation('Manual review', [
      { id: 'review', type: 'action.delay', params: { seconds: 600 } },
      { id: 'done', type: 'action.delay', params: { seconds: 1 } },
    ]),
  );
  workflowId = tool.id;
  const created = await legacyPost(app.url, owner.key, 'tools/call', { name: tool.mcp_tool_name, arguments: { playerId: 'p-7' }, task: { ttl: 60_000 } });
  taskId = created.body.result.task.taskId;
  runId = await runOfTask(app.deps.db, taskId);
  ({ browser, page } = await signedInBrowser(app.url, owner));
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const taskStatus = async () => (await legacyPost(app.url, owner.key, 'tasks/get', { taskId })).body.result.status;

describe('a run an agent started as a task', () => {
  it('shows the task and its status in the run and the runs list', async () => {
    await page.goto(`/workflows/${workflowId}?run=${runId}`);
    const run = page.getByRole('region', { name: /^Run run_/ });
    const line = run.locator('.run-task');
    await line.waitFor({ timeout: 30_000 }).catch(async () => {
      // The task answers before its run has recorded itself: the first read may have been a 404.
      await page.reload();
      await line.waitFor({ timeout: 15_000 });
    });
    expect(await line.textContent()).toBe(`Agent task ${taskId} · working`);
    await run.getByText(/^mcp run of version 1/).waitFor();
    await page.getByRole('row', { name: /mcp · agent task/ }).waitFor();
    await run.getByRole('button', { name: 'Cancel run' }).waitFor();
    await checkPage(page, 'workflow-run-agent-task');
  });

  it('is not cancellable by a Member, who still sees the task', async () => {
    const member = await addMemberAndSignIn(app.deps.db, app.url, owner.operatorId, 'member');
    const { context, page: memberPage } = await newPage(browser, app.url);
    await signIn(memberPage, member.email, member.password);
    await memberPage.goto(`/workflows/${workflowId}?run=${runId}`);
    const run = memberPage.getByRole('region', { name: /^Run run_/ });
    await run.locator('.run-task').getByText(taskId).waitFor();
    expect(await run.getByRole('button', { name: 'Cancel run' }).count()).toBe(0);
    await context.close();
  });

  it('is cancelled by the Owner behind a confirmation: the run ends cancelled and the agent reads its task cancelled', async () => {
    const run = page.getByRole('region', { name: /^Run run_/ });
    await run.getByRole('button', { name: 'Cancel run' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this run?' });
    await dialog.getByText('the agent sees its task cancelled').waitFor();
    await checkPage(page, 'workflow-run-cancel-confirm');
    await dialog.getByRole('button', { name: 'Cancel run' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await run.getByRole('heading', { name: /cancelled$/ }).waitFor({ timeout: 30_000 });
    expect(await run.locator('.run-task').textContent()).toBe(`Agent task ${taskId} · cancelled`);
    expect(await run.getByRole('button', { name: 'Cancel run' }).count()).toBe(0);
    expect(await run.locator('ol.run-nodes > li').allTextContents()).toEqual([
      expect.stringMatching(/^start completed/),
      expect.stringMatching(/^review cancelled/),
      expect.stringMatching(/^done skipped/),
    ]);
    await checkPage(page, 'workflow-run-cancelled');
    expect(await taskStatus()).toBe('cancelled');
    expect(await app.deps.db('automation_runs').where({ operator_id: owner.operatorId, id: runId }).first('status')).toEqual({ status: 'cancelled' });
  });
});
