import type { Knex } from 'knex';

/** All-time provider rows per operator, `transaction.provider` and currency; a missing status counts as completed. */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    CREATE MATERIALIZED VIEW analytics_providers_mv AS
    SELECT ev.operator_id,
           ev.data->>'provider' AS provider,
           coalesce(nullif(ev.data->>'currency', ''), trim(s.reporting_currency), 'EUR') AS currency,
           count(*) AS volume,
           sum(CASE WHEN jsonb_typeof(ev.data->'amount') = 'number' THEN (ev.data->>'amount')::numeric ELSE 0 END) AS total_amount,
           count(*) FILTER (WHERE coalesce(ev.data->>'status', 'completed') = 'completed') AS completed
      FROM entity_events ev
      JOIN entities en ON en.id = ev.entity_id AND en.operator_id = ev.operator_id AND en.deleted_at IS NULL AND en.entity_type = 'player'
      LEFT JOIN operator_settings s ON s.operator_id = ev.operator_id
     WHERE ev.event_type = 'transaction' AND ev.data->'_redacted' IS NULL AND ev.data->>'provider' IS NOT NULL
     GROUP BY 1, 2, 3
    WITH DATA`);
  await db.raw('CREATE UNIQUE INDEX analytics_providers_mv_unique ON analytics_providers_mv (operator_id, provider, currency)');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP MATERIALIZED VIEW analytics_providers_mv');
}
