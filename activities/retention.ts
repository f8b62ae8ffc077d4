import { Context } from '@temporalio/activity';
import type { Db } from '../db/knex';
import { applyOperatorRetention, operatorsWithRetention, purgeExpiredIdempotencyKeys, type RetentionCounts } from '../db/queries/retention';
import { purgeGatewayCalls } from '../db/queries/gatewayCalls';
import { purgeExpiredMcpTasks } from '../db/queries/mcpTasks';
import { purgeTemporalPayloads } from '../db/queries/temporalPayloads';
import { purgeExpiredWebhookDeliveries } from '../db/queries/webhookDeliveries';
import { purgeTriggerSkips } from '../db/queries/triggerSkips';
import { BOOKKEEPING, type ActivityDeclarations } from './declarations';

/** How long a skipped trigger stays for the designer to see (docs/workflows.md "Skipped triggers"). */
const TRIGGER_SKIP_DAYS = 7;

/**
 * How long a stored payload outlives its owner: the namespace keeps a closed history 24 hours, after which nothing reads
 * it; owners other than runs (batch jobs, e-mails, the platform's jobs) finish within minutes of their payloads.
 */
const PAYLOAD_GRACE_MS = 25 * 60 * 60_000;

export function createRetentionActivities({ db }: { db: Db }) {
  return {
    /**
     * Applies every operator's retention policy as of `asOf` (an ISO timestamp), heartbeating per operator, then
     * forgets idempotency keys and webhook delivery ids expired by the database's clock, payloads kept out of
     * Temporal that no history can still need (a run's, a day after it closed: past the namespace's retention), and
     * gateway calls past theirs.
     */
    async applyRetention(input: { asOf: string }): Promise<RetentionCounts> {
      const asOf = new Date(input.asOf);
      const totals: RetentionCounts = {
        archivedEvents: 0,
        archivedStates: 0,
        deletedEvents: 0,
        deletedStates: 0,
        deletedIdempotencyKeys: 0,
        deletedWebhookDeliveries: 0,
        deletedTemporalPayloads: 0,
        deletedGatewayCalls: 0,
        deletedMcpTasks: 0,
        deletedTriggerSkips: 0,
      };
      for (const settings of await operatorsWithRetention(db)) {
        Context.current().heartbeat(settings.operator_id);
        const counts = await applyOperatorRetention(db, settings.operator_id, settings.retention_policy, settings.data_retention_days, asOf);
        totals.archivedEvents += counts.archivedEvents;
        totals.archivedStates += counts.archivedStates;
        totals.deletedEvents += counts.deletedEvents;
        totals.deletedStates += counts.deletedStates;
      }
      totals.deletedIdempotencyKeys = await purgeExpiredIdempotencyKeys(db);
      totals.deletedWebhookDeliveries = await purgeExpiredWebhookDeliveries(db);
      totals.deletedTemporalPayloads = await purgeTemporalPayloads(db, { closedRunGraceMs: PAYLOAD_GRACE_MS, otherOwnersMaxAgeMs: PAYLOAD_GRACE_MS });
      totals.deletedGatewayCalls = await purgeGatewayCalls(db);
      totals.deletedMcpTasks = await purgeExpiredMcpTasks(db);
      totals.deletedTriggerSkips = await purgeTriggerSkips(db, TRIGGER_SKIP_DAYS);
      return totals;
    },
  };
}

/** How each of these activities meets the budget of large data (declarations.ts). */
export const RETENTION_ACTIVITIES = {
  applyRetention: BOOKKEEPING,
} satisfies ActivityDeclarations<typeof createRetentionActivities>;
