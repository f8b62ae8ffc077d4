import { requireAutomation } from '../../commands/automations/lookup';
import { answerApproval } from '../../commands/runs/answerApproval';
import { cancelRun } from '../../commands/runs/cancel';
import { auditTestRun } from '../../commands/runs/testRunAudit';
import { toRunRecord, toRunSummary } from '../../core/automations/runRecord';
import { awaitingInputOf, findRun, findRunRecord, listRuns, type RunRow } from '../../db/queries/automationRuns';
import { quotaLimits, usageMonthOf, usageOf } from '../../db/queries/automationUsage';
import { findMcpTasksOfRuns, type RunTaskRow } from '../../db/queries/mcpTasks';
import { answerRunApproval, cancelAutomationRun, runAutomationNow } from '../../temporal/automationRuns';
import type { AppDeps } from '../deps';
import { actorOf } from '../actor';
import { waitedRunSteps } from '../waitedRuns';
import { AppError } from '../errors';
import { liveRunOf, liveRunsOfPage, withLiveSteps } from './liveRuns';
import { runningRunRecord, withTask } from './presenters';
import { ApprovalBody, ListRunsQuery, RunIdParams, AutomationIdParams } from './schema';
import { automations } from './area';

/**
 * `POST /workflows/:id/test`: runs the automation now, live (real side effects), with the body as the
 * trigger payload (source `manual`), and answers with the run — 200 once it finished, completed or
 * failed (`error.code` says why: `MISSING_TRIGGER_FIELD`, `QUOTA_EXCEEDED`, a node's code); 202 with
 * the running run when it outlasts `WORKFLOW_TEST_WAIT_MS` (a long delay); 200 with a run cancelled meanwhile.
 */
export const testAutomationHandler = automations.handler(
  { input: { params: AutomationIdParams }, raw: ['body'] },
  async ({ deps, ctx, input: { params }, principal, raw }) => {
    const operatorId = principal.operatorId;
    const body = raw.body ?? {};
    if (typeof body !== 'object' || Array.isArray(body)) {
      throw new AppError(400, 'VALIDATION_FAILED', 'Invalid input: body must be a JSON object (the trigger payload)', {
        details: [{ field: 'body', message: 'must be an object' }],
      });
    }
    const automation = await requireAutomation(deps, operatorId, params.id);
    const outcome = await runAutomationNow(
      deps.temporal,
      { operatorId, automationId: automation.id, source: 'manual', input: body },
      {
        ...waitedRunSteps(deps, automation),
        waitMs: deps.config.WORKFLOW_TEST_WAIT_MS,
        readRun: (runId) => findRunRecord(deps.db, deps.keyring, operatorId, runId),
      },
    );
    if (outcome.kind === 'not_found') throw new AppError(404, 'WORKFLOW_NOT_FOUND', 'Workflow not found');
    const runId = outcome.kind === 'finished' ? outcome.run.id : outcome.runId;
    const workflowVersion = outcome.kind === 'finished' ? outcome.run.workflowVersion : automation.version;
    await auditTestRun(deps, { operatorId, actor: actorOf(principal), automationId: automation.id, workflowVersion, runId });
    if (outcome.kind === 'finished') {
      ctx.body = { success: true, data: outcome.run };
      return;
    }
    const stored = await findRun(deps.db, operatorId, outcome.runId);
    // A run cancelled in Temporal (its Web UI) has closed its record: it is finished, not running.
    ctx.status = outcome.kind === 'cancelled' && stored ? 200 : 202;
    ctx.body = { success: true, data: stored ? await toRunRecord(stored, deps.keyring) : runningRunRecord(outcome.runId, automation, body) };
  },
);

/** The live MCP tasks behind these runs by run id, in one read; only an `mcp` run can be one (docs/mcp.md "Tasks"). */
async function tasksOf(deps: AppDeps, operatorId: string, rows: Array<Pick<RunRow, 'id' | 'source'>>): Promise<Map<string, RunTaskRow>> {
  const ids = rows.filter((row) => row.source === 'mcp').map((row) => row.id);
  const tasks = await findMcpTasksOfRuns(deps.db, operatorId, ids);
  return new Map(tasks.map((task) => [task.run_id, task]));
}

/** One stored run as the API shows it, its sealed parts opened and its MCP task named; a running one with its live steps (./liveRuns.ts). */
async function presentRun(deps: AppDeps, operatorId: string, row: RunRow) {
  const running = row.status === 'running';
  const [tasks, awaitingInput, live] = await Promise.all([
    tasksOf(deps, operatorId, [row]),
    running ? awaitingInputOf(deps.keyring, row) : undefined,
    running ? liveRunOf(deps, row) : undefined,
  ]);
  const record = withLiveSteps(await toRunRecord(row, deps.keyring), running ? { live, at: new Date() } : null);
  return { ...withTask(record, tasks.get(row.id)), ...(awaitingInput ? { awaitingInput } : {}) };
}

/** A workflow's runs without their sealed parts (payloads, outputs, error messages): `GET /runs/:runId` opens one. */
export const listRunsHandler = automations.handler(
  { input: { params: AutomationIdParams, query: ListRunsQuery } },
  async ({ deps, ctx, input: { params, query }, principal }) => {
    const operatorId = principal.operatorId;
    await requireAutomation(deps, operatorId, params.id);
    const { rows, count } = await listRuns(deps.db, operatorId, params.id, query);
    const [tasks, live] = await Promise.all([tasksOf(deps, operatorId, rows), liveRunsOfPage(deps, rows)]);
    const at = new Date();
    const present = (row: RunRow) => withLiveSteps(toRunSummary(row), live.has(row.id) ? { live: live.get(row.id), at } : null);
    ctx.body = { success: true, data: rows.map((row) => withTask(present(row), tasks.get(row.id))), count };
  },
);

export const getRunHandler = automations.handler({ input: { params: RunIdParams } }, async ({ deps, ctx, input: { params }, principal }) => {
  const operatorId = principal.operatorId;
  const row = await findRun(deps.db, operatorId, params.runId);
  if (!row) throw new AppError(404, 'RUN_NOT_FOUND', 'Run not found');
  ctx.body = { success: true, data: await presentRun(deps, operatorId, row) };
});

/**
 * `POST /runs/:runId/cancel`: `cancelRun` cancels the running run (any source) and marks its MCP task cancelled;
 * 202 with the run as it stands — it closes `cancelled` before its next node. 404 `RUN_NOT_FOUND`, 409 `RUN_NOT_RUNNING`.
 */
export const cancelRunHandler = automations.handler({ input: { params: RunIdParams } }, async ({ deps, ctx, input: { params }, principal }) => {
  const operatorId = principal.operatorId;
  const row = await cancelRun(
    { db: deps.db, cancelRunWorkflow: (temporalWorkflowId) => cancelAutomationRun(deps.temporal, temporalWorkflowId) },
    { operatorId, runId: params.runId },
  );
  ctx.status = 202;
  ctx.body = { success: true, data: await presentRun(deps, operatorId, row) };
});

/**
 * `POST /runs/:runId/approval`: answers the approval the run waits in — as the signed-in member (`member:<id>`) or the
 * API key (`key:<id>`); 200 with the run. 404 `RUN_NOT_FOUND`, 409 `RUN_NOT_AWAITING_INPUT`.
 */
export const approvalHandler = automations.handler(
  { input: { params: RunIdParams, body: ApprovalBody } },
  async ({ deps, ctx, input: { params, body }, principal }) => {
    const operatorId = principal.operatorId;
    const row = await answerApproval(
      { db: deps.db, keyring: deps.keyring, answerRunApproval: (workflowId, answer) => answerRunApproval(deps.temporal, workflowId, answer) },
      {
        operatorId,
        runId: params.runId,
        approved: body.approved,
        answeredBy: principal.kind === 'session' ? `member:${principal.memberId}` : `key:${principal.keyId}`,
        ...(body.comment ? { comment: body.comment } : {}),
      },
    );
    ctx.body = { success: true, data: await presentRun(deps, operatorId, row) };
  },
);

/** `GET /usage`: this month's Actions and AI Actions against the operator's limits. */
export const usageHandler = automations.handler({}, async ({ deps, ctx, principal }) => {
  const operatorId = principal.operatorId;
  const month = usageMonthOf(new Date());
  const [used, limits] = await Promise.all([
    usageOf(deps.db, operatorId, month),
    quotaLimits(deps.db, operatorId, { actions: deps.config.QUOTA_ACTIONS_PER_MONTH, aiActions: deps.config.QUOTA_AI_ACTIONS_PER_MONTH }),
  ]);
  const counter = (usedCount: number, limit: number) => ({ used: usedCount, limit, remaining: Math.max(0, limit - usedCount) });
  ctx.body = { success: true, data: { month, actions: counter(used.actions, limits.actions), aiActions: counter(used.aiActions, limits.aiActions) } };
});
