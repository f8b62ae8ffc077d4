import type { Knex } from 'knex';

/**
 * One operator's stored events in recorded order: what a backtest pages (db/queries/backtests.ts `historyPage`),
 * `seq` after its cursor within the job's range. Without it each page would scan every tenant's outbox.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('CREATE INDEX IF NOT EXISTS outbox_events_operator_seq_idx ON outbox_events (operator_id, seq)');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP INDEX IF EXISTS outbox_events_operator_seq_idx');
}
