import type { Knex } from 'knex';

/**
 * The day views bucket by the event's own time (`occurred_at`) instead of its arrival, so an imported history lands on
 * its days (issue 45); the provider view splits completed deposits and withdrawals out of its all-transactions
 * `total_amount`, so a chart never adds them together. Every grouping key stays bounded: days, entity ids, and the
 * `currency` and `provider` texts bounded at ingest (core/ingestItems.ts `ANALYTICS_KEY_LIMITS`).
 */
const CURRENCY = `coalesce(nullif(ev.data->>'currency', ''), trim(s.reporting_currency), 'EUR')`;
const FROM = `FROM entity_events ev
      JOIN entities en ON en.id = ev.entity_id AND en.operator_id = ev.operator_id AND en.deleted_at IS NULL AND en.entity_type = 'player'
      LEFT JOIN operator_settings s ON s.operator_id = ev.operator_id`;
const COMPLETED = (type: string) =>
  `ev.event_type = 'transaction' AND ev.data->>'type' = '${type}' AND coalesce(ev.data->>'status', 'completed') = 'completed'`;
const AMOUNT = (field: string) => `CASE WHEN jsonb_typeof(ev.data->'${field}') = 'number' THEN (ev.data->>'${field}')::numeric ELSE 0 END`;

function daily(time: string): string {
  return `CREATE MATERIALIZED VIEW analytics_daily_mv AS
    SELECT ev.operator_id, (ev.${time} AT TIME ZONE 'UTC')::date AS day, ${CURRENCY} AS currency,
           sum(CASE WHEN ev.event_type = 'game_activity' THEN ${AMOUNT('bet_amount')} ELSE 0 END)
             - sum(CASE WHEN ev.event_type = 'game_activity' THEN ${AMOUNT('win_amount')} ELSE 0 END) AS ggr,
           sum(CASE WHEN ${COMPLETED('deposit')} THEN ${AMOUNT('amount')} ELSE 0 END) AS deposits,
           sum(CASE WHEN ${COMPLETED('withdrawal')} THEN ${AMOUNT('amount')} ELSE 0 END) AS withdrawals
      ${FROM}
     WHERE ev.data->'_redacted' IS NULL
     GROUP BY 1, 2, 3
    WITH DATA`;
}

function playerDays(time: string): string {
  return `CREATE MATERIALIZED VIEW analytics_player_days_mv AS
    SELECT ev.operator_id, (ev.${time} AT TIME ZONE 'UTC')::date AS day, ev.entity_id, ${CURRENCY} AS currency,
           bool_or(${COMPLETED('deposit')}) AS deposited
      ${FROM}
     WHERE ev.data->'_redacted' IS NULL
     GROUP BY 1, 2, 3, 4
    WITH DATA`;
}

function providers(split: boolean): string {
  const parts = split
    ? `, sum(CASE WHEN ${COMPLETED('deposit')} THEN ${AMOUNT('amount')} ELSE 0 END) AS deposits,
           sum(CASE WHEN ${COMPLETED('withdrawal')} THEN ${AMOUNT('amount')} ELSE 0 END) AS withdrawals`
    : '';
  return `CREATE MATERIALIZED VIEW analytics_providers_mv AS
    SELECT ev.operator_id, ev.data->>'provider' AS provider, ${CURRENCY} AS currency,
           count(*) AS volume, sum(${AMOUNT('amount')}) AS total_amount,
           count(*) FILTER (WHERE coalesce(ev.data->>'status', 'completed') = 'completed') AS completed${parts}
      ${FROM}
     WHERE ev.event_type = 'transaction' AND ev.data->'_redacted' IS NULL AND ev.data->>'provider' IS NOT NULL
     GROUP BY 1, 2, 3
    WITH DATA`;
}

async function rebuild(db: Knex, time: string, split: boolean): Promise<void> {
  await db.raw('DROP MATERIALIZED VIEW analytics_daily_mv');
  await db.raw(daily(time));
  await db.raw('CREATE UNIQUE INDEX analytics_daily_mv_unique ON analytics_daily_mv (operator_id, day, currency)');
  await db.raw('DROP MATERIALIZED VIEW analytics_player_days_mv');
  await db.raw(playerDays(time));
  await db.raw('CREATE UNIQUE INDEX analytics_player_days_mv_unique ON analytics_player_days_mv (operator_id, day, entity_id, currency)');
  await db.raw('DROP MATERIALIZED VIEW analytics_providers_mv');
  await db.raw(providers(split));
  await db.raw('CREATE UNIQUE INDEX analytics_providers_mv_unique ON analytics_providers_mv (operator_id, provider, currency)');
}

export async function up(db: Knex): Promise<void> {
  await rebuild(db, 'occurred_at', true);
}

export async function down(db: Knex): Promise<void> {
  await rebuild(db, 'created_at', false);
}
