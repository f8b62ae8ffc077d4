import type { Knex } from 'knex';

/**
 * Each organisation's pending events in order: the dispatcher claims one organisation's events at a time
 * (worker/outboxDispatch.ts), so one organisation's backlog never sits in front of another's, and finds the
 * organisations with pending events by skipping through this index rather than reading their backlogs.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('CREATE INDEX outbox_events_operator_pending_idx ON outbox_events (operator_id, seq) WHERE dispatched_at IS NULL');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP INDEX outbox_events_operator_pending_idx');
}
