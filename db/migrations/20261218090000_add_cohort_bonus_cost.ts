import type { Knex } from 'knex';

/**
 * Cohort NGR (issue 45, docs/analytics.md "Cohorts"): a cohort's bonus cost counts from each member's FTD on, as its
 * GGR does, so the kept first deposit gains `pre_ftd_bonus` beside `pre_ftd_ggr` — the completed bonuses on the FTD's
 * day before it, in its currency, which the day's player-day row cannot tell apart.
 *
 * Filled here from the events the passes have already read (at or before the cursor), holding the rollup state row's
 * lock so no pass runs in between; later bonuses are added by the passes. Stop the workers during the migration, as
 * for any rollup change.
 */
const CURRENCY = `coalesce(nullif(e.data->>'currency', ''), trim(s.reporting_currency), 'EUR')`;

export async function up(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE analytics_first_deposits ADD COLUMN pre_ftd_bonus numeric NOT NULL DEFAULT 0');
  const state = await db.raw('SELECT cursor_xid::text AS xid, cursor_id AS id FROM analytics_rollup_state WHERE id = 1 FOR UPDATE');
  const cursor = state.rows[0] as { xid: string; id: string } | undefined;
  if (!cursor) return;
  await db.raw(
    `UPDATE analytics_first_deposits f SET pre_ftd_bonus = r.bonus
       FROM (SELECT e.operator_id, e.entity_id,
                    sum(CASE WHEN jsonb_typeof(e.data->'amount') = 'number' THEN (e.data->>'amount')::numeric ELSE 0 END) AS bonus
               FROM entity_events e
               JOIN entities en ON en.id = e.entity_id AND en.operator_id = e.operator_id AND en.deleted_at IS NULL AND en.entity_type = 'player'
               LEFT JOIN operator_settings s ON s.operator_id = e.operator_id
              WHERE e.data->'_redacted' IS NULL AND (coalesce(e.ingest_xid, 0), e.id) <= (CAST(:xid AS bigint), CAST(:id AS text))
                AND e.event_type = 'transaction' AND e.data->>'type' = 'bonus' AND coalesce(e.data->>'status', 'completed') = 'completed'
                AND EXISTS (SELECT 1 FROM analytics_first_deposits f2
                             WHERE f2.operator_id = e.operator_id AND f2.entity_id = e.entity_id AND f2.currency = ${CURRENCY}
                               AND e.occurred_at >= f2.day::timestamp AT TIME ZONE 'UTC' AND e.occurred_at < f2.occurred_at)
              GROUP BY 1, 2) r
      WHERE f.operator_id = r.operator_id AND f.entity_id = r.entity_id`,
    cursor,
  );
}

export async function down(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE analytics_first_deposits DROP COLUMN pre_ftd_bonus');
}
