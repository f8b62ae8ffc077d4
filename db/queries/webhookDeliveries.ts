import type { Knex } from 'knex';
import type { Db } from '../knex';

/** How long a delivery id is remembered: far longer than the 5-minute tolerance of a signed timestamp. */
export const WEBHOOK_DELIVERY_RETENTION_HOURS = 24;

export interface DeliveryKey {
  operatorId: string;
  webhookId: string;
  deliveryId: string;
}

export type DeliveryClaim = { kind: 'claimed' } | { kind: 'seen'; runId: string };

const BATCH = 5000;

/**
 * Claims a delivery id inside the caller's transaction, which then starts the run and records it with
 * `recordDeliveryRun` before committing. A concurrent delivery with the same id waits on the primary key until that
 * transaction ends, then sees its run; a rolled-back claim (the run did not start) leaves the id free for a retry.
 * An id older than the retention window is taken over as new.
 */
export async function claimDelivery(trx: Knex.Transaction, key: DeliveryKey): Promise<DeliveryClaim> {
  const claimed = await trx.raw<{ rows: unknown[] }>(
    `INSERT INTO webhook_deliveries (operator_id, webhook_id, delivery_id) VALUES (?, ?, ?)
     ON CONFLICT (operator_id, webhook_id, delivery_id) DO UPDATE SET run_id = NULL, created_at = now()
      WHERE webhook_deliveries.created_at < now() - make_interval(hours => ?)
     RETURNING delivery_id`,
    [key.operatorId, key.webhookId, key.deliveryId, WEBHOOK_DELIVERY_RETENTION_HOURS],
  );
  if (claimed.rows.length > 0) return { kind: 'claimed' };
  const seen = await trx('webhook_deliveries')
    .where({ operator_id: key.operatorId, webhook_id: key.webhookId, delivery_id: key.deliveryId })
    .first<{ run_id: string } | undefined>('run_id');
  if (!seen) throw new Error('webhook delivery vanished between its claim and its read');
  return { kind: 'seen', runId: seen.run_id };
}

export async function recordDeliveryRun(trx: Knex.Transaction, key: DeliveryKey, runId: string): Promise<void> {
  await trx('webhook_deliveries').where({ operator_id: key.operatorId, webhook_id: key.webhookId, delivery_id: key.deliveryId }).update({ run_id: runId });
}

/**
 * Platform housekeeping across operators (the daily retention run): forgets delivery ids past the retention window,
 * measured by the database's clock, the one `claimDelivery` takes an id over by (a run's `asOf` is a policy's date,
 * and one far ahead would forget every operator's live ids).
 */
export async function purgeExpiredWebhookDeliveries(db: Db): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await db.raw(
      `DELETE FROM webhook_deliveries WHERE (operator_id, webhook_id, delivery_id) IN (
         SELECT operator_id, webhook_id, delivery_id FROM webhook_deliveries
          WHERE created_at < now() - make_interval(hours => ?) LIMIT ${BATCH})`,
      [WEBHOOK_DELIVERY_RETENTION_HOURS],
    );
    const affected = result.rowCount ?? 0;
    total += affected;
    if (affected < BATCH) return total;
  }
}
