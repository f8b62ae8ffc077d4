import type { Db } from '../knex';
import type { RetentionPolicy } from './settings';

const BATCH = 5000;

export interface RetentionCounts {
  archivedEvents: number;
  archivedStates: number;
  deletedEvents: number;
  deletedStates: number;
  deletedIdempotencyKeys: number;
  deletedWebhookDeliveries: number;
  /** Payloads kept out of Temporal (`temporal_payloads`) that no history can need any more. */
  deletedTemporalPayloads: number;
  /** Gateway calls past their retention (`gateway_calls`). */
  deletedGatewayCalls: number;
  deletedMcpTasks: number;
  /** Skipped-trigger records past their week (`automation_trigger_skips`). */
  deletedTriggerSkips: number;
}

async function repeat(step: () => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const affected = await step();
    total += affected;
    if (affected < BATCH) return total;
  }
}

const days = (asOf: Date, count: number) => new Date(asOf.getTime() - count * 86_400_000);

/** Moves rows older than `before` from a hot table into its archive, `BATCH` rows per statement. */
async function archive(db: Db, table: 'entity_events' | 'entity_states', operatorId: string, before: Date): Promise<number> {
  const [timeColumn, key, columns] =
    table === 'entity_events'
      ? ['created_at', 'id', 'id, operator_id, entity_id, event_type, data, created_at, occurred_at']
      : ['updated_at', 'operator_id, entity_id, state_key', 'operator_id, entity_id, state_key, value, updated_at'];
  return repeat(async () => {
    const result = await db.raw(
      `WITH moved AS (
         DELETE FROM ${table} WHERE (${key}) IN (SELECT ${key} FROM ${table} WHERE operator_id = ? AND ${timeColumn} < ? LIMIT ${BATCH})
         RETURNING ${columns})
       INSERT INTO ${table}_archive (${columns}) SELECT ${columns} FROM moved ON CONFLICT DO NOTHING`,
      [operatorId, before],
    );
    return result.rowCount ?? 0;
  });
}

async function purge(db: Db, table: string, timeColumn: string, key: string, operatorId: string, before: Date): Promise<number> {
  return repeat(async () => {
    const result = await db.raw(
      `DELETE FROM ${table} WHERE (${key}) IN (SELECT ${key} FROM ${table} WHERE operator_id = ? AND ${timeColumn} < ? LIMIT ${BATCH})`,
      [operatorId, before],
    );
    return result.rowCount ?? 0;
  });
}

/**
 * Applies one operator's retention as of `asOf`: rows past `hot_days` move to archive tables, archived
 * rows past `archive_days` are deleted, and anything past `dataRetentionDays` is deleted wherever it is.
 */
export async function applyOperatorRetention(
  db: Db,
  operatorId: string,
  policy: RetentionPolicy | null,
  dataRetentionDays: number | null,
  asOf: Date,
): Promise<
  Omit<
    RetentionCounts,
    'deletedIdempotencyKeys' | 'deletedWebhookDeliveries' | 'deletedTemporalPayloads' | 'deletedGatewayCalls' | 'deletedMcpTasks' | 'deletedTriggerSkips'
  >
> {
  const counts = { archivedEvents: 0, archivedStates: 0, deletedEvents: 0, deletedStates: 0 };
  const stateKey = 'operator_id, entity_id, state_key';
  if (policy?.entity_events) {
    counts.archivedEvents += await archive(db, 'entity_events', operatorId, days(asOf, policy.entity_events.hot_days));
    counts.deletedEvents += await purge(db, 'entity_events_archive', 'created_at', 'id', operatorId, days(asOf, policy.entity_events.archive_days));
  }
  if (policy?.entity_states) {
    counts.archivedStates += await archive(db, 'entity_states', operatorId, days(asOf, policy.entity_states.hot_days));
    counts.deletedStates += await purge(db, 'entity_states_archive', 'updated_at', stateKey, operatorId, days(asOf, policy.entity_states.archive_days));
  }
  if (dataRetentionDays) {
    const before = days(asOf, dataRetentionDays);
    counts.deletedEvents += await purge(db, 'entity_events', 'created_at', 'id', operatorId, before);
    counts.deletedEvents += await purge(db, 'entity_events_archive', 'created_at', 'id', operatorId, before);
    counts.deletedStates += await purge(db, 'entity_states', 'updated_at', stateKey, operatorId, before);
    counts.deletedStates += await purge(db, 'entity_states_archive', 'updated_at', stateKey, operatorId, before);
  }
  return counts;
}

/** Operators that have any retention configured. */
export async function operatorsWithRetention(
  db: Db,
): Promise<Array<{ operator_id: string; retention_policy: RetentionPolicy | null; data_retention_days: number | null }>> {
  return db('operator_settings')
    .whereNotNull('retention_policy')
    .orWhereNotNull('data_retention_days')
    .select('operator_id', 'retention_policy', 'data_retention_days');
}

/**
 * Forgets every operator's expired idempotency keys, by the database's clock: the one `claimIdempotencyKey` takes a key
 * over by. A retention run's `asOf` dates operators' policies; a run dated ahead must not forget a key still live,
 * or a request racing its own repeat is written twice.
 */
export async function purgeExpiredIdempotencyKeys(db: Db): Promise<number> {
  return repeat(async () => {
    const result = await db.raw(
      `DELETE FROM idempotency_keys WHERE (operator_id, key) IN (SELECT operator_id, key FROM idempotency_keys WHERE expires_at < now() LIMIT ${BATCH})`,
    );
    return result.rowCount ?? 0;
  });
}
