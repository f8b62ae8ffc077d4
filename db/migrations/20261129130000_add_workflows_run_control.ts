import type { Knex } from 'knex';

/**
 * `run_control`: an automation's per-key concurrency, throttle, debounce and cancel-on-event of its event runs
 * (core/automations/runControl.ts), part of the definition (a change bumps `version`); null for none. Its `cancel_on`
 * events are stored in `trigger_events` too, so `outbox_event_heard` and the dispatcher route them to the automation.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('workflows', (table) => {
    table.jsonb('run_control');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('workflows', (table) => {
    table.dropColumn('run_control');
  });
}
