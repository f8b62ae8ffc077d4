import type { Knex } from 'knex';

/**
 * Gateway circuit breakers (spec 3.6), one per operator and provider origin, in PostgreSQL so every
 * worker process sees the same state. `trial_started_at` marks the single half-open trial call.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('circuit_breakers', (table) => {
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('provider').notNullable();
    table.text('state').notNullable().defaultTo('closed');
    table.integer('consecutive_failures').notNullable().defaultTo(0);
    table.timestamp('opened_at', { useTz: true });
    table.timestamp('trial_started_at', { useTz: true });
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.primary(['operator_id', 'provider']);
  });
  await db.raw("ALTER TABLE circuit_breakers ADD CONSTRAINT circuit_breakers_state CHECK (state IN ('closed', 'open', 'half_open'))");
  await db.raw('ALTER TABLE circuit_breakers ADD CONSTRAINT circuit_breakers_failures CHECK (consecutive_failures >= 0)');
  await db.raw("ALTER TABLE circuit_breakers ADD CONSTRAINT circuit_breakers_opened CHECK (state = 'closed' OR opened_at IS NOT NULL)");
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('circuit_breakers');
}
