import type { Knex } from 'knex';

/**
 * The run-control keys each automation has a lane for (docs/workflows.md "Run control", "Live keys"): the dispatcher
 * admits a new key only while its automation holds fewer than `LANE_KEYS_PER_AUTOMATION`, and removes a key once its
 * lane workflow is found closed. `lane_id` is the lane's Temporal id (a SHA-256 of operator, automation and key), so no
 * key — often a player's externalId — is stored here in the clear.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('automation_lane_keys', (table) => {
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('workflow_id').notNullable();
    table.text('lane_id').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.primary(['operator_id', 'workflow_id', 'lane_id']);
  });
  await db.raw('CREATE INDEX automation_lane_keys_age_idx ON automation_lane_keys (operator_id, workflow_id, created_at)');
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('automation_lane_keys');
}
