import type { Knex } from 'knex';

/** Counters of rate-limiter-flexible's PostgreSQL store, shared by every API instance. UNLOGGED: losing them on a crash is harmless. */
export async function up(db: Knex): Promise<void> {
  await db.raw(`CREATE UNLOGGED TABLE rate_limits (
    key varchar(255) PRIMARY KEY,
    points integer NOT NULL DEFAULT 0,
    expire bigint
  )`);
  await db.raw('CREATE INDEX rate_limits_expire_idx ON rate_limits (expire)');
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('rate_limits');
}
