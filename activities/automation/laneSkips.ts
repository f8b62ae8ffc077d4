import { LANE_SKIP_CODES, laneSkipMessage, type LaneSkip } from '../../core/automations/laneSkips';
import { insertCappedTriggerSkips } from '../../db/queries/triggerSkips';
import { BOOKKEEPING, type ActivityDeclarations } from '../declarations';
import type { ActivityDeps } from '../deps';

/** The input of `recordLaneSkips`: one automation's held-back triggers, from one lane. */
export interface LaneSkipsInput {
  operatorId: string;
  automationId: string;
  skips: LaneSkip[];
}

/**
 * What run control held back, recorded as skipped triggers for the `automationLaneWorkflow` (workflows/automationLane.ts),
 * the key and message sealed as the dispatcher seals its messages, within the automation's records per minute
 * (db/queries/triggerSkips.ts `RUN_CONTROL_SKIPS_PER_MINUTE`).
 */
export function createLaneSkipActivities({ db, keyring }: ActivityDeps) {
  return {
    async recordLaneSkips(input: LaneSkipsInput): Promise<{ recorded: number; left: number }> {
      const { operatorId, automationId } = input;
      const context = `trigger-skip:${operatorId}:${automationId}`;
      let current: number | undefined;
      if (input.skips.some((skip) => skip.workflowVersion === undefined)) {
        const row = await db('automations').where({ operator_id: operatorId, id: automationId }).first<{ version: number } | undefined>('version');
        current = row?.version ?? 0;
      }
      const skips = input.skips.map((skip) => ({
        operatorId,
        automationId,
        automationVersion: skip.workflowVersion ?? current ?? 0,
        nodeId: skip.nodeId,
        eventId: skip.eventId,
        event: skip.event,
        reason: skip.reason,
        code: LANE_SKIP_CODES[skip.reason],
        sealedMessage: keyring.encrypt(laneSkipMessage(skip), context),
        sealedKey: skip.key === undefined ? null : keyring.encrypt(skip.key, context),
        at: new Date(skip.at),
      }));
      return insertCappedTriggerSkips(db, { operatorId, automationId }, skips);
    },
  };
}

/** How each of these activities meets the budget of large data (../declarations.ts). */
export const LANE_SKIP_ACTIVITIES = {
  recordLaneSkips: BOOKKEEPING,
} satisfies ActivityDeclarations<typeof createLaneSkipActivities>;
