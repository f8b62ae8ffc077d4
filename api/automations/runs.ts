import type { Context } from 'koa';
import { requireAutomation } from '../../commands/automations/lookup';
import { toRunRecord, toRunSummary } from '../../core/automations/runRecord';
import { findRun, findRunRecord, listRuns } from '../../db/queries/automationRuns';
import { quotaLimits, usageMonthOf, usageOf } from '../../db/queries/automationUsage';
import { runAutomationNow } from '../../temporal/automationRuns';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { operatorOf } from '../middleware/authenticate';
import type { InputOf } from '../endpoint';
import { runningRunRecord } from './presenters';
import { type ListRunsQuery, type RunIdParams, type AutomationIdParams } from './schema';

/**
 * `POST /workflows/:id/test`: runs the automation now, live (real side effects), with the body as the
 * trigger payload (source `manual`), and answers with the run — 200 once it finished, completed or
 * failed (`error.code` says why: `MISSING_TRIGGER_FIELD`, `QUOTA_EXCEEDED`, a node's code); 202 with
 * the running run when it outlasts `WORKFLOW_TEST_WAIT_MS` (a long delay); 200 with a run cancelled meanwhile.
 */
export async function testAutomationHandler(deps: AppDeps, ctx: Context, { params }: InputOf<{ params: typeof AutomationIdParams }>): Promise<void> {
  const operatorId = operatorOf(ctx);
  const body = ctx.request.body ?? {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new AppError(400, 'VALIDATION_FAILED', 'Invalid input: body must be a JSON object (the trigger payload)', {
      details: [{ field: 'body', message: 'must be an object' }],
    });
  }
  const automation = await requireAutomation(deps, operatorId, params.id);
  const outcome = await runAutomationNow(
    deps.temporal,
    { operatorId, automationId: automation.id, source: 'manual', input: body },
    { waitMs: deps.config.WORKFLOW_TEST_WAIT_MS, readRun: (runId) => findRunRecord(deps.db, deps.keyring, operatorId, runId) },
  );
  if (outcome.kind === 'not_found') throw new AppError(404, 'WORKFLOW_NOT_FOUND', 'Workflow not found');
  if (outcome.kind === 'finished') {
    ctx.body = { success: true, data: outcome.run };
    return;
  }
  const stored = await findRun(deps.db, operatorId, outcome.runId);
  // A run cancelled in Temporal (its Web UI) has closed its record: it is finished, not running.
  ctx.status = outcome.kind === 'cancelled' && stored ? 200 : 202;
  ctx.body = { success: true, data: stored ? await toRunRecord(stored, deps.keyring) : runningRunRecord(outcome.runId, automation, body) };
}

/** A workflow's runs without their sealed parts (payloads, outputs, error messages): `GET /runs/:runId` opens one. */
export async function listRunsHandler(
  deps: AppDeps,
  ctx: Context,
  { params, query }: InputOf<{ params: typeof AutomationIdParams; query: typeof ListRunsQuery }>,
): Promise<void> {
  const operatorId = operatorOf(ctx);
  await requireAutomation(deps, operatorId, params.id);
  const { rows, count } = await listRuns(deps.db, operatorId, params.id, query);
  ctx.body = { success: true, data: rows.map(toRunSummary), count };
}

export async function getRunHandler(deps: AppDeps, ctx: Context, { params }: InputOf<{ params: typeof RunIdParams }>): Promise<void> {
  const row = await findRun(deps.db, operatorOf(ctx), params.runId);
  if (!row) throw new AppError(404, 'RUN_NOT_FOUND', 'Run not found');
  ctx.body = { success: true, data: await toRunRecord(row, deps.keyring) };
}

/** `GET /usage`: this month's Actions and AI Actions against the operator's limits. */
export async function usageHandler(deps: AppDeps, ctx: Context): Promise<void> {
  const operatorId = operatorOf(ctx);
  const month = usageMonthOf(new Date());
  const [used, limits] = await Promise.all([
    usageOf(deps.db, operatorId, month),
    quotaLimits(deps.db, operatorId, { actions: deps.config.QUOTA_ACTIONS_PER_MONTH, aiActions: deps.config.QUOTA_AI_ACTIONS_PER_MONTH }),
  ]);
  const counter = (usedCount: number, limit: number) => ({ used: usedCount, limit, remaining: Math.max(0, limit - usedCount) });
  ctx.body = { success: true, data: { month, actions: counter(used.actions, limits.actions), aiActions: counter(used.aiActions, limits.aiActions) } };
}
