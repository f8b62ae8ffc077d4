import { actorOf } from '../actor';
import type { Context } from 'koa';
import { rerunRun } from '../../commands/runs/rerun';
import {
  cancelReplay,
  DEFAULT_REPLAY_RATE,
  MAX_REPLAY_RUNS,
  previewReplayRange,
  replayErrorGroups,
  requireReplay,
  startReplay,
  type ReplayWorkflows,
} from '../../commands/runs/replays';
import type { ReplayErrorGroup } from '../../db/queries/replaySelection';
import type { ReplayRow } from '../../db/queries/runReplays';
import { cancelRunReplay, startRerun, startRunReplay } from '../../temporal/automationReruns';
import type { AppDeps } from '../deps';
import type { InputOf } from '../endpoint';
import { operatorOf } from '../middleware/authenticate';
import type { ReplayBody, ReplayIdParams, ReplayPreviewBody, RerunBody } from './rerunSchema';
import type { AutomationIdParams, RunIdParams } from './schema';

/** A replay job as `/workflows-api` shows it, with its reruns that did not complete by error code. */
export function toReplayRecord(row: ReplayRow, errors: ReplayErrorGroup[] = []) {
  return {
    id: row.id,
    workflowId: row.workflow_id,
    status: row.status,
    from: row.range_from.toISOString(),
    to: row.range_to.toISOString(),
    version: row.version,
    total: row.total,
    started: row.started,
    succeeded: row.succeeded,
    failed: row.failed,
    created_at: row.created_at.toISOString(),
    completed_at: row.completed_at ? row.completed_at.toISOString() : null,
    errors,
  };
}

const replayWorkflows = (deps: AppDeps): ReplayWorkflows => ({
  startReplay: (input) => startRunReplay(deps.temporal, input),
  cancelReplay: (replayId) => cancelRunReplay(deps.temporal, replayId),
});

/** `POST /runs/:runId/rerun`: 202 with the new run's id once its workflow is started (`rerunRun` says what it keeps). */
export async function rerunHandler(
  deps: AppDeps,
  ctx: Context,
  { params, body }: InputOf<{ params: typeof RunIdParams; body: typeof RerunBody }>,
): Promise<void> {
  const data = await rerunRun(
    { db: deps.db, startRerun: (input) => startRerun(deps.temporal, input) },
    { operatorId: operatorOf(ctx), runId: params.runId, fromNodeId: body.fromNodeId, version: body.version ?? 'run', actor: actorOf(ctx) },
  );
  ctx.status = 202;
  ctx.body = { success: true, data };
}

/** `POST /workflows/:id/replays`: 202 with the replay job, running. */
export async function startReplayHandler(
  deps: AppDeps,
  ctx: Context,
  { params, body }: InputOf<{ params: typeof AutomationIdParams; body: typeof ReplayBody }>,
): Promise<void> {
  const row = await startReplay(
    { db: deps.db, ...replayWorkflows(deps) },
    {
      operatorId: operatorOf(ctx),
      automationId: params.id,
      from: new Date(body.from),
      to: new Date(body.to),
      version: body.version ?? 'run',
      ratePerSecond: body.ratePerSecond ?? DEFAULT_REPLAY_RATE,
      actor: actorOf(ctx),
    },
  );
  ctx.status = 202;
  ctx.body = { success: true, data: toReplayRecord(row) };
}

/** `POST /workflows/:id/replays/preview`: what a replay of the range would rerun if created now; creates nothing. */
export async function previewReplayHandler(
  deps: AppDeps,
  ctx: Context,
  { params, body }: InputOf<{ params: typeof AutomationIdParams; body: typeof ReplayPreviewBody }>,
): Promise<void> {
  const preview = await previewReplayRange(deps, { operatorId: operatorOf(ctx), automationId: params.id, from: new Date(body.from), to: new Date(body.to) });
  ctx.body = { success: true, data: { ...preview, maxRuns: MAX_REPLAY_RUNS } };
}

export async function getReplayHandler(deps: AppDeps, ctx: Context, { params }: InputOf<{ params: typeof ReplayIdParams }>): Promise<void> {
  const row = await requireReplay(deps, operatorOf(ctx), params.replayId);
  ctx.body = { success: true, data: toReplayRecord(row, await replayErrorGroups(deps, row)) };
}

export async function cancelReplayHandler(deps: AppDeps, ctx: Context, { params }: InputOf<{ params: typeof ReplayIdParams }>): Promise<void> {
  const row = await cancelReplay({ db: deps.db, ...replayWorkflows(deps) }, { operatorId: operatorOf(ctx), replayId: params.replayId, actor: actorOf(ctx) });
  ctx.status = 202;
  ctx.body = { success: true, data: toReplayRecord(row, await replayErrorGroups(deps, row)) };
}
