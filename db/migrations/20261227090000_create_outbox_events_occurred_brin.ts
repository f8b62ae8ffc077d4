import type { Knex } from 'knex';

/**
 * A BRIN index on `outbox_events.occurred_at` (issue 40): a wait's registration reads the entity's matching events
 * since the wait began (db/queries/runWaits.ts `waitCandidatesSince`), and no index bounded that read by time: the
 * entity index holds only payload rows (20261123002500), so the planner walked every outbox row the operator ever
 * had, 5 ms a registration at 9,000 rows and growing with the outbox, which keeps an organisation's whole history.
 * Live events are written in time order, so a block range summary (its least and greatest time) lets the read skip
 * every range older than the wait; a BRIN entry is written only when a range is summarized, so ingest pays next to
 * nothing for it. The build holds writes to the outbox while it scans the table (1.3 s for 5 million thin rows, 601
 * MB): where the outbox is large, build it beforehand `CONCURRENTLY` (docs/production.md), and this finds it there.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('CREATE INDEX IF NOT EXISTS outbox_events_occurred_brin ON outbox_events USING brin (occurred_at) WITH (pages_per_range = 32, autosummarize = on)');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP INDEX outbox_events_occurred_brin');
}
