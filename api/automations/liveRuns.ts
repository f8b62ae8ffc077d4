import type { LiveStep } from '../../core/automations/liveRun';
import type { AutomationRunRecord, RunStatus } from '../../core/automations/types';
import { readLiveRun, type LiveRun } from '../../temporal/runTimeline';
import type { AppDeps } from '../deps';

/**
 * How many running runs of one list page are asked for their live steps (one query and one describe each, side by
 * side): the rest of the page's running runs show their stored record, `live` absent. A page holds up to 100 runs.
 */
export const LIVE_LIST_MAX = 10;

/** What a record says about its live part: whether the workflow answered, when it was asked, how far it is, the step in flight. */
export interface LivePart {
  answered: boolean;
  readAt: string;
  done?: number;
  total?: number;
  current?: LiveStep;
}

interface RunningRow {
  id: string;
  status: RunStatus;
  temporal_workflow_id: string;
}

/** The live part of a read: answered or not, and the step in flight (the last one, when `running`). */
export function livePartOf(live: LiveRun | undefined, readAt: Date): LivePart {
  if (!live) return { answered: false, readAt: readAt.toISOString() };
  const last = live.timeline.steps.at(-1);
  const current = last?.status === 'running' ? last : undefined;
  return {
    answered: true,
    readAt: live.readAt.toISOString(),
    done: live.timeline.steps.length - (current ? 1 : 0),
    total: live.timeline.total,
    ...(current ? { current } : {}),
  };
}

/** A running run's workflow asked for its steps; undefined when it did not answer in time. */
export async function liveRunOf(deps: Pick<AppDeps, 'temporal'>, row: RunningRow): Promise<LiveRun | undefined> {
  return readLiveRun(deps.temporal, row.temporal_workflow_id);
}

/** The first {@link LIVE_LIST_MAX} running runs of a page, asked side by side; an entry per run asked (undefined: no answer). */
export async function liveRunsOfPage(deps: Pick<AppDeps, 'temporal'>, rows: readonly RunningRow[]): Promise<Map<string, LiveRun | undefined>> {
  const running = rows.filter((row) => row.status === 'running').slice(0, LIVE_LIST_MAX);
  const answers = await Promise.all(running.map((row) => liveRunOf(deps, row)));
  return new Map(running.map((row, index) => [row.id, answers[index]]));
}

/**
 * A running run's record with its live steps as `nodes` (the stored record has none until the run ends) and `live`
 * saying how fresh they are; unchanged when the run is not running or was not asked. A run that ended between the
 * stored read and the ask keeps its stored (ended) record: the next read shows it whole.
 */
export function withLiveSteps<R extends Pick<AutomationRunRecord, 'status' | 'nodes'>>(
  record: R,
  asked: { live: LiveRun | undefined; at: Date } | null,
): R & { live?: LivePart } {
  if (record.status !== 'running' || !asked) return record;
  const live = livePartOf(asked.live, asked.at);
  if (!asked.live) return { ...record, live };
  const nodes = asked.live.timeline.steps.map((step) => (step.error ? { ...step, error: { ...step.error, message: LIVE_ERROR_MESSAGE } } : step));
  return { ...record, nodes: nodes as unknown as R['nodes'], live };
}

/** A live step's error carries its code only (its message may quote personal data and is sealed when the run ends). */
const LIVE_ERROR_MESSAGE = 'Sealed: the message is in this run once it ends (GET /workflows-api/runs/:runId)';
