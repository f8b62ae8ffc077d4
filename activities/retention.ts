import { Context } from '@temporalio/activity';
import type { Db } from '../db/knex';
import { applyOperatorRetention, operatorsWithRetention, purgeExpiredIdempotencyKeys, type RetentionCounts } from '../db/queries/retention';
import { purgeExpiredWebhookDeliveries } from '../db/queries/webhookDeliveries';

export function createRetentionActivities({ db }: { db: Db }) {
  return {
    /**
     * Applies every operator's retention policy as of `asOf` (an ISO timestamp), heartbeating per operator, then
     * forgets expired idempotency keys and webhook delivery ids.
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
      };
      for (const settings of await operatorsWithRetention(db)) {
        Context.current().heartbeat(settings.operator_id);
        const counts = await applyOperatorRetention(db, settings.operator_id, settings.retention_policy, settings.data_retention_days, asOf);
        totals.archivedEvents += counts.archivedEvents;
        totals.archivedStates += counts.archivedStates;
        totals.deletedEvents += counts.deletedEvents;
        totals.deletedStates += counts.deletedStates;
      }
      totals.deletedIdempotencyKeys = await purgeExpiredIdempotencyKeys(db, asOf);
      totals.deletedWebhookDeliveries = await purgeExpiredWebhookDeliveries(db, asOf);
      return totals;
    },
  };
}
