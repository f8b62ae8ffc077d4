import { actorOf } from '../actor';
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
import { ReplayBody, ReplayIdParams, ReplayPreviewBody, RerunBody } from './rerunSchema';
import { AutomationIdParams, RunIdParams } from './schema';
import { automations } from './area';

/** A replay job as `/workflows-api` shows it, with its reruns that did not complete by error code. */
export function toReplayRecord(row: ReplayRow, errors: ReplayErrorGroup[] = []) {
  return {
    id: row.id,
    workflowId: row.automation_id,
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
export const rerunHandler = automations.handler(
  { input: { params: RunIdParams, body: RerunBody } },
  async ({ deps, ctx, input: { params, body }, principal }) => {
    const data = await rerunRun(
      { db: deps.db, startRerun: (input) => startRerun(deps.temporal, input) },
      { operatorId: principal.operatorId, runId: params.runId, fromNodeId: body.fromNodeId, version: body.version ?? 'run', actor: actorOf(principal) },
    );
    ctx.status = 202;
    ctx.body = { success: true, data };
  },
);

/** `POST /workflows/:id/replays`: 202 with the replay job, running. */
export const startReplayHandler = automations.handler(
  { input: { params: AutomationIdParams, body: ReplayBody } },
  async ({ deps, ctx, input: { params, body }, principal }) => {
    const row = await startReplay(
      { db: deps.db, ...replayWorkflows(deps) },
      {
        operatorId: principal.operatorId,
        automationId: params.id,
        from: new Date(body.from),
        to: new Date(body.to),
        version: body.version ?? 'run',
        ratePerSecond: body.ratePerSecond ?? DEFAULT_REPLAY_RATE,
        actor: actorOf(principal),
      },
    );
    ctx.status = 202;
    ctx.body = { success: true, data: toReplayRecord(row) };
  },
);

/** `POST /workflows/:id/replays/preview`: what a replay of the range would rerun if created now; creates nothing. */
export const previewReplayHandler = automations.handler(
  { input: { params: AutomationIdParams, body: ReplayPreviewBody } },
  async ({ deps, ctx, input: { params, body }, principal }) => {
    const preview = await previewReplayRange(deps, {
      operatorId: principal.operatorId,
      automationId: params.id,
      from: new Date(body.from),
      to: new Date(body.to),
    });
    ctx.body = { success: true, data: { ...preview, maxRuns: MAX_REPLAY_RUNS } };
  },
);

export const getReplayHandler = automations.handler({ input: { params: ReplayIdParams } }, async ({ deps, ctx, input: { params }, principal }) => {
  const row = await requireReplay(deps, principal.operatorId, params.replayId);
  ctx.body = { success: true, data: toReplayRecord(row, await replayErrorGroups(deps, row)) };
});

export const cancelReplayHandler = automations.handler({ input: { params: ReplayIdParams } }, async ({ deps, ctx, input: { params }, principal }) => {
  const row = await cancelReplay(
    { db: deps.db, ...replayWorkflows(deps) },
    { operatorId: principal.operatorId, replayId: params.replayId, actor: actorOf(principal) },
  );
  ctx.status = 202;
  ctx.body = { success: true, data: toReplayRecord(row, await replayErrorGroups(deps, row)) };
});
