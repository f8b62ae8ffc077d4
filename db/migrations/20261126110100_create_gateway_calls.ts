import type { Knex } from 'knex';

/**
 * Gateway calls whose outcome must outlive the request that made them: every POST and PATCH sent for `POST /gateway`
 * (inserted when the send begins, so a call id is sent at most once, and read back by `GET /gateway/calls/:callId`
 * when the caller was told the outcome is unknown), and answers too large for Temporal, handed to the API through
 * here. `answer` is the translated provider answer, sealed. Purged by the retention run after `expires_at`.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('gateway_calls', (table) => {
    table.text('id').notNullable();
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('connection_id').notNullable();
    table.text('operation').notNullable();
    table.text('method').notNullable();
    table.text('state').notNullable();
    table.integer('provider_status');
    table.boolean('ok');
    table.text('message');
    table.integer('latency_ms');
    table.text('answer');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.timestamp('finished_at', { useTz: true });
    table.timestamp('expires_at', { useTz: true }).notNullable();
    table.primary(['operator_id', 'id']);
    table.index(['expires_at'], 'gateway_calls_expires_idx');
  });
  await db.raw("ALTER TABLE gateway_calls ADD CONSTRAINT gateway_calls_state_check CHECK (state IN ('sending', 'answered'))");
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('gateway_calls');
}
