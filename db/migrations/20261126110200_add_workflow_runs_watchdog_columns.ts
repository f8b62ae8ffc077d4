import type { Knex } from 'knex';

/**
 * What the run watchdog (`worker/runWatchdog.ts`) reads to find runs that may be stuck without asking Temporal about
 * every run: `waiting_until`, when a run sleeps in a long `action.delay` (it is expected to be quiet until then), and
 * `checked_at`, when the watchdog last found it healthy.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('workflow_runs', (table) => {
    table.timestamp('waiting_until', { useTz: true });
    table.timestamp('checked_at', { useTz: true });
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('workflow_runs', (table) => {
    table.dropColumn('waiting_until');
    table.dropColumn('checked_at');
  });
}
