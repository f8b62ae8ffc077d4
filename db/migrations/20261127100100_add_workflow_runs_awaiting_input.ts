import type { Knex } from 'knex';

/**
 * `awaiting_input`: what a running run waits for a person or an agent to answer (an `action.approval`: its node id,
 * the rendered message, until when), sealed since the message is rendered from the run's data; null otherwise. Read
 * by the dashboard and by MCP tasks, which report such a run `input_required` without asking Temporal.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('workflow_runs', (table) => {
    table.text('awaiting_input');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('workflow_runs', (table) => {
    table.dropColumn('awaiting_input');
  });
}
