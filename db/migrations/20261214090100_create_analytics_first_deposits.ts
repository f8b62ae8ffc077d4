import type { Knex } from 'knex';

/**
 * Cohorts from the rollups (issue 45, docs/analytics.md "Cohorts"): each player's first completed deposit, kept by the
 * rollup pass (earliest `occurred_at` wins, whatever order events arrive in), with the GGR of their rounds on that day
 * before it (`pre_ftd_ggr`: a round before the FTD is not cohort GGR, and a player-day's GGR cannot tell the time of
 * day); and a `played` flag on each player-day (a game round that day), since a cohort's activity is a round or a
 * completed deposit and a player-day row alone does not say which.
 *
 * Both are filled here from the events the passes have already read (at or before the cursor), holding the rollup
 * state row's lock so no pass runs in between: one read of the event table. Stop the workers during the migration, as
 * for any rollup change.
 */
const CURRENCY = `coalesce(nullif(e.data->>'currency', ''), trim(s.reporting_currency), 'EUR')`;
const num = (field: string): string => `CASE WHEN jsonb_typeof(e.data->'${field}') = 'number' THEN (e.data->>'${field}')::numeric ELSE 0 END`;
const READ = `entity_events e
  JOIN entities en ON en.id = e.entity_id AND en.operator_id = e.operator_id AND en.deleted_at IS NULL AND en.entity_type = 'player'
  LEFT JOIN operator_settings s ON s.operator_id = e.operator_id
  WHERE e.data->'_redacted' IS NULL AND (coalesce(e.ingest_xid, 0), e.id) <= (CAST(:xid AS bigint), CAST(:id AS text))`;

export async function up(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE analytics_player_days ADD COLUMN played boolean NOT NULL DEFAULT false');
  await db.schema.createTable('analytics_first_deposits', (table) => {
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('entity_id').notNullable();
    table.text('event_id').notNullable();
    table.timestamp('occurred_at', { useTz: true }).notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.date('day').notNullable();
    table.text('currency').notNullable();
    table.decimal('amount', null).notNullable();
    table.decimal('pre_ftd_ggr', null).notNullable().defaultTo(0);
    table.primary(['operator_id', 'entity_id']);
    table.index(['operator_id', 'currency', 'day'], 'analytics_first_deposits_cohort_idx');
  });
  const state = await db.raw('SELECT cursor_xid::text AS xid, cursor_id AS id FROM analytics_rollup_state WHERE id = 1 FOR UPDATE');
  const cursor = state.rows[0] as { xid: string; id: string };
  await db.raw(
    `UPDATE analytics_player_days d SET played = true
       FROM (SELECT DISTINCT e.operator_id, e.entity_id, (e.occurred_at AT TIME ZONE 'UTC')::date AS day, ${CURRENCY} AS currency
               FROM ${READ} AND e.event_type = 'game_activity') g
      WHERE d.operator_id = g.operator_id AND d.entity_id = g.entity_id AND d.day = g.day AND d.currency = g.currency`,
    cursor,
  );
  await db.raw(
    `INSERT INTO analytics_first_deposits (operator_id, entity_id, event_id, occurred_at, created_at, day, currency, amount)
     SELECT DISTINCT ON (e.operator_id, e.entity_id) e.operator_id, e.entity_id, e.id, e.occurred_at, e.created_at,
            (e.occurred_at AT TIME ZONE 'UTC')::date, ${CURRENCY}, ${num('amount')}
       FROM ${READ} AND e.event_type = 'transaction' AND e.data->>'type' = 'deposit' AND coalesce(e.data->>'status', 'completed') = 'completed'
      ORDER BY e.operator_id, e.entity_id, e.occurred_at, e.created_at, e.id`,
    cursor,
  );
  await db.raw(
    `UPDATE analytics_first_deposits f SET pre_ftd_ggr = r.ggr
       FROM (SELECT e.operator_id, e.entity_id, sum(${num('bet_amount')} - ${num('win_amount')}) AS ggr
               FROM ${READ} AND e.event_type = 'game_activity'
                AND EXISTS (SELECT 1 FROM analytics_first_deposits f2
                             WHERE f2.operator_id = e.operator_id AND f2.entity_id = e.entity_id AND f2.currency = ${CURRENCY}
                               AND e.occurred_at >= f2.day::timestamp AT TIME ZONE 'UTC' AND e.occurred_at < f2.occurred_at)
              GROUP BY 1, 2) r
      WHERE f.operator_id = r.operator_id AND f.entity_id = r.entity_id`,
    cursor,
  );
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('analytics_first_deposits');
  await db.raw('ALTER TABLE analytics_player_days DROP COLUMN played');
}
