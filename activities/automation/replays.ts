import { topologicalOrder } from '../../core/automations/graph';
import { isTrigger } from '../../core/automations/types';
import { findAutomation } from '../../db/queries/automations';
import { findReplay, recordReplayProgress, replayCandidates, type ReplayStatus } from '../../db/queries/runReplays';
import type { ActivityDeps } from '../deps';
import { BOOKKEEPING, type ActivityDeclarations } from '../declarations';

/** One original run a replay reruns, as its workflow starts it: ids only, never a payload. */
export interface ReplayRerun {
  runId: string;
  source: string;
  triggerNodeId: string | null;
  fromNodeId: string;
  /** The version the rerun executes (`pinnedVersion`): the original's for a `run` replay, absent for `current`. */
  pinnedVersion?: number;
}

export type ReplayPage =
  /** The job is gone (its automation deleted) or no longer running (cancelled): start nothing more. */
  | { kind: 'stop'; status: ReplayStatus | 'gone' }
  | {
      kind: 'page';
      automationId: string;
      ratePerSecond: number;
      reruns: ReplayRerun[];
      /** Where the next page starts (null on an empty page), and whether this page was full (so another may follow). */
      last: { startedAt: string; id: string } | null;
      full: boolean;
    };

/**
 * The activities of `runReplayWorkflow` (workflows/runReplay.ts): the next page of original runs, and the job's progress.
 * Each rerun starts from the original's failed step (`error.nodeId`); a run refused before any step (a missing trigger
 * field, the quota) has none and is rerun from the first step after the trigger in the automation's current definition,
 * which runs every step again (core/automations/rerun.ts keeps only completed results).
 */
export function createReplayActivities({ db }: Pick<ActivityDeps, 'db'>) {
  return {
    async replayPage(input: { operatorId: string; replayId: string; after: { startedAt: string; id: string } | null; limit: number }): Promise<ReplayPage> {
      const replay = await findReplay(db, input.operatorId, input.replayId);
      if (!replay) return { kind: 'stop', status: 'gone' };
      if (replay.status !== 'running') return { kind: 'stop', status: replay.status };
      const automation = await findAutomation(db, input.operatorId, replay.automation_id);
      if (!automation) return { kind: 'stop', status: 'gone' };
      const definition = { nodes: automation.nodes, edges: automation.edges };
      const firstStep = topologicalOrder(definition).find((id) => !isTrigger(definition.nodes.find((node) => node.id === id)!.type));
      const rows = await replayCandidates(db, replay, input.after, input.limit);
      const reruns = rows.flatMap((row): ReplayRerun[] => {
        const fromNodeId = row.failed_node_id ?? firstStep;
        if (!fromNodeId) return [];
        return [
          {
            runId: row.id,
            source: row.source,
            triggerNodeId: row.trigger_node_id,
            fromNodeId,
            ...(replay.version === 'run' ? { pinnedVersion: row.automation_version } : {}),
          },
        ];
      });
      const lastRow = rows[rows.length - 1];
      return {
        kind: 'page',
        automationId: replay.automation_id,
        ratePerSecond: replay.rate_per_second,
        reruns,
        last: lastRow ? { startedAt: lastRow.cursor, id: lastRow.id } : null,
        full: rows.length >= input.limit,
      };
    },

    /** Writes the job's counters (db/queries/runReplays.ts `recordReplayProgress`) and returns its status. */
    async recordReplayProgress(input: {
      operatorId: string;
      replayId: string;
      started: number;
      unrecorded: number;
      finish?: Exclude<ReplayStatus, 'running'>;
    }): Promise<ReplayStatus | 'gone'> {
      const { operatorId, replayId, ...progress } = input;
      const row = await recordReplayProgress(db, operatorId, replayId, progress);
      return row?.status ?? 'gone';
    },
  };
}

/** How each of these activities meets the budget of large data (../declarations.ts). */
export const REPLAY_ACTIVITIES = {
  replayPage: BOOKKEEPING,
  recordReplayProgress: BOOKKEEPING,
} satisfies ActivityDeclarations<typeof createReplayActivities>;
