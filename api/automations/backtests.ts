import type { z } from 'zod';
import { cancelBacktest, requireBacktest, startBacktest, type BacktestJobs } from '../../commands/automations/backtests';
import type { BacktestRow } from '../../db/queries/backtests';
import { cancelBacktest as cancelBacktestJob, startBacktest as startBacktestJob } from '../../temporal/backtests';
import type { AppDeps } from '../deps';
import { BacktestBody, BacktestIdParams, type BacktestOutcome } from './backtestSchema';
import { AutomationIdParams } from './schema';
import { automations } from './area';

/** A backtest as `/workflows-api` shows it. */
export function toBacktestRecord(row: BacktestRow) {
  return {
    id: row.id,
    workflowId: row.automation_id,
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
export const startBacktestHandler = automations.handler(
  { input: { params: AutomationIdParams, body: BacktestBody } },
  async ({ deps, ctx, input: { params, body }, principal }) => {
    const row = await startBacktest(
      { db: deps.db, ...jobs(deps) },
      {
        operatorId: principal.operatorId,
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
  },
);

export const getBacktestHandler = automations.handler({ input: { params: BacktestIdParams } }, async ({ deps, ctx, input: { params }, principal }) => {
  ctx.body = { success: true, data: toBacktestRecord(await requireBacktest(deps, principal.operatorId, params.backtestId)) };
});

export const cancelBacktestHandler = automations.handler({ input: { params: BacktestIdParams } }, async ({ deps, ctx, input: { params }, principal }) => {
  const row = await cancelBacktest({ db: deps.db, ...jobs(deps) }, { operatorId: principal.operatorId, backtestId: params.backtestId });
  ctx.status = 202;
  ctx.body = { success: true, data: toBacktestRecord(row) };
});
