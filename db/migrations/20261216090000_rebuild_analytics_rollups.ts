import type { Knex } from 'knex';

/**
 * Rebuilds the analytics rollups from the events (docs/analytics.md "Rollups"). Until this release a batch's cursor was
 * its last event with the transaction id ordered as text, so a batch spanning ids of different lengths (999 and 1000)
 * left the cursor mid-batch and the next batch counted the rest again: figures kept since then may be too high. The
 * rollups are emptied and their cursor set back to the start (the trigger that refuses a cursor moving back is
 * suspended for this one write); the watermark goes too, so the raw tables answer until the first complete pass, which
 * reads the whole history once. The player counts are kept apart from the cursor and stay.
 */
const ROLLUPS = [
  'analytics_daily',
  'analytics_player_days',
  'analytics_games',
  'analytics_game_players',
  'analytics_providers',
  'analytics_provider_players',
  'analytics_rollup_erased',
  'analytics_player_chain',
  'analytics_player_gaps',
  'analytics_first_deposits',
];

export async function up(db: Knex): Promise<void> {
  await db.raw(`TRUNCATE ${ROLLUPS.join(', ')}`);
  await db.raw('ALTER TABLE analytics_rollup_state DISABLE TRIGGER analytics_rollup_cursor_forward');
  await db('analytics_rollup_state').where({ id: 1 }).update({ cursor_xid: 0, cursor_id: '', pending_xmax: null, pending_at: null, events_read: 0 });
  await db.raw('ALTER TABLE analytics_rollup_state ENABLE TRIGGER analytics_rollup_cursor_forward');
  await db('analytics_refreshes').where({ view_set: 'analytics' }).delete();
}

/** Nothing to undo: the rollups rebuilt are the figures the events give. */
export async function down(): Promise<void> {}
