import type { Context } from 'koa';
import type { z } from 'zod';
import { cancelBacktest, requireBacktest, startBacktest, type BacktestJobs } from '../../commands/automations/backtests';
import type { BacktestRow } from '../../db/queries/backtests';
import { cancelBacktest as cancelBacktestJob, startBacktest as startBacktestJob } from '../../temporal/backtests';
import type { AppDeps } from '../deps';
import type { InputOf } from '../endpoint';
import { operatorOf } from '../middleware/authenticate';
import type { BacktestBody, BacktestIdParams, BacktestOutcome } from './backtestSchema';
import type { AutomationIdParams } from './schema';

/** A backtest as `/workflows-api` shows it. */
export function toBacktestRecord(row: BacktestRow) {
  return {
    id: row.id,
    workflowId: row.workflow_id,
    status: row.status,
    version: row.version,
    baselineVersion: row.baseline_version,
    from: row.range_from.toISOString(),
    to: row.range_to.toISOString(),
    total: row.total,
    processed: row.processed,
    result: row.status === 'completed' ? (row.result as z.infer<typeof BacktestOutcome>) : null,
    error: row.error,
    created_at: row.created_at.toISOString(),
    completed_at: row.completed_at ? row.completed_at.toISOString() : null,
  };
}

const jobs = (deps: AppDeps): BacktestJobs => ({
  startBacktest: (input) => startBacktestJob(deps.temporal, input),
  cancelBacktest: (backtestId) => cancelBacktestJob(deps.temporal, backtestId),
});

/** `POST /workflows/:id/backtests`: 202 with the backtest, running. */
export async function startBacktestHandler(
  deps: AppDeps,
  ctx: Context,
  { params, body }: InputOf<{ params: typeof AutomationIdParams; body: typeof BacktestBody }>,
): Promise<void> {
  const row = await startBacktest(
    { db: deps.db, ...jobs(deps) },
    {
      operatorId: operatorOf(ctx),
      automationId: params.id,
      from: new Date(body.from),
      to: new Date(body.to),
      ...(body.version === undefined ? {} : { version: body.version }),
      ...(body.definition === undefined ? {} : { definition: body.definition }),
      ...(body.sampleOutputs === undefined ? {} : { sampleOutputs: body.sampleOutputs }),
    },
  );
  ctx.status = 202;
  ctx.body = { success: true, data: toBacktestRecord(row) };
}

export async function getBacktestHandler(deps: AppDeps, ctx: Context, { params }: InputOf<{ params: typeof BacktestIdParams }>): Promise<void> {
  ctx.body = { success: true, data: toBacktestRecord(await requireBacktest(deps, operatorOf(ctx), params.backtestId)) };
}

export async function cancelBacktestHandler(deps: AppDeps, ctx: Context, { params }: InputOf<{ params: typeof BacktestIdParams }>): Promise<void> {
  const row = await cancelBacktest({ db: deps.db, ...jobs(deps) }, { operatorId: operatorOf(ctx), backtestId: params.backtestId });
  ctx.status = 202;
  ctx.body = { success: true, data: toBacktestRecord(row) };
}
