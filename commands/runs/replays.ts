import type { Actor } from '../../core/audit';
import type { RerunVersion } from '../../core/automations/rerun';
import { prefixedId } from '../../core/ids';
import { previewReplay, replayErrors, type ReplayErrorGroup, type ReplayPreview } from '../../db/queries/replaySelection';
import { createReplay, findReplay, markReplayCancelled, recordReplayProgress, type ReplayRow } from '../../db/queries/runReplays';
import { requireAutomation } from '../automations/lookup';
import type { CommandDeps } from '../deps';
import { recordAuditAct } from '../audit';
import { CommandError } from '../errors';

/** The most failed runs one replay job reruns: a wider range is refused, to be split into several jobs. */
export const MAX_REPLAY_RUNS = 10_000;
/** Reruns a replay starts per second when the request names no rate; at most `MAX_REPLAY_RATE`. */
export const DEFAULT_REPLAY_RATE = 5;
export const MAX_REPLAY_RATE = 50;
/** Runs a preview lists (the oldest), and rerun ids a replay lists per error code. */
export const REPLAY_PREVIEW_SAMPLE = 5;
export const REPLAY_ERROR_IDS = 5;

/**
 * Starts and cancels a replay job's Temporal workflow (temporal/automationReruns.ts), handed in by the caller since
 * commands sit below temporal/ in the layers.
 */
export interface ReplayWorkflows {
  startReplay: (input: { operatorId: string; replayId: string }) => Promise<unknown>;
  cancelReplay: (replayId: string) => Promise<unknown>;
}

export interface ReplayInput {
  operatorId: string;
  automationId: string;
  from: Date;
  to: Date;
  version: RerunVersion;
  ratePerSecond: number;
  /** Who asks: the replay is on the audit trail as `automation.replay_started`. */
  actor: Actor;
}

const notFound = () => new CommandError('REPLAY_NOT_FOUND', 'Replay not found');

const emptyRange = () => new CommandError('VALIDATION_FAILED', 'Invalid input: to must be after from', [{ field: 'to', message: 'must be after from' }]);

/**
 * What a replay of `[from, to)` would rerun if created now, without creating it: how many runs (one per trigger event,
 * its latest attempt, db/queries/replaySelection.ts), how many per error code, and the oldest few. Same refusals as
 * `startReplay`, except that more than `MAX_REPLAY_RUNS` is reported (the caller compares), not refused.
 */
export async function previewReplayRange(
  deps: Pick<CommandDeps, 'db'>,
  input: Pick<ReplayInput, 'operatorId' | 'automationId' | 'from' | 'to'>,
): Promise<ReplayPreview> {
  const automation = await requireAutomation(deps, input.operatorId, input.automationId);
  if (input.to.getTime() <= input.from.getTime()) throw emptyRange();
  const scope = { operatorId: input.operatorId, automationId: automation.id, from: input.from, to: input.to, asOf: new Date() };
  return previewReplay(deps.db, scope, REPLAY_PREVIEW_SAMPLE);
}

/** A replay's reruns that did not complete, grouped by error code, each group with its first rerun ids. */
export function replayErrorGroups(deps: Pick<CommandDeps, 'db'>, row: ReplayRow): Promise<ReplayErrorGroup[]> {
  return replayErrors(deps.db, row.operator_id, row.id, REPLAY_ERROR_IDS);
}

/**
 * Creates a bulk replay of an automation's failed runs started in `[from, to)` — per trigger event its latest attempt, only
 * when that failed (db/queries/replaySelection.ts) — and starts its job (docs/workflows.md
 * "Rerun and replay"). `WORKFLOW_NOT_FOUND` (another operator's automation too); `VALIDATION_FAILED` naming `to` when
 * the range is empty or holds more than `MAX_REPLAY_RUNS` failed runs; `REPLAY_ALREADY_RUNNING` while the automation
 * has a running replay.
 */
export async function startReplay(deps: Pick<CommandDeps, 'db'> & ReplayWorkflows, input: ReplayInput): Promise<ReplayRow> {
  const automation = await requireAutomation(deps, input.operatorId, input.automationId);
  if (input.to.getTime() <= input.from.getTime()) throw emptyRange();
  const created = await createReplay(deps.db, {
    id: prefixedId('rpl'),
    operatorId: input.operatorId,
    automationId: automation.id,
    from: input.from,
    to: input.to,
    version: input.version,
    ratePerSecond: input.ratePerSecond,
    maxRuns: MAX_REPLAY_RUNS,
  });
  if (created.kind === 'busy') {
    throw new CommandError('REPLAY_ALREADY_RUNNING', `This workflow already has a running replay (${created.runningId}): wait for it or cancel it`, {
      replayId: created.runningId,
    });
  }
  if (created.kind === 'too_many') {
    const message = `the range holds ${created.count} failed runs, more than ${MAX_REPLAY_RUNS} a replay reruns: narrow it`;
    throw new CommandError('VALIDATION_FAILED', `Invalid input: ${message}`, [{ field: 'to', message }]);
  }
  try {
    await deps.startReplay({ operatorId: input.operatorId, replayId: created.row.id });
  } catch (error) {
    await recordReplayProgress(deps.db, input.operatorId, created.row.id, { started: 0, unrecorded: 0, finish: 'failed' });
    throw error;
  }
  const row = created.row;
  await recordAuditAct(deps.db, {
    operatorId: input.operatorId,
    actor: input.actor,
    action: 'automation.replay_started',
    target: { type: 'automation', id: automation.id },
    record: { replayId: row.id, from: input.from.toISOString(), to: input.to.toISOString(), version: input.version, total: row.total },
    summary: `Replay ${row.id} of ${row.total} failed run${row.total === 1 ? '' : 's'} started ${input.from.toISOString()} to ${input.to.toISOString()} (version: ${input.version})`,
  });
  return row;
}

/** A replay of the operator: `REPLAY_NOT_FOUND` for an unknown id and another operator's alike. */
export async function requireReplay(deps: Pick<CommandDeps, 'db'>, operatorId: string, replayId: string): Promise<ReplayRow> {
  const row = await findReplay(deps.db, operatorId, replayId);
  if (!row) throw notFound();
  return row;
}

/**
 * Cancels a running replay: it starts no further rerun, and reruns already started run to their end (its counters keep
 * counting them). `REPLAY_NOT_FOUND`; `REPLAY_NOT_RUNNING` once it has ended.
 */
export async function cancelReplay(
  deps: Pick<CommandDeps, 'db'> & ReplayWorkflows,
  input: { operatorId: string; replayId: string; actor: Actor },
): Promise<ReplayRow> {
  const row = await requireReplay(deps, input.operatorId, input.replayId);
  const cancelled = await markReplayCancelled(deps.db, input.operatorId, row.id);
  if (!cancelled) throw new CommandError('REPLAY_NOT_RUNNING', `The replay has already ended (${row.status})`);
  await deps.cancelReplay(row.id);
  await recordAuditAct(deps.db, {
    operatorId: input.operatorId,
    actor: input.actor,
    action: 'automation.replay_cancelled',
    target: { type: 'automation', id: row.automation_id },
    record: { replayId: row.id, started: cancelled.started, total: cancelled.total },
    summary: `Replay ${row.id} cancelled after ${cancelled.started} of ${cancelled.total} reruns`,
  });
  return cancelled;
}
