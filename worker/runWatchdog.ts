import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { decodeOptionalFailureToOptionalError } from '@temporalio/common/lib/internal-non-workflow/codec-helpers';
import type { Logger } from 'pino';
import type { ActivityMetrics } from '../activities/metrics';
import type { Keyring } from '../core/crypto';
import type { RunError } from '../core/automations/types';
import type { FinishRunInput } from '../core/workflowContracts';
import { openOutcome } from '../temporal/automationRuns';
import type { PayloadRefs } from '../temporal/payloadRefs';
import type { automationRunWorkflow } from '../workflows/automationRun';
import type { Db } from '../db/knex';
import { finishRun } from '../db/queries/automationRuns';
import { markRunChecked, runsToWatch, type WatchedRun } from '../db/queries/runWatch';

export interface WatchdogDeps {
  db: Db;
  client: Client;
  /** Reads back the stored values a handed-back outcome references. */
  refs: Pick<PayloadRefs, 'resolve'>;
  keyring: Keyring;
  logger: Logger;
  /** Workflow task attempts after which a run is given up (RUN_POISON_TASK_ATTEMPTS). */
  poisonAttempts: number;
  /** Counts the runs the watchdog ends, as the worker counts those its runs end themselves. */
  metrics?: Pick<ActivityMetrics, 'runFinished'>;
  /**
   * A run quiet this long is looked at (default a minute); one found healthy is not looked at again for `recheckMs`
   * (five minutes), or `sleepingRecheckMs` (a day) while it sleeps in a delay.
   */
  quietMs?: number;
  recheckMs?: number;
  sleepingRecheckMs?: number;
  /** How long after the first failed read a run whose handed-back outcome cannot be read is given up (an hour). */
  unreadableOutcomeMs?: number;
  /** Looks at this operator's runs only (a reconcile of one tenant); the schedule's pass serves every operator. */
  operatorId?: string;
}

const QUIET_MS = 60_000;
const RECHECK_MS = 5 * 60_000;
const SLEEPING_RECHECK_MS = 24 * 60 * 60_000;
const BATCH = 200;
const CONCURRENCY = 8;
const MESSAGE_LIMIT = 500;
const UNREADABLE_OUTCOME_MS = 60 * 60_000;

const clip = (text: string) => (text.length > MESSAGE_LIMIT ? `${text.slice(0, MESSAGE_LIMIT - 1)}…` : text);

/** Why the run's last workflow task failed, from its history (newest first), opened with the platform's codec. */
async function lastTaskFailure(client: Client, workflowId: string): Promise<string | undefined> {
  const { history } = await client.workflowService.getWorkflowExecutionHistoryReverse({
    namespace: client.options.namespace,
    execution: { workflowId },
    maximumPageSize: 50,
  });
  const failed = history?.events?.find((event) => event.workflowTaskFailedEventAttributes)?.workflowTaskFailedEventAttributes;
  const error = await decodeOptionalFailureToOptionalError(client.options.loadedDataConverter, failed?.failure).catch(() => undefined);
  return error?.message;
}

type Verdict =
  | { kind: 'healthy' }
  /** `ran`: the workflow completed, so its actions ran and its reservation stays charged. */
  | { kind: 'fail'; error: RunError; terminate: boolean; ran?: boolean }
  | { kind: 'ended'; outcome: FinishRunInput };

async function judge(deps: WatchdogDeps, run: WatchedRun): Promise<Verdict> {
  let description;
  try {
    description = await deps.client.workflow.getHandle(run.temporal_workflow_id).describe();
  } catch (error) {
    if (!(error instanceof WorkflowNotFoundError)) throw error;
    return { kind: 'fail', terminate: false, error: { code: 'RUN_LOST', message: 'Temporal holds no workflow for this run any more: it cannot finish' } };
  }
  const status = description.status.name;
  if (status === 'COMPLETED') {
    // A run that handed its outcome to the caller that began it, which did not live to store it.
    try {
      const result = await deps.client.workflow.getHandle<typeof automationRunWorkflow>(run.temporal_workflow_id).result();
      if (result.kind === 'ended') return { kind: 'ended', outcome: await openOutcome(deps.refs, run.temporal_workflow_id, result.outcome) };
    } catch (error) {
      // Tried again at every pass (a store or a key briefly away); an outcome still unreadable an hour after the first
      // failed read never will be. That read is marked as the run's check, the only one after its workflow closed.
      const closedAt = description.closeTime?.getTime();
      const failedSince = closedAt !== undefined && run.checked_at && run.checked_at.getTime() >= closedAt ? run.checked_at.getTime() : undefined;
      if (failedSince === undefined) await markRunChecked(deps.db, run);
      if (failedSince === undefined || Date.now() - failedSince < (deps.unreadableOutcomeMs ?? UNREADABLE_OUTCOME_MS)) throw error;
      const message = `The run's workflow completed, and its outcome could not be read: ${(error as Error).message}`;
      return { kind: 'fail', terminate: false, ran: true, error: { code: 'RUN_ABANDONED', message: clip(message) } };
    }
  }
  if (status !== 'RUNNING') {
    const how = status.toLowerCase().replace(/_/g, ' ');
    return { kind: 'fail', terminate: false, error: { code: 'RUN_ABANDONED', message: `The run's workflow ended (${how}) without recording an outcome` } };
  }
  const attempt = description.raw.pendingWorkflowTask?.attempt ?? 0;
  if (attempt < deps.poisonAttempts) return { kind: 'healthy' };
  const reason = await lastTaskFailure(deps.client, run.temporal_workflow_id).catch(() => undefined);
  const message = `The run was stopped after its workflow task failed ${attempt} times${reason ? `: ${reason}` : ''}`;
  return { kind: 'fail', terminate: true, error: { code: 'WORKFLOW_TASK_FAILED', message: clip(message) } };
}

async function watch(deps: WatchdogDeps, run: WatchedRun): Promise<boolean> {
  const verdict = await judge(deps, run);
  if (verdict.kind === 'healthy') {
    await markRunChecked(deps.db, run);
    return false;
  }
  if (verdict.kind === 'ended') {
    const { operatorId, runId, ...result } = verdict.outcome;
    if (operatorId !== run.operator_id || runId !== run.id) throw new Error(`the workflow of run ${run.id} ended with another run's outcome`);
    const stored = await finishRun(deps.db, deps.keyring, operatorId, runId, result);
    if (stored) deps.metrics?.runFinished(stored.source, stored.status);
    deps.logger.info({ operatorId, runId, status: stored?.status }, 'run watchdog stored the outcome its caller did not');
    return true;
  }
  if (verdict.terminate) {
    await deps.client.workflow
      .getHandle(run.temporal_workflow_id)
      .terminate(`run watchdog: ${verdict.error.code}`)
      .catch((error: unknown) => {
        if (!(error instanceof WorkflowNotFoundError)) throw error;
      });
  }
  // Nodes are unknown here (the history that holds them cannot run): nothing counts as executed and the whole reservation
  // goes back — unless the workflow completed, its actions run, when all of it stays charged.
  const closed = await finishRun(deps.db, deps.keyring, run.operator_id, run.id, {
    status: 'failed',
    output: null,
    nodes: [],
    error: verdict.error,
    executed: verdict.ran ? { actions: run.reserved_actions, aiActions: run.reserved_ai_actions } : { actions: 0, aiActions: 0 },
  });
  if (closed) deps.metrics?.runFinished(closed.source, closed.status);
  deps.logger.warn(
    { operatorId: run.operator_id, runId: run.id, code: verdict.error.code, status: closed?.status },
    'run watchdog closed a run that cannot finish',
  );
  return true;
}

/**
 * One pass of the run watchdog (the `run-watchdog` Schedule, every minute): every run PostgreSQL holds `running` that has
 * been quiet for a minute is looked up in Temporal (a run asleep in a long delay once a day). A run whose workflow task has failed
 * `poisonAttempts` times in a row (a history no worker can replay, a payload it cannot open — whatever it is, it fails as
 * a task, retried by Temporal with backoff, never ending a worker) is terminated and recorded `failed`
 * (`WORKFLOW_TASK_FAILED`, with the task's own reason); a run whose workflow is gone or closed without recording its
 * outcome is recorded `failed` too (`RUN_LOST`, `RUN_ABANDONED`). Either way its reserved Actions go back to the month's
 * quota. A run whose workflow completed handing its outcome to a caller that never stored it (`ended`:
 * temporal/automationRuns.ts `runAutomationNow`) gets that outcome stored. Healthy runs are looked at again after five
 * minutes.
 *
 * @example await reconcileRuns({ db, client, keyring, logger, poisonAttempts: 5 }) // { checked: 12, closed: 1 }
 */
export async function reconcileRuns(deps: WatchdogDeps): Promise<{ checked: number; closed: number }> {
  const runs = await runsToWatch(deps.db, {
    quietMs: deps.quietMs ?? QUIET_MS,
    recheckMs: deps.recheckMs ?? RECHECK_MS,
    sleepingRecheckMs: deps.sleepingRecheckMs ?? SLEEPING_RECHECK_MS,
    limit: BATCH,
    ...(deps.operatorId ? { operatorId: deps.operatorId } : {}),
  });
  let next = 0;
  let closed = 0;
  const worker = async () => {
    while (next < runs.length) {
      const run = runs[next++]!;
      try {
        if (await watch(deps, run)) closed += 1;
      } catch (error) {
        deps.logger.warn({ runId: run.id, err: { message: (error as Error).message } }, 'run watchdog could not look at a run');
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, runs.length) }, worker));
  return { checked: runs.length, closed };
}
